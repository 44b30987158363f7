"""python-chess's ``Board`` and its move generators, over a ``chess_game`` the library holds.

A ``Board`` holds a ``chess_game`` from its first move on (the positions played, for
repetitions, outcomes and ``pop``) and what the library said of its position until the next
move. It calls the library through the native layer's ``by_address`` functions, which take the
game's position by address: the hottest paths of the package (a push, a status query) then
build no ctypes pointer per call.
"""

from __future__ import annotations

import ctypes
from typing import Dict, Iterable, Iterator, List, Optional

from .. import _native
from .._native import MAX_MOVES
from .._native import by_address as _c
from ..errors import ErrorCode, IllegalMoveError, raise_for
from ..game import Game as CoreGame
from ..position import Position
from ..types import MoveKind, squares_of
from ._moves import MOVES, PIECES, Move, Piece, move_of
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
    FILE_NAMES,
    PAWN,
    QUEEN,
    RANK_NAMES,
    SQUARE_NAMES,
    STARTING_FEN,
    UNICODE_PIECE_SYMBOLS,
    WHITE,
    Bitboard,
    Color,
    PieceType,
    Square,
    SquareSet,
    piece_symbol,
    square_file,
)

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
        return _native.parse_fen(_native.lib.chess_fen_parse_with, text, flags)  # raises, naming the fault
    return start


def _copy_position(address: int) -> _native.Position:
    """A copy of the position at an address (one a game owns)."""
    return _native.Position.from_buffer_copy(_native.Position.from_address(address))


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
        return _native.move_error(code, self._pos, move, notation)

    @classmethod
    def _of_game(cls, game: Optional[int], chess960: bool, stack: List[Move]) -> Board:
        board = cls.__new__(cls)
        board._adopt(game, chess960, stack)
        return board

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
        return self._position()._repr_svg_()

    def _position(self) -> Position:
        """A copy of the current position as the package's Position."""
        return Position._wrap(_copy_position(self._pos))

    def _core_game(self) -> CoreGame:
        """A copy of the board's game (start position and moves) as the package's Game."""
        return CoreGame._wrap(ctypes.cast(_c.chess_game_clone(self._game), _native.GAME))

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
        """Always ``STATUS_VALID``: the library holds valid positions only."""
        return Status.VALID

    def is_valid(self) -> bool:
        return True

    # -- copies and comparison

    def copy(self, *, stack: object = True) -> Board:
        """A copy; with ``stack=False`` (or 0) without the moves that led here."""
        if stack is False or stack == 0:
            start = _copy_position(self._pos)
            return Board._of_position(start, self._chess960)
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
        return Board._of_position(start, self._chess960)

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
        return Board._of_position(mirrored, self._chess960)

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
        table = MOVES[board._chess960]
        return [table[raw] for raw in buf[:n]]

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move in self._list()
