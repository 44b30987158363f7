"""Polyglot opening books, with python-chess's names: ``open_reader(path)`` reads a book file into
memory and gives a ``MemoryMappedReader`` (``find_all``, ``find``, ``get``, ``choice``,
``weighted_choice``; entries by index and in file order); ``make_book`` builds a book from PGN
files by the rules of docs/books.md; ``merge`` joins two books.

    >>> import chesscore, chesscore.polyglot, os
    >>> book = os.path.join(os.environ.get("CHESSCORE_DATA", "tests/data"), "polyglot", "dev.bin")
    >>> with chesscore.polyglot.open_reader(book) as reader:
    ...     [(e.move.uci(), e.weight) for e in reader.find_all(chesscore.Position())][:2]
    [('c2c3', 5), ('e2e4', 4)]
"""

from __future__ import annotations

import ctypes
import os
import random as _random
import threading
import weakref
from typing import Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _args, _native
from ._native import lib
from .errors import BookEntryNotFoundError, BookError, ErrorCode, StrOrBytesPath, error_for, raise_for
from .game import Game
from .position import Position
from .types import Move


class Entry(NamedTuple):
    """A book entry: the position's ``key``, ``raw_move`` (the 16 bits as a book stores the move:
    castling as the king taking its rook), ``weight``, ``learn``, and ``move``: for the entries of
    a position, the legal ``Move`` they name; for entries read by index, the stored move as a
    ``Move`` of no position (None when it is no move: a drop, or a promotion code above 4)."""

    key: int
    raw_move: int
    weight: int
    learn: int
    move: Optional[Move]


def _raise(code: int, info: _native.BookErrorInfo, filename: Optional[StrOrBytesPath]):
    message = info.message.decode("utf-8")
    if 800 <= code < 900:
        raise BookError(code, message, info.entry, filename)
    if code == ErrorCode.IO and filename is not None and message:
        raise error_for(code, filename=filename) from OSError(message)
    raise_for(code, filename=filename)


def _adopt(handle) -> MemoryMappedReader:
    reader = MemoryMappedReader.__new__(MemoryMappedReader)
    reader._set(handle)
    return reader


def _stored_move(raw: int) -> Optional[Move]:
    """The stored 16 bits as a Move of no position: ``e1h1`` stays ``e1h1``."""
    to_square, from_square, promotion = raw & 63, (raw >> 6) & 63, (raw >> 12) & 7
    if from_square == to_square or promotion > 4:
        return None
    kind = 3 + promotion if promotion else 0  # chess_move_kind: promotions are 4 to 7
    return Move(from_square | to_square << 6 | kind << 12, True)


