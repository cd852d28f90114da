//! Between a league's rounds: the config file read again, and the bots
//! added to it joining, those removed leaving (docs/formats.md, "League").
//! A bot added is started, handshaken and plays one game against itself
//! before it joins; a bot that fails that does not join. Any other change,
//! or a file that does not parse, is refused in one line and the league
//! goes on as it was. The roster ([`Roster`]) is written to `roster.csv`
//! before each round, and a resumed league takes the rounds it decided
//! from it, not from the config.
//!
//! The runner prints nothing: each line for the console goes to the
//! [`LeagueDoor`]'s `notes`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::{check_bot, RunError, RunOptions};
use crate::bot::log::LOG_CAP_BYTES;
use crate::bot::BotLog;
use crate::config::{BotSpec, Config};
use crate::format::roster::{diff_bots, split, BotTables, Roster};
use crate::format::{Format, Plan};
use crate::output::roster::{read_roster, roster_of, write_roster, RosterFileError, ROSTER_FILE};
use crate::output::RunFolder;
use crate::referee::{play_watched, stop_seats, GameEnd, GameRules, Seat};

/// A league's door, in [`RunOptions`]: the config file read between rounds
/// for bots that come and go, and where the lines for the console go.
#[derive(Clone, Debug)]
pub struct LeagueDoor {
    /// The config file the league was started (or resumed) with.
    pub config: PathBuf,
    /// What the door says between rounds ([`DoorNote`]).
    pub notes: Sender<DoorNote>,
}

/// What a league's door says between rounds, for the command to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DoorNote {
    /// One line for the console: a bot that joins, leaves or fails its
    /// check; a change refused.
    Line(String),
    /// Bots joined or left: the most series the league can still play,
    /// from the round about to be paired on
    /// ([`crate::format::LeagueSettings::series_left`]). Not sent for a
    /// league without `rounds`, which has no bound.
    SeriesLeft(u64),
}

/// Why a resumed league cannot take its bots.
#[derive(Debug, thiserror::Error)]
pub enum LeagueResumeError {
    /// `roster.csv` could not be read.
    #[error(transparent)]
    Roster(#[from] RosterFileError),
    /// The run folder's `config.toml` could not be read as a config.
    #[error("{}: {1}", .0.display())]
    Stored(PathBuf, String),
    /// A bot still in the league is not in the config.
    #[error("bot '{0}' is in the league (roster.csv) but not in {}: put its [[bot]] table back to resume (remove it once the league goes on)", .1.display())]
    Missing(String, PathBuf),
}

/// The bots of a resumed league in the league's order: the bots of its
/// start (the run folder's `config.toml`), then those that joined
/// (`roster.csv`), each with its table from `config` (read from
/// `file`); a bot never in the league or retired, and not in `config`,
/// gets a stand-in (never started). `config`'s bots not among them are
/// dropped: they join at the next round, as added bots. Returns the
/// indices of the bots not in the league now (not to be checked or
/// paired).
///
/// # Errors
/// [`LeagueResumeError`].
pub fn league_order(
    config: &mut Config,
    file: &Path,
    dir: &RunFolder,
) -> Result<Vec<usize>, LeagueResumeError> {
    let stored_path = dir.path.join("config.toml");
    let stored = dir
        .config()
        .map_err(|e| LeagueResumeError::Stored(stored_path.clone(), e.to_string()))
        .and_then(|b| {
            let text = String::from_utf8(b)
                .map_err(|e| LeagueResumeError::Stored(stored_path.clone(), e.to_string()))?;
            split(&text).map_err(|e| LeagueResumeError::Stored(stored_path.clone(), e.to_string()))
        })?;
    let start: Vec<String> = stored.bots.into_iter().map(|(n, _)| n).collect();
    let rows = read_roster(&dir.path)?.unwrap_or_default();
    let (roster, names) = if rows.is_empty() {
        (Roster::starting(start.len(), &[]), start)
    } else {
        roster_of(&rows, &start)
    };
    let mut bots = Vec::with_capacity(names.len());
    let mut origins = Vec::with_capacity(names.len());
    let mut out = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let active = rows.is_empty() || roster.is_active(i);
        match config.bots.iter().position(|b| b.name == *name) {
            Some(at) => {
                bots.push(config.bots[at].clone());
                origins.push(config.bot_origins.get(at).cloned().unwrap_or_default());
            }
            None if active => {
                return Err(LeagueResumeError::Missing(name.clone(), file.to_path_buf()))
            }
            None => {
                bots.push(BotSpec::new(name, Vec::new(), config.time));
                origins.push(String::new());
            }
        }
        if !active {
            out.push(i);
        }
    }
    config.bots = bots;
    config.bot_origins = origins;
    Ok(out)
}

