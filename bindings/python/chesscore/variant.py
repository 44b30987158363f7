"""The lichess variants: ``Variant`` and ``VariantPosition``, a position of any of them held in a
``chess_variant_position`` handle.

    >>> from chesscore import WHITE
    >>> from chesscore.variant import Variant, VariantPosition
    >>> pos = VariantPosition(Variant.CRAZYHOUSE)
    >>> for san in ["e4", "d5", "exd5", "Qxd5"]:
    ...     _ = pos.push_san(san)
    >>> pos.fen()
    'rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3'
    >>> pos.san(pos.parse_uci("P@e6"))
    '@e6'
    >>> pos.pocket(WHITE)
    {1: 1}
"""

from __future__ import annotations

import ctypes
import enum
import functools
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _args, _native
from ._native import MAX_VARIANT_MOVES, lib
from .errors import ErrorCode, raise_for
from .game import Outcome
from .setup import Setup
from .types import KING, PAWN, QUEEN, WHITE, Move, Piece, c_color, raw_of, square, squares_of


class Variant(enum.IntEnum):
    """The rules a VariantPosition plays by (chesscore.h's ``CHESS_VARIANT_*`` values).
    ``str()`` gives the command line's name (``standard``, ``atomic``, ``kingofthehill``, ...)."""

    CHESS = 0
    CHESS960 = 1
    ATOMIC = 2
    ANTICHESS = 3
    CRAZYHOUSE = 4
    KING_OF_THE_HILL = 5
    THREE_CHECK = 6
    HORDE = 7
    RACING_KINGS = 8

    @classmethod
    def from_name(cls, name: str) -> Variant:
        """The variant a name stands for: the command line's names, PGN's (``King of the
        Hill``), UCI's (``3check``) and the common aliases (``giveaway``, ``koth``, ``zh``),
        ignoring case, spaces, hyphens and underscores. InvalidArgumentError for another."""
        out = ctypes.c_uint8()
        _native.check(lib.chess_variant_from_name(_args.text(name, "variant name"), ctypes.byref(out)))
        return cls(out.value)

    def __str__(self) -> str:
        return lib.chess_variant_name(self.value).decode("ascii")


