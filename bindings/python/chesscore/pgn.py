"""PGN: ``read_pgn`` yields the games of a file, a buffer or a stream, ``read_pgn_string``
those of a str, broken ones included, as ``Game`` objects with ``headers``, ``moves``,
``board()`` and ``error``; ``to_arrow`` gathers them in a ``pyarrow.Table``."""

from __future__ import annotations

import ctypes
import os
from typing import IO, Any, Callable, Dict, Iterator, List, Tuple, Union

from . import _args, _native
from ._native import lib
from .errors import ArgumentTypeError, ErrorCode, InvalidArgumentError, PgnError, raise_for
from .game import Game


def _open(source):
    """A reader handle for a path, a bytes-like buffer or a binary stream, and the stream's read
    function (None otherwise), which must live as long as the handle."""
    reader = ctypes.POINTER(_native.PgnReader)()
    if isinstance(source, (str, os.PathLike)):
        code = lib.chess_pgn_reader_open_file(_args.path(source), ctypes.byref(reader))
        if code:
            raise_for(code, filename=source)
        return reader, None
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        _native.check(lib.chess_pgn_reader_from_buffer(data, len(data), ctypes.byref(reader)))
        return reader, None
    if hasattr(source, "read"):
        function = _stream_reader(source)
        callback = _native.READ_FN(function)
        function.callback = callback  # kept alive with the function
        _native.check(lib.chess_pgn_reader_from_callback(callback, None, ctypes.byref(reader)))
        return reader, function
    raise ArgumentTypeError(
        ErrorCode.INVALID_ARGUMENT, f"read_pgn takes a path, bytes or a file object, not {type(source).__name__}"
    )


def _stream_reader(stream):
    """A chess_read_fn over a Python stream (bytes, or str encoded as UTF-8). An exception inside
    becomes CHESS_READ_ERROR (it cannot cross the C library) and is raised again after the games
    read before it. ``read1`` takes what one read of a buffered stream gives, so that bytes read
    before a failing read reach the library instead of being lost with ``read``'s exception."""
    pending = bytearray()
    read_some = getattr(stream, "read1", None) or stream.read

    def read(_user, buf, cap):
        try:
            while not pending:
                chunk = read_some(65536)
                if not chunk:
                    return 0
                pending.extend(_args.utf8(chunk, "PGN text") if isinstance(chunk, str) else chunk)
            n = min(cap, len(pending))
            ctypes.memmove(buf, bytes(pending[:n]), n)
            del pending[:n]
            return n
        except BaseException as e:  # noqa: BLE001 - reported after the C call returns
            read.error = e
            return _native.READ_ERROR

    read.error = None
    return read


def _error(reader):
    """The PgnError chess_pgn_reader_last_error describes."""
    info = _native.PgnErrorInfo(size=ctypes.sizeof(_native.PgnErrorInfo))
    _native.check(lib.chess_pgn_reader_last_error(reader, ctypes.byref(info)))
    try:
        code = ErrorCode(info.code)
    except ValueError:
        code = info.code  # a code from a newer library keeps its number
    return PgnError(code, info.message.decode("utf-8"), info.line, info.column, info.game, info.ply)


