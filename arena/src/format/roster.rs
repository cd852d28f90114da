//! A league whose bots come and go (docs/formats.md, "League"): who is in
//! it in which round ([`Roster`]), and what an edited config changes of it
//! ([`diff_bots`]). Pure: the config's text comes in as TOML tables.
//!
//! A bot's index is its place in the league's list of bots: the config's
//! bots of the start, in order, then each bot that joined later, in the
//! order it joined. A bot of the start that did not start is in the list
//! but never in the league, unless it joins later (in its own place).

use std::collections::BTreeMap;

/// A bot's time in a league: the first round it is paired in and the last
/// round it was in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stint {
    /// The first round it is paired in (1 for the bots of the start).
    pub joined: u32,
    /// The last round it was in, once it left; `None` while it is in.
    pub retired: Option<u32>,
}

impl Stint {
    /// Whether the bot is in round `round` (paired, or given the bye).
    #[must_use]
    pub fn plays_in(&self, round: u32) -> bool {
        self.joined <= round && self.retired.is_none_or(|r| round <= r)
    }
}

/// Who is in a league in which round: per bot index, its [`Stint`], or
/// `None` for a bot never in it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Roster {
    stints: Vec<Option<Stint>>,
}

impl Roster {
    /// The roster of a league's start: `bots` bots, all in from round 1
    /// but those `absent` (they did not start).
    #[must_use]
    pub fn starting(bots: usize, absent: &[usize]) -> Roster {
        Roster {
            stints: (0..bots)
                .map(|b| {
                    (!absent.contains(&b)).then_some(Stint {
                        joined: 1,
                        retired: None,
                    })
                })
                .collect(),
        }
    }

    /// The roster of these stints, by bot index.
    #[must_use]
    pub fn from_stints(stints: Vec<Option<Stint>>) -> Roster {
        Roster { stints }
    }

    /// Every bot's stint, by index.
    #[must_use]
    pub fn stints(&self) -> &[Option<Stint>] {
        &self.stints
    }

    /// The number of bots in the list (in the league or not).
    #[must_use]
    pub fn len(&self) -> usize {
        self.stints.len()
    }

    /// Whether the list has no bot.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.stints.is_empty()
    }

    /// The bots in round `round`, by index.
    #[must_use]
    pub fn present(&self, round: u32) -> Vec<usize> {
        (0..self.stints.len())
            .filter(|&b| self.stints[b].is_some_and(|s| s.plays_in(round)))
            .collect()
    }

    /// Whether bot `bot` is in the league now (joined, not retired).
    #[must_use]
    pub fn is_active(&self, bot: usize) -> bool {
        self.stints
            .get(bot)
            .copied()
            .flatten()
            .is_some_and(|s| s.retired.is_none())
    }

    /// Bot `bot` joins at round `round`: in its own place if it has one
    /// (a bot of the start that did not start), else as a new index
    /// (`bot == len()`). Returns its index.
    ///
    /// # Panics
    /// If `bot > len()`.
    pub fn join(&mut self, bot: usize, round: u32) -> usize {
        assert!(bot <= self.stints.len(), "bot {bot} past the list's end");
        let stint = Some(Stint {
            joined: round,
            retired: None,
        });
        if bot == self.stints.len() {
            self.stints.push(stint);
        } else {
            self.stints[bot] = stint;
        }
        bot
    }

    /// Bot `bot` leaves: `last` is the last round it was in. Nothing for a
    /// bot not in the league.
    pub fn retire(&mut self, bot: usize, last: u32) {
        if let Some(Some(s)) = self.stints.get_mut(bot) {
            if s.retired.is_none() {
                s.retired = Some(last);
            }
        }
    }

    /// The last round whose bots the roster decided: the latest round a
    /// bot joined at, or left before. A resumed league takes the rounds up
    /// to it from the roster, not from the config; 1 for a roster without
    /// change.
    #[must_use]
    pub fn decided(&self) -> u32 {
        self.stints
            .iter()
            .flatten()
            .map(|s| s.joined.max(s.retired.map_or(0, |r| r + 1)))
            .max()
            .unwrap_or(1)
    }
}

