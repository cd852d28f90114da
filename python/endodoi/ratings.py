"""Ratings without a config: rate bots (checkpoints, submissions) from
arrays of games or from an arena ``games.csv``, with the arena's own
statistics (the crate ``endodoi-ratings``, which ``arena rate`` uses).

>>> from endodoi import ratings
>>> r = ratings.rate(["a", "b", "a", "c"], ["b", "a", "c", "b"],
...                  ["south", "draw", 1, 0.5], bootstrap=200)
>>> r.names.tolist(), r.games.tolist(), r.score.tolist()
(['a', 'b', 'c'], [3, 3, 2], [2.5, 1.0, 0.5])
>>> print(r.table())  # doctest: +NORMALIZE_WHITESPACE
rank  bot  games  score    elo  95% interval    los_next
   1  a        3    2.5   99.8  [-7.9, 207.5]     0.9302
   2  b        3    1.0  -38.3  [-144.9, 68.3]    0.5947
   3  c        2    0.5  -61.5  [-172.8, 49.8]

Every figure is the one ``arena rate`` writes to ``standings.csv`` for the
same games and options: a Bradley-Terry fit on the logistic Elo scale with
``prior_draws`` virtual draws per pair, 95% intervals from a seeded
bootstrap (or the curvature of the fit where the bootstrap degenerates),
and the likelihood of superiority (docs/ratings.md has every formula and
its source). Results are numpy arrays, one entry per bot, in the order of
``names``.
"""

import csv
import dataclasses
import io
import os
import warnings
from typing import Any, Optional

try:
    import numpy as np
except ImportError as e:  # pragma: no cover - numpy is in the test requirements
    raise ImportError("endodoi.ratings needs numpy: pip install numpy (%s)" % e) from e

from endodoi._endodoi import rate_games

__all__ = ["Ratings", "from_games_csv", "rate"]

PRIOR_DRAWS = 1.0
"""``arena rate --prior-draws``'s default: virtual draws per pair that played."""
BOOTSTRAP = 1000
"""``arena rate --bootstrap``'s default: bootstrap replicates."""
SEED = 1
"""``arena rate --seed``'s default (the default ``[tournament] seed``)."""
MAX_ANCHOR_ELO = 10000.0
"""``arena rate --anchor-elo``'s range, either way, Elo points."""

_RESULT_WORDS = {"south": 2, "draw": 1, "north": 0}
_RESULT_HELP = "give South's score 1, 0.5 or 0, or 'south', 'draw' or 'north' (as games.csv's result)"


@dataclasses.dataclass(frozen=True)
class Ratings:
    """Ratings of some bots, one entry per bot in the order of ``names``.

    Elo figures are points on the logistic scale (a bot ``D`` points above
    another scores ``1 / (1 + 10**(-D/400))`` on average); they are NaN
    where ``standings.csv`` leaves them empty: a bot without games
    (``interval == "no-games"``) or, without a prior, a group with an
    infinite estimate (``"at-limit"``).
    """

    names: np.ndarray
    """Bot names (str)."""
    elo: np.ndarray
    """Ratings, Elo: mean 0 over each group, or shifted to the anchor's rating."""
    lower: np.ndarray
    """Lower ends of the 95% intervals, Elo."""
    upper: np.ndarray
    """Upper ends of the 95% intervals, Elo."""
    sd: np.ndarray
    """Standard deviations of the ratings, Elo (0 for the anchor)."""
    interval: np.ndarray
    """How each interval was measured: 'bootstrap', 'curvature', 'at-limit' or 'no-games'."""
    games: np.ndarray
    """Games played."""
    wins: np.ndarray
    """Games won."""
    draws: np.ndarray
    """Games drawn."""
    losses: np.ndarray
    """Games lost."""
    score: np.ndarray
    """Points: a win 1, a draw 0.5."""
    rank: np.ndarray
    """1 for the top bot, as standings.csv ranks them (by group, then Elo, then score)."""
    group: np.ndarray
    """Connected group, from 1 in the listed order: ratings of different groups are not comparable."""
    los_next: np.ndarray
    """Likelihood of superiority (0..1) over the bot ranked next in its group; NaN for the last."""
    order: np.ndarray
    """Bot indices best first (``names[order]`` is the standings' bot column)."""
    draw_rate: float
    """Fraction of the games drawn."""
    samples: int
    """Bootstrap replicates behind the intervals and LOS."""
    _table: Any = dataclasses.field(repr=False, compare=False)

    def index(self, bot):
        """The index of ``bot``, given by name or index."""
        if isinstance(bot, str):
            found = np.flatnonzero(self.names == bot)
            if not len(found):
                raise ValueError("no bot named %r: give one of names (%s)"
                                 % (bot, ", ".join(self.names[:10])))
            return int(found[0])
        return _index(bot, len(self.names), "bot")

    def los(self, i, j):
        """The likelihood of superiority of bot ``i`` over bot ``j`` (names or
        indices), 0..1: ``Phi((elo_i - elo_j) / sd(elo_i - elo_j))`` with the
        covariance of the bootstrap (or of the curvature, see ``interval``),
        as in Ordo and ``los.csv``; only meaningful within a group."""
        return self._table.los(self.index(i), self.index(j))

    def covariance(self, i, j):
        """The covariance of the ratings of bots ``i`` and ``j`` (names or indices), Elo squared."""
        return self._table.covariance(self.index(i), self.index(j))

    def __len__(self):
        return len(self.names)

    def table(self):
        """The standings as text, best first: rank, bot, games, score, Elo,
        its 95% interval and the LOS over the next bot (as ``arena rate``
        prints them, without the W-D-L columns)."""
        rows = [("rank", "bot", "games", "score", "elo", "95% interval", "los_next")]
        for i in self.order:
            estimate = not np.isnan(self.elo[i])
            rows.append((str(self.rank[i]), str(self.names[i]), str(self.games[i]),
                         "%.1f" % self.score[i] if self.games[i] else "",
                         "%.1f" % self.elo[i] if estimate else "",
                         "[%.1f, %.1f]" % (self.lower[i], self.upper[i]) if estimate else self.interval[i],
                         "" if np.isnan(self.los_next[i]) else "%.4f" % self.los_next[i]))
        widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
        left = {1, 5}
        return "\n".join("  ".join(v.ljust(w) if c in left else v.rjust(w)
                                   for c, (v, w) in enumerate(zip(r, widths))).rstrip()
                         for r in rows)


