"""python-chess's colours, piece types, squares, bitboards and ``SquareSet``.

Bitboards are plain ints (bit i = square i). What a piece attacks, the squares between two and
the line through them come from the library (``chess_bitboard_*``); the rest is bit arithmetic
on ints. The big lookup tables are ``_tables``'.

    >>> import chesscore.compat as chess
    >>> chess.SquareSet(chess.BB_KNIGHT_ATTACKS[chess.G1])
    SquareSet(0x0000_0000_00a0_1000)
    >>> chess.square_name(chess.msb(chess.between(chess.A1, chess.D4)))
    'c3'
"""

from __future__ import annotations

import operator

from typing import Callable, Iterable, Iterator, List, Literal, SupportsInt, Union

from .._native import by_address as _c

Color = bool
PieceType = int
Square = int
Bitboard = int
IntoSquareSet = Union[SupportsInt, Iterable[int]]
ColorName = Literal["white", "black"]
EnPassantSpec = Literal["legal", "fen", "xfen"]

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
# The squares seen from Black's side: a8 first.
SQUARES_180 = [sq ^ 0x38 for sq in SQUARES]

BB_EMPTY = 0
BB_ALL = 0xFFFF_FFFF_FFFF_FFFF
BB_SQUARES = [1 << sq for sq in SQUARES]
BB_FILES = [0x0101_0101_0101_0101 << f for f in range(8)]
BB_RANKS = [0xFF << (8 * r) for r in range(8)]
BB_LIGHT_SQUARES = 0x55AA_55AA_55AA_55AA
BB_DARK_SQUARES = 0xAA55_AA55_AA55_AA55
BB_CORNERS = BB_SQUARES[A1] | BB_SQUARES[H1] | BB_SQUARES[A8] | BB_SQUARES[H8]
BB_CENTER = BB_SQUARES[D4] | BB_SQUARES[E4] | BB_SQUARES[D5] | BB_SQUARES[E5]
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
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


def square_manhattan_distance(a: Square, b: Square) -> int:
    """Steps along ranks and files from ``a`` to ``b``."""
    return abs((a & 7) - (b & 7)) + abs((a >> 3) - (b >> 3))


def square_knight_distance(a: Square, b: Square) -> int:
    """Moves a knight needs from ``a`` to ``b`` (a table made on first use)."""
    return (_KNIGHT_DISTANCES or _knight_distances())[a][b]


_KNIGHT_DISTANCES: List[List[int]] = []


def _knight_distances() -> List[List[int]]:
    """By pair of squares, the knight moves between them: the library's knight jumps spread
    from each square, one move at a time, until they cover the board."""
    for start in SQUARES:
        distances = [0] * 64
        reached, moves = BB_SQUARES[start], 0
        while reached != BB_ALL:
            moves += 1
            spread = reached
            for sq in scan_forward(reached):
                spread |= BB_KNIGHT_ATTACKS[sq]
            for sq in scan_forward(spread & ~reached):
                distances[sq] = moves
            reached = spread
        _KNIGHT_DISTANCES.append(distances)
    return _KNIGHT_DISTANCES


def square_mirror(sq: Square) -> Square:
    """The square on the same file, other side of the board."""
    return sq ^ 0x38


# -- bit scans


def lsb(bb: Bitboard) -> int:
    """The lowest square of ``bb`` (-1 for none)."""
    return (bb & -bb).bit_length() - 1


def msb(bb: Bitboard) -> int:
    """The highest square of ``bb`` (-1 for none)."""
    return bb.bit_length() - 1


