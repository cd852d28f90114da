//! The `[tournament]` table's format keys: who meets whom.

use std::ops::Range;
use std::path::Path;

use toml::Spanned;

use crate::format::{Decider, Format, PairBy};

use super::bots::BotSpec;
use super::errors::{span_of, Choices, ConfigError, Place};
use super::hints::{DECIDER_USAGE, FORMAT_NAMES, PAIRING_USAGE};
use super::text::strip_bom;
use super::tournament::RawTournament;
use super::Host;

/// The `[tournament]` format keys of `r` checked into a [`Format`] over
/// `bots`: `format`, `candidates` (gauntlet), `seeding` or `seeding_file`
/// (knockout, Swiss), `decider` (knockout), `rounds` (Swiss). A key of
/// another format is an error, since it would leave the organiser believing
/// it holds.
pub(super) fn parse_format(
    r: &RawTournament,
    bots: &[BotSpec],
    sprt: bool,
    base: &Path,
    host: &Host<'_>,
    p: &Place<'_>,
) -> Result<Format, ConfigError> {
    let name = r
        .format
        .as_ref()
        .map_or("round-robin", |f| f.get_ref().as_str());
    if !["round-robin", "gauntlet", "knockout", "swiss", "league"].contains(&name) {
        return Err(p.at(
            span_of(&r.format),
            &format!("tournament.format = \"{name}\" is not a format: use {FORMAT_NAMES}"),
        ));
    }
    keys_of_other_formats(r, name, p)?;
    if sprt && name != "round-robin" {
        return Err(p.at(
            span_of(&r.format),
            &format!("tournament.format = \"{name}\" does not go with [sprt], a match of two bots: remove format, or remove [sprt]"),
        ));
    }
    match name {
        "round-robin" => Ok(Format::RoundRobin),
        "league" => league_format(r, p),
        "gauntlet" => gauntlet(r, bots, p),
        _ => {
            let seeds = seeds(r, bots, base, host, p)?;
            if name == "knockout" {
                knockout(r, seeds, p)
            } else {
                swiss(r, seeds, bots.len(), p)
            }
        }
    }
}

/// A format key of `[tournament]`: its name, where it is written (if it
/// is), and the formats it applies to.
type FormatKey<'a> = (&'a str, Option<Range<usize>>, &'a [&'a str]);

/// An error for the first key of `r` that belongs to other formats than
/// `name`.
fn keys_of_other_formats(r: &RawTournament, name: &str, p: &Place<'_>) -> Result<(), ConfigError> {
    let keys: [FormatKey; 8] = [
        ("candidates", span_of(&r.candidates), &["gauntlet"]),
        ("decider", span_of(&r.decider), &["knockout"]),
        ("rounds", span_of(&r.rounds), &["swiss", "league"]),
        ("settle_los", span_of(&r.settle_los), &["league"]),
        ("pairing", span_of(&r.pairing), &["league"]),
        ("catch_up", span_of(&r.catch_up), &["league"]),
        ("seeding", span_of(&r.seeding), &["knockout", "swiss"]),
        (
            "seeding_file",
            span_of(&r.seeding_file),
            &["knockout", "swiss"],
        ),
    ];
    for (key, span, formats) in keys {
        if let Some(span) = span.filter(|_| !formats.contains(&name)) {
            return Err(p.at(
                Some(span),
                &format!(
                    "tournament.{key} applies only to format = {}, and this config's format is \"{name}\": set the format, or remove {key}",
                    formats.iter().map(|f| format!("\"{f}\"")).collect::<Vec<_>>().join(" or ")
                ),
            ));
        }
    }
    Ok(())
}

