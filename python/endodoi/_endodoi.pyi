"""Type stubs of the native module ``endodoi._endodoi`` (the Rust engine).

Sides are ``"south"`` and ``"north"``; holes are the mover's own numbers 1..n.
"""

from typing import Any, Literal, Optional, final

__all__ = [
    "MAX_HOLES",
    "MIN_HOLES",
    "GameOutcome",
    "IllegalMoveError",
    "MoveLap",
    "MoveResult",
    "PlayoutStats",
    "Position",
    "RatingTable",
    "Rules",
    "parse_newgame",
    "rate_games",
    "side_name",
]

Side = Literal["south", "north"]

MAX_HOLES: int
MIN_HOLES: int

class IllegalMoveError(ValueError):
    """A move that cannot be played: the game is over, no such hole, an
    empty hole, or an endless move."""

@final
class Rules:
    """Holes per row (2 to 50), seeds per hole (1 or more), the lap limit
    of an endless move and the ply limit. Bad values raise ValueError."""

    def __new__(cls, holes: int = 8, seeds: int = 4, max_laps: int = 100000, max_plies: int = 1000) -> Rules: ...
    @property
    def holes(self) -> int: ...
    @property
    def seeds(self) -> int: ...
    @property
    def max_laps(self) -> int: ...
    @property
    def max_plies(self) -> int: ...
    @property
    def total_seeds(self) -> int: ...
    def start(self) -> Position:
        """The start position: every hole full, South to move."""
    def __reduce__(self) -> tuple[type[Rules], tuple[int, int, int, int]]: ...
    def __copy__(self) -> Rules: ...
    def __deepcopy__(self, memo: Any, /) -> Rules: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class GameOutcome:
    """How a game ended."""

    def __new__(cls, termination: Literal["no-moves", "ply-limit"], winner: Optional[str] = None) -> GameOutcome: ...
    def __reduce__(self) -> tuple[type[GameOutcome], tuple[str, Optional[str]]]: ...
    def __eq__(self, other: object, /) -> bool: ...

    @property
    def termination(self) -> Literal["no-moves", "ply-limit"]: ...
    @property
    def winner(self) -> Optional[Side]: ...

@final
class MoveResult:
    """What a move did."""

    def __new__(
        cls,
        hole: int,
        mover: str,
        laps: int,
        sown: int,
        last: int,
        capture: Optional[tuple[int, int]] = None,
        outcome: Optional[GameOutcome] = None,
    ) -> MoveResult: ...
    def __reduce__(self) -> tuple[type[MoveResult], tuple[Any, ...]]: ...

    @property
    def hole(self) -> int: ...
    @property
    def mover(self) -> Side: ...
    @property
    def laps(self) -> int: ...
    @property
    def sown(self) -> int: ...
    @property
    def last(self) -> int:
        """The ring index where the last seed fell."""
    @property
    def capture(self) -> Optional[tuple[int, int]]:
        """``(opponent's hole in its numbering, seeds with the triggering one)``."""
    @property
    def outcome(self) -> Optional[GameOutcome]: ...

@final
class MoveLap:
    """One lap of a move, with the ring after it."""

    @property
    def number(self) -> int: ...
    @property
    def start(self) -> int:
        """The ring index lifted."""
    @property
    def seeds(self) -> int: ...
    @property
    def last(self) -> int: ...
    @property
    def ends(self) -> bool: ...
    @property
    def ring(self) -> list[int]: ...

@final
class PlayoutStats:
    """The tally of ``Position.playouts``."""

    def __new__(
        cls, games: int, south_wins: int, north_wins: int, draws: int, plies: int, seed_difference: int
    ) -> PlayoutStats: ...
    def __reduce__(self) -> tuple[type[PlayoutStats], tuple[int, int, int, int, int, int]]: ...
    def __eq__(self, other: object, /) -> bool: ...

    @property
    def games(self) -> int: ...
    @property
    def south_wins(self) -> int: ...
    @property
    def north_wins(self) -> int: ...
    @property
    def draws(self) -> int: ...
    @property
    def plies(self) -> int: ...
    @property
    def seed_difference(self) -> int: ...
    def score(self, side: Side) -> float:
        """Wins plus half the draws of ``side``, per game."""

