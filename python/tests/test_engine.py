"""The engine's model from Python: rules, positions, moves, errors, the
text format, the protocol's lines and the batch entry points."""

import copy
import doctest
import importlib

import pytest

import endodoi
from conftest import require
from endodoi import IllegalMoveError, Position, Rules

EXAMPLE = "0,5,0,1/2,0,6,5 n 5 8 5"  # RULES.md's endless example, North to move


@pytest.mark.parametrize("module", [
    "endodoi", "endodoi.search", "endodoi.envs.endodoi_v0", "endodoi.gym", "endodoi.spiel"])
def test_doctests(module):
    needs = {"endodoi.spiel": "pyspiel", "endodoi.gym": "gymnasium", "endodoi.envs.endodoi_v0": "pettingzoo"}
    if module in needs:
        require(needs[module])
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0, result


@pytest.mark.parametrize("kwargs, words", [
    ({"holes": 1}, "holes"), ({"holes": 51}, "holes"), ({"holes": -3}, "holes"),
    ({"seeds": 0}, "seeds"), ({"seeds": -1}, "seeds"), ({"seeds": 2**40}, "seeds"),
    ({"max_laps": 0}, "max_laps"), ({"max_plies": 0}, "max_plies"),
])
def test_bad_rules_are_value_errors(kwargs, words):
    with pytest.raises(ValueError, match=words):
        Rules(**kwargs)


def test_rules_values():
    rules = Rules(6, 3, max_laps=500, max_plies=200)
    assert (rules.holes, rules.seeds, rules.max_laps, rules.max_plies) == (6, 3, 500, 200)
    assert rules.total_seeds == 36
    assert rules == Rules(6, 3, max_laps=500, max_plies=200) and hash(rules) == hash(Rules(6, 3, 500, 200))
    assert Rules() == Rules(8, 4, 100_000, 1000)
    assert repr(rules) == "Rules(holes=6, seeds=3, max_laps=500, max_plies=200)"


@pytest.mark.parametrize("hole, message", [
    (1, "hole 1 is an endless move"),
    (2, "hole 2 is empty"),
    (0, "hole 0 does not exist: holes are 1 to 4"),
    (5, "hole 5 does not exist"),
    (-1, "hole -1 does not exist"),
    (2**70, "does not exist"),
])
def test_illegal_moves_raise_with_the_reason(hole, message):
    pos = Position.parse(EXAMPLE, Rules(4, 4))
    assert pos.legal_moves() == [3, 4]
    with pytest.raises(IllegalMoveError, match=message):
        pos.play(hole)
    with pytest.raises(ValueError):  # IllegalMoveError is a ValueError
        pos.check(hole)
    assert not pos.is_legal(hole)
    assert str(pos) == EXAMPLE  # unchanged


def test_a_finished_game_refuses_moves():
    over = Position.parse("0,0/1,1 s 1 1 5", Rules(2, 1))
    assert over.is_over and over.legal_moves() == []
    assert (over.outcome.termination, over.outcome.winner) == ("no-moves", "north")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        over.play(1)
    with pytest.raises(ValueError, match="the game is over"):
        over.to_turn()


@pytest.mark.parametrize("text, words", [
    ("4,4,4/4,4,4,4 s 0 0 0", "rows of 3 and 4 holes"),
    ("4,4,4,4/4,4,4,4 x 0 0 0", "x"),
    ("4,4,4,4 s 0 0 0", "need a '/'"),
    ("4,4,4,4/4,4,4,a s 0 0 0", "'a' is not a seed count"),
    ("4,4,4,4/4,4,4,4 s 0 0", "missing ply"),
])
def test_bad_position_text_is_a_value_error(text, words):
    with pytest.raises(ValueError, match=words):
        Position.parse(text, Rules(4, 4))


