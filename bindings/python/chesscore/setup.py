"""Editable setups: any board, valid position or not, held by value in a ``chess_setup``
structure, with python-chess's queries on it (status flags, attackers, pins, moves)."""

from __future__ import annotations

import ctypes
import enum
from typing import Iterator, List, Optional, Union

from . import _args, _native
from ._native import MAX_MOVES, lib
from .errors import is_fen_code, raise_for
from .position import Position, _FEN_CASTLING, _FEN_EN_PASSANT
from .types import Move, Piece, c_color, c_piece_type, checked_color, raw_of, square

Square = Union[int, str]


class SetupStatus(enum.IntFlag):
    """What keeps a setup from being a valid position: python-chess's ``STATUS_*`` bits."""

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
    TOO_MANY_CHECKERS = 1 << 15
    IMPOSSIBLE_CHECK = 1 << 16


def _piece_code(piece: Optional[Piece]) -> int:
    """The chess_piece of a Piece (0 for None)."""
    if piece is None:
        return 0
    piece = _args.of_type(piece, Piece, "piece")
    return piece.piece_type | (0 if piece.color else 8)


# The fields of chess_setup besides the board (compared one by one: the padding between them
# holds anything).
_FIELDS = ("castling_rooks", "halfmove_clock", "fullmove_number", "turn", "en_passant", "chess960")


