#!/usr/bin/env python3
"""Tests for replay_check.py (unittest, standard library only).

Run from anywhere:  python3 tools/test_replay_check.py
The expected values below are derived by hand from RULES.md or copied from
rules/tests/vectors.csv (the project's ../shared/vectors/rules.csv), never produced by replay_check itself, so a
rules bug in the checker makes these tests fail.
"""

import csv
import io
import os
import re
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

TOOLS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TOOLS)
SCRIPT = os.path.join(TOOLS, "replay_check.py")
VECTORS = os.path.join(REPO, "rules", "tests", "vectors.csv")

sys.path.insert(0, TOOLS)
import replay_check as rc  # noqa: E402

HEADER = ["series", "game", "south", "north", "holes", "seeds", "max_laps",
          "max_plies", "moves", "plies", "south_seeds", "north_seeds", "result",
          "termination", "detail", "duration_ms"]

# A complete 2x9 game from the vectors (row with ended=no-moves): 42 plies,
# final totals 40-32, South wins.
LONG_MOVES = ("4 7 2 4 6 1 4 4 1 5 9 7 2 9 2 7 9 5 3 6 5 2 1 3 7 2 6 4 2 5 "
              "4 7 5 1 8 2 9 2 1 9 1 4")

# The endless example of RULES.md: on 2x4, after "4 3 2 4 1" the ring is
# 0 5 0 1 | 2 0 6 5, captured 5-8, North to move, legal 3 4 (hole 1 endless).
EXAMPLE_MOVES = "4 3 2 4 1"


def game_row(series=1, game=1, holes=9, seeds=4, max_laps=100000, max_plies=1000,
             moves=LONG_MOVES, plies=None, south_seeds=40, north_seeds=32,
             result="south", termination="no-moves", detail="", duration_ms=12):
    if plies is None:
        plies = len(moves.split())
    return [series, game, "botA", "botB", holes, seeds, max_laps, max_plies,
            moves, plies, south_seeds, north_seeds, result, termination,
            detail, duration_ms]


def good_rows():
    return [
        # Ends by no-moves (from the vectors).
        game_row(series=1, game=1),
        # Ply limit after 5 plies: captures 5-8 plus own rows
        # South 0+5+0+1 = 6, North 2+0+6+5 = 13 -> 11-21, North wins.
        game_row(series=1, game=2, holes=4, max_plies=5, moves=EXAMPLE_MOVES,
                 south_seeds=11, north_seeds=21, result="north",
                 termination="ply-limit"),
        # North tried its endless hole 1: illegal-move, South wins, no sweep.
        game_row(series=1, game=3, holes=4, moves=EXAMPLE_MOVES,
                 south_seeds=5, north_seeds=8, result="south",
                 termination="illegal-move", detail="north played 1, endless"),
        # A timeout at the same point; a detail with a comma must not confuse CSV.
        game_row(series=1, game=4, holes=4, moves=EXAMPLE_MOVES,
                 south_seeds=5, north_seeds=8, result="south",
                 termination="timeout", detail="no reply, 1050 ms"),
    ]


def csv_text(rows, header=HEADER, trailing_newline=True):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    text = buf.getvalue()
    return text if trailing_newline else text.rstrip("\n")


class TempFiles(unittest.TestCase):
    def setUp(self):
        self._dir = tempfile.TemporaryDirectory()
        self.addCleanup(self._dir.cleanup)

    def write(self, text, name="games.csv"):
        path = os.path.join(self._dir.name, name)
        with open(path, "w", newline="", encoding="utf-8") as f:
            f.write(text)
        return path

    def run_cli(self, *args):
        proc = subprocess.run([sys.executable, SCRIPT, *args],
                              capture_output=True, text=True, timeout=600)
        return proc.returncode, proc.stdout, proc.stderr

    def assertSummary(self, stdout, passed, failed):
        last = stdout.strip().splitlines()[-1]
        self.assertEqual(last, f"{passed} passed, {failed} failed", stdout)


