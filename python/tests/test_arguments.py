"""Bad arguments get clear Python exceptions (issue 19): an integer out of
range is a ValueError naming the argument and its range, never an
OverflowError; a non-integer hole is a TypeError; `to_turn` keeps the
original exception; `from_turn` names the side a ply belongs to."""

import pytest

import endodoi
from endodoi import IllegalMoveError, Position, Rules

R = Rules(4, 4)
START = R.start()
BIG = 2**70


@pytest.mark.parametrize("call, words", [
    (lambda: Rules(BIG), "holes must be 2 to 50, not %d" % BIG),
    (lambda: Rules(seeds=BIG), "seeds must be 0 to 4294967295"),
    (lambda: Rules(max_laps=-1), "max_laps must be 0 to 4294967295, not -1"),
    (lambda: Rules(max_plies=BIG), "max_plies must be 0 to 4294967295"),
    (lambda: START.playouts(BIG), "n must be 0 to 18446744073709551615"),
    (lambda: START.playouts(-1), "n must be 0 to"),
    (lambda: START.playouts(1, seed=-1), "seed must be 0 to 18446744073709551615, not -1"),
    (lambda: START.playouts(1, seed=2**64), "seed must be 0 to 18446744073709551615"),
    (lambda: START.to_turn(time_ms=BIG), "time_ms must be 0 to"),
    (lambda: START.to_turn(time_ms=-5), "time_ms must be 0 to"),
    (lambda: Position.from_parts(R, [1, 2, 3, -4], [4] * 4), "south[3] must be 0 to"),
    (lambda: Position.from_parts(R, [4] * 4, [BIG, 0, 0, 0]), "north[0] must be 0 to"),
    (lambda: Position.from_parts(R, [4] * 4, [4] * 4, captured=(-1, 0)), "captured[0] must be 0 to"),
    (lambda: Position.from_parts(R, [4] * 4, [4] * 4, captured=(0, BIG)), "captured[1] must be 0 to"),
    (lambda: Position.from_parts(R, [4] * 4, [4] * 4, ply=-1), "ply must be 0 to"),
])
def test_out_of_range_integers_are_value_errors(call, words):
    with pytest.raises(ValueError) as e:
        call()
    assert not isinstance(e.value, OverflowError)
    assert words in str(e.value)


def test_defaults_still_hold():
    assert Rules() == Rules(8, 4, 100_000, 1000)
    assert Position.from_parts(R, [4] * 4, [4] * 4) == START
    assert START.playouts(10) == START.playouts(10, seed=0)


@pytest.mark.parametrize("hole", ["1", 1.0, None, [1]])
def test_a_non_integer_hole_is_a_type_error(hole):
    with pytest.raises(TypeError):
        START.seeds("south", hole)
    with pytest.raises(TypeError):
        START.play(hole)
    if hole is not None:
        with pytest.raises(TypeError):
            START.to_turn(last=hole)


def test_to_turn_keeps_the_original_exception():
    with pytest.raises(IllegalMoveError) as e:
        START.to_turn(last=0)
    assert str(e.value) == "hole 0 does not exist: holes are 1 to 4"
    with pytest.raises(IllegalMoveError, match="hole 9 does not exist"):
        START.to_turn(last=9)
    with pytest.raises(ValueError, match="hole 9 is not on a board of 4"):
        START.seeds("south", 9)


def game_lines():
    """The turn lines of a whole game as the arena sends them, with the side each went to."""
    rules = Rules(5, 3)
    pos, lines, last = rules.start(), [], None
    while not pos.is_over:
        lines.append((pos.to_turn(last=last, time_ms=1000), pos.to_move, pos))
        last = pos.legal_moves()[len(lines) % len(pos.legal_moves())]
        pos = pos.after(last)
    return rules, lines


def test_from_turn_detects_the_wrong_side():
    rules, lines = game_lines()
    assert {side for _, side, _ in lines} == {"south", "north"}
    for line, side, pos in lines:
        assert Position.from_turn(line, rules, side) == pos
        other = endodoi.opponent(side)
        with pytest.raises(ValueError) as e:
            Position.from_turn(line, rules, other)
        ply = int(line.split("ply=")[1].split()[0])
        assert ("ply %d, where %s moves, but it was read as %s's"
                % (ply, side.capitalize(), other.capitalize())) in str(e.value)


def test_side_names_as_the_engine_takes_them():
    assert endodoi.opponent("South") == "north"
    assert endodoi.opponent("n") == "south"
    assert endodoi.side_name("N") == "north"
    with pytest.raises(ValueError, match="east"):
        endodoi.opponent("east")


def test_a_lap_repr_is_python():
    laps = START.laps(1)
    assert "ends=False" in repr(laps[0]) and "ends=True" in repr(laps[-1])
    result = START.play(1)[1]
    assert eval(repr(result), {"MoveResult": endodoi.MoveResult}).hole == 1
