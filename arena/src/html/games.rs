//! The games as the report shows them, tallied while `games.csv` is read
//! row by row: per series its bots and W-D-L, how games ended, forfeits by
//! bot and kind, the first forfeits to list, the boards, and the course of
//! a one-series match. Only the games the viewer replays are kept whole, so
//! the report of a large file needs memory for its tables and its viewer,
//! not for the file.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use endodoi::Side;

use super::{replay, FORFEIT_LIST_MAX};
use crate::matchup::MatchGame;
use crate::output::{GameRow, GamesError, GamesReader};
use crate::standings::Wdl;

/// A game's place in the report: its file (from 0), series and game.
type Key = (usize, u64, u32);

/// One series of the report: the games of one series number in one file.
#[derive(Clone, Debug)]
pub(super) struct SeriesInfo {
    /// The file, from 0.
    pub(super) file: usize,
    /// The series number in its file.
    pub(super) number: u64,
    /// The bots, as indices into [`ReportGames::bots`]: `a` is South in
    /// the series' first game.
    pub(super) a: usize,
    pub(super) b: usize,
    /// Results from `a`'s side.
    pub(super) wdl: Wdl,
    /// Games played.
    pub(super) played: usize,
    /// The lowest game number.
    pub(super) first_game: u32,
}

/// A forfeited game, as the list of forfeits shows it.
#[derive(Clone, Debug)]
pub(super) struct Forfeit {
    /// The bot at fault, `?` when the row does not say.
    pub(super) loser: String,
    /// The kind of fault (the row's termination).
    pub(super) kind: String,
    /// The row's detail.
    pub(super) detail: String,
}

/// The games of a report, tallied: what its tables count, and the games
/// its viewer replays. Made by [`read_games`] from `games.csv` files, or by
/// [`ReportGames::of_rows`] from rows in memory; both give the same.
#[derive(Clone, Debug, Default)]
pub struct ReportGames {
    /// Bot names in order of first appearance.
    pub(super) bots: Vec<String>,
    index: HashMap<String, usize>,
    /// Every series, in file and series order.
    pub(super) series: Vec<SeriesInfo>,
    series_at: HashMap<(usize, u64), usize>,
    /// Games by termination.
    pub(super) ends: BTreeMap<String, usize>,
    /// Forfeits by the bot at fault and kind.
    pub(super) faults: BTreeMap<(String, String), u32>,
    /// Forfeits in all.
    pub(super) forfeits: usize,
    /// The first [`FORFEIT_LIST_MAX`] forfeits, in file, series and game
    /// order.
    pub(super) listed: BTreeMap<Key, Forfeit>,
    /// The boards played: holes per row and seeds per hole, as written.
    pub(super) boards: BTreeSet<(String, String)>,
    /// The games the viewer replays, whole, in file, series and game order.
    pub(super) viewed: Vec<GameRow>,
    /// Games in all.
    pub(super) total: usize,
    /// The first game (by file, series and game) and its South.
    first: Option<(Key, usize)>,
    /// The games of the one series, while all are of one series and two
    /// bots: game number, South (an index into `bots`) and winner.
    course: Option<Vec<(u32, usize, Option<Side>)>>,
    /// Bytes of positions of the games in `viewed` ([`ReportGames::add`]).
    viewed_bytes: usize,
    /// Whether series begun once the viewer is full are left out
    /// ([`ReportGames::new_bounded`]).
    bounded: bool,
    /// Whether the viewer refused a game (only when `bounded`): no new
    /// series is kept since.
    viewer_full: bool,
    /// Series not kept, at least: each counted when a game of it comes
    /// after the games of every series counted so (series come in number
    /// order, a league's round after round).
    pub(super) unkept: usize,
    /// The last series counted in `unkept`: file and number.
    unkept_last: Option<(usize, u64)>,
}

impl ReportGames {
    /// No games yet: [`ReportGames::add`] counts them one by one.
    #[must_use]
    pub fn new() -> ReportGames {
        ReportGames {
            course: Some(Vec::new()),
            ..ReportGames::default()
        }
    }

