"""python-chess's colours, piece types, squares, bitboards and ``SquareSet``: plain Python
values, no call into the library."""

from __future__ import annotations

from typing import Iterator, List

from .. import types as _types


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
        return iter(_types.squares_of(self.mask))

    def __reversed__(self) -> Iterator[Square]:
        return reversed(_types.squares_of(self.mask))

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
