"""Stockfish training data: ``.binpack`` files (and their ``.plain`` text), read entry by entry
(``read``) or in batches of fixed-width records that numpy views without copying
(``read_batches``), and written (``write``).

    >>> import chesscore.binpack, os
    >>> path = os.path.join(os.environ.get("CHESSCORE_DATA", "tests/data"), "binpack", "generated.binpack")
    >>> first = next(chesscore.binpack.read(path))
    >>> first.position == chesscore.Position(), first.ply, first.result in (-1, 0, 1)
    (True, 0, True)
    >>> batch = next(chesscore.binpack.read_batches(path, 1000))
    >>> len(batch), len(batch.records), batch.plies[0]
    (1000, 34000, 0)

With numpy, ``numpy.frombuffer(batch.records, dtype=chesscore.binpack.record_dtype())`` is a
structured array with the fields ``board`` (24 bytes: the position's binary FEN without clocks,
which ``Position.from_binary_fen`` reads), ``move``, ``score``, ``ply``, ``halfmove_clock`` and
``result``.
"""

from __future__ import annotations

import array
import ctypes
import struct
from typing import Any, Iterable, Iterator, List, NamedTuple, Union

from . import _args, _native
from ._native import lib
from .errors import ErrorCode, InternalError, StrOrBytesPath, TrainingDataError, error_for, raise_for
from .position import Position
from .types import Move

# A record as chess_training_record lays it out: 34 bytes, native byte order.
RECORD_SIZE = ctypes.sizeof(_native.TrainingRecord)
_RECORD = struct.Struct("=24sHhHHbx")
assert _RECORD.size == RECORD_SIZE


class TrainingEntry(NamedTuple):
    """One position of training data: the position, the legal move played there, the score and
    the game's result (1, 0 or -1) from the side to move's view, and the ply."""

    position: Position
    move: Move
    score: int
    ply: int
    result: int


