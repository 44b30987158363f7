"""python-chess's ``chess.syzygy`` over ``chesscore.tablebase``: the same names and values for
compat Boards::

    with chess.syzygy.open_tablebase("syzygy") as tablebase:
        print(tablebase.probe_wdl(board), tablebase.probe_dtz(board))
"""

from __future__ import annotations

import ctypes
from typing import Any

from .. import tablebase as _tablebase
from ..errors import MissingTableError, StrOrBytesPath, raise_for
from ..position import Position
from . import Board, _c

__all__ = ["MissingTableError", "Tablebase", "open_tablebase"]


class Tablebase(_tablebase.Tablebase):
    """python-chess's ``chess.syzygy.Tablebase``: ``add_directory``, ``probe_wdl``,
    ``probe_dtz``, ``get_wdl``, ``get_dtz``, ``close``, a context manager. Probes take a compat
    ``Board`` (or a ``chesscore.Position``)."""

    def _probe(self, function: Any, board: Any) -> int:
        if isinstance(board, Position):
            return super()._probe(function, board)
        if not isinstance(board, Board):
            raise TypeError(f"expected a Board, not {type(board).__name__}")
        out = ctypes.c_int32()
        # The boards' library handle takes structures by address.
        fast = getattr(_c, function.__name__)
        code = fast(ctypes.cast(self._live(), ctypes.c_void_p), board._pos, ctypes.byref(out))
        if code:
            raise_for(code)
        return out.value


def open_tablebase(directory: StrOrBytesPath, *, load_wdl: bool = True, load_dtz: bool = True, max_fds: Any = 128) -> Tablebase:
    """python-chess's ``open_tablebase``: the tables of ``directory`` (``load_wdl``,
    ``load_dtz`` and ``max_fds`` are accepted; both kinds are always loaded, files opened as
    needed, at most 128 at once)."""
    return Tablebase([directory])
