"""python-chess's ``chess.polyglot``, over ``chesscore.polyglot`` and the library's Zobrist
keys: books opened with ``open_reader``, looked up by a ``Board`` or by a key, their entries
with ``chesscore.compat.Move`` moves::

    with chess.polyglot.open_reader("book.bin") as reader:
        for entry in reader.find_all(board):
            print(entry.move, entry.weight)

Lookups by board give the legal moves the entries name (castling as the board writes it);
lookups by key, indexing and iteration give the moves as stored (castling as the king taking
its rook, a drop for an entry whose origin is its destination). ``choice`` and
``weighted_choice`` draw from ``random`` (a ``random.Random``, or the ``random`` module) as
python-chess's do, so a seeded generator picks the same entries.
"""

from __future__ import annotations

import ctypes
import os
import random as _random
import struct
from typing import Any, Callable, Container, Dict, Iterator, List, NamedTuple, Optional, Tuple, Union

from .. import polyglot as _polyglot
from .._native import by_address as _c
from .._native import lib as _lib
from ..errors import BookError, ReadError, StrOrBytesPath
from ._board import Board
from ._moves import Move
from ._moves import move_of as _move_of

__all__ = [
    "ENTRY_STRUCT",
    "Entry",
    "MemoryMappedReader",
    "POLYGLOT_RANDOM_ARRAY",
    "StrOrBytesPath",
    "ZobristHasher",
    "open_reader",
    "zobrist_hash",
]

# A book entry as stored: key, move, weight, learn, big-endian.
ENTRY_STRUCT = struct.Struct(">QHHI")

_KEYS = ctypes.c_uint64 * 781

# The library's Polyglot constants (chess_book_polyglot_random).
POLYGLOT_RANDOM_ARRAY: List[int] = list(ctypes.cast(_lib.chess_book_polyglot_random(), ctypes.POINTER(_KEYS)).contents)

# The parts of a key array (pieces, castling, en passant, turn) by their index ranges.
_PARTS = {"board": range(0, 768), "castling": range(768, 772), "ep_square": range(772, 780), "turn": range(780, 781)}


class ZobristHasher:
    """Polyglot's hashing scheme with the 781 constants of ``array`` in place of Polyglot's
    (laid out as ``POLYGLOT_RANDOM_ARRAY``); the library computes the key. ``hash_board``,
    ``hash_castling``, ``hash_ep_square`` and ``hash_turn`` are its parts, which XOR to the
    whole. The constants are read when the hasher is made."""

    def __init__(self, array: List[int]) -> None:
        if len(array) < 781:
            raise AssertionError(f"a Zobrist array has 781 constants, not {len(array)}")
        self.array = array
        self._keys = _KEYS(*array[:781])
        self._parts = {name: _KEYS(*(array[i] if i in part else 0 for i in range(781))) for name, part in _PARTS.items()}

    def _hash(self, board: Board, keys: Any) -> int:
        return _c.chess_position_zobrist_with(board._pos, keys)  # type: ignore[no-any-return]

    def hash_board(self, board: Board) -> int:
        return self._hash(board, self._parts["board"])

    def hash_castling(self, board: Board) -> int:
        return self._hash(board, self._parts["castling"])

    def hash_ep_square(self, board: Board) -> int:
        """The en passant file's constant when a pawn of the side to move stands beside the pawn
        that just advanced two squares (whether or not it may take), else 0."""
        return self._hash(board, self._parts["ep_square"])

    def hash_turn(self, board: Board) -> int:
        return self._hash(board, self._parts["turn"])

    def __call__(self, board: Board) -> int:
        return self._hash(board, self._keys)


def zobrist_hash(board: Board, *, _hasher: Optional[Callable[[Board], int]] = None) -> int:
    """The Polyglot key of the board's position (the library's, kept up to date as moves are
    played)."""
    if _hasher is not None:
        return _hasher(board)
    return _c.chess_position_zobrist(board._pos)  # type: ignore[no-any-return]


class Entry(NamedTuple):
    """A book entry: ``key``, ``raw_move`` (the 16 bits stored), ``weight``, ``learn``, and
    ``move``: the legal move of the position for a lookup by board, the stored move for the
    others."""

    key: int
    raw_move: int
    weight: int
    learn: int
    move: Move


_RawEntry = Tuple[int, int, int, int]
# Stored moves by their 16 bits, each decoded once.
_STORED: Dict[int, Move] = {}


def _stored_move(raw_move: int) -> Move:
    """The move as the book stores it: bits 0-5 the destination, 6-11 the origin, 12-14 the
    promotion (1 knight .. 4 queen; the piece of a drop when origin and destination agree)."""
    move = _STORED.get(raw_move)
    if move is None:
        to_square, from_square, piece = raw_move & 63, raw_move >> 6 & 63, raw_move >> 12 & 7
        kind = piece + 1 if piece else None
        if from_square == to_square:
            move = Move(from_square, to_square, None, kind)
        else:
            move = Move(from_square, to_square, kind)
        _STORED[raw_move] = move
    return move


def _stored_entry(raw: _RawEntry) -> Entry:
    return Entry(raw[0], raw[1], raw[2], raw[3], _stored_move(raw[1]))


def _randint(rng: Optional[_random.Random], low: int, high: int) -> int:
    return (_random if rng is None else rng).randint(low, high)


