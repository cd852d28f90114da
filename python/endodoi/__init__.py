"""The exact rules of En Dodoi, from the arena's Rust rules engine.

En Dodoi is the two-row relay-sowing mancala of the Maasai (RULES.md in the
repository). This package is the engine the arena's referee uses, so a
Python bot or a learning agent sows, relays, captures and detects endless
moves exactly as the referee does.

Sides are the strings ``"south"`` (moves first) and ``"north"``; a move is
the mover's own hole number, 1..n from the mover's left. Positions are
immutable values: ``play`` returns the next position.

>>> import endodoi
>>> rules = endodoi.Rules(holes=4, seeds=4)
>>> pos = rules.start()
>>> str(pos)
'4,4,4,4/4,4,4,4 s 0 0 0'
>>> pos.legal_moves()
[1, 2, 3, 4]
>>> pos, result = pos.play(1)
>>> pos.ring, pos.to_move, result.laps
([4, 0, 9, 9, 1, 1, 8, 0], 'north', 8)

An illegal move raises ``IllegalMoveError`` (a ``ValueError``):

>>> endodoi.Position.parse("0,5,0,1/2,0,6,5 n 5 8 5", rules).play(1)
Traceback (most recent call last):
    ...
endodoi.IllegalMoveError: hole 1 is an endless move (still sowing at lap 100000)

A bot builds its position from the arena's ``turn`` line in one call:

>>> rules, side = endodoi.parse_newgame("newgame holes=3 seeds=2 side=north")
>>> line = "turn mine=0,3,0 theirs=1,4,0 captured=0,4 last=1 legal=2 ply=1 time_ms=1000"
>>> endodoi.Position.from_turn(line, rules, side)
Position('1,4,0/0,3,0 n 4 0 1')

Random playouts run in Rust, many per call:

>>> stats = endodoi.Rules(8, 4).start().playouts(1000, seed=1)
>>> stats.south_wins + stats.north_wins + stats.draws
1000

The environments live in ``endodoi.envs`` (PettingZoo: ``endodoi_v0``),
``endodoi.gym`` (Gymnasium: ``endodoi/EnDodoi-v0``) and ``endodoi.spiel``
(OpenSpiel: ``python_en_dodoi``); search helpers in ``endodoi.search``.
"""

from endodoi._endodoi import (
    MAX_HOLES,
    MIN_HOLES,
    GameOutcome,
    IllegalMoveError,
    MoveLap,
    MoveResult,
    PlayoutStats,
    Position,
    Rules,
    parse_newgame,
    side_name,
)

IllegalMoveError.__module__ = "endodoi"

SIDES = ("south", "north")
"""The two sides, South (moves first) then North."""


def opponent(side):
    """The other side: ``opponent("south") == "north"`` (any spelling of
    ``side_name``)."""
    return "north" if side_name(side) == "south" else "south"


__all__ = [
    "MAX_HOLES",
    "MIN_HOLES",
    "SIDES",
    "GameOutcome",
    "IllegalMoveError",
    "MoveLap",
    "MoveResult",
    "PlayoutStats",
    "Position",
    "Rules",
    "opponent",
    "parse_newgame",
    "side_name",
]
