"""python-chess's ``BaseBoard``: a board of pieces, without side to move, castling rights, en
passant square or clocks; the piece-placement queries ``Board`` inherits.

The queries read the library's position at ``_pos`` (an address): a ``Board`` gives its game's
current position, a ``BaseBoard`` the position of its pieces it holds.
"""

from __future__ import annotations

import ctypes
from typing import Callable, Dict, List, Mapping, Optional, Tuple, Type

from .. import _native
from .._native import by_address as _c
from ..types import squares_of
from ..setup import Setup
from ._moves import PIECES, Piece
from ._squares import (
    BB_ALL,
    BISHOP,
    BLACK,
    FILE_NAMES,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    RANK_NAMES,
    ROOK,
    STARTING_BOARD_FEN,
    UNICODE_PIECE_SYMBOLS,
    WHITE,
    Bitboard,
    Color,
    PieceType,
    Square,
    SquareSet,
)


# chess_piece codes: White's pawn to king, Black's.
_PIECE_CODES = list(range(1, 7)) + list(range(9, 15))


def board_fen_of(symbols: Dict[Square, str]) -> str:
    """The board FEN of pieces given by their FEN letters (a crazyhouse letter may carry its
    ``~``), by square."""
    ranks = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for sq in range(8 * rank, 8 * rank + 8):
            symbol = symbols.get(sq)
            if symbol is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + symbol
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


