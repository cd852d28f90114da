//! The `[board]` table: the board, the rule limits, and how games are
//! adjudicated.

use std::ops::Range;
use std::path::{Path, PathBuf};

use endodoi::Rules;
use serde::Deserialize;
use toml::Spanned;

use super::errors::{span_of, ConfigError, Place};
use super::Host;

/// Whether the referee ends a game early when its result is certain
/// (`[board] adjudicate`: `"off"` by default, `"decided"`, `"tablebase"`,
/// or an array of the last two). With both, a game ends at the first
/// position either rule ends it; at a position both end, with termination
/// `decided` (exact without the tables).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Adjudicate {
    /// Exact adjudication: a game ends, with termination `decided`, after
    /// the ply that gives one side more than half of all seeds
    /// ([`endodoi::Position::decided_winner`]): seeds never return to the
    /// board, so that side wins whatever follows, short of a later forfeit.
    pub decided: bool,
    /// Tablebase adjudication (`[board] tablebase = "DIR"`): a game ends,
    /// with termination `tablebase`, at the first position (the start, or
    /// after any ply) whose value the endgame tables know exactly within
    /// the plies left ([`endodoi_tablebase::adjudicate`]); the final seeds
    /// are those captured so far plus the forced margin's split of the
    /// board. The result of perfect play from there, as Syzygy adjudication
    /// in chess, not of the bots.
    pub tablebase: bool,
}

impl Adjudicate {
    /// Every game is played to its end by the rules (the default, `"off"`
    /// or `[]`).
    pub const OFF: Adjudicate = Adjudicate {
        decided: false,
        tablebase: false,
    };
    /// `"decided"` alone.
    pub const DECIDED: Adjudicate = Adjudicate {
        decided: true,
        tablebase: false,
    };
    /// `"tablebase"` alone.
    pub const TABLEBASE: Adjudicate = Adjudicate {
        decided: false,
        tablebase: true,
    };
    /// `["decided", "tablebase"]`: the earlier of the two.
    pub const BOTH: Adjudicate = Adjudicate {
        decided: true,
        tablebase: true,
    };
}

/// The default holes per row.
pub const DEFAULT_HOLES: usize = 8;
/// The default seeds per hole.
pub const DEFAULT_SEEDS: u32 = 4;

/// The `[board]` table as written.
#[derive(Deserialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a table ([board] on a line of its own, its keys below)"
)]
pub(super) struct RawBoard {
    pub(super) holes: Option<Spanned<i64>>,
    pub(super) seeds: Option<Spanned<i64>>,
    pub(super) max_plies: Option<Spanned<i64>>,
    pub(super) max_laps: Option<Spanned<i64>>,
    /// Any TOML value, so a bad one of any type gets the one message
    /// that lists the choices.
    pub(super) adjudicate: Option<Spanned<toml::Value>>,
    pub(super) tablebase: Option<Spanned<String>>,
}

/// The `[board]` table checked.
pub(super) struct Board {
    /// The board and rule limits of every game.
    pub(super) rules: Rules,
    /// `adjudicate`.
    pub(super) adjudicate: Adjudicate,
    /// `tablebase`, resolved from the config's folder.
    pub(super) tablebase: Option<PathBuf>,
}

/// Checks `[board]` `b`; a `tablebase` is resolved from `base` and its
/// manifest read by `host`.
pub(super) fn board(
    b: &RawBoard,
    base: &Path,
    host: &Host<'_>,
    p: &Place<'_>,
) -> Result<Board, ConfigError> {
    let holes = p.int(&b.holes, "board.holes", 2, 50, DEFAULT_HOLES as i64)? as usize;
    let seeds = p.int(&b.seeds, "board.seeds", 1, 1000, i64::from(DEFAULT_SEEDS))? as u32;
    let max_plies = p.int(
        &b.max_plies,
        "board.max_plies",
        1,
        10_000_000,
        i64::from(endodoi::DEFAULT_MAX_PLIES),
    )? as u32;
    let max_laps = p.int(
        &b.max_laps,
        "board.max_laps",
        1,
        10_000_000,
        i64::from(endodoi::DEFAULT_MAX_LAPS),
    )? as u32;
    let rules = Rules::new(holes, seeds)
        .and_then(|r| r.with_max_plies(max_plies))
        .and_then(|r| r.with_max_laps(max_laps))
        .map_err(|e| p.at(span_of(&b.seeds), &e.to_string()))?;
    if rules.start().is_over() {
        return Err(p.at(
            span_of(&b.max_laps),
            &format!(
                "board.max_laps = {max_laps} makes every first move endless, so no game can start: raise it (default {})",
                endodoi::DEFAULT_MAX_LAPS
            ),
        ));
    }
    let adjudicate = adjudicate_of(b.adjudicate.as_ref()).map_err(|(span, m)| p.at(span, &m))?;
    let tablebase = tablebase_of(b.tablebase.as_ref(), adjudicate, rules, base, host)
        .map_err(|(span, m)| p.at(span, &m))?;
    Ok(Board {
        rules,
        adjudicate,
        tablebase,
    })
}

