"""En Dodoi as a PettingZoo AEC environment, laid out as PettingZoo's
classic games.

>>> from endodoi.envs import endodoi_v0
>>> env = endodoi_v0.env(holes=4, seeds=4)
>>> env.reset(seed=1)
>>> obs, reward, termination, truncation, info = env.last()
>>> env.agent_selection, obs["observation"].tolist(), obs["action_mask"].tolist()
('south', [4, 4, 4, 4, 4, 4, 4, 4, 0, 0], [1, 1, 1, 1])
>>> env.step(0)  # South plays hole 1
>>> env.agent_selection, env.observe("north")["observation"].tolist()
('north', [1, 1, 8, 0, 4, 0, 9, 9, 0, 0])

Agents are ``"south"`` (moves first) and ``"north"``. Action ``k`` is the
mover's own hole ``k + 1`` (``Discrete(holes)``). The observation is a dict:
``observation`` holds the observing agent's holes 1..n, the opponent's holes
1..n (numbered from the opponent's left, as protocol.md's ``turn``), then
the agent's and the opponent's captured seeds; ``action_mask`` marks the
legal moves (endless moves excluded). Rewards come at the end: +1, 0, -1
(``reward="win"``), or the agent's final seeds minus the opponent's
(``reward="seeds"``). The ply limit (``max_plies``) ends the game as
RULES.md says, each side taking its own row: a termination, not a
truncation, since the game has a result. Under rules where every first move
is endless (e.g. ``holes=4, seeds=4, max_laps=3``) the game is over at the
start, a draw: ``reset`` leaves every agent terminated with reward 0 and
``info["over_at_start"]``. The environment pickles and deep-copies.
"""

try:
    import gymnasium
    import numpy  # noqa: F401  (the observations are numpy arrays: endodoi._observation)
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:
    raise ImportError(
        "endodoi.envs.endodoi_v0 needs pettingzoo, gymnasium and numpy: pip install \"./python[envs]\" (%s)" % (missing,)) from missing

import endodoi
from endodoi._observation import observation_space, seat_observation

__all__ = ["env", "raw_env"]


def env(**kwargs):
    """The environment with PettingZoo's usual wrappers for classic games:
    an illegal move ends the game with reward -1 for the agent that made it,
    an action outside the space is an error, and the call order is enforced.
    Takes the arguments of ``raw_env``."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


class raw_env(AECEnv):
    """En Dodoi on ``holes`` holes per row with ``seeds`` seeds each.

    Parameters: ``holes`` (2 to 50), ``seeds`` (1 or more), ``max_laps``
    (the lap limit of an endless move), ``max_plies`` (the ply limit),
    ``reward`` (``"win"`` or ``"seeds"``), ``render_mode`` (``"human"``
    prints the board, ``"ansi"`` returns it) . An illegal move raises
    ``endodoi.IllegalMoveError`` here (``env()`` turns it into a loss).
    """

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "endodoi_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        holes=8,
        seeds=4,
        max_laps=100_000,
        max_plies=1000,
        reward="win",
        render_mode=None,
    ):
        super().__init__()
        if reward not in ("win", "seeds"):
            raise ValueError("reward must be 'win' or 'seeds', not %r" % (reward,))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be None, 'human' or 'ansi', not %r" % (render_mode,))
        self.rules = endodoi.Rules(holes, seeds, max_laps=max_laps, max_plies=max_plies)
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = list(endodoi.SIDES)
        self.agents = list(self.possible_agents)
        observation = observation_space(self.rules)
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.rules.holes) for a in self.possible_agents}
        self.position = self.rules.start()
        self.last_result = None
        self._reset_dicts()

    def _reset_dicts(self):
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}

    def observation_space(self, agent):
        """The observation space of ``agent`` (the same for both)."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """``Discrete(holes)``: action ``k`` plays the agent's hole ``k + 1``."""
        return self.action_spaces[agent]

    def observe(self, agent):
        """``{"observation": ..., "action_mask": ...}`` from ``agent``'s seat;
        the mask is all zeros unless ``agent`` is to move."""
        return seat_observation(self.position, agent)

    def reset(self, seed=None, options=None):
        """Starts a new game (``seed`` is accepted for the API: the game
        itself has no randomness)."""
        self.agents = list(self.possible_agents)
        self.position = self.rules.start()
        self.last_result = None
        self._reset_dicts()
        self.agent_selection = self.position.to_move
        if self.position.outcome is not None:
            # Rules where every first move is endless: the game is over
            # before it starts, a draw, and every agent is terminated.
            self._finish(self.position.outcome)
            for a in self.agents:
                self.infos[a]["over_at_start"] = True
        if self.render_mode == "human":
            self.render()

    def step(self, action):
        """Plays ``action`` (hole ``action + 1``) for the agent to move."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.position, self.last_result = self.position.play(int(action) + 1)
        outcome = self.position.outcome
        if outcome is not None:
            self._finish(outcome)
        else:
            self.rewards = {a: 0 for a in self.agents}
        self.agent_selection = self.position.to_move
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self, outcome):
        captured = dict(zip(endodoi.SIDES, self.position.captured))
        for a in self.agents:
            other = endodoi.opponent(a)
            if self.reward_kind == "seeds":
                self.rewards[a] = captured[a] - captured[other]
            elif outcome.winner is None:
                self.rewards[a] = 0
            else:
                self.rewards[a] = 1 if outcome.winner == a else -1
            self.terminations[a] = True
            self.infos[a] = {"termination": outcome.termination, "winner": outcome.winner}

    def render(self):
        """The board as text: North's row from North's left (drawn right to
        left, as seen from South), then South's row, then the captures."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        pos = self.position
        north = " ".join("%3d" % s for s in reversed(pos.row("north")))
        south = " ".join("%3d" % s for s in pos.row("south"))
        text = "north %s\nsouth %s\ncaptured %d-%d, %s to move, ply %d" % (
            north, south, pos.captured[0], pos.captured[1], pos.to_move, pos.ply)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self):
        """Nothing to release."""