class BaseBoard:
    """The pieces on the board (``BaseBoard(board_fen)``; the start position's by default): the
    piece-placement queries of python-chess's BaseBoard, which ``Board`` shares."""

    # _start: the chess_position a Board's pieces stand in before its first move; _cur the
    # address of the position the queries read (None until asked for); _setup the pieces of a
    # Board that is no valid position, and always those of a BaseBoard, whose class is then
    # its setup-mode twin (compat._setupboard).
    __slots__ = ("_start", "_cur", "_setup", "__weakref__")
    _start: Optional[_native.Position]
    _cur: Optional[int]
    _setup: Optional[Setup]

    def __init__(self, board_fen: Optional[str] = STARTING_BOARD_FEN) -> None:
        self._start = self._cur = None
        self._setup = Setup() if board_fen is None else Setup.from_fen(f"{board_fen.strip()} w - - 0 1")
        self.__class__ = setup_mode(type(self))
        self._cur = None

    @property
    def _pos(self) -> int:
        """The address of the position of the pieces."""
        pos = self._cur
        if pos is None:
            pos = self._cur = ctypes.addressof(self._start)  # type: ignore[arg-type]
        return pos

    @classmethod
    def empty(cls) -> BaseBoard:
        return cls(None)

    @classmethod
    def from_chess960_pos(cls, scharnagl: int) -> BaseBoard:
        board = cls.empty()
        board.set_chess960_pos(scharnagl)
        return board

    def _set_board(self, board_fen: str) -> None:
        """Puts the pieces of a board FEN on this board (a Board keeps its other fields)."""
        self._setup = BaseBoard(board_fen)._setup

    def set_board_fen(self, fen: str) -> None:
        self._set_board(fen.strip())

    def set_piece_map(self, pieces: Mapping[Square, Piece]) -> None:
        self._set_board(board_fen_of({sq: piece.symbol() for sq, piece in pieces.items()}))

    def set_piece_at(self, square: Square, piece: Optional[Piece], promoted: bool = False) -> None:
        """Puts ``piece`` on ``square`` (None empties it)."""
        symbols = {sq: p.symbol() for sq, p in self.piece_map().items()}
        if piece is None:
            symbols.pop(square, None)
        else:
            symbols[square] = piece.symbol()
        self._set_board(board_fen_of(symbols))

    def remove_piece_at(self, square: Square) -> Optional[Piece]:
        """Takes the piece off ``square`` and gives it (None when it was empty)."""
        piece = self.piece_at(square)
        self.set_piece_at(square, None)  # (a Board's move stack goes, even when it was empty)
        return piece

    def clear_board(self) -> None:
        self._set_board("8/8/8/8/8/8/8/8")

    def reset_board(self) -> None:
        self._set_board(STARTING_BOARD_FEN)

    def set_chess960_pos(self, scharnagl: int) -> None:
        pos = _native.Position()
        _native.check(_native.lib.chess_position_init_chess960(pos, scharnagl))
        self._set_board(_native.read_text(_c.chess_fen_write_with, ctypes.addressof(pos), 0, size=_native.FEN_MAX).split(" ", 1)[0])

    def apply_transform(self, f: Callable[[Bitboard], Bitboard]) -> None:
        """Moves every piece as ``f`` moves the squares of a bitboard (``chess.flip_vertical``,
        ``chess.shift_down``, ...)."""
        self._setup._s.board[:] = self._transformed(f)  # type: ignore[union-attr] # (a Board has its own)

    def _transformed(self, f: Callable[[Bitboard], Bitboard]) -> List[int]:
        """The chess_piece codes by square of the pieces moved as ``f`` moves a bitboard."""
        codes = [0] * 64
        for code in _PIECE_CODES:
            mask = self.pieces_mask(code & 7, code < 8)
            if mask:
                for sq in squares_of(f(mask)):
                    codes[sq] = code
        return codes

    def transform(self, f: Callable[[Bitboard], Bitboard]) -> BaseBoard:
        board = self.copy()
        board.apply_transform(f)
        return board

    def apply_mirror(self) -> None:
        """Flips the board top to bottom and swaps the colours of the pieces."""
        symbols = {sq ^ 56: piece.symbol().swapcase() for sq, piece in self.piece_map().items()}
        self._set_board(board_fen_of(symbols))

    def mirror(self) -> BaseBoard:
        board = self.copy()
        board.apply_mirror()
        return board

    def copy(self) -> BaseBoard:
        board = type(self).__new__(type(self))
        board._start = board._cur = None
        board._setup = self._setup.copy()  # type: ignore[union-attr]
        return board

    def __copy__(self) -> BaseBoard:
        return self.copy()

    def __deepcopy__(self, memo: object) -> BaseBoard:
        return self.copy()

    def __reduce__(self) -> Tuple[object, ...]:
        # Pickled by its own class (not the generated twin it may have now) and its pieces.
        return (_unpickled_base_board, (getattr(type(self), "_valid_class", type(self)), self._setup.copy()))  # type: ignore[union-attr]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.board_fen()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseBoard):
            return NotImplemented
        return self.board_fen() == other.board_fen()

    __hash__ = None  # type: ignore[assignment]

    def board_fen(self, *, promoted: Optional[bool] = False) -> str:
        """The piece placement part of the FEN."""
        return _native.read_text(_c.chess_fen_write_with, self._pos, 0, size=_native.FEN_MAX).split(" ", 1)[0]

    def _rows(self) -> List[str]:
        """The ranks from the eighth, a FEN letter or a space by square."""
        return _native.read_text(_c.chess_position_to_text, self._pos, _native.TEXT_BOARD, size=80).split("\n")

    def __str__(self) -> str:
        rows = self._rows()
        return "\n".join(" ".join("." if c == " " else c for c in row) for row in rows)

    def unicode(self, *, invert_color: bool = False, borders: bool = False, empty_square: str = "⭘", orientation: Color = WHITE) -> str:
        """The board in the Unicode chess symbols (``borders`` draws python-chess's frame)."""
        rows = self._rows()
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

    # python-chess's piece bitboards, both colours (read-only here)
    @property
    def pawns(self) -> Bitboard:
        return self.pieces_mask(PAWN, WHITE) | self.pieces_mask(PAWN, BLACK)

    @property
    def knights(self) -> Bitboard:
        return self.pieces_mask(KNIGHT, WHITE) | self.pieces_mask(KNIGHT, BLACK)

    @property
    def bishops(self) -> Bitboard:
        return self.pieces_mask(BISHOP, WHITE) | self.pieces_mask(BISHOP, BLACK)

    @property
    def rooks(self) -> Bitboard:
        return self.pieces_mask(ROOK, WHITE) | self.pieces_mask(ROOK, BLACK)

    @property
    def queens(self) -> Bitboard:
        return self.pieces_mask(QUEEN, WHITE) | self.pieces_mask(QUEEN, BLACK)

    @property
    def kings(self) -> Bitboard:
        return self.pieces_mask(KING, WHITE) | self.pieces_mask(KING, BLACK)

    @property
    def promoted(self) -> Bitboard:
        """Always empty: the library does not tell promoted pieces apart (python-chess marks
        them for ``board_fen(promoted=True)``)."""
        return 0

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
        return PIECES[_c.chess_position_piece_at(self._pos, sq)]

    def piece_type_at(self, sq: Square) -> Optional[PieceType]:
        return _c.chess_position_piece_at(self._pos, sq) & 7 or None

    def color_at(self, sq: Square) -> Optional[Color]:
        code = _c.chess_position_piece_at(self._pos, sq)
        return None if code == 0 else code < 8

    def piece_map(self, *, mask: Bitboard = BB_ALL) -> Dict[Square, Piece]:
        pos = self._pos
        return {sq: PIECES[_c.chess_position_piece_at(pos, sq)] for sq in squares_of(_c.chess_position_occupancy(pos) & mask)}  # type: ignore[misc]

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

    def chess960_pos(self) -> Optional[int]:
        """The number of the Chess960 start arrangement the pieces stand in (0 to 959), else None."""
        number = _c.chess_position_chess960_number(self._pos)
        return None if number < 0 else number


def _unpickled_base_board(cls: Type[BaseBoard], setup: Setup) -> BaseBoard:
    board = cls.__new__(cls)
    board._start = board._cur = None
    board._setup = setup
    board.__class__ = setup_mode(cls)
    return board


from ._board import setup_mode  # noqa: E402 (Board builds on BaseBoard)