def rate(south, north, result, *, names=None, prior_draws=PRIOR_DRAWS, bootstrap=BOOTSTRAP,
         seed=SEED, anchor=None, anchor_elo=0.0):
    """Rates games given as arrays, one entry per game (numpy arrays or
    sequences of equal length).

    ``south`` and ``north``: the bot that played South (the side that moves
    first) and the other, as indices into ``names`` or as names. Without
    ``names``, names given are sorted (as ``arena rate`` orders bots) and
    indices ``0..max`` are named ``"0"``, ``"1"``, ...; bots of ``names``
    without games get ``interval == "no-games"``.

    ``result``: South's score, 1, 0.5 or 0, or games.csv's words
    ``"south"``, ``"draw"``, ``"north"``.

    Options are ``arena rate``'s flags with its defaults (without a
    config): ``prior_draws`` virtual draws per pair that played,
    ``bootstrap`` replicates, the bootstrap's ``seed`` (the same games,
    options and bot order give the same numbers), and ``anchor`` (a name or
    index) whose rating is fixed at ``anchor_elo``.

    Raises ValueError naming the entry at fault and the fix: arrays of
    different lengths, no games, an unknown bot, a bot against itself, a
    result that is not one, a bad option.
    """
    south, north, result = (_array(x, what) for x, what in
                            ((south, "south"), (north, "north"), (result, "result")))
    if not len(south) == len(north) == len(result):
        raise ValueError("south has %d entries, north %d and result %d: give one entry per game in each"
                         % (len(south), len(north), len(result)))
    if not len(south):
        raise ValueError("no games: give at least one game (a South bot, a North bot and a result)")
    names, south, north = _bots(south, north, names)
    points = _half_points(result)
    if isinstance(prior_draws, bool) or not _is_real(prior_draws) or not prior_draws >= 0:
        raise ValueError("prior_draws is %r: give 0 or more virtual draws per pair (%g by default, as arena rate)"
                         % (prior_draws, PRIOR_DRAWS))
    bootstrap = _count(bootstrap, "bootstrap", 2**32 - 1)
    seed = _count(seed, "seed", 2**64 - 1)
    anchored = None
    if anchor is not None:
        if not _is_real(anchor_elo) or not abs(anchor_elo) <= MAX_ANCHOR_ELO:
            raise ValueError("anchor_elo is %r: give a rating from -%g to %g Elo (as arena rate --anchor-elo)"
                             % (anchor_elo, MAX_ANCHOR_ELO, MAX_ANCHOR_ELO))
        anchored = (_anchor(anchor, names), float(anchor_elo))
    table = rate_games(len(names), south.tolist(), north.tolist(), points.tolist(),
                       prior_draws=float(prior_draws), bootstrap=bootstrap, seed=seed, anchor=anchored)
    return _ratings(names, table)


