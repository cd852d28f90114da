//! Tests of the report: its content, its escaping, and that the viewer's
//! positions are the engine's.

use std::sync::LazyLock;

use endodoi::{Move, Position, Rules, Side};
use serde_json::Value;

use super::*;
use crate::standings::{standings, GameResult, Tally};
use crate::stats::RatingOptions;

/// A deterministic game on `rules` from `seed`: each ply takes the legal
/// move picked by a small linear congruential generator.
fn play(rules: Rules, seed: u64) -> (Vec<u8>, Position) {
    let mut pos = rules.start();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut moves = Vec::new();
    while !pos.is_over() {
        let legal = pos.legal_moves();
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal.nth((state >> 33) as usize % legal.len()).unwrap();
        pos.play(mv).unwrap();
        moves.push(mv.hole());
    }
    (moves, pos)
}

fn words(moves: &[u8]) -> String {
    moves
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A games.csv row for a game played to its end.
fn row(series: u64, game: u32, bots: [&str; 2], rules: Rules, seed: u64) -> GameRow {
    let (moves, pos) = play(rules, seed);
    let outcome = pos.outcome().unwrap();
    GameRow {
        series,
        game,
        opening: words(&moves[..2]),
        south: bots[0].into(),
        north: bots[1].into(),
        holes: rules.holes().to_string(),
        seeds: rules.seeds().to_string(),
        max_laps: rules.max_laps().to_string(),
        max_plies: rules.max_plies().to_string(),
        moves: words(&moves),
        south_seeds: pos.captured(Side::South).to_string(),
        north_seeds: pos.captured(Side::North).to_string(),
        result: outcome.winner.map_or("draw", Side::name).into(),
        termination: outcome.termination.name().into(),
        detail: String::new(),
        file: 0,
        ..GameRow::default()
    }
}

/// A row for a game lost by a fault of `side` after `plies` plies.
fn forfeit(
    series: u64,
    game: u32,
    bots: [&str; 2],
    side: Side,
    kind: &str,
    plies: usize,
) -> GameRow {
    let rules = Rules::new(6, 4).unwrap();
    let mut r = row(series, game, bots, rules, u64::from(game));
    let moves: Vec<u8> = r
        .moves
        .split(' ')
        .take(plies)
        .map(|m| m.parse::<u8>().unwrap())
        .collect();
    let mut pos = rules.start();
    for &m in &moves {
        pos.play(Move::new(m).unwrap()).unwrap();
    }
    r.moves = words(&moves);
    r.south_seeds = pos.captured(Side::South).to_string();
    r.north_seeds = pos.captured(Side::North).to_string();
    r.result = side.opponent().name().into();
    r.termination = kind.into();
    r.detail = format!("{side} ({}) {kind}: <b>line</b> & more", bots[side.index()]);
    r
}

/// Three series of two to four games among three bots on a 2x6 board, one
/// game to the ply limit, and two forfeits.
fn tournament() -> Vec<GameRow> {
    let rules = Rules::new(6, 4).unwrap();
    let short = rules.with_max_plies(7).unwrap();
    vec![
        row(1, 1, ["alpha", "beta"], rules, 1),
        row(1, 2, ["beta", "alpha"], rules, 2),
        row(1, 3, ["alpha", "beta"], short, 3),
        forfeit(1, 4, ["beta", "alpha"], Side::South, "timeout", 5),
        row(2, 1, ["gamma", "alpha"], rules, 5),
        row(2, 2, ["alpha", "gamma"], rules, 6),
        row(3, 1, ["beta", "gamma"], rules, 7),
        forfeit(3, 2, ["gamma", "beta"], Side::North, "illegal-move", 1),
        row(3, 3, ["beta", "gamma"], rules, 9),
    ]
}

/// The standings of `games`, as `write_ratings` computes them.
fn rate(games: &[GameRow]) -> (Vec<String>, Vec<Standing>) {
    let mut names: Vec<String> = games
        .iter()
        .flat_map(|g| [g.south.clone(), g.north.clone()])
        .collect();
    names.sort();
    names.dedup();
    let index = |n: &str| names.iter().position(|x| x == n).unwrap();
    let mut tally = Tally::new(names.len());
    for g in games {
        tally.add(GameResult {
            series: g.series,
            game: g.game,
            south: index(&g.south),
            north: index(&g.north),
            winner: match g.result.as_str() {
                "south" => Some(Side::South),
                "north" => Some(Side::North),
                _ => None,
            },
            forfeit: g.is_forfeit(),
        });
    }
    let options = RatingOptions {
        bootstrap_samples: 50,
        ..RatingOptions::default()
    };
    (names.clone(), standings(&tally, &options).0)
}

fn render_games(games: &[GameRow], budget: usize) -> Rendered {
    render_read(games, &ReportGames::of_rows(games, budget))
}

/// The page of `games` tallied as `read` (from them or from their file).
fn render_read(games: &[GameRow], read: &ReportGames) -> Rendered {
    let (names, table) = rate(games);
    render(&one_file_input(&names, &table, read))
}

/// The input of a report of `games.csv` alone, of `names`, `table` and
/// `games`: no warning, match, bots not started, format or league.
fn one_file_input<'a>(
    names: &'a [String],
    table: &'a [Standing],
    games: &'a ReportGames,
) -> ReportInput<'a> {
    static ONE_FILE: LazyLock<[String; 1]> = LazyLock::new(|| ["games.csv".to_string()]);
    ReportInput {
        names,
        table,
        games,
        files: &*ONE_FILE,
        warning: None,
        matchup: None,
        not_started: &[],
        format: None,
        league: None,
    }
}

