"""Driving UCI engines, in the shape of python-chess's ``chess.engine`` for the common cases.

    >>> import chesscore, chesscore.engine                        # doctest: +SKIP
    >>> engine = chesscore.engine.SimpleEngine.popen_uci("stockfish")
    >>> info = engine.analyse(chesscore.Position(), chesscore.engine.Limit(depth=12))
    >>> info["score"].white(), info["pv"][0]
    (Cp(+38), <Move e2e4 raw=0x071c>)
    >>> engine.play(chesscore.Position(), chesscore.engine.Limit(time=0.1)).move
    <Move e2e4 raw=0x071c>
    >>> engine.quit()

Every wait has a timeout (``popen_uci(..., timeout=10.0)``): an engine that crashes, hangs or
breaks the protocol raises an ``EngineError`` (``EngineTerminatedError``,
``EngineTimeoutError``) instead of freezing the caller, and its process is gone. One engine
serves one call at a time (calls from several threads wait their turn); distinct engines run in
parallel. As in python-chess, a new command stops an ``analysis()`` still running, and
``quit()`` from another thread ends it with ``EngineTerminatedError``.
"""

from __future__ import annotations

import ctypes
import math
import os
import queue
import threading
import weakref
from typing import Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _args, _native
from ._native import lib
from .errors import EngineError, ErrorCode, error_for, raise_for
from .game import Game
from .position import Position
from .types import BLACK, WHITE, Move
from .variant import VariantPosition

__all__ = [
    "Cp",
    "EngineError",
    "Limit",
    "Mate",
    "Option",
    "PlayResult",
    "PovScore",
    "PovWdl",
    "SimpleEngine",
    "Wdl",
    "AnalysisResult",
    "BestMove",
]


class Limit:
    """What a search may do: ``time`` (seconds for this move), ``depth``, ``nodes``, ``mate``,
    and the clocks ``white_clock``, ``black_clock``, ``white_inc``, ``black_inc`` (seconds),
    ``remaining_moves``."""

    def __init__(
        self,
        *,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        mate: Optional[int] = None,
        white_clock: Optional[float] = None,
        black_clock: Optional[float] = None,
        white_inc: Optional[float] = None,
        black_inc: Optional[float] = None,
        remaining_moves: Optional[int] = None,
    ):
        self.time = time
        self.depth = depth
        self.nodes = nodes
        self.mate = mate
        self.white_clock = white_clock
        self.black_clock = black_clock
        self.white_inc = white_inc
        self.black_inc = black_inc
        self.remaining_moves = remaining_moves

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if v is not None)
        return f"Limit({fields})"

    def _native(self, multipv: Optional[int], infinite: bool) -> _native.Limits:
        limits = _native.Limits()
        limits.size = ctypes.sizeof(limits)
        limits.depth = _count("depth", self.depth, 32)
        limits.mate = _count("mate", self.mate, 32)
        limits.nodes = _count("nodes", self.nodes, 64)
        limits.movetime_ms = _millis("time", self.time)
        limits.wtime_ms = _millis("white_clock", self.white_clock)
        limits.btime_ms = _millis("black_clock", self.black_clock)
        limits.winc_ms = _millis("white_inc", self.white_inc)
        limits.binc_ms = _millis("black_inc", self.black_inc)
        limits.movestogo = _count("remaining_moves", self.remaining_moves, 32, minimum=0)
        limits.multipv = _count("multipv", multipv, 32)
        limits.flags = _native.LIMIT_INFINITE if infinite else 0
        return limits


def _count(name: str, value, bits: int, minimum: int = 1) -> int:
    """A whole number that fits the C field of ``bits`` bits (0 there means no limit, so a
    limit starts at ``minimum``); None is 0."""
    return 0 if value is None else _args.integer(value, name, minimum, (1 << bits) - 1)


# The longest time a C field holds, in milliseconds (about 49.7 days).
_MAX_MILLIS = (1 << 32) - 1


def _millis(name: str, seconds) -> int:
    """Seconds as whole milliseconds (at least 1) for a C field; None is 0 (no limit)."""
    if seconds is None:
        return 0
    _args.of_type(seconds, (int, float), name)
    if not math.isfinite(seconds) or seconds < 0 or seconds * 1000 > _MAX_MILLIS:
        raise_for(ErrorCode.INVALID_ARGUMENT, f"{name} must be from 0 to {_MAX_MILLIS / 1000} seconds, not {seconds}")
    return max(1, int(seconds * 1000))