class RulesTest(unittest.TestCase):
    """Hand-derived positions, independent of the vectors file."""

    def test_endless_example(self):
        g = rc.Game(4, 4)
        for m in map(int, EXAMPLE_MOVES.split()):
            g.play(m)
        self.assertEqual(g.board, [0, 5, 0, 1, 2, 0, 6, 5])
        self.assertEqual(g.captured, [5, 8])
        self.assertEqual(g.to_move, rc.NORTH)
        self.assertEqual(g.legal_moves(), [3, 4])
        with self.assertRaises(rc.IllegalMove):
            g.play(1)

    def test_max_laps_boundary(self):
        # 2x2, 1 seed, South hole 1: lap 1 ends in occupied South 2, lap 2
        # (2 seeds) ends in occupied North 2, lap 3 (2 seeds) ends in empty
        # South 2. So the move needs exactly 3 laps.
        self.assertIsNone(rc.sow([1, 1, 1, 1], 0, 2))
        self.assertEqual(rc.sow([1, 1, 1, 1], 0, 3), ([1, 1, 2, 0], 1))

    def test_capture_and_sweep(self):
        # Continuing the 2x2 game: South 2 is opposite North 1 (2 seeds), so
        # South captures 2 + 1 = 3; the board is then 1 0 | 0 0, North has no
        # move and South, the last mover, sweeps 1: South wins 4-0.
        g = rc.Game(2, 1)
        g.play(1)
        self.assertEqual(g.ended, "no-moves")
        self.assertEqual(g.totals, (4, 0))
        self.assertEqual(g.result(), "south")

    def test_over_before_the_first_move(self):
        # 2x4, 1 seed, max_laps 1: every first lap ends in an occupied hole,
        # so South has no legal move at the start. Nobody made a last move:
        # each player takes the 4 seeds of their own row (RULES.md decision).
        g = rc.Game(4, 1, max_laps=1)
        self.assertEqual(g.ended, "no-moves")
        self.assertEqual(g.totals, (4, 4))
        self.assertEqual(g.result(), "draw")
        self.assertEqual(g.board, [0] * 8)

    def test_no_capture_when_opposite_empty(self):
        # Hand-set 2x3 position 1 0 0 | 0 0 1: South hole 1 sows its seed into
        # South hole 2 (empty), whose opposite North hole 2 is empty too, so
        # nothing is captured and the triggering seed stays.
        g = rc.Game(3, 1)
        g.board = [1, 0, 0, 0, 0, 1]
        g._legal = None  # the cached legal moves belong to the start position
        g.play(1)
        self.assertEqual(g.captured, [0, 0])
        self.assertEqual(g.board, [0, 1, 0, 0, 0, 1])