class MemoryMappedReader:
    """A Polyglot book (``open_reader``; the book is read into memory), a context manager.
    An empty file, a device or a directory is an empty book (python-chess cannot map them and
    reads none); a file whose length is no multiple of 16 bytes, or whose
    keys are out of order, raises OSError."""

    __slots__ = ("_reader",)

    _reader: Optional[_polyglot.MemoryMappedReader]

    def __init__(self, filename: StrOrBytesPath) -> None:
        try:
            self._reader = _polyglot.MemoryMappedReader(filename)
        except (BookError, ReadError) as error:
            # What python-chess cannot map (an empty file, a device, a directory) is an empty book.
            if os.path.isfile(filename) and os.path.getsize(filename) != 0:
                raise OSError(str(error)) from error
            self._reader = None

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()

    def __enter__(self) -> MemoryMappedReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return 0 if self._reader is None else len(self._reader)

    def _raw(self, start: int, stop: int) -> List[_RawEntry]:
        return [] if self._reader is None else self._reader._raw_entries(start, stop)

    def _key_entries(self, key: int) -> Tuple[int, List[_RawEntry]]:
        # Keys are 64-bit: another int sorts before or after every entry.
        if self._reader is None or key < 0:
            return 0, []
        if key >> 64:
            return len(self), []
        return self._reader._key_entries(key)

    def __getitem__(self, index: int) -> Entry:
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(f"no entry {index}: the book has {size}")
        return _stored_entry(self._raw(index, index + 1)[0])

    def __iter__(self) -> Iterator[Entry]:
        size, chunk = len(self), 4096
        for start in range(0, size, chunk):
            for raw in self._raw(start, min(start + chunk, size)):
                yield _stored_entry(raw)

    def bisect_key_left(self, key: int) -> int:
        """The index of the first entry of ``key``, or where one would be."""
        return self._key_entries(key)[0]

    def __contains__(self, entry: Entry) -> bool:
        """Whether the book stores ``entry`` (a lookup by its key)."""
        weight = entry.weight
        return any(raw[2] >= weight and _stored_entry(raw) == entry for raw in self._key_entries(entry.key)[1])

    def _entries(self, board: Union[Board, int], minimum_weight: int, exclude_moves: Container[Move]) -> List[Entry]:
        if isinstance(board, Board):
            entries = self._board_entries(board, minimum_weight)
        else:
            entries = [_stored_entry(raw) for raw in self._key_entries(int(board))[1] if raw[2] >= minimum_weight]
        if exclude_moves:
            entries = [entry for entry in entries if entry.move not in exclude_moves]
        return entries

    def _board_entries(self, board: Board, minimum_weight: int) -> List[Entry]:
        if self._reader is None or minimum_weight > 0xFFFF:
            return []
        chess960 = board.chess960
        found = self._reader.find_all(board._position(), minimum_weight=max(minimum_weight, 0))
        return [Entry(e.key, e.raw_move, e.weight, e.learn, _move_of(e.move.raw, chess960)) for e in found]  # type: ignore[union-attr]

    def find_all(
        self, board: Union[Board, int], *, minimum_weight: int = 1, exclude_moves: Container[Move] = ()
    ) -> Iterator[Entry]:
        """The entries of a board's position (or of a key) in file order, of weight
        ``minimum_weight`` or more; for a board, only those naming a legal move."""
        return iter(self._entries(board, minimum_weight, exclude_moves))

    def find(self, board: Union[Board, int], *, minimum_weight: int = 1, exclude_moves: Container[Move] = ()) -> Entry:
        """The entry of greatest weight, the first among equals (IndexError when there is
        none)."""
        entries = self._entries(board, minimum_weight, exclude_moves)
        if not entries:
            raise IndexError("no book entry")
        return max(entries, key=lambda entry: entry.weight)

    def get(
        self,
        board: Union[Board, int],
        default: Optional[Entry] = None,
        *,
        minimum_weight: int = 1,
        exclude_moves: Container[Move] = (),
    ) -> Optional[Entry]:
        try:
            return self.find(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves)
        except IndexError:
            return default

    def choice(
        self,
        board: Union[Board, int],
        *,
        minimum_weight: int = 1,
        exclude_moves: Container[Move] = (),
        random: Optional[_random.Random] = None,
    ) -> Entry:
        """An entry drawn uniformly (IndexError when there is none): each entry after the
        first replaces the one kept with chance one in its rank, a draw of ``random.randint``."""
        chosen = None
        for rank, entry in enumerate(self._entries(board, minimum_weight, exclude_moves)):
            if chosen is None or _randint(random, 0, rank) == rank:
                chosen = entry
        if chosen is None:
            raise IndexError("no book entry")
        return chosen

    def weighted_choice(
        self, board: Union[Board, int], *, exclude_moves: Container[Move] = (), random: Optional[_random.Random] = None
    ) -> Entry:
        """An entry drawn with a chance proportional to its weight (IndexError when none has
        weight): one ``random.randint`` below the total weight, then the entry whose share of
        the running total holds it."""
        entries = self._entries(board, 1, exclude_moves)
        total = sum(entry.weight for entry in entries)
        if not total:
            raise IndexError("no book entry of positive weight")
        point = _randint(random, 0, total - 1)
        for entry in entries:
            point -= entry.weight
            if point < 0:
                break
        return entry


def open_reader(path: StrOrBytesPath) -> MemoryMappedReader:
    """Opens the Polyglot book at ``path``."""
    return MemoryMappedReader(path)
