"""Games: a start position, the moves played and the positions they reached (an owned
``chess_game`` handle), with repetition and outcomes."""

from __future__ import annotations

import ctypes
import enum
import weakref
from typing import Any, Dict, List, NamedTuple, Optional

from . import _args, _native
from ._native import lib
from .errors import ErrorCode, raise_for
from .position import Position, _move_error, _raw
from .svg import Arrow
from .types import BLACK, WHITE, Move


class Termination(enum.IntEnum):
    """Why a game ended, or which draw may be claimed (python-chess's names, chesscore.h's
    numbers)."""

    CHECKMATE = 1
    STALEMATE = 2
    INSUFFICIENT_MATERIAL = 3
    SEVENTYFIVE_MOVES = 4
    FIVEFOLD_REPETITION = 5
    FIFTY_MOVES = 6
    THREEFOLD_REPETITION = 7


class Outcome:
    """The end of a game: ``termination`` and ``winner`` (WHITE, BLACK or None for a draw)."""

    __slots__ = ("termination", "winner")

    def __init__(self, termination: Termination, winner: Optional[bool]):
        self.termination = _args.of_type(termination, Termination, "termination")
        self.winner = _args.of_type(winner, (bool, type(None)), "winner")

    def result(self) -> str:
        """"1-0", "0-1" or "1/2-1/2"."""
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner else "0-1")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return (self.termination, self.winner) == (other.termination, other.winner)

    def __hash__(self) -> int:
        return hash((self.termination, self.winner))

    def __repr__(self) -> str:
        return f"Outcome(termination={self.termination!r}, winner={self.winner!r})"


_WINNERS = {1: WHITE, 2: BLACK, 3: None}


def _owned(ptr):
    """A new game handle, unless memory ran out."""
    if not ptr:
        raise_for(ErrorCode.OUT_OF_MEMORY)
    return ptr