def test_play_matches_the_text_format_and_the_parts():
    rules = Rules(6, 1)
    pos, result = rules.start().play(4)
    assert (result.laps, result.sown, result.capture, result.mover) == (7, 13, (2, 3), "south")
    assert str(pos) == "0,2,0,1,0,2/0,0,0,2,0,2 n 3 0 1"
    assert Position.parse(str(pos), rules) == pos
    again = Position.from_parts(rules, pos.row("south"), pos.row("north"), "north", pos.captured, pos.ply)
    assert again == pos and hash(again) == hash(pos)
    assert pos.ring == pos.row("south") + pos.row("north")
    assert pos.seeds("north", 4) == 2
    with pytest.raises(ValueError, match="hole 7 is not on a board of 6"):
        pos.seeds("north", 7)
    with pytest.raises(ValueError, match="side"):
        pos.row("east")
    assert copy.deepcopy(pos) == pos and copy.copy(pos) is pos


def test_laps_end_where_the_move_does():
    start = Rules(8, 4).start()
    laps = start.laps(3)
    after, result = start.play(3)
    assert len(laps) == result.laps and sum(l.seeds for l in laps) == result.sown
    assert laps[-1].ends and not any(l.ends for l in laps[:-1])
    assert laps[-1].last == result.last
    assert [l.number for l in laps] == list(range(1, len(laps) + 1))
    if result.capture is None:
        assert laps[-1].ring == after.ring


def test_children_are_every_legal_move_played():
    pos = Position.parse(EXAMPLE, Rules(4, 4))
    children = pos.children()
    assert [hole for hole, _, _ in children] == pos.legal_moves()
    for hole, child, result in children:
        assert (child, result.laps) == (pos.play(hole)[0], pos.play(hole)[1].laps)


def test_turn_lines_both_ways_for_both_sides():
    rules = Rules(5, 3, max_laps=1000)
    pos = rules.start()
    last = None
    for hole in [2, 4, 1, 3, 5, 2]:
        if pos.is_over:
            break
        line = pos.to_turn(last=last, time_ms=250)
        assert line.startswith("turn mine=%s theirs=%s" % (
            ",".join(map(str, pos.row(pos.to_move))),
            ",".join(map(str, pos.row(endodoi.opponent(pos.to_move))))))
        assert Position.from_turn(line, rules, pos.to_move) == pos
        if hole in pos.legal_moves():
            pos, last = pos.after(hole), hole
        else:
            pos, last = pos.after(pos.legal_moves()[0]), pos.legal_moves()[0]


def test_a_turn_for_other_rules_or_the_wrong_side_is_refused():
    rules = Rules(4, 4)
    wrong = "turn mine=2,0,6,5 theirs=0,5,0,1 captured=8,5 last=1 legal=1,3,4 ply=5"
    with pytest.raises(ValueError, match="not the engine's 3 4"):
        Position.from_turn(wrong, rules, "north")
    with pytest.raises(ValueError, match="holes"):
        Position.from_turn("turn mine=1,1 theirs=1,1 legal=1,2", rules, "south")
    with pytest.raises(ValueError):
        Position.from_turn("move 3", rules, "south")
    with pytest.raises(ValueError, match="side"):
        Position.from_turn(wrong, rules, "up")


def test_newgame_lines():
    rules, side = endodoi.parse_newgame(
        "newgame holes=6 seeds=3 side=north move_time_ms=100 base_time_ms=0 increment_ms=0 max_plies=300 max_laps=500")
    assert (rules, side) == (Rules(6, 3, max_laps=500, max_plies=300), "north")
    with pytest.raises(ValueError):
        endodoi.parse_newgame("newgame holes=60 seeds=3 side=north")


def test_playouts_are_seeded_and_add_up():
    start = Rules(8, 4).start()
    a = start.playouts(500, seed=11)
    assert a == start.playouts(500, seed=11)
    assert a != start.playouts(500, seed=12)
    assert a.games == a.south_wins + a.north_wins + a.draws == 500
    # RULES.md: random 2x8 games last 48 plies on average.
    assert 40 < a.plies / a.games < 56
    assert 0 <= a.score("south") <= 1 and abs(a.score("south") + a.score("north") - 1) < 1e-9
    with pytest.raises(ValueError):
        a.score("west")


def test_perft_rows_from_python():
    from conftest import REPO
    import csv
    with open(REPO / "rules" / "tests" / "perft.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if int(r["leaves"]) < 200_000]
    assert len(rows) >= 5
    for r in rows:
        start = Rules(int(r["holes"]), int(r["seeds"])).start()
        assert start.perft(int(r["depth"])) == int(r["leaves"]), r