/// `config` with a stand-in (its name only, never started) for each bot
/// of `dir`'s `roster.csv` it does not have, in the roster's order: the
/// bots a league's summaries name.
///
/// # Errors
/// `roster.csv` cannot be read.
pub fn with_joined(config: &Config, dir: &RunFolder) -> Result<Config, RosterFileError> {
    let mut out = config.clone();
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let rows = read_roster(&dir.path)?.unwrap_or_default();
    for name in roster_of(&rows, &names).1.into_iter().skip(names.len()) {
        out.bots.push(BotSpec::new(&name, Vec::new(), config.time));
        out.bot_origins.push(String::new());
    }
    Ok(out)
}

/// The most series the league of `config` (its bots of the start first,
/// by name) can play with the roster of `dir`'s `roster.csv`: each round
/// with the bots in it then ([`crate::format::LeagueSettings::series_bound`]).
/// `None` when `config` is not a league with `rounds`, or `dir` has no
/// roster (nothing decided yet, or unreadable: the config's bots then).
#[must_use]
pub fn roster_series(config: &Config, dir: &Path) -> Option<u64> {
    let Format::League(settings) = &config.format else {
        return None;
    };
    let rows = read_roster(dir).ok().flatten().filter(|r| !r.is_empty())?;
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    settings.series_bound(&roster_of(&rows, &names).0)
}

/// The plan of the run of `config` (`absent`: bots that did not start),
/// with a league's door when `options` has one: its plan then pairs the
/// door's roster.
pub(super) fn plan(
    config: &Config,
    dir: &RunFolder,
    options: &RunOptions,
    absent: &[usize],
) -> (Plan, Option<Door>) {
    match (&config.format, &options.league) {
        (Format::League(_), Some(d)) => {
            let door = Door::open(config, dir, d, absent, options.resume);
            (
                Plan::with_roster(&config.format, door.roster.clone()),
                Some(door),
            )
        }
        _ => (Plan::new(&config.format, config.bots.len(), absent), None),
    }
}

/// What the door changes and uses between rounds: the run's config and
/// bot logs (bots that join are added), its folder, options and stop.
pub(super) struct Between<'a> {
    /// The run's config: bots that join are added to it.
    pub(super) config: &'a mut Arc<Config>,
    /// Each bot's log, by index.
    pub(super) logs: &'a mut Vec<BotLog>,
    /// The run folder.
    pub(super) dir: &'a RunFolder,
    /// The run's options.
    pub(super) options: &'a RunOptions,
    /// The run's stop.
    pub(super) cancel: &'a CancellationToken,
}

/// The state of the door between rounds.
pub(super) struct Door {
    file: PathBuf,
    notes: Sender<DoorNote>,
    /// The league's keys but the bots.
    rest: toml::Table,
    /// Each bot in the league, with its table.
    active: BTreeMap<String, toml::Table>,
    /// Each bot that left, with its last round.
    retired: BTreeMap<String, u32>,
    /// The file's bytes when last read: unchanged bytes are not read again.
    last: Option<Vec<u8>>,
    /// Who is in which round.
    pub(super) roster: Roster,
}

impl Door {
    /// The door of the league of `config` (its bots in the league's order,
    /// `absent` not in it) in `dir`: a resume takes the roster of
    /// `roster.csv`, and reads the file at the first round the roster did
    /// not decide; a new league starts with every bot but `absent`, and
    /// reads the file again once it changes.
    pub(super) fn open(
        config: &Config,
        dir: &RunFolder,
        door: &LeagueDoor,
        absent: &[usize],
        resume: bool,
    ) -> Door {
        let bytes = std::fs::read(&door.config).ok();
        let tables = bytes
            .as_deref()
            .and_then(|b| split(std::str::from_utf8(b).ok()?).ok())
            .unwrap_or_default();
        let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
        let rows = if resume {
            read_roster(&dir.path).ok().flatten().unwrap_or_default()
        } else {
            Vec::new()
        };
        let roster = if rows.is_empty() {
            Roster::starting(names.len(), absent)
        } else {
            roster_of(&rows, &names).0
        };
        let BotTables { rest, bots } = tables.clone();
        let active = bots
            .into_iter()
            .filter(|(n, _)| {
                names
                    .iter()
                    .position(|m| m == n)
                    .is_some_and(|i| roster.is_active(i))
            })
            .collect();
        let retired = (0..names.len())
            .filter_map(|i| Some((names[i].clone(), roster.stints()[i]?.retired?)))
            .collect();
        let mut opened = Door {
            file: door.config.clone(),
            notes: door.notes.clone(),
            rest,
            active,
            retired,
            last: if resume { None } else { bytes.clone() },
            roster,
        };
        if resume {
            opened.refuse_at_resume(bytes, &tables);
        }
        opened
    }

