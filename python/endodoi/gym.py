"""En Dodoi as a single-agent Gymnasium environment against a fixed
opponent, registered as ``endodoi/EnDodoi-v0`` when this module is imported.

>>> import gymnasium
>>> import endodoi.gym
>>> env = gymnasium.make("endodoi/EnDodoi-v0", holes=6, opponent="greedy")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].tolist(), obs["action_mask"].tolist()
([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0], [1, 1, 1, 1, 1, 1])

The agent plays ``side`` (``"south"`` by default, or ``"north"``, in any
spelling the engine takes: ``"North"``, ``"n"``); the
opponent is a strategy of ``endodoi.search.STRATEGIES`` by name
(``"random"``, ``"greedy"``, ``"alphabeta"``) or any callable
``f(position, rng) -> hole``, ``rng`` a ``random.Random`` seeded from
``reset(seed=...)``. Observations and actions are those of the PettingZoo
environment ``endodoi.envs.endodoi_v0``, from the agent's seat; the
opponent's moves are played inside ``step``. An illegal action ends the
episode with reward -1 and ``info["illegal"]``; a game's end gives +1, 0
or -1 (or the seed difference with ``reward="seeds"``). Under rules where
every first move is endless (e.g. ``holes=4, seeds=4, max_laps=3``) the game
is over at the start, a draw: ``reset`` returns ``info["over_at_start"]``
and an all-zero mask, and the first ``step``, whatever its action, ends the
episode with reward 0 (the seed difference, 0, with ``reward="seeds"``),
``info["over_at_start"]`` and ``info["termination"]``. The environment
pickles and deep-copies.
"""

import random

try:
    import gymnasium
    import numpy  # noqa: F401  (the observations are numpy arrays: endodoi._observation)
    from gymnasium import spaces
except ImportError as missing:
    raise ImportError(
        "endodoi.gym needs gymnasium and numpy: pip install \"./python[envs]\" (%s)" % (missing,)) from missing

import endodoi
from endodoi import search
from endodoi._observation import observation_space, seat_observation

__all__ = ["EnDodoiEnv", "ENV_ID"]

ENV_ID = "endodoi/EnDodoi-v0"


class EnDodoiEnv(gymnasium.Env):
    """One agent against a fixed opponent; see the module's docs."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        holes=8,
        seeds=4,
        max_laps=100_000,
        max_plies=1000,
        side="south",
        opponent="random",
        reward="win",
        render_mode=None,
    ):
        side = endodoi.side_name(side)
        if reward not in ("win", "seeds"):
            raise ValueError("reward must be 'win' or 'seeds', not %r" % (reward,))
        if isinstance(opponent, str):
            if opponent not in search.STRATEGIES:
                raise ValueError("opponent must be one of %s or a callable, not %r"
                                 % (", ".join(sorted(search.STRATEGIES)), opponent))
            opponent = search.STRATEGIES[opponent]
        elif not callable(opponent):
            raise ValueError("opponent must be a strategy name or a callable, not %r" % (opponent,))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be None or 'ansi', not %r" % (render_mode,))
        self.rules = endodoi.Rules(holes, seeds, max_laps=max_laps, max_plies=max_plies)
        self.side = side
        self.opponent = opponent
        self.reward_kind = reward
        self.render_mode = render_mode
        self.observation_space = observation_space(self.rules)
        self.action_space = spaces.Discrete(self.rules.holes)
        self.position = self.rules.start()
        self.rng = random.Random(0)

    def _observation(self):
        return seat_observation(self.position, self.side)

    def _info(self):
        return {"action_mask": self._observation()["action_mask"]}

    def _opponent_moves(self):
        while not self.position.is_over and self.position.to_move != self.side:
            hole = self.opponent(self.position, self.rng)
            self.position, _ = self.position.play(int(hole))

    def _final_reward(self):
        outcome = self.position.outcome
        south, north = self.position.captured
        diff = south - north if self.side == "south" else north - south
        if self.reward_kind == "seeds":
            return float(diff)
        if outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == self.side else -1.0

    def reset(self, seed=None, options=None):
        """A new game; the opponent's generator is seeded from ``seed``.
        When the agent is North, the opponent's first move is played."""
        super().reset(seed=seed)
        self.rng = random.Random(int(self.np_random.integers(2**63)))
        self.position = self.rules.start()
        self._opponent_moves()
        info = self._info()
        if self.position.ply == 0 and self.position.is_over:
            info["over_at_start"] = True
        return self._observation(), info

    def step(self, action):
        """Plays hole ``action + 1`` for the agent, then the opponent's moves."""
        hole = int(action) + 1
        if self.position.ply == 0 and self.position.is_over:
            info = self._info()
            info["over_at_start"] = True
            info["termination"] = self.position.outcome.termination
            return self._observation(), self._final_reward(), True, False, info
        if not self.position.is_legal(hole):
            info = self._info()
            info["illegal"] = True
            return self._observation(), -1.0, True, False, info
        self.position, _ = self.position.play(hole)
        self._opponent_moves()
        if self.position.is_over:
            info = self._info()
            info["termination"] = self.position.outcome.termination
            return self._observation(), self._final_reward(), True, False, info
        return self._observation(), 0.0, False, False, self._info()

    def render(self):
        """The position in the engine's text format (``render_mode="ansi"``)."""
        if self.render_mode == "ansi":
            return str(self.position)
        return None


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="endodoi.gym:EnDodoiEnv")
