"""The observation the Gymnasium and PettingZoo environments share
(``endodoi.gym``, ``endodoi.envs.endodoi_v0``): from a seat, the seat's
holes 1..n, the opponent's holes 1..n (numbered from the opponent's left,
as protocol.md's ``turn``), then the seat's and the opponent's captured
seeds, with the mask of the seat's legal moves. Needs gymnasium and numpy;
the environments that import it say so when they are missing."""

import numpy as np
from gymnasium import spaces

import endodoi


def observation_space(rules):
    """The ``Dict`` space of an observation under ``rules``: ``observation``
    (2n + 2 counts of 0 to all the seeds) and ``action_mask`` (n flags)."""
    n = rules.holes
    return spaces.Dict(
        {
            "observation": spaces.Box(0, rules.total_seeds, shape=(2 * n + 2,), dtype=np.int64),
            "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
        }
    )


def seat_observation(position, side):
    """``{"observation": ..., "action_mask": ...}`` of ``position`` from
    ``side``'s seat; the mask is all zeros unless ``side`` is to move in a
    game not over."""
    mine = position.row(side)
    theirs = position.row(endodoi.opponent(side))
    me = endodoi.SIDES.index(side)
    captured = position.captured
    observation = np.array(mine + theirs + [captured[me], captured[1 - me]], dtype=np.int64)
    if position.to_move == side and not position.is_over:
        mask = np.array(position.action_mask(), dtype=np.int8)
    else:
        mask = np.zeros(len(mine), dtype=np.int8)
    return {"observation": observation, "action_mask": mask}
