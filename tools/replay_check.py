#!/usr/bin/env python3
"""Independent cross-check of En Dodoi games against ../shared/RULES.md.

This file re-implements the rules from RULES.md alone, without looking at the
Rust engine, so that a bug in the engine (or in the arena's bookkeeping) shows
up as a disagreement instead of being copied.

Usage:
    replay_check.py --vectors PATH          check the rules test vectors
    replay_check.py GAMES_CSV [GAMES_CSV...] check an arena's games.csv

Both modes print one line per failing row, then the summary line
"N passed, M failed" (with ", U unchecked (tablebase)" when a tablebase
row's claim is beyond the search budget: each such row gets a line). Exit status: 0 all passed, 1 some row failed,
2 the input could not be read.

Standard library only (Python 3.11).
"""

import argparse
import csv
import io
import os
import sys
import tomllib
from array import array

SOUTH, NORTH = 0, 1
SIDE_NAMES = ("south", "north")

DEFAULT_MAX_LAPS = 100_000  # RULES.md default; the vectors file has no max_laps column


class IllegalMove(Exception):
    """A move that the rules do not allow in the current position."""


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------

def sow(board, start, max_laps):
    """Relay-sow from ring index `start` on a copy of `board`.

    Returns (new_board, end_index), where end_index is the empty hole in which
    the last seed fell, or None when the move is endless.

    A move is endless when lap number `max_laps` still ends in an occupied
    hole. Running up to 100,000 laps for every endless candidate would be slow
    in Python, and most endless moves repeat early (RULES.md: back at the start
    after 57 laps in its example). The sowing is deterministic and depends only
    on (board, hole about to be lifted), so once such a lap-start state repeats
    the move can never end: it is endless whatever max_laps is. Long cycles
    (RULES.md mentions 10^9 laps) are still caught by the lap counter.
    """
    ring = list(board)
    size = len(ring)
    # Lap-start states are stored as compact bytes to keep the memory of up to
    # max_laps states small; fall back to 32-bit cells if a hole could hold
    # more than 255 seeds (totals are conserved, so the sum bounds every hole).
    if sum(ring) <= 255:
        def key(hole):
            return bytes(ring) + bytes((hole % 256, hole // 256))
    else:
        def key(hole):
            return array("I", ring).tobytes() + hole.to_bytes(2, "little")

    seen = set()
    hole = start
    for _lap in range(max_laps):
        state = key(hole)
        if state in seen:
            return None
        seen.add(state)

        seeds = ring[hole]
        ring[hole] = 0
        # Whole turns of the ring: every hole, the origin included (the origin
        # is not skipped, RULES.md "A move" step 2), gets one seed per turn.
        turns, rest = divmod(seeds, size)
        if turns:
            for i in range(size):
                ring[i] += turns
        for step in range(1, rest + 1):
            ring[(hole + step) % size] += 1
        last = (hole + seeds) % size

        if ring[last] == 1:
            # The last seed fell into an empty hole: the move ends here.
            return ring, last
        hole = last  # occupied: relay from there
    return None


class Game:
    """A game position plus its history-dependent bookkeeping.

    `max_plies=None` means no ply limit (the vectors are not bound by one).
    """

    def __init__(self, holes, seeds, max_laps=DEFAULT_MAX_LAPS, max_plies=None):
        if not 2 <= holes <= 50:
            raise ValueError(f"holes must be 2..50, got {holes}")
        if seeds < 1:
            raise ValueError(f"seeds must be at least 1, got {seeds}")
        if max_laps < 1:
            raise ValueError(f"max_laps must be at least 1, got {max_laps}")
        self.n = holes
        self.total = 2 * holes * seeds
        self.board = [seeds] * (2 * holes)
        self.captured = [0, 0]  # seeds taken off the board, per side
        self.to_move = SOUTH
        self.plies = 0
        self.max_laps = max_laps
        self.max_plies = max_plies
        self.ended = None  # None, "no-moves" or "ply-limit"
        self.totals = None  # final (south, north) once ended
        self._legal = None  # cache: own hole -> (board after sowing, end index)
        self._check_end(last_mover=None)

    # -- geometry -----------------------------------------------------------

    def index(self, side, hole):
        """Ring index of `side`'s own-perspective hole number `hole` (1..n)."""
        return (hole - 1) + (self.n if side == NORTH else 0)

    def owner(self, idx):
        return SOUTH if idx < self.n else NORTH

    def opposite(self, idx):
        return 2 * self.n - 1 - idx

    def row(self, side):
        start = self.n if side == NORTH else 0
        return self.board[start:start + self.n]

    # -- moves --------------------------------------------------------------

    def _sowings(self):
        """Sowing outcome of every legal move of the player to move.

        Cached because checking a move's legality already computes its
        outcome, and an endless check can cost up to max_laps laps.
        """
        if self._legal is None:
            legal = {}
            for hole in range(1, self.n + 1):
                idx = self.index(self.to_move, hole)
                if self.board[idx] == 0:
                    continue
                outcome = sow(self.board, idx, self.max_laps)
                if outcome is not None:
                    legal[hole] = outcome
            self._legal = legal
        return self._legal

    def legal_moves(self):
        if self.ended:
            return []
        return sorted(self._sowings())

    def play(self, hole):
        if self.ended:
            raise IllegalMove(f"the game is already over ({self.ended})")
        sowings = self._sowings()
        if hole not in sowings:
            idx = self.index(self.to_move, hole) if 1 <= hole <= self.n else None
            if idx is None:
                why = "out of range"
            elif self.board[idx] == 0:
                why = "empty hole"
            else:
                why = "endless sowing"
            raise IllegalMove(
                f"{SIDE_NAMES[self.to_move]} hole {hole} is illegal ({why}); "
                f"legal: {' '.join(map(str, sorted(sowings))) or 'none'}")
        board, end = sowings[hole]
        mover = self.to_move
        opp = self.opposite(end)
        # Capture only in the mover's own row and only if the opposite hole
        # has seeds; otherwise the triggering seed stays (RULES.md decision).
        if self.owner(end) == mover and board[opp] > 0:
            self.captured[mover] += board[opp] + 1
            board[opp] = 0
            board[end] = 0
        self.board = board
        self.plies += 1
        self.to_move = 1 - mover
        self._legal = None
        self._check_end(last_mover=mover)

    def _check_end(self, last_mover):
        # "No legal move" is checked first: the ply limit only applies when
        # "the game has not ended" (RULES.md, End of the game).
        if not self._sowings():
            self.ended = "no-moves"
            if last_mover is not None:
                self.captured[last_mover] += sum(self.board)
            else:
                # Over before the first move (only a tiny max_laps makes every
                # first move endless): nobody made a last move, so each player
                # takes the seeds in their own row (RULES.md decision).
                for side in (SOUTH, NORTH):
                    self.captured[side] += sum(self.row(side))
            self.board = [0] * len(self.board)
        elif self.max_plies is not None and self.plies >= self.max_plies:
            self.ended = "ply-limit"
            for side in (SOUTH, NORTH):
                self.captured[side] += sum(self.row(side))
            self.board = [0] * len(self.board)
        if self.ended:
            self.totals = tuple(self.captured)

    def result(self):
        """'south', 'north' or 'draw' by seed totals (meaningful once ended)."""
        south, north = self.captured
        if south > north:
            return "south"
        if north > south:
            return "north"
        return "draw"


def parse_moves(text):
    """Space-separated own-perspective hole numbers; raises ValueError."""
    moves = []
    for token in text.split():
        if not token.isdigit():
            raise ValueError(f"move {token!r} is not a hole number")
        moves.append(int(token))
    return moves


# ---------------------------------------------------------------------------
# CSV reading
# ---------------------------------------------------------------------------

class InputError(Exception):
    """The input file cannot be used at all (exit status 2)."""


def read_rows(path, required, arena_file=False):
    """Read a CSV file with a header into (line, dict) rows.

    A crash while the arena was writing can leave the final row cut short.
    Such a row is skipped with a warning on stderr: it was never a finished
    record. A final row counts as incomplete when it cannot be parsed, has
    fewer fields than the header, or, in a file the arena wrote
    (`arena_file`), has no trailing newline: the arena ends every row with
    one and skips a last line without it as torn (arena/src/output/games.rs),
    so both skip the same rows. Malformed rows elsewhere are returned as
    (line, None, reason) so the caller reports them as failures.
    """
    try:
        with open(path, newline="", encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read: {e}") from e

    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    records = []  # (line number where the record starts, fields or None, error)
    line = 1
    while True:
        start = line
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            records.append((start, None, f"malformed CSV: {e}"))
            line = reader.line_num + 1
            continue
        line = reader.line_num + 1
        if fields:  # blank lines carry no record
            records.append((start, fields, None))

    if not records or records[0][1] is None:
        raise InputError(f"{path}: no header row")
    header = [h.strip() for h in records[0][1]]
    missing = [c for c in required if c not in header]
    if missing:
        noun = "column" if len(missing) == 1 else "columns"
        raise InputError(f"{path}: missing {noun}: {', '.join(missing)}")
    body = records[1:]

    if body:
        start, fields, err = body[-1]
        incomplete = (
            fields is None
            or len(fields) < len(header)
            or (arena_file and not text.endswith(("\n", "\r"))))
        if incomplete:
            print(f"warning: {path}: skipping incomplete final row (line {start})",
                  file=sys.stderr)
            body = body[:-1]

    rows = []
    for start, fields, err in body:
        if fields is None:
            rows.append((start, None, err))
        elif len(fields) != len(header):
            rows.append((start, None,
                         f"{len(fields)} fields, header has {len(header)}"))
        else:
            rows.append((start, {h: v.strip() for h, v in zip(header, fields)}, None))
    return rows


# ---------------------------------------------------------------------------
# Vectors mode
# ---------------------------------------------------------------------------

VECTOR_COLUMNS = ["holes", "seeds", "moves", "board", "south_seeds",
                  "north_seeds", "to_move", "ended", "legal"]


def check_vector(row):
    """Return a list of differences between the row and our replay."""
    try:
        holes, seeds = int(row["holes"]), int(row["seeds"])
        moves = parse_moves(row["moves"])
        game = Game(holes, seeds, max_laps=DEFAULT_MAX_LAPS, max_plies=None)
    except ValueError as e:
        return [f"bad row: {e}"]
    for ply, hole in enumerate(moves):
        try:
            game.play(hole)
        except IllegalMove as e:
            return [f"ply {ply + 1}: {e}"]

    got = {
        "board": " ".join(map(str, game.board)),
        "south_seeds": str(game.captured[SOUTH]),
        "north_seeds": str(game.captured[NORTH]),
        "to_move": SIDE_NAMES[game.to_move],
        "ended": game.ended or "",
        "legal": " ".join(map(str, game.legal_moves())),
    }
    diffs = []
    for col, value in got.items():
        want = " ".join(row[col].split())  # normalise spacing
        if want != value:
            diffs.append(f"{col}: expected {want!r}, got {value!r}")
    return diffs


def run_vectors(path, out=sys.stdout):
    rows = read_rows(path, VECTOR_COLUMNS)
    passed = failed = 0
    for line, row, err in rows:
        diffs = [err] if row is None else check_vector(row)
        if diffs:
            failed += 1
            desc = "" if row is None else f" holes={row['holes']} seeds={row['seeds']} moves={row['moves']!r}"
            print(f"{path}:{line}:{desc}: {'; '.join(diffs)}", file=out)
        else:
            passed += 1
    return passed, failed


# ---------------------------------------------------------------------------
# games.csv mode
# ---------------------------------------------------------------------------

GAMES_COLUMNS = ["holes", "seeds", "max_laps", "max_plies", "moves", "plies",
                 "south_seeds", "north_seeds", "result", "termination"]
INT_COLUMNS = ["holes", "seeds", "max_laps", "max_plies", "plies",
               "south_seeds", "north_seeds"]
RULE_ENDINGS = ("no-moves", "ply-limit")
# Exact adjudication: the referee stopped the game after the first ply
# (past the opening) that gave a side more than half of all seeds.
DECIDED = "decided"
TABLEBASE = "tablebase"
# A diff with this prefix marks a row this checker cannot decide (a
# tablebase claim beyond its search budget): counted apart, not failed.
UNCHECKED = "unchecked: "
# The most positions the forced-end search of one tablebase row visits.
TABLEBASE_BUDGET = 300_000
# The rows left unchecked by the last run_games: (path, series, game).
UNCHECKED_ROWS = []
# ---------------------------------------------------------------------------
# Tablebase adjudication, by a search of our own (not the arena's tables)
# ---------------------------------------------------------------------------

INF = float("inf")


class BudgetExceeded(Exception):
    """The forced-end search visited more positions than its budget."""


class ForcedEnd:
    """Depth-limited search of the forced ends of a position (RULES.md's
    end of the game, no ply limit): `lo(pos, d)`, the best margin the mover
    can force with the game ending within d plies, and `hi(pos, d)`, the
    worst (for the mover) the opponent can force so; -inf and +inf when
    none. Margins count from here: future captures and the final sweep.
    A claim is confirmed when both equal it (docs/tablebases.md)."""

    def __init__(self, n, max_laps, budget):
        self.n, self.max_laps, self.budget = n, max_laps, budget
        self.memo = {}

    def children(self, board, mover):
        """(capture, child board) of each legal move; [] when none."""
        out = []
        for hole in range(self.n):
            idx = hole + (self.n if mover == NORTH else 0)
            if board[idx] == 0:
                continue
            sown = sow(board, idx, self.max_laps)
            if sown is None:
                continue
            child, end = sown
            opp = 2 * self.n - 1 - end
            cap = 0
            if (end >= self.n) == (mover == NORTH) and child[opp] > 0:
                cap = child[opp] + 1
                child[opp] = child[end] = 0
            out.append((cap, tuple(child)))
        return out

    def bounds(self, board, mover, d):
        """(lo, hi) of the position within d plies."""
        key = (board, mover, d)
        if key in self.memo:
            return self.memo[key]
        moves = self.children(list(board), mover)
        if not moves:
            # No legal move: the last mover (the opponent) sweeps the board.
            value = (-sum(board), -sum(board))
        elif d == 0:
            value = (-INF, INF)
        else:
            if len(self.memo) >= self.budget:
                raise BudgetExceeded
            lo = hi = -INF
            for cap, child in moves:
                c_lo, c_hi = self.bounds(child, 1 - mover, d - 1)
                lo = max(lo, cap - c_hi)
                hi = max(hi, cap - c_lo)
            value = (lo, hi)
        self.memo[key] = value
        return value


def claimed(detail):
    """The side, margin and plies of the arena's detail 'X to move forces +V
    in at most P plies', or None when it is not such a detail."""
    words = (detail or "").split()
    if (len(words) != 10 or words[0] not in SIDE_NAMES
            or words[1:4] != ["to", "move", "forces"]
            or words[5:8] != ["in", "at", "most"] or words[9] != "plies"
            or not words[8].isdigit()):
        return None
    try:
        return SIDE_NAMES.index(words[0]), int(words[4]), int(words[8])
    except ValueError:
        return None


def check_tablebase(game, row, totals, result):
    """A tablebase row: the game goes on after its moves, and our own search
    confirms that perfect play from there forces the recorded totals within
    the claimed plies (before the ply limit). Beyond the search budget the
    row is unchecked, not failed. Not checked: that no earlier position was
    already in the arena's tables (which positions they hold is theirs)."""
    if game.ended is not None:
        return [f"tablebase claimed but the game was over by the rules "
                f"({game.ended}) after {game.plies} plies"]
    if sum(totals) != game.total:
        return [f"totals {totals[0]}+{totals[1]} = {sum(totals)}, not {game.total} seeds"]
    if result != ("south" if totals[0] > totals[1] else
                  "north" if totals[1] > totals[0] else "draw"):
        return [f"result {result}, but the totals {totals[0]}-{totals[1]} give another"]
    claim = claimed(row.get("detail"))
    if claim is None:
        return ["a tablebase row's detail must say what is forced "
                f"('south to move forces +2 in at most 7 plies'), not {row.get('detail')!r}"]
    side, told, plies = claim
    if game.max_plies is not None and plies > game.max_plies - game.plies:
        return [f"tablebase claims an end within {plies} plies, but only "
                f"{game.max_plies - game.plies} are left before the ply limit"]
    mover = game.to_move
    margin = ((totals[mover] - game.captured[mover])
              - (totals[1 - mover] - game.captured[1 - mover]))
    if (side, told) != (mover, margin):
        return [f"the detail says {SIDE_NAMES[side]} to move forces {told:+d}, but the "
                f"position has {SIDE_NAMES[mover]} to move and the totals give {margin:+d}"]
    search = ForcedEnd(game.n, game.max_laps, TABLEBASE_BUDGET)
    try:
        # Deepen until the bounds meet: once equal they stay so (lo only
        # rises with the depth, hi only falls, and lo <= hi), so the first
        # depth where they meet gives the value, usually well before `plies`.
        for depth in range(plies + 1):
            lo, hi = search.bounds(tuple(game.board), mover, depth)
            if lo == hi:
                break
    except BudgetExceeded:
        return [UNCHECKED + f"the forced-end search to {plies} plies needs more "
                f"than {TABLEBASE_BUDGET} positions"]
    if lo != hi:
        return [f"tablebase claims {SIDE_NAMES[mover]} forces {margin:+d} within "
                f"{plies} plies, but the search finds no single forced end "
                f"(between {lo} and {hi})"]
    if lo != margin:
        return [f"tablebase claims {SIDE_NAMES[mover]} forces {margin:+d}, but "
                f"perfect play forces {int(lo):+d} within {plies} plies"]
    return []


FORFEITS = ("illegal-move", "timeout", "crash", "protocol-error", "start-failure")


def decided_side(game):
    """The side holding more than half of all seeds, or None: seeds never
    go back to the board, so that side has won (RULES.md, End of the game)."""
    for side in (SOUTH, NORTH):
        if 2 * game.captured[side] > game.total:
            return side
    return None


def captures_differ(game, totals):
    """The difference line, in a list, when a row's totals are not the
    seeds captured so far (a game stopped before its sweep), else []."""
    captured = tuple(game.captured)
    if totals == captured:
        return []
    return [f"totals {totals[0]}-{totals[1]}, captured so far "
            f"{captured[0]}-{captured[1]}"]


def adjudicates_both(games_path):
    """Whether the run of `games_path` adjudicated by both rules: its
    config.toml beside it says `[board] adjudicate = ["decided",
    "tablebase"]`. Then a game ends at the first position either rule ends,
    by decided where both do, so a tablebase row must stop before any
    position where a side holds more than half of the seeds. (That a decided
    row stops before the arena's tables knew a position is not checked, as
    for a tablebase row.) False without a readable config."""
    path = os.path.join(os.path.dirname(games_path) or ".", "config.toml")
    try:
        with open(path, "rb") as f:
            rule = tomllib.load(f).get("board", {}).get("adjudicate")
    except (OSError, tomllib.TOMLDecodeError):
        return False
    return isinstance(rule, list) and sorted(rule) == [DECIDED, TABLEBASE]


def check_game(row, both=False):
    """Return a list of differences between a games.csv row and our replay;
    `both` when its run adjudicated by both rules (`adjudicates_both`)."""
    try:
        nums = {col: int(row[col]) for col in INT_COLUMNS}
    except ValueError as e:
        return [f"bad number: {e}"]
    try:
        moves = parse_moves(row["moves"])
    except ValueError as e:
        return [f"bad moves: {e}"]
    result, termination = row["result"], row["termination"]

    diffs = []
    if result not in ("south", "north", "draw"):
        diffs.append(f"unknown result {result!r}")
    if termination not in RULE_ENDINGS + (DECIDED, TABLEBASE) + FORFEITS:
        diffs.append(f"unknown termination {termination!r}")
    if nums["plies"] != len(moves):
        diffs.append(f"plies {nums['plies']} but {len(moves)} moves")

    try:
        game = Game(nums["holes"], nums["seeds"],
                    max_laps=nums["max_laps"], max_plies=nums["max_plies"])
    except ValueError as e:
        return diffs + [f"bad parameters: {e}"]

    opening = len((row.get("opening") or "").split())
    by_decided = termination == DECIDED or (both and termination == TABLEBASE)
    for ply, hole in enumerate(moves):
        if by_decided and ply >= opening and decided_side(game) is not None:
            return diffs + [f"{termination} claimed at ply {len(moves)}, but "
                            f"{SIDE_NAMES[decided_side(game)]} held more than half "
                            f"of the seeds after ply {ply} already"]
        try:
            game.play(hole)
        except IllegalMove as e:
            # The replay cannot go on, so the end-of-game checks are moot.
            return diffs + [f"ply {ply + 1}: {e}"]

    totals = (nums["south_seeds"], nums["north_seeds"])
    if termination in RULE_ENDINGS:
        if game.ended is None:
            diffs.append(f"{termination} claimed but the game is not over after "
                         f"{len(moves)} plies ({SIDE_NAMES[game.to_move]} to move, "
                         f"legal: {' '.join(map(str, game.legal_moves()))})")
        elif game.ended != termination:
            diffs.append(f"termination {termination} but the rules give {game.ended}")
        if game.ended is not None:
            if totals != game.totals:
                diffs.append(f"totals {totals[0]}-{totals[1]}, rules give "
                             f"{game.totals[0]}-{game.totals[1]}")
            if result != game.result():
                diffs.append(f"result {result}, rules give {game.result()}")
        if sum(totals) != game.total:
            diffs.append(f"totals {totals[0]}+{totals[1]} = {sum(totals)}, "
                         f"not {game.total} seeds")
    elif termination == DECIDED:
        side = decided_side(game)
        if game.ended is not None:
            diffs.append(f"decided claimed but the game was over by the rules "
                         f"({game.ended}) after {len(moves)} plies")
        elif side is None:
            diffs.append(f"decided claimed but neither side holds more than half "
                         f"of the {game.total} seeds ({game.captured[0]}-{game.captured[1]})")
        elif result != SIDE_NAMES[side]:
            diffs.append(f"result {result}, but {SIDE_NAMES[side]} holds more "
                         f"than half of the seeds")
        diffs.extend(captures_differ(game, totals))
    elif termination == TABLEBASE:
        if both and game.ended is None and decided_side(game) is not None:
            diffs.append(f"tablebase claimed, but {SIDE_NAMES[decided_side(game)]} "
                         f"held more than half of the seeds after its moves: with both "
                         f"rules the game ends by decided there")
        diffs.extend(check_tablebase(game, row, totals, result))
    elif termination in FORFEITS:
        if game.ended is not None:
            diffs.append(f"{termination} claimed but the game was already over "
                         f"by the rules ({game.ended}) after {len(moves)} plies")
        # A forfeit has no sweep: the totals are the captures so far.
        diffs.extend(captures_differ(game, totals))
        if result == "draw":
            diffs.append(f"result draw on a forfeit ({termination})")
        elif termination == "illegal-move" and game.ended is None \
                and result != SIDE_NAMES[1 - game.to_move]:
            # An illegal move can only be made by the player to move, so the
            # other side must have won. (Timeouts, crashes and protocol errors
            # can also happen at start-up for either bot, so no such check.)
            diffs.append(f"illegal-move by {SIDE_NAMES[game.to_move]} (to move) "
                         f"but result {result}")
        # The arena's detail starts with the side at fault: it lost.
        at_fault = (row.get("detail") or "").split(" ", 1)[0]
        if at_fault in SIDE_NAMES and result != SIDE_NAMES[1 - SIDE_NAMES.index(at_fault)]:
            diffs.append(f"{termination} by {at_fault} (per detail) but result {result}")
    return diffs


def run_games(paths, out=sys.stdout):
    # Read every file first: an unreadable input means exit 2 with no verdict.
    tables = [(path, read_rows(path, GAMES_COLUMNS, arena_file=True))
              for path in paths]
    passed = failed = 0
    UNCHECKED_ROWS.clear()
    for path, rows in tables:
        both = adjudicates_both(path)
        for line, row, err in rows:
            diffs = [err] if row is None else check_game(row, both)
            if diffs and all(d.startswith(UNCHECKED) for d in diffs):
                UNCHECKED_ROWS.append((path, row.get("series"), row.get("game")))
                print(f"{path}: series {row.get('series', '?')} game "
                      f"{row.get('game', '?')}: tablebase {'; '.join(diffs)}", file=out)
                continue
            if diffs:
                failed += 1
                where = f"line {line}" if row is None else \
                    f"series {row.get('series', '?')} game {row.get('game', '?')}"
                print(f"{path}: {where}: {'; '.join(diffs)}", file=out)
            else:
                passed += 1
    return passed, failed


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Cross-check En Dodoi games against an independent rules engine.")
    parser.add_argument("--vectors", metavar="PATH",
                        help="check a rules test-vector CSV instead of games.csv files")
    parser.add_argument("games", nargs="*", metavar="GAMES_CSV",
                        help="one or more arena games.csv files")
    args = parser.parse_args(argv)
    if not args.vectors and not args.games:
        parser.error("give --vectors PATH or at least one GAMES_CSV")

    try:
        passed = failed = 0
        if args.vectors:
            p, f = run_vectors(args.vectors)
            passed, failed = passed + p, failed + f
        if args.games:
            p, f = run_games(args.games)
            passed, failed = passed + p, failed + f
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    sys.stdout.flush()
    unchecked = f", {len(UNCHECKED_ROWS)} unchecked (tablebase)" if UNCHECKED_ROWS else ""
    print(f"{passed} passed, {failed} failed{unchecked}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