/// A config file split for the comparison: every key but the bots, and
/// each `[[bot]]` table by its name, in the file's order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BotTables {
    /// Every key but `bot`.
    pub rest: toml::Table,
    /// Each `[[bot]]` table with its `name` (empty when it has none).
    pub bots: Vec<(String, toml::Table)>,
}

/// Why an edited config is not taken by a running league: one line each.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The file is not TOML (or not a table of tables where one is due).
    #[error("it does not parse: {0}")]
    NotToml(String),
    /// A key other than the bots changed.
    #[error("{0} changed: a running league takes only [[bot]] tables added or removed (put it back, or stop the league and start another)")]
    OtherKey(String),
    /// A bot in the league has another table.
    #[error("bot '{0}' changed ({1}): a bot in the league cannot be changed while it runs (put its table back; to replace it, remove it and add one under another name)")]
    ChangedBot(String, String),
    /// A bot that left the league is back.
    #[error(
        "bot '{0}' left the league after round {1} and cannot come back: add it under another name"
    )]
    Retired(String, u32),
}

/// What an edited config changes of a league: the bots added (names, in
/// the file's order) and removed (names).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BotChanges {
    /// Bots in the file that are not in the league.
    pub added: Vec<String>,
    /// Bots in the league that are not in the file.
    pub removed: Vec<String>,
}

impl BotChanges {
    /// Whether nothing changed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty()
    }
}

