//! Every message encodes and decodes to itself: `Display` then `FromStr`
//! gives the same value.

use std::borrow::Cow;

use endodoi::{Move, MoveSet, Rules, Side, MAX_HOLES};
use endodoi_protocol::{
    GameOver, GameResult, Hello, HelloReply, NewGame, Quit, Reply, Request, Row, Turn,
};
use proptest::prelude::*;

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::South), Just(Side::North)]
}

fn rules() -> impl Strategy<Value = Rules> {
    (2usize..=MAX_HOLES, 1u32..=20, 1u32..=200_000, 1u32..=5000).prop_map(
        |(holes, seeds, laps, plies)| {
            Rules::new(holes, seeds)
                .and_then(|r| r.with_max_laps(laps))
                .and_then(|r| r.with_max_plies(plies))
                .expect("valid rules")
        },
    )
}

fn newgame() -> impl Strategy<Value = NewGame> {
    (
        rules(),
        side(),
        any::<u64>(),
        any::<u64>(),
        any::<u64>(),
        proptest::option::of((any::<u64>(), any::<u64>())),
    )
        .prop_map(
            |(rules, side, move_time_ms, base_time_ms, increment_ms, game)| NewGame {
                rules,
                side,
                move_time_ms,
                base_time_ms,
                increment_ms,
                game,
            },
        )
}

fn turn() -> impl Strategy<Value = Turn> {
    (1usize..=MAX_HOLES).prop_flat_map(|n| {
        (
            proptest::collection::vec(any::<u32>(), n),
            proptest::collection::vec(any::<u32>(), n),
            any::<[u32; 2]>(),
            proptest::option::of(1u8..=MAX_HOLES as u8),
            1u64..(1 << MAX_HOLES),
            any::<u32>(),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<[u64; 2]>()),
        )
            .prop_map(
                |(mine, theirs, captured, last, legal, ply, time_ms, clock_ms)| Turn {
                    mine: Row::new(&mine).unwrap(),
                    theirs: Row::new(&theirs).unwrap(),
                    captured,
                    last: last.and_then(Move::new),
                    legal: MoveSet::from_bits(legal),
                    ply,
                    time_ms,
                    clock_ms,
                },
            )
    })
}

fn result() -> impl Strategy<Value = GameResult> {
    prop_oneof![
        Just(GameResult::Win),
        Just(GameResult::Loss),
        Just(GameResult::Draw)
    ]
}

fn gameover() -> impl Strategy<Value = GameOver> {
    (
        proptest::option::of(result()),
        proptest::option::of(any::<u32>()),
        proptest::option::of(any::<u32>()),
        proptest::option::of("[a-z][a-z-]{0,20}"),
    )
        .prop_map(|(result, mine, theirs, reason)| GameOver {
            result,
            mine,
            theirs,
            reason,
        })
}

/// `option.NAME=VALUE` pairs as the arena sends them: names of the name
/// rule, values of printable ASCII without spaces (`=` allowed).
fn options() -> impl Strategy<Value = Vec<(String, String)>> {
    proptest::collection::vec(("[A-Za-z0-9][A-Za-z0-9._-]{0,20}", "[!-~]{0,20}"), 0..4)
}

fn request() -> impl Strategy<Value = Request> {
    prop_oneof![
        (proptest::option::of(any::<u32>()), options())
            .prop_map(|(version, options)| Request::Hello(Hello { version, options })),
        newgame().prop_map(Request::NewGame),
        turn().prop_map(|t| Request::Turn(Box::new(t))),
        gameover().prop_map(Request::GameOver),
        Just(Request::Quit),
        Just(Request::Empty),
        "[a-z][a-z0-9_]{0,10}"
            .prop_filter("not a known command", |w| {
                !["hello", "newgame", "turn", "gameover", "quit"].contains(&w.as_str())
            })
            .prop_map(Request::Unknown),
    ]
}

fn reply() -> impl Strategy<Value = Reply<'static>> {
    prop_oneof![
        (
            any::<u32>(),
            "[A-Za-z0-9][A-Za-z0-9._-]{0,63}",
            proptest::option::of("[!-~]{1,30}"),
            // Valid option names, each once: what decoding keeps.
            proptest::option::of(
                proptest::collection::btree_set("[A-Za-z0-9][A-Za-z0-9._-]{0,19}", 1..5)
                    .prop_map(|names| names.into_iter().collect::<Vec<_>>().join(",")),
            ),
        )
            .prop_map(|(version, name, author, options)| Reply::Hello(HelloReply {
                version,
                name: Cow::Owned(name),
                author: author.map(Cow::Owned),
                options: options.map(Cow::Owned),
            })),
        Just(Reply::Ready),
        any::<u32>().prop_map(Reply::Move),
        // Text as a bot writes it: no line breaks, nothing to trim.
        "([!-~]([ -~]{0,60}[!-~])?)?".prop_map(|t| Reply::Info(Cow::Owned(t))),
        Just(Reply::Blank),
    ]
}

proptest! {
    #[test]
    fn requests_round_trip(req in request()) {
        let line = req.to_string();
        prop_assert!(!line.contains('\n'));
        prop_assert_eq!(line.parse::<Request>(), Ok(req.clone()));
        // With the line ending and the tolerated whitespace.
        prop_assert_eq!(format!(" {line}\r\n").parse::<Request>(), Ok(req));
    }

    #[test]
    fn each_request_type_round_trips(
        g in newgame(),
        t in turn(),
        o in gameover(),
        version in proptest::option::of(any::<u32>()),
        options in options(),
    ) {
        prop_assert_eq!(g.to_string().parse::<NewGame>(), Ok(g));
        prop_assert_eq!(t.to_string().parse::<Turn>(), Ok(t));
        prop_assert_eq!(o.to_string().parse::<GameOver>(), Ok(o.clone()));
        let hello = Hello { version, options };
        prop_assert_eq!(hello.to_string().parse::<Hello>(), Ok(hello.clone()));
        prop_assert_eq!(Quit.to_string().parse::<Quit>(), Ok(Quit));
    }

    #[test]
    fn replies_round_trip(reply in reply()) {
        let line = reply.to_string();
        prop_assert!(!line.contains('\n'));
        prop_assert_eq!(Reply::parse(&line), Ok(reply.clone()));
        prop_assert_eq!(format!("{line}\r").parse::<Reply>(), Ok(reply.clone()));
        if let Reply::Hello(h) = &reply {
            let parsed = line.parse::<HelloReply>();
            prop_assert_eq!(parsed.as_ref(), Ok(h));
        }
    }

    /// Whatever the bytes, decoding never panics.
    #[test]
    fn any_line_decodes_or_errs(line in "[ -~]{0,80}") {
        let _ = line.parse::<Request>();
        let _ = Reply::parse(&line);
        let _ = endodoi_protocol::hello_name(&line);
    }
}