    /// No games yet, as [`ReportGames::new`], but keeping the series
    /// only until the viewer first refuses a game for its size limits: a
    /// series begun after that is counted in every total (games, how
    /// they ended, forfeits) but is not kept, nor are its games viewed.
    /// So its memory is bounded by the viewer's, however many series come
    /// (a league's live view, whose series go on without end); its cross
    /// table counts the series kept only.
    #[must_use]
    pub fn new_bounded() -> ReportGames {
        ReportGames {
            bounded: true,
            ..ReportGames::new()
        }
    }

    /// Adds the game of `row` (with its [`GameRow::file`]) to every count,
    /// as [`read_games`] counts it, and keeps it whole for the viewer while
    /// the viewer's games fit in `budget` bytes of positions (the first
    /// games to come, not chosen fairly across series as [`read_games`]
    /// chooses, since later games are not known yet). Returns whether the
    /// game is in the viewer. Games may come in any order.
    pub fn add(&mut self, row: GameRow, budget: usize) -> bool {
        let series_before = self.series.len();
        if !self.count(&row) {
            return false;
        }
        // A new series sorts after the others (the usual case: series are
        // numbered as they begin): nothing to put in order, so a run of
        // many series costs no sort per series.
        let in_order = self.series.len() < 2 || {
            let n = self.series.len();
            let (x, y) = (&self.series[n - 2], &self.series[n - 1]);
            (x.file, x.number) < (y.file, y.number)
        };
        if self.series.len() != series_before && !in_order {
            self.sort_series();
        }
        if let Some(course) = &mut self.course {
            // In game order: a game that ended early goes before later ones.
            if let Some(last) = course.pop() {
                let at = course.partition_point(|c| c.0 <= last.0);
                course.insert(at, last);
            }
        }
        let size = replay(&row).positions.len();
        if (self.viewed_bytes + size > budget || self.viewed.len() >= super::VIEWER_GAMES_MAX)
            && !self.viewed.is_empty()
        {
            self.viewer_full = self.bounded;
            return false;
        }
        self.viewed_bytes += size;
        let key = (row.file, row.series, row.game);
        let at = self
            .viewed
            .partition_point(|g| (g.file, g.series, g.game) < key);
        self.viewed.insert(at, row);
        true
    }

    /// The viewer's game of `file` (from 0), series and game, if kept.
    #[must_use]
    pub fn viewed(&self, file: usize, series: u64, game: u32) -> Option<&GameRow> {
        let key = (file, series, game);
        let at = self
            .viewed
            .partition_point(|g| (g.file, g.series, g.game) < key);
        self.viewed
            .get(at)
            .filter(|g| (g.file, g.series, g.game) == key)
    }

    /// The viewer's games, in file, series and game order.
    #[must_use]
    pub fn viewed_games(&self) -> &[GameRow] {
        &self.viewed
    }

    /// Games in all.
    #[must_use]
    pub fn len(&self) -> usize {
        self.total
    }

    /// Whether there are no games.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The South of the first game, by file, series and game.
    #[must_use]
    pub fn first_south(&self) -> Option<&str> {
        self.first.map(|(_, b)| self.bots[b].as_str())
    }

    /// The games of a match, in game order, with South given as an index
    /// into `names`, if every game is of one series of one file between
    /// two bots of `names`; `None` otherwise (no single test ran over
    /// them).
    #[must_use]
    pub fn course(&self, names: &[String]) -> Option<Vec<MatchGame>> {
        let course = self.course.as_ref()?;
        let at: Vec<Option<usize>> = self
            .bots
            .iter()
            .map(|b| names.iter().position(|n| n == b))
            .collect();
        course
            .iter()
            .map(|&(_, south, winner)| {
                Some(MatchGame {
                    south: at[south]?,
                    winner,
                })
            })
            .collect()
    }

