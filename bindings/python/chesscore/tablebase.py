"""Syzygy endgame tablebases: ``Tablebase(directories)`` (or ``open_tablebase``) over the
``.rtbw`` and ``.rtbz`` files of one or more directories, with python-chess's values:
``probe_wdl`` (-2..2 from the side to move), ``probe_dtz`` (distance to zeroing in plies,
python-chess's rounding), ``get_wdl``/``get_dtz`` (None instead of an error), and
``rank_moves(game)``: every legal move of a game, best first, as Stockfish ranks root moves.

    >>> import chesscore, chesscore.tablebase, os
    >>> tables = os.path.join(os.environ.get("CHESSCORE_TESTDATA", "../shared/testdata"), "syzygy")
    >>> with chesscore.tablebase.open_tablebase(tables) as tb:  # doctest: +SKIP
    ...     tb.probe_wdl(chesscore.Position.from_fen("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1"))
    -2

Files are opened when a probe needs them (at most ``max_open_files`` kept open, the least
recently used closed first) and read with positioned reads, or memory-mapped with
``mmap=True``; any number of threads may probe one tablebase at once (ctypes releases the GIL).
Errors: ``MissingTableError`` (a ``KeyError``, as python-chess), ``TablebaseError`` (castling
rights, too many pieces), ``CorruptTableError`` (an ``OSError``); their message names the
table file and what is wrong.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, Callable, List, NamedTuple, NoReturn, Optional, Sequence, Union

from . import _native
from ._native import lib
from .errors import MissingTableError, StrOrBytesPath, raise_for
from .game import Game
from .position import Position
from .types import Move

__all__ = ["MissingTableError", "RankedMove", "Tablebase", "open_tablebase"]

_c_int32 = ctypes.c_int32
_byref = ctypes.byref


def _prober(function: Any, name: str, doc: str) -> Callable[[Tablebase, Any], int]:
    """A probe method calling ``function``, one of ``_native.per_probe``'s: no argument
    conversion, the library checking the handle (NULL once closed) and the rest. The value's
    ``c_int32`` is made per call: other threads may be probing meanwhile."""

    def probe(self: Tablebase, board: Any) -> int:
        pos = board._pos if type(board) is Position else self._position(board)
        out = _c_int32()
        code = function(self._handle, _byref(pos), _byref(out))
        if code:
            self._raise(code)
        return out.value

    probe.__name__ = name
    probe.__qualname__ = f"Tablebase.{name}"
    probe.__doc__ = doc
    return probe


class RankedMove(NamedTuple):
    """A legal move with the values of the position after it from the mover's view (``wdl``,
    ``dtz``) and its ``rank`` (greater is better; see ``chess_tablebase_rank_moves``)."""

    move: Move
    wdl: int
    dtz: int
    rank: int


class Tablebase(_native.OwnsHandle):
    """Syzygy tables of the directories added (a context manager; ``close`` frees them):
    ``directories`` a sequence of paths, or one path."""

    def __init__(
        self, directories: Union[StrOrBytesPath, Sequence[StrOrBytesPath]] = (), *, mmap: bool = False, max_open_files: int = 128
    ) -> None:
        if not 1 <= max_open_files <= 0xFFFFFFFF:
            raise ValueError(f"max_open_files must be from 1 to 2**32 - 1, not {max_open_files}")
        self._options = _native.TablebaseOptions(
            size=ctypes.sizeof(_native.TablebaseOptions),
            flags=_native.TABLEBASE_MMAP if mmap else 0,
            max_open_files=max_open_files,
        )
        self._directories: List[bytes] = []
        self._handle: Any = None
        # Handles replaced by add_directory, freed by close(): another thread may still be
        # probing one of them.
        self._retired: List[Any] = []
        # The live handle's address for compat's probes by address; 0 (NULL) once closed.
        self._handle_address = 0
        # One path is one directory (a string is a sequence too: of one-letter "directories").
        for directory in [directories] if isinstance(directories, (str, bytes, os.PathLike)) else directories:
            self.add_directory(directory)
        if self._handle is None:
            self._reopen()

    def _reopen(self) -> None:
        handle = _native.TABLEBASE()
        paths = b":".join(self._directories)
        code = lib.chess_tablebase_open_with(paths, ctypes.byref(self._options), ctypes.byref(handle))
        if code:
            raise_for(code, filename=os.fsdecode(self._directories[-1]) if self._directories else None)
        if self._handle is not None:
            self._retired.append(self._handle)
        self._handle = handle
        self._handle_address = ctypes.cast(handle, ctypes.c_void_p).value or 0

    def add_directory(self, directory: StrOrBytesPath) -> int:
        """Adds the tables of ``directory`` (a path without ':'). Returns how many table files
        (``K...vK....rtbw`` or ``.rtbz``) it holds."""
        path = os.fsencode(os.path.abspath(os.fsdecode(directory)))
        if b":" in path:
            raise ValueError(f"a directory of tables may not contain ':': {directory!r}")
        self._directories.append(path)
        try:
            self._reopen()
        except Exception:
            self._directories.pop()
            raise
        return sum(
            1
            for name in os.listdir(path)
            if name.endswith((b".rtbw", b".rtbz")) and name.startswith(b"K") and os.path.isfile(os.path.join(path, name))
        )

    def _live(self) -> Any:
        if self._handle is None:
            raise ValueError("the tablebase is closed")
        return self._handle

    @staticmethod
    def _position(board: Any) -> Any:
        if isinstance(board, Position):
            return board._pos
        raise TypeError(f"expected a chesscore.Position, not {type(board).__name__}")

    def _raise(self, code: int) -> NoReturn:
        """Raises the error of this thread's last probe, with the library's message (the table
        file and what is wrong)."""
        info = _native.TablebaseErrorInfo(size=ctypes.sizeof(_native.TablebaseErrorInfo))
        _native.check(lib.chess_tablebase_last_error(self._live(), ctypes.byref(info)))
        raise_for(code, info.message.decode("utf-8", "replace") if info.code == code else None)

    probe_wdl = _prober(
        _native.per_probe.chess_tablebase_probe_wdl,
        "probe_wdl",
        """python-chess's ``probe_wdl``: 2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss,
        from the side to move, assuming the position arose right after a zeroing move.""",
    )

    probe_dtz = _prober(
        _native.per_probe.chess_tablebase_probe_dtz,
        "probe_dtz",
        """python-chess's ``probe_dtz``: plies to the next zeroing move, signed as the WDL value
        (over 100 in absolute value: beyond the 50-move rule).""",
    )

    def get_wdl(self, board: Any, default: Optional[int] = None) -> Optional[int]:
        """``probe_wdl``, or ``default`` when the tables cannot answer."""
        try:
            return self.probe_wdl(board)
        except KeyError:
            return default

    def get_dtz(self, board: Any, default: Optional[int] = None) -> Optional[int]:
        """``probe_dtz``, or ``default`` when the tables cannot answer."""
        try:
            return self.probe_dtz(board)
        except KeyError:
            return default

    def max_pieces(self) -> int:
        """The most pieces of any table found (0 for none)."""
        return int(lib.chess_tablebase_max_pieces(self._live()))

    def rank_moves(self, game: Game) -> List[RankedMove]:
        """Every legal move at the end of ``game``, best first (Stockfish's root ranking with
        the 50-move rule, the game's half-move clock and repetitions counted)."""
        if not isinstance(game, Game):
            raise TypeError(f"expected a chesscore.Game, not {type(game).__name__}")
        moves = (_native.TablebaseMove * _native.MAX_MOVES)()
        count = ctypes.c_size_t()
        code = lib.chess_tablebase_rank_moves(self._live(), game._ptr, moves, _native.MAX_MOVES, ctypes.byref(count))
        if code:
            self._raise(code)
        chess960 = game.board().chess960
        return [RankedMove(Move(m.move, chess960), m.wdl, m.dtz, m.rank) for m in moves[: count.value]]

    def close(self) -> None:
        """Frees the tables; the tablebase cannot be probed afterwards. No probe may be running."""
        for handle in self._retired + ([self._handle] if self._handle is not None else []):
            lib.chess_tablebase_free(handle)
        self._retired = []
        self._handle = None
        self._handle_address = 0

    def __enter__(self) -> Tablebase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone
            pass


def open_tablebase(directory: StrOrBytesPath, *, mmap: bool = False, max_open_files: int = 128) -> Tablebase:
    """A Tablebase of the tables in ``directory``."""
    return Tablebase([directory], mmap=mmap, max_open_files=max_open_files)
