"""python-chess's validity flags (``Status``) and the outcome of a game (``Outcome`` and
``Termination``)."""

from __future__ import annotations

import enum
from typing import Any as _Any
from typing import Optional

from ._squares import BLACK, WHITE, Color


class Termination(enum.Enum):
    """Why a game ended, or which draw was claimed (the library's numbers for the first seven;
    the ``VARIANT_*`` ends come from variants, which the library does not play)."""

    CHECKMATE = 1
    STALEMATE = 2
    INSUFFICIENT_MATERIAL = 3
    SEVENTYFIVE_MOVES = 4
    FIVEFOLD_REPETITION = 5
    FIFTY_MOVES = 6
    THREEFOLD_REPETITION = 7
    VARIANT_WIN = 8
    VARIANT_LOSS = 9
    VARIANT_DRAW = 10


# chess_result (a finished game's) to the winner.
_WINNERS = {1: WHITE, 2: BLACK, 3: None}


class Outcome:
    """The end of a game: ``termination`` and ``winner`` (WHITE, BLACK or None for a draw).
    Compared by value and not hashable, as python-chess's dataclass (without importing
    ``dataclasses``, a tenth of this package's import time)."""

    __slots__ = ("termination", "winner")

    def __init__(self, termination: Termination, winner: Optional[Color]) -> None:
        self.termination = termination
        self.winner = winner

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.termination, self.winner) == (other.termination, other.winner)  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(termination={self.termination!r}, winner={self.winner!r})"

    @classmethod
    def _of(cls, outcome: _Any) -> Outcome:
        """The Outcome of a chess_outcome (``chess_game_outcome``) whose game is over."""
        return cls(Termination(outcome.termination), _WINNERS[outcome.result])

    def result(self) -> str:
        """"1-0", "0-1" or "1/2-1/2"."""
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner else "0-1")


class Status(enum.IntFlag):
    """python-chess's validity flags, which ``Board.status()`` gives: the library's
    ``SetupStatus`` bits (``chess_setup_status``) and the ``RACE_*`` ones of a variant the
    library does not play."""

    VALID = 0
    NO_WHITE_KING = 1 << 0
    NO_BLACK_KING = 1 << 1
    TOO_MANY_KINGS = 1 << 2
    TOO_MANY_WHITE_PAWNS = 1 << 3
    TOO_MANY_BLACK_PAWNS = 1 << 4
    PAWNS_ON_BACKRANK = 1 << 5
    TOO_MANY_WHITE_PIECES = 1 << 6
    TOO_MANY_BLACK_PIECES = 1 << 7
    BAD_CASTLING_RIGHTS = 1 << 8
    INVALID_EP_SQUARE = 1 << 9
    OPPOSITE_CHECK = 1 << 10
    EMPTY = 1 << 11
    RACE_CHECK = 1 << 12
    RACE_OVER = 1 << 13
    RACE_MATERIAL = 1 << 14
    TOO_MANY_CHECKERS = 1 << 15
    IMPOSSIBLE_CHECK = 1 << 16


STATUS_VALID = Status.VALID
STATUS_NO_WHITE_KING = Status.NO_WHITE_KING
STATUS_NO_BLACK_KING = Status.NO_BLACK_KING
STATUS_TOO_MANY_KINGS = Status.TOO_MANY_KINGS
STATUS_TOO_MANY_WHITE_PAWNS = Status.TOO_MANY_WHITE_PAWNS
STATUS_TOO_MANY_BLACK_PAWNS = Status.TOO_MANY_BLACK_PAWNS
STATUS_PAWNS_ON_BACKRANK = Status.PAWNS_ON_BACKRANK
STATUS_TOO_MANY_WHITE_PIECES = Status.TOO_MANY_WHITE_PIECES
STATUS_TOO_MANY_BLACK_PIECES = Status.TOO_MANY_BLACK_PIECES
STATUS_BAD_CASTLING_RIGHTS = Status.BAD_CASTLING_RIGHTS
STATUS_INVALID_EP_SQUARE = Status.INVALID_EP_SQUARE
STATUS_OPPOSITE_CHECK = Status.OPPOSITE_CHECK
STATUS_EMPTY = Status.EMPTY
STATUS_RACE_CHECK = Status.RACE_CHECK
STATUS_RACE_OVER = Status.RACE_OVER
STATUS_RACE_MATERIAL = Status.RACE_MATERIAL
STATUS_TOO_MANY_CHECKERS = Status.TOO_MANY_CHECKERS
STATUS_IMPOSSIBLE_CHECK = Status.IMPOSSIBLE_CHECK
