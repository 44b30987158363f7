"""python-chess's ``legal_moves`` and ``pseudo_legal_moves``: views of a board's moves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, List

from .._native import by_address as _c
from ._moves import MOVES, Move

if TYPE_CHECKING:
    from ._board import Board


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
        sans = ", ".join(self._board._san_or_uci(move) for move in self)
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
        return list(map(MOVES[board._chess960].__getitem__, board._pseudo_raws()))

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move in self._list()
