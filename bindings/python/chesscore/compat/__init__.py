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

import ctypes
import enum
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from .. import _native
from .._native import MAX_MOVES, lib
from ..errors import AmbiguousMoveError, ErrorCode, IllegalMoveError, InvalidMoveError, raise_for
from ..game import Outcome, Termination
from ..position import _move_error, _parse_fen
from ..types import MoveKind

__all__ = [
    "AmbiguousMoveError",
    "BB_ALL",
    "BB_EMPTY",
    "BB_FILES",
    "BB_RANKS",
    "BB_SQUARES",
    "BISHOP",
    "BLACK",
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

# -- colours, pieces, squares and square sets (python-chess's names and values)

Color = bool
PieceType = int
Square = int
Bitboard = int

WHITE: Color = True
BLACK: Color = False
COLORS = [WHITE, BLACK]
COLOR_NAMES = ["black", "white"]

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
PIECE_TYPES = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING]
PIECE_SYMBOLS = [None, "p", "n", "b", "r", "q", "k"]
PIECE_NAMES = [None, "pawn", "knight", "bishop", "rook", "queen", "king"]
UNICODE_PIECE_SYMBOLS = {
    "R": "♖", "r": "♜", "N": "♘", "n": "♞", "B": "♗", "b": "♝",
    "Q": "♕", "q": "♛", "K": "♔", "k": "♚", "P": "♙", "p": "♟",
}  # fmt: skip

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
STARTING_BOARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

FILE_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h"]
RANK_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8"]
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]
SQUARES = list(range(64))
# chess.A1 = 0 ... chess.H8 = 63.
(
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
) = range(64)
__all__ += [name.upper() for name in SQUARE_NAMES]

BB_EMPTY = 0
BB_ALL = 0xFFFF_FFFF_FFFF_FFFF
BB_SQUARES = [1 << sq for sq in SQUARES]
BB_FILES = [0x0101_0101_0101_0101 << f for f in range(8)]
BB_RANKS = [0xFF << (8 * r) for r in range(8)]
BB_LIGHT_SQUARES = 0x55AA_55AA_55AA_55AA
BB_DARK_SQUARES = 0xAA55_AA55_AA55_AA55
BB_CORNERS = BB_SQUARES[0] | BB_SQUARES[7] | BB_SQUARES[56] | BB_SQUARES[63]
BB_BACKRANKS = BB_RANKS[0] | BB_RANKS[7]
(
    BB_A1, BB_B1, BB_C1, BB_D1, BB_E1, BB_F1, BB_G1, BB_H1,
    BB_A2, BB_B2, BB_C2, BB_D2, BB_E2, BB_F2, BB_G2, BB_H2,
    BB_A3, BB_B3, BB_C3, BB_D3, BB_E3, BB_F3, BB_G3, BB_H3,
    BB_A4, BB_B4, BB_C4, BB_D4, BB_E4, BB_F4, BB_G4, BB_H4,
    BB_A5, BB_B5, BB_C5, BB_D5, BB_E5, BB_F5, BB_G5, BB_H5,
    BB_A6, BB_B6, BB_C6, BB_D6, BB_E6, BB_F6, BB_G6, BB_H6,
    BB_A7, BB_B7, BB_C7, BB_D7, BB_E7, BB_F7, BB_G7, BB_H7,
    BB_A8, BB_B8, BB_C8, BB_D8, BB_E8, BB_F8, BB_G8, BB_H8,
) = BB_SQUARES
BB_FILE_A, BB_FILE_B, BB_FILE_C, BB_FILE_D, BB_FILE_E, BB_FILE_F, BB_FILE_G, BB_FILE_H = BB_FILES
BB_RANK_1, BB_RANK_2, BB_RANK_3, BB_RANK_4, BB_RANK_5, BB_RANK_6, BB_RANK_7, BB_RANK_8 = BB_RANKS


def piece_symbol(piece_type: PieceType) -> str:
    return PIECE_SYMBOLS[piece_type]  # type: ignore[return-value]


def piece_name(piece_type: PieceType) -> str:
    return PIECE_NAMES[piece_type]  # type: ignore[return-value]


def square(file_index: int, rank_index: int) -> Square:
    return rank_index * 8 + file_index


def square_file(sq: Square) -> int:
    return sq & 7


def square_rank(sq: Square) -> int:
    return sq >> 3


def square_name(sq: Square) -> str:
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """The square of a name such as ``"e4"``; ValueError for anything else."""
    return SQUARE_NAMES.index(name)


def square_distance(a: Square, b: Square) -> int:
    """Moves a king needs from ``a`` to ``b``."""
    return max(abs(square_file(a) - square_file(b)), abs(square_rank(a) - square_rank(b)))


def square_mirror(sq: Square) -> Square:
    """The square on the same file, other side of the board."""
    return sq ^ 0x38


