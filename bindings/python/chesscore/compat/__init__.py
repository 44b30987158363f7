"""python-chess's API over the chesscore C library: ``import chesscore.compat as chess`` runs
typical python-chess scripts unchanged.

    >>> import chesscore.compat as chess
    >>> board = chess.Board()
    >>> board.legal_moves.count()
    20
    >>> chess.Move.from_uci("g1f3") in board.legal_moves
    True
    >>> board.push_san("e4")
    Move.from_uci('e2e4')
    >>> board.san(chess.Move.from_uci("e7e5"))
    'e5'
    >>> for san in ["e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"]:
    ...     _ = board.push_san(san)
    >>> board.is_checkmate(), board.outcome()
    (True, Outcome(termination=<Termination.CHECKMATE: 1>, winner=True))
    >>> board.fen()
    'r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4'
    >>> board.piece_at(chess.F7), chess.square_name(board.king(chess.BLACK))
    (Piece.from_symbol('Q'), 'e8')
    >>> board.attackers(chess.WHITE, chess.E8)
    SquareSet(0x0020_0000_0000_0000)
    >>> board.parse_san("Kf8")
    Traceback (most recent call last):
    ...
    chesscore.errors.IllegalMoveError: illegal san: 'Kf8' in r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4

Every rule comes from the C library: this module only converts between python-chess's types and
the library's (moves, squares, square sets) and keeps the move stack. A ``Board`` holds a
``chess_game`` from its first move on (the positions played, for repetitions, outcomes and
``pop``) and what the library said of its position until the next move. docs/python.md
("chesscore.compat") lists what is covered and the known differences.
"""

from __future__ import annotations

# The names python-chess's ``chess`` module has, from the modules of this package by concern:
# squares and bitboards, pieces and moves, outcomes, boards.
import typing as _typing

from ..errors import AmbiguousMoveError as AmbiguousMoveError
from ..errors import IllegalMoveError as IllegalMoveError
from ..errors import InvalidMoveError as InvalidMoveError
from ._baseboard import BaseBoard as BaseBoard
from ._board import Board as Board
from ._board import LegalMoveGenerator as LegalMoveGenerator
from ._board import PseudoLegalMoveGenerator as PseudoLegalMoveGenerator
from ._moves import Move as Move
from ._moves import Piece as Piece
from ._outcome import *  # noqa: F403 - Status and its STATUS_* flags, Outcome, Termination
from ._squares import *  # noqa: F403 - colours, piece types, squares, bitboards, SquareSet
from ._tables import BUILDERS as _TABLES

# No __all__, as python-chess's module has none: a star import takes every public name.

BaseBoardT = _typing.TypeVar("BaseBoardT", bound=BaseBoard)
BoardT = _typing.TypeVar("BoardT", bound=Board)

if _typing.TYPE_CHECKING:
    from typing import Dict, List

    BB_DIAG_ATTACKS: List[Dict[Bitboard, Bitboard]]  # noqa: F405
    BB_FILE_ATTACKS: List[Dict[Bitboard, Bitboard]]  # noqa: F405
    BB_RANK_ATTACKS: List[Dict[Bitboard, Bitboard]]  # noqa: F405
    BB_RAYS: List[List[Bitboard]]  # noqa: F405


def __getattr__(name: str) -> object:
    """The big bitboard tables (``BB_RAYS``, ``BB_DIAG_ATTACKS``, ...), built on first use."""
    build = _TABLES.get(name)
    if build is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = build()
    return value
