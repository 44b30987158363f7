"""Games: a start position, the moves played and the positions they reached (an owned
``chess_game`` handle), with repetition and outcomes."""

from __future__ import annotations

import array
import ctypes
import enum
import threading
from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple, NoReturn, Optional, Sequence, Tuple, Union

from . import _args, _native
from ._native import lib
from .errors import ErrorCode, raise_for
from .position import Position
from .svg import Arrow
from .types import BLACK, WHITE, Move, raw_of

if TYPE_CHECKING:
    from .variant import Variant, VariantPosition


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
    VARIANT_WIN = 8
    VARIANT_LOSS = 9
    VARIANT_DRAW = 10


class Outcome:
    """The end of a game: ``termination`` and ``winner`` (WHITE, BLACK or None for a draw)."""

    __slots__ = ("termination", "winner")

    def __init__(self, termination: Termination, winner: Optional[bool]):
        self.termination = _args.of_type(termination, Termination, "termination")
        self.winner = _args.of_type(winner, (bool, type(None)), "winner")

    @classmethod
    def _of(cls, outcome: Any) -> Outcome:
        """The Outcome of a chess_outcome (``chess_game_outcome``) whose game is over."""
        return cls(Termination(outcome.termination), _WINNERS[outcome.result])

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


def _owned(ptr: Any) -> Any:
    """A new game handle, unless memory ran out."""
    if not ptr:
        raise_for(ErrorCode.OUT_OF_MEMORY)
    return ptr


