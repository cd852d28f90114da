//! The `[tune]` table of a config and its `[[tune.param]]` tables
//! (docs/tuning.md), read from the config's text: the rest of the file is
//! an ordinary config, which [`crate::config::Config`] reads. Every error is
//! one line with the file, the line and column, the problem and the fix.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use crate::config::{valid_option, BotSpec, ConfigError};

use super::spsa::Param;

/// The most game pairs a tuning may ask for.
pub const MAX_PAIRS: u64 = 10_000_000;

/// A validated `[tune]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct Tune {
    /// The tuned bot: an index into the config's bots.
    pub bot: usize,
    /// The iterations, one game pair each (two with an `opponent`).
    pub pairs: u64,
    /// A fixed opponent (an index into the config's bots) that each side of
    /// the perturbation plays a pair against; `None`: the bot plays itself,
    /// `θ + c·Δ` against `θ - c·Δ`, as in fishtest.
    pub opponent: Option<usize>,
    /// The seed of the signs and roundings (`seed`, else the tournament's).
    pub seed: Option<u64>,
    /// The parameters, in the file's order; names unique.
    pub params: Vec<Param>,
}

#[derive(Deserialize)]
struct RawFile {
    tune: Option<Spanned<RawTune>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTune {
    bot: Option<Spanned<String>>,
    pairs: Option<Spanned<i64>>,
    opponent: Option<Spanned<String>>,
    seed: Option<Spanned<i64>>,
    #[serde(default)]
    param: Vec<Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
}

/// The keys of a `[[tune.param]]` table.
const PARAM_KEYS: [&str; 7] = ["name", "start", "min", "max", "c_end", "r_end", "integer"];

/// Reads the `[tune]` table of config `text` (`origin` names the file in
/// errors) against the config's `bots`.
///
/// # Errors
/// [`ConfigError`], one line: no `[tune]`, a key unknown or missing, a
/// value of the wrong type or out of range, a bot that is not a
/// `[[bot]]`, a parameter named twice or not a valid option name.
pub fn parse(text: &str, origin: &str, bots: &[BotSpec]) -> Result<Tune, ConfigError> {
    let text = crate::config::strip_bom(text);
    let at = |span: Range<usize>, message: String| {
        let before = &text[..span.start.min(text.len())];
        ConfigError::At {
            origin: origin.to_string(),
            line: before.matches('\n').count() + 1,
            column: before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1,
            message,
        }
    };
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let message = format!(
            "{}: see docs/tuning.md for [tune] and [[tune.param]]",
            e.message().trim().replace('\n', " ")
        );
        match e.span() {
            Some(span) => at(span, message),
            None => ConfigError::File {
                origin: origin.to_string(),
                message,
            },
        }
    })?;
    let Some(tune) = raw.tune else {
        return Err(ConfigError::File {
            origin: origin.to_string(),
            message: "no [tune] table: add [tune] with bot = \"NAME\" and pairs = N, and a [[tune.param]] table per parameter (docs/tuning.md)".into(),
        });
    };
    let whole = tune.span();
    let tune = tune.into_inner();
    let bot = match &tune.bot {
        Some(b) => bot_index(b, "bot", bots, &at)?,
        None => {
            return Err(at(
                whole,
                "[tune] has no bot: add bot = \"NAME\", the [[bot]] to tune".into(),
            ))
        }
    };
    let pairs = pairs_of(tune.pairs.as_ref(), whole.clone(), &at)?;
    let opponent = opponent_of(tune.opponent.as_ref(), bot, bots, whole.clone(), &at)?;
    let seed = match &tune.seed {
        Some(s) if *s.get_ref() >= 0 => Some(*s.get_ref() as u64),
        Some(s) => {
            return Err(at(
                s.span(),
                "tune.seed must be a whole number of at least 0".into(),
            ))
        }
        None => None,
    };
    let params = params_of(&tune.param, whole, &at)?;
    Ok(Tune {
        bot,
        pairs,
        opponent,
        seed,
        params,
    })
}

