"""Boards that are no valid position: python-chess builds any board and judges it with
``status()``; such a board here holds a ``chesscore.Setup`` and its class is the setup-mode
twin of its own class (``_board.setup_mode``), whose methods below come first: they ask the
library about the setup (pieces, attacks, pins, moves, status, python-chess's push). The board
goes back to its own class, and the library's game, as soon as an edit or a move makes it a
valid position.

SAN needs a position: it is read and written on the position the setup is with its bad
castling rights and en passant square dropped (and a check no move could give allowed); a
board that is no position even so (no king, pawns on a back rank, ...) raises ValueError.
"""

from __future__ import annotations

import ctypes
from typing import Dict, Iterator, List, Optional

from .. import _native
from .._native import MAX_MOVES
from .._native import by_address as _c
from ..errors import ErrorCode, IllegalMoveError, InvalidMoveError
from ..setup import Setup
from ..types import Move as CoreMove
from ..types import squares_of
from ._board import Board, LegalMoveGenerator, State, own_state, status_of
from ._moves import MOVES, PIECES, Move, Piece, code_of
from ._outcome import Outcome, Status, Termination
from ._squares import BB_ALL, BB_CORNERS, BB_RANK_1, BB_RANK_8, BISHOP, E1, E8, KING, KNIGHT, QUEEN, ROOK, Bitboard, Color, PieceType, Square

_lib = _native.lib
_PROMOTION_KINDS = {KNIGHT: 4, BISHOP: 5, ROOK: 6, QUEEN: 7}
_NULL_SANS = ("--", "Z0", "0000", "@@@@")
# fen()'s en_passant options as Setup.fen's
_EN_PASSANT = {"legal": "legal", "fen": "as_recorded", "xfen": "pseudo_legal"}
# A setup as a position for SAN: bad castling rights and en passant square dropped.
_RELAXED = _native.FEN_DROP_BAD_CASTLING | _native.FEN_DROP_BAD_EN_PASSANT | _native.FEN_ALLOW_IMPOSSIBLE_CHECK


def _c_color(color: Color) -> int:
    return 0 if color else 1


class SetupPiecesMode:
    """The piece-placement queries of a board held as a Setup (``self._setup``)."""

    __slots__ = ()
    _setup: Setup

    @property
    def _pos(self) -> int:
        raise ValueError("this board is no valid position")

    def _rows(self) -> List[str]:
        board = self._setup._s.board
        return ["".join(" " if not board[sq] else PIECES[board[sq]].symbol() for sq in range(56 - 8 * r, 64 - 8 * r)) for r in range(8)]  # type: ignore[union-attr]

    def board_fen(self, *, promoted: Optional[bool] = False) -> str:
        return self._setup.board_fen()

    @property
    def occupied(self) -> Bitboard:
        return self._setup.occupied

    @property
    def occupied_co(self) -> List[Bitboard]:
        return [self._setup.occupied_co(False), self._setup.occupied_co(True)]

    def pieces_mask(self, piece_type: PieceType, color: Color) -> Bitboard:
        code = piece_type | (0 if color else 8)
        board = self._setup._s.board
        return sum(1 << sq for sq in range(64) if board[sq] == code)

    def piece_at(self, sq: Square) -> Optional[Piece]:
        return PIECES[self._setup._s.board[sq]]

    def piece_type_at(self, sq: Square) -> Optional[PieceType]:
        return self._setup._s.board[sq] & 7 or None

    def color_at(self, sq: Square) -> Optional[Color]:
        code = self._setup._s.board[sq]
        return None if code == 0 else code < 8

    def piece_map(self, *, mask: Bitboard = BB_ALL) -> Dict[Square, Piece]:
        board = self._setup._s.board
        return {sq: PIECES[board[sq]] for sq in range(64) if board[sq] and mask >> sq & 1}  # type: ignore[misc]

    def king(self, color: Color) -> Optional[Square]:
        sq = _lib.chess_setup_king(self._setup._s, _c_color(color))
        return None if sq < 0 else int(sq)

    def attackers_mask(self, color: Color, sq: Square) -> Bitboard:
        return int(_lib.chess_setup_attackers(self._setup._s, sq, _c_color(color)))

    def attacks_mask(self, sq: Square) -> Bitboard:
        return int(_lib.chess_setup_attacks(self._setup._s, sq))

    def pin_mask(self, color: Color, sq: Square) -> Bitboard:
        return int(_lib.chess_setup_pin(self._setup._s, _c_color(color), sq))

    def is_pinned(self, color: Color, sq: Square) -> bool:
        return self.pin_mask(color, sq) != BB_ALL

    def chess960_pos(self) -> Optional[int]:
        """The number of the Chess960 start arrangement the pieces stand in, else None."""
        pos = _native.Position()
        if _lib.chess_setup_to_position(self._placement()._s, 0, pos, None):
            return None  # not even a position: no start arrangement
        number = _lib.chess_position_chess960_number(pos)
        return None if number < 0 else int(number)

    def _as_setup(self) -> Setup:
        return self._setup  # (no other board or state holds it)

    def set_piece_at(self, square: Square, piece: Optional[Piece], promoted: bool = False) -> None:
        self._setup._s.board[square] = code_of(piece)

    def _placement(self) -> Setup:
        """The pieces alone: White to move, no castling rights, en passant square or clocks."""
        setup = Setup()
        setup._s.board[:] = self._setup._s.board[:]
        return setup