class Score:
    """The base of ``Cp``, ``Mate`` and ``MateGiven``: scores are totally ordered as
    python-chess orders them, worst first: being mated now (``Mate(-0)``), then mated sooner
    before later (``Mate(-1) < Mate(-5)``), centipawns by value, mating later before sooner
    (``Mate(5) < Mate(1)``), and the mate given (``MateGiven``)."""

    __slots__ = ()

    def _rank(self) -> Tuple[int, int]:
        raise NotImplementedError

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        raise NotImplementedError

    def mate(self) -> Optional[int]:
        raise NotImplementedError

    def is_mate(self) -> bool:
        return self.mate() is not None

    def __eq__(self, other: object) -> bool:
        return self._rank() == other._rank() if isinstance(other, Score) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._rank())

    def __lt__(self, other: object) -> bool:
        return self._rank() < other._rank() if isinstance(other, Score) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self._rank() <= other._rank() if isinstance(other, Score) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self._rank() > other._rank() if isinstance(other, Score) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self._rank() >= other._rank() if isinstance(other, Score) else NotImplemented


class Cp(Score):
    """A score in centipawns."""

    __slots__ = ("cp",)

    def __init__(self, cp: int):
        self.cp = cp

    def _rank(self) -> Tuple[int, int]:
        return (1, self.cp)

    def score(self, *, mate_score: Optional[int] = None) -> int:
        return self.cp

    def mate(self) -> Optional[int]:
        return None

    def __neg__(self) -> Cp:
        return Cp(-self.cp)

    def __pos__(self) -> Cp:
        return Cp(self.cp)

    def __abs__(self) -> Cp:
        return Cp(abs(self.cp))

    def __repr__(self) -> str:
        return f"Cp({self})"

    def __str__(self) -> str:
        """``+35``, ``-120``, ``0``, as python-chess writes a score."""
        return f"+{self.cp}" if self.cp > 0 else str(self.cp)


class Mate(Score):
    """Mate in ``moves`` moves (negative, or 0: the side whose point of view it is gets mated;
    ``Mate(0)`` is mated now, and ``-Mate(0)`` is ``MateGiven``)."""

    __slots__ = ("moves",)

    def __init__(self, moves: int):
        self.moves = moves

    def _rank(self) -> Tuple[int, int]:
        return (2, -self.moves) if self.moves > 0 else (0, -self.moves)

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """None, or with ``mate_score`` a large centipawn value: ``mate_score - moves`` when
        mating, ``-mate_score - moves`` when mated."""
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> int:
        return self.moves

    def __neg__(self) -> Score:
        return MateGiven if self.moves == 0 else Mate(-self.moves)

    def __pos__(self) -> Mate:
        return Mate(self.moves)

    def __abs__(self) -> Score:
        return MateGiven if self.moves == 0 else Mate(abs(self.moves))

    def __repr__(self) -> str:
        return f"Mate({str(self)[1:]})"

    def __str__(self) -> str:
        """``#+3``, ``#-4`` (``#-0`` after mate), as python-chess writes a mate."""
        return f"#+{self.moves}" if self.moves > 0 else f"#-{abs(self.moves)}"


class MateGivenType(Score):
    """The score of the side that has just mated (``-Mate(0)``); its one value is
    ``MateGiven``."""

    __slots__ = ()

    def _rank(self) -> Tuple[int, int]:
        return (3, 0)

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return mate_score

    def mate(self) -> int:
        return 0

    def __neg__(self) -> Mate:
        return Mate(0)

    def __pos__(self) -> MateGivenType:
        return self

    def __abs__(self) -> MateGivenType:
        return self

    def __repr__(self) -> str:
        return "MateGiven"

    def __str__(self) -> str:
        return "#+0"


MateGiven = MateGivenType()


class PovScore:
    """A score from the point of view of ``turn`` (the side to move of the searched position):
    ``relative``; ``white()``, ``black()`` and ``pov(color)`` from a chosen side."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative: Score, turn: bool):
        self.relative = relative
        self.turn = turn

    def pov(self, color: bool) -> Score:
        return self.relative if color == self.turn else -self.relative

    def white(self):
        return self.pov(WHITE)

    def black(self):
        return self.pov(BLACK)

    def is_mate(self) -> bool:
        return self.relative.is_mate()

    def __eq__(self, other):
        return isinstance(other, PovScore) and self.white() == other.white()

    def __repr__(self):
        return f"PovScore({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"


class Wdl(NamedTuple):
    """Win, draw and loss chances in permille."""

    wins: int
    draws: int
    losses: int

    def expectation(self) -> float:
        return (self.wins + 0.5 * self.draws) / max(1, self.wins + self.draws + self.losses)


class PovWdl:
    """A ``Wdl`` from the point of view of ``turn``; ``white()``, ``black()``, ``pov(color)``."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative: Wdl, turn: bool):
        self.relative = relative
        self.turn = turn

    def pov(self, color: bool) -> Wdl:
        wins, draws, losses = self.relative
        return self.relative if color == self.turn else Wdl(losses, draws, wins)

    def white(self):
        return self.pov(WHITE)

    def black(self):
        return self.pov(BLACK)

    def __repr__(self):
        return f"PovWdl({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"