class Setup:
    """A board that need not be a valid position: any pieces on any squares, any castling
    rights (as a mask of rook squares), en passant square, side to move and clocks. A
    structure whose fields were written out of range directly (not through the setters) gives
    empty answers and InvalidArgumentError from the calls that return an error.
    ``status()`` tells what keeps it from being a position and ``position()`` builds the
    position; the queries and moves work on any board, as python-chess's ``Board`` does.
    ``Setup()`` is empty (White to move, ``0 1``)."""

    __slots__ = ("_s",)

    def __init__(self) -> None:
        self._s = _native.Setup()
        self._s.fullmove_number = 1
        self._s.en_passant = -1

    @classmethod
    def _wrap(cls, s: _native.Setup) -> Setup:
        setup = cls.__new__(cls)
        setup._s = s
        return setup

    @classmethod
    def from_position(cls, pos: Position) -> Setup:
        """The setup of a position (its Chess960 mode included)."""
        s = _native.Setup()
        _native.check(lib.chess_setup_from_position(_args.of_type(pos, Position, "position")._pos, s))
        return cls._wrap(s)

    @classmethod
    def from_fen(cls, fen: str, chess960: bool = False) -> Setup:
        """Reads a FEN for its syntax alone (FenError with the offset of a syntax fault); the
        position may be anything a FEN can write, two kings or bad castling rights included."""
        s = _native.Setup()
        info = _native.FenInfo(size=ctypes.sizeof(_native.FenInfo))
        flags = _args.flag(chess960, "chess960", _native.FEN_CHESS960)
        code = lib.chess_setup_from_fen(_args.text(fen, "fen"), flags, s, ctypes.byref(info))
        if code:
            raise_for(code, offset=info.error_offset if is_fen_code(code) else None)
        return cls._wrap(s)

    def copy(self) -> Setup:
        return Setup._wrap(_native.Setup.from_buffer_copy(self._s))

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> Setup:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Setup):
            return NotImplemented
        return all(getattr(self._s, name) == getattr(other._s, name) for name in _FIELDS) and list(
            self._s.board
        ) == list(other._s.board)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Setup.from_fen({self.fen(en_passant='as_recorded')!r}{', chess960=True' if self.chess960 else ''})"

    # -- fields

    @property
    def turn(self) -> bool:
        """The side to move: WHITE (True) or BLACK (False)."""
        return bool(self._s.turn == 0)

    @turn.setter
    def turn(self, color: bool) -> None:
        self._s.turn = c_color(color)

    @property
    def castling_rooks(self) -> int:
        """The castling rights as a mask of the squares of their rooks (bit ``1 << square``)."""
        return int(self._s.castling_rooks)

    @castling_rooks.setter
    def castling_rooks(self, mask: int) -> None:
        self._s.castling_rooks = _args.integer(mask, "castling rooks", 0, 2**64 - 1)

    @property
    def en_passant(self) -> Optional[int]:
        """The en passant square as recorded, or None."""
        return None if self._s.en_passant < 0 else int(self._s.en_passant)

    @en_passant.setter
    def en_passant(self, sq: Optional[Square]) -> None:
        self._s.en_passant = -1 if sq is None else square(sq)

    @property
    def halfmove_clock(self) -> int:
        return int(self._s.halfmove_clock)

    @halfmove_clock.setter
    def halfmove_clock(self, value: int) -> None:
        self._s.halfmove_clock = _args.integer(value, "halfmove clock", 0, 2**32 - 1)

    @property
    def fullmove_number(self) -> int:
        return int(self._s.fullmove_number)

    @fullmove_number.setter
    def fullmove_number(self, value: int) -> None:
        self._s.fullmove_number = _args.integer(value, "fullmove number", 0, 2**32 - 1)

    @property
    def chess960(self) -> bool:
        """Chess960 castling rules (king and rooks anywhere on the back rank)."""
        return bool(self._s.chess960)

    @chess960.setter
    def chess960(self, value: bool) -> None:
        self._s.chess960 = int(_args.of_type(value, bool, "chess960"))

    # -- pieces

    def piece_at(self, sq: Square) -> Optional[Piece]:
        """The Piece on a square (an index or a name), else None."""
        return Piece._from_c(self._s.board[square(sq)])

    def set_piece_at(self, sq: Square, piece: Optional[Piece]) -> None:
        """Puts a piece on a square, replacing what stood there; None empties it."""
        self._s.board[square(sq)] = _piece_code(piece)

    def pieces_mask(self, piece_type: int, color: bool) -> int:
        """The squares of the pieces of a type and colour, as a mask."""
        code = c_piece_type(piece_type) | (0 if checked_color(color) else 8)
        return _mask(i for i, c in enumerate(self._s.board) if c == code)

    def occupied_co(self, color: bool) -> int:
        """The squares of the pieces of a colour, as a mask."""
        black = 0 if checked_color(color) else 8
        return _mask(i for i, c in enumerate(self._s.board) if c and c & 8 == black)

    @property
    def occupied(self) -> int:
        """The occupied squares, as a mask."""
        return _mask(i for i, c in enumerate(self._s.board) if c)

    # -- text

    def fen(self, *, en_passant: str = "legal", castling: str = "auto") -> str:
        """The FEN, with the options of ``Position.fen`` (the en passant square by default only
        when a legal move takes there). Castling rights are written as they stand."""
        flags = _args.option(en_passant, _FEN_EN_PASSANT, "en_passant") | _args.option(
            castling, _FEN_CASTLING, "castling"
        )
        return _native.read_text(lib.chess_setup_to_fen, self._s, flags, size=_native.FEN_MAX)

    def board_fen(self) -> str:
        """The piece placement field."""
        return self.fen().split(" ", 1)[0]

    # -- validity

    def status(self) -> SetupStatus:
        """What keeps the setup from being a valid position, as python-chess's
        ``Board.status()`` (``SetupStatus.VALID`` when nothing)."""
        out = ctypes.c_uint32()
        self._check(lib.chess_setup_status(self._s, ctypes.byref(out)))
        return SetupStatus(out.value)

    def is_valid(self) -> bool:
        return self.status() == SetupStatus.VALID

    def position(self, *, allow_impossible_check: bool = False) -> Position:
        """The position, checked as ``Position.from_fen`` checks a FEN (FenError of the first
        problem, its offset counted in ``fen(en_passant="as_recorded")``)."""
        flags = _args.flag(allow_impossible_check, "allow_impossible_check", _native.FEN_ALLOW_IMPOSSIBLE_CHECK)
        return Position._wrap(_native.parse_fen(lib.chess_setup_to_position, self._s, flags))

    # -- moves

    def legal_moves(self) -> List[Move]:
        """The legal moves: what the pieces allow that leaves the mover's king (the highest one
        when there are several) unattacked; all of them without a king."""
        return self._moves(_native.SETUP_LEGAL)

    def pseudo_legal_moves(self) -> List[Move]:
        """Every move the pieces allow, whether or not it leaves the king in check."""
        return self._moves(_native.SETUP_PSEUDO_LEGAL)

    def _moves(self, which: int) -> List[Move]:
        buf = (ctypes.c_uint16 * MAX_MOVES)()
        n = lib.chess_setup_moves(self._s, which, buf, MAX_MOVES)
        if n > MAX_MOVES:
            buf = (ctypes.c_uint16 * n)()
            n = lib.chess_setup_moves(self._s, which, buf, n)
        chess960 = self.chess960
        return [Move._trusted(raw, chess960) for raw in buf[:n]]

    def play(self, move: Move) -> None:
        """Plays a move as python-chess's ``push`` does, without checking it: the piece on the
        origin moves for the side to move, castling, en passant, promotion, clocks and rights
        follow (Move.null() passes the turn). IllegalMoveError for an empty origin square."""
        self._check(lib.chess_setup_play(self._s, raw_of(move)))

    # -- queries

    def attackers(self, color: bool, sq: Square) -> int:
        """The pieces of ``color`` attacking a square, as a mask."""
        return int(lib.chess_setup_attackers(self._s, square(sq), c_color(color)))

    def attacks(self, sq: Square) -> int:
        """The squares the piece on a square attacks, as a mask (0 for an empty square)."""
        return int(lib.chess_setup_attacks(self._s, square(sq)))

    def checkers(self) -> int:
        """The pieces checking the king of the side to move, as a mask."""
        return int(lib.chess_setup_checkers(self._s))

    def pin(self, color: bool, sq: Square) -> int:
        """The line a piece pinned to the king of ``color`` may move on, as a mask; every
        square when it is not pinned."""
        return int(lib.chess_setup_pin(self._s, c_color(color), square(sq)))

    def king(self, color: bool) -> Optional[int]:
        """The king's square (the highest when there are several, as python-chess), or None."""
        sq = lib.chess_setup_king(self._s, c_color(color))
        return None if sq < 0 else int(sq)

    def clean_castling_rooks(self) -> int:
        """The castling rights that can stand on this board, as a mask of rook squares."""
        return int(lib.chess_setup_clean_castling_rooks(self._s))

    def valid_en_passant(self) -> Optional[int]:
        """The en passant square when it can stand, else None."""
        sq = lib.chess_setup_valid_en_passant(self._s)
        return None if sq < 0 else int(sq)

    @staticmethod
    def _check(code: int) -> None:
        if code:
            raise_for(code)


def _mask(squares: Iterator[int]) -> int:
    mask = 0
    for sq in squares:
        mask |= 1 << sq
    return mask

