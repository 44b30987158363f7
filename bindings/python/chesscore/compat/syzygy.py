"""python-chess's ``chess.syzygy`` over ``chesscore.tablebase``: the same names and values for
compat Boards::

    with chess.syzygy.open_tablebase("syzygy") as tablebase:
        print(tablebase.probe_wdl(board), tablebase.probe_dtz(board))
"""

from __future__ import annotations

import ctypes
from typing import Any, Optional

from .. import tablebase as _tablebase
from .._native import by_address as _c
from .._native import lib
from ..errors import MissingTableError, StrOrBytesPath
from ..position import Position
from ._board import Board

__all__ = ["MissingTableError", "Tablebase", "open_tablebase"]


_probe_wdl = _c.chess_tablebase_probe_wdl
_probe_dtz = _c.chess_tablebase_probe_dtz
_byref = ctypes.byref


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

    def _fast(self, function: Any, board: Any) -> int:
        # The boards' library handle takes structures by address: no pointer object per call.
        if type(board) is not Board and not isinstance(board, Board):
            if isinstance(board, Position):
                return self._probe(getattr(lib, function.__name__), board)
            raise TypeError(f"expected a Board, not {type(board).__name__}")
        out = ctypes.c_int32()
        code = function(self._address(), board._pos, _byref(out))
        if code:
            self._raise(code)
        return out.value

    def probe_wdl(self, board: Any) -> int:
        return self._fast(_probe_wdl, board)

    def probe_dtz(self, board: Any) -> int:
        return self._fast(_probe_dtz, board)


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