/// The index in `bots` of the bot `v` (tune.`key`) names.
fn bot_index(
    v: &Spanned<String>,
    key: &str,
    bots: &[BotSpec],
    at: &impl Fn(Range<usize>, String) -> ConfigError,
) -> Result<usize, ConfigError> {
    bots.iter()
        .position(|b| &b.name == v.get_ref())
        .ok_or_else(|| {
            let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
            at(
                v.span(),
                format!(
                    "tune.{key} = \"{}\" names no [[bot]]: use one of {}",
                    v.get_ref(),
                    names.join(", ")
                ),
            )
        })
}

/// `tune.pairs`, required; `whole` is the `[tune]` table's span.
fn pairs_of(
    pairs: Option<&Spanned<i64>>,
    whole: Range<usize>,
    at: &impl Fn(Range<usize>, String) -> ConfigError,
) -> Result<u64, ConfigError> {
    match pairs {
        Some(p) if (1..=MAX_PAIRS as i64).contains(p.get_ref()) => Ok(*p.get_ref() as u64),
        Some(p) => Err(at(
            p.span(),
            format!(
                "tune.pairs = {} is out of range: use 1 to {MAX_PAIRS} game pairs",
                p.get_ref()
            ),
        )),
        None => Err(at(
            whole,
            "[tune] has no pairs: add pairs = N, the game pairs to play (fishtest's iterations)"
                .into(),
        )),
    }
}

/// `tune.opponent`, another bot than the tuned `bot`; without one, the
/// config may have no other bot, which would be left idle.
fn opponent_of(
    opponent: Option<&Spanned<String>>,
    bot: usize,
    bots: &[BotSpec],
    whole: Range<usize>,
    at: &impl Fn(Range<usize>, String) -> ConfigError,
) -> Result<Option<usize>, ConfigError> {
    if let Some(o) = opponent {
        let i = bot_index(o, "opponent", bots, at)?;
        if i == bot {
            return Err(at(o.span(), "tune.opponent is the tuned bot: leave opponent out to tune the bot against itself, or name another [[bot]]".into()));
        }
        return Ok(Some(i));
    }
    if bots.len() > 1 {
        // Every other bot would be left idle; say so rather than guess.
        let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
        let others: Vec<&str> = names.iter().copied().filter(|n| *n != names[bot]).collect();
        return Err(at(whole, format!("[tune] tunes {} against itself, and the config has other bots ({}): add opponent = \"NAME\" to play against one, or remove the others", names[bot], others.join(", "))));
    }
    Ok(None)
}

/// The `[[tune.param]]` tables, at least one, names unique; `whole` is
/// the `[tune]` table's span.
fn params_of(
    tables: &[Spanned<BTreeMap<String, Spanned<toml::Value>>>],
    whole: Range<usize>,
    at: &impl Fn(Range<usize>, String) -> ConfigError,
) -> Result<Vec<Param>, ConfigError> {
    if tables.is_empty() {
        return Err(at(whole, "[tune] has no parameter: add a [[tune.param]] table with name, start, min, max, c_end and r_end per parameter".into()));
    }
    let mut params: Vec<Param> = Vec::new();
    for table in tables {
        let p = param(table, at)?;
        if params.iter().any(|q| q.name == p.name) {
            return Err(at(
                table.span(),
                format!(
                    "[[tune.param]] name = \"{}\" is tuned twice: keep one table per parameter",
                    p.name
                ),
            ));
        }
        params.push(p);
    }
    Ok(params)
}