def read_pgn(
    source: Union[str, os.PathLike, bytes, bytearray, memoryview, IO],
    *,
    strict: bool = False,
    threads: int = 1,
    headers_only: bool = False,
    variants: bool = False,
) -> Iterator[Game]:
    """Yields one ``Game`` per game of ``source`` in order: a path (str or os.PathLike), a
    bytes-like buffer of PGN data (copied), or a file object opened in binary (or text) mode. A
    str is always a path, as for ``open``: PGN text in a str goes to ``read_pgn_string``. Bytes
    are PGN data, so here, unlike everywhere else, a path is not bytes: pass
    ``os.fsdecode(name)``, which keeps a name that is not UTF-8.

    Every move is replayed and checked. A broken game is yielded too, holding what was read of
    it (its headers and the main line up to the problem), with ``game.error`` a ``PgnError``
    (``message`` with the game's number, line and column; ``line``, ``column``, ``ply``);
    ``error`` is None for the others. A missing file raises NoSuchFileError before the first game.

    Real-world syntax is read (``2 . Nf3``, ``Nc6*``, ``e.p.``, ``O‑O`` with a Unicode hyphen,
    ``½-½``...); text that is not UTF-8 is decoded as Windows-1252, with a message in
    ``game.warnings``. ``strict=True`` refuses these instead (the game's ``error`` says why).

    ``threads`` (a path or bytes only; 0: one per core) reads with that many threads, the
    games yielded in the same order as with one; gzip and Zstandard input (told by its first
    bytes) is decompressed either way.

    ``headers_only=True`` reads each game's headers, start position and result only: the
    movetext is skipped unread (neither replayed nor checked), so the games have no moves; a
    broken tag still breaks its game. Many times faster, for statistics over headers.

    ``variants=True`` reads the games of the lichess variants too (a ``Variant`` header naming
    atomic, antichess, crazyhouse, king of the hill, three-check, horde or racing kings): their
    ``game.variant`` says which, and their positions are ``chesscore.variant.VariantPosition``s.
    Without it such a game is yielded broken (``error`` says the variant is unsupported). Threads
    read them too, the same games in the same order; a variant game broken in its movetext holds
    its moves up to the problem, as a variant game.
    """
    flags = _native.PGN_STRICT if _args.of_type(strict, bool, "strict") else 0
    if _args.of_type(headers_only, bool, "headers_only"):
        flags |= _native.PGN_HEADERS_ONLY
    if _args.of_type(variants, bool, "variants"):
        flags |= _native.PGN_VARIANTS
    reader, callback = _open(source)
    if flags:
        options = _native.PgnOptions(size=ctypes.sizeof(_native.PgnOptions), flags=flags)
        _native.check(lib.chess_pgn_reader_set_options(reader, ctypes.byref(options)))
    try:
        if threads != 1:
            if callback is not None:
                raise InvalidArgumentError(ErrorCode.INVALID_ARGUMENT, "threads read a path or bytes, not a stream")
            _native.check(lib.chess_pgn_reader_set_threads(reader, _args.integer(threads, "threads", 0, 2**32 - 1)))
        # The loop runs once per game: its names are bound here, out of the global look-ups.
        next_game: Callable[..., int] = _native.per_game.chess_pgn_reader_next
        new_handle, from_pgn, byref = _native.GAME, Game._from_pgn, ctypes.byref
        ok, end = int(ErrorCode.OK), int(ErrorCode.END)
        while True:
            out = new_handle()
            code = next_game(reader, byref(out))
            if code == ok:
                yield from_pgn(out)
                continue
            if code == end:
                if callback is not None and callback.error is not None:
                    raise callback.error
                return
            if code in (ErrorCode.NULL_POINTER, ErrorCode.OUT_OF_MEMORY, ErrorCode.INTERNAL):
                raise_for(code)
            error = _error(reader)
            if callback is not None and callback.error is not None:
                raise callback.error
            _native.check(lib.chess_pgn_reader_partial_game(reader, ctypes.byref(out)))
            yield Game._from_pgn(out, error)
    finally:
        lib.chess_pgn_reader_free(reader)


def read_pgn_string(
    text: str, *, strict: bool = False, headers_only: bool = False, variants: bool = False
) -> Iterator[Game]:
    """Yields the games of PGN text in a str, as ``read_pgn`` does. A function of its own, as
    ``json.loads`` beside ``json.load``: ``read_pgn`` takes a str as a path, as ``open`` does."""
    return read_pgn(_args.utf8(text, "PGN text"), strict=strict, headers_only=headers_only, variants=variants)


