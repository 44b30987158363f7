"""python-chess's ``chess.polyglot`` for reading books, over ``chesscore.polyglot``: entries of a
Board's position with its moves as ``chesscore.compat.Move``::

    with chess.polyglot.open_reader("book.bin") as reader:
        for entry in reader.find_all(board):
            print(entry.move, entry.weight)
"""

from __future__ import annotations

import random as _random
from typing import Iterable, Iterator, NamedTuple, Optional

from .. import polyglot as _polyglot
from ..errors import StrOrBytesPath
from ..position import Position
from ..types import Move as _CoreMove
from ._board import Board
from ._moves import Move
from ._moves import move_of as _move_of

__all__ = ["Entry", "MemoryMappedReader", "open_reader"]


class Entry(NamedTuple):
    """A book entry: ``key``, ``raw_move`` (the 16 bits stored), ``weight``, ``learn``, and
    ``move``: the legal move of the position for a lookup, the stored move (castling as the
    king taking its rook) for an entry read by index."""

    key: int
    raw_move: int
    weight: int
    learn: int
    move: Move


def _entry(entry: _polyglot.Entry, chess960: bool) -> Entry:
    move = _move_of(entry.move.raw, chess960) if entry.move is not None else Move.null()
    return Entry(entry.key, entry.raw_move, entry.weight, entry.learn, move)


class MemoryMappedReader:
    """A Polyglot book (``open_reader``), a context manager."""

    __slots__ = ("_reader",)

    def __init__(self, filename: StrOrBytesPath) -> None:
        self._reader = _polyglot.MemoryMappedReader(filename)

    def close(self) -> None:
        self._reader.close()

    def __enter__(self) -> MemoryMappedReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return len(self._reader)

    def __getitem__(self, index: int) -> Entry:
        return _entry(self._reader[index], True)

    def __iter__(self) -> Iterator[Entry]:
        return (_entry(entry, True) for entry in self._reader)

    @staticmethod
    def _position(board: Board) -> Position:
        return board._position()

    @staticmethod
    def _excluded(board: Board, moves: Iterable[Move]) -> Iterator[_CoreMove]:
        for move in moves:
            raw = board._raw(move)
            if raw is not None:
                yield _CoreMove(raw, board.chess960)

    def find_all(self, board: Board, *, minimum_weight: int = 1, exclude_moves: Iterable[Move] = ()) -> Iterator[Entry]:
        entries = self._reader.find_all(
            self._position(board), minimum_weight=minimum_weight, exclude_moves=list(self._excluded(board, exclude_moves))
        )
        return (_entry(entry, board.chess960) for entry in entries)

    def find(self, board: Board, *, minimum_weight: int = 1, exclude_moves: Iterable[Move] = ()) -> Entry:
        """The entry of greatest weight (IndexError when there is none)."""
        entry = self._reader.find(
            self._position(board), minimum_weight=minimum_weight, exclude_moves=list(self._excluded(board, exclude_moves))
        )
        return _entry(entry, board.chess960)

    def get(
        self, board: Board, default: Optional[Entry] = None, *, minimum_weight: int = 1, exclude_moves: Iterable[Move] = ()
    ) -> Optional[Entry]:
        try:
            return self.find(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves)
        except IndexError:
            return default

    def choice(
        self,
        board: Board,
        *,
        minimum_weight: int = 1,
        exclude_moves: Iterable[Move] = (),
        random: Optional[_random.Random] = None,
    ) -> Entry:
        """An entry drawn uniformly (IndexError when there is none)."""
        entry = self._reader.choice(
            self._position(board),
            minimum_weight=minimum_weight,
            exclude_moves=list(self._excluded(board, exclude_moves)),
            random=random,
        )
        return _entry(entry, board.chess960)

    def weighted_choice(
        self, board: Board, *, exclude_moves: Iterable[Move] = (), random: Optional[_random.Random] = None
    ) -> Entry:
        """An entry drawn by weight (IndexError when there is none)."""
        entry = self._reader.weighted_choice(
            self._position(board), exclude_moves=list(self._excluded(board, exclude_moves)), random=random
        )
        return _entry(entry, board.chess960)


def open_reader(path: StrOrBytesPath) -> MemoryMappedReader:
    """Opens the Polyglot book at ``path``."""
    return MemoryMappedReader(path)
