"""Exceptions. Every exception the package raises is a ``chesscore.Error`` carrying the C
library's ``chess_error`` code and message; each family also derives from the built-in exception
Python code would catch (``ValueError`` for bad input, ``IndexError`` for an empty history, ...).
"""

from __future__ import annotations

import enum
import errno
import os
from typing import Callable, NoReturn, Optional, Union

# A path as open() takes it (typeshed's name).
StrOrBytesPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


class ErrorCode(enum.IntEnum):
    """The ``chess_error`` values of chesscore.h, without their ``CHESS_ERR_`` prefix."""

    OK = 0
    END = 1
    NULL_POINTER = 2
    INVALID_ARGUMENT = 3
    BUFFER_TOO_SMALL = 4
    INVALID_TEXT = 5
    OUT_OF_MEMORY = 6
    INTERNAL = 7
    FEN_EMPTY = 100
    FEN_TOO_LONG = 101
    FEN_INVALID_CHARACTER = 102
    FEN_FIELD_COUNT = 103
    FEN_RANK_COUNT = 104
    FEN_RANK_WIDTH = 105
    FEN_EMPTY_SQUARE_COUNT = 106
    FEN_PIECE_LETTER = 107
    FEN_SIDE_TO_MOVE = 108
    FEN_CASTLING = 109
    FEN_EN_PASSANT = 110
    FEN_HALFMOVE_CLOCK = 111
    FEN_FULLMOVE_NUMBER = 112
    FEN_MISSING_KING = 113
    FEN_TOO_MANY_KINGS = 114
    FEN_TOO_MANY_PIECES = 115
    FEN_TOO_MANY_PAWNS = 116
    FEN_PAWN_ON_BACK_RANK = 117
    FEN_OPPOSITE_CHECK = 118
    FEN_IMPOSSIBLE_CHECK = 119
    FEN_INVALID_EN_PASSANT = 120
    FEN_BAD_CASTLING_RIGHTS = 121
    ILLEGAL_MOVE = 200
    INVALID_MOVE = 201
    UCI_SYNTAX = 202
    INVALID_SQUARE = 203
    EMPTY_HISTORY = 204
    SAN_SYNTAX = 300
    SAN_AMBIGUOUS = 301
    SAN_NOT_CANONICAL = 302
    PGN_TAG = 400
    PGN_TAG_TOO_LONG = 401
    PGN_VARIANT = 402
    PGN_TOKEN_TOO_LONG = 403
    PGN_UNEXPECTED_CHAR = 404
    PGN_NAG = 405
    PGN_UNTERMINATED_COMMENT = 406
    PGN_COMMENT_TOO_LONG = 407
    PGN_UNMATCHED_PAREN = 408
    PGN_UNCLOSED_VARIATION = 409
    PGN_VARIATION_WITHOUT_MOVE = 410
    PGN_TOO_DEEP = 411
    PGN_INVALID_UTF8 = 412
    PGN_TAG_NOT_FOUND = 413
    PGN_NUL_BYTE = 414
    PGN_NON_STANDARD = 415
    FILE_NOT_FOUND = 500
    IO = 501
    EPD_MISSING_FIELDS = 600
    EPD_OPCODE = 601
    EPD_UNTERMINATED_STRING = 602
    EPD_INVALID_OPERAND = 603
    EPD_NOT_FOUND = 604
    EPD_WRONG_TYPE = 605
    ENGINE_NOT_STARTED = 700
    ENGINE_EXITED = 701
    ENGINE_TIMEOUT = 702
    ENGINE_PROTOCOL = 703
    BOOK_EMPTY = 800
    BOOK_LENGTH = 801
    BOOK_UNSORTED = 802
    BINARY_FEN_COUNTER = 900
    BINARY_FEN_VARIANT = 901
    BINARY_FEN_TRAILING_BYTES = 902
    BINARY_FEN_EN_PASSANT_PAWN = 903
    BINPACK_CHUNK = 904
    BINPACK_TRUNCATED = 905
    BINPACK_SCORE = 906
    BINPACK_RESULT = 907
    BINPACK_PLAIN_SYNTAX = 908
    BINPACK_UNREPRESENTABLE = 909
    TABLEBASE_MISSING_TABLE = 1000
    TABLEBASE_CASTLING = 1001
    TABLEBASE_TOO_MANY_PIECES = 1002
    TABLEBASE_CORRUPT = 1003
    VARIANT_POCKET = 1100
    VARIANT_CHECKS = 1101
    VARIANT_KINGS = 1102
    VARIANT_GAME = 1103