    /// The games of `rows` (each with its [`GameRow::file`]), tallied, with
    /// the viewer's games chosen within `budget` bytes as [`read_games`]
    /// chooses them.
    #[must_use]
    pub fn of_rows(rows: &[GameRow], budget: usize) -> ReportGames {
        let mut games = ReportGames::new();
        let mut sizes = Vec::with_capacity(rows.len());
        for row in rows {
            games.count(row);
            sizes.push(size_of(row));
        }
        let whole = viewer_choice(sizes, budget);
        games.viewed = rows
            .iter()
            .filter(|r| whole.contains(&(r.file, r.series, r.game)))
            .cloned()
            .collect();
        games.finish();
        games
    }

    fn bot(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.bots.push(name.to_string());
        self.index.insert(name.to_string(), self.bots.len() - 1);
        self.bots.len() - 1
    }

    /// Adds `row` to every count (not to the viewer); returns whether its
    /// series is kept ([`ReportGames::new_bounded`]).
    fn count(&mut self, row: &GameRow) -> bool {
        let key = (row.file, row.series, row.game);
        let (south, north) = (self.bot(&row.south), self.bot(&row.north));
        self.total += 1;
        if self.first.is_none_or(|(k, _)| key < k) {
            self.first = Some((key, south));
        }
        *self.ends.entry(row.termination.clone()).or_default() += 1;
        if !row.holes.is_empty() {
            self.boards.insert((row.holes.clone(), row.seeds.clone()));
        }
        if row.is_forfeit() {
            self.forfeit(key, row);
        }
        let kept = self.series_at.contains_key(&(row.file, row.series)) || !self.viewer_full;
        if kept {
            self.count_series(row, south, north);
        } else {
            self.course = None;
            if self
                .unkept_last
                .is_none_or(|last| last < (row.file, row.series))
            {
                self.unkept += 1;
                self.unkept_last = Some((row.file, row.series));
            }
        }
        kept
    }

    /// Adds `row`, a game of `south` against `north`, to its series, and
    /// to the course of a one-series match.
    fn count_series(&mut self, row: &GameRow, south: usize, north: usize) {
        let series = *self
            .series_at
            .entry((row.file, row.series))
            .or_insert_with(|| {
                self.series.push(SeriesInfo {
                    file: row.file,
                    number: row.series,
                    a: south,
                    b: north,
                    wdl: Wdl::default(),
                    played: 0,
                    first_game: row.game,
                });
                self.series.len() - 1
            });
        let s = &mut self.series[series];
        // `a` is South in the first game: rows come in the order games
        // ended, so an earlier game may come later.
        if row.game < s.first_game {
            s.first_game = row.game;
            if s.a != south {
                (s.a, s.b) = (s.b, s.a);
                s.wdl = flipped(s.wdl);
            }
        }
        s.played += 1;
        let winner = match row.winner() {
            Some(Side::South) => Some(south),
            Some(Side::North) => Some(north),
            None => None,
        };
        match winner {
            None => s.wdl.draws += 1,
            Some(w) if w == s.a => s.wdl.wins += 1,
            Some(_) => s.wdl.losses += 1,
        }
        let one_series = self.series.len() == 1 && self.bots.len() <= 2;
        match &mut self.course {
            Some(course) if one_series => course.push((row.game, south, row.winner())),
            _ => self.course = None,
        }
    }

    fn forfeit(&mut self, key: Key, row: &GameRow) {
        self.forfeits += 1;
        let loser = match row.forfeit_side() {
            Some(Side::South) => row.south.as_str(),
            Some(Side::North) => row.north.as_str(),
            None => "?",
        };
        *self
            .faults
            .entry((loser.to_string(), row.termination.clone()))
            .or_default() += 1;
        if self.listed.len() == FORFEIT_LIST_MAX {
            match self.listed.last_key_value() {
                Some((&last, _)) if key < last => {
                    self.listed.pop_last();
                }
                _ => return,
            }
        }
        self.listed.insert(
            key,
            Forfeit {
                loser: loser.to_string(),
                kind: row.termination.clone(),
                detail: row.detail.clone(),
            },
        );
    }