class Option(NamedTuple):
    """An option the engine declared: ``type`` is "check", "spin", "combo", "button" or
    "string"; ``default`` is a bool for a check, an int for a spin, else text."""

    name: str
    type: str
    default: object
    min: Optional[int]
    max: Optional[int]
    var: List[str]


class PlayResult:
    """The move chosen (None when the engine had none), the reply it expects (``ponder``) and
    the last info of its best line."""

    def __init__(self, move: Optional[Move], ponder: Optional[Move], info: dict):
        self.move = move
        self.ponder = ponder
        self.info = info

    def __repr__(self):
        return f"<PlayResult move={self.move} ponder={self.ponder}>"


class BestMove(NamedTuple):
    move: Optional[Move]
    ponder: Optional[Move]


_OPTION_TYPES = {
    _native.OPTION_CHECK: "check",
    _native.OPTION_SPIN: "spin",
    _native.OPTION_COMBO: "combo",
    _native.OPTION_BUTTON: "button",
    _native.OPTION_STRING: "string",
}


def _info_dict(info: _native.Info, turn: bool, chess960: bool) -> dict:
    """A python-chess info dict: only the fields the engine sent."""
    out = {"multipv": info.multipv}
    for key in ("depth", "seldepth", "nodes", "nps", "hashfull", "tbhits", "currmovenumber"):
        value = getattr(info, key)
        if value:
            out[key] = value
    if info.time_ms:
        out["time"] = info.time_ms / 1000
    if info.score_kind == _native.SCORE_CP:
        out["score"] = PovScore(Cp(info.score), turn)
    elif info.score_kind == _native.SCORE_MATE:
        out["score"] = PovScore(Mate(info.score), turn)
    if info.bound == _native.BOUND_LOWER:
        out["lowerbound"] = True
    elif info.bound == _native.BOUND_UPPER:
        out["upperbound"] = True
    if info.has_wdl:
        out["wdl"] = PovWdl(Wdl(info.wdl_win, info.wdl_draw, info.wdl_loss), turn)
    if info.currmove:
        out["currmove"] = Move(info.currmove, chess960)
    if info.pv_len:
        out["pv"] = [Move(info.pv[i], chess960) for i in range(info.pv_len)]
    if info.string is not None:
        out["string"] = info.string.decode("utf-8", "replace")
    return out


def _game_of(board: Union[Position, VariantPosition, Game]) -> Game:
    """The game to search: a Game as it is (its moves give the repetition history), a position
    as a game without moves."""
    if isinstance(board, Game):
        return board
    if isinstance(board, (Position, VariantPosition)):
        return Game(board)
    raise TypeError(
        f"board must be a chesscore.Position, chesscore.variant.VariantPosition or chesscore.Game, not {type(board).__name__}"
    )