/// The values `[board] adjudicate` takes, alone or in an array.
const RULES: [&str; 2] = ["decided", "tablebase"];

/// `[board] adjudicate`, or the span and message of its error: `"off"`, one
/// rule of [`RULES`], or an array of distinct rules (`[]` is off).
fn adjudicate_of(
    value: Option<&Spanned<toml::Value>>,
) -> Result<Adjudicate, (Option<Range<usize>>, String)> {
    let Some(v) = value else {
        return Ok(Adjudicate::OFF);
    };
    let fail = |shown: &toml::Value, what: &str| {
        let close = shown
            .as_str()
            .and_then(|s| RULES.into_iter().find(|c| strsim::jaro_winkler(s, c) > 0.8))
            .map_or(String::new(), |c| format!("; did you mean \"{c}\"?"));
        Err((
            Some(v.span()),
            format!(
                "board.adjudicate = {} {what}: use \"off\" (the default), \"decided\" (end a game once its winner is certain), \"tablebase\" (end it once the endgame tables of board.tablebase know its result) or [\"decided\", \"tablebase\"] (whichever comes first){close}",
                v.get_ref()
            ),
        ))
    };
    let items = match v.get_ref() {
        toml::Value::String(s) if s == "off" => return Ok(Adjudicate::OFF),
        toml::Value::Array(items) => items.as_slice(),
        one => std::slice::from_ref(one),
    };
    let mut chosen = Adjudicate::OFF;
    for item in items {
        let flag = match item.as_str() {
            Some("decided") => &mut chosen.decided,
            Some("tablebase") => &mut chosen.tablebase,
            _ if items.len() == 1 && !v.get_ref().is_array() => {
                return fail(item, "is not a choice")
            }
            _ => return fail(item, &format!("holds {item}, which is not a rule")),
        };
        if std::mem::replace(flag, true) {
            return fail(item, &format!("holds {item} twice"));
        }
    }
    Ok(chosen)
}

/// `[board] tablebase`, resolved from `base`, with its manifest's board
/// and lap limit checked against `rules`; or the span and message of its
/// error.
fn tablebase_of(
    dir: Option<&Spanned<String>>,
    adjudicate: Adjudicate,
    rules: Rules,
    base: &Path,
    host: &Host<'_>,
) -> Result<Option<PathBuf>, (Option<Range<usize>>, String)> {
    let dir = match (dir, adjudicate.tablebase) {
        (None, true) => {
            return Err((None, "board.adjudicate = \"tablebase\" needs board.tablebase = \"DIR\", the folder `arena tablebase build --out DIR` wrote: add it".into()))
        }
        (None, false) => return Ok(None),
        (Some(d), true) => d,
        (Some(d), _) => {
            return Err((Some(d.span()), "board.tablebase is used only with adjudicate = \"tablebase\": set that, or remove the key".into()))
        }
    };
    let path = base.join(dir.get_ref());
    let manifest = path.join("manifest.toml");
    let fail = |problem: String| {
        Err((
            Some(dir.span()),
            format!("board.tablebase = {:?}: {problem}", dir.get_ref()),
        ))
    };
    let text = match (host.read)(&manifest) {
        Ok(text) => text,
        Err(e) => return fail(format!("cannot read {}: {e}; build the tables there with `arena tablebase build --holes {} --seeds-on-board K --max-laps {} --out DIR` (relative to the config file's folder)", manifest.display(), rules.holes(), rules.max_laps())),
    };
    let board = toml::from_str::<toml::Value>(&text).ok().and_then(|v| {
        let b = v.get("board")?;
        Some((
            b.get("holes")?.as_integer()?,
            b.get("max_laps")?.as_integer()?,
        ))
    });
    match board {
        None => fail(format!("{} is not a tables manifest ([board] holes and max_laps): rebuild it with `arena tablebase build`", manifest.display())),
        Some((holes, max_laps))
            if holes != rules.holes() as i64 || max_laps != i64::from(rules.max_laps()) =>
        {
            fail(format!(
                "the tables are for 2x{holes} with max_laps {max_laps}, but the board is 2x{} with max_laps {}: build tables for this board, or point to them",
                rules.holes(),
                rules.max_laps()
            ))
        }
        Some(_) => Ok(Some(path)),
    }
}
