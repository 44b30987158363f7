"""Positions: a ``chess_position`` held by value in a ctypes structure (no native memory to free)."""

from __future__ import annotations

import ctypes
import functools
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _args, _native
from ._native import MAX_MOVES, lib
from .errors import StrOrBytesPath, raise_for
from .types import Move, Piece, c_color, c_piece_type, raw_of, square, squares_of

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Position.fen's options as chess_fen_write_with flags.
_FEN_EN_PASSANT = {
    "legal": 0,
    "pseudo_legal": _native.FEN_WRITE_EP_PSEUDO_LEGAL,
    "as_recorded": _native.FEN_WRITE_EP_AS_RECORDED,
}
_FEN_CASTLING = {"auto": 0, "xfen": _native.FEN_WRITE_XFEN, "shredder": _native.FEN_WRITE_SHREDDER}


def fen_write_flags(en_passant: str, castling: str) -> int:
    """The chess_fen_write_with flags of the ``fen()`` options (of a position or a setup)."""
    return _args.option(en_passant, _FEN_EN_PASSANT, "en_passant") | _args.option(castling, _FEN_CASTLING, "castling")


def _move_list(count_and_fill, chess960):
    buf = (ctypes.c_uint16 * MAX_MOVES)()
    n = count_and_fill(buf)
    trusted = Move._trusted
    return [trusted(raw, chess960) for raw in buf[:n]]