class SimpleEngine(_native.OwnsHandle):
    """A UCI engine process, after the ``uci`` handshake. ``id`` holds its name and author,
    ``options`` what it declared."""

    def __init__(self, ptr):
        self._ptr = ptr
        self._finalizer = weakref.finalize(self, lib.chess_engine_free, ptr)
        # Held for each command; an analysis holds it for its whole search.
        self._lock = threading.Lock()
        # Guards the handle's life against `stop` from other threads, and `_analysis`.
        self._state = threading.Lock()
        self._analysis: Optional["AnalysisResult"] = None
        self.id = {
            "name": _native.read_text(lib.chess_engine_name, ptr),
            "author": _native.read_text(lib.chess_engine_author, ptr),
        }
        self.options = {}
        for index in range(lib.chess_engine_option_count(ptr)):
            option = self._option(index)
            self.options[option.name] = option

    @classmethod
    def popen_uci(
        cls,
        command: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]],
        *,
        timeout: float = 10.0,
        cwd: Optional[Union[str, os.PathLike]] = None,
    ) -> "SimpleEngine":
        """Starts ``command`` (a program, or a list of the program and its arguments; run
        directly, no shell) in ``cwd``, and does the handshake. ``timeout`` (seconds, up to
        about 49.7 days) bounds every wait for an answer."""
        timeout_ms = _millis("timeout", timeout)
        words = [command] if isinstance(command, (str, bytes, os.PathLike)) else list(command)
        if not words:
            raise ValueError("popen_uci needs a program")
        program, *args = [os.fsencode(word) for word in words]
        if any(b"\0" in word for word in [program, *args]):
            raise_for(ErrorCode.INVALID_TEXT, "an engine's program and arguments cannot hold a NUL character")
        argv = (ctypes.c_char_p * max(1, len(args)))(*args)
        options = _native.EngineOptions()
        options.size = ctypes.sizeof(options)
        options.args = argv
        options.arg_count = len(args)
        options.working_dir = os.fsencode(cwd) if cwd is not None else None
        options.timeout_ms = timeout_ms
        out = ctypes.POINTER(_native.Engine)()
        _native.check(lib.chess_engine_start(program, ctypes.byref(options), ctypes.byref(out)))
        return cls(out)

    def _option(self, index: int) -> Option:
        info = _native.EngineOption()
        _native.check(lib.chess_engine_option_at(self._ptr, index, ctypes.byref(info)))
        name = _native.read_text(lib.chess_engine_option_name, self._ptr, index)
        default = _native.read_text(lib.chess_engine_option_default, self._ptr, index)
        kind = _OPTION_TYPES.get(info.option_type, "string")
        var = [_native.read_text(lib.chess_engine_option_var, self._ptr, index, i) for i in range(info.var_count)]
        if kind == "check":
            default = default == "true"
        elif kind == "spin":
            default = int(default) if default.lstrip("-").isdigit() else None
        is_spin = kind == "spin"
        return Option(name, kind, default, info.min if is_spin else None, info.max if is_spin else None, var)

    def _handle(self):
        if not self._finalizer.alive:
            raise error_for(ErrorCode.ENGINE_EXITED, "the engine was closed")
        return self._ptr

    def _send_stop(self) -> None:
        """``stop`` from any thread, while the handle lives (a closed engine has no search)."""
        with self._state:
            if self._finalizer.alive:
                lib.chess_engine_stop(self._ptr)

    def _end_analysis(self, terminated: bool = False) -> None:
        """Stops the analysis still running, if any, and waits for it: as in python-chess, a
        new command cancels it. The library bounds the wait (the best move is due within the
        timeout of `stop`)."""
        with self._state:
            analysis, self._analysis = self._analysis, None
        if analysis is not None:
            analysis._cancel(terminated)

    def configure(self, options: Dict[str, object]) -> None:
        """Sets options (``None`` presses a button; booleans are written ``true``/``false``)."""
        self._end_analysis()
        with self._lock:
            for name, value in options.items():
                text = None if value is None else ("true" if value else "false") if isinstance(value, bool) else str(value)
                _native.check(
                    lib.chess_engine_set_option(
                        self._handle(),
                        _args.text(name, "option name"),
                        None if text is None else _args.text(text, "option value"),
                    )
                )

    def ping(self) -> None:
        """An ``isready`` barrier."""
        self._end_analysis()
        with self._lock:
            _native.check(lib.chess_engine_is_ready(self._handle()))

    def new_game(self) -> None:
        """``ucinewgame``, then ``isready``."""
        self._end_analysis()
        with self._lock:
            _native.check(lib.chess_engine_new_game(self._handle()))

    def _search(self, board, limit: Limit, multipv: Optional[int], callback=None, infinite=False):
        """Runs a search to its end; gives (best, ponder, lines as info dicts)."""
        game = _game_of(board)
        pos = game.board()
        turn, chess960 = pos.turn, game._chess960
        limits = limit._native(multipv, infinite)
        out = ctypes.POINTER(_native.Analysis)()
        native_callback = _native.INFO_FN(callback) if callback is not None else _native.INFO_FN()
        with self._lock:
            code = lib.chess_engine_analyse_game(
                self._handle(), game._ptr, ctypes.byref(limits), native_callback, None, ctypes.byref(out)
            )
        if code:
            raise_for(code)
        try:
            best = lib.chess_analysis_best_move(out)
            ponder = lib.chess_analysis_ponder_move(out)
            lines = []
            for index in range(lib.chess_analysis_line_count(out)):
                info = _native.Info()
                _native.check(lib.chess_analysis_line(out, index, ctypes.byref(info)))
                lines.append(_info_dict(info, turn, chess960))
        finally:
            lib.chess_analysis_free(out)
        return (Move(best, chess960) if best else None, Move(ponder, chess960) if ponder else None, lines)

    def analyse(self, board: Union[Position, VariantPosition, Game], limit: Limit, *, multipv: Optional[int] = None):
        """Searches ``board`` (a Position, or a Game for its history) and gives the info dict of
        the best line, or with ``multipv`` a list of one per line, best first."""
        self._end_analysis()
        _, _, lines = self._search(board, limit, multipv)
        if multipv is None:
            return lines[0] if lines else {}
        return lines

    def play(self, board: Union[Position, VariantPosition, Game], limit: Limit) -> PlayResult:
        """The engine's move in ``board``."""
        self._end_analysis()
        best, ponder, lines = self._search(board, limit, None)
        return PlayResult(best, ponder, lines[0] if lines else {})

    def analysis(
        self, board: Union[Position, VariantPosition, Game], limit: Optional[Limit] = None, *, multipv: Optional[int] = None
    ) -> "AnalysisResult":
        """Starts a search whose infos arrive as they come: iterate over the returned
        ``AnalysisResult``; ``stop()`` ends it, ``wait()`` gives the best move. Without a limit
        the engine searches until stopped, or until the next command to this engine."""
        self._end_analysis()
        analysis = AnalysisResult(self, board, limit, multipv)
        with self._state:
            self._analysis = analysis
        return analysis

    def quit(self) -> None:
        """Ends a running analysis (its iteration raises ``EngineTerminatedError``), sends
        ``quit``, gives the engine a moment, then kills it. Idempotent; any thread may call it."""
        self._end_analysis(terminated=True)
        with self._lock, self._state:
            self._finalizer()

    close = quit

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.quit()

    def __repr__(self):
        return f"<SimpleEngine {self.id.get('name')!r}>"