def from_games_csv(path, **options):
    """Rates the games of an arena ``games.csv`` (or a list of them, rated
    together) with ``rate``'s options, giving the numbers ``arena rate``
    writes to ``standings.csv`` for the same files and options.

    Reads the columns ``south``, ``north`` and ``result`` with Python's csv
    module (any other columns are ignored; the rows are not replayed, as
    ``arena rate`` replays a file with moves). Bots are named as in the
    file and ordered by name, as ``arena rate`` orders them. An incomplete
    last line (a run killed while writing) is skipped with a warning, as
    ``arena rate`` skips it.

    The defaults are ``arena rate``'s without a config: for a run folder
    whose ``config.toml`` sets ``[ratings]`` or ``[tournament] seed``, pass
    the same values (``prior_draws``, ``bootstrap``, ``seed``, ``anchor``,
    ``anchor_elo``) to get its ``standings.csv``.

    Raises ValueError naming the file, the line and the fix for a missing
    column, a bad result, a row without a bot, or a bot against itself;
    ``rate``'s errors for bad options.
    """
    paths = [path] if isinstance(path, (str, bytes, os.PathLike)) else list(path)
    if not paths:
        raise ValueError("no games.csv given: give a path or a list of paths")
    south, north, result = [], [], []
    for p in paths:
        _read_games(os.fspath(p), south, north, result)
    if not south:
        raise ValueError("no games in %s: a games.csv needs its header row and a row per game, as "
                         "`arena run CONFIG --out DIR` writes DIR/games.csv"
                         % ", ".join(os.fspath(p) for p in paths))
    names = sorted(set(south) | set(north))
    return rate(south, north, result, names=names, **options)


def _read_games(path, south, north, result):
    """Appends the games of one games.csv to the three lists."""
    with open(path, newline="", encoding="utf-8") as f:
        text = f.read()
    end = text.rfind("\n") + 1
    if 0 < end < len(text):
        warnings.warn("%s:%d: an incomplete last line (%d bytes) is skipped: the run was killed while "
                      "writing it" % (path, text.count("\n", 0, end) + 1, len(text[end:].encode())),
                      stacklevel=3)
        text = text[:end]
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header is None:
        return
    missing = [c for c in ("south", "north", "result") if c not in header]
    if missing:
        raise ValueError("%s:1: no %s column: give an arena games.csv (its header has series, game, "
                         "south, north, result, ...)" % (path, ", ".join(missing)))
    cols = [header.index(c) for c in ("south", "north", "result")]
    for row in reader:
        line = reader.line_num
        if len(row) != len(header):
            raise ValueError("%s:%d: %d fields where the header has %d: give one field per column"
                             % (path, line, len(row), len(header)))
        s, n, r = (row[c] for c in cols)
        if not s or not n:
            raise ValueError("%s:%d: a game without a bot's name: give both south and north" % (path, line))
        if s == n:
            raise ValueError("%s:%d: '%s' plays itself: give two different bots" % (path, line, s))
        if r not in _RESULT_WORDS:
            raise ValueError("%s:%d: bad result '%s': give south, north or draw" % (path, line, r))
        south.append(s)
        north.append(n)
        result.append(r)


def _array(x, what):
    """``x`` as a one-dimensional numpy array."""
    a = np.asarray(x, dtype=object) if isinstance(x, (list, tuple)) else np.asarray(x)
    if a.ndim != 1:
        raise ValueError("%s has %d dimensions: give one entry per game (a sequence or a 1-d array)"
                         % (what, a.ndim))
    return a


def _is_real(x):
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) \
        and bool(np.isfinite(x))


def _count(x, what, top):
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not 0 <= x <= top:
        raise ValueError("%s is %r: give a whole number from 0 to %d" % (what, x, top))
    return int(x)