def _squares_of(mask: int) -> Iterator[Square]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class SquareSet:
    """A set of squares over a 64-bit mask (bit i = square i), as python-chess's.

    >>> import chesscore.compat as chess
    >>> squares = chess.SquareSet([chess.A8, chess.A1])
    >>> squares
    SquareSet(0x0100_0000_0000_0001)
    >>> len(squares), chess.A1 in squares, list(squares | chess.BB_B1)
    (2, True, [0, 1, 56])
    """

    __slots__ = ("mask",)

    def __init__(self, squares: object = BB_EMPTY) -> None:
        if isinstance(squares, int):
            self.mask = squares & BB_ALL
        elif isinstance(squares, SquareSet):
            self.mask = squares.mask
        else:
            self.mask = 0
            for sq in squares:  # type: ignore[attr-defined]
                self.add(sq)

    # -- set

    def __contains__(self, sq: object) -> bool:
        return isinstance(sq, int) and 0 <= sq < 64 and bool(self.mask >> sq & 1)

    def __iter__(self) -> Iterator[Square]:
        return _squares_of(self.mask)

    def __reversed__(self) -> Iterator[Square]:
        return iter(sorted(_squares_of(self.mask), reverse=True))

    def __len__(self) -> int:
        return bin(self.mask).count("1")

    def add(self, sq: Square) -> None:
        self.mask |= BB_SQUARES[sq]

    def discard(self, sq: Square) -> None:
        self.mask &= ~BB_SQUARES[sq]

    def remove(self, sq: Square) -> None:
        if not self.mask & BB_SQUARES[sq]:
            raise KeyError(sq)
        self.mask ^= BB_SQUARES[sq]

    def pop(self) -> Square:
        if not self.mask:
            raise KeyError("pop from empty SquareSet")
        sq = (self.mask & -self.mask).bit_length() - 1
        self.mask &= self.mask - 1
        return sq

    def clear(self) -> None:
        self.mask = BB_EMPTY

    def copy(self) -> SquareSet:
        return SquareSet(self.mask)

    def tolist(self) -> List[bool]:
        return [bool(self.mask >> sq & 1) for sq in SQUARES]

    def mirror(self) -> SquareSet:
        """The set flipped top to bottom."""
        return SquareSet(int.from_bytes(self.mask.to_bytes(8, "little"), "big"))

    def isdisjoint(self, other: object) -> bool:
        return not self.mask & _mask(other)

    def issubset(self, other: object) -> bool:
        return not self.mask & ~_mask(other)

    def issuperset(self, other: object) -> bool:
        return not ~self.mask & _mask(other)

    def union(self, other: object) -> SquareSet:
        return self | other

    def intersection(self, other: object) -> SquareSet:
        return self & other

    def difference(self, other: object) -> SquareSet:
        return self - other

    def symmetric_difference(self, other: object) -> SquareSet:
        return self ^ other

    def update(self, *others: object) -> None:
        for other in others:
            self.mask |= _mask(other)

    def intersection_update(self, *others: object) -> None:
        for other in others:
            self.mask &= _mask(other)

    def difference_update(self, other: object) -> None:
        self.mask &= ~_mask(other)

    def symmetric_difference_update(self, other: object) -> None:
        self.mask ^= _mask(other)

    def __or__(self, other: object) -> SquareSet:
        return SquareSet(self.mask | _mask(other))

    __ror__ = __or__

    def __and__(self, other: object) -> SquareSet:
        return SquareSet(self.mask & _mask(other))

    __rand__ = __and__

    def __xor__(self, other: object) -> SquareSet:
        return SquareSet(self.mask ^ _mask(other))

    __rxor__ = __xor__

    def __sub__(self, other: object) -> SquareSet:
        return SquareSet(self.mask & ~_mask(other))

    def __invert__(self) -> SquareSet:
        return SquareSet(~self.mask & BB_ALL)

    def __ior__(self, other: object) -> SquareSet:
        self.mask |= _mask(other)
        return self

    def __iand__(self, other: object) -> SquareSet:
        self.mask &= _mask(other)
        return self

    def __isub__(self, other: object) -> SquareSet:
        self.mask &= ~_mask(other)
        return self

    def __ixor__(self, other: object) -> SquareSet:
        self.mask ^= _mask(other)
        return self

    def __lshift__(self, shift: int) -> SquareSet:
        return SquareSet(self.mask << shift & BB_ALL)

    def __rshift__(self, shift: int) -> SquareSet:
        return SquareSet(self.mask >> shift)

    # -- int and comparisons

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        try:
            return self.mask == _mask(other)
        except (TypeError, ValueError):
            return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __repr__(self) -> str:
        digits = f"{self.mask:016x}"
        return "SquareSet(0x" + "_".join(digits[i : i + 4] for i in range(0, 16, 4)) + ")"

    def __str__(self) -> str:
        """The set drawn as a board: ``1`` on its squares, ``.`` elsewhere, rank 8 first."""
        rows = []
        for rank in range(7, -1, -1):
            rows.append(" ".join("1" if self.mask >> (rank * 8 + f) & 1 else "." for f in range(8)))
        return "\n".join(rows)


def _mask(squares: object) -> int:
    """The mask of a SquareSet, an int or an iterable of squares."""
    if isinstance(squares, int):
        return squares
    if isinstance(squares, SquareSet):
        return squares.mask
    return SquareSet(squares).mask


# -- pieces and moves


