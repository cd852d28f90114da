//! The config's tests: defaults, every error's message and place.

use super::text::Lines;
use super::*;
use crate::format::Decider;

/// What these tests read configs against: the machine's files, read as
/// `arena` reads them, and 4 cores (no test here depends on the cores).
/// Its own, not `commands::host`, so that `config` names no module above
/// it, tests included.
fn host() -> Host<'static> {
    fn read(path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }
    Host {
        cores: 4,
        read: &read,
    }
}

/// The message of the error `text`, a config file named `file`, gives.
fn error_of(text: &str, file: &str) -> String {
    Config::parse(text, file, "t", &host())
        .unwrap_err()
        .to_string()
}

#[test]
fn lines_agree_with_a_scan() {
    // Every offset of a text, against counting the newlines before it.
    for text in ["", "a", "\n", "ab\ncd\n\nef", "[[bot]]\nname = \"x\"\n"] {
        let lines = Lines::new(text);
        for offset in 0..=text.len() + 2 {
            let before = &text[..offset.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            assert_eq!(lines.line_col(offset), (line, col), "{text:?} at {offset}");
        }
    }
}

const TWO_BOTS: &str = r#"
[[bot]]
name = "a"
command = ["x"]
[[bot]]
name = "b"
command = ["y", "--seed", "2"]
dir = "bots"
"#;

#[test]
fn defaults_fill_missing_keys() {
    let c = Config::parse(TWO_BOTS, "t.toml", "t", &host()).unwrap();
    assert_eq!(c.name, "t");
    assert_eq!((c.rules.holes(), c.rules.seeds()), (8, 4));
    assert_eq!(c.rules.max_plies(), 1000);
    assert_eq!(c.time.move_time_ms, 1000);
    assert_eq!(c.tournament.first_to, 5);
    assert_eq!(c.tournament.max_games, 15);
    assert_eq!(c.bots[1].command, ["y", "--seed", "2"]);
    assert_eq!(c.bots[1].dir, Some(PathBuf::from("bots")));
}

/// The config of bot `a` with `keys` (TOML lines) beside bot `b`.
fn with_bot_keys(keys: &str) -> Result<Config, ConfigError> {
    Config::parse(
        &format!("[time]\nmove_time_ms = 500\nmargin_ms = 20\n[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n{keys}\n[[bot]]\nname = \"b\"\ncommand = [\"y\"]\n"),
        "t.toml",
        "t",
        &host(),
    )
}

#[test]
fn a_bots_own_time_replaces_the_tables() {
    let c = with_bot_keys("move_time_ms = 0\nbase_time_ms = 60000\nincrement_ms = 100").unwrap();
    let [a, b] = [&c.bots[0].time, &c.bots[1].time];
    assert_eq!(
        (a.move_time_ms, a.base_time_ms, a.increment_ms),
        (0, 60_000, 100)
    );
    // margin and start-up are the table's, for every bot.
    assert_eq!((a.margin_ms, a.startup_ms), (20, DEFAULT_STARTUP_MS));
    assert_eq!(*b, c.time);
    assert_eq!(b.move_time_ms, 500);
    let e = with_bot_keys("move_time_ms = 0").unwrap_err().to_string();
    assert!(
        e.starts_with("t.toml:7:16: bot 'a': move_time_ms = 0 and no game clock"),
        "{e}"
    );
    // An increment with no game clock to add to is refused where it is
    // set: the bot's own keys, or [time]'s.
    let e = with_bot_keys("increment_ms = 100").unwrap_err().to_string();
    assert_eq!(e, "t.toml:7:16: bot 'a': increment_ms = 100 adds to a game clock, and base_time_ms = 0 sets none: set its base_time_ms, or remove increment_ms");
    let e = Config::parse(
        &format!("[time]\nbase_time_ms = 1000\nincrement_ms = 100\n{TWO_BOTS}\nbase_time_ms = 0\n"),
        "t.toml",
        "t",
        &host(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains(": bot 'b': base_time_ms = 0 sets no game clock, and [time]'s increment_ms = 100 adds to one: set its base_time_ms above 0, or its increment_ms = 0"), "{e}");
    let e = Config::parse(
        &format!("[time]\nincrement_ms = 100\n{TWO_BOTS}"),
        "t.toml",
        "t",
        &host(),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(e, "t.toml:2:16: time.increment_ms = 100 adds to a game clock, and base_time_ms = 0 sets none: set base_time_ms, or remove increment_ms");
    let e = with_bot_keys("increment_ms = -1").unwrap_err().to_string();
    assert!(
        e.starts_with("t.toml:7:16: bot 'a': increment_ms = -1 is out of range: use 0 to 86400000"),
        "{e}"
    );
}

#[test]
fn env_takes_variable_names_and_strings() {
    let c = with_bot_keys("env = { B_2 = \"x y\", _A = \"\" }").unwrap();
    assert_eq!(
        c.bots[0].env,
        [("B_2".into(), "x y".into()), ("_A".into(), String::new())]
    );
    assert!(c.bots[1].env.is_empty());
    for (keys, want) in [
        ("env = { 2X = \"1\" }", "t.toml:7:14: bot 'a': env name '2X' is not a variable name"),
        ("env = { \"A=B\" = \"1\" }", "t.toml:7:17: bot 'a': env name 'A=B'"),
        ("env = { A-B = \"1\" }", "t.toml:7:15: bot 'a': env name 'A-B'"),
        ("env = { DEPTH = 5 }", "t.toml:7:17: bot 'a': env DEPTH = 5 is an integer: write the value as a string, e.g. DEPTH = \"5\""),
        ("env = { A = \"a\\u0000b\" }", "t.toml:7:13: bot 'a': env A holds a NUL"),
    ] {
        let e = with_bot_keys(keys).unwrap_err().to_string();
        assert!(e.starts_with(want), "{keys}: {e}");
    }
    let e = with_bot_keys("env = \"A=1\"").unwrap_err().to_string();
    assert!(e.contains("e.g. env = { MY_SETTING"), "{e}");
}

#[test]
fn options_are_rendered_plainly_and_must_fit_the_protocol() {
    let c = with_bot_keys(
        "options = { depth = 5, style = \"fast\", c = 1.5, d = 2.0, big = 1e300, on = true, k = -3 }",
    )
    .unwrap();
    let shown: Vec<String> = c.bots[0]
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    assert_eq!(
        shown,
        [
            "big=1e300",
            "c=1.5",
            "d=2.0",
            "depth=5",
            "k=-3",
            "on=true",
            "style=fast"
        ]
    );
    for (keys, want) in [
        (
            "options = { \"my depth\" = 5 }",
            "t.toml:7:26: bot 'a': option name 'my depth' does not fit",
        ),
        (
            "options = { \"a=b\" = 5 }",
            "t.toml:7:21: bot 'a': option name 'a=b'",
        ),
        (
            "options = { style = \"very fast\" }",
            "t.toml:7:21: bot 'a': option style = 'very fast' does not fit",
        ),
        (
            "options = { list = [1, 2] }",
            "t.toml:7:20: bot 'a': option list is an array",
        ),
        (
            "options = { x = nan }",
            "t.toml:7:17: bot 'a': option x is a float",
        ),
        (
            "options = { at = 1979-05-27 }",
            "t.toml:7:18: bot 'a': option at is a datetime",
        ),
    ] {
        let e = with_bot_keys(keys).unwrap_err().to_string();
        assert!(e.starts_with(want), "{keys}: {e}");
    }
    let long = "v".repeat(MAX_OPTION_BYTES);
    let e = with_bot_keys(&format!("options = {{ x = \"{long}\" }}"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("at most 409 bytes"), "{e}");
    // Many options that fit one by one, but not in one hello line.
    let many: Vec<String> = (0..20)
        .map(|i| format!("o{i} = \"{}\"", "v".repeat(300)))
        .collect();
    let e = with_bot_keys(&format!("options = {{ {} }}", many.join(", ")))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("t.toml:7:11: bot 'a': its options make a hello line of"),
        "{e}"
    );
}

#[test]
fn errors_teach_the_fix() {
    let error = |text: &str| {
        Config::parse(&format!("{text}\n{TWO_BOTS}"), "t.toml", "t", &host())
            .unwrap_err()
            .to_string()
    };
    let e = error("[tournament]\nconcurency = 2");
    assert!(
        e.starts_with("t.toml:2:1: unknown field `concurency`"),
        "{e}"
    );
    assert!(e.contains("did you mean `concurrency`?"), "{e}");
    let e = error("[tournament]\nzzz = 2");
    assert!(
        !e.contains("did you mean") && e.contains("arena init"),
        "{e}"
    );
    let e = error("[board]\nholes = \"8\"");
    assert!(e.contains("write the number without quotes"), "{e}");
    let e = error("[limits]\nsandbox = \"yes\"");
    assert!(e.contains("write true or false"), "{e}");
    let e = Config::parse(
        "[[bot]]\nname = \"a\"\ncommand = \"x y\"\n",
        "t.toml",
        "t",
        &host(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("t.toml:3:11:") && e.contains("list of words"),
        "{e}"
    );
}

#[test]
fn the_starter_config_runs_as_it_is_and_shows_the_defaults() {
    let starter = Config::parse(STARTER, "arena.toml", "arena", &host()).unwrap();
    let defaults = Config::parse(TWO_BOTS, "t.toml", "t", &host()).unwrap();
    assert_eq!(starter.rules, defaults.rules);
    assert_eq!(starter.adjudicate, defaults.adjudicate);
    assert_eq!(starter.time, defaults.time);
    assert_eq!(starter.tournament, defaults.tournament);
    assert_eq!(starter.ratings, defaults.ratings);
    assert_eq!(starter.opening_plies, defaults.opening_plies);
    assert_eq!(starter.bots[0].limits, defaults.bots[0].limits);
    assert_eq!(starter.bots.len(), 2);
}

#[test]
fn the_starter_config_lists_every_key() {
    // Each table's keys, as serde lists them for an unknown one.
    for table in [
        "",
        "[board]",
        "[time]",
        "[tournament]",
        "[openings]",
        "[ratings]",
        "[limits]",
        "[sprt]\nelo0 = 0\nelo1 = 5",
        "[[bot]]\nname = \"z\"\ncommand = [\"z\"]",
    ] {
        let e = Config::parse(&format!("{table}\nzzz = 1\n"), "t", "t", &host())
            .unwrap_err()
            .to_string();
        let keys: Vec<&str> = e
            .split("expected one of ")
            .nth(1)
            .and_then(|rest| rest.split(';').next())
            .unwrap_or_else(|| panic!("{e}"))
            .split('`')
            .skip(1)
            .step_by(2)
            .collect();
        assert!(!keys.is_empty(), "{e}");
        for key in keys {
            let written = STARTER
                .lines()
                .map(|l| l.trim_start_matches(['#', ' ', '[']))
                .any(|l| {
                    l.strip_prefix(key)
                        .is_some_and(|rest| rest.starts_with([' ', '=', ']']))
                });
            assert!(written, "the starter config lacks `{key}` of {table:?}");
        }
    }
}

#[test]
fn format_keys_are_checked_against_the_format_and_the_bots() {
    let bots = "[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n[[bot]]\nname = \"b\"\ncommand = [\"x\"]\n[[bot]]\nname = \"c\"\ncommand = [\"x\"]\n";
    let files = |p: &Path| match p.to_str() {
        Some("ranks.csv") => Ok("rank,bot,elo\n1,c,50\n2,zed,10\n3,a,-60\n".to_string()),
        _ => Err(std::io::Error::from(std::io::ErrorKind::NotFound)),
    };
    let host = Host {
        cores: 2,
        read: &files,
    };
    let parse = |tournament: &str| {
        Config::parse(
            &format!("[tournament]\n{tournament}\n{bots}"),
            "t.toml",
            "t",
            &host,
        )
    };
    let err = |tournament: &str| parse(tournament).unwrap_err().to_string();
    assert_eq!(parse("").unwrap().format, Format::RoundRobin);
    assert_eq!(
        parse("format = \"gauntlet\"\ncandidates = [\"b\"]")
            .unwrap()
            .format,
        Format::Gauntlet {
            candidates: vec![1]
        }
    );
    // Seeds: the listed bots first, then the others in the config's order.
    assert_eq!(
        parse("format = \"knockout\"\nseeding = [\"b\"]")
            .unwrap()
            .format,
        Format::Knockout {
            seeds: vec![1, 0, 2],
            decider: Decider::Pair
        }
    );
    // A standings file: its order, bots it does not know left out.
    assert_eq!(
        parse("format = \"swiss\"\nseeding_file = \"ranks.csv\"\nrounds = 3")
            .unwrap()
            .format,
        Format::Swiss {
            seeds: vec![2, 0, 1],
            rounds: 3
        }
    );
    assert_eq!(
        parse("format = \"swiss\"").unwrap().format,
        Format::Swiss {
            seeds: vec![0, 1, 2],
            rounds: 2
        }
    );
    // A league: its keys, the ratings' settings, one game pair a pairing.
    let league = parse("format = \"league\"\nrounds = 5\nsettle_los = 0.95").unwrap();
    let Format::League(l) = league.format else {
        panic!("{:?}", league.format)
    };
    assert_eq!((l.rounds, l.settle_los), (Some(5), Some(0.95)));
    assert_eq!(l.seed, league.tournament.seed);
    assert_eq!(l.bootstrap, league.ratings.bootstrap);
    assert_eq!(league.tournament.max_games, 2);
    let open = parse("format = \"league\"").unwrap();
    assert!(
        matches!(open.format, Format::League(l) if l.rounds.is_none() && l.settle_los.is_none() && l.pairing == crate::format::PairBy::Rating)
    );
    let random = parse("format = \"league\"\npairing = \"random\"").unwrap();
    assert!(
        matches!(random.format, Format::League(l) if l.pairing == crate::format::PairBy::Random)
    );
    assert!(
        matches!(open.format, Format::League(l) if l.catch_up == crate::format::LEAGUE_CATCH_UP)
    );
    let off = parse("format = \"league\"\ncatch_up = 1").unwrap();
    assert!(matches!(off.format, Format::League(l) if l.catch_up == 1));
    for (tournament, expected) in [
        ("format = \"ladder\"", "t.toml:2:10: tournament.format = \"ladder\" is not a format: use \"round-robin\", \"gauntlet\", \"knockout\", \"swiss\" or \"league\""),
        ("candidates = [\"a\"]", "t.toml:2:14: tournament.candidates applies only to format = \"gauntlet\", and this config's format is \"round-robin\": set the format, or remove candidates"),
        ("format = \"gauntlet\"", "t.toml:2:10: tournament.format = \"gauntlet\" needs candidates"),
        ("format = \"gauntlet\"\ncandidates = [\"q\"]", "t.toml:3:14: tournament.candidates names 'q', which is not a bot"),
        ("format = \"knockout\"\nseeding = [\"a\", \"a\"]", "t.toml:3:11: tournament.seeding names 'a' twice"),
        ("format = \"knockout\"\ndecider = \"coin\"", "t.toml:3:11: tournament.decider = \"coin\" is not a decider"),
        ("format = \"knockout\"\nrounds = 2", "t.toml:3:10: tournament.rounds applies only to format = \"swiss\" or \"league\""),
        ("format = \"swiss\"\nsettle_los = 0.9", "t.toml:3:14: tournament.settle_los applies only to format = \"league\""),
        ("format = \"swiss\"\npairing = \"random\"", "t.toml:3:11: tournament.pairing applies only to format = \"league\""),
        ("format = \"league\"\npairing = \"best\"", "t.toml:3:11: tournament.pairing = \"best\" is not a pairing: use \"rating\""),
        ("format = \"league\"\nsettle_los = 1.0", "t.toml:3:14: tournament.settle_los = 1 is out of range"),
        ("format = \"league\"\ncatch_up = 0", "t.toml:3:12: tournament.catch_up = 0 is out of range: give the most series a late entrant far behind plays in a round, 1 to 16"),
        ("format = \"swiss\"\ncatch_up = 2", "t.toml:3:12: tournament.catch_up applies only to format = \"league\""),
        ("format = \"league\"\nrounds = 0", "t.toml:3:10: tournament.rounds = 0 is out of range: a league plays 1 to 1000000 rounds"),
        ("format = \"swiss\"\nrounds = 4", "t.toml:3:10: tournament.rounds = 4 is out of range: 3 bots can play 1 to 3 rounds"),
        ("format = \"swiss\"\nseeding_file = \"none.csv\"", "t.toml:3:16: tournament.seeding_file: cannot read none.csv"),
        // Type errors name the key's fix, not the command's.
        ("format = \"knockout\"\nseeding = \"a\"", "t.toml:3:11: invalid type: string \"a\", expected a sequence; write a list, e.g. seeding = [\"a\"] (in `seeding = \"a\"`)"),
        ("format = \"gauntlet\"\ncandidates = \"b\"", "t.toml:3:14: invalid type: string \"b\", expected a sequence; write a list, e.g. candidates = [\"b\"]"),
        ("format = \"gauntlet\"\ncandidates = [1, 2]", "t.toml:3:15: invalid type: integer `1`, expected a string; write bot names in quotes, e.g. candidates = [\"a\", \"b\"]"),
        ("format = 3", "t.toml:2:10: invalid type: integer `3`, expected a string; use \"round-robin\", \"gauntlet\", \"knockout\", \"swiss\" or \"league\" (in `format = 3`)"),
        ("format = \"knockout\"\ndecider = 1", "t.toml:3:11: invalid type: integer `1`, expected a string; use \"pair\" (extra game pairs) or \"seed\""),
        ("format = \"league\"\npairing = 1", "t.toml:3:11: invalid type: integer `1`, expected a string; use \"rating\" (by the current ratings, the default) or \"random\""),
    ] {
        let e = err(tournament);
        assert!(e.starts_with(expected), "{tournament:?}: {e}");
    }
}

#[test]
fn adjudication_is_off_unless_asked_for_and_takes_two_values() {
    let parse = |board: &str| {
        let text = format!("[board]\n{board}\n{TWO_BOTS}");
        Config::parse(&text, "t.toml", "t", &host()).map_err(|e| e.to_string())
    };
    assert_eq!(parse("").unwrap().adjudicate, Adjudicate::OFF);
    assert_eq!(
        parse("adjudicate = \"off\"").unwrap().adjudicate,
        Adjudicate::OFF
    );
    assert_eq!(
        parse("adjudicate = \"decided\"").unwrap().adjudicate,
        Adjudicate::DECIDED
    );
    let e = parse("adjudicate = \"decide\"").unwrap_err();
    assert_eq!(
        e,
        "t.toml:2:14: board.adjudicate = \"decide\" is not a choice: use \"off\" (the default), \"decided\" (end a game once its winner is certain), \"tablebase\" (end it once the endgame tables of board.tablebase know its result) or [\"decided\", \"tablebase\"] (whichever comes first); did you mean \"decided\"?"
    );
    for bad in ["\"always\"", "true", "1"] {
        let e = parse(&format!("adjudicate = {bad}")).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "t.toml:2:14: board.adjudicate = {bad} is not a choice: use \"off\""
            )),
            "{e}"
        );
        assert!(!e.contains("did you mean") && !e.contains('\n'), "{e}");
    }
}

/// The manifest of tables that fit the board of [`parse_with_tables`].
const GOOD_TABLES: &str = "[board]\nholes = 3\nmax_laps = 100000\n";

/// Parses a config of two bots whose `[board]` is `holes = 3` then `board`,
/// read from the folder `cfg` where `cfg/tb/manifest.toml` holds `manifest`
/// (no such file if it is empty); the error as its message.
fn parse_with_tables(board: &str, manifest: &str) -> Result<Config, String> {
    let text = format!("[board]\nholes = 3\n{board}\n{TWO_BOTS}");
    let read = |p: &Path| {
        if p.ends_with("tb/manifest.toml") && !manifest.is_empty() {
            Ok(manifest.to_string())
        } else {
            Err(std::io::Error::from(std::io::ErrorKind::NotFound))
        }
    };
    let host = Host {
        cores: 1,
        read: &read,
    };
    Config::parse_in(&text, "t.toml", "t", Path::new("cfg"), &host).map_err(|e| e.to_string())
}

#[test]
fn adjudication_takes_an_array_of_distinct_rules() {
    let parse = |board: &str| parse_with_tables(board, GOOD_TABLES);
    let both = parse("adjudicate = [\"decided\", \"tablebase\"]\ntablebase = \"tb\"").unwrap();
    assert_eq!(both.adjudicate, Adjudicate::BOTH);
    assert_eq!(both.tablebase.as_deref(), Some(Path::new("cfg/tb")));
    let reversed = parse("adjudicate = [\"tablebase\", \"decided\"]\ntablebase = \"tb\"").unwrap();
    assert_eq!(reversed.adjudicate, Adjudicate::BOTH);
    assert_eq!(
        parse("adjudicate = []").unwrap().adjudicate,
        Adjudicate::OFF
    );
    assert_eq!(
        parse("adjudicate = [\"decided\"]").unwrap().adjudicate,
        Adjudicate::DECIDED
    );
    let allowed = ": use \"off\" (the default), \"decided\"";
    for (board, expected) in [
        ("adjudicate = [\"decided\", \"decided\"]", "t.toml:3:14: board.adjudicate = [\"decided\", \"decided\"] holds \"decided\" twice"),
        ("adjudicate = [\"decided\", \"tablebse\"]", "t.toml:3:14: board.adjudicate = [\"decided\", \"tablebse\"] holds \"tablebse\", which is not a rule"),
        ("adjudicate = [\"off\"]", "t.toml:3:14: board.adjudicate = [\"off\"] holds \"off\", which is not a rule"),
        ("adjudicate = [1]", "t.toml:3:14: board.adjudicate = [1] holds 1, which is not a rule"),
        ("adjudicate = [\"decided\", \"tablebase\"]", "t.toml: board.adjudicate = \"tablebase\" needs board.tablebase"),
    ] {
        let e = parse(board).unwrap_err();
        assert!(e.starts_with(expected), "{board:?}: {e}");
        assert!(!e.contains('\n'), "{e}");
        if !expected.contains("needs") {
            assert!(e.contains(allowed), "{e}");
        }
    }
    let e = parse("adjudicate = [\"decided\", \"tablebse\"]").unwrap_err();
    assert!(e.ends_with("; did you mean \"tablebase\"?"), "{e}");
}

#[test]
fn tablebase_adjudication_needs_tables_of_its_board() {
    let parse = parse_with_tables;
    let good = GOOD_TABLES;
    let c = parse("adjudicate = \"tablebase\"\ntablebase = \"tb\"", good).unwrap();
    assert_eq!(c.adjudicate, Adjudicate::TABLEBASE);
    assert_eq!(c.tablebase.as_deref(), Some(Path::new("cfg/tb")));
    for (board, manifest, expected) in [
        ("adjudicate = \"tablebase\"", good, "t.toml: board.adjudicate = \"tablebase\" needs board.tablebase"),
        ("tablebase = \"tb\"", good, "t.toml:3:13: board.tablebase is used only with adjudicate = \"tablebase\""),
        ("adjudicate = \"tablebase\"\ntablebase = \"tb\"", "", "t.toml:4:13: board.tablebase = \"tb\": cannot read cfg/tb/manifest.toml"),
        ("adjudicate = \"tablebase\"\ntablebase = \"tb\"", "[board]\nholes = 4\nmax_laps = 100000\n", "t.toml:4:13: board.tablebase = \"tb\": the tables are for 2x4 with max_laps 100000, but the board is 2x3"),
        ("adjudicate = \"tablebase\"\nmax_laps = 7\ntablebase = \"tb\"", good, "t.toml:5:13: board.tablebase = \"tb\": the tables are for 2x3 with max_laps 100000, but the board is 2x3 with max_laps 7"),
        ("adjudicate = \"tablebase\"\ntablebase = \"tb\"", "holes = 3", "t.toml:4:13: board.tablebase = \"tb\": cfg/tb/manifest.toml is not a tables manifest"),
    ] {
        // Windows writes the folder's path with backslashes.
        let e = parse(board, manifest).unwrap_err().replace('\\', "/");
        assert!(e.starts_with(expected), "{board:?}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

#[test]
fn errors_point_at_the_line() {
    let text = format!("[board]\nholes = 60\n{TWO_BOTS}");
    let e = error_of(&text, "t.toml");
    assert!(
        e.starts_with("t.toml:2:9: board.holes = 60 is out of range"),
        "{e}"
    );
    assert!(!e.contains('\n'));

    let text = format!("[board]\nholse = 6\n{TWO_BOTS}");
    let e = error_of(&text, "t.toml");
    assert!(e.starts_with("t.toml:2:1: unknown field `holse`"), "{e}");
    assert!(!e.contains('\n'));
}

#[test]
fn sandbox_true_where_the_platform_has_none_stops_at_its_line() {
    let text = "[[bot]]\nname = \"a\"\ncommand = [\"x\"]\nsandbox = true\n[[bot]]\nname = \"b\"\ncommand = [\"x\"]\n";
    let parsed = Config::parse(text, "t.toml", "t", &host());
    if crate::platform::SANDBOX {
        assert!(parsed.unwrap().bots[0].sandbox.is_some());
    } else {
        let e = parsed.unwrap_err().to_string();
        assert_eq!(e, format!("t.toml:4:11: {}", crate::platform::NO_SANDBOX));
    }
}

#[test]
fn cgroups_is_a_choice_of_limits_for_every_bot() {
    let parse = |limits: &str, bot: &str| {
        let text = format!(
            "[limits]\n{limits}\n[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n{bot}\n[[bot]]\nname = \"b\"\ncommand = [\"x\"]\n"
        );
        Config::parse(&text, "t.toml", "t", &host())
    };
    let mode = |limits: &str| parse(limits, "").unwrap().bots[1].limits.cgroups;
    assert_eq!(mode(""), CgroupMode::Auto);
    assert_eq!(mode("cgroups = \"auto\""), CgroupMode::Auto);
    if crate::platform::CGROUPS {
        assert_eq!(mode("cgroups = \"require\""), CgroupMode::Require);
    } else {
        // Where the platform has none, at the setting's line.
        let e = parse("cgroups = \"require\"", "").unwrap_err().to_string();
        assert_eq!(e, format!("t.toml:2:11: {}", crate::platform::NO_CGROUPS));
    }
    assert_eq!(mode("cgroups = \"off\""), CgroupMode::Off);
    for bad in ["\"yes\"", "true", "\"Require\""] {
        let e = parse(&format!("cgroups = {bad}"), "")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!(
                "t.toml:2:11: limits.cgroups = {bad} is not a choice: use \"auto\""
            )),
            "{e}"
        );
    }
    let e = parse("", "cgroups = \"off\"").unwrap_err().to_string();
    assert!(e.starts_with("t.toml:6:1: unknown field `cgroups`"), "{e}");
    assert!(
        e.contains("; cgroups holds for every bot: set it in [limits] (in"),
        "{e}"
    );
}

#[test]
fn type_errors_name_the_line() {
    let text = format!("[board]\nholes = \"8\"\n{TWO_BOTS}");
    let e = error_of(&text, "t");
    assert!(
        e.starts_with(
            "t:2:9: invalid type: string \"8\", expected a whole number; write the number without quotes (in `holes = \"8\"`)"
        ),
        "{e}"
    );
    let e = error_of("[bot]\nname = \"a\"\ncommand = [\"x\"]\n", "t");
    assert!(e.contains("write [[bot]]"), "{e}");
    let text = format!("[board]\nmax_laps = 2\n{TWO_BOTS}");
    let e = error_of(&text, "t");
    assert!(e.contains("every first move endless"), "{e}");
}

#[test]
fn openings_from_a_file_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.txt");
    std::fs::write(&book, "# two openings\n4 3\n\n1 2\n").unwrap();
    let text = format!(
        "[openings]\nfile = {:?}\n{TWO_BOTS}",
        book.display().to_string()
    );
    let c = Config::parse(&text, "t", "t", &host()).unwrap();
    let book_moves: Vec<String> = c
        .opening_book
        .unwrap()
        .iter()
        .map(|o| {
            o.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(book_moves, ["4 3", "1 2"]);
    std::fs::write(&book, "4 9\n").unwrap();
    let e = error_of(&text, "t");
    assert!(e.contains("book.txt:1: move 9"), "{e}");
    // The protocol's rule of a hole number: no sign, no leading zero.
    std::fs::write(&book, "4 03\n").unwrap();
    let e = error_of(&text, "t");
    assert!(e.contains("book.txt:1: '03' is not a hole number"), "{e}");
    // With the rule, and the board's own range (issue 17's tester):
    // a 2x3 board's holes are 1 to 3.
    std::fs::write(&book, "01\n").unwrap();
    let small = format!(
        "[board]\nholes = 3\n[openings]\nfile = {:?}\n{TWO_BOTS}",
        book.display().to_string()
    );
    let e = error_of(&small, "t");
    assert!(
        e.ends_with(
            "book.txt:1: '01' is not a hole number: use 1 to 3, in plain digits (no sign, no leading zero)"
        ),
        "{e}"
    );
}

#[test]
fn a_byte_order_mark_is_skipped_in_the_config_and_the_openings_file() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.txt");
    std::fs::write(&book, "\u{feff}1 2\n4 3\n").unwrap();
    let config = dir.path().join("t.toml");
    let text = format!(
        "\u{feff}[openings]\nfile = {:?}\n{TWO_BOTS}",
        book.display().to_string()
    );
    std::fs::write(&config, text).unwrap();
    let c = Config::load(&config, &host()).unwrap();
    let first: Vec<String> = c.opening_book.unwrap()[0]
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(first, ["1", "2"]);
    // Only one: a second is still a bad word, on its line.
    std::fs::write(&book, "\u{feff}\u{feff}1 2\n").unwrap();
    let e = Config::load(&config, &host()).unwrap_err().to_string();
    assert!(
        e.contains("book.txt:1: '\u{feff}1' is not a hole number"),
        "{e}"
    );
}

#[test]
fn only_concurrency_and_affinity_may_change_on_a_resume() {
    let base = format!("[tournament]\nfirst_to = 3\nconcurrency = 1\n{TWO_BOTS}");
    let same = |other: &str| same_games(base.as_bytes(), other.as_bytes());
    assert!(same(&base));
    assert!(same(
        &base.replace("concurrency = 1", "concurrency = 8\naffinity = true")
    ));
    assert!(same(&base.replace("concurrency = 1\n", "")));
    let bare = base.replace("[tournament]\nfirst_to = 3\nconcurrency = 1\n", "");
    assert!(same_games(
        bare.as_bytes(),
        format!("{bare}[tournament]\nconcurrency = 4\n").as_bytes()
    ));
    assert!(!same(&base.replace("first_to = 3", "first_to = 4")));
    assert!(!same(
        &base.replace("[tournament]", "[board]\nholes = 6\n[tournament]")
    ));
    assert!(!same("not toml ["));
    assert!(same_games(b"not toml [", b"not toml ["));
}

#[test]
fn a_resume_refusal_names_the_first_key_that_differs() {
    let base = format!("[tournament]\nfirst_to = 3\nconcurrency = 1\n{TWO_BOTS}");
    let diff = |other: &str| games_difference(base.as_bytes(), other.as_bytes());
    assert_eq!(
        diff(&base.replace("concurrency = 1", "concurrency = 4")),
        None
    );
    assert_eq!(
        diff(&base.replace("first_to = 3", "first_to = 4")).as_deref(),
        Some("[tournament] first_to")
    );
    assert_eq!(
        diff(&format!("[board]\nholes = 6\n{base}")).as_deref(),
        Some("board")
    );
    assert_eq!(
        diff(&base.replace("[tournament]\nfirst_to = 3\nconcurrency = 1\n", "")).as_deref(),
        Some("tournament")
    );
    assert_eq!(diff("not toml [").as_deref(), Some("the file"));
    assert_eq!(
        diff(&base.replace("\"x\"", "\"z\"")).as_deref(),
        Some("bot 'a''s command")
    );
    assert_eq!(
        diff(&format!("{base}[[bot]]\nname = \"c\"\ncommand = [\"x\"]\n")).as_deref(),
        Some("the bot list (bot 'c' is in one config only)")
    );
}

#[test]
fn ratings_and_sprt_settings() {
    let text = format!("[ratings]\nanchor = \"a\"\nanchor_elo = 1500\n[sprt]\nelo0 = 0\nelo1 = 5\nmodel = \"logistic\"\n{TWO_BOTS}");
    let c = Config::parse(&text, "t", "t", &host()).unwrap();
    assert_eq!(c.ratings.anchor, Some(("a".to_string(), 1500.0)));
    let sprt = c.sprt.unwrap();
    assert_eq!(
        (sprt.elo0, sprt.elo1, sprt.alpha, sprt.model),
        (0.0, 5.0, 0.05, SprtModelName::Logistic)
    );
    // NaN, infinite or absurd anchors are refused at their line.
    for bad in ["nan", "inf", "-1e308", "10001"] {
        let text = format!("[ratings]\nanchor = \"a\"\nanchor_elo = {bad}\n{TWO_BOTS}");
        let e = error_of(&text, "t");
        assert!(
            e.starts_with("t:3:14: ratings.anchor_elo is out of range"),
            "{bad}: {e}"
        );
    }
    assert_eq!(super::anchor_elo("-250.5"), Ok(-250.5));
    for bad in ["nan", "inf", "1e308", "x"] {
        let e = super::anchor_elo(bad).unwrap_err().to_string();
        assert!(e.contains("from -10000 to 10000"), "{bad}: {e}");
    }
    let text = format!("[ratings]\nanchor = \"zz\"\n{TWO_BOTS}");
    assert!(error_of(&text, "t").contains("is not a bot"));
    let text = format!("[sprt]\nelo0 = 5\nelo1 = 0\n{TWO_BOTS}");
    assert!(error_of(&text, "t").contains("elo0 < elo1"));
    let three =
        format!("[sprt]\nelo0 = 0\nelo1 = 5\n{TWO_BOTS}[[bot]]\nname = \"c\"\ncommand = [\"z\"]\n");
    assert!(error_of(&three, "t").contains("two bots"));
}

#[test]
fn sprt_errors_point_at_the_sprt_table_or_its_key() {
    let error = |text: &str| error_of(text, "t");
    // The key at fault: elo1 (line 4), alpha (line 5).
    let e = error(&format!(
        "name = \"x\"\n\n[sprt]\nelo0 = 5\nelo1 = 0\n{TWO_BOTS}"
    ));
    assert!(e.starts_with("t:5:8: [sprt] needs elo0 < elo1"), "{e}");
    let e = error(&format!(
        "# a comment\n[sprt]\nelo0 = 0\nelo1 = 5\nalpha = 0.7\n{TWO_BOTS}"
    ));
    assert!(e.starts_with("t:5:9: [sprt] alpha and beta"), "{e}");
    let e = error(&format!("[sprt]\nelo0 = 0\nelo1 = 5\nbeta = 0\n{TWO_BOTS}"));
    assert!(e.starts_with("t:4:8: [sprt] alpha and beta"), "{e}");
    // NaN, infinity and absurd sizes at the key that has them.
    for (elo0, elo1, line) in [("0", "nan", 3), ("-inf", "5", 2), ("0", "1e300", 3)] {
        let e = error(&format!("[sprt]\nelo0 = {elo0}\nelo1 = {elo1}\n{TWO_BOTS}"));
        let key = if line == 2 { "elo0" } else { "elo1" };
        assert!(
            e.starts_with(&format!(
                "t:{line}:8: [sprt] {key} must be a number of Elo points from -1000 to 1000"
            )),
            "{elo0} {elo1}: {e}"
        );
    }
    // The table itself: [sprt] on line 3, after the bots too.
    let three = format!(
        "[tournament]\nseed = 1\n[sprt]\nelo0 = 0\nelo1 = 5\n{TWO_BOTS}[[bot]]\nname = \"c\"\ncommand = [\"z\"]\n"
    );
    assert!(
        error(&three).starts_with("t:3:1: [sprt] is for a match of two bots"),
        "{}",
        error(&three)
    );
    let late = format!("{TWO_BOTS}[[bot]]\nname = \"c\"\ncommand = [\"z\"]\n  [ sprt ]  # the test\nelo0 = 0\nelo1 = 5\n");
    let line = late.lines().position(|l| l.contains("[ sprt ]")).unwrap() + 1;
    assert!(
        error(&late).starts_with(&format!("t:{line}:3: [sprt] is for")),
        "{}",
        error(&late)
    );
    // With dotted keys, the key's line.
    let dotted = format!("name = \"x\"\nsprt.elo0 = 5\nsprt.elo1 = 0\n{TWO_BOTS}");
    assert!(
        error(&dotted).starts_with("t:3:13: [sprt] needs elo0 < elo1"),
        "{}",
        error(&dotted)
    );
    // Written inline, the key's line.
    let inline = format!("sprt = {{ elo0 = 3, elo1 = 1 }}\n{TWO_BOTS}");
    assert!(error(&inline).starts_with("t:1:"), "{}", error(&inline));
    assert!(error(&inline).contains("elo0 < elo1"), "{}", error(&inline));
}

/// Issue 17's tester: a key written twice said only `duplicate key`.
#[test]
fn a_duplicate_key_names_both_lines() {
    let text = format!("[board]\nholes = 6\nseeds = 4\nholes = 5\n{TWO_BOTS}");
    let e = error_of(&text, "t");
    assert!(e.starts_with("t:4:"), "{e}");
    assert!(e.contains("duplicate key"), "{e}");
    assert!(e.contains("keep one: `holes` is also on line 2"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn bad_bots_are_refused() {
    let one = "[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n";
    assert!(error_of(one, "t").contains("1 bot configured: a round robin needs at least two"));
    let dup = format!("{one}{one}");
    let e = error_of(&dup, "t");
    assert!(e.contains("used twice") && e.starts_with("t:5:"), "{e}");
    let empty = format!("{one}[[bot]]\nname = \"b\"\ncommand = []\n");
    assert!(error_of(&empty, "t").contains("empty command"));
}

#[test]
fn unlimited_moves_are_refused_and_fixed_length_matches_allowed() {
    let text = format!("[tournament]\nfirst_to = 100\nmax_games = 8\n{TWO_BOTS}");
    assert_eq!(
        Config::parse(&text, "t", "t", &host())
            .unwrap()
            .tournament
            .max_games,
        8
    );
    let text = format!("[time]\nmove_time_ms = 0\n{TWO_BOTS}");
    assert!(Config::parse(&text, "t", "t", &host()).is_err());
}

#[test]
fn a_table_written_as_a_value_is_named_as_the_table_not_as_a_rust_type() {
    for table in [
        "board",
        "time",
        "tournament",
        "openings",
        "limits",
        "ratings",
        "sprt",
    ] {
        let e = error_of(&format!("{table} = 3\n"), "t.toml");
        assert!(
            e.contains(&format!("expected a table ([{table}] on a line of its own")),
            "{e}"
        );
        assert!(!e.contains("Raw"), "{e}");
    }
    let e = error_of("bot = [3]\n", "t.toml");
    assert!(e.contains("expected a [[bot]] table"), "{e}");
    assert!(!e.contains("Raw"), "{e}");
}
