"""En Dodoi as an OpenSpiel game, registered as ``python_en_dodoi`` when
this module is imported, so OpenSpiel's algorithms (MCTS, AlphaZero, CFR,
alpha-rank) can play it.

>>> import pyspiel
>>> import endodoi.spiel
>>> game = pyspiel.load_game("python_en_dodoi", {"holes": 4, "seeds": 4})
>>> state = game.new_initial_state()
>>> state.legal_actions()
[0, 1, 2, 3]
>>> state.apply_action(0)  # South plays hole 1
>>> str(state), state.current_player()
('4,0,9,9/1,1,8,0 n 0 0 1', 1)

Player 0 is South, player 1 North; action ``k`` is the mover's hole
``k + 1``. Parameters: ``holes``, ``seeds``, ``max_laps``, ``max_plies``.
Returns are +1, 0, -1 at the end. The observation tensor, from a player's
seat, is the environments' observation: the player's holes, the
opponent's, then the two captured totals.
"""

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as missing:
    raise ImportError(
        "endodoi.spiel needs OpenSpiel and numpy: pip install open_spiel numpy (pinned in python/requirements-test.txt) (%s)" % (missing,)) from missing

import endodoi

__all__ = ["EnDodoiGame", "EnDodoiState", "GAME_NAME"]

GAME_NAME = "python_en_dodoi"

_DEFAULTS = {"holes": 8, "seeds": 4, "max_laps": 100_000, "max_plies": 1000}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python En Dodoi",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


class EnDodoiGame(pyspiel.Game):
    """The game under the rules its parameters give."""

    def __init__(self, params=None):
        values = dict(_DEFAULTS)
        values.update(params or {})
        self.rules = endodoi.Rules(
            int(values["holes"]), int(values["seeds"]),
            max_laps=int(values["max_laps"]), max_plies=int(values["max_plies"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.holes,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.rules.max_plies,
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self):
        """The start position."""
        return EnDodoiState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of the observation tensor and string."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self.rules, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class EnDodoiState(pyspiel.State):
    """A state: an ``endodoi.Position`` (attribute ``position``)."""

    @property
    def position(self):
        """The position, an ``endodoi.Position``."""
        return self._record.position

    def __init__(self, game):
        super().__init__(game)
        self._record = _Record(game.rules)

    def current_player(self):
        """0 for South, 1 for North, or ``pyspiel.PlayerId.TERMINAL``."""
        if self.position.is_over:
            return pyspiel.PlayerId.TERMINAL
        return endodoi.SIDES.index(self.position.to_move)

    def _legal_actions(self, player):
        return [hole - 1 for hole in self.position.legal_moves()]

    def _apply_action(self, action):
        self._record.play(int(action) + 1)

    def _action_to_string(self, player, action):
        holes = self.position.holes
        if player not in (0, 1):
            raise ValueError("player must be 0 (South) or 1 (North), not %r" % (player,))
        if not 0 <= action < holes:
            raise ValueError("action %r is not a hole: actions are 0 to %d (holes 1 to %d)"
                             % (action, holes - 1, holes))
        if self.position.is_over:
            raise ValueError("the game is over: there is no action %d to name" % action)
        return "%s %d" % (endodoi.SIDES[player], action + 1)

    def is_terminal(self):
        """Whether the game is over."""
        return self.position.is_over

    def returns(self):
        """+1, 0 or -1 for South and for North (0, 0 while the game goes on)."""
        outcome = self.position.outcome
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == "south" else [-1.0, 1.0]

    def __str__(self):
        return str(self.position)


class _Record:
    """A game as its rules and moves, with the current position: pickled
    (OpenSpiel's serialization) as the rules and the moves and restored by
    replaying them, so the copy is exact whatever the game's end was;
    deep-copied cheaply (positions are immutable)."""

    def __init__(self, rules):
        self.position = rules.start()
        self.holes_played = []

    def play(self, hole):
        self.position = self.position.after(hole)
        self.holes_played.append(hole)

    def __deepcopy__(self, memo):
        copy = _Record.__new__(_Record)
        copy.position = self.position
        copy.holes_played = list(self.holes_played)
        return copy

    def __getstate__(self):
        r = self.position.rules
        return {"rules": (r.holes, r.seeds, r.max_laps, r.max_plies),
                "holes_played": list(self.holes_played)}

    def __setstate__(self, state):
        holes, seeds, max_laps, max_plies = state["rules"]
        self.__init__(endodoi.Rules(holes, seeds, max_laps=max_laps, max_plies=max_plies))
        for hole in state["holes_played"]:
            self.play(hole)


class _Observer:
    """The observation from a player's seat (see the module's docs)."""

    def __init__(self, rules, params):
        if params:
            raise ValueError("observation parameters are not supported: %r" % (params,))
        self.tensor = np.zeros(2 * rules.holes + 2, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        """Fills ``tensor`` for ``player`` (0 South, 1 North)."""
        pos = state.position
        side = endodoi.SIDES[player]
        captured = pos.captured
        values = (pos.row(side) + pos.row(endodoi.opponent(side))
                  + [captured[player], captured[1 - player]])
        self.tensor[:] = values

    def string_from(self, state, player):
        """The position's text format (the same for both players)."""
        return str(state.position)


pyspiel.register_game(_GAME_TYPE, EnDodoiGame)
