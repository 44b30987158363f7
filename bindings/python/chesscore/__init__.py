"""chesscore: Python bindings (ctypes) for the chesscore C library.

    >>> import chesscore
    >>> pos = chesscore.Position()
    >>> pos.push_san("e4").uci()
    'e2e4'
    >>> pos.fen()
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
    >>> len(pos.legal_moves())
    20

The shared library is found through the ``CHESSCORE_LIB`` environment variable (a path to
``libchesscore.so``) first, then next to this package, then on the system's library path.

Threads: ctypes releases the GIL during every library call, so positions can be searched from
several threads at once. An object (Position, Game) may be read by many threads at once, but one
that a thread changes must not be used by another meanwhile. There is no global state.
"""

from ._native import path as library_path
from ._native import version as _library_version
from .epd import Epd
from .errors import (
    AmbiguousMoveError,
    ArgumentTypeError,
    BookEntryNotFoundError,
    BookError,
    CorruptTableError,
    EmptyHistoryError,
    EngineError,
    EngineNotStartedError,
    EngineTerminatedError,
    EngineTimeoutError,
    EpdError,
    Error,
    ErrorCode,
    FenError,
    IllegalMoveError,
    InternalError,
    InvalidArgumentError,
    InvalidMoveError,
    InvalidSquareError,
    LibraryError,
    MissingTableError,
    MoveError,
    NoSuchFileError,
    OperationNotFoundError,
    OutOfMemoryError,
    PgnError,
    ReadError,
    TablebaseError,
    TagNotFoundError,
    TrainingDataError,
)
from .game import Eval, Game, GameMove, Highlight, Outcome, Termination
from .pgn import read_pgn, read_pgn_string, split_pgn
from .position import STARTING_FEN, Position
from .setup import Setup, SetupStatus
from .types import (
    BISHOP,
    BLACK,
    COLORS,
    FILE_NAMES,
    KING,
    KNIGHT,
    PAWN,
    PIECE_TYPES,
    QUEEN,
    RANK_NAMES,
    ROOK,
    SQUARE_NAMES,
    SQUARES,
    WHITE,
    Move,
    MoveKind,
    Piece,
    square_name,
)
from .types import square as parse_square
from . import svg  # chesscore.svg.board; after .position, which it uses
from . import variant  # noqa: E402 - after the modules it builds on
from .variant import Variant, VariantPosition  # noqa: E402
from . import polyglot  # noqa: E402 - after the modules it builds on
from . import binpack  # noqa: E402 - after the modules it builds on

__version__ = "1.0.0"

# Bits of Position.castling_rights (CHESS_CASTLING_* in chesscore.h).
CASTLING_WHITE_KINGSIDE = 1
CASTLING_WHITE_QUEENSIDE = 2
CASTLING_BLACK_KINGSIDE = 4
CASTLING_BLACK_QUEENSIDE = 8


def library_version() -> str:
    """The loaded library's version (this package's is ``__version__``)."""
    return _library_version()


__all__ = [
    "AmbiguousMoveError",
    "ArgumentTypeError",
    "BISHOP",
    "BookEntryNotFoundError",
    "BookError",
    "CorruptTableError",
    "BLACK",
    "CASTLING_BLACK_KINGSIDE",
    "CASTLING_BLACK_QUEENSIDE",
    "CASTLING_WHITE_KINGSIDE",
    "CASTLING_WHITE_QUEENSIDE",
    "COLORS",
    "EmptyHistoryError",
    "EngineError",
    "EngineNotStartedError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Epd",
    "EpdError",
    "Error",
    "ErrorCode",
    "Eval",
    "FILE_NAMES",
    "FenError",
    "Game",
    "GameMove",
    "Highlight",
    "IllegalMoveError",
    "InternalError",
    "InvalidArgumentError",
    "InvalidMoveError",
    "InvalidSquareError",
    "KING",
    "KNIGHT",
    "LibraryError",
    "Move",
    "MissingTableError",
    "MoveError",
    "MoveKind",
    "NoSuchFileError",
    "OperationNotFoundError",
    "OutOfMemoryError",
    "Outcome",
    "PAWN",
    "PIECE_TYPES",
    "PgnError",
    "Piece",
    "Position",
    "QUEEN",
    "RANK_NAMES",
    "ROOK",
    "ReadError",
    "SQUARES",
    "SQUARE_NAMES",
    "STARTING_FEN",
    "Setup",
    "SetupStatus",
    "TagNotFoundError",
    "Termination",
    "TablebaseError",
    "TrainingDataError",
    "Variant",
    "VariantPosition",
    "WHITE",
    "library_path",
    "library_version",
    "binpack",
    "parse_square",
    "polyglot",
    "read_pgn",
    "read_pgn_string",
    "split_pgn",
    "square_name",
    "svg",
    "variant",
]