    /// Puts the series in order (by file, then number), and their index
    /// `series_at` with them.
    fn sort_series(&mut self) {
        self.series.sort_by_key(|s| (s.file, s.number));
        self.series_at = self
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| ((s.file, s.number), i))
            .collect();
    }

    /// Puts the series, the viewer's games and the course in order.
    fn finish(&mut self) {
        self.sort_series();
        self.viewed.sort_by_key(|g| (g.file, g.series, g.game));
        if let Some(course) = &mut self.course {
            course.sort_by_key(|&(game, _, _)| game);
        }
    }

    /// The index into `series` of the series of `file` numbered `number`.
    pub(super) fn series_of(&self, file: usize, number: u64) -> Option<usize> {
        self.series_at.get(&(file, number)).copied()
    }
}

fn flipped(w: Wdl) -> Wdl {
    Wdl {
        wins: w.losses,
        draws: w.draws,
        losses: w.wins,
    }
}

/// A game's file, series and game, and the bytes of its positions in the
/// viewer: 24 bytes a game, the most the report keeps of every game.
type Size = (u32, u64, u32, u32);

fn size_of(row: &GameRow) -> Size {
    let bytes = replay(row).positions.len();
    (
        u32::try_from(row.file).unwrap_or(u32::MAX),
        row.series,
        row.game,
        u32::try_from(bytes).unwrap_or(u32::MAX),
    )
}

/// Reads every game of `files` (`games.csv` files, each row by row with
/// [`GamesReader`]) for the report, tallied as [`ReportGames`], with the
/// games the viewer replays chosen within `budget` bytes of positions
/// (see [`super::VIEWER_BUDGET_BYTES`]). A last line cut short (a run
/// killed while writing) is skipped, as `arena rate` skips it.
///
/// Streaming: no row is kept but the viewer's. To know which games those
/// are, the files are read twice: first every game is counted and replayed
/// to learn the size of its positions, and the viewer's choice is made from
/// the sizes alone (a few bytes a game); then the rows are read again and
/// the chosen ones kept.
///
/// # Errors
/// A file that cannot be read, lacks one of the required columns (see
/// [`GameRow`]), or has a bad row; the message names the file and line.
pub fn read_games(files: &[impl AsRef<Path>], budget: usize) -> Result<ReportGames, GamesError> {
    let mut games = ReportGames::new();
    let mut sizes = Vec::new();
    each_row(files, |row| {
        games.count(&row);
        sizes.push(size_of(&row));
    })?;
    let whole = viewer_choice(sizes, budget);
    each_row(files, |row| {
        if whole.contains(&(row.file, row.series, row.game)) {
            games.viewed.push(row);
        }
    })?;
    games.finish();
    Ok(games)
}

/// Calls `f` with every whole row of `files`, its [`GameRow::file`] set.
fn each_row(files: &[impl AsRef<Path>], mut f: impl FnMut(GameRow)) -> Result<(), GamesError> {
    for (i, file) in files.iter().enumerate() {
        for row in GamesReader::open(file.as_ref())? {
            let (_, mut row) = row?;
            row.file = i;
            f(row);
        }
    }
    Ok(())
}

/// The games the viewer replays, given every game's size of positions:
/// round robin over the series (game 1 of every series, then game 2, ...),
/// so each is represented, as long as they fit in `budget` (and always at
/// least one).
fn viewer_choice(mut sizes: Vec<Size>, budget: usize) -> HashSet<Key> {
    sizes.sort_unstable();
    let series: Vec<&[Size]> = sizes.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)).collect();
    let rounds = series.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut chosen = HashSet::new();
    let mut used = 0usize;
    for round in 0..rounds {
        for s in &series {
            let Some(&(file, series, game, size)) = s.get(round) else {
                continue;
            };
            let key = (file as usize, series, game);
            used += size as usize;
            if (used > budget || chosen.len() >= super::VIEWER_GAMES_MAX) && !chosen.is_empty() {
                return chosen;
            }
            chosen.insert(key);
        }
    }
    chosen
}