class Error(Exception):
    """Base of every chesscore exception: ``code`` (an ``ErrorCode``, or the plain int of a code
    this package does not know; None only for a library that cannot be loaded) and ``message``
    (the C library's description, or the package's own)."""

    def __init__(self, code: Optional[int], message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class LibraryError(Error, ImportError):
    """libchesscore cannot be loaded, or lacks a function this package needs."""

    def __init__(self, message):
        super().__init__(None, message)


class InvalidArgumentError(Error, ValueError):
    """An argument out of its range, or text with a NUL or non-ASCII character."""


class ArgumentTypeError(Error, TypeError):
    """An argument of the wrong type."""


class FenError(Error, ValueError):
    """A FEN (or binary FEN) that cannot be read; ``offset`` is the byte where it went wrong."""

    def __init__(self, code: int, message: str, offset: Optional[int] = None) -> None:
        if offset is not None:
            message = f"{message} (at offset {offset})"
        super().__init__(code, message)
        self.offset = offset


class MoveError(Error, ValueError):
    """A move that cannot be read or played; ``index`` is the bad token's of a move line. The
    message of a move read or played alone names it and, where the position decides, the FEN,
    in python-chess's words: ``illegal san: 'e5' in <FEN>``."""

    def __init__(self, code: int, message: str, index: Optional[int] = None) -> None:
        if index is not None:
            message = f"{message} (move {index + 1} of the line)"
        super().__init__(code, message)
        self.index = index


class IllegalMoveError(MoveError):
    """A move that is not legal in the position."""


class InvalidMoveError(MoveError):
    """Text that is not a move in the notation asked for (or not its canonical form, strictly)."""


class AmbiguousMoveError(MoveError):
    """A SAN that more than one legal move matches."""


class InvalidSquareError(Error, ValueError):
    """Not a square name or index."""


class EmptyHistoryError(Error, IndexError):
    """A move taken back from a game without moves."""


class _FileError(Error):
    """An error about a file. ``filename`` is its path as given (``os.fspath``: str or bytes), as
    in Python's own OSError, and the message names it."""

    _what = ""

    def __init__(self, code, message, filename: Optional[StrOrBytesPath] = None):
        if filename is not None:
            filename = os.fspath(filename)
            message = f"{self._what}: {filename!r}"  # repr, as Python's own: a name may not print
        super().__init__(code, message)
        self.filename = filename

    def __str__(self):
        return self.message  # OSError's would be "[Errno None] None: 'name'"


class NoSuchFileError(_FileError, FileNotFoundError):
    """A file that does not exist (``errno`` is ENOENT)."""

    _what = "no such file"

    def __init__(self, code, message, filename: Optional[StrOrBytesPath] = None):
        super().__init__(code, message, filename)
        self.errno, self.strerror = errno.ENOENT, os.strerror(errno.ENOENT)


class ReadError(_FileError, OSError):
    """A file that exists but cannot be read."""

    _what = "cannot read the file"


class EpdError(Error, ValueError):
    """An EPD line that cannot be read."""


class OperationNotFoundError(Error, KeyError):
    """An EPD record without the operation asked for."""

    def __str__(self):
        return self.message  # KeyError would show the message's repr


class PgnError(Error, ValueError):
    """A broken PGN game: ``code`` (a PGN_ code, a FEN code for a bad FEN tag, a SAN or move code
    for a bad move, IO when reading failed), ``message`` (the reader's, with the game's number,
    line and column), ``line``, ``column``, ``game`` (its number, from 1) and ``ply``."""

    def __init__(self, code, message, line=0, column=0, game=0, ply=0):
        super().__init__(code, message)
        self.line = line
        self.column = column
        self.game = game
        self.ply = ply


class BookError(Error, ValueError):
    """A malformed Polyglot book (empty, cut short, keys out of order): ``message`` names the
    file and the entry at fault, ``entry`` is its number (from 0), ``filename`` the path."""

    def __init__(self, code, message, entry=0, filename: Optional[StrOrBytesPath] = None):
        if filename is not None:
            filename = os.fspath(filename)
            message = f"{filename!r}: {message}"
        super().__init__(code, message)
        self.entry = entry
        self.filename = filename


class TrainingDataError(Error, ValueError):
    """Training data (``.binpack``, ``.plain``) that cannot be read or an entry that cannot be
    written: ``code`` says why (a ``BINPACK_*`` code, or that of the bad position or move inside),
    ``offset`` is the byte of the input where (None for a writer's error)."""

    def __init__(self, code: int, message: str, offset: Optional[int] = None) -> None:
        if offset is not None:
            message = f"{message} (at byte {offset})"
        super().__init__(code, message)
        self.offset = offset


class BookEntryNotFoundError(Error, IndexError):
    """No book entry: a position without one (``find``, ``choice``), or an index out of range."""


class TagNotFoundError(Error, KeyError):
    """A PGN tag the game does not have."""

    def __str__(self):
        return self.message


class EngineError(Error, RuntimeError):
    """A UCI engine failed: it broke the protocol (the base of the other engine errors). After
    an engine error the engine process is gone."""


class EngineNotStartedError(EngineError, OSError):
    """The engine program could not be started (not found, not executable, bad directory)."""


class EngineTerminatedError(EngineError):
    """The engine exited (it crashed, say), or had failed before."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine gave no answer within the timeout, and was killed."""


class TablebaseError(Error, KeyError):
    """A position the tables cannot answer for (castling rights, too many pieces), as
    python-chess's ``KeyError``."""

    def __str__(self):
        return self.message  # KeyError would show the message's repr


class MissingTableError(TablebaseError):
    """A table the position needs is not among the directories opened (python-chess's
    ``chess.syzygy.MissingTableError``)."""


class CorruptTableError(Error, OSError):
    """A table file that is damaged or cut short."""

    def __str__(self):
        return self.message


class InternalError(Error, RuntimeError):
    """A bug inside the library (a caught Rust panic)."""


class OutOfMemoryError(Error, MemoryError):
    """Memory for a new handle could not be allocated."""


_BY_CODE = {
    ErrorCode.NULL_POINTER: InternalError,  # the package never passes NULL: a bug if it does
    ErrorCode.INVALID_ARGUMENT: InvalidArgumentError,
    ErrorCode.BUFFER_TOO_SMALL: InternalError,
    ErrorCode.INVALID_TEXT: InvalidArgumentError,
    ErrorCode.OUT_OF_MEMORY: OutOfMemoryError,
    ErrorCode.INTERNAL: InternalError,
    ErrorCode.ILLEGAL_MOVE: IllegalMoveError,
    ErrorCode.INVALID_MOVE: InvalidMoveError,
    ErrorCode.UCI_SYNTAX: InvalidMoveError,
    ErrorCode.INVALID_SQUARE: InvalidSquareError,
    ErrorCode.EMPTY_HISTORY: EmptyHistoryError,
    ErrorCode.SAN_SYNTAX: InvalidMoveError,
    ErrorCode.SAN_AMBIGUOUS: AmbiguousMoveError,
    ErrorCode.SAN_NOT_CANONICAL: InvalidMoveError,
    ErrorCode.FILE_NOT_FOUND: NoSuchFileError,
    ErrorCode.IO: ReadError,
    ErrorCode.EPD_NOT_FOUND: OperationNotFoundError,
    ErrorCode.PGN_TAG_NOT_FOUND: TagNotFoundError,
    ErrorCode.PGN_TAG: PgnError,
    ErrorCode.PGN_TAG_TOO_LONG: PgnError,
    ErrorCode.PGN_VARIANT: PgnError,
    ErrorCode.PGN_TOKEN_TOO_LONG: PgnError,
    ErrorCode.PGN_UNEXPECTED_CHAR: PgnError,
    ErrorCode.PGN_NAG: PgnError,
    ErrorCode.PGN_UNTERMINATED_COMMENT: PgnError,
    ErrorCode.PGN_COMMENT_TOO_LONG: PgnError,
    ErrorCode.PGN_UNMATCHED_PAREN: PgnError,
    ErrorCode.PGN_UNCLOSED_VARIATION: PgnError,
    ErrorCode.PGN_VARIATION_WITHOUT_MOVE: PgnError,
    ErrorCode.PGN_TOO_DEEP: PgnError,
    ErrorCode.PGN_INVALID_UTF8: PgnError,
    ErrorCode.PGN_NUL_BYTE: PgnError,
    ErrorCode.PGN_NON_STANDARD: PgnError,
    ErrorCode.ENGINE_NOT_STARTED: EngineNotStartedError,
    ErrorCode.ENGINE_EXITED: EngineTerminatedError,
    ErrorCode.ENGINE_TIMEOUT: EngineTimeoutError,
    ErrorCode.ENGINE_PROTOCOL: EngineError,
    ErrorCode.TABLEBASE_MISSING_TABLE: MissingTableError,
    ErrorCode.TABLEBASE_CASTLING: TablebaseError,
    ErrorCode.TABLEBASE_TOO_MANY_PIECES: TablebaseError,
    ErrorCode.TABLEBASE_CORRUPT: CorruptTableError,
    ErrorCode.VARIANT_POCKET: FenError,
    ErrorCode.VARIANT_CHECKS: FenError,
    ErrorCode.VARIANT_KINGS: FenError,
    ErrorCode.VARIANT_GAME: InvalidArgumentError,
}


# The library's text for a code. The native layer, which loads the library (and may fail with
# LibraryError, defined here), sets it once loaded: this module imports none of the package.
_describe: Optional[Callable[[int], str]] = None


def use_messages(describe: Callable[[int], str]) -> None:
    """Makes ``describe(code)`` the message of an error given none (the library's text)."""
    global _describe
    _describe = describe


def _message(code: int) -> str:
    assert _describe is not None, "chesscore._native sets the messages when it loads the library"
    return _describe(code)


def is_fen_code(code: int) -> bool:
    """True for the codes of a FEN or binary FEN reading, which carry the offset of the fault."""
    return 100 <= code < 200 or 900 <= code <= 903


def error_for(code, message=None, *, offset=None, index=None, filename: Optional[StrOrBytesPath] = None):
    """The exception for a ``chess_error`` code (``filename``: the path of a file error)."""
    try:
        code = ErrorCode(code)
    except ValueError:
        pass  # a code from a newer library keeps its number
    message = message or _message(code)
    if is_fen_code(code):
        return FenError(code, message, offset)
    if 904 <= code < 1000:
        return TrainingDataError(code, message, offset)
    cls = _BY_CODE.get(code)
    if cls is None:
        cls = EpdError if 600 <= code < 700 else BookError if 700 <= code < 800 else Error
    if issubclass(cls, MoveError):
        return cls(code, message, index)
    if issubclass(cls, _FileError):
        return cls(code, message, filename)
    return cls(code, message)


def raise_for(
    code: int,
    message: Optional[str] = None,
    *,
    offset: Optional[int] = None,
    index: Optional[int] = None,
    filename: Optional[StrOrBytesPath] = None,
) -> NoReturn:
    raise error_for(code, message, offset=offset, index=index, filename=filename)