class MemoryMappedReader(_native.OwnsHandle):
    """A Polyglot book, read into memory and checked when opened (``open_reader``; the name is
    python-chess's: the book is a copy, which a change to its file does not disturb). A context
    manager; ``close()`` releases it (also when the object is collected). Any number of threads
    may read it at once; ``close()`` from one of them while others look positions up is safe:
    the book is freed when the last call in progress returns, and later calls raise
    InvalidArgumentError."""

    __slots__ = ("_book", "_finalizer", "_lock", "_calls", "_closed", "__weakref__")

    def __init__(self, filename: StrOrBytesPath):
        book = ctypes.POINTER(_native.Book)()
        info = _native.BookErrorInfo(size=ctypes.sizeof(_native.BookErrorInfo))
        code = lib.chess_book_open_with(_args.path(filename), ctypes.byref(book), ctypes.byref(info))
        if code:
            _raise(code, info, filename)
        self._set(book)

    def _set(self, book):
        self._book = book
        self._finalizer = weakref.finalize(self, lib.chess_book_free, book)
        self._lock = threading.Lock()
        self._calls = 0  # calls in progress, which keep the book alive
        self._closed = False

    def close(self) -> None:
        with self._lock:
            self._closed = True
            free = self._calls == 0
        if free:
            self._finalizer()

    def __enter__(self) -> MemoryMappedReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _handle(self) -> _Hold:
        """The book's handle, kept alive (through a ``close()`` from another thread) until the
        block ends."""
        return _Hold(self)

    def __len__(self) -> int:
        with self._handle() as book:
            return lib.chess_book_entry_count(book)

    def __getitem__(self, index: int) -> Entry:
        index = _args.of_type(index, int, "index")
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise BookEntryNotFoundError(ErrorCode.INVALID_ARGUMENT, f"no entry {index}: the book has {len(self)}")
        raw = _native.BookRawEntry()
        with self._handle() as book:
            _native.check(lib.chess_book_entry_at(book, index, ctypes.byref(raw)))
        return Entry(raw.key, raw.raw_move, raw.weight, raw.learn, _stored_move(raw.raw_move))

    def __iter__(self) -> Iterator[Entry]:
        for index in range(len(self)):
            yield self[index]

    def _raw_entries(self, start: int, stop: int) -> List[Tuple[int, int, int, int]]:
        """Entries ``start`` to ``stop`` (within the book) as stored: ``(key, raw_move, weight,
        learn)`` tuples, read in one hold of the book (``chesscore.compat.polyglot``'s reads)."""
        with self._handle() as book:
            return _read_raw(book, start, stop)

    def _key_entries(self, key: int) -> Tuple[int, List[Tuple[int, int, int, int]]]:
        """The index of the first entry of ``key`` (where it would be when there is none) and
        its entries as ``_raw_entries`` gives them, by binary search."""
        first, count = ctypes.c_size_t(), ctypes.c_size_t()
        with self._handle() as book:
            _native.check(_native.by_address.chess_book_key_range(book, key, ctypes.byref(first), ctypes.byref(count)))
            return first.value, _read_raw(book, first.value, first.value + count.value)

    def _options(self, minimum_weight: int, exclude_moves: Iterable[Move]):
        weight = _args.integer(minimum_weight, "minimum_weight", 0, 0xFFFF)
        moves = [_args.of_type(m, Move, "an excluded move").raw for m in exclude_moves]
        exclude = (ctypes.c_uint16 * max(len(moves), 1))(*moves)
        options = _native.BookLookupOptions(
            size=ctypes.sizeof(_native.BookLookupOptions),
            flags=_native.BOOK_LOOKUP_MIN_WEIGHT,
            min_weight=weight,
            exclude=ctypes.cast(exclude, ctypes.POINTER(ctypes.c_uint16)),
            exclude_count=len(moves),
        )
        return options, exclude  # the array must live as long as the options

    def _entry(self, board: Position, entry: _native.BookEntry) -> Entry:
        move = Move(entry.move, board.chess960)
        return Entry(board.zobrist(), lib.chess_book_raw_move(entry.move), entry.weight, entry.learn, move)

    def find_all(
        self, board: Position, *, minimum_weight: int = 1, exclude_moves: Iterable[Move] = ()
    ) -> Iterator[Entry]:
        """The entries of ``board`` in file order, each ``move`` the legal move it names
        (entries whose move is not legal left out, and those below ``minimum_weight``)."""
        board = _args.of_type(board, Position, "board")
        options, keep = self._options(minimum_weight, exclude_moves)
        with self._handle() as book:
            count = lib.chess_book_lookup_with(book, board._pos, ctypes.byref(options), None, 0)
            entries = (_native.BookEntry * max(count, 1))()
            count = lib.chess_book_lookup_with(book, board._pos, ctypes.byref(options), entries, count)
        del keep
        return iter([self._entry(board, entries[i]) for i in range(count)])

    def find(self, board: Position, *, minimum_weight: int = 1, exclude_moves: Iterable[Move] = ()) -> Entry:
        """The entry of ``board`` with the highest weight (the first in the file among equal
        ones); BookEntryNotFoundError (an IndexError) when there is none."""
        return self._pick(board, _native.BOOK_PICK_BEST, 0, minimum_weight, exclude_moves)

    def get(
        self,
        board: Position,
        default: Optional[Entry] = None,
        *,
        minimum_weight: int = 1,
        exclude_moves: Iterable[Move] = (),
    ) -> Optional[Entry]:
        """``find``, or ``default`` when there is no entry."""
        try:
            return self.find(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves)
        except BookEntryNotFoundError:
            return default

    def choice(
        self,
        board: Position,
        *,
        minimum_weight: int = 1,
        exclude_moves: Iterable[Move] = (),
        random: Optional[_random.Random] = None,
    ) -> Entry:
        """An entry of ``board`` at random, every entry alike; ``random`` (a ``random.Random``,
        the ``random`` module by default) draws the number, so a seeded one repeats its picks.
        BookEntryNotFoundError (an IndexError) when there is none."""
        number = (random or _random).getrandbits(64)
        return self._pick(board, _native.BOOK_PICK_UNIFORM, number, minimum_weight, exclude_moves)

    def weighted_choice(
        self, board: Position, *, exclude_moves: Iterable[Move] = (), random: Optional[_random.Random] = None
    ) -> Entry:
        """An entry of ``board`` at random, each with a chance proportional to its weight; as
        ``choice`` otherwise. BookEntryNotFoundError when there is none of positive weight."""
        number = (random or _random).getrandbits(64)
        return self._pick(board, _native.BOOK_PICK_WEIGHTED, number, 1, exclude_moves)

    def _pick(self, board, choice, number, minimum_weight, exclude_moves) -> Entry:
        board = _args.of_type(board, Position, "board")
        options, keep = self._options(minimum_weight, exclude_moves)
        entry = _native.BookEntry()
        with self._handle() as book:
            code = lib.chess_book_pick_with(book, board._pos, ctypes.byref(options), choice, number, ctypes.byref(entry))
        del keep
        if code == ErrorCode.END:
            raise BookEntryNotFoundError(ErrorCode.END, "no book entry for this position")
        _native.check(code)
        return self._entry(board, entry)