class Game:
    """A game from a start position (the standard one by default). ``moves`` lists the moves
    played, ``board()`` gives the current position; ``headers`` and ``error`` are filled by the
    PGN reader (an empty dict and None for games built here). Like Position, one object must not
    be changed by one thread while another uses it."""

    # A game read from PGN is built for a few microseconds: what the reader does not need at
    # once (headers, warnings, whether it is Chess960) is read from the handle on first use, in
    # one call each; the handle is freed by __del__, cheaper than a weakref.finalize per game.
    __slots__ = ("_ptr", "_is_chess960", "_headers", "error", "_warnings", "_edits", "__weakref__")
    _free = _native.per_game.chess_game_free

    def __init__(self, start: Optional[Union[Position, VariantPosition]] = None):
        from .variant import VariantPosition

        start = _args.of_type(start, (Position, VariantPosition, type(None)), "start")
        if isinstance(start, VariantPosition):
            self._adopt(lib.chess_game_new_variant(start._ptr), {})
        else:
            self._adopt(lib.chess_game_new(start._pos if start is not None else None), {})

    def _adopt(self, ptr: Any, headers: Optional[Dict[str, str]], error: Optional[Exception] = None) -> None:
        """Takes ownership of ``ptr``; ``headers`` None reads them from the handle when asked."""
        self._ptr = _owned(ptr)
        self._is_chess960 = None
        self._headers = headers
        self.error = error
        self._warnings = None
        self._edits = 0  # moves pushed or popped: what a mainline() snapshot checks

    def __del__(self) -> None:
        try:
            ptr = self._ptr
        except AttributeError:  # unset when the library ran out of memory
            return
        if ptr:
            self._free(ptr)

    @classmethod
    def _wrap(cls, ptr: Any, headers: Optional[Dict[str, str]] = None, error: Optional[Exception] = None) -> Game:
        game = cls.__new__(cls)
        game._adopt(ptr, {} if headers is None else headers, error)
        return game

    @classmethod
    def _from_pgn(cls, ptr: Any, error: Optional[Exception] = None) -> Game:
        game = cls.__new__(cls)
        game._adopt(ptr, None, error)
        return game

    @property
    def headers(self) -> Dict[str, str]:
        """The tags, in order (a dict the caller may change; ``pgn()`` writes it)."""
        headers = self._headers
        if headers is None:
            headers = self._headers = _tags(self._ptr)
        return headers

    @headers.setter
    def headers(self, headers: Dict[str, str]) -> None:
        self._headers = headers

    @property
    def warnings(self) -> List[str]:
        """What the PGN reader accepted leniently and told of (text that was not UTF-8...)."""
        warnings = self._warnings
        if warnings is None:
            ptr = self._ptr
            warnings = self._warnings = [
                _native.read_text(lib.chess_game_warning, ptr, i) for i in range(lib.chess_game_warning_count(ptr))
            ]
        return warnings

    @property
    def _chess960(self) -> bool:
        is_chess960 = self._is_chess960
        if is_chess960 is None:
            start = _game_start(self._ptr)  # NULL for a variant game
            is_chess960 = self._is_chess960 = bool(start) and bool(_position_is_chess960(start))
        return is_chess960

    @property
    def variant(self) -> Variant:
        """The rules played: ``Variant.CHESS`` or ``Variant.CHESS960`` for a chess game, else
        the lichess variant of a game built from a ``VariantPosition`` or read with
        ``read_pgn(..., variants=True)``. A variant game's positions (``board()``, ``start()``,
        ``position_at()``) are ``VariantPosition``s."""
        from .variant import Variant

        return Variant(lib.chess_game_variant(self._ptr))

    def _is_variant(self) -> bool:
        return not _game_start(self._ptr)

    def _variant_position_at(self, ply: int) -> VariantPosition:
        """A copy of a variant game's position after ``ply`` main-line moves."""
        from .variant import VariantPosition

        node = 0 if ply == 0 else _scratch.buffers.nodes(self._ptr)[ply - 1]
        pos = VariantPosition()
        _native.check(lib.chess_node_variant_position(self._ptr, node, pos._ptr))
        return pos

    def copy(self) -> Game:
        """A copy with everything the game holds (moves, headers, comments, variations)."""
        return Game._wrap(_owned(lib.chess_game_clone(self._ptr)), dict(self.headers), self.error)

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> Game:
        return self.copy()

    def __reduce_ex__(self, protocol: object) -> NoReturn:
        # The game is a handle into the library; its PGN is what can travel.
        raise TypeError("a Game cannot be pickled: send its pgn() and read that back")

    def __len__(self) -> int:
        """The number of moves (plies) played."""
        return _game_ply_count(self._ptr)

    def __repr__(self) -> str:
        return f"<Game {len(self)} plies, {self.result()}, {self.board().fen()!r}>"

    # -- moves

    def push(self, move: Move) -> None:
        """Plays a legal move (Move.null() when null moves are allowed); raises
        IllegalMoveError otherwise, leaving the game unchanged."""
        code = lib.chess_game_push(self._ptr, raw_of(move))
        if code:
            raise self._move_error(code, move)
        self._edits += 1

    def push_san(self, text: str) -> Move:
        """Plays a move given in SAN (lenient) and returns it."""
        out = ctypes.c_uint16()
        code = lib.chess_game_push_san(self._ptr, _args.text(text, "move"), ctypes.byref(out))
        if code:
            raise self._move_error(code, text, "san")
        self._edits += 1
        return Move(out.value, self._chess960)

    def push_uci(self, text: str) -> Move:
        """Plays a move given in UCI and returns it."""
        out = ctypes.c_uint16()
        code = lib.chess_game_push_uci(self._ptr, _args.text(text, "move"), ctypes.byref(out))
        if code:
            raise self._move_error(code, text, "uci")
        self._edits += 1
        return Move(out.value, self._chess960)

    def _move_error(self, code: int, move: Any, notation: str = "move") -> Exception:
        if self._is_variant():
            return _native.move_error(code, None, move, notation, fen=lambda: self.board().fen())
        return _native.move_error(code, lib.chess_game_position(self._ptr), move, notation)

    def pop(self) -> Move:
        """Takes back the last move and returns it (EmptyHistoryError, an IndexError, when
        there is none)."""
        out = ctypes.c_uint16()
        _native.check(lib.chess_game_pop(self._ptr, ctypes.byref(out)))
        self._edits += 1
        return Move(out.value, self._chess960)

    @property
    def moves(self) -> List[Move]:
        """The moves played, oldest first (a new list)."""
        raws = _scratch.buffers.moves(self._ptr)
        table = _MOVE_TABLES[self._chess960]
        try:
            return [table[raw] for raw in raws]
        except IndexError:  # an encoding above those the table holds yet
            _grow(table, max(raws), self._chess960)
            return [table[raw] for raw in raws]

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
        nodes = _scratch.buffers.nodes(self._ptr)
        line = _MainLine(self)
        return [GameMove(self, node, line, i) for i, node in enumerate(nodes)]

    # -- positions (copies: the game's own change as moves are pushed and popped)

    def board(self) -> Union[Position, VariantPosition]:
        """A copy of the current (final) position."""
        if self._is_variant():
            return self._variant_position_at(len(self))
        return Position._copy_of(lib.chess_game_position(self._ptr))

    def start(self) -> Union[Position, VariantPosition]:
        """A copy of the start position."""
        if self._is_variant():
            return self._variant_position_at(0)
        return Position._copy_of(lib.chess_game_start(self._ptr))

    def position_at(self, ply: int) -> Union[Position, VariantPosition]:
        """A copy of the position after ``ply`` moves (0: the start)."""
        ply = _args.integer(ply, "ply", 0, len(self))
        if self._is_variant():
            return self._variant_position_at(ply)
        return Position._copy_of(lib.chess_game_position_at(self._ptr, ply))

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
            return Outcome._of(outcome)
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
        THREEFOLD_REPETITION), else None; None too once the game is over by the automatic rules
        (a fivefold repetition, say), where python-chess's ``can_claim_draw`` still says True."""
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

    __slots__ = ("_game", "_node", "_line", "_index")

    def __init__(self, game: Game, node: int, line: Optional[_MainLine] = None, index: int = 0):
        self._game = game
        self._node = node
        self._line = line  # the main line this move was taken from, whose arrays it reads
        self._index = index

    def _current_line(self) -> Optional[_MainLine]:
        """The main line's arrays, while the game is as it was when this move was taken."""
        line = self._line
        return line if line is not None and line.edits == self._game._edits else None

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
        line = self._current_line()
        if line is not None:
            return line.san()[self._index]
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

    def _seconds(self, function, which) -> Optional[float]:
        line = self._current_line()
        if line is not None:
            seconds = line.times(which)[self._index]
            return None if seconds == _native.NO_TIME else seconds
        out = ctypes.c_double()
        code = function(self._game._ptr, self._node, ctypes.byref(out))
        if code == ErrorCode.END:
            return None
        _native.check(code)
        return out.value

    @property
    def clock(self) -> Optional[float]:
        """The time left to the player who moved, in seconds (python-chess's ``node.clock()``)."""
        return self._seconds(lib.chess_node_clock, _CLOCKS)

    @property
    def emt(self) -> Optional[float]:
        """The time the move took, in seconds (python-chess's ``node.emt()``)."""
        return self._seconds(lib.chess_node_elapsed, _ELAPSED)

    @property
    def eval(self) -> Optional[Eval]:
        line = self._current_line()
        if line is not None:
            return line.evals()[self._index]
        out = _native.NodeEval()
        code = lib.chess_node_eval(self._game._ptr, self._node, ctypes.byref(out))
        if code == ErrorCode.END:
            return None
        _native.check(code)
        return _eval(out)

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