class VariantPosition:
    """A position of one of the lichess variants (or of chess and Chess960). ``VariantPosition(
    variant)`` is the variant's start position, ``from_fen`` reads python-chess's and lichess's
    FENs (crazyhouse pockets ``[Qn]`` and promoted pieces ``Q~``, three-check counters ``3+3``
    or lichess's ``+2+1``). Moves are ``chesscore.Move`` values; drops (``P@e4`` in UCI) and
    antichess promotions to a king are moves of variant positions only. Positions are mutable
    (``push``), compare by variant and FEN, and are not hashable. As for Position, use one object
    from one thread at a time while it is being changed."""

    __slots__ = ("_ptr", "__weakref__")
    _free = lib.chess_variant_position_free

    def __init__(self, variant: Variant = Variant.CHESS) -> None:
        self._ptr = self._new(variant, None)

    @staticmethod
    def _new(variant: Variant, fen: Optional[bytes]) -> Any:
        value = _args.of_type(variant, int, "variant")
        out = _native.VPOS()
        _native.check(lib.chess_variant_position_new(_args.integer(value, "variant", 0, 255), fen, ctypes.byref(out)))
        return out

    @classmethod
    def from_fen(cls, variant: Variant, fen: str) -> VariantPosition:
        """Reads a FEN of ``variant``; FenError when it cannot be read (a ``VARIANT_*`` code for
        a bad pocket, three-check counter or number of kings)."""
        pos = cls.__new__(cls)
        pos._ptr = cls._new(variant, _args.text(fen, "fen"))
        return pos

    def __del__(self) -> None:
        ptr = getattr(self, "_ptr", None)
        if ptr:
            self._free(ptr)

    @classmethod
    def _clone_of(cls, ptr: Any) -> VariantPosition:
        """A new position holding a copy of the handle's (one the library lends)."""
        pos = cls.__new__(cls)
        clone = lib.chess_variant_position_clone(ptr)
        if not clone:
            raise_for(ErrorCode.OUT_OF_MEMORY)
        pos._ptr = clone
        return pos

    def copy(self) -> VariantPosition:
        return VariantPosition._clone_of(self._ptr)

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> VariantPosition:
        return self.copy()

    def __reduce__(self) -> Tuple[object, ...]:
        # The handle belongs to this process: pickled as its variant and FEN, which says all.
        return (VariantPosition.from_fen, (self.variant, self.fen()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VariantPosition):
            return NotImplemented
        return self.variant == other.variant and self.fen() == other.fen()

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        return f"VariantPosition.from_fen(Variant.{self.variant.name}, {self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The board as an SVG picture with the variant's pockets or check counters, a king in
        check glowing red: what notebooks show (see ``chesscore.svg.board``)."""
        from . import svg  # svg imports this module

        return svg.board(self, check=self._king_in_check())

    def _king_in_check(self) -> Optional[int]:
        """The square of the king in check, if the variant counts it so."""
        if not self.is_check():
            return None
        king = Piece(KING, self.turn)
        return next((sq for sq in range(64) if self.piece_at(sq) == king), None)

    # -- text

    @property
    def variant(self) -> Variant:
        return Variant(lib.chess_variant_position_variant(self._ptr))

    @property
    def _chess960(self) -> bool:
        return lib.chess_variant_position_variant(self._ptr) == Variant.CHESS960

    def fen(self) -> str:
        """The FEN in python-chess's form (pockets in brackets, promoted pieces marked ``~``,
        three-check's remaining checks after the en passant square)."""
        return _native.read_text(lib.chess_variant_position_fen, self._ptr, size=128)

    def _error(self, code: int, move: Any, notation: str = "move") -> Exception:
        return _native.move_error(code, self._ptr, move, notation, fen=self.fen)

    def san(self, move: Move) -> str:
        """The SAN of a legal move: drops as ``N@f3`` (``@e4`` for a pawn), ``#`` also for a
        move that wins or loses by the variant's own rule."""
        error = functools.partial(self._error, move=move)
        return _native.read_text(lib.chess_variant_position_san, self._ptr, raw_of(move), size=_native.SAN_MAX, error=error)

    def uci(self, move: Move) -> str:
        """The UCI of a move as this position writes it (drops as ``P@e4``)."""
        error = functools.partial(self._error, move=move)
        return _native.read_text(lib.chess_variant_position_uci, self._ptr, raw_of(move), size=8, error=error)

    def parse_san(self, text: str) -> Move:
        """The legal move a SAN names (suffixes optional; ``P@e4`` and ``@e4`` both drop a pawn)."""
        out = ctypes.c_uint16()
        code = lib.chess_variant_position_parse_san(self._ptr, _args.text(text, "move"), ctypes.byref(out))
        if code:
            raise self._error(code, text, "san")
        return Move._trusted(out.value, self._chess960)

    def parse_uci(self, text: str) -> Move:
        """The legal move a UCI text names (``0000`` is Move.null())."""
        out = ctypes.c_uint16()
        code = lib.chess_variant_position_parse_uci(self._ptr, _args.text(text, "move"), ctypes.byref(out))
        if code:
            raise self._error(code, text, "uci")
        return Move._trusted(out.value, self._chess960)

    # -- moves

    def legal_moves(self) -> List[Move]:
        """The legal moves (none once the variant's own ending is reached)."""
        buf = (ctypes.c_uint16 * MAX_VARIANT_MOVES)()
        n = lib.chess_variant_position_legal_moves(self._ptr, buf, MAX_VARIANT_MOVES)
        chess960 = self._chess960
        return [Move._trusted(raw, chess960) for raw in buf[:n]]

    def legal_move_count(self) -> int:
        return lib.chess_variant_position_legal_moves(self._ptr, None, 0)

    def pseudo_legal_moves(self) -> List[Move]:
        """The moves the pieces' rules allow, whether or not they leave the king attacked or
        the variant forbids them (antichess's compulsory captures, racing kings' checks), even
        once the game is over; crazyhouse adds a drop of each pocket piece on each empty square
        (pawns not on the back ranks). The legal moves are among them."""
        buf = (ctypes.c_uint16 * MAX_VARIANT_MOVES)()
        n = lib.chess_variant_position_pseudo_legal_moves(self._ptr, buf, MAX_VARIANT_MOVES)
        chess960 = self._chess960
        return [Move._trusted(raw, chess960) for raw in buf[:n]]

    def is_irreversible(self, move: Move) -> bool:
        """Whether the legal ``move`` (or Move.null()) makes every earlier position unreachable:
        it moves a pawn or captures, takes away a castling right, or an en passant capture is
        possible now; in three-check a check counts too, in crazyhouse only castling rights do.
        False for a move that is not legal."""
        return lib.chess_variant_position_is_irreversible(self._ptr, raw_of(move))

    def push(self, move: Move) -> None:
        """Plays a legal move; IllegalMoveError otherwise (the position is then unchanged)."""
        code = lib.chess_variant_position_play(self._ptr, raw_of(move))
        if code:
            raise self._error(code, move)

    def push_san(self, text: str) -> Move:
        move = self.parse_san(text)
        self.push(move)
        return move

    def push_uci(self, text: str) -> Move:
        move = self.parse_uci(text)
        self.push(move)
        return move

    def perft(self, depth: int) -> int:
        """The number of leaves of the legal move tree ``depth`` plies deep."""
        return lib.chess_variant_position_perft(self._ptr, _args.integer(depth, "depth", 0, 2**32 - 1))

    # -- state

    @property
    def turn(self) -> bool:
        """The side to move: WHITE (True) or BLACK (False)."""
        return lib.chess_variant_position_turn(self._ptr) == 0

    def piece_at(self, sq: Union[int, str]) -> Optional[Piece]:
        """The Piece on a square (an index or a name), else None."""
        return Piece._from_c(lib.chess_variant_position_piece_at(self._ptr, square(sq)))

    def setup(self) -> Setup:
        """The board as a Setup: pieces, side to move, castling rooks, en passant square as
        recorded, clocks (what a variant adds has its own methods)."""
        s = _native.Setup()
        _native.check(lib.chess_variant_position_setup(self._ptr, s))
        return Setup._wrap(s)

    def pocket(self, color: bool) -> Dict[int, int]:
        """{piece type: count} of the pieces in ``color``'s crazyhouse pocket (empty in the
        other variants)."""
        c = c_color(color)
        counts = ((kind, lib.chess_variant_position_pocket(self._ptr, c, kind)) for kind in range(PAWN, QUEEN + 1))
        return {kind: n for kind, n in counts if n}

    def pockets(self) -> Tuple[Dict[int, int], Dict[int, int]]:
        """Both pockets, indexed by colour as python-chess's: ``pockets()[WHITE]``."""
        return (self.pocket(not WHITE), self.pocket(WHITE))

    def promoted(self) -> List[int]:
        """The squares of crazyhouse pieces that were promoted pawns."""
        return squares_of(lib.chess_variant_position_promoted(self._ptr))

    def remaining_checks(self, color: bool) -> int:
        """The checks ``color`` still has to give to win three-check (3 in the other variants)."""
        return lib.chess_variant_position_remaining_checks(self._ptr, c_color(color))

    def checkers(self) -> List[int]:
        """The squares of the pieces giving check to the side to move: none without exactly one
        king, in antichess, or in atomic while the kings touch."""
        return squares_of(lib.chess_variant_position_checkers(self._ptr))

    def pin(self, color: bool, sq: Union[int, str]) -> int:
        """The line (a mask) the piece on ``sq`` is held on when it stands alone between
        ``color``'s king and an enemy slider; 0 when it is not pinned (always in antichess)."""
        return int(lib.chess_variant_position_pin(self._ptr, c_color(color), square(sq)))

    def mirror(self) -> VariantPosition:
        """The board flipped top to bottom with the colours, the side to move, the pockets and
        the remaining checks swapped; FenError when that is no position of the variant (horde's
        pawns must be White's)."""
        pos = VariantPosition.__new__(VariantPosition)
        out = _native.VPOS()
        _native.check(lib.chess_variant_position_mirror(self._ptr, ctypes.byref(out)))
        pos._ptr = out
        return pos

    # -- endings

    def is_check(self) -> bool:
        return lib.chess_variant_position_is_check(self._ptr)

    def is_checkmate(self) -> bool:
        return lib.chess_variant_position_is_checkmate(self._ptr)

    def is_stalemate(self) -> bool:
        return lib.chess_variant_position_is_stalemate(self._ptr)

    def is_fifty_moves(self) -> bool:
        """Whether 100 plies passed without a capture or pawn move and the game goes on (never
        in crazyhouse)."""
        return lib.chess_variant_position_is_fifty_moves(self._ptr)

    def is_seventy_five_moves(self) -> bool:
        """Whether 150 plies passed without a capture or pawn move and a move could still be
        played (never in crazyhouse)."""
        return lib.chess_variant_position_is_seventy_five_moves(self._ptr)

    def can_claim_fifty_moves(self) -> bool:
        """Whether a fifty-move draw may be claimed now or by announcing a legal move."""
        return lib.chess_variant_position_can_claim_fifty_moves(self._ptr)

    def status(self) -> int:
        """What python-chess's variant board would find wrong with this position: its
        ``status()`` flags as an int (0 for none). The library holds only positions it can
        play, but python-chess is stricter in places (more than 16 pieces a side, say)."""
        out = ctypes.c_uint32()
        _native.check(lib.chess_variant_position_status(self._ptr, ctypes.byref(out)))
        return out.value

    def is_variant_end(self) -> bool:
        """Whether the variant's own rule ended the game (an exploded king, a king on the hill,
        a third check, a side without pieces, a king on the eighth rank)."""
        return lib.chess_variant_position_is_variant_end(self._ptr)

    def has_insufficient_material(self, color: bool) -> bool:
        """Whether ``color`` cannot win by the variant's rules, as python-chess decides it."""
        return lib.chess_variant_position_has_insufficient_material(self._ptr, c_color(color))

    def is_insufficient_material(self) -> bool:
        return self.has_insufficient_material(WHITE) and self.has_insufficient_material(not WHITE)

    def outcome(self) -> Optional[Outcome]:
        """The Outcome once the position ends the game (the variant's own rule first, then
        checkmate, insufficient material, stalemate, the seventy-five-move rule; repetitions
        need a game), else None."""
        outcome = lib.chess_variant_position_outcome(self._ptr)
        return Outcome._of(outcome) if outcome.result else None
