"""Value types: colours, piece types, squares, pieces and moves."""

from __future__ import annotations

import ctypes
import enum
from typing import List, Optional, Union

from . import _args, _native
from ._native import lib
from .errors import ErrorCode, raise_for

WHITE = True
BLACK = False
COLORS = (WHITE, BLACK)

# Piece types numbered as in python-chess and chesscore.h's chess_piece_kind.
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
PIECE_TYPES = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)
PIECE_SYMBOLS = (None, "p", "n", "b", "r", "q", "k")

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
SQUARE_NAMES = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)
SQUARES = range(64)


def checked_color(color: object) -> bool:
    """A colour: WHITE (True) or BLACK (False), no other value (a truthy int or str is a slip,
    such as arguments swapped)."""
    return _args.of_type(color, bool, "color")


def c_color(color: object) -> int:
    """chess_color of a colour."""
    return 0 if checked_color(color) else 1


def c_piece_type(piece_type: object) -> int:
    """A piece type, PAWN (1) to KING (6)."""
    return _args.integer(piece_type, "piece type", PAWN, KING)


def square(value: object) -> int:
    """A square index (0 = a1 .. 63 = h8) from an index or a name such as "e4"."""
    if isinstance(_args.of_type(value, (int, str), "square"), str):
        index = _native.SQUARE()
        _native.check(lib.chess_square_parse(_args.text(value, "square"), ctypes.byref(index)))
        return index.value
    return _args.integer(value, "square", 0, 63, ErrorCode.INVALID_SQUARE)


def square_name(index: Union[int, str]) -> str:
    return SQUARE_NAMES[square(index)]


def squares_of(bits: int) -> List[int]:
    """The squares of a bit set, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def raw_of(move: object) -> int:
    """The ``chess_move`` of a Move (ArgumentTypeError for anything else)."""
    return _args.of_type(move, Move, "move").raw


class MoveKind(enum.IntEnum):
    """chess_move_kind: bits 12-15 of a move."""

    NORMAL = 0
    DOUBLE_PUSH = 1
    EN_PASSANT = 2
    CASTLING = 3
    PROMOTE_KNIGHT = 4
    PROMOTE_BISHOP = 5
    PROMOTE_ROOK = 6
    PROMOTE_QUEEN = 7


class Piece:
    """A piece: ``piece_type`` (PAWN .. KING) and ``color`` (WHITE is True)."""

    __slots__ = ("piece_type", "color")

    def __init__(self, piece_type: int, color: bool):
        self.piece_type = c_piece_type(piece_type)
        self.color = checked_color(color)

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        if _args.of_type(symbol, str, "piece symbol").lower() not in PIECE_SYMBOLS[1:]:
            raise_for(ErrorCode.INVALID_ARGUMENT, f"no piece letter {symbol!r}")
        return cls(PIECE_SYMBOLS.index(symbol.lower()), symbol.isupper())

    @classmethod
    def _from_c(cls, code: int) -> Optional[Piece]:
        return None if code == 0 else cls(code & 7, code >> 3 == 0)

    def symbol(self) -> str:
        """The FEN letter: upper case for White."""
        letter = PIECE_SYMBOLS[self.piece_type]
        return letter.upper() if self.color else letter

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Piece):
            return NotImplemented
        return (self.piece_type, self.color) == (other.piece_type, other.color)

    def __hash__(self) -> int:
        return hash((self.piece_type, self.color))

    def __str__(self) -> str:
        return self.symbol()

    def __repr__(self) -> str:
        return f"Piece.from_symbol({self.symbol()!r})"


class Move:
    """A move: the library's 16-bit encoding (origin, destination, kind). Moves come from a
    position (``legal_moves``, ``parse_uci``, ``parse_san``), which also decides how castling is
    written in UCI: ``e1g1`` in standard chess, king takes rook (``e1h1``) in Chess960.
    ``Move.null()`` is no move; it is false in a boolean context. Moves are immutable and
    hashable."""

    __slots__ = ("_raw", "_chess960")

    def __init__(self, raw: int, chess960: bool = False):
        self._raw = _args.integer(raw, "a move's 16-bit int", 0, 0xFFFF, ErrorCode.INVALID_MOVE)
        self._chess960 = _args.of_type(chess960, bool, "chess960")

    @classmethod
    def null(cls) -> Move:
        return cls(0)

    @classmethod
    def _trusted(cls, raw: int, chess960: bool) -> Move:
        """A move the library handed out: its arguments need no checking (a game's moves,
        a million at a time when reading PGN)."""
        move = object.__new__(cls)
        move._raw = raw
        move._chess960 = chess960
        return move

    @property
    def raw(self) -> int:
        """The ``chess_move`` value."""
        return self._raw

    @property
    def from_square(self) -> int:
        return lib.chess_move_from_square(self._raw)

    @property
    def to_square(self) -> int:
        """The destination (the rook's square for castling, which is the king taking its rook)."""
        return lib.chess_move_to_square(self._raw)

    @property
    def kind(self) -> MoveKind:
        return MoveKind(lib.chess_move_kind_of(self._raw))

    @property
    def promotion(self) -> Optional[int]:
        """The piece type a promotion makes, else None."""
        return lib.chess_move_promotion(self._raw) or None

    def uci(self) -> str:
        flags = _native.UCI_KING_TAKES_ROOK if self._chess960 else 0
        return _native.read_text(lib.chess_move_to_uci_with, self._raw, flags, size=8)

    def __bool__(self) -> bool:
        return self._raw != 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._raw == other._raw and self._chess960 == other._chess960

    def __hash__(self) -> int:
        return hash((self._raw, self._chess960))

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        return f"<Move {self.uci()} raw={self._raw:#06x}>"
