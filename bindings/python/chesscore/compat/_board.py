"""python-chess's ``Board`` and its move generators, over a ``chess_game`` the library holds.

A ``Board`` holds a ``chess_game`` from its first move on (the positions played, for
repetitions, outcomes and ``pop``) and what the library said of its position until the next
move. It calls the library through the native layer's ``by_address`` functions, which take the
game's position by address: the hottest paths of the package (a push, a status query) then
build no ctypes pointer per call.
"""

from __future__ import annotations

import ctypes
import functools
import types
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Type, Union

from .. import _native
from .._native import MAX_MOVES
from .._native import by_address as _c
from ..errors import ErrorCode, IllegalMoveError, raise_for
from ..game import Game as CoreGame
from ..position import Position
from ..setup import Setup
from ..types import MoveKind, squares_of
from ._baseboard import BaseBoard
from ._epd import read_epd, write_epd
from ._generators import LegalMoveGenerator as LegalMoveGenerator  # compat names them
from ._generators import PseudoLegalMoveGenerator as PseudoLegalMoveGenerator
from ._moves import MOVES, Move, Piece, code_of, move_of
from ._notation import CASTLING_FIELD, Notation, castling_rooks
from ._outcome import Outcome, Status, Termination
from ._squares import (
    BB_ALL,
    BB_BACKRANKS,
    BB_CORNERS,
    BB_RANK_1,
    BB_RANK_8,
    BB_RANKS,
    BLACK,
    E1,
    E8,
    KING,
    PAWN,
    QUEEN,
    SQUARE_NAMES,
    STARTING_BOARD_FEN,
    STARTING_FEN,
    WHITE,
    Bitboard,
    Color,
    PieceType,
    Square,
    SquareSet,
    piece_symbol,
    square_file,
)

# What a board holds: a valid position (the library's game from it), or a setup that is none.
State = Union[_native.Position, Setup]

# The calls of the hottest paths, looked up once.
_game_push = _c.chess_game_push
_game_pop = _c.chess_game_pop
_game_push_san = _c.chess_game_push_san


def _read_state(fen: str, chess960: bool) -> State:
    """The position of a FEN, or the setup of one that is no valid position (ValueError for
    bad syntax)."""
    flags = _native.FEN_CHESS960 if chess960 else 0
    start = _native.Position()
    if _c.chess_fen_parse_with(fen.encode("ascii", "replace"), flags, ctypes.byref(start), None):
        setup = Setup.from_fen(fen, chess960)
        fields = fen.split()
        if len(fields) > 2:
            if not CASTLING_FIELD.match(fields[2]):
                raise ValueError(f"invalid castling part in fen: {fen!r}")
            setup.castling_rooks = castling_rooks(setup, fields[2])
        return _state_of(setup)
    return start


def _state_of(setup: Setup) -> State:
    """The position a setup is when valid (python-chess's judgement: it takes some checks the
    library's FEN reading calls impossible), else the setup."""
    address, flags = ctypes.addressof(setup._s), ctypes.c_uint32()
    _c.chess_setup_status(address, ctypes.byref(flags))
    if flags.value:
        return setup
    out = _native.Position()
    _native.check(_c.chess_setup_to_position(address, _native.FEN_ALLOW_IMPOSSIBLE_CHECK, ctypes.addressof(out), None))
    return out


# Status values by their bits, made once: an IntFlag call costs more than the library's check.
_STATUSES: Dict[int, Status] = {}


def status_of(flags: int) -> Status:
    """The Status of the library's ``chess_setup_status`` bits."""
    status = _STATUSES.get(flags)
    if status is None:
        status = _STATUSES[flags] = Status(flags)
    return status


def _unpickled_board(cls: Type[Board], chess960: bool, undo: List[State], state: State, moves: List[Move]) -> Board:
    board = cls._of_state(state, chess960)
    board._undo, board.move_stack = undo or None, moves
    return board


def own_state(state: State) -> State:
    """A state a board may hold: setups are edited in place, so each board has its own."""
    return state.copy() if isinstance(state, Setup) else state


def _empty_setup(chess960: bool) -> Setup:
    setup = Setup()
    setup.chess960 = chess960
    return setup