def _index(x, bots, what):
    """A bot index below ``bots``, or a ValueError naming ``what``."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
        raise ValueError("%s is %r: give a bot index (an int) or a name (a str)" % (what, x))
    if not 0 <= x < bots:
        raise ValueError("%s is bot %d, but there are %d bots (indices 0 to %d): give an index below %d, "
                         "or more names" % (what, x, bots, bots - 1, bots))
    return int(x)


def _bots(south, north, names):
    """The names and the games' bot indices, from indices or names."""
    def kind(a, what):
        if a.dtype.kind in "iu":
            return "index"
        if a.dtype.kind == "U":
            return "name"
        found = set()
        for k, v in enumerate(a.tolist()):
            if isinstance(v, str):
                found.add("name")
            elif isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
                found.add("index")
            else:
                raise ValueError("%s[%d] is %r: give a bot index (an int) or a name (a str)" % (what, k, v))
            if len(found) > 1:
                raise ValueError("%s mixes bot indices and names (%s[%d] is %r): give one kind for all"
                                 % (what, what, k, v))
        return found.pop()
    kinds = {kind(south, "south"), kind(north, "north")}
    if len(kinds) != 1:
        raise ValueError("south and north mix bot indices and names: give one kind for both")
    if kinds == {"name"}:
        south, north = south.astype(str), north.astype(str)
        if names is None:
            names = sorted(set(south.tolist()) | set(north.tolist()))
        names = _names(names)
        where = {n: i for i, n in enumerate(names.tolist())}
        out = []
        for a, what in ((south, "south"), (north, "north")):
            try:
                out.append(np.fromiter((where[v] for v in a.tolist()), dtype=np.int64, count=len(a)))
            except KeyError as e:
                k = a.tolist().index(e.args[0])
                raise ValueError("%s[%d] is %r, which is not in names: add it to names, or leave names out"
                                 % (what, k, e.args[0])) from None
        return names, out[0], out[1]
    south, north = south.astype(np.int64), north.astype(np.int64)
    if names is None:
        low = min(south.min(), north.min())
        if low < 0:
            what, k = ("south", int(np.argmin(south))) if south.min() == low else ("north", int(np.argmin(north)))
            raise ValueError("%s[%d] is bot %d: give bot indices from 0" % (what, k, low))
        names = [str(i) for i in range(int(max(south.max(), north.max())) + 1)]
    names = _names(names)
    for a, what in ((south, "south"), (north, "north")):
        bad = np.flatnonzero((a < 0) | (a >= len(names)))
        if len(bad):
            _index(int(a[bad[0]]), len(names), "%s[%d]" % (what, bad[0]))
    return names, south, north


def _names(names):
    names = np.asarray(list(names), dtype=object)
    if not all(isinstance(n, str) for n in names):
        raise ValueError("names must be strs: give one name per bot")
    dup = [n for n, c in zip(*np.unique(names.astype(str), return_counts=True)) if c > 1]
    if dup:
        raise ValueError("names has %r twice: give each bot one name" % dup[0])
    return names.astype(str)


def _half_points(result):
    """South's results in half points: 2 a win, 1 a draw, 0 a loss."""
    if result.dtype.kind in "iuf":
        doubled = result.astype(float) * 2
        good = (doubled == 0) | (doubled == 1) | (doubled == 2)
    elif result.dtype.kind == "U":
        doubled = np.select([result == w for w in _RESULT_WORDS], list(_RESULT_WORDS.values()), -1)
        good = doubled >= 0
    else:
        words = [_RESULT_WORDS.get(r) if isinstance(r, str) else
                 r * 2 if isinstance(r, (int, float, np.integer, np.floating))
                 and not isinstance(r, (bool, np.bool_)) and r in (0, 0.5, 1) else -1
                 for r in result.tolist()]
        doubled = np.array([-1 if w is None else w for w in words], dtype=float)
        good = doubled >= 0
    if not good.all():
        k = int(np.flatnonzero(~good)[0])
        raise ValueError("result[%d] is %r: %s" % (k, result[k].item() if hasattr(result[k], "item")
                                                   else result[k], _RESULT_HELP))
    return doubled.astype(np.uint8)


def _anchor(anchor, names):
    if isinstance(anchor, str):
        found = np.flatnonzero(names == anchor)
        if not len(found):
            raise ValueError("anchor %r is not a bot here: give one of names" % anchor)
        return int(found[0])
    return _index(anchor, len(names), "anchor")


def _ratings(names, table):
    """The numpy arrays of a native RatingTable."""
    interval = np.asarray(table.interval, dtype=str)
    estimate = (interval == "bootstrap") | (interval == "curvature")

    def elo(values):
        return np.where(estimate, np.asarray(values, dtype=float), np.nan)
    order = np.asarray(table.order, dtype=np.int64)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(1, len(order) + 1)
    wins, draws = np.asarray(table.wins, dtype=np.int64), np.asarray(table.draws, dtype=np.int64)
    los_next = np.array([np.nan if v is None else v for v in table.los_next], dtype=float)
    return Ratings(names=names, elo=elo(table.elo), lower=elo(table.lower), upper=elo(table.upper),
                   sd=elo(table.sd), interval=interval, games=np.asarray(table.games, dtype=np.int64),
                   wins=wins, draws=draws, losses=np.asarray(table.losses, dtype=np.int64),
                   score=wins + 0.5 * draws, rank=rank, group=np.asarray(table.group, dtype=np.int64),
                   los_next=los_next, order=order, draw_rate=table.draw_rate, samples=table.samples,
                   _table=table)