def _eval(out: Any) -> Optional[Eval]:
    """The Eval of a chess_eval (None for CHESS_SCORE_NONE)."""
    kind = out.kind
    if kind == _native.SCORE_NONE:
        return None
    depth = None if out.depth == _native.EVAL_NO_DEPTH else out.depth
    if kind == _native.SCORE_MATE:
        return Eval(None, out.value, depth)
    return Eval(out.value, None, depth)


_TIME_ARRAYS = (lib.chess_game_mainline_clocks, lib.chess_game_mainline_elapsed)
_CLOCKS, _ELAPSED = 0, 1


class _MainLine:
    """What one ``mainline()`` call read of a game, for its GameMoves: the SAN, clocks, move
    times and evaluations of every move, each read in one call the first time one move asks."""

    __slots__ = ("_ptr", "edits", "_san", "_times", "_evals")

    def __init__(self, game: Game):
        self._ptr = game._ptr
        self.edits = game._edits
        self._san: Optional[List[str]] = None
        self._times: List[Optional[List[float]]] = [None] * len(_TIME_ARRAYS)
        self._evals: Optional[List[Optional[Eval]]] = None

    def san(self) -> List[str]:
        if self._san is None:
            line = _native.read_text(lib.chess_game_mainline_san, self._ptr, size=1024)
            self._san = line.split(" ") if line else []
        return self._san

    def times(self, which: int) -> List[float]:
        """The clocks (``_CLOCKS``) or the move times (``_ELAPSED``), NO_TIME for none."""
        times = self._times[which]
        if times is None:
            function = _TIME_ARRAYS[which]
            n = function(self._ptr, None, 0)
            buf = (ctypes.c_double * n)()
            function(self._ptr, buf, n)
            times = self._times[which] = buf[:]
        return times

    def evals(self) -> List[Optional[Eval]]:
        if self._evals is None:
            n = lib.chess_game_mainline_evals(self._ptr, None, 0)
            buf = (_native.NodeEval * n)()
            lib.chess_game_mainline_evals(self._ptr, buf, n)
            self._evals = [_eval(e) for e in buf]
        return self._evals