@final
class Position:
    """An immutable position; ``str()`` is the engine's text format."""

    def __new__(cls, text: str, rules: Rules) -> Position: ...
    @staticmethod
    def parse(text: str, rules: Rules) -> Position:
        """The position of the text format; ValueError if malformed."""
    @staticmethod
    def from_parts(
        rules: Rules,
        south: list[int],
        north: list[int],
        to_move: Side = "south",
        captured: tuple[int, int] = (0, 0),
        ply: int = 0,
    ) -> Position: ...
    @staticmethod
    def from_turn(line: str, rules: Rules, side: Side) -> Position:
        """The position a protocol ``turn`` line shows the bot playing ``side``."""
    def to_turn(self, last: Optional[int] = None, time_ms: Optional[int] = None) -> str:
        """The ``turn`` line for the side to move; ValueError once over."""
    @property
    def rules(self) -> Rules: ...
    @property
    def holes(self) -> int: ...
    @property
    def to_move(self) -> Side: ...
    @property
    def ply(self) -> int: ...
    @property
    def captured(self) -> tuple[int, int]:
        """``(south, north)``, with the final sweep once over."""
    @property
    def ring(self) -> list[int]: ...
    def row(self, side: Side) -> list[int]: ...
    def seeds(self, side: Side, hole: int) -> int: ...
    @property
    def outcome(self) -> Optional[GameOutcome]: ...
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> list[int]: ...
    def is_legal(self, hole: int) -> bool: ...
    def check(self, hole: int) -> None:
        """Raises IllegalMoveError unless ``hole`` is legal."""
    def play(self, hole: int) -> tuple[Position, MoveResult]:
        """The next position and what the move did; IllegalMoveError if illegal."""
    def after(self, hole: int) -> Position: ...
    def laps(self, hole: int) -> list[MoveLap]: ...
    def children(self) -> list[tuple[int, Position, MoveResult]]:
        """Every legal move with its position and result, in hole order."""
    def playouts(self, n: int, seed: int = 0) -> PlayoutStats:
        """``n`` uniformly random games from here (in Rust, GIL released
        between chunks that check for Ctrl-C)."""
    def observation(self) -> list[int]: ...
    def action_mask(self) -> list[bool]: ...
    def perft(self, depth: int) -> int: ...
    def __reduce__(self) -> tuple[type[Position], tuple[str, Rules]]: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any, /) -> Position: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def parse_newgame(line: str) -> tuple[Rules, Side]:
    """The rules and the bot's side of a protocol ``newgame`` line."""

def side_name(side: str) -> Side:
    """``"south"`` or ``"north"`` from any spelling the engine takes."""

@final
class RatingTable:
    """Ratings of some games, per bot index (``rate_games``; ``endodoi.ratings``
    turns them into numpy arrays): Elo points on the logistic scale, the 95%
    intervals, and what ``standings.csv`` shows."""

    @property
    def elo(self) -> list[float]: ...
    @property
    def lower(self) -> list[float]: ...
    @property
    def upper(self) -> list[float]: ...
    @property
    def sd(self) -> list[float]: ...
    @property
    def interval(self) -> list[Literal["bootstrap", "curvature", "at-limit", "no-games"]]: ...
    @property
    def games(self) -> list[int]: ...
    @property
    def wins(self) -> list[int]: ...
    @property
    def draws(self) -> list[int]: ...
    @property
    def losses(self) -> list[int]: ...
    @property
    def order(self) -> list[int]:
        """The bot indices best first, as ``standings.csv`` lists them."""
    @property
    def group(self) -> list[int]:
        """Each bot's group, from 1 in the listed order."""
    @property
    def los_next(self) -> list[Optional[float]]:
        """Each bot's LOS over the bot listed next in its group (None for the last)."""
    @property
    def groups(self) -> int: ...
    @property
    def draw_rate(self) -> float: ...
    @property
    def samples(self) -> int: ...
    def los(self, i: int, j: int) -> float:
        """The likelihood of superiority of bot ``i`` over bot ``j``, 0..1."""
    def covariance(self, i: int, j: int) -> float:
        """The covariance of the ratings of bots ``i`` and ``j``, Elo squared."""
    def __len__(self) -> int: ...

def rate_games(
    bots: int,
    south: list[int],
    north: list[int],
    result: list[int],
    *,
    prior_draws: float = 1.0,
    bootstrap: int = 1000,
    seed: int = 1,
    anchor: Optional[tuple[int, float]] = None,
) -> RatingTable:
    """Rates games among ``bots`` bots: ``south[k]`` against ``north[k]``,
    South's result ``result[k]`` in half points (2 won, 1 drawn, 0 lost),
    with ``arena rate``'s options and defaults. Bad input raises ValueError
    naming the entry and the fix."""