def copy_position(address: int) -> _native.Position:
    """A copy of the position at an address (one a game owns)."""
    return _native.Position.from_buffer_copy(_native.Position.from_address(address))


_NULL_SANS = ("--", "Z0", "0000", "@@@@")
_EN_PASSANT_KIND, _CASTLING = int(MoveKind.EN_PASSANT), int(MoveKind.CASTLING)
# python-chess's en_passant options of fen() and epd() as chess_fen_write_with flags.
_EN_PASSANT = {"legal": 0, "fen": _native.FEN_WRITE_EP_AS_RECORDED, "xfen": _native.FEN_WRITE_EP_PSEUDO_LEGAL}



class Board(Notation, BaseBoard):
    """A board with the moves that led to it (``move_stack``), as python-chess's Board.
    ``Board()`` is the standard start, ``Board(fen)`` reads any FEN (ValueError for bad syntax
    only), ``Board(None)`` is empty; ``status()`` says what keeps a board from being a valid
    position. A valid position is the library's (a game from its first move on); any other board
    is a ``chesscore.Setup`` (compat._setupboard), which python-chess's edits, moves and queries
    work on too. On a valid position moves are checked: ``push`` of an illegal move raises
    IllegalMoveError and leaves the board as it was."""

    # _handle: the chess_game's address, made from the position _start at the first move (a
    # board only looked at needs none). The rest is what the library said of the current
    # position, kept until the next move or FEN changes it: _cur its address (None until asked
    # for), _raws and _legal its legal moves, _sans their SAN by encoding, _outcome the game's
    # chess_outcome.
    # _undo: the positions before the moves of move_stack that came before an edit of the
    # board (which starts a new game), oldest first; None when there are none.
    # _setup: the board while it is no valid position (a chesscore.Setup; the board's class is
    # then its setup-mode twin, _setupboard's), else None.
    __slots__ = ("_handle", "_chess960", "move_stack", "_raws", "_legal", "_sans", "_outcome", "_out", "_undo")
    _handle: Optional[int]
    move_stack: List[Move]
    _undo: Optional[List[State]]
    _setup: Optional[Setup]
    _raws: Optional[List[int]]
    _legal: Optional[List[Move]]
    _sans: Optional[Dict[int, str]]
    _outcome: Optional[_native.Outcome]

    def __init__(self, fen: Optional[str] = STARTING_FEN, *, chess960: bool = False) -> None:
        self._blank(chess960)
        state = _empty_setup(self._chess960) if fen is None else _read_state(fen, self._chess960)
        if isinstance(state, Setup):
            self._set_state(state, False)
        else:
            self._start = state

    def _blank(self, chess960: bool) -> None:
        """The fields of a board before its state is set."""
        self._handle = self._setup = self._start = None
        self._chess960 = bool(chess960)
        self.move_stack = []
        self._cur = self._raws = self._legal = self._sans = self._outcome = self._undo = None
        self._out = ctypes.c_uint16()

    def __reduce__(self) -> Tuple[object, ...]:
        # The library's game and the address of the position belong to this process: a board
        # is pickled as its class, the states before each move of its stack, its state and
        # the moves (as python-chess's, a copy with the stack).
        return (_unpickled_board, (self._own_class(), self._chess960, self._history(), self._state(), list(self.move_stack)))

    def _adopt(self, game: Optional[int], chess960: bool, stack: List[Move]) -> None:
        if not game:
            raise_for(ErrorCode.OUT_OF_MEMORY)
        self._handle = game
        self._start = self._setup = None
        self._chess960 = chess960
        self.move_stack = stack
        self._cur = self._raws = self._legal = self._sans = self._outcome = self._undo = None
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
        return _native.move_error(code, self._pos, move, notation)

    @classmethod
    def _of_game(cls, game: Optional[int], chess960: bool, stack: List[Move]) -> Board:
        board = cls.__new__(cls)
        board._adopt(game, chess960, stack)
        return board

    @classmethod
    def _of_state(cls, state: State, chess960: bool) -> Board:
        """A board of a position or a setup, no move stack."""
        board = cls.__new__(cls)
        board._blank(chess960)
        board._set_state(state, False)
        return board

    def _own_class(self) -> Type[Board]:
        """The board's class, for the boards it makes (not the twin it is while no position or
        just edited)."""
        return getattr(type(self), "_valid_class", type(self))  # type: ignore[no-any-return]

    @classmethod
    def _of_position(cls, pos: _native.Position, chess960: bool) -> Board:
        """A board of a game from ``pos`` (copied), no move stack."""
        return cls._of_game(_c.chess_game_new(ctypes.byref(pos)), chess960, [])

    @classmethod
    def from_chess960_pos(cls, scharnagl: int) -> Board:
        pos = _native.Position()
        _native.check(_native.lib.chess_position_init_chess960(pos, scharnagl))
        return cls._of_position(pos, True)

    def __del__(self) -> None:
        game = getattr(self, "_handle", None)
        if game:
            _c.chess_game_free(game)

    @property
    def chess960(self) -> bool:
        return self._chess960

    @chess960.setter
    def chess960(self, value: bool) -> None:
        """Chess960 castling rules from now on (the moves played stay on the stack)."""
        self._chess960 = bool(value)
        self._enter(self._as_setup(), keep_stack=True)

    # -- FEN and text

    def fen(self, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        """The FEN; ``en_passant`` "legal" (python-chess's default), "fen" (after every double
        push) or "xfen" (when a pawn could capture, pseudo-legally); ``shredder`` writes castling
        as rook files."""
        flags = _EN_PASSANT[en_passant] | (_native.FEN_WRITE_SHREDDER if shredder else 0)
        return _native.read_text(_c.chess_fen_write_with, self._pos, flags, size=_native.FEN_MAX)

    def set_fen(self, fen: str) -> None:
        """Reads a FEN into this board, clearing the move stack: any board a FEN can write
        (ValueError for bad syntax), which ``status()`` judges."""
        self._set_state(_read_state(fen, self._chess960), False)

    def reset(self) -> None:
        """The standard start position, no move stack (the board's mode kept)."""
        self.set_fen(STARTING_FEN)

    def reset_board(self) -> None:
        """The pieces of the start position, the side to move, castling rights, en passant
        square and clocks kept; no move stack."""
        self._edit(board=STARTING_BOARD_FEN, keep_stack=False)

    def clear_stack(self) -> None:
        """Forgets the moves that led here (the position stays)."""
        self._set_state(self._state(), False)

    def _state(self) -> State:
        """A copy of the board's state: its position."""
        return copy_position(self._pos)

    @classmethod
    def empty(cls, *, chess960: bool = False) -> Board:
        return cls(None, chess960=chess960)

    def _set_board(self, board_fen: str) -> None:
        self._edit(board=board_fen, keep_stack=False)

    def clear(self) -> None:
        """No pieces, White to move, no castling rights, en passant square or clocks."""
        self._edit(board="8/8/8/8/8/8/8/8", turn=WHITE, castling=0, ep=None, halfmove=0, fullmove=1, keep_stack=False)

    def apply_transform(self, f: Callable[[Bitboard], Bitboard]) -> None:
        """Moves the pieces, the castling rights and the en passant square as ``f`` moves the
        squares of a bitboard; no move stack."""
        ep = self.ep_square
        moved = None if ep is None else f(1 << ep).bit_length() - 1
        castling = f(self.castling_rights)
        self._edit(codes=self._transformed(f), castling=castling, ep=None if moved is None or moved < 0 else moved, keep_stack=False)

    def transform(self, f: Callable[[Bitboard], Bitboard]) -> Board:
        board = self.copy(stack=False)
        board.apply_transform(f)
        return board

    def apply_mirror(self) -> None:
        """The board flipped top to bottom with the colours swapped, the other side to move;
        no move stack."""
        mirrored = _native.Position()
        _c.chess_position_mirror(self._pos, ctypes.byref(mirrored))
        self._replace_start(mirrored, self._chess960)

    # -- Chess960

    def set_chess960_pos(self, scharnagl: int) -> None:
        """Chess960 start position ``scharnagl`` (0 to 959), in Chess960 mode, no move stack."""
        pos = _native.Position()
        _native.check(_native.lib.chess_position_init_chess960(pos, scharnagl))
        self._replace_start(pos, True)

    def _replace_start(self, start: _native.Position, chess960: bool, keep_stack: bool = False) -> None:
        self._chess960 = chess960
        self._set_state(start, keep_stack)

    def _history(self) -> List[State]:
        """The states (positions or setups) before each move of the stack, oldest first."""
        undo = list(self._undo or [])
        game = self._handle
        if game is not None:
            undo += [copy_position(_c.chess_game_position_at(game, i)) for i in range(_c.chess_game_ply_count(game))]
        return undo

    def _set_state(self, state: State, keep_stack: bool) -> None:
        """Makes ``state`` the board's: a valid position (``_native.Position``, the library's
        game from it on) or a setup that is none. With ``keep_stack`` the moves that led here
        stay on the stack (pop takes them back to the states before them), else none."""
        undo = self._history() if keep_stack and self.move_stack else None
        if self._handle is not None:
            _c.chess_game_free(self._handle)
        self._handle, self._undo = None, undo
        if not keep_stack:
            self.move_stack = []
        self._cur = self._raws = self._legal = self._sans = self._outcome = None
        cls = type(self)
        if isinstance(state, Setup):
            self._start, self._setup = None, state
            self.__class__ = setup_mode(cls)
        else:
            self._start, self._setup = state, None
            self.__class__ = getattr(cls, "_valid_class", cls)

    def _as_setup(self) -> Setup:
        """The board as a Setup to edit: a new one (in setup mode, its own)."""
        s = _native.Setup()
        _c.chess_setup_from_position(self._pos, ctypes.addressof(s))
        return Setup._wrap(s)

    def _enter(self, setup: Setup, keep_stack: bool) -> None:
        """Makes the edited ``setup`` the board's, unchecked until the board is next asked
        anything but another edit (``_settle``)."""
        setup._s.chess960 = self._chess960
        self._set_state(setup, keep_stack)
        self.__class__ = unchecked_mode(type(self))

    def _settle(self) -> None:
        """Makes an edited board the position its setup is when valid, else keeps the setup.
        Nothing for a board already settled: a method taken from an edited board can run after
        the board settled (``board.is_check(board.parse_san(...))`` settles in the argument)."""
        if not isinstance(self, UncheckedEdits):
            return
        self.__class__ = setup_mode(self._valid_class)
        self._set_state(_state_of(self._setup), keep_stack=True)  # type: ignore[arg-type]

    _KEEP = object()

    def _edit(
        self,
        *,
        keep_stack: bool,
        board: Optional[str] = None,
        codes: Optional[List[int]] = None,
        turn: Optional[Color] = None,
        castling: Optional[Bitboard] = None,
        ep: object = _KEEP,
        halfmove: Optional[int] = None,
        fullmove: Optional[int] = None,
    ) -> None:
        """This board with some fields replaced (``board`` a board FEN or ``codes`` the
        chess_piece by square; ``ep`` a square or None): a position when it is one, else a
        setup."""
        setup = self._as_setup()
        if board is not None:
            codes = Setup.from_fen(f"{board} w - - 0 1")._s.board[:]
        if codes is not None:
            setup._s.board[:] = codes
        if turn is not None:
            setup.turn = bool(turn)
        if castling is not None:
            setup.castling_rooks = castling & BB_ALL
        if ep is not Board._KEEP:
            setup.en_passant = ep  # type: ignore[assignment]
        if halfmove is not None:
            setup.halfmove_clock = halfmove
        if fullmove is not None:
            setup.fullmove_number = fullmove
        self._enter(setup, keep_stack)

    def set_piece_at(self, square: Square, piece: Optional[Piece], promoted: bool = False) -> None:
        setup = self._as_setup()
        setup._s.board[square] = code_of(piece)
        self._enter(setup, False)

    # -- EPD

    @classmethod
    def from_epd(cls, epd: str, *, chess960: bool = False) -> Tuple[Board, Dict[str, object]]:
        """A board of an EPD line and its operations (see ``set_epd``)."""
        board = cls(chess960=chess960)
        return board, board.set_epd(epd)

    def set_epd(self, epd: str) -> Dict[str, object]:
        """Reads an EPD line (the position, with ``hmvc`` and ``fmvn`` as its clocks) into this
        board and gives its operations: None for an opcode alone ([] for ``bm``, ``am`` and
        ``pv``), an int, a float, a string, a Move, or a list of moves for ``bm``, ``am`` and
        ``pv``. ValueError for a bad line."""
        return read_epd(self, epd)

    def epd(self, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None, **operations: object) -> str:
        """The first four FEN fields, then the operations: None for an opcode alone, a move or a
        list of moves (written in SAN), an int or a float, or a string (quoted)."""
        return write_epd(self, self.fen(shredder=shredder, en_passant=en_passant), operations)

    def __repr__(self) -> str:
        if self._chess960:
            return f"{type(self).__name__}({self.fen()!r}, chess960=True)"
        return f"{type(self).__name__}({self.fen()!r})"

    def _repr_svg_(self) -> str:
        return self._position()._repr_svg_()

    def _position(self) -> Position:
        """A copy of the current position as the package's Position."""
        return Position._wrap(copy_position(self._pos))

    def _core_game(self) -> CoreGame:
        """A copy of the board's game (start position and moves) as the package's Game."""
        return CoreGame._wrap(ctypes.cast(_c.chess_game_clone(self._game), _native.GAME))

    # -- state

    @property
    def turn(self) -> Color:
        return _c.chess_position_turn(self._pos) == 0  # type: ignore[no-any-return]

    @turn.setter
    def turn(self, color: Color) -> None:
        self._edit(turn=color, keep_stack=True)

    @property
    def castling_rights(self) -> Bitboard:
        """The squares of the rooks that keep a castling right (BB_H1 for White's kingside...)."""
        return _c.chess_position_castling_rooks(self._pos)  # type: ignore[no-any-return]

    @castling_rights.setter
    def castling_rights(self, rooks: Bitboard) -> None:
        self._edit(castling=rooks, keep_stack=True)

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

    @ep_square.setter
    def ep_square(self, sq: Optional[Square]) -> None:
        self._edit(ep=sq, keep_stack=True)

    def has_legal_en_passant(self) -> bool:
        return _c.chess_position_en_passant(self._pos, _native.EP_LEGAL) >= 0  # type: ignore[no-any-return]

    def has_pseudo_legal_en_passant(self) -> bool:
        return _c.chess_position_en_passant(self._pos, _native.EP_PSEUDO_LEGAL) >= 0  # type: ignore[no-any-return]

    @property
    def halfmove_clock(self) -> int:
        return _c.chess_position_halfmove_clock(self._pos)  # type: ignore[no-any-return]

    @halfmove_clock.setter
    def halfmove_clock(self, plies: int) -> None:
        self._edit(halfmove=plies, keep_stack=True)

    @property
    def fullmove_number(self) -> int:
        return _c.chess_position_fullmove_number(self._pos)  # type: ignore[no-any-return]

    @fullmove_number.setter
    def fullmove_number(self, number: int) -> None:
        self._edit(fullmove=number, keep_stack=True)

    def ply(self) -> int:
        """Half-moves since the start of the game, from the fullmove number."""
        return 2 * (self.fullmove_number - 1) + (not self.turn)

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

    def generate_legal_moves(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """The legal moves from a square of ``from_mask`` to one of ``to_mask`` (castling goes
        to its rook's square, as python-chess masks it)."""
        if from_mask == BB_ALL and to_mask == BB_ALL:
            return iter(self._legal_list())
        self._legal_list()
        return self._masked(self._raws, from_mask, to_mask)  # type: ignore[arg-type]

    def generate_pseudo_legal_moves(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        return self._masked(self._pseudo_raws(), from_mask, to_mask)

    def generate_legal_captures(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """The legal moves onto a piece of the other side, and en passant."""
        buf = (ctypes.c_uint16 * MAX_MOVES)()
        # the library's captures also hold the promotions that take nothing
        return self._captures(buf[: _c.chess_legal_captures(self._pos, buf, MAX_MOVES)], from_mask, to_mask)

    def generate_pseudo_legal_captures(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        return self._captures(self._pseudo_raws(), from_mask, to_mask)

    def generate_castling_moves(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """The legal castling moves (``to_mask`` holding the rook's square)."""
        self._legal_list()
        return self._masked(self._raws, from_mask, to_mask, _CASTLING)  # type: ignore[arg-type]

    def generate_legal_ep(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        self._legal_list()
        return self._masked(self._raws, from_mask, to_mask, _EN_PASSANT_KIND)  # type: ignore[arg-type]

    def generate_pseudo_legal_ep(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        return self._masked(self._pseudo_raws(), from_mask, to_mask, _EN_PASSANT_KIND)

    def _pseudo_raws(self) -> List[int]:
        buf = (ctypes.c_uint16 * MAX_MOVES)()
        return buf[: _c.chess_pseudo_legal_moves(self._pos, buf, MAX_MOVES)]

    def _masked(self, raws: List[int], from_mask: Bitboard, to_mask: Bitboard, kind: Optional[int] = None) -> Iterator[Move]:
        """The moves of ``raws`` (chess_move: origin in bits 0-5, destination in bits 6-11, kind
        in 12-15) whose squares are in the masks, of one kind if given. (Sets of squares: the
        masks are 64-bit ints, slow to shift.)"""
        if from_mask != BB_ALL:
            froms = set(squares_of(from_mask))
            raws = [raw for raw in raws if raw & 63 in froms]
        if to_mask != BB_ALL:
            tos = set(squares_of(to_mask))
            raws = [raw for raw in raws if raw >> 6 & 63 in tos]
        if kind is not None:
            raws = [raw for raw in raws if raw >> 12 == kind]
        return map(MOVES[self._chess960].__getitem__, raws)

    def _captures(self, raws: List[int], from_mask: Bitboard, to_mask: Bitboard) -> Iterator[Move]:
        """The moves of ``raws`` onto a piece of the other side, and en passant."""
        them = _c.chess_position_color_occupancy(self._pos, 1 if self.turn else 0)
        raws = [raw for raw in raws if them >> (raw >> 6 & 63) & 1 or raw >> 12 == _EN_PASSANT_KIND]
        return self._masked(raws, from_mask, to_mask)

    def _legal_list(self) -> List[Move]:
        """The legal moves (a list kept until the position changes: do not change it)."""
        legal = self._legal
        if legal is None:
            buf = (ctypes.c_uint16 * MAX_MOVES)()
            raws = self._raws = buf[: _c.chess_legal_moves(self._pos, buf, MAX_MOVES)]
            legal = self._legal = list(map(MOVES[self._chess960].__getitem__, raws))
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
        if not move or move.drop:
            return None  # standard chess has no drops
        out = ctypes.c_uint16()
        if _c.chess_move_from_uci(self._pos, move.uci().encode(), ctypes.byref(out)):
            return None
        return out.value

    def is_legal(self, move: Move) -> bool:
        return self._raw(move) is not None

    def is_pseudo_legal(self, move: Move) -> bool:
        return move in self.pseudo_legal_moves

    def push(self, move: Move) -> None:
        """Plays a move as python-chess's push does: a legal one (or the null move) on the
        library's game; any other, a pseudo-legal move leaving the king in check say, on the
        board as a setup, which may then be no position (``pop`` takes it back).
        IllegalMoveError for a drop, a promotion to a pawn or king, or an empty origin square."""
        raw = move._raw
        if raw is None or _game_push(self._handle or self._game, raw):
            if not self._push_resolved(move):
                return
        self._cur = self._legal = self._sans = self._outcome = None
        self.move_stack.append(move)

    def _push_resolved(self, move: Move) -> bool:
        """Plays a move the library's encoding on it did not play: one built by hand, from
        another position, or the null move (which the game allows from its first one on).
        False when it was played on the board as a setup instead, which the game refuses."""
        if not move:
            _c.chess_game_set_allow_null_moves(self._game, True)
            raw: Optional[int] = 0
        else:
            raw = self._raw(move)
        if raw is not None and not _c.chess_game_push(self._game, raw):
            return True
        if move and (move.drop or move.promotion in (PAWN, KING) or self.piece_type_at(move.from_square) is None):
            raise self._error(ErrorCode.ILLEGAL_MOVE, move.uci(), "move")
        self._set_state(self._as_setup(), keep_stack=True)
        self.push(move)  # the setup's push, as python-chess plays the move
        return False

    def pop(self) -> Move:
        """Takes back the last move (IndexError when there is none)."""
        stack = self.move_stack
        if not stack:
            raise IndexError("pop from empty move stack")
        code = _game_pop(self._handle or self._game, None)
        if code:
            undo = self._undo
            if not undo:
                _native.check(code)
            self._set_state(undo.pop(), keep_stack=True)  # type: ignore[union-attr] # a move before an edit
        self._cur = self._legal = self._sans = self._outcome = None
        return stack.pop()

    def peek(self) -> Move:
        """The last move (IndexError when there is none)."""
        return self.move_stack[-1]

    def find_move(self, from_square: Square, to_square: Square, promotion: Optional[PieceType] = None) -> Move:
        """The legal move from and to the squares (a queen promotion by default); raises
        IllegalMoveError when there is none."""
        pieces = self.pieces_mask(PAWN, self.turn)
        if promotion is None and pieces >> from_square & 1 and BB_BACKRANKS >> to_square & 1:
            promotion = QUEEN
        move = Move(from_square, to_square, promotion)
        raw = self._raw(move)
        if raw is None:
            raise self._error(ErrorCode.ILLEGAL_MOVE, move.uci(), "move")
        # The library's move, as python-chess gives it: king-takes-rook is e1g1 in standard chess.
        return MOVES[self._chess960][raw]

    def parse_uci(self, uci: str) -> Move:
        """The legal move a UCI text names (InvalidMoveError for bad syntax, IllegalMoveError
        when not legal here); ``0000`` is the null move."""
        out = ctypes.c_uint16()
        code = _c.chess_move_from_uci(self._pos, uci.encode("ascii", "replace"), ctypes.byref(out))
        if code == ErrorCode.UCI_SYNTAX and "@" in uci:
            try:
                drop = Move.from_uci(uci)
            except ValueError:
                drop = None
            if drop is not None and drop.drop:  # good syntax, but standard chess has no drops
                code = ErrorCode.ILLEGAL_MOVE
        if code:
            raise self._error(code, uci, "uci")
        return move_of(out.value, self._chess960) if out.value else Move.null()

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
        return move_of(out.value, self._chess960) if out.value else Move.null()

    def push_san(self, san: str) -> Move:
        out = self._out
        if _game_push_san(self._handle or self._game, san.encode("utf-8", "replace"), out):
            move = self.parse_san(san)  # raises as parse_san does, or gives the null move
            self.push(move)
            return move
        move = MOVES[self._chess960][out.value]
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

    def _san_or_uci(self, move: Move) -> str:
        try:
            return self.san(move) if self.is_legal(move) else move.uci()
        except ValueError:  # no SAN on this board
            return move.uci()

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
        color = self.color_at(move.to_square)
        if color is not None and color != self.turn:
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
        """A capture or a pawn move: one that resets the fifty-move clock (read from the
        squares the move touches, as python-chess reads any move)."""
        touched = (1 << move.from_square) ^ (1 << move.to_square)
        pawns = self.pieces_mask(PAWN, WHITE) | self.pieces_mask(PAWN, BLACK)
        them = self.occupied_co[not self.turn]
        return bool(touched & (pawns | them)) or move.drop == PAWN

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

    def has_insufficient_material(self, color: Color) -> bool:
        return _c.chess_position_has_insufficient_material(self._pos, 0 if color else 1)  # type: ignore[no-any-return]

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
            return Outcome._of(outcome)
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
        """What keeps the board from being a valid position, as python-chess flags it (the
        library's judgement of the board as a setup)."""
        setup, flags = _native.Setup(), ctypes.c_uint32()
        address = ctypes.addressof(setup)
        _c.chess_setup_from_position(self._pos, address)
        _c.chess_setup_status(address, ctypes.byref(flags))
        return status_of(flags.value)

    def is_valid(self) -> bool:
        return self.status() == Status.VALID

    # -- copies and comparison

    def copy(self, *, stack: object = True) -> Board:
        """A copy; with ``stack=False`` (or 0) without the moves that led here."""
        if stack is False or stack == 0:
            start = copy_position(self._pos)
            return self._own_class()._of_position(start, self._chess960)
        if stack is True:
            board = self._own_class()._of_game(_c.chess_game_clone(self._game), self._chess960, list(self.move_stack))
            board._undo = self._undo and [own_state(state) for state in self._undo]
            return board
        return self._copy_with_last(int(stack))  # type: ignore[call-overload]

    def _copy_with_last(self, moves: int) -> Board:
        """A copy whose stack is the last ``moves`` moves: a board of the position before
        them, the moves played again."""
        kept = self.move_stack[-moves:]
        board = self._before(len(kept))
        for move in kept:
            board.push(move)
        return board

    def _before(self, plies: int) -> Board:
        """A board of the position ``plies`` moves of the stack ago (no move stack)."""
        at = _c.chess_game_ply_count(self._game) - plies
        if at < 0:
            return self._own_class()._of_state(own_state(self._undo[at]), self._chess960)  # type: ignore[index] # before an edit
        return self._own_class()._of_position(copy_position(_c.chess_game_position_at(self._game, at)), self._chess960)

    def root(self) -> Board:
        """The position before the first move of the stack."""
        return self._before(len(self.move_stack))

    def __copy__(self) -> Board:
        return self.copy()  # (a board that is no position has its own copy)

    def __deepcopy__(self, memo: object) -> Board:
        return self.copy()

    def mirror(self) -> Board:
        """The board flipped top to bottom with the colours swapped (no move stack)."""
        mirrored = _native.Position()
        _c.chess_position_mirror(self._pos, ctypes.byref(mirrored))
        return self._own_class()._of_position(mirrored, self._chess960)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.fen(shredder=True) == other.fen(shredder=True)

    __hash__ = None  # type: ignore[assignment]


# Each board class's twin for boards that are no valid position (made on first use, so that
# subclasses of Board have theirs): the setup-mode methods first, then the class's own.
_SETUP_MODES: Dict[type, type] = {}


def setup_mode(cls: Type[BaseBoard]) -> type:
    if "_valid_class" in cls.__dict__:
        return cls
    mode = _SETUP_MODES.get(cls)
    if mode is None:
        mixin = SetupBoardMode if issubclass(cls, Board) else SetupPiecesMode
        namespace = {"__slots__": (), "_valid_class": cls, "__module__": cls.__module__, "__qualname__": cls.__qualname__}
        mode = _SETUP_MODES[cls] = type(cls.__name__, (mixin, cls), namespace)
    return mode


# Each Board class's twin for a board just edited, whose setup may or may not be a position
# (see compat._setupboard.UncheckedEdits).
_UNCHECKED_MODES: Dict[type, type] = {}


def unchecked_mode(cls: type) -> type:
    valid = getattr(cls, "_valid_class", cls)
    mode = _UNCHECKED_MODES.get(valid)
    if mode is None:
        twin = setup_mode(valid)
        namespace: Dict[str, object] = {"__slots__": (), "_valid_class": valid, "__module__": valid.__module__, "__qualname__": valid.__qualname__}
        for name in dir(twin):
            if name in UncheckedEdits.ANSWERED or name in _NEVER_SETTLED:
                continue
            owner = next(c for c in twin.__mro__ if name in c.__dict__)
            if owner is not object:
                wrapped = _settling(name, owner.__dict__[name])
                if wrapped is not None:
                    namespace[name] = wrapped
        mode = _UNCHECKED_MODES[valid] = type(valid.__name__, (UncheckedEdits, twin), namespace)
    return mode


# Names an edited board need not settle for: how Python makes, frees and describes objects.
_NEVER_SETTLED = frozenset(("__init__", "__new__", "__del__", "__init_subclass__", "__subclasshook__", "__class__", "__dict__", "__weakref__", "__slots__"))


def _settling(name: str, attr: object) -> object:
    """``attr`` of a board's class, made to settle an edited board first; None for what needs
    no board (class and static methods, constants)."""
    if isinstance(attr, (property, types.MemberDescriptorType)):

        def get(self: Board) -> object:
            self._settle()
            return getattr(self, name)

        def set_(self: Board, value: object) -> None:
            self._settle()
            setattr(self, name, value)

        return property(get, set_, doc=getattr(attr, "__doc__", None))
    if isinstance(attr, types.FunctionType):

        @functools.wraps(attr)
        def method(self: Board, *args: object, **kwargs: object) -> object:
            self._settle()
            return getattr(self, name)(*args, **kwargs)

        return method
    return None


from ._setupboard import SetupBoardMode, SetupPiecesMode, UncheckedEdits  # noqa: E402 (they build on Board)