/// Splits config `text` into [`BotTables`].
///
/// # Errors
/// [`Refusal::NotToml`] for text that is not TOML, or whose `bot` is not
/// an array of tables.
pub fn split(text: &str) -> Result<BotTables, Refusal> {
    let mut rest: toml::Table =
        toml::from_str(text).map_err(|e: toml::de::Error| Refusal::NotToml(parse_error(&e)))?;
    let bots = match rest.remove("bot") {
        None => Vec::new(),
        Some(toml::Value::Array(items)) => items
            .into_iter()
            .map(|v| match v {
                toml::Value::Table(t) => {
                    let name = t
                        .get("name")
                        .and_then(toml::Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                    Ok((name, t))
                }
                _ => Err(Refusal::NotToml("a [[bot]] is not a table".into())),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(Refusal::NotToml("bot is not an array of tables".into())),
    };
    Ok(BotTables { rest, bots })
}

/// TOML's error `e` in one line: where (its first line, which names the
/// line and column), then the problem (its message), without the source
/// it quotes between them.
fn parse_error(e: &toml::de::Error) -> String {
    let text = e.to_string();
    let place = text.lines().next().unwrap_or_default().trim();
    let problem = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
    if problem.is_empty() || place.contains(&problem) {
        place.to_string()
    } else {
        format!("{place}: {problem}")
    }
}

/// The keys whose values differ between `a` and `b`, as the config writes
/// them (`[tournament] seed`, `name`), in order: a table compared key by
/// key, any other value (an array of `[[bot]]` tables too) as a whole.
#[must_use]
pub fn changed_keys(a: &toml::Table, b: &toml::Table) -> Vec<String> {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out = Vec::new();
    for k in keys {
        match (a.get(k), b.get(k)) {
            (x, y) if x == y => {}
            (Some(toml::Value::Table(x)), Some(toml::Value::Table(y))) => out.extend(
                changed_keys(x, y)
                    .into_iter()
                    .map(|sub| format!("[{k}] {sub}")),
            ),
            _ => out.push(k.clone()),
        }
    }
    out
}

/// What config `new` changes of a league: `rest`, the league's keys but
/// the bots (its config's); `active`, each bot in the league now, by name,
/// with the table it joined with; `retired`, each bot that left, with its
/// last round. A bot neither in the league nor retired (one that did not
/// start, or failed its check) is added when the file has it.
///
/// # Errors
/// The first [`Refusal`]: another key changed, a bot in the league changed,
/// a retired bot is back.
pub fn diff_bots(
    rest: &toml::Table,
    active: &BTreeMap<String, toml::Table>,
    retired: &BTreeMap<String, u32>,
    new: &BotTables,
) -> Result<BotChanges, Refusal> {
    if let Some(key) = changed_keys(rest, &new.rest).into_iter().next() {
        return Err(Refusal::OtherKey(key));
    }
    let mut changes = BotChanges::default();
    for (name, table) in &new.bots {
        if let Some(old) = active.get(name) {
            if let Some(key) = changed_keys(old, table).into_iter().next() {
                return Err(Refusal::ChangedBot(name.clone(), key));
            }
        } else if let Some(&last) = retired.get(name) {
            return Err(Refusal::Retired(name.clone(), last));
        } else if !changes.added.contains(name) {
            changes.added.push(name.clone());
        }
    }
    changes.removed = active
        .keys()
        .filter(|name| new.bots.iter().all(|(n, _)| n != *name))
        .cloned()
        .collect();
    Ok(changes)
}

/// Whether config `given` differs from a league's own `stored` (both the
/// files' bytes) only in `[[bot]]` tables added or removed, and in the
/// keys the resume check of `config::same_games` ignores (`concurrency`, `affinity`):
/// a league may resume with them, its roster deciding who plays. `false`
/// unless both are leagues (`[tournament] format = "league"`).
#[must_use]
pub fn bots_only_change(stored: &[u8], given: &[u8]) -> bool {
    let tables = |bytes: &[u8]| {
        let mut t = split(std::str::from_utf8(bytes).ok()?).ok()?;
        let tournament = t.rest.get_mut("tournament")?.as_table_mut()?;
        if tournament.get("format").and_then(toml::Value::as_str) != Some("league") {
            return None;
        }
        tournament.remove("concurrency");
        tournament.remove("affinity");
        Some(t)
    };
    let (Some(a), Some(b)) = (tables(stored), tables(given)) else {
        return false;
    };
    let active: BTreeMap<String, toml::Table> = a.bots.into_iter().collect();
    diff_bots(&a.rest, &active, &BTreeMap::new(), &b).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const HEAD: &str = "[tournament]\nformat = \"league\"\nseed = 7\n";

    fn bot(name: &str, cmd: &str) -> String {
        format!("[[bot]]\nname = \"{name}\"\ncommand = [\"{cmd}\"]\n")
    }

    fn league_of(text: &str) -> (toml::Table, BTreeMap<String, toml::Table>) {
        let t = split(text).unwrap();
        (t.rest, t.bots.into_iter().collect())
    }

    #[test]
    fn added_and_removed_bots_are_named_and_other_changes_refused() {
        let old = format!("{HEAD}{}{}", bot("a", "x"), bot("b", "x"));
        let (rest, active) = league_of(&old);
        let none = BTreeMap::new();
        let new = format!("{HEAD}{}{}", bot("b", "x"), bot("c", "y"));
        let changes = diff_bots(&rest, &active, &none, &split(&new).unwrap()).unwrap();
        assert_eq!(changes.added, vec!["c".to_string()]);
        assert_eq!(changes.removed, vec!["a".to_string()]);
        // The same file, reordered and recommented: nothing.
        let same = format!("# a comment\n{}{HEAD}{}", bot("b", "x"), bot("a", "x"));
        assert!(diff_bots(&rest, &active, &none, &split(&same).unwrap())
            .unwrap()
            .is_empty());
        // Another key.
        let seed = old.replace("seed = 7", "seed = 8");
        let e = diff_bots(&rest, &active, &none, &split(&seed).unwrap()).unwrap_err();
        assert_eq!(e, Refusal::OtherKey("[tournament] seed".into()));
        assert!(
            e.to_string().starts_with("[tournament] seed changed: "),
            "{e}"
        );
        // A bot of the league changed.
        let changed = format!("{HEAD}{}{}", bot("a", "x"), bot("b", "z"));
        let e = diff_bots(&rest, &active, &none, &split(&changed).unwrap()).unwrap_err();
        assert_eq!(e, Refusal::ChangedBot("b".into(), "command".into()));
        // A retired bot back.
        let retired: BTreeMap<String, u32> = [("r".to_string(), 4)].into_iter().collect();
        let back = format!("{old}{}", bot("r", "x"));
        let e = diff_bots(&rest, &active, &retired, &split(&back).unwrap()).unwrap_err();
        assert_eq!(e, Refusal::Retired("r".into(), 4));
        // Not TOML.
        assert!(matches!(split("[[bot]\nname ="), Err(Refusal::NotToml(_))));
        // A string not closed: where, and the problem, in one line.
        let e = split("[[bot]]\nname = \"x\ncommand = []\n").unwrap_err();
        let line = e.to_string();
        assert!(
            line.starts_with("it does not parse: TOML parse error at line 2, column 10: "),
            "{line}"
        );
        assert!(line.contains("invalid"), "{line}");
        assert!(!line.contains('\n') && !line.contains('|'), "{line}");
    }

    #[test]
    fn a_league_resumes_with_bots_added_or_removed_only() {
        let old = format!("{HEAD}{}{}", bot("a", "x"), bot("b", "x"));
        let added = format!("{old}{}", bot("c", "x"));
        let removed = format!("{HEAD}{}", bot("b", "x"));
        let moved = old.replace("seed = 7", "seed = 7\nconcurrency = 3");
        for ok in [&added, &removed, &moved] {
            assert!(bots_only_change(old.as_bytes(), ok.as_bytes()), "{ok}");
        }
        let seed = old.replace("seed = 7", "seed = 8");
        let changed = format!("{HEAD}{}{}", bot("a", "x"), bot("b", "y"));
        for bad in [&seed, &changed, &"not toml [".to_string()] {
            assert!(!bots_only_change(old.as_bytes(), bad.as_bytes()), "{bad}");
        }
        // Not a league: never.
        let rr = old.replace("format = \"league\"\n", "");
        let rr_added = added.replace("format = \"league\"\n", "");
        assert!(!bots_only_change(rr.as_bytes(), rr_added.as_bytes()));
    }

    #[test]
    fn a_roster_that_rewrites_a_paired_round_is_refused() {
        use crate::format::{Format, LeagueSettings, Plan};
        let format = Format::League(LeagueSettings {
            rounds: Some(3),
            settle_los: None,
            seed: 1,
            prior_draws: 1.0,
            bootstrap: 50,
            pairing: Default::default(),
            catch_up: crate::format::LEAGUE_CATCH_UP,
        });
        let mut plan = Plan::with_roster(&format, Roster::starting(4, &[]));
        let mut late = Roster::starting(4, &[]);
        late.retire(0, 0);
        assert!(!plan.set_roster(late), "round 1 is paired with bot 0");
        let mut next = Roster::starting(4, &[]);
        next.join(4, 2);
        assert!(plan.set_roster(next.clone()));
        assert_eq!(plan.roster(), Some(&next));
    }

    #[test]
    fn a_roster_says_who_plays_in_which_round() {
        let mut r = Roster::starting(4, &[2]);
        assert_eq!(r.present(1), vec![0, 1, 3]);
        assert_eq!(r.decided(), 1);
        assert_eq!(r.join(4, 3), 4);
        assert_eq!(r.join(2, 5), 2);
        r.retire(1, 4);
        r.retire(1, 9); // once only
        assert_eq!(r.present(2), vec![0, 1, 3]);
        assert_eq!(r.present(3), vec![0, 1, 3, 4]);
        assert_eq!(r.present(4), vec![0, 1, 3, 4]);
        assert_eq!(r.present(5), vec![0, 2, 3, 4]);
        assert_eq!(r.decided(), 5);
        assert!(!r.is_active(1) && r.is_active(2));
    }

    proptest! {
        /// A league whose bots join and leave between rounds: each round
        /// pairs exactly the bots the roster has in it (or gives one the
        /// bye; a late bot behind may have more than one series), and the plan rebuilt from the final roster and the results
        /// pairs every round the same (what a resume does).
        #[test]
        fn a_league_pairs_the_roster_of_each_round(
            start in 2usize..10,
            joins in proptest::collection::vec(2u32..7, 0..4),
            leaves in proptest::collection::vec((0usize..10, 2u32..7), 0..3),
            seed in any::<u64>(),
        ) {
            use crate::format::{test_result, Format, LeagueSettings, Plan};
            let format = Format::League(LeagueSettings {
                rounds: Some(6),
                settle_los: None,
                seed,
                prior_draws: 1.0,
                bootstrap: 50,
                pairing: Default::default(),
                catch_up: crate::format::LEAGUE_CATCH_UP,
            });
            let mut roster = Roster::starting(start, &[]);
            let mut plan = Plan::with_roster(&format, roster.clone());
            let mut results = Vec::new();
            while let Some(stage) = plan.next_stage() {
                let round = stage.series[0].round;
                let byes: Vec<usize> = plan.byes().iter().filter(|b| b.0 == round).map(|b| b.1).collect();
                let mut seen: Vec<usize> = stage.series.iter().flat_map(|s| [s.a, s.b]).chain(byes).collect();
                seen.sort_unstable();
                // A late bot behind may play more than one series (catch-up).
                seen.dedup();
                prop_assert_eq!(seen, roster.present(round));
                // Between rounds: the joins and leaves of the next one.
                for &at in joins.iter().filter(|&&r| r == round + 1) {
                    let next = roster.len();
                    roster.join(next, at);
                }
                for &(bot, at) in leaves.iter().filter(|l| l.1 == round + 1) {
                    roster.retire(bot, round);
                    prop_assert!(!roster.present(at).contains(&bot));
                }
                prop_assert!(plan.set_roster(roster.clone()));
                for (k, s) in stage.series.iter().enumerate() {
                    let r = test_result(*s, (k % 3) as u32, 1);
                    results.push(r.clone());
                    plan.record(&r);
                }
            }
            let replayed = Plan::replay_with_roster(&format, roster, &results);
            prop_assert_eq!(replayed.series(), plan.series());
            prop_assert_eq!(replayed.byes(), plan.byes());
        }

        /// Any two lists of bots (names from a small set, commands from
        /// two): the changes are exactly the names of one list missing from
        /// the other, or the refusal of a bot whose command changed.
        #[test]
        fn the_diff_is_the_difference_of_the_names(
            old in proptest::collection::btree_map(0u8..8, 0u8..2, 0..6),
            new in proptest::collection::btree_map(0u8..8, 0u8..2, 0..6),
        ) {
            let text = |bots: &BTreeMap<u8, u8>| {
                let mut t = HEAD.to_string();
                for (n, c) in bots {
                    t.push_str(&bot(&format!("b{n}"), &format!("c{c}")));
                }
                t
            };
            let (rest, active) = league_of(&text(&old));
            let got = diff_bots(&rest, &active, &BTreeMap::new(), &split(&text(&new)).unwrap());
            let changed = old.iter().find(|(n, c)| new.get(n).is_some_and(|d| d != *c));
            match changed {
                Some((n, _)) => prop_assert_eq!(got, Err(Refusal::ChangedBot(format!("b{n}"), "command".into()))),
                None => {
                    let got = got.unwrap();
                    let added: Vec<String> = new.keys().filter(|n| !old.contains_key(n)).map(|n| format!("b{n}")).collect();
                    let removed: Vec<String> = old.keys().filter(|n| !new.contains_key(n)).map(|n| format!("b{n}")).collect();
                    prop_assert_eq!(got.added, added);
                    prop_assert_eq!(got.removed, removed);
                }
            }
        }
    }
}