_END = object()


class AnalysisResult:
    """A running search (from ``SimpleEngine.analysis``): an iterator over its info dicts,
    which ends when the engine gives its best move. ``info`` is the latest info of the best
    line, ``multipv`` the latest of each line."""

    def __init__(self, engine: SimpleEngine, board, limit: Optional[Limit], multipv: Optional[int]):
        self._engine = engine
        self._queue = queue.Queue()
        self._stop = threading.Event()
        self._terminated = False
        self._result = None
        self._error = None
        self.multipv: List[dict] = []
        pos = _game_of(board).board()
        turn, chess960 = pos.turn, pos.chess960
        limits = limit or Limit()
        limits._native(multipv, limit is None)  # argument errors in the caller's thread

        def on_info(_payload, info):
            self._queue.put(_info_dict(info.contents, turn, chess960))
            return 1 if self._stop.is_set() else 0

        def run():
            try:
                best, ponder, _ = engine._search(board, limits, multipv, on_info, infinite=limit is None)
                self._result = BestMove(best, ponder)
            except BaseException as e:  # handed to the caller's thread
                self._error = e
            self._queue.put(_END)

        self._thread = threading.Thread(target=run, name="chesscore-analysis", daemon=True)
        self._thread.start()

    @property
    def info(self) -> dict:
        return self.multipv[0] if self.multipv else {}

    def _record(self, info: dict) -> None:
        if "pv" in info or "score" in info:
            index = info.get("multipv", 1) - 1
            while len(self.multipv) <= index:
                self.multipv.append({})
            self.multipv[index] = info

    def __iter__(self) -> Iterator[dict]:
        return self

    def __next__(self) -> dict:
        if self._thread is None:
            if self._terminated:
                raise error_for(ErrorCode.ENGINE_EXITED, "the engine was closed during the analysis")
            raise StopIteration
        item = self._queue.get()
        if item is _END:
            self._finish()
            raise StopIteration
        self._record(item)
        return item

    def stop(self) -> None:
        """Sends ``stop``: the engine ends the search and gives its best move."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread.is_alive():
            self._engine._send_stop()

    def _cancel(self, terminated: bool) -> None:
        """Stops the search and waits for its thread. ``stop`` is sent again while the search
        runs, as one sent before the engine's `go` is ignored by the engine."""
        self._terminated = self._terminated or terminated
        self._stop.set()
        thread = self._thread  # the iterating thread may clear the attribute meanwhile
        while thread is not None and thread.is_alive():
            self._engine._send_stop()
            thread.join(0.05)

    def _finish(self):
        self._thread.join()
        self._thread = None
        if self._terminated:
            raise error_for(ErrorCode.ENGINE_EXITED, "the engine was closed during the analysis")
        if self._error is not None:
            raise self._error

    def wait(self) -> BestMove:
        """Reads the rest of the search and gives the best move and the expected reply."""
        for _ in self:
            pass
        if self._error is not None:
            raise self._error
        return self._result

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        try:
            self.wait()
        except EngineError:
            pass