class Game:
    """A game from a start position (the standard one by default). ``moves`` lists the moves
    played, ``board()`` gives the current position; ``headers`` and ``error`` are filled by the
    PGN reader (an empty dict and None for games built here). Like Position, one object must not
    be changed by one thread while another uses it."""

    __slots__ = ("_ptr", "_finalizer", "_chess960", "headers", "error", "warnings", "__weakref__")

    def __init__(self, start: Optional[Position] = None):
        start = _args.of_type(start, (Position, type(None)), "start")
        self._adopt(lib.chess_game_new(start._pos if start is not None else None))

    def _adopt(self, ptr, headers=None, error=None):
        self._ptr = _owned(ptr)
        self._finalizer = weakref.finalize(self, lib.chess_game_free, ptr)
        self._chess960 = lib.chess_position_is_chess960(lib.chess_game_start(ptr))
        self.headers = {} if headers is None else headers
        self.error = error
        self.warnings = [
            _native.read_text(lib.chess_game_warning, ptr, i) for i in range(lib.chess_game_warning_count(ptr))
        ]

    @classmethod
    def _wrap(cls, ptr: Any, headers: Optional[Dict[str, str]] = None, error: Optional[Exception] = None) -> Game:
        game = cls.__new__(cls)
        game._adopt(ptr, headers, error)
        return game

    @classmethod
    def _from_pgn(cls, ptr, error=None):
        return cls._wrap(ptr, _tags(ptr), error)

    def copy(self) -> Game:
        """A copy with everything the game holds (moves, headers, comments, variations)."""
        return Game._wrap(_owned(lib.chess_game_clone(self._ptr)), dict(self.headers), self.error)

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> Game:
        return self.copy()

    def __len__(self) -> int:
        """The number of moves (plies) played."""
        return lib.chess_game_ply_count(self._ptr)

    def __repr__(self) -> str:
        return f"<Game {len(self)} plies, {self.result()}, {self.board().fen()!r}>"

    # -- moves

    def push(self, move: Move) -> None:
        """Plays a legal move (Move.null() when null moves are allowed); raises
        IllegalMoveError otherwise, leaving the game unchanged."""
        code = lib.chess_game_push(self._ptr, _raw(move))
        if code:
            raise _move_error(code, lib.chess_game_position(self._ptr), move)

    def push_san(self, text: str) -> Move:
        """Plays a move given in SAN (lenient) and returns it."""
        out = ctypes.c_uint16()
        code = lib.chess_game_push_san(self._ptr, _args.text(text, "move"), ctypes.byref(out))
        if code:
            raise _move_error(code, lib.chess_game_position(self._ptr), text, "san")
        return Move(out.value, self._chess960)

    def push_uci(self, text: str) -> Move:
        """Plays a move given in UCI and returns it."""
        out = ctypes.c_uint16()
        code = lib.chess_game_push_uci(self._ptr, _args.text(text, "move"), ctypes.byref(out))
        if code:
            raise _move_error(code, lib.chess_game_position(self._ptr), text, "uci")
        return Move(out.value, self._chess960)

    def pop(self) -> Move:
        """Takes back the last move and returns it (EmptyHistoryError, an IndexError, when
        there is none)."""
        out = ctypes.c_uint16()
        _native.check(lib.chess_game_pop(self._ptr, ctypes.byref(out)))
        return Move(out.value, self._chess960)

    @property
    def moves(self) -> List[Move]:
        """The moves played, oldest first (a new list)."""
        n = lib.chess_game_ply_count(self._ptr)
        buf = (ctypes.c_uint16 * n)()
        lib.chess_game_moves(self._ptr, buf, n)
        trusted, chess960 = Move._trusted, self._chess960
        return [trusted(raw, chess960) for raw in buf]

    def san_moves(self) -> List[str]:
        """The moves as SAN, with check and mate suffixes."""
        line = _native.read_text(lib.chess_game_san_moves, self._ptr, size=1024)
        return line.split(" ") if line else []

    @property
    def allow_null_moves(self) -> bool:
        return lib.chess_game_allows_null_moves(self._ptr)

    @allow_null_moves.setter
    def allow_null_moves(self, allow: bool) -> None:
        lib.chess_game_set_allow_null_moves(self._ptr, _args.of_type(allow, bool, "allow_null_moves"))

    def mainline(self) -> List[GameMove]:
        """The moves of the main line as ``GameMove``s, first move first: each with its SAN as
        written, comments, NAGs and what the commands in its comments say (``clock``, ``eval``,
        ``arrows``...). They describe the game as it is: push or pop a move and take them again."""
        moves = []
        node = lib.chess_node_first_child(self._ptr, 0)
        while node != _NODE_NONE:
            moves.append(GameMove(self, node))
            node = lib.chess_node_first_child(self._ptr, node)
        return moves

    # -- positions (copies: the game's own change as moves are pushed and popped)

    def board(self) -> Position:
        """A copy of the current (final) position."""
        return Position._copy_of(lib.chess_game_position(self._ptr))

    def start(self) -> Position:
        """A copy of the start position."""
        return Position._copy_of(lib.chess_game_start(self._ptr))

    def position_at(self, ply: int) -> Position:
        """A copy of the position after ``ply`` moves (0: the start)."""
        return Position._copy_of(lib.chess_game_position_at(self._ptr, _args.integer(ply, "ply", 0, len(self))))

    # -- PGN

    def pgn(self) -> str:
        """The game as export PGN: the Seven Tag Roster (defaults for missing ones), the other
        ``headers``, SetUp/FEN/Variant as the start position needs, then the movetext with the
        comments, NAGs and variations read, wrapped at 80 columns, and the result (the movetext's
        result when read from PGN, else the Result header, else ``*``). ``read_pgn`` reads it
        back to the same game."""
        self._sync_tags()
        return _native.read_text(lib.chess_game_to_pgn, self._ptr, size=4096)

    def _sync_tags(self) -> None:
        """Makes the handle's tags those of ``headers`` (FEN, SetUp and Variant follow the start
        position and are left to the library)."""
        for name in _tags(self._ptr):
            if name not in self.headers:
                _native.check(lib.chess_game_remove_tag(self._ptr, _args.text(name, "tag name")))
        for name, value in self.headers.items():
            if name in ("FEN", "SetUp", "Variant"):
                continue
            _native.check(
                lib.chess_game_set_tag(self._ptr, _args.text(name, "tag name"), _args.text(value, "tag value"))
            )

    # -- outcome

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """The Outcome when the game is over by the automatic rules (checkmate, insufficient
        material, stalemate, seventy-five moves, fivefold repetition) or, with ``claim_draw``, by
        a draw the side to move may claim; None while it goes on."""
        outcome = lib.chess_game_outcome(self._ptr)
        if outcome.result:
            return Outcome(Termination(outcome.termination), _WINNERS[outcome.result])
        if _args.of_type(claim_draw, bool, "claim_draw"):
            draw = self.claimable_draw()
            if draw is not None:
                return Outcome(draw, None)
        return None

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self, *, claim_draw: bool = False) -> str:
        """"1-0", "0-1", "1/2-1/2", or "*" while the game goes on."""
        outcome = self.outcome(claim_draw=claim_draw)
        return "*" if outcome is None else outcome.result()

    def claimable_draw(self) -> Optional[Termination]:
        """The draw the side to move may claim now (Termination.FIFTY_MOVES, else
        THREEFOLD_REPETITION), else None."""
        termination = lib.chess_game_claimable_draw(self._ptr)
        return Termination(termination) if termination else None

    def can_claim_draw(self) -> bool:
        return self.claimable_draw() is not None

    def repetition_count(self) -> int:
        """How many times the current position has occurred, this time included."""
        return lib.chess_game_repetition_count(self._ptr)

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position has occurred at least ``count`` times."""
        return self.repetition_count() >= _args.integer(count, "count", 1)

    def is_threefold_repetition(self) -> bool:
        return lib.chess_game_is_threefold_repetition(self._ptr)

    def is_fivefold_repetition(self) -> bool:
        return lib.chess_game_is_fivefold_repetition(self._ptr)

    def can_claim_threefold_repetition(self) -> bool:
        return lib.chess_game_can_claim_threefold_repetition(self._ptr)


_NODE_NONE = 0xFFFFFFFF


class Eval(NamedTuple):
    """An ``[%eval ...]`` command: ``cp`` (centipawns) or ``mate`` (moves to mate; 0 after mate),
    both from White's side as lichess writes them (python-chess's ``node.eval().white()``), and
    the search ``depth`` when given."""

    cp: Optional[int]
    mate: Optional[int]
    depth: Optional[int]


class Highlight(NamedTuple):
    """A square of ``[%csl ...]`` and its colour (red, green, yellow or blue)."""

    square: int
    color: str


class GameMove:
    """A move of a game read from PGN, in the style of python-chess's ``ChildNode``: ``move``,
    ``san`` (as written), ``comments`` (as written, commands included), ``comment`` (their text
    without the commands), ``nags``, and what the commands in its comments say: ``clock`` and
    ``emt`` (seconds, ``[%clk ...]``, ``[%emt ...]``), ``eval`` (``[%eval ...]``), ``arrows``
    (``[%cal ...]``) and ``highlights`` (``[%csl ...]``); None or empty when absent."""

    __slots__ = ("_game", "_node")

    def __init__(self, game: Game, node: int):
        self._game = game
        self._node = node

    def __repr__(self):
        return f"<GameMove {self.ply}: {self.san}>"

    @property
    def ply(self) -> int:
        return lib.chess_node_ply(self._game._ptr, self._node)

    @property
    def move(self) -> Move:
        return Move(lib.chess_node_move(self._game._ptr, self._node), self._game._chess960)

    @property
    def san(self) -> str:
        return _native.read_text(lib.chess_node_san, self._game._ptr, self._node, size=16)

    @property
    def comments(self) -> List[str]:
        ptr, node = self._game._ptr, self._node
        return [
            _native.read_text(lib.chess_node_comment, ptr, node, 0, i)
            for i in range(lib.chess_node_comment_count(ptr, node, 0))
        ]

    @property
    def comment(self) -> str:
        return _native.read_text(lib.chess_node_comment_text, self._game._ptr, self._node)

    @property
    def nags(self) -> List[int]:
        buf = ctypes.create_string_buffer(16)
        n = lib.chess_node_nags(self._game._ptr, self._node, buf, len(buf))
        if n > len(buf):
            buf = ctypes.create_string_buffer(n)
            lib.chess_node_nags(self._game._ptr, self._node, buf, n)
        return list(buf.raw[:n])

    def _seconds(self, function) -> Optional[float]:
        out = ctypes.c_double()
        code = function(self._game._ptr, self._node, ctypes.byref(out))
        if code == ErrorCode.END:
            return None
        _native.check(code)
        return out.value

    @property
    def clock(self) -> Optional[float]:
        """The time left to the player who moved, in seconds (python-chess's ``node.clock()``)."""
        return self._seconds(lib.chess_node_clock)

    @property
    def emt(self) -> Optional[float]:
        """The time the move took, in seconds (python-chess's ``node.emt()``)."""
        return self._seconds(lib.chess_node_elapsed)

    @property
    def eval(self) -> Optional[Eval]:
        out = _native.NodeEval()
        code = lib.chess_node_eval(self._game._ptr, self._node, ctypes.byref(out))
        if code == ErrorCode.END:
            return None
        _native.check(code)
        depth = None if out.depth == _native.EVAL_NO_DEPTH else out.depth
        if out.kind == _native.SCORE_MATE:
            return Eval(None, out.value, depth)
        return Eval(out.value, None, depth)

    def _marks(self, function, kind):
        ptr, node = self._game._ptr, self._node
        n = function(ptr, node, None, 0)
        buf = (kind * n)()
        function(ptr, node, buf, n)
        return buf

    @property
    def arrows(self) -> List[Arrow]:
        """The arrows (``chesscore.svg.Arrow``, which ``svg.board`` draws)."""
        marks = self._marks(lib.chess_node_arrows, _native.NodeArrow)
        return [Arrow(getattr(m, "from"), m.to, _native.MARK_COLORS[m.color]) for m in marks]

    @property
    def highlights(self) -> List[Highlight]:
        marks = self._marks(lib.chess_node_highlights, _native.NodeHighlight)
        return [Highlight(m.square, _native.MARK_COLORS[m.color]) for m in marks]


_BUFFER_TOO_SMALL = int(ErrorCode.BUFFER_TOO_SMALL)


def _tags(ptr) -> Dict[str, str]:
    """The tags of a game handle as a dict, in order. (Read for every game of a PGN file: the
    loop keeps its buffers, references and functions at hand.)"""
    tags: Dict[str, str] = {}
    count = lib.chess_game_tag_count(ptr)
    if not count:
        return tags
    name_buf = ctypes.create_string_buffer(64)
    value_buf = ctypes.create_string_buffer(256)
    name_len = ctypes.c_size_t()
    value_len = ctypes.c_size_t()
    name_ref, value_ref = ctypes.byref(name_len), ctypes.byref(value_len)
    tag_at = lib.chess_game_tag_at
    for i in range(count):
        code = tag_at(ptr, i, name_buf, len(name_buf), name_ref, value_buf, len(value_buf), value_ref)
        if code == _BUFFER_TOO_SMALL:
            name_buf = ctypes.create_string_buffer(max(len(name_buf), name_len.value + 1))
            value_buf = ctypes.create_string_buffer(max(len(value_buf), value_len.value + 1))
            code = tag_at(ptr, i, name_buf, len(name_buf), name_ref, value_buf, len(value_buf), value_ref)
        if code:
            _native.check(code)
        tags[name_buf.raw[: name_len.value].decode("utf-8")] = value_buf.raw[: value_len.value].decode("utf-8")
    return tags