class Batch:
    """Entries read together, as fixed-width ``records`` (bytes, ``RECORD_SIZE`` each) and as
    columns: ``boards`` (bytes, 24 per entry), ``moves``, ``scores``, ``plies``,
    ``halfmove_clocks`` and ``results`` (``array.array``)."""

    __slots__ = ("records", "boards", "moves", "scores", "plies", "halfmove_clocks", "results")

    def __init__(self, records: bytes) -> None:
        self.records = records
        columns: List[Any] = list(zip(*_RECORD.iter_unpack(records))) or [()] * 6
        self.boards = b"".join(columns[0])
        self.moves = array.array("H", columns[1])
        self.scores = array.array("h", columns[2])
        self.plies = array.array("H", columns[3])
        self.halfmove_clocks = array.array("H", columns[4])
        self.results = array.array("b", columns[5])

    def __len__(self) -> int:
        return len(self.moves)

    def position(self, index: int) -> Position:
        """The position of entry ``index``, with its clocks (the fullmove number from the ply)."""
        board = self.boards[24 * index : 24 * index + 24]
        fields = Position.from_binary_fen(board, allow_impossible_check=True).fen().split()[:4]
        return Position.from_components(*fields, self.halfmove_clocks[index], self.plies[index] // 2 + 1)


def record_dtype() -> Any:
    """The numpy dtype of ``Batch.records`` (numpy is imported here, and only here)."""
    import numpy

    return numpy.dtype(
        {
            "names": ["board", "move", "score", "ply", "halfmove_clock", "result"],
            "formats": [("u1", (24,)), "=u2", "=i2", "=u2", "=u2", "i1"],
            "offsets": [0, 24, 26, 28, 30, 32],
            "itemsize": RECORD_SIZE,
        }
    )


def _flags(plain: bool) -> int:
    return _args.flag(plain, "plain", _native.BINPACK_PLAIN)


def _open(source: Union[StrOrBytesPath, bytes, bytearray, memoryview], plain: bool):
    reader = ctypes.POINTER(_native.BinpackReader)()
    flags = _flags(plain)
    if isinstance(source, (bytearray, memoryview)):
        data = bytes(source)
        code = lib.chess_binpack_reader_from_buffer_with(data, len(data), flags, ctypes.byref(reader))
    else:
        code = lib.chess_binpack_reader_open_with(_args.path(source), flags, ctypes.byref(reader))
    if code:
        raise_for(code, filename=source if not isinstance(source, (bytearray, memoryview)) else None)
    return reader


def _failure(reader, code: int) -> Exception:
    if code in (ErrorCode.NULL_POINTER, ErrorCode.OUT_OF_MEMORY, ErrorCode.INTERNAL):
        return error_for(code)
    return TrainingDataError(code, error_for(code).message, lib.chess_binpack_reader_error_offset(reader))


def read(source: Union[StrOrBytesPath, bytearray, memoryview], *, plain: bool = False) -> Iterator[TrainingEntry]:
    """The entries of a ``.binpack`` file (``plain``: a ``.plain`` one), in order; ``source`` is
    a path (str, bytes or os.PathLike), or the data itself as a bytearray or memoryview
    (``memoryview(data)`` for bytes). Malformed data raises TrainingDataError
    with the byte offset, after the entries before it."""
    reader = _open(source, plain)
    try:
        entry = _native.TrainingEntry()
        while True:
            code = lib.chess_binpack_reader_next(reader, ctypes.byref(entry))
            if code == ErrorCode.END:
                return
            if code:
                raise _failure(reader, code)
            pos = Position._wrap(_native.Position.from_buffer_copy(entry.position))
            yield TrainingEntry(pos, Move._trusted(entry.move, False), entry.score, entry.ply, entry.result)
    finally:
        lib.chess_binpack_reader_free(reader)


def read_batches(
    source: Union[StrOrBytesPath, bytearray, memoryview], batch_size: int = 4096, *, plain: bool = False
) -> Iterator[Batch]:
    """The entries of ``source`` (as for ``read``) in batches of ``batch_size`` (the last one
    shorter), each read in one call into the library. Malformed data raises TrainingDataError
    after the batch of the entries before it."""
    size = _args.integer(batch_size, "batch_size", 1)
    reader = _open(source, plain)
    try:
        buf = (_native.TrainingRecord * size)()
        count = ctypes.c_size_t()
        while True:
            code = lib.chess_binpack_reader_next_records(reader, buf, size, ctypes.byref(count))
            if count.value:
                yield Batch(ctypes.string_at(buf, count.value * RECORD_SIZE))
            if code == ErrorCode.END or (code == ErrorCode.OK and count.value < size):
                return
            if code:
                raise _failure(reader, code)
    finally:
        lib.chess_binpack_reader_free(reader)


def write(path: StrOrBytesPath, entries: Iterable[TrainingEntry], *, plain: bool = False) -> int:
    """Writes ``entries`` to a ``.binpack`` file (``plain``: a ``.plain`` one) as Stockfish's tools
    write it; returns their number. An entry the format cannot hold (an illegal move, a result
    other than -1, 0 or 1, Chess960 castling, a ply over 16383) raises TrainingDataError (the
    entries before it are written)."""
    writer = ctypes.POINTER(_native.BinpackWriter)()
    code = lib.chess_binpack_writer_open_with(_args.path(path), _flags(plain), ctypes.byref(writer))
    if code:
        raise_for(code, filename=path)
    count = 0
    try:
        raw = _native.TrainingEntry()
        for entry in entries:
            position, move, score, ply, result = entry
            raw.position = _args.of_type(position, Position, "position")._pos
            raw.move = _args.of_type(move, Move, "move").raw
            raw.score = _args.integer(score, "score", -32768, 32767)
            raw.ply = _args.integer(ply, "ply", 0, 65535)
            raw.result = _args.integer(result, "result", -128, 127)
            code = lib.chess_binpack_writer_write(writer, ctypes.byref(raw))
            if code:
                if code in (ErrorCode.NULL_POINTER, ErrorCode.INTERNAL):
                    raise InternalError(code, error_for(code).message)
                raise TrainingDataError(code, f"entry {count}: {error_for(code).message}")
            count += 1
        code = lib.chess_binpack_writer_finish(writer)
        if code:
            raise_for(code, filename=path)
    finally:
        lib.chess_binpack_writer_free(writer)
    return count