/// The viewer's JSON, taken out of the page as a browser would read it.
fn data_of(html: &str) -> Value {
    let open = r#"<script id="report-data" type="application/json">"#;
    let start = html.find(open).expect("the data script") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).expect("valid JSON")
}

/// What a token of `encode_position` says, decoded independently of the
/// page's script: (to move, over, ring, captured if given).
fn decode(token: &str, holes: usize) -> (char, bool, Vec<u32>, Option<[u32; 2]>) {
    let mut chars = token.chars().peekable();
    let first = chars.next().unwrap();
    let mut ring = Vec::new();
    while ring.len() < 2 * holes {
        let c = chars.next().unwrap();
        if c == '(' {
            let digits: String = chars.by_ref().take_while(|&c| c != ')').collect();
            ring.push(digits.parse().unwrap());
        } else {
            ring.push(DIGITS.iter().position(|&d| char::from(d) == c).unwrap() as u32);
        }
    }
    let rest: String = chars.collect();
    let captured = rest.strip_prefix(':').map(|c| {
        let (s, n) = c.split_once(',').unwrap();
        [s.parse().unwrap(), n.parse().unwrap()]
    });
    assert!(captured.is_some() || rest.is_empty(), "{token}");
    (
        first.to_ascii_lowercase(),
        first.is_ascii_uppercase(),
        ring,
        captured,
    )
}

#[test]
fn positions_are_encoded_compactly_and_exactly() {
    let rules = Rules::new(8, 4).unwrap();
    let mut out = String::new();
    encode_position(&rules.start(), true, &mut out);
    assert_eq!(out, "s4444444444444444:0,0");
    // Counts of 62 and more are written out; a game that is over is upper case.
    let rules = Rules::new(2, 40).unwrap();
    let pos = Position::parse("61,62/0,37 n 0 0 3", rules).unwrap();
    out.clear();
    encode_position(&pos, false, &mut out);
    assert_eq!(out, "nZ(62)0B");
    assert_eq!(decode(&out, 2), ('n', false, vec![61, 62, 0, 37], None));
    let over = Position::parse("0,0/1,1 s 1 1 5", Rules::new(2, 1).unwrap()).unwrap();
    out.clear();
    encode_position(&over, true, &mut out);
    assert_eq!(out, "S0000:1,3");
}