# The library's moves (by encoding) as Move objects, so that a game's moves cost a look-up each
# (Moves are immutable): one table for standard chess and one for Chess960, whose castling reads
# differently. A table is a list indexed by the 16-bit encoding, which holds the Move of every
# encoding below its length: subscripting a list with an int is several times cheaper than a
# dict look-up (whose key, a new int for each move read, is compared by value), and a table
# without holes needs no test for a move not met yet, only IndexError for one above them all.
# It grows by whole move kinds (4,096 encodings, bits 12-15), to 32,768 Moves (about 2 MB) once
# a promotion is met.
_MOVE_TABLES: Tuple[List[Move], List[Move]] = ([], [])
_GROWING = threading.Lock()


def _grow(table: List[Move], raw: int, chess960: bool) -> None:
    """Makes ``table`` hold the Moves up to ``raw``'s kind, all of them."""
    with _GROWING:  # two threads growing the table at once would misplace the encodings
        table.extend(Move._trusted(code, chess960) for code in range(len(table), (raw | 0xFFF) + 1))


class _Buffers:
    """Buffers the library fills, reused from game to game instead of allocated for each: one
    set per thread (``_scratch.buffers``), as ctypes releases the GIL during a call."""

    __slots__ = (
        "text", "text_room", "length", "length_ref", "array_cap", "array_room", "raw_values", "raws", "node_ids"
    )

    def __init__(self) -> None:
        # Sizes are also kept as c_size_t, for the calls without argtypes (_native.per_game).
        self.text = ctypes.create_string_buffer(1024)
        self.text_room = ctypes.c_size_t(len(self.text))
        self.length = ctypes.c_size_t()
        self.length_ref = ctypes.byref(self.length)
        self._grow(1024)

    def moves(self, ptr: Any) -> Sequence[int]:
        """The moves of the game (``chess_game_moves``), as ints (a copy: an ``array``, which
        slices and iterates faster than a ctypes array)."""
        n = _game_moves(ptr, self.raws, self.array_room)
        if n > self.array_cap:
            self._grow(n)
            n = _game_moves(ptr, self.raws, self.array_room)
        return self.raw_values[:n]

    def nodes(self, ptr: Any) -> List[int]:
        n = lib.chess_game_mainline_nodes(ptr, self.node_ids, self.array_cap)
        if n > self.array_cap:
            self._grow(n)
            n = lib.chess_game_mainline_nodes(ptr, self.node_ids, self.array_cap)
        return self.node_ids[:n]

    def _grow(self, n: int) -> None:
        self.array_cap = n
        self.array_room = ctypes.c_size_t(n)
        self.raw_values = array.array("H", bytes(2 * n))
        self.raws = (ctypes.c_uint16 * n).from_buffer(self.raw_values)  # the library writes there
        self.node_ids = (ctypes.c_uint32 * n)()

    def tags(self, ptr: Any) -> bytes:
        """The text ``chess_game_tags`` writes."""
        code = _game_tags(ptr, self.text, self.text_room, self.length_ref)
        if code == _BUFFER_TOO_SMALL:
            self.text = ctypes.create_string_buffer(self.length.value + 1)
            self.text_room = ctypes.c_size_t(len(self.text))
            code = _game_tags(ptr, self.text, self.text_room, self.length_ref)
        _native.check(code)
        return self.text[: self.length.value]


class _Scratch(threading.local):
    """Each thread's ``buffers``, made the first time the thread asks. Read once per call: an
    attribute of a threading.local costs several times one of a plain object."""

    def __init__(self) -> None:
        self.buffers = _Buffers()


_BUFFER_TOO_SMALL = int(ErrorCode.BUFFER_TOO_SMALL)
_per_game = _native.per_game
# (module globals, which the interpreter reads from a cache, unlike the attributes of per_game)
_game_start, _position_is_chess960 = _per_game.chess_game_start, _per_game.chess_position_is_chess960
_game_moves, _game_tags = _per_game.chess_game_moves, _per_game.chess_game_tags
_game_ply_count = _per_game.chess_game_ply_count
_scratch = _Scratch()


def _tags(ptr: Any) -> Dict[str, str]:
    """The tags of a game handle as a dict, in order: one call, names and values NUL-separated."""
    fields = iter(_scratch.buffers.tags(ptr).decode("utf-8").split("\0"))
    return dict(zip(fields, fields))  # the empty text after the last NUL has no pair: left out