    /// At a resume: a file that names a retired bot (`tables`, of its
    /// `bytes`) is refused at once, in one line, as while the league
    /// runs, and not read again until it changes; the league goes on
    /// without it.
    fn refuse_at_resume(&mut self, bytes: Option<Vec<u8>>, tables: &BotTables) {
        if let Err(why) = diff_bots(&self.rest, &self.active, &self.retired, tables) {
            self.note(refused(&self.file, &why.to_string()));
            self.last = bytes;
        }
    }

    /// Writes the roster of `plan` to `roster.csv` in `dir` (bots named by
    /// `config`), before a round is played.
    ///
    /// # Errors
    /// [`RunError::WriteRoster`].
    pub(super) fn write(
        &self,
        dir: &RunFolder,
        plan: &Plan,
        config: &Config,
    ) -> Result<(), RunError> {
        let Some(roster) = plan.roster() else {
            return Ok(());
        };
        let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
        write_roster(&dir.path, roster, &names)
            .map_err(|e| RunError::WriteRoster(dir.path.join(ROSTER_FILE), e))
    }

    /// After a round of `plan` is played and before the next is paired:
    /// [`Door::between`], and the plan takes the roster if it changed (the
    /// series it can still play then said: [`DoorNote::SeriesLeft`]).
    pub(super) async fn after_round(&mut self, plan: &mut Plan, at: &mut Between<'_>) {
        let (Some(l), Format::League(settings)) = (plan.league(), plan.format()) else {
            return;
        };
        let (next, settings) = (l.rounds_paired + 1, *settings);
        if !at.cancel.is_cancelled()
            && next <= settings.max_rounds()
            && self.between(next, at).await
        {
            plan.set_roster(self.roster.clone());
            if let Some(left) = settings.series_left(next, &self.roster) {
                let _ = self.notes.send(DoorNote::SeriesLeft(left));
            }
        }
    }

    fn note(&self, line: String) {
        // The command may have gone (a run torn down): nothing to say then.
        let _ = self.notes.send(DoorNote::Line(line));
    }

    /// Before round `next` is paired: reads the config file again (unless
    /// the roster decided the round, or the file is unchanged) and lets
    /// the bots added join (into `config` and `logs`) and the bots removed
    /// leave. Returns whether the roster changed (not when each bot added
    /// failed its check).
    async fn between(&mut self, next: u32, at: &mut Between<'_>) -> bool {
        if next <= self.roster.decided() {
            return false;
        }
        let Ok(bytes) = std::fs::read(&self.file) else {
            // Being replaced: read next round.
            return false;
        };
        if self.last.as_deref() == Some(bytes.as_slice()) {
            return false;
        }
        self.last = Some(bytes.clone());
        let file = self.file.display().to_string();
        let refused = |why: String| refused(&self.file, &why);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let changes = split(&text).and_then(|new| {
            Ok((
                diff_bots(&self.rest, &self.active, &self.retired, &new)?,
                new,
            ))
        });
        let (changes, new) = match changes {
            Ok(c) => c,
            Err(e) => {
                self.note(refused(e.to_string()));
                return false;
            }
        };
        if changes.is_empty() {
            return false;
        }
        let host = crate::config::Host {
            cores: crate::affinity::usable_cores(),
            read: &|p: &Path| std::fs::read_to_string(p),
        };
        let parsed = match Config::load(&self.file, &host) {
            Ok(c) => c,
            Err(e) => {
                let why = e.to_string();
                self.note(refused(why.lines().next().unwrap_or_default().to_string()));
                return false;
            }
        };
        let (last, before) = (next - 1, self.roster.clone());
        for name in &changes.removed {
            let Some(i) = at.config.bots.iter().position(|b| b.name == *name) else {
                continue;
            };
            self.roster.retire(i, last);
            self.active.remove(name);
            self.retired.insert(name.clone(), last);
            self.note(format!(
                "arena: {file}: bot '{name}' removed: it leaves the league after round {last} (its games and rating stay)"
            ));
        }
        for name in &changes.added {
            if at.cancel.is_cancelled() {
                break;
            }
            let table = new.bots.iter().find(|(n, _)| n == name).map(|(_, t)| t);
            let joining = Joining {
                name,
                table,
                parsed: &parsed,
                next,
            };
            self.admit(&joining, at).await;
        }
        // A bot that failed its check changed nothing.
        self.roster != before
    }