#[test]
fn every_game_is_in_the_viewer_with_the_engines_positions() {
    let games = tournament();
    let page = render_games(&games, VIEWER_BUDGET_BYTES);
    let data = data_of(&page.html);
    assert_eq!(data["omitted"], 0);
    assert_eq!(data["total"], games.len());
    let embedded = data["games"].as_array().unwrap();
    assert_eq!(embedded.len(), games.len());
    let series = data["series"].as_array().unwrap();
    assert_eq!(series.len(), 3);
    for g in &games {
        let found = embedded
            .iter()
            .find(|e| {
                series[e["series"].as_u64().unwrap() as usize]["series"] == g.series
                    && e["game"] == g.game
            })
            .unwrap_or_else(|| panic!("series {} game {} missing", g.series, g.game));
        let bots = data["bots"].as_array().unwrap();
        assert_eq!(bots[found["south"].as_u64().unwrap() as usize], *g.south);
        assert_eq!(bots[found["north"].as_u64().unwrap() as usize], *g.north);
        assert!(found.get("error").is_none(), "{found}");
        assert_eq!(found["agrees"], true, "series {} game {}", g.series, g.game);
        // Replay the row with the engine and compare every position.
        let rules = g.rules().unwrap();
        let moves = crate::replay::parse_moves(&[g.moves.as_str()]).unwrap();
        let tokens: Vec<&str> = found["positions"].as_str().unwrap().split(' ').collect();
        assert_eq!(tokens.len(), moves.len() + 1);
        assert_eq!(found["moves"].as_array().unwrap().len(), moves.len());
        let mut pos = rules.start();
        let mut captured = [0, 0];
        for (ply, token) in tokens.iter().enumerate() {
            if ply > 0 {
                pos.play(Move::new(moves[ply - 1]).unwrap()).unwrap();
            }
            let (to_move, over, ring, cap) = decode(token, rules.holes());
            captured = cap.unwrap_or(captured);
            let side = if pos.to_move() == Side::South {
                's'
            } else {
                'n'
            };
            assert_eq!(
                (to_move, over, ring, captured),
                (
                    side,
                    pos.is_over(),
                    pos.ring().to_vec(),
                    [pos.captured(Side::South), pos.captured(Side::North)]
                ),
                "series {} game {} ply {ply}",
                g.series,
                g.game
            );
        }
        assert_eq!(pos.is_over(), !g.is_forfeit());
    }
    // Series results from the first game's South: 1 alpha-beta, with the
    // ply-limit game and a forfeit that beta lost.
    assert_eq!(series[0]["played"], 4);
    assert_eq!(series[1]["played"], 2);
    assert_eq!(series[2]["played"], 3);
}

#[test]
fn names_and_details_are_escaped_everywhere() {
    let evil = "x<script>alert(1)</script>&\"'";
    let mut games = tournament();
    for g in &mut games {
        if g.south == "gamma" {
            g.south = evil.into();
        }
        if g.north == "gamma" {
            g.north = evil.into();
        }
    }
    let page = render_games(&games, VIEWER_BUDGET_BYTES);
    // Only the page's own two scripts: the data and the viewer.
    assert_eq!(page.html.matches("<script").count(), 2, "{}", page.html);
    assert!(!page.html.contains("alert(1)</script>"));
    assert!(page
        .html
        .contains("x&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;"));
    // The forfeit detail is text, not markup.
    assert!(!page.html.contains("<b>line</b>"));
    assert!(page.html.contains("&lt;b&gt;line&lt;/b&gt; &amp; more"));
    // The JSON still holds the names exactly.
    let data = data_of(&page.html);
    assert!(data["bots"].as_array().unwrap().iter().any(|b| b == evil));
    // The chart escapes them too.
    assert!(!page.svg.contains("<script"));
    assert!(page.svg.contains("&lt;script&gt;"));
}