/// The bots of `list` (tournament.`key`), by their index in `bots`: each a
/// bot, none twice.
fn bot_indices(
    list: &Spanned<Vec<String>>,
    key: &str,
    bots: &[BotSpec],
    p: &Place<'_>,
) -> Result<Vec<usize>, ConfigError> {
    let mut out = Vec::new();
    for n in list.get_ref() {
        let Some(i) = bots.iter().position(|b| &b.name == n) else {
            return Err(p.at(
                Some(list.span()),
                &format!("tournament.{key} names '{n}', which is not a bot: name [[bot]] tables"),
            ));
        };
        if out.contains(&i) {
            return Err(p.at(
                Some(list.span()),
                &format!("tournament.{key} names '{n}' twice: name each bot once"),
            ));
        }
        out.push(i);
    }
    Ok(out)
}

/// A gauntlet: its `candidates`, at least one.
fn gauntlet(r: &RawTournament, bots: &[BotSpec], p: &Place<'_>) -> Result<Format, ConfigError> {
    let Some(list) = &r.candidates else {
        return Err(p.at(
            span_of(&r.format),
            "tournament.format = \"gauntlet\" needs candidates: the bots that meet all the others, e.g. candidates = [\"new\"]",
        ));
    };
    let candidates = bot_indices(list, "candidates", bots, p)?;
    if candidates.is_empty() {
        return Err(p.at(
            Some(list.span()),
            "tournament.candidates is empty: name at least one bot, e.g. candidates = [\"new\"]",
        ));
    }
    Ok(Format::Gauntlet { candidates })
}

/// The seeds of a knockout or Swiss tournament, by index in `bots`: the
/// bots `seeding` or `seeding_file` lists first, in that order, then the
/// others in the config's order.
fn seeds(
    r: &RawTournament,
    bots: &[BotSpec],
    base: &Path,
    host: &Host<'_>,
    p: &Place<'_>,
) -> Result<Vec<usize>, ConfigError> {
    let mut seeds = match (&r.seeding, &r.seeding_file) {
        (Some(list), None) => bot_indices(list, "seeding", bots, p)?,
        (None, Some(file)) => seeds_of_file(file, bots, base, host, p)?,
        (Some(_), Some(file)) => {
            return Err(p.at(
                Some(file.span()),
                "tournament.seeding and seeding_file are both set: keep one",
            ))
        }
        (None, None) => Vec::new(),
    };
    let rest: Vec<usize> = (0..bots.len()).filter(|i| !seeds.contains(i)).collect();
    seeds.extend(rest);
    Ok(seeds)
}

/// The bots of standings file `file` (resolved from `base`), best first,
/// by index in `bots`; its other rows are left out.
fn seeds_of_file(
    file: &Spanned<String>,
    bots: &[BotSpec],
    base: &Path,
    host: &Host<'_>,
    p: &Place<'_>,
) -> Result<Vec<usize>, ConfigError> {
    let path = base.join(file.get_ref());
    let text = (host.read)(&path).map_err(|e| {
        p.at(
            Some(file.span()),
            &format!("tournament.seeding_file: cannot read {}: {e}: give the path of a standings.csv (from the config's folder)", path.display()),
        )
    })?;
    let ranked = ranked_bots(&text).map_err(|why| {
        p.at(
            Some(file.span()),
            &format!("tournament.seeding_file {}: {why}", path.display()),
        )
    })?;
    let mut seeds = Vec::new();
    for n in &ranked {
        if let Some(i) = bots
            .iter()
            .position(|b| &b.name == n)
            .filter(|i| !seeds.contains(i))
        {
            seeds.push(i);
        }
    }
    Ok(seeds)
}

/// The names of `tournament.decider`: how a knockout settles a drawn tie.
const DECIDERS: Choices<Decider> = Choices {
    what: "decider",
    names: &[("pair", Decider::Pair), ("seed", Decider::Seed)],
    usage: DECIDER_USAGE,
};

/// A knockout of `seeds`, with its `decider`.
fn knockout(r: &RawTournament, seeds: Vec<usize>, p: &Place<'_>) -> Result<Format, ConfigError> {
    let decider = p.choice(&r.decider, "tournament.decider", &DECIDERS)?;
    Ok(Format::Knockout { seeds, decider })
}