def split_pgn(path: Union[str, os.PathLike], parts: int) -> List[Tuple[int, int]]:
    """Cuts the PGN text file at ``path`` into at most ``parts`` pieces of whole games of about
    equal size, for reading them apart (in other processes, or on the machines of a cluster
    sharing the file): the ``(start, end)`` byte range of each piece in the file, in order,
    fewer than ``parts`` when the games are. The games of all the pieces, each read with
    ``read_pgn`` (of the bytes ``f.seek(start); f.read(end - start)``), are those of the file in
    order (a broken game's numbers and lines then count from its piece's start).

    The games are scanned for where they end, their moves not replayed: a blank line and a tag
    inside a comment are no boundary. A gzip or Zstandard file, whose text
    has no offsets in the file, raises InvalidArgumentError: it is one piece (``read_pgn``
    decompresses it). A missing file raises NoSuchFileError.
    """
    parts = _args.integer(parts, "parts", 1, 2**32 - 1)
    name = _args.path(path)
    # A piece holds a game, so a byte at least: never more pieces than bytes to allocate for.
    try:
        parts = min(parts, max(1, os.stat(name).st_size))
    except OSError:
        parts = 1  # the library tells what is wrong with the path
    offsets = (ctypes.c_uint64 * parts)()
    count = ctypes.c_size_t()
    code = lib.chess_pgn_split_file(name, parts, offsets, ctypes.byref(count))
    if code:
        raise_for(code, filename=path)
    size = os.path.getsize(path)
    starts = offsets[: count.value]
    return list(zip(starts, starts[1:] + [size]))


# The tags every export has a column for, first (the Seven Tag Roster).
_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def to_arrow(
    source: Union[str, os.PathLike, bytes, bytearray, memoryview, IO], *, strict: bool = False, threads: int = 1
) -> Any:
    """The games of ``source`` (read as ``read_pgn`` reads it, with its ``strict`` and
    ``threads``; the games of the lichess variants too, as with ``variants=True``, named by their
    ``Variant`` header) as a ``pyarrow.Table`` of one row per game, with the columns of the command
    line's ``pgn --export parquet`` file: ``headers`` (a struct of one nullable string field per
    tag: the Seven Tag Roster, then every other tag in the order it first appears), ``uci`` and
    ``san`` (lists of strings), ``clk`` (seconds, a list of nullable doubles), ``eval`` (a list of
    nullable ``{cp, mate}`` structs of int32) and ``error`` (the message of a broken game, else
    null). The table is built in memory: for files larger than memory, write Parquet with the
    command line and read it with ``pyarrow.parquet``. Needs pyarrow (ImportError without)."""
    try:
        import pyarrow as pa
    except ImportError as e:
        raise ImportError("chesscore.pgn.to_arrow needs pyarrow: pip install pyarrow") from e
    tags: Dict[str, None] = dict.fromkeys(_ROSTER)
    headers: List[Dict[str, str]] = []
    columns: Dict[str, List[Any]] = {"uci": [], "san": [], "clk": [], "eval": [], "error": []}
    for game in read_pgn(source, strict=strict, threads=threads, variants=True):
        headers.append(game.headers)
        tags.update(dict.fromkeys(game.headers))
        columns["uci"].append([move.uci() for move in game.moves])
        columns["san"].append(game.san_moves())
        line = game.mainline()
        columns["clk"].append([node.clock for node in line])
        columns["eval"].append([None if e is None else {"cp": e.cp, "mate": e.mate} for e in (n.eval for n in line)])
        columns["error"].append(None if game.error is None else str(game.error))
    moves = pa.list_(pa.field("item", pa.string(), nullable=False))
    evals = pa.list_(pa.field("item", pa.struct([("cp", pa.int32()), ("mate", pa.int32())])))
    schema = pa.schema(
        [
            pa.field("headers", pa.struct([(name, pa.string()) for name in tags]), nullable=False),
            pa.field("uci", moves, nullable=False),
            pa.field("san", moves, nullable=False),
            pa.field("clk", pa.list_(pa.float64()), nullable=False),
            pa.field("eval", evals, nullable=False),
            pa.field("error", pa.string()),
        ]
    )
    rows = [[{name: h.get(name) for name in tags} for h in headers]] + list(columns.values())
    return pa.Table.from_arrays(
        [pa.array(values, type=field.type) for values, field in zip(rows, schema)], schema=schema
    )