/// One `[[tune.param]]` table, checked.
fn param(
    table: &Spanned<BTreeMap<String, Spanned<toml::Value>>>,
    at: &impl Fn(Range<usize>, String) -> ConfigError,
) -> Result<Param, ConfigError> {
    let map = table.get_ref();
    if let Some((key, v)) = map.iter().find(|(k, _)| !PARAM_KEYS.contains(&k.as_str())) {
        return Err(at(
            v.span(),
            format!(
                "[[tune.param]] has an unknown key {key}: use {}",
                PARAM_KEYS.join(", ")
            ),
        ));
    }
    let name = match map.get("name") {
        Some(v) => match v.get_ref().as_str() {
            Some(n) if valid_option(n, "0") => n.to_string(),
            _ => return Err(at(v.span(), format!("[[tune.param]] name = {} is not an option name: use 1 to 64 of A-Z a-z 0-9 . _ -, as the bot takes it in option.NAME=VALUE", v.get_ref()))),
        },
        None => return Err(at(table.span(), "[[tune.param]] has no name: add name = \"OPTION\", the option the bot takes".into())),
    };
    let number = |key: &str| -> Result<(f64, Range<usize>), ConfigError> {
        match map.get(key) {
            Some(v) => match v.get_ref() {
                toml::Value::Integer(i) => Ok((*i as f64, v.span())),
                toml::Value::Float(f) if f.is_finite() => Ok((*f, v.span())),
                other => Err(at(
                    v.span(),
                    format!(
                        "[[tune.param]] {name}: {key} = {other} is not a number: write a number"
                    ),
                )),
            },
            None => Err(at(
                table.span(),
                format!("[[tune.param]] {name} has no {key}: add {key} = NUMBER (docs/tuning.md)"),
            )),
        }
    };
    let (start, start_at) = number("start")?;
    let (min, _) = number("min")?;
    let (max, max_at) = number("max")?;
    let (c_end, c_at) = number("c_end")?;
    let (r_end, r_at) = number("r_end")?;
    if min >= max {
        return Err(at(
            max_at,
            format!(
                "[[tune.param]] {name}: max = {max} is not above min = {min}: make max the larger"
            ),
        ));
    }
    if !(max - min).is_finite() {
        return Err(at(max_at, format!("[[tune.param]] {name}: the range min..max ({min} to {max}) is wider than a number holds: give a range of the option's real values")));
    }
    if !(min..=max).contains(&start) {
        return Err(at(start_at, format!("[[tune.param]] {name}: start = {start} is outside min..max ({min} to {max}): start inside the range")));
    }
    if c_end <= 0.0 || c_end > max - min {
        return Err(at(c_at, format!("[[tune.param]] {name}: c_end = {c_end} is out of range: use more than 0 and at most max - min ({}); about a twentieth of the range is usual", max - min)));
    }
    if r_end < 0.0 {
        return Err(at(r_at, format!("[[tune.param]] {name}: r_end = {r_end} is negative: use 0 or more (0.002 is fishtest's usual value, for c_end in the parameter's units)")));
    }
    let integer = match map.get("integer") {
        Some(v) => v.get_ref().as_bool().ok_or_else(|| at(v.span(), format!("[[tune.param]] {name}: integer = {} is not true or false: write integer = true for a whole-number option", v.get_ref())))?,
        None => false,
    };
    if integer && min.ceil() > max.floor() {
        return Err(at(max_at, format!("[[tune.param]] {name}: min..max ({min} to {max}) holds no whole number for an integer option: widen the range or drop integer = true")));
    }
    Ok(Param {
        name,
        start,
        min,
        max,
        c_end,
        r_end,
        integer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{BotSpec, TimeControl};

    fn bots(names: &[&str]) -> Vec<BotSpec> {
        names
            .iter()
            .map(|n| {
                BotSpec::new(
                    n,
                    vec!["arena".into(), "bot".into(), "mcts".into()],
                    TimeControl::per_move(1000, 5000),
                )
            })
            .collect()
    }

    const GOOD: &str = "[tune]\nbot = \"m\"\npairs = 100\n\n[[tune.param]]\nname = \"exploration\"\nstart = 3\nmin = 0.05\nmax = 4.0\nc_end = 0.1\nr_end = 0.02\n";

    fn error(text: &str, names: &[&str]) -> String {
        parse(text, "t.toml", &bots(names)).unwrap_err().to_string()
    }

    #[test]
    fn a_good_table_reads() {
        let t = parse(GOOD, "t.toml", &bots(&["m"])).unwrap();
        assert_eq!((t.bot, t.pairs, t.opponent, t.seed), (0, 100, None, None));
        assert_eq!(t.params.len(), 1);
        assert_eq!(t.params[0].start, 3.0);
        assert!(!t.params[0].integer);
    }

    #[test]
    fn bad_tables_get_one_line_with_the_place_and_the_fix() {
        let e = error(&GOOD.replace("bot = \"m\"", "bot = \"x\""), &["m"]);
        assert!(
            e.starts_with("t.toml:2:7: tune.bot = \"x\" names no [[bot]]: use one of m"),
            "{e}"
        );
        let e = error(&GOOD.replace("start = 3", "start = 9"), &["m"]);
        assert!(
            e.starts_with("t.toml:7:9: [[tune.param]] exploration: start = 9 is outside"),
            "{e}"
        );
        let wide = GOOD
            .replace("min = 0.05", "min = -1e308")
            .replace("max = 4.0", "max = 1e308");
        let e = error(&wide, &["m"]);
        assert!(e.contains("is wider than a number holds"), "{e}");
        let no_whole = GOOD
            .replace("start = 3", "start = 1.5\ninteger = true")
            .replace("min = 0.05", "min = 1.2")
            .replace("max = 4.0", "max = 1.8");
        let e = error(&no_whole, &["m"]);
        assert!(e.contains("holds no whole number"), "{e}");
        let e = error(&GOOD.replace("c_end = 0.1", "c_end = 0"), &["m"]);
        assert!(
            e.starts_with("t.toml:10:9:") && e.contains("c_end = 0 is out of range"),
            "{e}"
        );
        let e = error(&GOOD.replace("r_end", "rend"), &["m"]);
        assert!(
            e.contains("unknown key rend") && e.starts_with("t.toml:11:"),
            "{e}"
        );
        let e = error(&GOOD.replace("pairs = 100", "pairs = 0"), &["m"]);
        assert!(
            e.starts_with("t.toml:3:9: tune.pairs = 0 is out of range"),
            "{e}"
        );
        let e = error(GOOD, &["m", "other"]);
        assert!(e.contains("add opponent = \"NAME\""), "{e}");
        let e = error(&format!("{GOOD}opponent = \"m\"\n"), &["m", "o"]);
        assert!(!e.is_empty());
        let e = error("name = \"x\"\n", &["m"]);
        assert!(e.starts_with("t.toml: no [tune] table"), "{e}");
        let twice = format!("{GOOD}\n[[tune.param]]\nname = \"exploration\"\nstart = 1\nmin = 0\nmax = 2\nc_end = 0.1\nr_end = 0\n");
        assert!(error(&twice, &["m"]).contains("tuned twice"));
        let e = error(
            &GOOD.replace("pairs = 100", "pairs = 100\ncolour = 1"),
            &["m"],
        );
        assert!(e.starts_with("t.toml:4:1:") && e.contains("colour"), "{e}");
    }

    #[test]
    fn the_sample_config_reads() {
        let text = include_str!("../../../configs/tune.toml");
        let host = crate::commands::host();
        let config = crate::config::Config::parse(text, "tune.toml", "tune", &host).unwrap();
        let t = parse(text, "tune.toml", &config.bots).unwrap();
        assert_eq!((t.pairs, t.params[0].name.as_str()), (2000, "exploration"));
    }

    #[test]
    fn an_opponent_is_another_bot() {
        let text = GOOD.replace("pairs = 100", "pairs = 100\nopponent = \"o\"");
        let t = parse(&text, "t.toml", &bots(&["m", "o"])).unwrap();
        assert_eq!(t.opponent, Some(1));
        let e = error(
            &GOOD.replace("pairs = 100", "pairs = 100\nopponent = \"m\""),
            &["m", "o"],
        );
        assert!(e.contains("tune.opponent is the tuned bot"), "{e}");
    }
}