/// A Swiss tournament of `seeds` among `n` bots, with its `rounds`: each
/// bot can meet a new one in n - 1 rounds (n with an odd count, one of
/// them a bye).
fn swiss(
    r: &RawTournament,
    seeds: Vec<usize>,
    n: usize,
    p: &Place<'_>,
) -> Result<Format, ConfigError> {
    let most = (n - 1 + n % 2) as i64;
    let default = ((usize::BITS - (n - 1).leading_zeros()) as i64).min(most);
    let rounds = p
        .checked(
            &r.rounds,
            "tournament.rounds",
            |k| (1..=most).contains(&k),
            &format!("{n} bots can play 1 to {most} rounds without a repeat (default {default})"),
        )?
        .unwrap_or(default);
    Ok(Format::Swiss {
        seeds,
        rounds: rounds as u32,
    })
}

/// The names of `tournament.pairing`: how a league pairs its bots.
const PAIRINGS: Choices<PairBy> = Choices {
    what: "pairing",
    names: &[("rating", PairBy::Rating), ("random", PairBy::Random)],
    usage: PAIRING_USAGE,
};

/// A league's `rounds`, `settle_los`, `pairing` and `catch_up` checked (the seed and
/// the ratings' settings are filled in from their own keys afterwards).
fn league_format(r: &RawTournament, p: &Place<'_>) -> Result<Format, ConfigError> {
    use crate::format::{LeagueSettings, LEAGUE_CATCH_UP, LEAGUE_MAX_CATCH_UP, LEAGUE_MAX_ROUNDS};
    let pairing = p.choice(&r.pairing, "tournament.pairing", &PAIRINGS)?;
    let rounds = p.checked(
        &r.rounds,
        "tournament.rounds",
        |k| (1..=i64::from(LEAGUE_MAX_ROUNDS)).contains(&k),
        &format!(
            "a league plays 1 to {LEAGUE_MAX_ROUNDS} rounds; remove rounds to play until stopped"
        ),
    )?;
    let settle_los = p.checked(
        &r.settle_los,
        "tournament.settle_los",
        |x| x.is_finite() && (0.5..1.0).contains(&x),
        "give a likelihood of superiority from 0.5 to below 1, e.g. 0.95",
    )?;
    let catch_up = p.checked(
        &r.catch_up,
        "tournament.catch_up",
        |k| (1..=i64::from(LEAGUE_MAX_CATCH_UP)).contains(&k),
        &format!("give the most series a late entrant far behind plays in a round, 1 to {LEAGUE_MAX_CATCH_UP} (1: one series a round like every bot; default {LEAGUE_CATCH_UP})"),
    )?;
    Ok(Format::League(LeagueSettings {
        rounds: rounds.map(|k| k as u32),
        settle_los,
        seed: 0,
        prior_draws: 1.0,
        bootstrap: 0,
        pairing,
        catch_up: catch_up.map_or(LEAGUE_CATCH_UP, |k| k as u32),
    }))
}

/// The bots of a standings file (`arena rate`'s or a run's
/// `standings.csv`), best first: the `bot` column in the file's order,
/// which is by `rank`.
///
/// # Errors
/// A line naming the problem: no `bot` column, a row that is not CSV.
fn ranked_bots(text: &str) -> Result<Vec<String>, String> {
    let mut reader = csv::ReaderBuilder::new().from_reader(strip_bom(text).as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| format!("is not CSV: {e}"))?
        .clone();
    let Some(bot) = headers.iter().position(|h| h == "bot") else {
        return Err(
            "has no bot column: give a standings.csv written by arena run or arena rate".into(),
        );
    };
    let mut out = Vec::new();
    for row in reader.records() {
        let row = row.map_err(|e| format!("is not CSV: {e}"))?;
        if let Some(name) = row.get(bot) {
            out.push(name.to_string());
        }
    }
    Ok(out)
}
