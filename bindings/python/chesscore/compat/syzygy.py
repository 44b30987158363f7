"""python-chess's ``chess.syzygy`` over ``chesscore.tablebase``: the same names and values for
compat Boards::

    with chess.syzygy.open_tablebase("syzygy") as tablebase:
        print(tablebase.probe_wdl(board), tablebase.probe_dtz(board))
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable, Optional

from .. import tablebase as _tablebase
from .._native import by_address as _c
from ..errors import MissingTableError, StrOrBytesPath
from ..position import Position
from ._board import Board

__all__ = ["MissingTableError", "Tablebase", "open_tablebase"]


_c_int32 = ctypes.c_int32
_Probe = Callable[[_tablebase.Tablebase, Any], int]


def _prober(function: Any, package_probe: _Probe) -> _Probe:
    """A probe method for compat Boards, which hold their positions by address: ``function``,
    one of ``by_address``'s, takes the addresses with no pointer object made per call (the
    tablebase's is 0 once closed, which the library refuses), and the value's ``c_int32``
    itself (ctypes passes its address: cheaper than ``byref``). A ``chesscore.Position`` goes
    to ``package_probe``, the package's method."""

    def probe(self: _tablebase.Tablebase, board: Any) -> int:
        if type(board) is not Board and not isinstance(board, Board):
            if isinstance(board, Position):
                return package_probe(self, board)
            raise TypeError(f"expected a Board, not {type(board).__name__}")
        # The board's cached address of its position, else the property that finds it.
        pos = board._cur or board._pos
        out = _c_int32()
        code = function(self._handle_address, pos, out)
        if code:
            self._raise(code)
        return out.value

    probe.__name__ = package_probe.__name__
    probe.__qualname__ = f"Tablebase.{package_probe.__name__}"
    probe.__doc__ = package_probe.__doc__
    return probe


class Tablebase(_tablebase.Tablebase):
    """python-chess's ``chess.syzygy.Tablebase``: ``add_directory``, ``probe_wdl``,
    ``probe_dtz``, ``get_wdl``, ``get_dtz``, ``close``, a context manager. Probes take a compat
    ``Board`` (or a ``chesscore.Position``). At most ``max_fds`` files are open at once
    (``None``: no limit); ``VariantBoard`` must be a standard chess board: variant tables are
    not read."""

    def __init__(self, *, max_fds: Optional[int] = 128, VariantBoard: Any = Board) -> None:
        if getattr(VariantBoard, "uci_variant", "chess") != "chess":
            raise ValueError(f"only standard chess tables can be probed, not {VariantBoard.__name__}'s")
        super().__init__(max_open_files=0xFFFFFFFF if max_fds is None else max_fds)

    def add_directory(self, directory: StrOrBytesPath, *, load_wdl: bool = True, load_dtz: bool = True) -> int:
        """Adds the tables of ``directory``; returns how many files it holds. ``load_wdl`` and
        ``load_dtz`` are accepted: both kinds are always found."""
        return super().add_directory(directory)

    probe_wdl = _prober(_c.chess_tablebase_probe_wdl, _tablebase.Tablebase.probe_wdl)
    probe_dtz = _prober(_c.chess_tablebase_probe_dtz, _tablebase.Tablebase.probe_dtz)


def open_tablebase(
    directory: StrOrBytesPath,
    *,
    load_wdl: bool = True,
    load_dtz: bool = True,
    max_fds: Optional[int] = 128,
    VariantBoard: Any = Board,
) -> Tablebase:
    """python-chess's ``open_tablebase``: a ``Tablebase(max_fds=..., VariantBoard=...)`` with
    the tables of ``directory``."""
    tables = Tablebase(max_fds=max_fds, VariantBoard=VariantBoard)
    tables.add_directory(directory, load_wdl=load_wdl, load_dtz=load_dtz)
    return tables