#[test]
fn tables_count_series_forfeits_and_ends() {
    let games = tournament();
    let page = render_games(&games, VIEWER_BUDGET_BYTES);
    let html = &page.html;
    // The cross table links each series into the viewer, from both sides.
    assert_eq!(html.matches(r##"href="#series=1&amp;game=1""##).count(), 2);
    assert_eq!(html.matches(r##"href="#series=3&amp;game=1""##).count(), 2);
    // Forfeits: one timeout of beta (South in series 1 game 4), one
    // illegal move of beta (North in series 3 game 2).
    let forfeits = &html[html.find(r#"<table class="forfeits">"#).unwrap()..];
    let forfeits = &forfeits[..forfeits.find("</table>").unwrap()];
    assert!(forfeits.contains("<th>illegal-move</th><th>timeout</th><th>total</th>"));
    assert!(
        forfeits.contains(r#"<td class="name">beta</td><td>1</td><td>1</td><td>2</td>"#),
        "{forfeits}"
    );
    assert!(forfeits.contains(r#"<td class="name">alpha</td><td><span class="zero">0</span></td><td><span class="zero">0</span></td><td>0</td>"#));
    assert!(html.contains(r##"href="#series=1&amp;game=4&amp;ply=end">series 1, game 4</a>"##));
    assert!(html.contains("<td class=\"name\">ply-limit</td><td>1</td>"));
    assert!(html.contains("<td class=\"name\">timeout (forfeit)</td><td>1</td>"));
    // Without forfeits, the page says so.
    let clean: Vec<GameRow> = games.into_iter().filter(|g| !g.is_forfeit()).collect();
    let page = render_games(&clean, VIEWER_BUDGET_BYTES);
    assert!(page
        .html
        .contains("No forfeits: every game ended by the rules."));
}

#[test]
fn a_small_budget_keeps_every_series_in_the_viewer() {
    let games = tournament();
    // Room for about three games: the first game of each series.
    let one = replay(&games[0]).positions.len();
    let page = render_games(&games, 3 * one);
    let data = data_of(&page.html);
    let series = data["series"].as_array().unwrap();
    let embedded = data["games"].as_array().unwrap();
    assert!(embedded.len() < games.len());
    assert_eq!(data["omitted"], games.len() - embedded.len());
    for s in series {
        let first = s["games"][0].as_u64().expect("each series has a game") as usize;
        assert_eq!(embedded[first]["game"], 1);
    }
    // The tables still count every game.
    assert_eq!(series[0]["played"], 4);
    // Even a budget of nothing shows one game.
    let data = data_of(&render_games(&games, 0).html);
    assert_eq!(data["games"].as_array().unwrap().len(), 1);
}

/// `full`, a game played to its end, cut short by exact adjudication: its
/// moves up to the first position past the opening where a side holds
/// more than half of the seeds; `None` if the game never had one.
fn decided(full: &GameRow) -> Option<GameRow> {
    let rules = full.rules().unwrap();
    let opening = full.opening.split(' ').count();
    let mut pos = rules.start();
    let mut moves = Vec::new();
    for word in full.moves.split(' ') {
        if moves.len() >= opening && pos.decided_winner().is_some() {
            break;
        }
        let hole: u8 = word.parse().unwrap();
        pos.play(Move::new(hole).unwrap()).unwrap();
        moves.push(hole);
    }
    let winner = pos.decided_winner().filter(|_| !pos.is_over())?;
    Some(GameRow {
        moves: words(&moves),
        south_seeds: pos.captured(Side::South).to_string(),
        north_seeds: pos.captured(Side::North).to_string(),
        result: winner.name().into(),
        termination: "decided".into(),
        ..full.clone()
    })
}

#[test]
fn a_decided_game_is_no_forfeit_and_its_replay_agrees() {
    let mut games = tournament();
    let (i, cut) = games
        .iter()
        .enumerate()
        .find_map(|(i, g)| decided(g).map(|d| (i, d)))
        .expect("a game of the fixture is decided before its end");
    assert_eq!(cut.result, games[i].result);
    games[i] = cut;
    let page = render_games(&games, VIEWER_BUDGET_BYTES);
    assert!(
        page.html
            .contains("<td class=\"name\">decided</td><td>1</td>"),
        "{}",
        page.html
    );
    let data = data_of(&page.html);
    assert_eq!(data["games"][i]["agrees"], true);
    assert!(data["games"][i]["error"].is_null(), "{}", data["games"][i]);
}

#[test]
fn bad_rows_are_shown_never_panicked_on() {
    let mut games = tournament();
    games[1].moves = "1 1 1 1 1 1 1 1".into(); // an empty hole soon
    games[2].holes = "many".into();
    games[4].moves = "3 x".into();
    games[5].south_seeds = "99".into(); // a record the replay disagrees with
    let page = render_games(&games, VIEWER_BUDGET_BYTES);
    let data = data_of(&page.html);
    let g = &data["games"];
    let error = g[1]["error"].as_str().unwrap();
    assert!(error.contains("cannot play 1: hole 1 is empty"), "{error}");
    let replayed = g[1]["positions"].as_str().unwrap().split(' ').count();
    assert_eq!(g[1]["moves"].as_array().unwrap().len() + 1, replayed);
    assert!(g[2]["error"].as_str().unwrap().contains("bad holes 'many'"));
    assert_eq!(g[2]["positions"], "");
    assert!(g[4]["error"]
        .as_str()
        .unwrap()
        .contains("'x' is not a hole"));
    assert_eq!(g[5]["agrees"], false);
    // No games at all still make a page.
    let empty = render(&ReportInput {
        files: &[],
        ..one_file_input(&[], &[], &ReportGames::of_rows(&[], VIEWER_BUDGET_BYTES))
    });
    assert_eq!(data_of(&empty.html)["total"], 0);
    assert!(empty.svg.starts_with("<svg"));
}

#[test]
fn the_chart_shows_every_bot_in_standings_order() {
    let games = tournament();
    let (names, table) = rate(&games);
    let svg = standings_svg(&names, &table);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    // The y coordinate of a label: plotters writes `y="..." ...>\nTEXT\n</text>`.
    let y_of = |text: &str| -> f64 {
        let at = svg.find(&format!(">\n{text}\n</text>")).unwrap();
        let tag = &svg[svg[..at].rfind("<text").unwrap()..at];
        let y = &tag[tag.find(" y=\"").unwrap() + 4..];
        y[..y.find('"').unwrap()].parse().unwrap()
    };
    // Rank 1 is on top, and so on down.
    let ys: Vec<f64> = table.iter().map(|s| y_of(&names[s.bot])).collect();
    assert!(ys.windows(2).all(|w| w[0] < w[1]), "{ys:?}");
    // Each bot's Elo is written by its dot.
    for s in &table {
        assert!(svg.contains(&format!(">\n{}\n</text>", num(s.elo, 0))));
    }
    assert_eq!(y_ticks(&svg), table.len(), "one tick a bot on the y axis");
    // One bot: its row is drawn and named.
    let one = standings_svg(&names, &table[..1]);
    assert!(one.contains(&format!(">\n{}\n</text>", names[table[0].bot])));
}

/// The ticks on the y axis: the short horizontal lines that end on the
/// axis, which is the first vertical polyline plotters draws.
fn y_ticks(svg: &str) -> usize {
    let lines: Vec<[i32; 4]> = svg
        .split("<polyline")
        .skip(1)
        .filter_map(|tag| {
            let points = &tag[tag.find("points=\"")? + 8..];
            let numbers: Vec<i32> = points[..points.find('"')?]
                .split([',', ' '])
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().ok())
                .collect::<Option<_>>()?;
            <[i32; 4]>::try_from(numbers).ok()
        })
        .collect();
    let axis = lines.iter().find(|l| l[0] == l[2]).expect("a y axis")[0];
    lines
        .iter()
        .filter(|l| l[1] == l[3] && l[2] == axis && l[0] < axis)
        .count()
}

#[test]
fn the_files_are_written_whole_and_a_failure_leaves_them() {
    let dir = tempfile::tempdir().unwrap();
    let games = tournament();
    let mut csv = csv::Writer::from_path(dir.path().join("games.csv")).unwrap();
    csv.write_record(crate::output::GAMES_COLUMNS).unwrap();
    for g in &games {
        csv.write_record([
            g.series.to_string(),
            g.game.to_string(),
            g.game.div_ceil(2).to_string(),
            g.opening.clone(),
            g.south.clone(),
            g.north.clone(),
            g.holes.clone(),
            g.seeds.clone(),
            g.max_laps.clone(),
            g.max_plies.clone(),
            g.moves.clone(),
            g.moves.split(' ').count().to_string(),
            g.south_seeds.clone(),
            g.north_seeds.clone(),
            g.result.clone(),
            g.termination.clone(),
            g.detail.clone(),
            "12".into(),
        ])
        .unwrap();
    }
    drop(csv);
    // A torn last line is skipped, as `arena rate` skips it.
    {
        use std::io::Write as _;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join("games.csv"))
            .unwrap();
        f.write_all(b"4,1,1,,alpha,be").unwrap();
    }
    let read = read_games(&[dir.path().join("games.csv")], VIEWER_BUDGET_BYTES).unwrap();
    assert_eq!(read.len(), games.len());
    let (names, table) = rate(&games);
    write_report(dir.path(), &names, &table, &[dir.path().join("games.csv")]).unwrap();
    let html = std::fs::read_to_string(dir.path().join(REPORT_FILE)).unwrap();
    assert_eq!(data_of(&html)["total"], games.len());
    let svg = std::fs::read_to_string(dir.path().join(CHART_FILE)).unwrap();
    assert!(html.contains(&svg), "the page holds the chart");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
    // An unreadable games file is an error, and the report stays as it was.
    let err = write_report(dir.path(), &names, &table, &[dir.path().join("nope.csv")]);
    assert!(err.unwrap_err().to_string().contains("nope.csv"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join(REPORT_FILE)).unwrap(),
        html
    );
}

#[test]
fn a_file_read_row_by_row_gives_the_page_of_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.csv");
    // Rows in the order games ended, not by series and game: the reader
    // must put them in order, and find each series' first game.
    let mut games = tournament();
    games.swap(0, 2);
    games.swap(4, 5);
    let mut csv = csv::Writer::from_path(&path).unwrap();
    for g in &games {
        csv.serialize(g).unwrap();
    }
    drop(csv);
    let one = games
        .iter()
        .map(|g| replay(g).positions.len())
        .max()
        .unwrap();
    for budget in [0, one, 3 * one, VIEWER_BUDGET_BYTES] {
        let read = read_games(&[&path], budget).unwrap();
        assert_eq!(read.len(), games.len());
        let page = render_read(&games, &read);
        assert_eq!(
            page.html,
            render_games(&games, budget).html,
            "budget {budget}"
        );
        let mut sorted = games.clone();
        sorted.sort_by_key(|g| (g.series, g.game));
        assert_eq!(
            page.html,
            render_games(&sorted, budget).html,
            "budget {budget}"
        );
        // Only the games shown are kept whole.
        let shown = data_of(&page.html)["games"].as_array().unwrap().len();
        assert_eq!(read.viewed.len(), shown, "budget {budget}");
        let data = data_of(&page.html);
        for s in data["series"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|_| budget >= 3 * one)
        {
            let first = &data["games"][s["games"][0].as_u64().unwrap() as usize];
            assert_eq!(first["game"], 1, "budget {budget}: {s}");
        }
    }
    // Series 1 of the tournament: alpha is South in game 1, whatever the
    // order of the rows.
    let read = read_games(&[&path], 0).unwrap();
    let s = &read.series[0];
    assert_eq!((read.bots[s.a].as_str(), s.first_game), ("alpha", 1));
}

#[test]
fn the_course_of_a_match_is_one_series_of_one_file() {
    let rules = Rules::new(6, 4).unwrap();
    let rows = vec![
        row(1, 2, ["b", "a"], rules, 2),
        row(1, 1, ["a", "b"], rules, 1),
    ];
    let names = vec!["a".to_string(), "b".to_string()];
    let read = ReportGames::of_rows(&rows, 0);
    assert_eq!(read.first_south(), Some("a"));
    let course = read.course(&names).unwrap();
    assert_eq!(course.len(), 2);
    assert_eq!(course[0].south, 0, "game 1 first");
    assert_eq!(course[1].south, 1);
    // A second file, or a second series: no one test ran over them.
    let mut two_files = rows.clone();
    two_files.push(GameRow {
        file: 1,
        ..rows[1].clone()
    });
    assert!(ReportGames::of_rows(&two_files, 0).course(&names).is_none());
    let mut two_series = rows.clone();
    two_series.push(GameRow {
        series: 2,
        ..rows[1].clone()
    });
    assert!(ReportGames::of_rows(&two_series, 0)
        .course(&names)
        .is_none());
}

/// Issue 17's tester: the caption said "a parametric bootstrap" when every
/// interval was measured from the fit's curvature. It says what was used.
#[test]
fn the_standings_caption_names_the_interval_method_used() {
    use crate::stats::IntervalMethod;
    let games = tournament();
    let (names, mut table) = rate(&games);
    let caption = |table: &[Standing]| {
        let page = render(&one_file_input(
            &names,
            table,
            &ReportGames::of_rows(&games, 1 << 20),
        ));
        let at = page.html.find("<figcaption>").unwrap();
        let end = at + page.html[at..].find("</figcaption>").unwrap();
        page.html[at..end].to_string()
    };
    // Every interval by one method: the caption names it, not the other.
    for (method, named, not_named) in [
        (
            IntervalMethod::Bootstrap,
            "parametric bootstrap",
            &["curvature"][..],
        ),
        (
            IntervalMethod::Curvature,
            "the fit's curvature",
            &["bootstrap,", "parametric bootstrap"],
        ),
    ] {
        for s in &mut table {
            s.interval = method;
        }
        let said = caption(&table);
        assert!(said.contains(named), "{said}");
        for other in not_named {
            assert!(!said.contains(other), "{said}");
        }
    }
    table[0].interval = IntervalMethod::Bootstrap;
    let both = caption(&table);
    assert!(
        both.contains("parametric bootstrap, or the fit's curvature"),
        "{both}"
    );
}

/// `bots` bots named `b000`..., each meeting a few others in series of two
/// games without moves (as `tools/gen_games.py` writes them), and
/// made-up standings in index order: the input of a report of many bots.
fn many_bots(bots: usize) -> (Vec<String>, Vec<GameRow>, Vec<Standing>) {
    use crate::stats::IntervalMethod;
    let names: Vec<String> = (0..bots).map(|i| format!("b{i:03}")).collect();
    let mut games = Vec::new();
    let mut number = 0;
    for i in 0..bots {
        for step in [1, 7, 31] {
            let j = (i + step) % bots;
            number += 1;
            for (game, (s, n)) in [(i, j), (j, i)].into_iter().enumerate() {
                games.push(GameRow {
                    series: number,
                    game: game as u32 + 1,
                    south: names[s].clone(),
                    north: names[n].clone(),
                    holes: "8".into(),
                    seeds: "4".into(),
                    result: ["south", "north", "draw"][(i + game) % 3].into(),
                    termination: "rules".into(),
                    ..GameRow::default()
                });
            }
        }
    }
    let table = (0..bots)
        .map(|i| Standing {
            rank: i + 1,
            bot: i,
            wdl: Wdl::default(),
            forfeits: 0,
            elo: 500.0 - i as f64,
            elo_lower: 480.0 - i as f64,
            elo_upper: 520.0 - i as f64,
            interval: IntervalMethod::Bootstrap,
            los_next: (i + 1 < bots).then_some(0.5),
            group: 1,
        })
        .collect();
    (names, games, table)
}

fn render_many(names: &[String], games: &[GameRow], table: &[Standing]) -> Rendered {
    render(&one_file_input(
        names,
        table,
        &ReportGames::of_rows(games, VIEWER_BUDGET_BYTES),
    ))
}

#[test]
fn many_bots_get_their_records_instead_of_a_cross_table() {
    let bots = 300;
    let (names, games, table) = many_bots(bots);
    let page = render_many(&names, &games, &table).html;
    assert!(!page.contains("table class=\"cross\""), "no n x n table");
    assert!(page.contains("id=\"records\""));
    // Every bot has its record, with the opponents it met and their links.
    assert_eq!(page.matches("<details class=\"record\">").count(), bots);
    assert!(page.contains(">1. <span class=\"bot\">b000</span>: "));
    assert!(page.contains("id=\"find-bot\""), "a box to find a bot");
    assert!(page.contains("b001 "), "an opponent of b000");
    // The page grows with the bots and the series, not their square: a
    // bound of 2.5 kB a bot here (a cross table alone would be some 10 B
    // a cell, 900 kB).
    assert!(page.len() < 2_500 * bots, "{} bytes", page.len());
    // The chart draws the top bots only, and says so.
    assert!(page.contains(&format!("The top {CHART_MAX_BOTS} of {bots} bots")));
    assert!(page.contains(&format!("shows the top {CHART_MAX_BOTS} of {bots} bots")));
    let svg = standings_svg(&names, &table);
    assert_eq!(y_ticks(&svg), CHART_MAX_BOTS);
    assert!(
        svg.len() < 1_000 * CHART_MAX_BOTS + 10_000,
        "{} bytes",
        svg.len()
    );
    // A few bots keep their cross table, and no records.
    let (names, games, table) = many_bots(CROSS_TABLE_MAX_BOTS);
    let page = render_many(&names, &games, &table).html;
    assert!(page.contains("table class=\"cross\"") && !page.contains("id=\"records\""));
}

#[test]
fn the_viewer_holds_a_bounded_number_of_games_and_series() {
    // 6,000 series of two games without moves: tiny positions, so only
    // the count of games bounds the viewer.
    let (names, games, table) = many_bots(2_000);
    let page = render_many(&names, &games, &table).html;
    let data = data_of(&page);
    let embedded = data["games"].as_array().unwrap();
    assert_eq!(embedded.len(), VIEWER_GAMES_MAX);
    assert_eq!(data["omitted"], games.len() - VIEWER_GAMES_MAX);
    // Game 1 of every series first; only the series with a game listed.
    let series = data["series"].as_array().unwrap();
    assert_eq!(series.len(), VIEWER_GAMES_MAX);
    assert_eq!(data["series_omitted"], 6_000 - VIEWER_GAMES_MAX);
    for s in series {
        let first = s["games"][0].as_u64().unwrap() as usize;
        assert_eq!(embedded[first]["game"], 1);
        assert_eq!(embedded[first]["series"], s["series"].as_u64().unwrap() - 1);
    }
}

/// A bounded tally (a league's live view) keeps the series begun before
/// the viewer was first full, and no later one, while every total counts
/// every game; the viewer's data says series were left out.
#[test]
fn a_bounded_tally_keeps_no_series_begun_once_the_viewer_is_full() {
    let rules = Rules::new(6, 4).unwrap();
    let games: Vec<GameRow> = (1..=40)
        .flat_map(|s| {
            [
                row(s, 1, ["a", "b"], rules, s),
                row(s, 2, ["b", "a"], rules, s + 100),
            ]
        })
        .collect();
    // Room for about three games' positions.
    let budget = 3 * replay(&games[0]).positions.len();
    let mut bounded = ReportGames::new_bounded();
    let mut whole = ReportGames::new();
    for g in &games {
        bounded.add(g.clone(), budget);
        whole.add(g.clone(), budget);
    }
    assert_eq!(whole.series.len(), 40);
    assert_eq!((bounded.len(), whole.len()), (80, 80), "every game counted");
    assert_eq!(bounded.ends, whole.ends);
    let kept = bounded.series.len();
    assert!((1..=3).contains(&kept), "{kept} series kept");
    assert_eq!(bounded.viewed_games().len(), whole.viewed_games().len());
    // A kept series counts its later games; a series not kept is not there.
    let first = &bounded.series[0];
    assert_eq!((first.played, first.number), (2, 1));
    assert!(bounded.series_of(0, 40).is_none());
    assert_eq!(bounded.unkept, 40 - kept);
    let data = data_of(&render_read(&games, &bounded).html);
    assert_eq!(data["series"].as_array().unwrap().len(), kept);
    assert_eq!(data["series_omitted"], 40 - kept);
}

#[test]
fn the_viewer_shows_the_verdicts_of_the_games_they_fit() {
    let rules = Rules::new(3, 2).unwrap();
    let games = vec![
        row(1, 1, ["a", "b"], rules, 1),
        row(1, 2, ["b", "a"], rules, 2),
        row(1, 3, ["a", "b"], rules, 3),
    ];
    let plies = |g: &GameRow| g.moves.split_whitespace().count();
    let tokens = |n: usize| {
        (0..n)
            .map(|i| ["o", "m3", "f", ".", "u", "m2+"][i % 6])
            .collect::<Vec<_>>()
            .join(" ")
    };
    let analysed = |g: &GameRow, south: &str, n: usize| crate::output::GameAnalysisRow {
        series: g.series,
        game: g.game,
        south: south.into(),
        north: g.north.clone(),
        plies: n as u32,
        verdicts: tokens(n),
        ..Default::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let mut w = csv::Writer::from_path(dir.path().join("analysis-games.csv")).unwrap();
    // Game 1 fits; game 2's row has a ply too few; game 3's other bots.
    w.serialize(analysed(&games[0], "a", plies(&games[0])))
        .unwrap();
    w.serialize(analysed(&games[1], "b", plies(&games[1]) - 1))
        .unwrap();
    w.serialize(analysed(&games[2], "c", plies(&games[2])))
        .unwrap();
    w.flush().unwrap();
    let read = ReportGames::of_rows(&games, VIEWER_BUDGET_BYTES);
    let verdicts = Verdicts::of_run(dir.path(), &read);
    let (names, table) = rate(&games);
    let page = render_with(&one_file_input(&names, &table, &read), &verdicts);
    let data = data_of(&page.html);
    let shown: Vec<Option<&str>> = data["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["verdicts"].as_str())
        .collect();
    let first = tokens(plies(&games[0]));
    assert_eq!(shown, vec![Some(first.as_str()), None, None]);
    // Without the file, no game has verdicts, and the page is render's.
    let plain = render_read(&games, &read);
    assert!(!plain.html.contains("\"verdicts\""));
    let none = Verdicts::of_run(&dir.path().join("missing"), &read);
    assert!(none.games.is_empty());
    // Only the viewer's games are kept: with a budget for one game, one row.
    let one = ReportGames::of_rows(&games, 1);
    assert_eq!(one.viewed_games().len(), 1);
    assert_eq!(Verdicts::of_run(dir.path(), &one).games.len(), 1);
}