class _Hold:
    """``MemoryMappedReader._handle``'s block: a plain class, which costs a third of a
    generator-based context manager (``in`` on a book is a hold and two or three calls)."""

    __slots__ = ("_reader",)

    def __init__(self, reader: MemoryMappedReader):
        self._reader = reader

    def __enter__(self):
        reader = self._reader
        with reader._lock:
            if reader._closed:
                raise_for(ErrorCode.INVALID_ARGUMENT, "the book is closed")
            reader._calls += 1
        return reader._book

    def __exit__(self, *exc) -> None:
        reader = self._reader
        with reader._lock:
            reader._calls -= 1
            free = reader._closed and reader._calls == 0
        if free:
            reader._finalizer()


def _read_raw(book, start: int, stop: int) -> List[Tuple[int, int, int, int]]:
    raw = _native.BookRawEntry()
    out = ctypes.byref(raw)
    entry_at = _native.by_address.chess_book_entry_at  # no pointer conversion per call
    entries = []
    for index in range(start, stop):
        code = entry_at(book, index, out)
        if code:
            raise_for(code)
        entries.append((raw.key, raw.raw_move, raw.weight, raw.learn))
    return entries


def open_reader(path: StrOrBytesPath) -> MemoryMappedReader:
    """Opens the Polyglot book at ``path`` (python-chess's ``chess.polyglot.open_reader``). A
    missing file raises NoSuchFileError, a malformed book BookError naming the entry at fault."""
    return MemoryMappedReader(path)


# chess_result of a PGN result.
_RESULTS = {"1-0": 1, "0-1": 2, "1/2-1/2": 3}


def make_book(
    pgn: Union[StrOrBytesPath, Sequence[StrOrBytesPath]],
    out: Optional[StrOrBytesPath] = None,
    *,
    max_ply: int = 40,
    min_games: int = 1,
    min_score: int = 0,
    only_white: bool = False,
    only_black: bool = False,
    uniform: bool = False,
    chess960: bool = False,
    games: Iterable[Game] = (),
) -> MemoryMappedReader:
    """Builds a book from the games of the PGN file(s) ``pgn`` and of ``games`` (each counted
    with its PGN ``Result`` header when it says who won, else ``game.result()``), by the rules
    of docs/books.md, as ``chesscore book make`` does; writes it to ``out`` when given and
    returns it as a reader."""
    flags = (
        _args.flag(only_white, "only_white", _native.BOOK_BUILD_ONLY_WHITE)
        | _args.flag(only_black, "only_black", _native.BOOK_BUILD_ONLY_BLACK)
        | _args.flag(uniform, "uniform", _native.BOOK_BUILD_UNIFORM)
        | _args.flag(chess960, "chess960", _native.BOOK_BUILD_CHESS960)
    )
    options = _native.BookBuildOptions(
        size=ctypes.sizeof(_native.BookBuildOptions),
        flags=flags,
        max_ply=_args.integer(max_ply, "max_ply", 1, 0xFFFFFFFF),
        min_games=_args.integer(min_games, "min_games", 1, 2**64 - 1),
        min_score=_args.integer(min_score, "min_score", 0, 100),
    )
    builder = ctypes.POINTER(_native.BookBuilder)()
    _native.check(lib.chess_book_builder_new(ctypes.byref(options), ctypes.byref(builder)))
    try:
        paths = [pgn] if isinstance(pgn, (str, bytes, os.PathLike)) else list(pgn)
        for path in paths:
            code = lib.chess_book_builder_add_pgn_file(builder, _args.path(path))
            if code:
                raise_for(code, filename=path)
        for game in games:
            game = _args.of_type(game, Game, "a game")
            header = game.headers.get("Result")
            result = _RESULTS.get(header if header in _RESULTS else game.result(), 0)
            _native.check(lib.chess_book_builder_add_game(builder, game._ptr, result))
        book = ctypes.POINTER(_native.Book)()
        _native.check(lib.chess_book_builder_finish(builder, ctypes.byref(book)))
    finally:
        lib.chess_book_builder_free(builder)
    reader = _adopt(book)
    if out is not None:
        _save(reader, out)
    return reader


def merge(a: StrOrBytesPath, b: StrOrBytesPath, out: Optional[StrOrBytesPath] = None) -> MemoryMappedReader:
    """The union of the books at ``a`` and ``b`` (``chesscore book merge``): the weights of a
    move in both add up, learn values come from ``a``. Written to ``out`` when given."""
    with open_reader(a) as first, open_reader(b) as second:
        book = ctypes.POINTER(_native.Book)()
        with first._handle() as a_book, second._handle() as b_book:
            _native.check(lib.chess_book_merge(a_book, b_book, ctypes.byref(book)))
    reader = _adopt(book)
    if out is not None:
        _save(reader, out)
    return reader


def _save(reader: MemoryMappedReader, path: StrOrBytesPath) -> None:
    with reader._handle() as book:
        code = lib.chess_book_write_file(book, _args.path(path))
    if code:
        raise_for(code, filename=path)


__all__ = ["BookEntryNotFoundError", "BookError", "Entry", "MemoryMappedReader", "make_book", "merge", "open_reader"]