def scan_forward(bb: Bitboard) -> Iterator[Square]:
    """The squares of ``bb``, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def scan_reversed(bb: Bitboard) -> Iterator[Square]:
    """The squares of ``bb``, highest first."""
    while bb:
        sq = bb.bit_length() - 1
        yield sq
        bb ^= 1 << sq


def popcount(bb: Bitboard) -> int:
    """The number of set bits (of the magnitude, for a negative int)."""
    return bin(bb).count("1")


if hasattr(int, "bit_count"):  # Python 3.10 on: the same count, a builtin (TypeError for a non-int)
    popcount = int.bit_count  # type: ignore[assignment,attr-defined,unused-ignore] # noqa: F811


# -- flips: each a fixed sequence of masked swaps


def flip_vertical(bb: Bitboard) -> Bitboard:
    """Rank 1 swapped with rank 8, 2 with 7, ..."""
    return int.from_bytes((operator.index(bb) & BB_ALL).to_bytes(8, "little"), "big")


def flip_horizontal(bb: Bitboard) -> Bitboard:
    """File a swapped with file h, b with g, ...: neighbouring bits, pairs, then nibbles swap."""
    bb = operator.index(bb)
    bb = ((bb >> 1) & 0x5555_5555_5555_5555) | ((bb & 0x5555_5555_5555_5555) << 1)
    bb = ((bb >> 2) & 0x3333_3333_3333_3333) | ((bb & 0x3333_3333_3333_3333) << 2)
    return ((bb >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((bb & 0x0F0F_0F0F_0F0F_0F0F) << 4)


def flip_diagonal(bb: Bitboard) -> Bitboard:
    """Mirrored in the a1-h8 diagonal (file and rank exchanged): the off-diagonal 4x4 blocks,
    then 2x2 blocks, then single squares swap."""
    bb = operator.index(bb)
    moved = 0x0F0F_0F0F_0000_0000 & (bb ^ (bb << 28))
    bb ^= moved ^ (moved >> 28)
    moved = 0x3333_0000_3333_0000 & (bb ^ (bb << 14))
    bb ^= moved ^ (moved >> 14)
    moved = 0x5500_5500_5500_5500 & (bb ^ (bb << 7))
    return bb ^ moved ^ (moved >> 7)


def flip_anti_diagonal(bb: Bitboard) -> Bitboard:
    """Mirrored in the a8-h1 diagonal: the a1-h8 mirror turned half a turn."""
    return flip_vertical(flip_horizontal(flip_diagonal(bb)))


# -- shifts: the whole set one or two steps, squares leaving the board dropped


def shift_down(b: Bitboard) -> Bitboard:
    return b >> 8


def shift_2_down(b: Bitboard) -> Bitboard:
    return b >> 16


def shift_up(b: Bitboard) -> Bitboard:
    return (b << 8) & BB_ALL


def shift_2_up(b: Bitboard) -> Bitboard:
    return (b << 16) & BB_ALL


def shift_right(b: Bitboard) -> Bitboard:
    return (b << 1) & ~BB_FILE_A & BB_ALL


def shift_2_right(b: Bitboard) -> Bitboard:
    return (b << 2) & ~(BB_FILE_A | BB_FILE_B) & BB_ALL


def shift_left(b: Bitboard) -> Bitboard:
    return (b >> 1) & ~BB_FILE_H


def shift_2_left(b: Bitboard) -> Bitboard:
    return (b >> 2) & ~(BB_FILE_G | BB_FILE_H)


def shift_up_left(b: Bitboard) -> Bitboard:
    return (b << 7) & ~BB_FILE_H & BB_ALL


def shift_up_right(b: Bitboard) -> Bitboard:
    return (b << 9) & ~BB_FILE_A & BB_ALL


def shift_down_left(b: Bitboard) -> Bitboard:
    return (b >> 9) & ~BB_FILE_H


def shift_down_right(b: Bitboard) -> Bitboard:
    return (b >> 7) & ~BB_FILE_A


# -- attack tables, from the library's attacks

_attacks = _c.chess_bitboard_attacks
# chess_piece codes: the kind, plus 8 for Black.
_WHITE_PAWN, _KNIGHT, _BISHOP, _ROOK, _KING, _BLACK_PAWN = 1, 2, 3, 4, 6, 9

BB_KNIGHT_ATTACKS = [_attacks(_KNIGHT, sq, 0) for sq in SQUARES]
BB_KING_ATTACKS = [_attacks(_KING, sq, 0) for sq in SQUARES]
# By colour: BB_PAWN_ATTACKS[BLACK] (index 0) then BB_PAWN_ATTACKS[WHITE].
BB_PAWN_ATTACKS = [[_attacks(pawn, sq, 0) for sq in SQUARES] for pawn in (_BLACK_PAWN, _WHITE_PAWN)]


def _inner(sq: Square) -> Bitboard:
    """The board less its edges, except those ``sq`` stands on: a slider's attacks never
    depend on whether an edge square is occupied."""
    edges = ((BB_RANK_1 | BB_RANK_8) & ~BB_RANKS[square_rank(sq)]) | ((BB_FILE_A | BB_FILE_H) & ~BB_FILES[square_file(sq)])
    return ~edges & BB_ALL


# The squares whose occupancy decides a slider's attacks from each square, along diagonals,
# the file and the rank (python-chess's keys for the tables below).
BB_DIAG_MASKS = [_attacks(_BISHOP, sq, 0) & _inner(sq) for sq in SQUARES]
BB_FILE_MASKS = [_attacks(_ROOK, sq, 0) & BB_FILES[square_file(sq)] & _inner(sq) for sq in SQUARES]
BB_RANK_MASKS = [_attacks(_ROOK, sq, 0) & BB_RANKS[square_rank(sq)] & _inner(sq) for sq in SQUARES]


def _subsets(mask: Bitboard) -> Iterator[Bitboard]:
    """Every subset of ``mask``, from the empty one up (the carry-rippler enumeration)."""
    subset = 0
    while True:
        yield subset
        subset = (subset - mask) & mask
        if not subset:
            return


def _by_pair(table: List[List[Bitboard]], of: Callable[[Square, Square], Bitboard]) -> List[List[Bitboard]]:
    """``table`` filled with ``of(a, b)`` for every pair of squares, the first time."""
    table.extend([of(a, b) for b in SQUARES] for a in SQUARES)
    return table


_LINES: List[List[Bitboard]] = []
_BETWEEN: List[List[Bitboard]] = []


def ray(a: Square, b: Square) -> Bitboard:
    """The line, edge to edge, through ``a`` and ``b`` (0 when they share none), from the
    library's lines (a table made on first use). Squares index as python-chess's table does:
    -1 is h8, 64 an IndexError."""
    return (_LINES or _by_pair(_LINES, _c.chess_bitboard_line))[a][b]


def between(a: Square, b: Square) -> Bitboard:
    """The squares strictly between ``a`` and ``b`` (0 when they share no line), as ``ray``.
    A square past h8 raises IndexError, a negative one ValueError, as python-chess's."""
    if a < 0 or b < 0:
        raise ValueError(f"negative square: {min(a, b)}")
    return (_BETWEEN or _by_pair(_BETWEEN, _c.chess_bitboard_between))[a][b]