class Position:
    """A chess position. ``Position()`` is the standard start; ``Position.from_fen`` reads a
    FEN. Positions are mutable (``push``), so they compare by value but are not hashable: use
    ``zobrist()`` or ``fen()`` as a key. Use one object from one thread at a time while it is
    being changed; reading it from several threads at once is fine (calls release the GIL)."""

    # _pos: the chess_position (a ctypes structure, which ctypes passes by reference).
    __slots__ = ("_pos", "__weakref__")

    def __init__(self) -> None:
        self._pos = _native.Position()
        lib.chess_position_init(self._pos)

    @classmethod
    def _wrap(cls, pos: _native.Position) -> Position:
        """The Position holding the chess_position structure ``pos`` (not copied)."""
        wrapped = cls.__new__(cls)
        wrapped._pos = pos
        return wrapped

    @classmethod
    def _copy_of(cls, borrowed: Any) -> Position:
        """A copy of a position a game or an EPD record owns (a chess_position pointer)."""
        return cls._wrap(_native.Position.from_buffer_copy(borrowed.contents))

    @classmethod
    def from_fen(cls, fen: str, *, chess960: bool = False, allow_impossible_check: bool = False) -> Position:
        """Reads a FEN (4 to 6 fields). With ``chess960``, castling rights may be X-FEN or
        Shredder-FEN and the position plays by Chess960 rules. ``allow_impossible_check``
        accepts checks no single move could give (two pawns checking), as python-chess does.
        Raises FenError with the offset of the fault."""
        flags = _args.flag(chess960, "chess960", _native.FEN_CHESS960) | _args.flag(
            allow_impossible_check, "allow_impossible_check", _native.FEN_ALLOW_IMPOSSIBLE_CHECK
        )
        return cls._wrap(_native.parse_fen(lib.chess_fen_parse_with, _args.text(fen, "fen"), flags))

    @classmethod
    def from_binary_fen(
        cls, data: Union[bytes, bytearray, memoryview], *, chess960: bool = False, allow_impossible_check: bool = False
    ) -> Position:
        """Reads a binary FEN (the lichess encoding, also that of Stockfish's training data);
        trailing zero bytes are padding. The options and checks are those of ``from_fen``.
        Raises FenError with the byte offset of the fault."""
        data = bytes(_args.of_type(data, (bytes, bytearray, memoryview), "binary FEN"))
        flags = _args.flag(chess960, "chess960", _native.FEN_CHESS960) | _args.flag(
            allow_impossible_check, "allow_impossible_check", _native.FEN_ALLOW_IMPOSSIBLE_CHECK
        )
        return cls._wrap(_native.parse_fen(lib.chess_binary_fen_parse_with, data, len(data), flags))

    @classmethod
    def from_components(
        cls,
        placement: str,
        turn: str,
        castling: str,
        en_passant: str,
        halfmove_clock: Union[int, str] = 0,
        fullmove_number: Union[int, str] = 1,
    ) -> Position:
        """Builds a position from the six FEN fields given separately (the two counts as ints
        or as their text)."""
        counts = [str(_args.of_type(n, (int, str), "a FEN count")) for n in (halfmove_clock, fullmove_number)]
        fields = [placement, turn, castling, en_passant, *counts]
        return cls._wrap(_native.parse_fen(lib.chess_fen_from_components, *(_args.text(f, "FEN field") for f in fields)))

    @classmethod
    def from_fen_file(cls, path: StrOrBytesPath) -> Position:
        """Reads the first non-empty line of a FEN file (NoSuchFileError when it is missing).
        ``path`` is a str, bytes or os.PathLike, as for ``open``."""
        return cls._wrap(_native.parse_fen(lib.chess_fen_read_file, _args.path(path), filename=path))

    @classmethod
    def from_chess960(cls, number: int) -> Position:
        """Chess960 start position ``number`` (0 to 959; 518 is the standard arrangement)."""
        pos = _native.Position()
        _native.check(lib.chess_position_init_chess960(pos, _args.integer(number, "Chess960 start position", 0, 959)))
        return cls._wrap(pos)

    # -- copying and comparing

    def copy(self) -> Position:
        return Position._wrap(_native.Position.from_buffer_copy(self._pos))

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> Position:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.chess960 == other.chess960 and self.fen(castling="shredder") == other.fen(castling="shredder")

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        if self.chess960:
            return f"Position.from_fen({self.fen()!r}, chess960=True)"
        return f"Position.from_fen({self.fen()!r})"

    def __str__(self) -> str:
        """The board as python-chess prints it: '.' for empty squares, rank 8 first."""
        return "\n".join(" ".join("." if c == " " else c for c in row) for row in self.board_string().split("\n"))

    def _repr_svg_(self) -> str:
        """The board as an SVG picture, a king in check glowing red: what notebooks (Jupyter)
        show for a position (see ``chesscore.svg.board``)."""
        from . import svg  # svg imports this module

        return svg.board(self, check=self.king(self.turn) if self.is_check() else None)

    # -- text

    def to_binary_fen(self) -> bytes:
        """The position in binary FEN: at most 34 bytes (24 for a legal position with clocks
        ``0 1``), the en passant square only when the capture is legal, as ``fen()``."""
        buf = ctypes.create_string_buffer(_native.BINARY_FEN_MAX)
        length = ctypes.c_size_t()
        _native.check(lib.chess_position_to_binary_fen(self._pos, buf, _native.BINARY_FEN_MAX, ctypes.byref(length)))
        return buf.raw[: length.value]

    def fen(self, *, en_passant: str = "legal", castling: str = "auto") -> str:
        """The FEN. ``en_passant``: "legal" (only when the capture is legal, python-chess's
        default), "pseudo_legal" or "as_recorded" (after every double push). ``castling``:
        "auto" (KQkq, X-FEN in Chess960), "xfen" or "shredder" (HAha)."""
        return _native.read_text(
            lib.chess_fen_write_with, self._pos, fen_write_flags(en_passant, castling), size=_native.FEN_MAX
        )

    def board_string(self) -> str:
        """8 rows of 8 characters, rank 8 first, a space for an empty square, joined by "\\n"."""
        return _native.read_text(lib.chess_position_to_text, self._pos, _native.TEXT_BOARD, size=80)

    def ascii(self) -> str:
        """The board with coordinates, '.' for empty squares."""
        return _native.read_text(lib.chess_position_to_text, self._pos, _native.TEXT_ASCII, size=256)

    def unicode(self) -> str:
        """The board with coordinates and the Unicode chess symbols."""
        return _native.read_text(lib.chess_position_to_text, self._pos, _native.TEXT_UNICODE, size=512)

    # -- moves

    def legal_moves(self) -> List[Move]:
        """The legal moves, as a list of Move."""
        return _move_list(lambda buf: lib.chess_legal_moves(self._pos, buf, MAX_MOVES), self.chess960)

    def pseudo_legal_moves(self) -> List[Move]:
        return _move_list(lambda buf: lib.chess_pseudo_legal_moves(self._pos, buf, MAX_MOVES), self.chess960)

    def legal_moves_from(self, from_square: Union[int, str]) -> List[Move]:
        """The legal moves of the piece on a square."""
        sq = square(from_square)
        return _move_list(lambda buf: lib.chess_legal_moves_from(self._pos, sq, buf, MAX_MOVES), self.chess960)

    def legal_move_count(self) -> int:
        return lib.chess_legal_moves(self._pos, None, 0)

    def captures(self) -> List[Move]:
        """The legal captures (en passant included) and every legal promotion: a search's first
        stage after the hash move, and all of quiescence. With ``quiets()`` a partition of the
        legal moves, each in the order of ``legal_moves()``; in check, evasions only."""
        return _move_list(lambda buf: lib.chess_legal_captures(self._pos, buf, MAX_MOVES), self.chess960)

    def quiets(self) -> List[Move]:
        """Every legal move ``captures()`` leaves out: non-promoting moves to empty squares,
        castling included."""
        return _move_list(lambda buf: lib.chess_legal_quiets(self._pos, buf, MAX_MOVES), self.chess960)

    def has_legal_moves(self) -> bool:
        """Whether the side to move has a legal move (cheaper than counting them)."""
        return lib.chess_position_has_legal_moves(self._pos)

    def is_pseudo_legal(self, move: Move) -> bool:
        """Whether a move (from a hash table, say) follows the movement rules here; it is legal
        unless it leaves the own king in check (``is_legal`` tells, ``push`` refuses it)."""
        return lib.chess_position_is_pseudo_legal(self._pos, raw_of(move))

    def gives_check(self, move: Move) -> bool:
        """Whether the legal move checks the other king, without playing it."""
        return lib.chess_position_gives_check(self._pos, raw_of(move))

    def see(self, move: Move) -> int:
        """The static exchange value of the legal move in centipawns (P 100, N 300, B 300,
        R 500, Q 900): the swap on its destination square, least valuable attacker first,
        x-rays included, either side free to stop; a king recaptures only when nothing can take
        it back; a promotion counts as the pawn it was. docs/engines.md gives the whole
        definition."""
        return lib.chess_position_see(self._pos, raw_of(move))

    def see_ge(self, move: Move, threshold: int) -> bool:
        """``see(move) >= threshold``, often decided without the whole exchange."""
        return lib.chess_position_see_ge(self._pos, raw_of(move), _args.integer(threshold, "threshold", -(2**31), 2**31 - 1))

    def zobrist_after(self, move: Move) -> int:
        """The Polyglot key after the legal move, without playing it."""
        return lib.chess_position_zobrist_after(self._pos, raw_of(move))

    def is_legal(self, move: Move) -> bool:
        return lib.chess_position_is_legal(self._pos, raw_of(move))

    def san(self, move: Move) -> str:
        """The SAN of a legal move, with its check or mate suffix; "--" for Move.null()."""
        error = functools.partial(_native.move_error, pos=self._pos, move=move)
        return _native.read_text(lib.chess_move_to_san, self._pos, raw_of(move), size=_native.SAN_MAX, error=error)

    def uci(self, move: Move) -> str:
        """The UCI of a move as this position writes it (king takes rook in Chess960)."""
        error = functools.partial(_native.move_error, pos=self._pos, move=move)
        flags = _native.UCI_KING_TAKES_ROOK if self.chess960 else 0
        return _native.read_text(lib.chess_move_to_uci_with, raw_of(move), flags, size=8, error=error)

    def parse_uci(self, text: str) -> Move:
        """The legal move a UCI text names (``e1g1`` and ``e1h1`` both castle in standard
        chess; ``0000`` is Move.null())."""
        out = ctypes.c_uint16()
        code = lib.chess_move_from_uci(self._pos, _args.text(text, "move"), ctypes.byref(out))
        if code:
            raise _native.move_error(code, self._pos, text, "uci")
        return Move(out.value, self.chess960)

    def parse_san(self, text: str, *, strict: bool = False, allow_null: bool = False) -> Move:
        """The legal move a SAN names. Lenient by default (as PGN files are written); ``strict``
        accepts only the canonical SAN, suffix included."""
        flags = _args.flag(strict, "strict", _native.SAN_STRICT) | _args.flag(
            allow_null, "allow_null", _native.SAN_ALLOW_NULL
        )
        out = ctypes.c_uint16()
        code = lib.chess_move_from_san_with(self._pos, _args.text(text, "move"), flags, ctypes.byref(out))
        if code:
            raise _native.move_error(code, self._pos, text, "san")
        return Move(out.value, self.chess960)

    def parse_line(self, text: str) -> List[Move]:
        """A line of SAN or UCI moves, each in the position the ones before reach; the
        position does not change. A bad move raises with its ``index`` in the line."""
        line = _args.text(text, "line")
        count, bad = ctypes.c_size_t(), ctypes.c_size_t()
        code = lib.chess_moves_from_line(self._pos, line, 0, None, 0, ctypes.byref(count), ctypes.byref(bad))
        if code:
            raise_for(code, index=bad.value)
        buf = (ctypes.c_uint16 * count.value)()
        _native.check(lib.chess_moves_from_line(self._pos, line, 0, buf, count.value, ctypes.byref(count), None))
        return [Move(raw, self.chess960) for raw in buf]

    def push(self, move: Move) -> None:
        """Plays a legal move (Move.null() passes the turn); raises IllegalMoveError otherwise,
        leaving the position unchanged."""
        raw = raw_of(move)
        code = lib.chess_position_play(self._pos, raw) if raw else lib.chess_position_play_null(self._pos)
        if code:
            raise _native.move_error(code, self._pos, move)

    def push_uci(self, text: str) -> Move:
        """Plays a move given in UCI and returns it."""
        move = self.parse_uci(text)
        self.push(move)
        return move

    def push_san(self, text: str) -> Move:
        """Plays a move given in SAN and returns it."""
        move = self.parse_san(text)
        self.push(move)
        return move

    def perft(self, depth: int) -> int:
        """The number of leaves of the legal move tree ``depth`` plies deep."""
        return lib.chess_perft(self._pos, _depth(depth))

    def perft_divide(self, depth: int) -> Dict[Move, int]:
        """Perft split by first move: {move: leaves below it}."""
        moves = (ctypes.c_uint16 * MAX_MOVES)()
        counts = (ctypes.c_uint64 * MAX_MOVES)()
        n = lib.chess_perft_divide(self._pos, _depth(depth), moves, counts, MAX_MOVES)
        chess960 = self.chess960
        return {Move(moves[i], chess960): counts[i] for i in range(n)}

    # -- state

    @property
    def turn(self) -> bool:
        """The side to move: WHITE (True) or BLACK (False)."""
        return lib.chess_position_turn(self._pos) == 0

    @property
    def chess960(self):
        return lib.chess_position_is_chess960(self._pos)

    def chess960_number(self):
        """The Chess960 start arrangement (0 to 959) the pieces stand in, else None."""
        number = lib.chess_position_chess960_number(self._pos)
        return None if number < 0 else number

    @property
    def castling_rights(self) -> int:
        """The castling rights as a set of CASTLING_* bits."""
        return lib.chess_position_castling_rights(self._pos)

    def has_kingside_castling_rights(self, color: bool) -> bool:
        return self._has_castling_bits(color, (1, 4))

    def has_queenside_castling_rights(self, color: bool) -> bool:
        return self._has_castling_bits(color, (2, 8))

    def has_castling_rights(self, color: bool) -> bool:
        return self._has_castling_bits(color, (3, 12))

    def _has_castling_bits(self, color: bool, bits: Tuple[int, int]) -> bool:
        """Whether any of White's or Black's (``bits`` by chess_color) rights are left."""
        return bool(self.castling_rights & bits[c_color(color)])

    @property
    def ep_square(self) -> Optional[int]:
        """The en passant square as recorded (after every double push), else None."""
        sq = lib.chess_position_en_passant(self._pos, _native.EP_AS_RECORDED)
        return None if sq < 0 else sq

    def legal_ep_square(self) -> Optional[int]:
        """The en passant square when the capture is legal, else None."""
        sq = lib.chess_position_en_passant(self._pos, _native.EP_LEGAL)
        return None if sq < 0 else sq

    @property
    def halfmove_clock(self) -> int:
        return lib.chess_position_halfmove_clock(self._pos)

    @property
    def fullmove_number(self) -> int:
        return lib.chess_position_fullmove_number(self._pos)

    def piece_at(self, sq: Union[int, str]) -> Optional[Piece]:
        """The Piece on a square (an index or a name), else None."""
        return Piece._from_c(lib.chess_position_piece_at(self._pos, square(sq)))

    def piece_map(self) -> Dict[int, Piece]:
        """{square: Piece} for every occupied square."""
        return {sq: self.piece_at(sq) for sq in squares_of(lib.chess_position_occupancy(self._pos))}

    def pieces(self, piece_type: int, color: bool) -> List[int]:
        """The squares holding pieces of a type and colour."""
        return squares_of(lib.chess_position_pieces(self._pos, c_color(color), c_piece_type(piece_type)))

    def king(self, color: bool) -> Optional[int]:
        sq = lib.chess_position_king_square(self._pos, c_color(color))
        return None if sq < 0 else sq

    def attackers(self, color: bool, sq: Union[int, str]) -> List[int]:
        """The squares of the pieces of ``color`` attacking a square."""
        return squares_of(lib.chess_position_attackers_to(self._pos, square(sq), c_color(color)))

    def attacks(self, color: bool) -> List[int]:
        """Every square a piece of ``color`` attacks."""
        return squares_of(lib.chess_position_attacks_by(self._pos, c_color(color)))

    def check_squares(self, piece_type: int) -> List[int]:
        """The squares from which a piece of ``piece_type`` of the side to move would check the
        other king (none for the king)."""
        return squares_of(lib.chess_position_check_squares(self._pos, c_piece_type(piece_type)))

    def checkers(self) -> List[int]:
        """The squares of the pieces giving check."""
        return squares_of(lib.chess_position_checkers(self._pos))

    def pinned(self) -> List[int]:
        """The squares of the side to move's pieces pinned to their king."""
        return squares_of(lib.chess_position_pinned(self._pos))

    def zobrist(self) -> int:
        """The Polyglot Zobrist key."""
        return lib.chess_position_zobrist(self._pos)

    # -- status

    def is_check(self) -> bool:
        return lib.chess_position_in_check(self._pos)

    def is_checkmate(self) -> bool:
        return lib.chess_position_is_checkmate(self._pos)

    def is_stalemate(self) -> bool:
        return lib.chess_position_is_stalemate(self._pos)

    def is_insufficient_material(self) -> bool:
        """Neither side can ever mate: no pawns, rooks or queens, and at most one minor piece
        or only bishops on squares of one colour (K+N v K+N is not dead)."""
        return lib.chess_position_is_insufficient_material(self._pos)

    def has_insufficient_material(self, color: bool) -> bool:
        """``color`` alone cannot mate, whatever the other side plays (a helpmate included):
        a game it loses on time is drawn."""
        return lib.chess_position_has_insufficient_material(self._pos, c_color(color))

    def is_fifty_moves(self) -> bool:
        return lib.chess_position_is_fifty_moves(self._pos)

    def can_claim_fifty_moves(self) -> bool:
        return lib.chess_position_can_claim_fifty_moves(self._pos)

    def is_seventy_five_moves(self) -> bool:
        return lib.chess_position_is_seventy_five_moves(self._pos)


def _depth(depth: object) -> int:
    """A perft depth, as chess_perft's uint32_t takes it."""
    return _args.integer(depth, "depth", 0, 2**32 - 1)