class Piece:
    """A piece: ``piece_type`` (PAWN .. KING) and ``color``.

    >>> import chesscore.compat as chess
    >>> chess.Piece.from_symbol("n"), chess.Piece(chess.QUEEN, chess.WHITE).unicode_symbol()
    (Piece.from_symbol('n'), '♕')
    """

    __slots__ = ("piece_type", "color")

    def __init__(self, piece_type: PieceType, color: Color) -> None:
        self.piece_type = piece_type
        self.color = color

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece of a FEN letter (ValueError for another)."""
        return cls(PIECE_SYMBOLS.index(symbol.lower()), symbol.isupper())

    def symbol(self) -> str:
        letter = piece_symbol(self.piece_type)
        return letter.upper() if self.color else letter

    def unicode_symbol(self, *, invert_color: bool = False) -> str:
        symbol = self.symbol().swapcase() if invert_color else self.symbol()
        return UNICODE_PIECE_SYMBOLS[symbol]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Piece):
            return NotImplemented
        return self.piece_type == other.piece_type and self.color == other.color

    def __hash__(self) -> int:
        return hash((self.piece_type, self.color))

    def __str__(self) -> str:
        return self.symbol()

    def __repr__(self) -> str:
        return f"Piece.from_symbol({self.symbol()!r})"


# chess_piece codes (kind | color << 3) to the shared Piece objects.
_PIECES: Dict[int, Optional[Piece]] = {0: None}
for _color, _bits in ((WHITE, 0), (BLACK, 8)):
    for _kind in PIECE_TYPES:
        _PIECES[_kind | _bits] = Piece(_kind, _color)


class Move:
    """A move as python-chess's: ``from_square``, ``to_square``, ``promotion`` and ``drop``
    (always None here). Castling is the king's move two files in standard chess (``e1g1``), the
    king taking its rook in Chess960. Moves compare and hash by those fields only.

    >>> import chesscore.compat as chess
    >>> move = chess.Move.from_uci("e7e8q")
    >>> move.to_square == chess.E8, move.promotion == chess.QUEEN, move.uci()
    (True, True, 'e7e8q')
    >>> chess.Move.null(), bool(chess.Move.null())
    (Move.from_uci('0000'), False)
    """

    # _raw: the library's encoding, for a move that came from a position (its kind is known);
    # None for a move built here, which a position resolves through its UCI.
    __slots__ = ("from_square", "to_square", "promotion", "drop", "_raw")

    def __init__(
        self, from_square: Square, to_square: Square, promotion: Optional[PieceType] = None, drop: Optional[PieceType] = None
    ) -> None:
        self.from_square = from_square
        self.to_square = to_square
        self.promotion = promotion
        self.drop = drop
        self._raw: Optional[int] = None

    @classmethod
    def from_uci(cls, uci: str) -> Move:
        """The move a UCI text names (InvalidMoveError when it is not one); ``0000`` is the null
        move."""
        if uci == "0000":
            return cls.null()
        if len(uci) in (4, 5) and uci[:2] in SQUARE_NAMES and uci[2:4] in SQUARE_NAMES:
            promotion = PIECE_SYMBOLS.index(uci[4]) if len(uci) == 5 and uci[4] in "pnbrqk" else None
            if len(uci) == 4 or promotion is not None:
                from_square, to_square = SQUARE_NAMES.index(uci[:2]), SQUARE_NAMES.index(uci[2:4])
                if from_square == to_square:
                    raise InvalidMoveError(ErrorCode.UCI_SYNTAX, f"invalid uci (use 0000 for null moves): {uci!r}")
                return cls(from_square, to_square, promotion)
        raise InvalidMoveError(ErrorCode.UCI_SYNTAX, f"invalid uci: {uci!r}")

    @classmethod
    def null(cls) -> Move:
        move = cls(0, 0)
        move._raw = 0
        return move

    def uci(self) -> str:
        if not self:
            return "0000"
        promotion = piece_symbol(self.promotion) if self.promotion else ""
        return SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square] + promotion

    def xboard(self) -> str:
        return self.uci() if self else "@@@@"

    def __bool__(self) -> bool:
        return bool(self.from_square or self.to_square or self.promotion or self.drop)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.from_square, self.to_square, self.promotion, self.drop) == (
            other.from_square,
            other.to_square,
            other.promotion,
            other.drop,
        )

    def __hash__(self) -> int:
        return hash((self.from_square, self.to_square, self.promotion, self.drop))

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"

    def __str__(self) -> str:
        return self.uci()


def _fast_functions() -> object:
    """The library's functions with every pointer to one of its structures taken and given as
    an address (an int): a second handle on the same library, for the boards, which hold the
    positions of their games by address. ctypes builds no pointer object per call then."""
    fast = ctypes.CDLL(_native.path)
    signatures: Dict[str, Tuple[Any, List[Any]]] = _native.SIGNATURES  # type: ignore[assignment]
    for name, (restype, argtypes) in signatures.items():
        function = getattr(fast, name)
        function.restype = _address_type(restype)
        function.argtypes = [_address_type(t) for t in argtypes]
    return fast


def _address_type(c_type: object) -> object:
    target = getattr(c_type, "_type_", None)
    if isinstance(target, type) and issubclass(target, ctypes.Structure):
        return ctypes.c_void_p
    return c_type


_c: Any = _fast_functions()
# The calls of the hottest paths, looked up once.
_game_push = _c.chess_game_push
_game_pop = _c.chess_game_pop
_game_push_san = _c.chess_game_push_san


def _read_fen(fen: str, chess960: bool) -> _native.Position:
    """The position of a FEN (ValueError with the offset of the fault for a bad one)."""
    flags = _native.FEN_CHESS960 if chess960 else 0
    text = fen.encode("ascii", "replace")
    start = _native.Position()
    if _c.chess_fen_parse_with(text, flags, ctypes.byref(start), None):
        return _parse_fen(lib.chess_fen_parse_with, text, flags)  # type: ignore[no-any-return] # raises, naming the fault
    return start


def _copy_position(address: int) -> _native.Position:
    """A copy of the position at an address (one a game owns)."""
    return _native.Position.from_buffer_copy(_native.Position.from_address(address))


class _MoveTable(Dict[int, Move]):
    """The library's moves (by encoding) as Move objects, each made once, from the library's
    UCI, the first time it is asked for: one table for standard chess and one for Chess960,
    whose castling reads differently (the king taking its rook)."""

    def __init__(self, chess960: bool) -> None:
        super().__init__()
        self._uci_flags = _native.UCI_KING_TAKES_ROOK if chess960 else 0

    def __missing__(self, raw: int) -> Move:
        move = Move.from_uci(_native.read_text(lib.chess_move_to_uci_with, raw, self._uci_flags, size=8))
        move._raw = raw
        self[raw] = move
        return move


_MOVES = (_MoveTable(False), _MoveTable(True))


def _move_of(raw: int, chess960: bool) -> Move:
    return _MOVES[chess960][raw]


# -- boards


class Status(enum.IntFlag):
    """python-chess's validity flags. A Board here is always valid (the library refuses the
    positions python-chess flags), so ``status()`` is ``VALID``."""

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

_WINNERS = {1: WHITE, 2: BLACK, 3: None}
_NULL_SANS = ("--", "Z0", "0000", "@@@@")
# python-chess's en_passant options of fen() and epd() as chess_fen_write_with flags.
_EN_PASSANT = {"legal": 0, "fen": _native.FEN_WRITE_EP_AS_RECORDED, "xfen": _native.FEN_WRITE_EP_PSEUDO_LEGAL}


class Board:
    """A position with the moves that led to it (``move_stack``), as python-chess's Board.
    ``Board()`` is the standard start, ``Board(fen)`` reads a FEN (strictly: ValueError for a
    position that cannot arise), ``Board(None)`` is empty... of everything but the two kings the
    library needs, so it raises; use a FEN. Moves are checked: ``push`` of an illegal move raises
    IllegalMoveError and leaves the board as it was."""

    # _handle: the chess_game's address, made from the position _start at the first move (a
    # board only looked at needs none). The rest is what the library said of the current
    # position, kept until the next move or FEN changes it: _cur its address (None until asked
    # for), _raws and _legal its legal moves, _sans their SAN by encoding, _outcome the game's
    # chess_outcome.
    __slots__ = (
        "_handle", "_start", "_chess960", "move_stack", "_cur", "_raws", "_legal", "_sans", "_outcome", "_out",
        "__weakref__",
    )  # fmt: skip
    _handle: Optional[int]
    move_stack: List[Move]
    _start: Optional[_native.Position]
    _cur: Optional[int]
    _raws: Optional[List[int]]
    _legal: Optional[List[Move]]
    _sans: Optional[Dict[int, str]]
    _outcome: Optional[_native.Outcome]

    def __init__(self, fen: Optional[str] = STARTING_FEN, *, chess960: bool = False) -> None:
        if fen is None:
            raise ValueError("an empty board is no position the library holds: give a FEN")
        self._handle = None
        self._start = _read_fen(fen, chess960)
        self._chess960 = bool(chess960)
        self.move_stack = []
        self._cur = self._raws = self._legal = self._sans = self._outcome = None
        self._out = ctypes.c_uint16()

    def _adopt(self, game: Optional[int], chess960: bool, stack: List[Move]) -> None:
        if not game:
            raise_for(ErrorCode.OUT_OF_MEMORY)
        self._handle = game
        self._start = None
        self._chess960 = chess960
        self.move_stack = stack
        self._cur = self._raws = self._legal = self._sans = self._outcome = None
        self._out = ctypes.c_uint16()

    @property
    def _game(self) -> int:
        """The address of the board's chess_game, made on first use."""
        game = self._handle
        if game is None:
            game = _c.chess_game_new(ctypes.byref(self._start))  # type: ignore[arg-type]
            if not game:
                raise_for(ErrorCode.OUT_OF_MEMORY)
            self._handle, self._start, self._cur = game, None, None
        return game

    @property
    def _pos(self) -> int:
        """The address of the current position (the game's own, or the start's before it)."""
        pos = self._cur
        if pos is None:
            if self._handle is None:
                pos = self._cur = ctypes.addressof(self._start)  # type: ignore[arg-type]
            else:
                pos = self._cur = _c.chess_game_position(self._handle)
        return pos

    def _error(self, code: int, move: str, notation: str) -> Exception:
        return _move_error(code, ctypes.cast(self._pos, _native.POS), move, notation)

    @classmethod
    def _of_game(cls, game: Optional[int], chess960: bool, stack: List[Move]) -> Board:
        board = cls.__new__(cls)
        board._adopt(game, chess960, stack)
        return board

    @classmethod
    def from_chess960_pos(cls, scharnagl: int) -> Board:
        pos = _native.Position()
        _native.check(lib.chess_position_init_chess960(pos, scharnagl))
        return cls._of_game(_c.chess_game_new(ctypes.byref(pos)), True, [])

    def __del__(self) -> None:
        game = getattr(self, "_handle", None)
        if game:
            _c.chess_game_free(game)

    @property
    def chess960(self) -> bool:
        return self._chess960

    # -- FEN and text

    def fen(self, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        """The FEN; ``en_passant`` "legal" (python-chess's default), "fen" (after every double
        push) or "xfen" (when a pawn could capture, pseudo-legally); ``shredder`` writes castling
        as rook files."""
        flags = _EN_PASSANT[en_passant] | (_native.FEN_WRITE_SHREDDER if shredder else 0)
        return _native.read_text(_c.chess_fen_write_with, self._pos, flags, size=_native.FEN_MAX)

    def set_fen(self, fen: str) -> None:
        """Reads a FEN into this board, clearing the move stack."""
        start = _read_fen(fen, self._chess960)
        if self._handle is not None:
            _c.chess_game_free(self._handle)
        self._handle, self._start, self.move_stack = None, start, []
        self._cur = self._raws = self._legal = self._sans = self._outcome = None

    def board_fen(self, *, promoted: Optional[bool] = False) -> str:
        return self.fen().split(" ", 1)[0]

    def epd(self, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None, **operations: object) -> str:
        """The first four FEN fields, then the operations: None for an opcode alone, a move or a
        list of moves (written in SAN), an int or a float, or a string (quoted)."""
        fields = self.fen(shredder=shredder, en_passant=en_passant).split(" ")[:4]
        ops = []
        for opcode, operand in operations.items():
            if operand is None:
                ops.append(f"{opcode};")
            elif isinstance(operand, Move):
                ops.append(f"{opcode} {self.san(operand)};")
            elif isinstance(operand, (int, float)):
                ops.append(f"{opcode} {operand};")
            elif isinstance(operand, str):
                escaped = operand.replace("\\", "\\\\").replace('"', '\\"')
                ops.append(f'{opcode} "{escaped}";')
            else:
                ops.append(f"{opcode} {' '.join(self.san(move) for move in operand)};")  # type: ignore[attr-defined]
        return " ".join(fields + ops)

    def __str__(self) -> str:
        rows = _native.read_text(_c.chess_position_to_text, self._pos, _native.TEXT_BOARD, size=80).split("\n")
        return "\n".join(" ".join("." if c == " " else c for c in row) for row in rows)

    def unicode(self, *, invert_color: bool = False, borders: bool = False, empty_square: str = "⭘", orientation: Color = WHITE) -> str:
        """The board in the Unicode chess symbols (``borders`` draws python-chess's frame)."""
        rows = _native.read_text(_c.chess_position_to_text, self._pos, _native.TEXT_BOARD, size=80).split("\n")
        if orientation == BLACK:
            rows = [row[::-1] for row in reversed(rows)]
        cells = [
            [empty_square if c == " " else UNICODE_PIECE_SYMBOLS[c.swapcase() if invert_color else c] for c in row]
            for row in rows
        ]
        if not borders:
            return "\n".join(" ".join(row) for row in cells)
        files = FILE_NAMES if orientation == WHITE else FILE_NAMES[::-1]
        ranks = RANK_NAMES[::-1] if orientation == WHITE else RANK_NAMES
        line = "  " + "-" * 17
        out = []
        for rank, row in zip(ranks, cells):
            out += [line, rank + " |" + "|".join(row) + "|"]
        out += [line, "   " + " ".join(files)]
        return "\n".join(out)

    def __repr__(self) -> str:
        if self._chess960:
            return f"Board({self.fen()!r}, chess960=True)"
        return f"Board({self.fen()!r})"

    def _repr_svg_(self) -> str:
        from .. import svg
        from ..position import Position

        pos = Position._wrap(_copy_position(self._pos))
        return svg.board(pos, check=pos.king(pos.turn) if pos.is_check() else None)

    # -- state

    @property
    def turn(self) -> Color:
        return _c.chess_position_turn(self._pos) == 0  # type: ignore[no-any-return]

    @property
    def castling_rights(self) -> Bitboard:
        """The squares of the rooks that keep a castling right (BB_H1 for White's kingside...)."""
        return _c.chess_position_castling_rooks(self._pos)  # type: ignore[no-any-return]

    def has_castling_rights(self, color: Color) -> bool:
        return bool(self.castling_rights & BB_RANKS[0 if color else 7])

    def has_kingside_castling_rights(self, color: Color) -> bool:
        return bool(_c.chess_position_castling_rights(self._pos) & (1 if color else 4))

    def has_queenside_castling_rights(self, color: Color) -> bool:
        return bool(_c.chess_position_castling_rights(self._pos) & (2 if color else 8))

    def has_chess960_castling_rights(self) -> bool:
        """Whether a castling right is one only Chess960 has: a rook off its corner, or a
        king off the e-file."""
        rooks = self.castling_rights
        if rooks & ~BB_CORNERS:
            return True
        return (bool(rooks & BB_RANK_1) and self.king(WHITE) != E1) or (bool(rooks & BB_RANK_8) and self.king(BLACK) != E8)

    @property
    def ep_square(self) -> Optional[Square]:
        """The square a pawn passed over in a double push just played (whether or not a pawn can
        take there), else None."""
        sq = _c.chess_position_en_passant(self._pos, _native.EP_AS_RECORDED)
        return None if sq < 0 else sq

    def has_legal_en_passant(self) -> bool:
        return _c.chess_position_en_passant(self._pos, _native.EP_LEGAL) >= 0  # type: ignore[no-any-return]

    def has_pseudo_legal_en_passant(self) -> bool:
        return _c.chess_position_en_passant(self._pos, _native.EP_PSEUDO_LEGAL) >= 0  # type: ignore[no-any-return]

    @property
    def halfmove_clock(self) -> int:
        return _c.chess_position_halfmove_clock(self._pos)  # type: ignore[no-any-return]

    @property
    def fullmove_number(self) -> int:
        return _c.chess_position_fullmove_number(self._pos)  # type: ignore[no-any-return]

    def ply(self) -> int:
        """Half-moves since the start of the game, from the fullmove number."""
        return 2 * (self.fullmove_number - 1) + (not self.turn)

    @property
    def occupied(self) -> Bitboard:
        return _c.chess_position_occupancy(self._pos)  # type: ignore[no-any-return]

    @property
    def occupied_co(self) -> List[Bitboard]:
        return [_c.chess_position_color_occupancy(self._pos, 1), _c.chess_position_color_occupancy(self._pos, 0)]

    def pieces_mask(self, piece_type: PieceType, color: Color) -> Bitboard:
        return _c.chess_position_pieces(self._pos, 0 if color else 1, piece_type)  # type: ignore[no-any-return]

    def pieces(self, piece_type: PieceType, color: Color) -> SquareSet:
        return SquareSet(self.pieces_mask(piece_type, color))

    def piece_at(self, sq: Square) -> Optional[Piece]:
        return _PIECES[_c.chess_position_piece_at(self._pos, sq)]

    def piece_type_at(self, sq: Square) -> Optional[PieceType]:
        return _c.chess_position_piece_at(self._pos, sq) & 7 or None

    def color_at(self, sq: Square) -> Optional[Color]:
        code = _c.chess_position_piece_at(self._pos, sq)
        return None if code == 0 else code < 8

    def piece_map(self, *, mask: Bitboard = BB_ALL) -> Dict[Square, Piece]:
        pos = self._pos
        return {sq: _PIECES[_c.chess_position_piece_at(pos, sq)] for sq in _squares_of(_c.chess_position_occupancy(pos) & mask)}  # type: ignore[misc]

    def king(self, color: Color) -> Optional[Square]:
        sq = _c.chess_position_king_square(self._pos, 0 if color else 1)
        return None if sq < 0 else sq

    def attackers_mask(self, color: Color, sq: Square) -> Bitboard:
        return _c.chess_position_attackers_to(self._pos, sq, 0 if color else 1)  # type: ignore[no-any-return]

    def attackers(self, color: Color, sq: Square) -> SquareSet:
        return SquareSet(self.attackers_mask(color, sq))

    def is_attacked_by(self, color: Color, sq: Square) -> bool:
        return bool(self.attackers_mask(color, sq))

    def attacks_mask(self, sq: Square) -> Bitboard:
        return _c.chess_position_attacks(self._pos, sq)  # type: ignore[no-any-return]

    def attacks(self, sq: Square) -> SquareSet:
        """The squares the piece on ``sq`` attacks."""
        return SquareSet(self.attacks_mask(sq))

    def pin_mask(self, color: Color, sq: Square) -> Bitboard:
        return _c.chess_position_pin(self._pos, 0 if color else 1, sq) or BB_ALL

    def pin(self, color: Color, sq: Square) -> SquareSet:
        """The line a pin to its king holds the piece of ``color`` on ``sq`` to; every square
        when it is not pinned."""
        return SquareSet(self.pin_mask(color, sq))

    def is_pinned(self, color: Color, sq: Square) -> bool:
        return bool(_c.chess_position_pin(self._pos, 0 if color else 1, sq))

    def checkers_mask(self) -> Bitboard:
        return _c.chess_position_checkers(self._pos)  # type: ignore[no-any-return]

    def checkers(self) -> SquareSet:
        return SquareSet(self.checkers_mask())

    # -- moves

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        return LegalMoveGenerator(self)

    @property
    def pseudo_legal_moves(self) -> PseudoLegalMoveGenerator:
        return PseudoLegalMoveGenerator(self)

    def generate_legal_moves(self) -> Iterator[Move]:
        return iter(self._legal_list())

    def _legal_list(self) -> List[Move]:
        """The legal moves (a list kept until the position changes: do not change it)."""
        legal = self._legal
        if legal is None:
            buf = (ctypes.c_uint16 * MAX_MOVES)()
            raws = self._raws = buf[: _c.chess_legal_moves(self._pos, buf, MAX_MOVES)]
            legal = self._legal = list(map(_MOVES[self._chess960].__getitem__, raws))
        return legal

    def _san_table(self) -> Dict[int, str]:
        """The SAN of every legal move by its encoding, from one call."""
        self._legal_list()
        buf = ctypes.create_string_buffer(MAX_MOVES * _native.SAN_MAX)
        _native.check(_c.chess_legal_moves_san(self._pos, buf, len(buf), None))
        sans = self._sans = dict(zip(self._raws, buf.value.decode("ascii").split(" ")))  # type: ignore[arg-type]
        return sans

    def _raw(self, move: Move) -> Optional[int]:
        """The library's encoding of ``move`` when it is legal here, else None."""
        raw = move._raw
        if raw and _c.chess_position_is_legal(self._pos, raw):
            return raw
        if not move:
            return None
        out = ctypes.c_uint16()
        if _c.chess_move_from_uci(self._pos, move.uci().encode(), ctypes.byref(out)):
            return None
        return out.value

    def is_legal(self, move: Move) -> bool:
        return self._raw(move) is not None

    def is_pseudo_legal(self, move: Move) -> bool:
        return move in self.pseudo_legal_moves

    def push(self, move: Move) -> None:
        """Plays a legal move, or the null move (python-chess plays whatever it is given; this
        raises IllegalMoveError for an illegal move and leaves the board as it was)."""
        raw = move._raw
        if raw is None or _game_push(self._handle or self._game, raw):
            self._push_resolved(move)
        self._cur = self._legal = self._sans = self._outcome = None
        self.move_stack.append(move)

    def _push_resolved(self, move: Move) -> None:
        """Plays a move the library's encoding on it did not play: one built by hand, from
        another position, or the null move (which the game allows from its first one on)."""
        if not move:
            _c.chess_game_set_allow_null_moves(self._game, True)
            raw: Optional[int] = 0
        else:
            raw = self._raw(move)
        if raw is None or _c.chess_game_push(self._game, raw):
            raise self._error(ErrorCode.ILLEGAL_MOVE, move.uci(), "move")

    def pop(self) -> Move:
        """Takes back the last move (IndexError when there is none)."""
        stack = self.move_stack
        if not stack:
            raise IndexError("pop from empty move stack")
        code = _game_pop(self._handle or self._game, None)
        if code:
            _native.check(code)
        self._cur = self._legal = self._sans = self._outcome = None
        return stack.pop()

    def peek(self) -> Move:
        """The last move (IndexError when there is none)."""
        return self.move_stack[-1]

    def find_move(self, from_square: Square, to_square: Square, promotion: Optional[PieceType] = None) -> Move:
        """The legal move from and to the squares (a queen promotion by default); raises
        IllegalMoveError when there is none."""
        pieces = _c.chess_position_pieces(self._pos, 0 if self.turn else 1, PAWN)
        if promotion is None and pieces >> from_square & 1 and BB_BACKRANKS >> to_square & 1:
            promotion = QUEEN
        move = Move(from_square, to_square, promotion)
        if not self.is_legal(move):
            raise self._error(ErrorCode.ILLEGAL_MOVE, move.uci(), "move")
        return move

    def parse_uci(self, uci: str) -> Move:
        """The legal move a UCI text names (InvalidMoveError for bad syntax, IllegalMoveError
        when not legal here); ``0000`` is the null move."""
        out = ctypes.c_uint16()
        code = _c.chess_move_from_uci(self._pos, uci.encode("ascii", "replace"), ctypes.byref(out))
        if code:
            raise self._error(code, uci, "uci")
        return _move_of(out.value, self._chess960) if out.value else Move.null()

    def push_uci(self, uci: str) -> Move:
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def parse_san(self, san: str) -> Move:
        """The legal move a SAN names, read as python-chess reads it; ``--`` (also ``Z0``,
        ``0000``, ``@@@@``) is the null move, even in check."""
        if san in _NULL_SANS:
            return Move.null()
        out = ctypes.c_uint16()
        code = _c.chess_move_from_san_with(self._pos, san.encode("utf-8", "replace"), _native.SAN_ALLOW_NULL, ctypes.byref(out))
        if code:
            raise self._error(code, san, "san")
        return _move_of(out.value, self._chess960) if out.value else Move.null()

    def push_san(self, san: str) -> Move:
        out = self._out
        if _game_push_san(self._handle or self._game, san.encode("utf-8", "replace"), out):
            move = self.parse_san(san)  # raises as parse_san does, or gives the null move
            self.push(move)
            return move
        move = _MOVES[self._chess960][out.value]
        self._cur = self._legal = self._sans = self._outcome = None
        self.move_stack.append(move)
        return move

    def san(self, move: Move) -> str:
        """The SAN of a legal move (``--`` for the null move), with its ``+`` or ``#``."""
        sans = self._sans
        if sans is None:
            sans = self._san_table()
        san = sans.get(move._raw)  # type: ignore[arg-type]
        if san is None:
            if not move:
                return "--"
            raw = self._raw(move)
            if raw is None:
                raise self._error(ErrorCode.ILLEGAL_MOVE, move.uci(), "move")
            san = sans[raw]
        return san

    def lan(self, move: Move) -> str:
        """The long algebraic notation: the piece, both squares, ``-`` or ``x`` (``Ng1-f3``)."""
        san = self.san(move)
        if not move or san.startswith("O-O"):
            return san
        piece = self.piece_at(move.from_square)
        letter = "" if piece is None or piece.piece_type == PAWN else piece.symbol().upper()
        capture = "x" if self.is_capture(move) else "-"
        promotion = "=" + piece_symbol(move.promotion).upper() if move.promotion else ""
        suffix = san[-1] if san[-1] in "+#" else ""
        return f"{letter}{SQUARE_NAMES[move.from_square]}{capture}{SQUARE_NAMES[move.to_square]}{promotion}{suffix}"

    def variation_san(self, variation: Iterable[Move]) -> str:
        """A line of moves from this position in SAN with move numbers (``1. e4 e5 2. Nf3``);
        IllegalMoveError at the first illegal one."""
        board = self.copy(stack=False)
        out = []
        for move in variation:
            if not board.is_legal(move):
                raise IllegalMoveError(ErrorCode.ILLEGAL_MOVE, f"illegal move {move.uci()!r} in position {board.fen()}")
            if board.turn == WHITE:
                out.append(f"{board.fullmove_number}. {board.san(move)}")
            elif not out:
                out.append(f"{board.fullmove_number}...{board.san(move)}")
            else:
                out.append(board.san(move))
            board.push(move)
        return " ".join(out)

    def is_capture(self, move: Move) -> bool:
        """A capture: the destination holds an enemy piece, or the move takes en passant."""
        code = _c.chess_position_piece_at(self._pos, move.to_square)
        if code and (code < 8) != self.turn:
            return True
        return self.is_en_passant(move)

    def is_en_passant(self, move: Move) -> bool:
        raw = self._raw(move)
        return raw is not None and _c.chess_move_kind_of(raw) == MoveKind.EN_PASSANT

    def is_castling(self, move: Move) -> bool:
        raw = self._raw(move)
        return raw is not None and _c.chess_move_kind_of(raw) == MoveKind.CASTLING

    def is_kingside_castling(self, move: Move) -> bool:
        return self.is_castling(move) and square_file(move.to_square) > square_file(move.from_square)

    def is_queenside_castling(self, move: Move) -> bool:
        return self.is_castling(move) and square_file(move.to_square) < square_file(move.from_square)

    def is_zeroing(self, move: Move) -> bool:
        """A capture or a pawn move: one that resets the fifty-move clock."""
        pawns = _c.chess_position_pieces(self._pos, 0 if self.turn else 1, PAWN)
        return bool(pawns >> move.from_square & 1) or self.is_capture(move)

    def gives_check(self, move: Move) -> bool:
        """Whether a legal move checks the other king."""
        raw = self._raw(move)
        return raw is not None and bool(_c.chess_position_gives_check(self._pos, raw))

    def is_into_check(self, move: Move) -> bool:
        """Whether a move of the side to move's pieces would leave its own king in check: a
        pseudo-legal move that is not legal."""
        return self.is_pseudo_legal(move) and not self.is_legal(move)

    # -- status

    def is_check(self) -> bool:
        return _c.chess_position_in_check(self._pos)  # type: ignore[no-any-return]

    def is_checkmate(self) -> bool:
        outcome = self._outcome
        if outcome is None:
            outcome = self._outcome = _c.chess_game_outcome(self._handle or self._game)
        return outcome.termination == 1  # type: ignore[no-any-return] # CHESS_TERMINATION_CHECKMATE

    def is_stalemate(self) -> bool:
        return _c.chess_position_is_stalemate(self._pos)  # type: ignore[no-any-return]

    def is_insufficient_material(self) -> bool:
        return _c.chess_position_is_insufficient_material(self._pos)  # type: ignore[no-any-return]

    # python-chess's move-count rules hold only while a move can be played: a mate or
    # stalemate on the 150th half-move is that, not also a seventy-five-move draw.
    def is_seventyfive_moves(self) -> bool:
        return _c.chess_position_is_seventy_five_moves(self._pos) and self.legal_moves.count() > 0

    def is_fifty_moves(self) -> bool:
        return _c.chess_position_is_fifty_moves(self._pos) and self.legal_moves.count() > 0

    def can_claim_fifty_moves(self) -> bool:
        return _c.chess_position_can_claim_fifty_moves(self._pos)  # type: ignore[no-any-return]

    def is_fivefold_repetition(self) -> bool:
        return _c.chess_game_is_fivefold_repetition(self._game)  # type: ignore[no-any-return]

    def can_claim_threefold_repetition(self) -> bool:
        return _c.chess_game_can_claim_threefold_repetition(self._game)  # type: ignore[no-any-return]

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position occurred ``count`` times (this time included)."""
        return _c.chess_game_repetition_count(self._game) >= count  # type: ignore[no-any-return]

    def can_claim_draw(self) -> bool:
        return self.can_claim_fifty_moves() or self.can_claim_threefold_repetition()

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """How the game ended (checkmate, stalemate, insufficient material, seventy-five moves,
        fivefold repetition; with ``claim_draw`` also a fifty-move or threefold claim), else None."""
        outcome = self._outcome
        if outcome is None:
            outcome = self._outcome = _c.chess_game_outcome(self._handle or self._game)
        if outcome.result:
            return Outcome(Termination(outcome.termination), _WINNERS[outcome.result])
        if claim_draw:
            if self.can_claim_fifty_moves():
                return Outcome(Termination.FIFTY_MOVES, None)
            if self.can_claim_threefold_repetition():
                return Outcome(Termination.THREEFOLD_REPETITION, None)
        return None

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self, *, claim_draw: bool = False) -> str:
        outcome = self.outcome(claim_draw=claim_draw)
        return "*" if outcome is None else outcome.result()

    def status(self) -> Status:
        """Always ``STATUS_VALID``: the library holds valid positions only."""
        return Status.VALID

    def is_valid(self) -> bool:
        return True

    # -- copies and comparison

    def copy(self, *, stack: object = True) -> Board:
        """A copy; with ``stack=False`` (or 0) without the moves that led here."""
        if stack is False or stack == 0:
            start = _copy_position(self._pos)
            return Board._of_game(_c.chess_game_new(ctypes.byref(start)), self._chess960, [])
        if stack is True:
            return Board._of_game(_c.chess_game_clone(self._game), self._chess960, list(self.move_stack))
        # The last `stack` moves: a game from the position before them.
        kept = self.move_stack[-int(stack) :]  # type: ignore[call-overload]
        board = self._before(len(kept))
        for move in kept:
            board.push(move)
        return board

    def _before(self, plies: int) -> Board:
        at = _c.chess_game_ply_count(self._game) - plies
        start = _copy_position(_c.chess_game_position_at(self._game, at))
        return Board._of_game(_c.chess_game_new(ctypes.byref(start)), self._chess960, [])

    def root(self) -> Board:
        """The position before the first move of the stack."""
        return self._before(len(self.move_stack))

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> Board:
        return self.copy()

    def mirror(self) -> Board:
        """The board flipped top to bottom with the colours swapped (no move stack)."""
        mirrored = _native.Position()
        _c.chess_position_mirror(self._pos, ctypes.byref(mirrored))
        return Board._of_game(_c.chess_game_new(ctypes.byref(mirrored)), self._chess960, [])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.fen(shredder=True) == other.fen(shredder=True)

    __hash__ = None  # type: ignore[assignment]


class _MoveGenerator:
    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def _list(self) -> List[Move]:
        raise NotImplementedError  # each generator says which moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._list())

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return self.count() > 0

    def count(self) -> int:
        return len(self._list())

    def __repr__(self) -> str:
        sans = ", ".join(self._board.san(move) if self._board.is_legal(move) else move.uci() for move in self)
        return f"<{type(self).__name__} at {id(self):#x} ({sans})>"


class LegalMoveGenerator(_MoveGenerator):
    """``board.legal_moves``: the legal moves, computed at each use (len, in, iteration)."""

    __slots__ = ()

    def _list(self) -> List[Move]:
        return self._board._legal_list()

    def count(self) -> int:
        board = self._board
        if board._legal is not None:
            return len(board._legal)
        return _c.chess_legal_moves(board._pos, None, 0)  # type: ignore[no-any-return]

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)


class PseudoLegalMoveGenerator(_MoveGenerator):
    """``board.pseudo_legal_moves``: moves by the pieces' rules, the own king left in check
    possibly."""

    __slots__ = ()

    def _list(self) -> List[Move]:
        board = self._board
        buf = (ctypes.c_uint16 * MAX_MOVES)()
        n = _c.chess_pseudo_legal_moves(board._pos, buf, MAX_MOVES)
        table = _MOVES[board._chess960]
        return [table[raw] for raw in buf[:n]]

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move in self._list()



__all__ += ["BB_BACKRANKS", "BB_CORNERS", "BB_DARK_SQUARES", "BB_LIGHT_SQUARES", "STATUS_VALID"]
__all__ += ["BB_" + name.upper() for name in SQUARE_NAMES]