class VectorsTest(TempFiles):
    def test_vectors_file_exists(self):
        self.assertTrue(os.path.isfile(VECTORS), f"missing {VECTORS}")

    def test_vectors_pass(self):
        code, out, err = self.run_cli("--vectors", VECTORS)
        m = re.fullmatch(r"(\d+) passed, 0 failed", out.strip().splitlines()[-1])
        self.assertTrue(m, out + err)
        self.assertGreater(int(m.group(1)), 0)
        self.assertEqual(code, 0, out + err)

    def test_corrupted_vector_fails(self):
        with open(VECTORS, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        # Take one from-the-start vector and claim one more seed for South.
        rows[1][rows[0].index("south_seeds")] = str(int(rows[1][rows[0].index("south_seeds")]) + 1)
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        code, out, _ = self.run_cli("--vectors", self.write(buf.getvalue(), "v.csv"))
        self.assertEqual(code, 1)
        self.assertSummary(out, len(rows) - 2, 1)
        self.assertIn("south_seeds", out)

    def test_vectors_catch_wrong_rule(self):
        # The vectors must be able to tell a wrong engine: skip the origin
        # hole on full turns (the opposite of the RULES.md decision).
        def skip_origin(board, start, max_laps):
            ring, hole = list(board), start
            for _ in range(max_laps):
                seeds, ring[hole], pos = ring[hole], 0, hole
                while seeds:
                    pos = (pos + 1) % len(ring)
                    if pos != hole:
                        ring[pos] += 1
                        seeds -= 1
                if ring[pos] == 1:
                    return ring, pos
                hole = pos
            return None
        with mock.patch.object(rc, "sow", skip_origin):
            passed, failed = rc.run_vectors(VECTORS, out=io.StringIO())
        self.assertGreater(failed, 0)


class AdjudicatesBothTest(TempFiles):
    """The run's [board] adjudicate, read from the config.toml beside its
    games.csv: only an array of both rules turns the combined check on."""

    def test_only_both_rules_in_the_config_beside_count(self):
        games = self.write(csv_text(good_rows()))
        self.assertFalse(rc.adjudicates_both(games))  # no config.toml
        for text, both in [
            ('[board]\nadjudicate = ["decided", "tablebase"]\n', True),
            ('[board]\nadjudicate = ["tablebase", "decided"]\n', True),
            ('[board]\nadjudicate = "decided"\n', False),
            ('[board]\nadjudicate = ["tablebase"]\n', False),
            ('[board]\nadjudicate = [\n', False),  # not TOML
        ]:
            self.write(text, "config.toml")
            self.assertEqual(rc.adjudicates_both(games), both, text)


class GamesTest(TempFiles):
    def check(self, rows, **kw):
        return self.run_cli(self.write(csv_text(rows, **kw)))

    def assertPasses(self, rows, **kw):
        """Every row passes and the check exits 0."""
        code, out, err = self.check(rows, **kw)
        self.assertSummary(out, len(rows), 0)
        self.assertEqual(code, 0, out + err)

    def assertFails(self, rows, passed, *patterns):
        """All rows but the first `passed` fail, the check exits 1, and its
        output matches each of `patterns`; returns the output."""
        code, out, _ = self.check(rows)
        self.assertEqual(code, 1)
        self.assertSummary(out, passed, len(rows) - passed)
        for pattern in patterns:
            self.assertRegex(out, pattern)
        return out

    def test_correct_games_pass(self):
        self.assertPasses(good_rows())

    def test_columns_matched_by_name(self):
        # Reordered columns plus an unknown one must not matter.
        order = list(reversed(HEADER)) + ["extra"]
        rows = [[dict(zip(HEADER, r))[c] if c in HEADER else "x" for c in order]
                for r in good_rows()]
        self.assertPasses(rows, header=order)

    def test_wrong_total_fails(self):
        rows = good_rows()
        rows.append(game_row(series=2, game=7, north_seeds=31))
        self.assertFails(rows, 4, r"series 2 game 7: .*totals")

    def test_illegal_moves_fail(self):
        rows = [
            # North's hole 1 is endless in the example position.
            game_row(series=3, game=1, holes=4, moves=EXAMPLE_MOVES + " 1",
                     south_seeds=5, north_seeds=8, termination="timeout"),
            # Out of range hole.
            game_row(series=3, game=2, holes=4, moves="5", south_seeds=0,
                     north_seeds=0, termination="timeout"),
            # A move after the game is over.
            game_row(series=3, game=3, moves=LONG_MOVES + " 1", plies=43),
        ]
        self.assertFails(rows, 0,
                         r"series 3 game 1: ply 6: .*endless",
                         r"series 3 game 2: ply 1: .*out of range",
                         r"series 3 game 3: ply 43: .*already over")

    def test_other_inconsistencies_fail(self):
        cut = " ".join(LONG_MOVES.split()[:-1])
        rows = [
            game_row(series=4, game=1, plies=41),                     # plies count
            game_row(series=4, game=2, moves=cut),                     # ended too early
            game_row(series=4, game=3, result="north"),                # wrong result
            game_row(series=4, game=4, holes=4, max_plies=6,           # ply limit not reached
                     moves=EXAMPLE_MOVES, south_seeds=11, north_seeds=21,
                     result="north", termination="ply-limit"),
            game_row(series=4, game=5, holes=4, moves=EXAMPLE_MOVES,   # forfeit draw
                     south_seeds=5, north_seeds=8, result="draw",
                     termination="crash"),
            game_row(series=4, game=6, holes=4, moves=EXAMPLE_MOVES,   # forfeit with sweep
                     south_seeds=11, north_seeds=21, result="north",
                     termination="timeout"),
            game_row(series=4, game=7, termination="timeout"),         # forfeit after the end
            game_row(series=4, game=8, holes=4, moves=EXAMPLE_MOVES,   # illegal move by the winner
                     south_seeds=5, north_seeds=8, result="north",
                     termination="illegal-move"),
        ]
        out = self.assertFails(rows, 0)
        for game in range(1, len(rows) + 1):
            self.assertIn(f"series 4 game {game}:", out)

    def test_decided_games(self):
        # A 2x8 game of the demo: after its 11th ply South holds 34 of the
        # 64 seeds (16 for North), so exact adjudication stops it there.
        moves = "4 2 2 6 4 1 7 1 5 2 1"
        decided = dict(holes=8, moves=moves, south_seeds=34, north_seeds=16,
                       result="south", termination="decided")
        self.assertPasses([game_row(series=5, game=1, **decided)])
        rows = [
            game_row(series=5, game=2, **{**decided, "result": "north"}),
            game_row(series=5, game=3, **{**decided, "moves": moves[:-2],
                                          "south_seeds": 26}),
            game_row(series=5, game=4, **{**decided, "moves": moves + " 1",
                                          "north_seeds": 21}),
            game_row(series=5, game=5, **{**decided, "north_seeds": 15}),
            # The ply limit ends it (North then holds 21 of 32): not decided.
            game_row(series=5, game=6, holes=4, max_plies=5, moves=EXAMPLE_MOVES,
                     south_seeds=11, north_seeds=21, result="north",
                     termination="decided"),
        ]
        self.assertFails(rows, 0,
                         r"series 5 game 2: result north, but south holds",
                         r"series 5 game 3: decided claimed but neither side",
                         r"series 5 game 4: .*after ply 11 already",
                         r"series 5 game 5: totals 34-15, captured so far 34-16",
                         r"series 5 game 6: .*over by the rules")

    def test_tablebase_games(self):
        # 2x2 with 1 seed a hole: South's hole 1 relays round and captures
        # 3, then North has no move and South sweeps the last seed: +4, and
        # the other move cannot do better for North, so +4 within 2 plies.
        tb = dict(holes=2, seeds=1, moves="", plies=0, south_seeds=4,
                  north_seeds=0, result="south", termination="tablebase",
                  detail="south to move forces +4 in at most 2 plies")
        self.assertPasses([game_row(series=6, game=1, **tb)])
        rows = [
            game_row(series=6, game=2, **{**tb, "south_seeds": 3, "north_seeds": 1,
                                          "detail": "south to move forces +2 in at most 2 plies"}),
            game_row(series=6, game=3, **{**tb, "detail": "south to move forces +4 in at most 1 plies"}),
            game_row(series=6, game=4, **{**tb, "max_plies": 1}),
            game_row(series=6, game=5, **{**tb, "result": "north"}),
            # A detail that is missing, or that lies about the side or margin.
            game_row(series=6, game=7, **{**tb, "detail": ""}),
            game_row(series=6, game=8, **{**tb, "detail": "north to move forces +4 in at most 2 plies"}),
            game_row(series=6, game=9, **{**tb, "detail": "south to move forces +9 in at most 2 plies"}),
        ]
        self.assertFails(
            rows, 0,
            r"series 6 game 2: tablebase claims south forces \+2, but perfect play forces \+4",
            r"series 6 game 3: .*no single forced end",
            r"series 6 game 4: .*only 1 are left before the ply limit",
            r"series 6 game 5: result north, but the totals",
            r"series 6 game 7: a tablebase row's detail must say what is forced",
            r"series 6 game 8: the detail says north to move forces \+4, but the position has south",
            r"series 6 game 9: the detail says south to move forces \+9")
        # Beyond the search budget: unchecked, said so, not failed.
        path = self.write(csv_text([game_row(series=6, game=6, **tb)]))
        out = io.StringIO()
        with mock.patch.object(rc, "TABLEBASE_BUDGET", 0):
            passed, failed = rc.run_games([path], out=out)
        self.assertEqual((passed, failed), (0, 0), out.getvalue())
        self.assertEqual(len(rc.UNCHECKED_ROWS), 1)
        self.assertIn("series 6 game 6: tablebase unchecked", out.getvalue())

    def assertSkipsTheLastRow(self, text):
        """The four good rows of `text` pass and its last row, torn, is
        skipped with a warning."""
        code, out, err = self.run_cli(self.write(text))
        self.assertEqual(code, 0)
        self.assertSummary(out, 4, 0)
        self.assertIn("incomplete final row", err)

    def test_truncated_last_row_skipped(self):
        self.assertSkipsTheLastRow(
            csv_text(good_rows()) + "2,1,botA,botB,9,4,100000,1000,4 7 2")

    def test_truncated_in_quoted_field_skipped(self):
        self.assertSkipsTheLastRow(
            csv_text(good_rows())
            + '2,1,botA,botB,4,4,100000,1000,4 3,2,0,0,south,timeout,"no re')

    def test_last_row_without_newline_is_skipped_as_the_arena_skips_it(self):
        # Whole but without its newline: the arena skips it as torn
        # (arena/src/output/games.rs), and so does the checker.
        rows = good_rows() + [game_row(series=5, game=1, north_seeds=31)]
        self.assertSkipsTheLastRow(csv_text(rows, trailing_newline=False))

    def test_several_files(self):
        a = self.write(csv_text(good_rows()), "a.csv")
        b = self.write(csv_text([game_row(north_seeds=31)]), "b.csv")
        code, out, _ = self.run_cli(a, b)
        self.assertEqual(code, 1)
        self.assertSummary(out, 4, 1)

    def test_unreadable_input(self):
        code, out, err = self.run_cli(os.path.join(self._dir.name, "nope.csv"))
        self.assertEqual(code, 2)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        code, _, err = self.run_cli(self.write("series,game\n1,1\n", "bad.csv"))
        self.assertEqual(code, 2)
        self.assertIn("missing columns: ", err)


if __name__ == "__main__":
    unittest.main()