class SquareSet:
    """A set of squares over a 64-bit mask (bit i = square i), as python-chess's: built from
    an int (or anything ``int()`` takes) or from squares; the set operations take the same.

    >>> import chesscore.compat as chess
    >>> squares = chess.SquareSet([chess.A8, chess.A1])
    >>> squares
    SquareSet(0x0100_0000_0000_0001)
    >>> len(squares), chess.A1 in squares, list(squares | chess.BB_B1)
    (2, True, [0, 1, 56])
    """

    __slots__ = ("mask",)

    def __init__(self, squares: IntoSquareSet = BB_EMPTY) -> None:
        # Anything with __int__ is a mask (python-chess's SupportsInt), without the protocol
        # check's cost; anything else is squares.
        if type(squares) is int or hasattr(type(squares), "__int__"):
            self.mask = int(squares) & BB_ALL  # type: ignore[arg-type]
            return
        mask = 0
        for sq in squares:  # type: ignore[union-attr]
            mask |= BB_SQUARES[sq]
        self.mask = mask

    @classmethod
    def from_square(cls, sq: Square) -> SquareSet:
        return cls(BB_SQUARES[sq])

    @classmethod
    def ray(cls, a: Square, b: Square) -> SquareSet:
        return cls(ray(a, b))

    @classmethod
    def between(cls, a: Square, b: Square) -> SquareSet:
        return cls(between(a, b))

    # -- set

    def __contains__(self, sq: Square) -> bool:
        return bool(BB_SQUARES[sq] & self.mask)

    def __iter__(self) -> Iterator[Square]:
        bb = self.mask
        while bb:
            low = bb & -bb
            yield low.bit_length() - 1
            bb ^= low

    def __reversed__(self) -> Iterator[Square]:
        return scan_reversed(self.mask)

    def __len__(self) -> int:
        return popcount(self.mask)  # type: ignore[no-any-return,unused-ignore]

    def add(self, sq: Square) -> None:
        self.mask |= BB_SQUARES[sq]

    def discard(self, sq: Square) -> None:
        self.mask &= ~BB_SQUARES[sq]

    def remove(self, sq: Square) -> None:
        bit = BB_SQUARES[sq]
        if not self.mask & bit:
            raise KeyError(sq)
        self.mask ^= bit

    def pop(self) -> Square:
        """Takes out the lowest square (KeyError when the set is empty)."""
        if not self.mask:
            raise KeyError("pop from empty SquareSet")
        sq = lsb(self.mask)
        self.mask &= self.mask - 1
        return sq

    def clear(self) -> None:
        self.mask = BB_EMPTY

    def copy(self) -> SquareSet:
        return SquareSet(self.mask)

    def carry_rippler(self) -> Iterator[Bitboard]:
        """Every subset of the set as a mask, the empty one first."""
        return _subsets(self.mask)

    def tolist(self) -> List[bool]:
        mask = self.mask
        return [bool(mask >> sq & 1) for sq in SQUARES]

    def mirror(self) -> SquareSet:
        """The set flipped top to bottom."""
        return SquareSet(flip_vertical(self.mask))

    def isdisjoint(self, other: IntoSquareSet) -> bool:
        return not self.mask & _mask(other)

    def issubset(self, other: IntoSquareSet) -> bool:
        return not self.mask & ~_mask(other)

    def issuperset(self, other: IntoSquareSet) -> bool:
        return not ~self.mask & _mask(other)

    def union(self, other: IntoSquareSet) -> SquareSet:
        return self | other

    def intersection(self, other: IntoSquareSet) -> SquareSet:
        return self & other

    def difference(self, other: IntoSquareSet) -> SquareSet:
        return self - other

    def symmetric_difference(self, other: IntoSquareSet) -> SquareSet:
        return self ^ other

    def update(self, *others: IntoSquareSet) -> None:
        for other in others:
            self.mask |= _mask(other)

    def intersection_update(self, *others: IntoSquareSet) -> None:
        for other in others:
            self.mask &= _mask(other)

    def difference_update(self, other: IntoSquareSet) -> None:
        self.mask &= ~_mask(other)

    def symmetric_difference_update(self, other: IntoSquareSet) -> None:
        self.mask ^= _mask(other)

    def __or__(self, other: IntoSquareSet) -> SquareSet:
        return _of(self.mask | _mask(other))

    def __and__(self, other: IntoSquareSet) -> SquareSet:
        return _of(self.mask & _mask(other))

    def __xor__(self, other: IntoSquareSet) -> SquareSet:
        return _of(self.mask ^ _mask(other))

    def __sub__(self, other: IntoSquareSet) -> SquareSet:
        return _of(self.mask & ~_mask(other))

    def __invert__(self) -> SquareSet:
        return _of(~self.mask & BB_ALL)

    def __ior__(self, other: IntoSquareSet) -> SquareSet:
        self.mask |= _mask(other)
        return self

    def __iand__(self, other: IntoSquareSet) -> SquareSet:
        self.mask &= _mask(other)
        return self

    def __isub__(self, other: IntoSquareSet) -> SquareSet:
        self.mask &= ~_mask(other)
        return self

    def __ixor__(self, other: IntoSquareSet) -> SquareSet:
        self.mask ^= _mask(other)
        return self

    def __lshift__(self, shift: int) -> SquareSet:
        return SquareSet(self.mask << shift)

    def __rshift__(self, shift: int) -> SquareSet:
        return SquareSet(self.mask >> shift)

    def __ilshift__(self, shift: int) -> SquareSet:
        self.mask = (self.mask << shift) & BB_ALL
        return self

    def __irshift__(self, shift: int) -> SquareSet:
        self.mask >>= shift
        return self

    # -- int and comparisons

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        try:
            return self.mask == _mask(other)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return NotImplemented

    # A mutable set: not hashable (python-chess's is not either).
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SquareSet({self.mask:#021_x})"

    def __str__(self) -> str:
        """The set drawn as a board: ``1`` on its squares, ``.`` elsewhere, rank 8 first."""
        bits = f"{self.mask:064b}".replace("0", ".")  # h8 first: each rank's files reversed
        return "\n".join(" ".join(bits[i + 7 : i - 1 if i else None : -1]) for i in range(0, 64, 8))


def _mask(squares: IntoSquareSet) -> int:
    """The 64-bit mask of a SquareSet, an int or squares."""
    if type(squares) is SquareSet:
        return squares.mask
    if type(squares) is int:
        return squares & BB_ALL
    return SquareSet(squares).mask


def _of(mask: Bitboard) -> SquareSet:
    """A SquareSet of a mask already within 64 bits, without ``__init__``'s checks."""
    squares = object.__new__(SquareSet)
    squares.mask = mask
    return squares