class SetupBoardMode(SetupPiecesMode):
    """A Board's methods while it is no valid position."""

    __slots__ = ()
    _chess960: bool
    _undo: Optional[List[State]]
    _raws: Optional[List[int]]
    _legal: Optional[List[Move]]
    move_stack: List[Move]

    @property
    def _game(self) -> int:
        raise ValueError(f"no game of a board that is no valid position: {self.fen()}")

    def _state(self) -> State:
        return self._setup.copy()

    def _as_setup(self) -> Setup:
        return self._setup  # (no other board or state holds it)

    def _position(self) -> None:
        raise ValueError(f"not a valid position: {self.fen()}")

    def _error(self, code: int, move: str, notation: str) -> Exception:
        return (IllegalMoveError if code == ErrorCode.ILLEGAL_MOVE else InvalidMoveError)(code, f"illegal {notation}: {move!r} in {self.fen()}")

    # -- text

    def fen(self, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        """The FEN, with the castling rights that can stand (as python-chess writes them)."""
        setup = self._setup.copy()
        setup.castling_rooks = setup.clean_castling_rooks()
        return setup.fen(en_passant=_EN_PASSANT[en_passant], castling="shredder" if shredder else "auto")

    # -- state

    @property
    def turn(self) -> Color:
        return self._setup.turn

    @turn.setter
    def turn(self, color: Color) -> None:
        Board.turn.fset(self, color)  # type: ignore[attr-defined]

    @property
    def castling_rights(self) -> Bitboard:
        """The castling rights as set (``clean_castling_rights()`` those that can stand)."""
        return self._setup.castling_rooks

    @castling_rights.setter
    def castling_rights(self, rooks: Bitboard) -> None:
        Board.castling_rights.fset(self, rooks)  # type: ignore[attr-defined]

    @property
    def ep_square(self) -> Optional[Square]:
        return self._setup.en_passant

    @ep_square.setter
    def ep_square(self, sq: Optional[Square]) -> None:
        Board.ep_square.fset(self, sq)  # type: ignore[attr-defined]

    @property
    def halfmove_clock(self) -> int:
        return self._setup.halfmove_clock

    @halfmove_clock.setter
    def halfmove_clock(self, plies: int) -> None:
        Board.halfmove_clock.fset(self, plies)  # type: ignore[attr-defined]

    @property
    def fullmove_number(self) -> int:
        return self._setup.fullmove_number

    @fullmove_number.setter
    def fullmove_number(self, number: int) -> None:
        Board.fullmove_number.fset(self, number)  # type: ignore[attr-defined]

    def clean_castling_rights(self) -> Bitboard:
        return self._setup.clean_castling_rooks()

    def has_castling_rights(self, color: Color) -> bool:
        return bool(self.clean_castling_rights() & (BB_RANK_1 if color else BB_RANK_8))

    def _side_rights(self, color: Color) -> List[int]:
        """For each rook keeping a clean castling right: above 0 when it stands beyond the
        king's mask on the back rank (the h-side), below on the a-side."""
        backrank = BB_RANK_1 if color else BB_RANK_8
        kings = self.pieces_mask(KING, color) & backrank
        if not kings:
            return []
        return [(1 << sq) - kings for sq in squares_of(self.clean_castling_rights() & backrank)]

    def has_kingside_castling_rights(self, color: Color) -> bool:
        return any(offset > 0 for offset in self._side_rights(color))

    def has_queenside_castling_rights(self, color: Color) -> bool:
        return any(offset < 0 for offset in self._side_rights(color))

    def has_chess960_castling_rights(self) -> bool:
        setup = self._setup.copy()
        setup.chess960 = True
        rooks = setup.clean_castling_rooks()
        if rooks & ~BB_CORNERS:
            return True
        kings = self.pieces_mask(KING, True), self.pieces_mask(KING, False)
        return bool(rooks & BB_RANK_1 and not kings[0] >> E1 & 1) or bool(rooks & BB_RANK_8 and not kings[1] >> E8 & 1)

    def has_legal_en_passant(self) -> bool:
        return any(raw >> 12 == 2 for raw in self._legal_raws())

    def has_pseudo_legal_en_passant(self) -> bool:
        return any(raw >> 12 == 2 for raw in self._pseudo_raws())

    def checkers_mask(self) -> Bitboard:
        return int(_lib.chess_setup_checkers(self._setup._s))

    def status(self) -> Status:
        flags = ctypes.c_uint32()
        _c.chess_setup_status(ctypes.addressof(self._setup._s), ctypes.byref(flags))
        return status_of(flags.value)

    def is_valid(self) -> bool:
        return self.status() == Status.VALID

    def chess960_pos(self, *, ignore_turn: bool = False, ignore_castling: bool = False, ignore_counters: bool = True) -> Optional[int]:
        if self.ep_square is not None or (not ignore_turn and not self.turn):
            return None
        rooks = self.pieces_mask(ROOK, True) | self.pieces_mask(ROOK, False)
        if not ignore_castling and self.clean_castling_rights() != rooks:
            return None
        if not ignore_counters and (self.fullmove_number != 1 or self.halfmove_clock != 0):
            return None
        return SetupPiecesMode.chess960_pos(self)

    # -- moves

    def _moves(self, which: int) -> List[int]:
        address = ctypes.addressof(self._setup._s)
        buf = (ctypes.c_uint16 * MAX_MOVES)()
        n = _c.chess_setup_moves(address, which, buf, MAX_MOVES)
        if n > MAX_MOVES:  # more pieces than a position has
            buf = (ctypes.c_uint16 * n)()
            n = _c.chess_setup_moves(address, which, buf, n)
        return buf[:n]

    def _legal_list(self) -> List[Move]:
        legal = self._legal
        if legal is None:
            raws = self._raws = self._moves(_native.SETUP_LEGAL)  # type: ignore[misc]
            legal = self._legal = list(map(MOVES[self._chess960].__getitem__, raws))  # type: ignore[misc]
        return legal

    def _legal_raws(self) -> List[int]:
        self._legal_list()
        return self._raws  # type: ignore[return-value]

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        return _SetupLegalMoves(self)  # type: ignore[arg-type]

    def _pseudo_raws(self) -> List[int]:
        return self._moves(_native.SETUP_PSEUDO_LEGAL)

    def generate_legal_captures(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        return self._captures(self._legal_raws(), from_mask, to_mask)

    def _captures(self, raws: List[int], from_mask: Bitboard, to_mask: Bitboard) -> Iterator[Move]:
        them = self._setup.occupied_co(not self.turn)
        raws = [raw for raw in raws if them >> (raw >> 6 & 63) & 1 or raw >> 12 == 2]
        return self._masked(raws, from_mask, to_mask)  # type: ignore[attr-defined,no-any-return]

    def _find(self, move: Move, raws: List[int]) -> Optional[int]:
        """The encoding of ``move`` among ``raws`` (castling either way python-chess reads it)."""
        if move.drop:
            return None
        table = MOVES[self._chess960]
        wanted = self._notation_move(move, self._chess960)  # type: ignore[attr-defined]
        for raw in raws:
            if table[raw] == wanted:
                return raw
        return None

    def _raw(self, move: Move) -> Optional[int]:
        return self._find(move, self._legal_raws()) if move else None

    def is_pseudo_legal(self, move: Move) -> bool:
        return bool(move) and self._find(move, self._pseudo_raws()) is not None

    def gives_check(self, move: Move) -> bool:
        """Whether the move, played as python-chess plays it, checks the other king."""
        raw = self._find(move, self._pseudo_raws())
        if raw is None:
            return False
        after = self._setup.copy()
        after.play(CoreMove._trusted(raw, self._chess960))
        return bool(_lib.chess_setup_checkers(after._s))

    def push(self, move: Move) -> None:
        """Plays a move as python-chess's push does on any board (the piece on the origin moves,
        with captures, castling, en passant, promotion, clocks and rights);
        IllegalMoveError for a drop or an empty origin."""
        if not move:
            raw = 0
        else:
            found = self._find(move, self._pseudo_raws())
            if found is not None:
                raw = found
            elif move.drop or (move.promotion and move.promotion not in _PROMOTION_KINDS):
                raise IllegalMoveError(ErrorCode.ILLEGAL_MOVE, f"illegal move: {move.uci()!r} in {self.fen()}")
            else:
                raw = move.from_square | move.to_square << 6 | _PROMOTION_KINDS.get(move.promotion, 0) << 12  # type: ignore[arg-type]
        after = self._setup.copy()
        after.play(CoreMove._trusted(raw, self._chess960))
        self._undo = (self._undo or []) + [self._setup]  # type: ignore[misc]
        self.move_stack.append(move)
        self._enter(after, keep_stack=True)  # type: ignore[attr-defined]

    def pop(self) -> Move:
        stack = self.move_stack
        if not stack:
            raise IndexError("pop from empty move stack")
        self._set_state(self._undo.pop(), keep_stack=True)  # type: ignore[attr-defined,union-attr]
        return stack.pop()

    def _before(self, plies: int) -> Board:
        state = self._undo[-plies] if plies else self._setup  # type: ignore[index]
        return self._own_class()._of_state(own_state(state), self._chess960)  # type: ignore[attr-defined,no-any-return]

    def copy(self, *, stack: object = True) -> Board:
        if stack is False or stack == 0:
            return self._own_class()._of_state(self._setup.copy(), self._chess960)  # type: ignore[attr-defined,no-any-return]
        if stack is True:
            board = self._own_class()._of_state(self._setup.copy(), self._chess960)  # type: ignore[attr-defined]
            board.move_stack, board._undo = list(self.move_stack), [own_state(state) for state in self._undo or []]
            return board
        return self._copy_with_last(int(stack))  # type: ignore[call-overload]

    def parse_uci(self, uci: str) -> Move:
        move = Move.from_uci(uci)
        if not move:
            return move
        raw = self._raw(move)
        if raw is None:
            raise IllegalMoveError(ErrorCode.ILLEGAL_MOVE, f"illegal uci: {uci!r} in {self.fen()}")
        return MOVES[self._chess960][raw]

    # SAN, on the position the setup is with its bad castling rights and en passant dropped

    def _san_board(self) -> Board:
        pos = _native.Position()
        if _lib.chess_setup_to_position(self._setup._s, _RELAXED, pos, None):
            raise ValueError(f"no SAN on a board that is no position: {self.fen()} ({self.status()!r})")
        return Board._of_state(pos, self._chess960)

    def san(self, move: Move) -> str:
        if not move:
            return "--"
        return self._san_board().san(move)

    def parse_san(self, san: str) -> Move:
        if san in _NULL_SANS:
            return Move.null()
        move = self._san_board().parse_san(san)
        if self._raw(move) is None:
            raise IllegalMoveError(ErrorCode.ILLEGAL_MOVE, f"illegal san: {san!r} in {self.fen()}")
        return move

    def push_san(self, san: str) -> Move:
        move = self.parse_san(san)
        self.push(move)
        return move

    # -- status

    def is_check(self) -> bool:
        return self.checkers_mask() != 0

    def is_checkmate(self) -> bool:
        return self.is_check() and not self._legal_raws()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self._legal_raws()

    def is_insufficient_material(self) -> bool:
        """Read on the position the setup is (False when it is none)."""
        pos = _native.Position()
        return not _lib.chess_setup_to_position(self._setup._s, _RELAXED, pos, None) and bool(_lib.chess_position_is_insufficient_material(pos))

    def has_insufficient_material(self, color: Color) -> bool:
        """Read on the position the setup is (False when it is none)."""
        pos = _native.Position()
        return not _lib.chess_setup_to_position(self._setup._s, _RELAXED, pos, None) and bool(_lib.chess_position_has_insufficient_material(pos, _c_color(color)))

    def is_seventyfive_moves(self) -> bool:
        return self.halfmove_clock >= 150 and bool(self._legal_raws())

    def is_fifty_moves(self) -> bool:
        return self.halfmove_clock >= 100 and bool(self._legal_raws())

    def can_claim_fifty_moves(self) -> bool:
        pos = _native.Position()
        if _lib.chess_setup_to_position(self._setup._s, _RELAXED, pos, None):
            return self.is_fifty_moves()
        return bool(_lib.chess_position_can_claim_fifty_moves(pos))

    # Repetitions need the library's game: a board that is no position has none.
    def is_fivefold_repetition(self) -> bool:
        return False

    def can_claim_threefold_repetition(self) -> bool:
        return False

    def is_repetition(self, count: int = 3) -> bool:
        return count <= 1

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        if self.is_checkmate():
            return Outcome(Termination.CHECKMATE, not self.turn)
        if self.is_insufficient_material():
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        if not self._legal_raws():
            return Outcome(Termination.STALEMATE, None)
        if self.is_seventyfive_moves():
            return Outcome(Termination.SEVENTYFIVE_MOVES, None)
        if claim_draw and self.can_claim_fifty_moves():
            return Outcome(Termination.FIFTY_MOVES, None)
        return None

    def set_piece_at(self, square: Square, piece: Optional[Piece], promoted: bool = False) -> None:
        Board.set_piece_at(self, square, piece, promoted)  # type: ignore[arg-type]

    def apply_mirror(self) -> None:
        """The board flipped top to bottom with the colours swapped, the other side to move;
        no move stack."""
        setup = Setup()
        old, new = self._setup._s, setup._s
        for sq in range(64):
            new.board[sq ^ 56] = old.board[sq] ^ 8 if old.board[sq] else 0
        rooks = old.castling_rooks
        setup.castling_rooks = sum(1 << (sq ^ 56) for sq in squares_of(rooks))
        ep = self._setup.en_passant
        setup.en_passant = None if ep is None else ep ^ 56
        setup.turn = not self._setup.turn
        setup.halfmove_clock, setup.fullmove_number = old.halfmove_clock, old.fullmove_number
        self._enter(setup, keep_stack=False)  # type: ignore[attr-defined]

    def mirror(self) -> Board:
        board = self.copy(stack=False)
        board.apply_mirror()
        return board


class _SetupLegalMoves(LegalMoveGenerator):
    """``legal_moves`` of a board that is no valid position: counted from the setup's list."""

    __slots__ = ()

    def count(self) -> int:
        return len(self._board._legal_list())


class UncheckedEdits:
    """A Board just edited: its setup is not yet checked, so that a run of edits (pieces set
    and removed, the turn, castling rights, en passant square, clocks) costs no call into the
    library each. Everything else of the board's class is wrapped (``_board.unchecked_mode``)
    to settle the board first (``_settle``): into the position the setup is when valid, else
    the setup-mode board, whose own method then answers."""

    __slots__ = ()

    # What an edited board answers as it is: these edits, the setup's pieces, the state that
    # settling reads and writes.
    ANSWERED = frozenset(
        ("set_piece_at", "remove_piece_at", "piece_at", "turn", "castling_rights", "ep_square", "halfmove_clock", "fullmove_number")
        + ("_setup", "_handle", "_settle", "_valid_class", "move_stack", "_undo")
    )

    def __new__(cls, *args: object, **kwargs: object) -> Board:  # type: ignore[misc]
        # A board made from an edited board's class (``type(board)(...)``, ``type(board).empty()``)
        # is a new board of the board's own class.
        return cls._valid_class(*args, **kwargs)  # type: ignore[attr-defined,no-any-return]

    def set_piece_at(self, square: Square, piece: Optional[Piece], promoted: bool = False) -> None:
        self._setup._s.board[square] = code_of(piece)  # type: ignore[attr-defined]
        if self.move_stack:  # (python-chess clears the stack on a piece edit)
            self.move_stack, self._undo = [], None  # type: ignore[attr-defined]

    def remove_piece_at(self, square: Square) -> Optional[Piece]:
        board = self._setup._s.board  # type: ignore[attr-defined]
        piece = PIECES[board[square]]
        board[square] = 0
        if self.move_stack:  # type: ignore[attr-defined]
            self.move_stack, self._undo = [], None  # type: ignore[attr-defined]
        return piece

    # The fields' setters write the setup; their getters are the setup-mode board's.
    @property
    def turn(self) -> Color:
        return self._setup._s.turn == 0  # type: ignore[attr-defined,no-any-return]

    @turn.setter
    def turn(self, color: Color) -> None:
        self._setup._s.turn = 0 if color else 1  # type: ignore[attr-defined]

    castling_rights = SetupBoardMode.castling_rights.setter(lambda self, rooks: setattr(self._setup, "castling_rooks", rooks & BB_ALL))
    ep_square = SetupBoardMode.ep_square.setter(lambda self, sq: setattr(self._setup, "en_passant", sq))
    halfmove_clock = SetupBoardMode.halfmove_clock.setter(lambda self, plies: setattr(self._setup, "halfmove_clock", plies))
    fullmove_number = SetupBoardMode.fullmove_number.setter(lambda self, number: setattr(self._setup, "fullmove_number", number))
