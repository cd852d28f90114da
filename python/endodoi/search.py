"""Small searches on the engine: the strategies the Gymnasium wrapper and
the bot template use. Each takes a position that is not over and returns a
legal hole.

>>> import endodoi
>>> from endodoi import search
>>> pos = endodoi.Position.parse("1,0,0/0,2,0 s 3 0 0", endodoi.Rules(3, 1))
>>> search.greedy(pos)  # hole 1 captures 2 + 1 seeds
1
>>> search.alphabeta(pos, depth=4)
1
"""

import random as _random

WIN = 1_000_000


def score(pos, side):
    """``side``'s captured seeds minus the opponent's; a finished game is
    worth ``WIN`` plus that difference to the winner (minus it to the loser)."""
    south, north = pos.captured
    diff = south - north if side == "south" else north - south
    outcome = pos.outcome
    if outcome is None or outcome.winner is None:
        return diff
    return WIN + diff if outcome.winner == side else -WIN + diff


def random_move(pos, rng=None):
    """A uniformly random legal hole (``rng``: a ``random.Random``)."""
    return (rng or _random).choice(pos.legal_moves())


def greedy(pos):
    """The hole that gains the most seeds now (the lowest hole on a tie)."""
    side = pos.to_move
    best, best_value = None, None
    for hole, child, _ in pos.children():
        value = score(child, side)
        if best_value is None or value > best_value:
            best, best_value = hole, value
    return best


def negamax(pos, depth, alpha=-2 * WIN, beta=2 * WIN):
    """The value of ``pos`` for its side to move, searched ``depth`` plies
    with alpha-beta pruning; returns ``(value, hole)`` (``hole`` is None at
    a leaf)."""
    side = pos.to_move
    if depth == 0 or pos.is_over:
        return score(pos, side), None
    best, best_hole = -2 * WIN - 1, None
    children = pos.children()
    # Captures first: better cuts.
    children.sort(key=lambda c: -score(c[1], side))
    for hole, child, _ in children:
        # The side to move alternates (a finished game's to_move is the
        # side that could not move, the mover's opponent).
        value = -negamax(child, depth - 1, -beta, -alpha)[0]
        if value > best:
            best, best_hole = value, hole
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best, best_hole


def alphabeta(pos, depth=4):
    """The hole of a ``depth``-ply alpha-beta search on the seed difference."""
    if pos.is_over:
        raise ValueError("the game is over: no move to choose")
    return negamax(pos, max(1, depth))[1]


STRATEGIES = {
    "random": random_move,
    "greedy": lambda pos, rng=None: greedy(pos),
    "alphabeta": lambda pos, rng=None: alphabeta(pos, 3),
}
"""The bundled strategies by name, each ``f(position, rng) -> hole``."""
