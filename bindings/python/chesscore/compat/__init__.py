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
from ..errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from ._baseboard import BaseBoard
from ._board import Board, LegalMoveGenerator, PseudoLegalMoveGenerator
from ._moves import Move, Piece
from ._outcome import *  # noqa: F403 - Status and its STATUS_* flags, Outcome, Termination
from ._squares import *  # noqa: F403 - colours, piece types, squares, bitboards, SquareSet

__all__ = [
    "AmbiguousMoveError",
    "BB_ALL",
    "BB_EMPTY",
    "BB_FILES",
    "BB_RANKS",
    "BB_SQUARES",
    "BISHOP",
    "BLACK",
    "BaseBoard",
    "Bitboard",
    "Board",
    "COLORS",
    "COLOR_NAMES",
    "Color",
    "FILE_NAMES",
    "IllegalMoveError",
    "InvalidMoveError",
    "KING",
    "KNIGHT",
    "LegalMoveGenerator",
    "Move",
    "Outcome",
    "PAWN",
    "PIECE_NAMES",
    "PIECE_SYMBOLS",
    "PIECE_TYPES",
    "Piece",
    "PieceType",
    "PseudoLegalMoveGenerator",
    "QUEEN",
    "RANK_NAMES",
    "ROOK",
    "SQUARES",
    "SQUARE_NAMES",
    "STARTING_BOARD_FEN",
    "STARTING_FEN",
    "Square",
    "SquareSet",
    "Status",
    "Termination",
    "UNICODE_PIECE_SYMBOLS",
    "WHITE",
    "parse_square",
    "piece_name",
    "piece_symbol",
    "square",
    "square_distance",
    "square_file",
    "square_mirror",
    "square_name",
    "square_rank",
]
__all__ += [name.upper() for name in SQUARE_NAMES]  # noqa: F405
__all__ += ["BB_BACKRANKS", "BB_CORNERS", "BB_DARK_SQUARES", "BB_LIGHT_SQUARES", "STATUS_VALID"]
__all__ += ["BB_" + name.upper() for name in SQUARE_NAMES]  # noqa: F405