    /// Bot `j.name`, added to the config: checked ([`join_check`]), and,
    /// if it passes, into `config`, `logs` and the roster from round
    /// `j.next`; one line for the console either way.
    async fn admit(&mut self, j: &Joining<'_>, at: &mut Between<'_>) {
        let (dir, options, cancel) = (at.dir, at.options, at.cancel);
        let (name, parsed, next) = (j.name, j.parsed, j.next);
        let file = self.file.display().to_string();
        let Some(pos) = parsed.bots.iter().position(|b| b.name == *name) else {
            return;
        };
        let spec = parsed.bots[pos].clone();
        if let Err(why) = join_check(parsed, &spec, dir, options, cancel).await {
            // The check's reason names the bot too: said once.
            let why = why.to_string();
            let why = why.strip_prefix(&format!("bot '{name}': ")).unwrap_or(&why);
            self.note(format!(
                "arena: {file}: bot '{name}' does not join: {why}; fix it and save the config again to retry"
            ));
            return;
        }
        let config = Arc::make_mut(at.config);
        let i = match config.bots.iter().position(|b| b.name == *name) {
            Some(i) => {
                config.bots[i] = spec;
                i
            }
            None => {
                config.bots.push(spec);
                config
                    .bot_origins
                    .push(parsed.bot_origins.get(pos).cloned().unwrap_or_default());
                at.logs.push(
                    BotLog::open(&dir.bot_log(name), LOG_CAP_BYTES)
                        .unwrap_or_else(|_| BotLog::none()),
                );
                config.bots.len() - 1
            }
        };
        self.roster.join(i, next);
        if let Some(table) = j.table {
            self.active.insert(name.clone(), table.clone());
        }
        self.note(format!(
            "arena: {file}: bot '{name}' joins the league at round {next}"
        ));
    }
}

/// The line of a change to the config `file` refused, `why`.
fn refused(file: &Path, why: &str) -> String {
    format!(
        "arena: {}: change refused ({why}); the league goes on as it was",
        file.display()
    )
}

/// A bot added to the config, as [`Door::admit`] takes it.
struct Joining<'a> {
    /// Its name.
    name: &'a String,
    /// Its `[[bot]]` table.
    table: Option<&'a toml::Table>,
    /// The edited config, read whole.
    parsed: &'a Config,
    /// The round it would join at.
    next: u32,
}

/// The check of a bot before it joins: the start-up check of every bot
/// ([`check_bot`]: started, handshaken, stopped), then one game against
/// itself, which it must end without a fault.
///
/// # Errors
/// Why it failed, one line.
async fn join_check(
    config: &Config,
    spec: &BotSpec,
    dir: &RunFolder,
    options: &RunOptions,
    cancel: &CancellationToken,
) -> Result<(), String> {
    if let (Some(why), ..) = check_bot(spec, dir, options).await {
        return Err(why);
    }
    let log =
        BotLog::open(&dir.bot_log(&spec.name), LOG_CAP_BYTES).unwrap_or_else(|_| BotLog::none());
    let seat = || Seat {
        spec: spec.clone(),
        process: None,
        log: log.clone(),
        log_prefix: "join".to_string(),
        guard: options.guard.clone(),
        transcripts: None,
    };
    let mut seats = [seat(), seat()];
    let [a, b] = &mut seats;
    let record = play_watched(
        GameRules {
            rules: config.rules,
            adjudicate: config.adjudicate,
            // The start-up check plays on without the tables.
            tables: None,
        },
        [a, b],
        &[],
        (0, 1),
        cancel,
        None,
    )
    .await;
    stop_seats(seats).await;
    let Some(record) = record else {
        return Err("the run was stopped during its game against itself".into());
    };
    match record.end {
        GameEnd::NoMoves | GameEnd::PlyLimit | GameEnd::Decided | GameEnd::Tablebase => Ok(()),
        end => Err(format!(
            "its game against itself ended in a fault ({}: {})",
            end.name(),
            record.detail
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_roster_series_count_each_round_with_the_bots_in_it() {
        let bots = crate::config::test_bots(&["a", "b", "c", "d"]);
        let config = crate::config::test_config(&format!(
            "[tournament]\nformat = \"league\"\nrounds = 10\n{bots}"
        ));
        let tmp = tempfile::tempdir().unwrap();
        // No roster yet: the config's bots.
        assert_eq!(roster_series(&config, tmp.path()), None);
        // e joins at round 3, a leaves after round 5.
        let names: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let mut roster = Roster::starting(4, &[]);
        roster.join(4, 3);
        roster.retire(0, 5);
        write_roster(tmp.path(), &roster, &names).unwrap();
        let Format::League(settings) = &config.format else {
            unreachable!()
        };
        let extra = u64::from(settings.catch_up - 1);
        let series = 2 * 2 + 3 * (2 + extra) + 5 * (2 + extra);
        assert_eq!(roster_series(&config, tmp.path()), Some(series));
    }
}
