"""The native layer: the only module that loads the C library, declares its functions and
calls it by its conventions. Every other module calls the library through what this one hands
out:

- ``lib``: every function with its declared signature (ctypes checks and converts each argument),
  releasing the GIL during the call; ``check``, ``read_text`` and ``parse_fen`` turn its error
  codes into the package's exceptions, ``move_error`` that of a move a position refused;
- ``per_game``: the few functions called for every game read from PGN, without argument
  conversion, some keeping the GIL, and ``per_probe``, the tablebase probes, likewise (see
  ``_Unchecked``);
- ``by_address``: every function with pointers to the library's structures taken and given as
  addresses (ints), for ``chesscore.compat``'s boards, which hold their games by address.

The library is looked up in this order: the path in ``CHESSCORE_LIB``, a copy next to the
package, then the system's search path.
"""

import ctypes
import ctypes.util
import os
from ctypes import (
    POINTER,
    c_bool,
    c_char,
    c_char_p,
    c_double,
    c_int8,
    c_int16,
    c_int32,
    c_int64,
    c_size_t,
    c_uint8,
    c_uint16,
    c_uint32,
    c_uint64,
)
from pathlib import Path
from typing import Any, Callable, Dict, List, NoReturn, Optional, Tuple

from . import errors
from .errors import Error, ErrorCode, LibraryError, StrOrBytesPath, error_for, is_fen_code, raise_for

# Constants of chesscore.h, named without their CHESS_ prefix (a test compares them).
MAX_MOVES = 256
MAX_VARIANT_MOVES = 512
FEN_MAX = 104
SAN_MAX = 8
PGN_MESSAGE_MAX = 256
TABLEBASE_MESSAGE_MAX = 256
TABLEBASE_MMAP = 1
PGN_HEADERS_ONLY = 4
PGN_STRICT = 8
PGN_VARIANTS = 16
# chess_ep_mode
EP_AS_RECORDED = 0
EP_PSEUDO_LEGAL = 1
EP_LEGAL = 2
# chess_fen_parse_with flags
FEN_CHESS960 = 1
FEN_DROP_BAD_CASTLING = 2
FEN_DROP_BAD_EN_PASSANT = 4
FEN_ALLOW_IMPOSSIBLE_CHECK = 8
BINARY_FEN_MAX = 34
BINPACK_PLAIN = 1
# chess_fen_write_with flags
FEN_WRITE_EP_AS_RECORDED = 1
FEN_WRITE_EP_PSEUDO_LEGAL = 2
FEN_WRITE_XFEN = 4
FEN_WRITE_SHREDDER = 8
# chess_position_to_text styles
TEXT_BOARD = 0
TEXT_ASCII = 1
TEXT_UNICODE = 2
UCI_KING_TAKES_ROOK = 1
SAN_STRICT = 1
SAN_ALLOW_NULL = 2
# Polyglot books
BOOK_MESSAGE_MAX = 256
BOOK_LOOKUP_MIN_WEIGHT = 1
BOOK_PICK_WEIGHTED = 0
BOOK_PICK_UNIFORM = 1
BOOK_PICK_BEST = 2
BOOK_BUILD_ONLY_WHITE = 1
BOOK_BUILD_ONLY_BLACK = 2
BOOK_BUILD_UNIFORM = 4
BOOK_BUILD_CHESS960 = 8
# chess_svg_options flags
SVG_FLIPPED = 1
SVG_NO_COORDINATES = 2
SVG_MARK_CHECK = 4
# engines: chess_limits flags, chess_option_type, chess_score_kind, chess_bound
LIMIT_INFINITE = 1
OPTION_CHECK = 0
OPTION_SPIN = 1
OPTION_COMBO = 2
OPTION_BUTTON = 3
OPTION_STRING = 4
SCORE_NONE = 0
SCORE_CP = 1
SCORE_MATE = 2
BOUND_EXACT = 0
BOUND_LOWER = 1
BOUND_UPPER = 2


class Position(ctypes.Structure):
    """chess_position: a complete type of private contents, which Python holds by value."""

    _fields_ = [("_private", c_uint64 * 16)]


class Setup(ctypes.Structure):
    """chess_setup: an editable board, held by value; every field is public."""

    _fields_ = [
        ("board", c_uint8 * 64),
        ("castling_rooks", c_uint64),
        ("halfmove_clock", c_uint32),
        ("fullmove_number", c_uint32),
        ("turn", c_uint8),
        ("en_passant", c_int32),
        ("chess960", c_uint8),
    ]


# chess_setup_moves: which moves
SETUP_LEGAL = 1
SETUP_PSEUDO_LEGAL = 2


class Game(ctypes.Structure):
    """Opaque chess_game."""


class Epd(ctypes.Structure):
    """Opaque chess_epd."""


class VariantPosition(ctypes.Structure):
    """Opaque chess_variant_position."""


class PgnReader(ctypes.Structure):
    """Opaque chess_pgn_reader."""


class Engine(ctypes.Structure):
    """Opaque chess_engine."""


class Analysis(ctypes.Structure):
    """Opaque chess_analysis."""


class EngineOptions(ctypes.Structure):
    _fields_ = [
        ("size", c_size_t),
        ("args", POINTER(c_char_p)),
        ("arg_count", c_size_t),
        ("working_dir", c_char_p),
        ("timeout_ms", c_uint32),
    ]


class EngineOption(ctypes.Structure):
    _fields_ = [("option_type", c_uint8), ("min", c_int64), ("max", c_int64), ("var_count", c_size_t)]


class Limits(ctypes.Structure):
    _fields_ = [
        ("size", c_size_t),
        ("depth", c_uint32),
        ("mate", c_uint32),
        ("nodes", c_uint64),
        ("movetime_ms", c_uint32),
        ("wtime_ms", c_uint32),
        ("btime_ms", c_uint32),
        ("winc_ms", c_uint32),
        ("binc_ms", c_uint32),
        ("movestogo", c_uint32),
        ("multipv", c_uint32),
        ("flags", c_uint32),
        ("searchmoves", POINTER(c_uint16)),
        ("searchmove_count", c_size_t),
    ]


class Info(ctypes.Structure):
    _fields_ = [
        ("multipv", c_uint32),
        ("depth", c_uint32),
        ("seldepth", c_uint32),
        ("hashfull", c_uint32),
        ("nodes", c_uint64),
        ("time_ms", c_uint64),
        ("nps", c_uint64),
        ("tbhits", c_uint64),
        ("score_kind", c_uint8),
        ("bound", c_uint8),
        ("has_wdl", c_bool),
        ("score", c_int32),
        ("white_score", c_int32),
        ("wdl_win", c_uint32),
        ("wdl_draw", c_uint32),
        ("wdl_loss", c_uint32),
        ("currmove", c_uint16),
        ("currmovenumber", c_uint32),
        ("pv", POINTER(c_uint16)),
        ("pv_len", c_size_t),
        ("string", c_char_p),
    ]


class Outcome(ctypes.Structure):
    _fields_ = [("result", c_uint8), ("termination", c_uint8)]


class FenInfo(ctypes.Structure):
    _fields_ = [
        ("size", c_size_t),
        ("error_offset", c_size_t),
        ("dropped_castling", c_uint8),
        ("dropped_en_passant", c_int32),
    ]


class PgnErrorInfo(ctypes.Structure):
    _fields_ = [
        ("size", c_size_t),
        ("code", c_uint32),
        ("game", c_uint64),
        ("line", c_uint64),
        ("column", c_uint64),
        ("ply", c_uint32),
        ("message", c_char * PGN_MESSAGE_MAX),
    ]


class PgnOptions(ctypes.Structure):
    _fields_ = [
        ("size", c_size_t),
        ("flags", c_uint32),
        ("max_depth", c_uint32),
        ("max_tag_len", c_size_t),
        ("max_comment_len", c_size_t),
    ]


EVAL_NO_DEPTH = 0xFFFFFFFF
NO_TIME = -1.0  # chess_game_mainline_clocks and _elapsed for a move without the command
MARK_COLORS = ("red", "green", "yellow", "blue")  # chess_mark_color 0..3


class NodeEval(ctypes.Structure):
    _fields_ = [("kind", c_uint8), ("value", c_int32), ("depth", c_uint32)]


class NodeHighlight(ctypes.Structure):
    _fields_ = [("square", c_int32), ("color", c_uint8)]


class NodeArrow(ctypes.Structure):
    _fields_ = [("from", c_int32), ("to", c_int32), ("color", c_uint8)]


class Book(ctypes.Structure):
    """Opaque chess_book."""


class Tablebase(ctypes.Structure):
    """Opaque chess_tablebase."""


class TablebaseMove(ctypes.Structure):
    _fields_ = [("move", c_uint16), ("wdl", c_int32), ("dtz", c_int32), ("rank", c_int32)]


class TablebaseOptions(ctypes.Structure):
    _fields_ = [("size", c_size_t), ("flags", c_uint32), ("max_open_files", c_uint32)]


class TablebaseErrorInfo(ctypes.Structure):
    _fields_ = [("size", c_size_t), ("code", c_uint32), ("message", c_char * TABLEBASE_MESSAGE_MAX)]


class BinpackReader(ctypes.Structure):
    """Opaque chess_binpack_reader."""


class BinpackWriter(ctypes.Structure):
    """Opaque chess_binpack_writer."""


class TrainingEntry(ctypes.Structure):
    _fields_ = [
        ("position", Position),
        ("move", c_uint16),
        ("score", c_int16),
        ("ply", c_uint16),
        ("result", c_int8),
    ]


class TrainingRecord(ctypes.Structure):
    _fields_ = [
        ("board", c_uint8 * 24),
        ("move", c_uint16),
        ("score", c_int16),
        ("ply", c_uint16),
        ("halfmove_clock", c_uint16),
        ("result", c_int8),
    ]


class BookBuilder(ctypes.Structure):
    """Opaque chess_book_builder."""


class BookEntry(ctypes.Structure):
    _fields_ = [("move", c_uint16), ("weight", c_uint16), ("learn", c_uint32)]


class BookRawEntry(ctypes.Structure):
    _fields_ = [("key", c_uint64), ("raw_move", c_uint16), ("weight", c_uint16), ("learn", c_uint32)]


class BookErrorInfo(ctypes.Structure):
    _fields_ = [
        ("size", c_size_t),
        ("code", c_uint32),
        ("entry", c_uint64),
        ("message", c_char * BOOK_MESSAGE_MAX),
    ]


class BookLookupOptions(ctypes.Structure):
    _fields_ = [
        ("size", c_size_t),
        ("flags", c_uint32),
        ("min_weight", c_uint16),
        ("exclude", POINTER(c_uint16)),
        ("exclude_count", c_size_t),
    ]


class BookBuildOptions(ctypes.Structure):
    _fields_ = [
        ("size", c_size_t),
        ("flags", c_uint32),
        ("max_ply", c_uint32),
        ("min_games", c_uint64),
        ("min_score", c_uint32),
    ]


class SvgArrow(ctypes.Structure):
    _fields_ = [("from", c_int32), ("to", c_int32), ("color", c_uint32)]


class SvgFill(ctypes.Structure):
    _fields_ = [("square", c_int32), ("color", c_uint32)]


class SvgOptions(ctypes.Structure):
    _fields_ = [
        ("size", c_size_t),
        ("flags", c_uint32),
        ("pixels", c_uint32),
        ("last_move", c_uint16),
        ("check", c_uint64),
        ("squares", c_uint64),
        ("arrows", POINTER(SvgArrow)),
        ("arrow_count", c_size_t),
        ("fills", POINTER(SvgFill)),
        ("fill_count", c_size_t),
        ("color_light", c_uint32),
        ("color_dark", c_uint32),
        ("color_last_move_light", c_uint32),
        ("color_last_move_dark", c_uint32),
        ("color_margin", c_uint32),
        ("color_coordinates", c_uint32),
        ("color_check", c_uint32),
        ("color_highlight", c_uint32),
        ("color_arrow", c_uint32),
    ]


def fen_info():
    """A chess_fen_info with its size set, as the readers that take one require."""
    return FenInfo(size=ctypes.sizeof(FenInfo))


POS = POINTER(Position)
GAME = POINTER(Game)
EPD = POINTER(Epd)
VPOS = POINTER(VariantPosition)
READER = POINTER(PgnReader)
# size_t (*chess_read_fn)(void *user, uint8_t *buf, size_t cap)
READ_FN = ctypes.CFUNCTYPE(c_size_t, ctypes.c_void_p, POINTER(c_uint8), c_size_t)
READ_ERROR = ctypes.c_size_t(-1).value
ERR = c_uint32  # chess_error
MOVE = c_uint16  # chess_move
SQUARE = c_int32  # chess_square
NODE = c_uint32  # chess_node
SMALL = c_uint8  # chess_color, chess_piece_kind, chess_piece, chess_move_kind, chess_ep_mode, ...
SIZE_P = POINTER(c_size_t)
MOVE_P = POINTER(MOVE)
SETUP = POINTER(Setup)
INFO_P = POINTER(FenInfo)
BOOK = POINTER(Book)
TABLEBASE = POINTER(Tablebase)
BUILDER = POINTER(BookBuilder)
BOOK_ENTRY_P = POINTER(BookEntry)
LOOKUP_P = POINTER(BookLookupOptions)
ENGINE = POINTER(Engine)
ANALYSIS = POINTER(Analysis)
# int (*chess_info_fn)(void *payload, const chess_info *info)
INFO_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, POINTER(Info))

# name: (restype, argtypes); text outputs end in (char *buf, size_t cap, size_t *out_len).
SIGNATURES = {
    "chess_version": (c_char_p, []),
    "chess_version_number": (c_uint32, []),
    "chess_error_message": (c_char_p, [ERR]),
    # positions
    "chess_position_new": (POS, []),
    "chess_position_init": (None, [POS]),
    "chess_position_init_chess960": (ERR, [POS, c_uint32]),
    "chess_position_clone": (POS, [POS]),
    "chess_position_copy": (None, [POS, POS]),
    "chess_position_free": (None, [POS]),
    "chess_position_is_chess960": (c_bool, [POS]),
    "chess_position_chess960_number": (c_int32, [POS]),
    "chess_position_turn": (SMALL, [POS]),
    "chess_position_castling_rights": (c_uint8, [POS]),
    "chess_position_en_passant": (SQUARE, [POS, SMALL]),
    "chess_position_halfmove_clock": (c_uint32, [POS]),
    "chess_position_fullmove_number": (c_uint32, [POS]),
    "chess_position_piece_at": (SMALL, [POS, SQUARE]),
    "chess_position_pieces": (c_uint64, [POS, SMALL, SMALL]),
    "chess_position_occupancy": (c_uint64, [POS]),
    "chess_position_color_occupancy": (c_uint64, [POS, SMALL]),
    "chess_position_king_square": (SQUARE, [POS, SMALL]),
    "chess_position_attackers_to": (c_uint64, [POS, SQUARE, SMALL]),
    "chess_position_checkers": (c_uint64, [POS]),
    "chess_position_pinned": (c_uint64, [POS]),
    "chess_position_attacks_by": (c_uint64, [POS, SMALL]),
    "chess_position_check_squares": (c_uint64, [POS, SMALL]),
    "chess_position_zobrist": (c_uint64, [POS]),
    "chess_position_zobrist_with": (c_uint64, [POS, POINTER(c_uint64)]),
    "chess_position_attacks": (c_uint64, [POS, SQUARE]),
    "chess_position_pin": (c_uint64, [POS, SMALL, SQUARE]),
    "chess_position_castling_rooks": (c_uint64, [POS]),
    "chess_bitboard_attacks": (c_uint64, [SMALL, SQUARE, c_uint64]),
    "chess_bitboard_between": (c_uint64, [SQUARE, SQUARE]),
    "chess_bitboard_line": (c_uint64, [SQUARE, SQUARE]),
    "chess_position_mirror": (None, [POS, POS]),
    "chess_position_in_check": (c_bool, [POS]),
    "chess_position_is_checkmate": (c_bool, [POS]),
    "chess_position_is_stalemate": (c_bool, [POS]),
    "chess_position_is_insufficient_material": (c_bool, [POS]),
    "chess_position_has_insufficient_material": (c_bool, [POS, SMALL]),
    "chess_position_is_fifty_moves": (c_bool, [POS]),
    "chess_position_can_claim_fifty_moves": (c_bool, [POS]),
    "chess_position_is_seventy_five_moves": (c_bool, [POS]),
    "chess_position_to_text": (ERR, [POS, c_uint32, c_char_p, c_size_t, SIZE_P]),
    "chess_position_to_svg": (ERR, [POS, POINTER(SvgOptions), c_char_p, c_size_t, SIZE_P]),
    "chess_svg_parse_color": (ERR, [c_char_p, POINTER(c_uint32)]),
    # FEN
    "chess_fen_parse": (ERR, [c_char_p, POINTER(POS)]),
    "chess_fen_parse_chess960": (ERR, [c_char_p, POINTER(POS)]),
    "chess_fen_parse_into": (ERR, [c_char_p, POS]),
    "chess_fen_parse_with": (ERR, [c_char_p, c_uint32, POS, INFO_P]),
    "chess_fen_from_components": (
        ERR,
        [c_char_p, c_char_p, c_char_p, c_char_p, c_char_p, c_char_p, POS, INFO_P],
    ),
    "chess_fen_split": (ERR, [c_char_p, c_char_p, c_size_t, SIZE_P, POINTER(c_char_p), INFO_P]),
    "chess_fen_read_file": (ERR, [c_char_p, POS, INFO_P]),
    "chess_fen_write": (ERR, [POS, c_char_p, c_size_t, SIZE_P]),
    "chess_fen_write_with": (ERR, [POS, c_uint32, c_char_p, c_size_t, SIZE_P]),
    # editable setups
    "chess_setup_from_position": (ERR, [POS, SETUP]),
    "chess_setup_from_fen": (ERR, [c_char_p, c_uint32, SETUP, INFO_P]),
    "chess_setup_to_position": (ERR, [SETUP, c_uint32, POS, INFO_P]),
    "chess_setup_to_fen": (ERR, [SETUP, c_uint32, c_char_p, c_size_t, SIZE_P]),
    "chess_setup_status": (ERR, [SETUP, POINTER(c_uint32)]),
    "chess_setup_moves": (c_size_t, [SETUP, c_uint32, MOVE_P, c_size_t]),
    "chess_setup_play": (ERR, [SETUP, MOVE]),
    "chess_setup_attackers": (c_uint64, [SETUP, SQUARE, SMALL]),
    "chess_setup_attacks": (c_uint64, [SETUP, SQUARE]),
    "chess_setup_checkers": (c_uint64, [SETUP]),
    "chess_setup_pin": (c_uint64, [SETUP, SMALL, SQUARE]),
    "chess_setup_king": (SQUARE, [SETUP, SMALL]),
    "chess_setup_clean_castling_rooks": (c_uint64, [SETUP]),
    "chess_setup_valid_en_passant": (SQUARE, [SETUP]),
    "chess_position_to_binary_fen": (ERR, [POS, c_char_p, c_size_t, SIZE_P]),
    "chess_binary_fen_parse": (ERR, [c_char_p, c_size_t, POINTER(POS)]),
    "chess_binary_fen_parse_into": (ERR, [c_char_p, c_size_t, POS]),
    "chess_binary_fen_parse_with": (ERR, [c_char_p, c_size_t, c_uint32, POS, INFO_P]),
    # training data
    "chess_binpack_reader_open": (ERR, [c_char_p, POINTER(POINTER(BinpackReader))]),
    "chess_binpack_reader_open_with": (ERR, [c_char_p, c_uint32, POINTER(POINTER(BinpackReader))]),
    "chess_binpack_reader_from_buffer_with": (ERR, [c_char_p, c_size_t, c_uint32, POINTER(POINTER(BinpackReader))]),
    "chess_binpack_reader_next": (ERR, [POINTER(BinpackReader), POINTER(TrainingEntry)]),
    "chess_binpack_reader_next_records": (
        ERR,
        [POINTER(BinpackReader), POINTER(TrainingRecord), c_size_t, SIZE_P],
    ),
    "chess_binpack_reader_error_offset": (c_uint64, [POINTER(BinpackReader)]),
    "chess_binpack_reader_free": (None, [POINTER(BinpackReader)]),
    "chess_binpack_writer_open": (ERR, [c_char_p, POINTER(POINTER(BinpackWriter))]),
    "chess_binpack_writer_open_with": (ERR, [c_char_p, c_uint32, POINTER(POINTER(BinpackWriter))]),
    "chess_binpack_writer_write": (ERR, [POINTER(BinpackWriter), POINTER(TrainingEntry)]),
    "chess_binpack_writer_finish": (ERR, [POINTER(BinpackWriter)]),
    "chess_binpack_writer_free": (None, [POINTER(BinpackWriter)]),
    # moves
    "chess_legal_moves": (c_size_t, [POS, MOVE_P, c_size_t]),
    "chess_pseudo_legal_moves": (c_size_t, [POS, MOVE_P, c_size_t]),
    "chess_legal_moves_san": (ERR, [POS, c_char_p, c_size_t, SIZE_P]),
    "chess_legal_moves_from": (c_size_t, [POS, SQUARE, MOVE_P, c_size_t]),
    "chess_position_is_legal": (c_bool, [POS, MOVE]),
    "chess_legal_captures": (c_size_t, [POS, MOVE_P, c_size_t]),
    "chess_legal_quiets": (c_size_t, [POS, MOVE_P, c_size_t]),
    "chess_position_has_legal_moves": (c_bool, [POS]),
    "chess_position_is_pseudo_legal": (c_bool, [POS, MOVE]),
    "chess_position_gives_check": (c_bool, [POS, MOVE]),
    "chess_position_see": (c_int32, [POS, MOVE]),
    "chess_position_see_ge": (c_bool, [POS, MOVE, c_int32]),
    "chess_position_zobrist_after": (c_uint64, [POS, MOVE]),
    "chess_position_play": (ERR, [POS, MOVE]),
    "chess_position_play_unchecked": (None, [POS, MOVE]),
    "chess_position_play_into": (None, [POS, MOVE, POS]),
    "chess_position_play_null": (ERR, [POS]),
    "chess_perft": (c_uint64, [POS, c_uint32]),
    "chess_perft_divide": (c_size_t, [POS, c_uint32, MOVE_P, POINTER(c_uint64), c_size_t]),
    "chess_move_to_uci": (ERR, [MOVE, c_char_p, c_size_t, SIZE_P]),
    "chess_move_to_uci_with": (ERR, [MOVE, c_uint32, c_char_p, c_size_t, SIZE_P]),
    "chess_move_from_uci": (ERR, [POS, c_char_p, MOVE_P]),
    "chess_move_from_square": (SQUARE, [MOVE]),
    "chess_move_to_square": (SQUARE, [MOVE]),
    "chess_move_promotion": (SMALL, [MOVE]),
    "chess_move_kind_of": (SMALL, [MOVE]),
    "chess_square_name": (ERR, [SQUARE, c_char_p, c_size_t, SIZE_P]),
    "chess_square_parse": (ERR, [c_char_p, POINTER(SQUARE)]),
    # SAN
    "chess_move_to_san": (ERR, [POS, MOVE, c_char_p, c_size_t, SIZE_P]),
    "chess_move_from_san": (ERR, [POS, c_char_p, MOVE_P]),
    "chess_move_from_san_with": (ERR, [POS, c_char_p, c_uint32, MOVE_P]),
    "chess_moves_from_line": (ERR, [POS, c_char_p, c_uint32, MOVE_P, c_size_t, SIZE_P, SIZE_P]),
    # games
    "chess_game_new": (GAME, [POS]),
    "chess_game_clone": (GAME, [GAME]),
    "chess_game_free": (None, [GAME]),
    "chess_game_push": (ERR, [GAME, MOVE]),
    "chess_game_push_san": (ERR, [GAME, c_char_p, MOVE_P]),
    "chess_game_push_uci": (ERR, [GAME, c_char_p, MOVE_P]),
    "chess_game_pop": (ERR, [GAME, MOVE_P]),
    "chess_game_position": (POS, [GAME]),
    "chess_game_start": (POS, [GAME]),
    "chess_game_position_at": (POS, [GAME, c_size_t]),
    "chess_game_new_variant": (GAME, [VPOS]),
    "chess_game_variant": (SMALL, [GAME]),
    "chess_node_variant_position": (ERR, [GAME, NODE, VPOS]),
    "chess_game_moves": (c_size_t, [GAME, MOVE_P, c_size_t]),
    "chess_game_ply_count": (c_size_t, [GAME]),
    "chess_game_san_moves": (ERR, [GAME, c_char_p, c_size_t, SIZE_P]),
    "chess_game_set_allow_null_moves": (None, [GAME, c_bool]),
    "chess_game_allows_null_moves": (c_bool, [GAME]),
    "chess_game_outcome": (Outcome, [GAME]),
    "chess_game_claimable_draw": (SMALL, [GAME]),
    "chess_game_repetition_count": (c_size_t, [GAME]),
    "chess_game_is_repetition": (c_bool, [GAME]),
    "chess_game_is_threefold_repetition": (c_bool, [GAME]),
    "chess_game_is_fivefold_repetition": (c_bool, [GAME]),
    "chess_game_can_claim_threefold_repetition": (c_bool, [GAME]),
    # PGN
    "chess_pgn_reader_open_file": (ERR, [c_char_p, POINTER(READER)]),
    "chess_pgn_reader_from_buffer": (ERR, [c_char_p, c_size_t, POINTER(READER)]),
    "chess_pgn_reader_from_callback": (ERR, [READ_FN, ctypes.c_void_p, POINTER(READER)]),
    "chess_pgn_reader_free": (None, [READER]),
    "chess_pgn_reader_next": (ERR, [READER, POINTER(GAME)]),
    "chess_pgn_reader_set_options": (ERR, [READER, POINTER(PgnOptions)]),
    "chess_pgn_reader_set_threads": (ERR, [READER, ctypes.c_uint32]),
    "chess_pgn_reader_last_error": (ERR, [READER, POINTER(PgnErrorInfo)]),
    "chess_pgn_reader_partial_game": (ERR, [READER, POINTER(GAME)]),
    "chess_pgn_split_file": (ERR, [c_char_p, c_size_t, POINTER(c_uint64), SIZE_P]),
    "chess_game_tag": (ERR, [GAME, c_char_p, c_char_p, c_size_t, SIZE_P]),
    "chess_game_tag_count": (c_size_t, [GAME]),
    "chess_game_tag_at": (ERR, [GAME, c_size_t, c_char_p, c_size_t, SIZE_P, c_char_p, c_size_t, SIZE_P]),
    "chess_game_set_tag": (ERR, [GAME, c_char_p, c_char_p]),
    "chess_game_remove_tag": (ERR, [GAME, c_char_p]),
    "chess_game_result": (SMALL, [GAME]),
    "chess_game_warning_count": (c_size_t, [GAME]),
    "chess_game_warning": (ERR, [GAME, c_size_t, c_char_p, c_size_t, SIZE_P]),
    "chess_game_tags": (ERR, [GAME, c_char_p, c_size_t, SIZE_P]),
    # A game's move tree
    "chess_node_count": (c_size_t, [GAME]),
    "chess_node_parent": (NODE, [GAME, NODE]),
    "chess_node_first_child": (NODE, [GAME, NODE]),
    "chess_node_next_sibling": (NODE, [GAME, NODE]),
    "chess_node_move": (MOVE, [GAME, NODE]),
    "chess_node_ply": (c_uint32, [GAME, NODE]),
    "chess_node_san": (ERR, [GAME, NODE, c_char_p, c_size_t, SIZE_P]),
    "chess_node_position": (ERR, [GAME, NODE, POS]),
    "chess_node_comment_count": (c_size_t, [GAME, NODE, SMALL]),
    "chess_node_comment": (ERR, [GAME, NODE, SMALL, c_size_t, c_char_p, c_size_t, SIZE_P]),
    "chess_node_nags": (c_size_t, [GAME, NODE, c_char_p, c_size_t]),
    "chess_node_clock": (ERR, [GAME, NODE, POINTER(c_double)]),
    "chess_node_elapsed": (ERR, [GAME, NODE, POINTER(c_double)]),
    "chess_node_eval": (ERR, [GAME, NODE, POINTER(NodeEval)]),
    "chess_node_highlights": (c_size_t, [GAME, NODE, POINTER(NodeHighlight), c_size_t]),
    "chess_node_arrows": (c_size_t, [GAME, NODE, POINTER(NodeArrow), c_size_t]),
    "chess_node_comment_text": (ERR, [GAME, NODE, c_char_p, c_size_t, SIZE_P]),
    "chess_game_mainline_nodes": (c_size_t, [GAME, POINTER(NODE), c_size_t]),
    "chess_game_mainline_san": (ERR, [GAME, c_char_p, c_size_t, SIZE_P]),
    "chess_game_mainline_clocks": (c_size_t, [GAME, POINTER(c_double), c_size_t]),
    "chess_game_mainline_elapsed": (c_size_t, [GAME, POINTER(c_double), c_size_t]),
    "chess_game_mainline_evals": (c_size_t, [GAME, POINTER(NodeEval), c_size_t]),
    "chess_game_to_pgn": (ERR, [GAME, c_char_p, c_size_t, SIZE_P]),
    # EPD
    "chess_epd_parse": (ERR, [c_char_p, POINTER(EPD)]),
    "chess_epd_parse_with": (ERR, [c_char_p, c_uint32, POINTER(EPD)]),
    "chess_epd_parse_variant": (ERR, [SMALL, c_char_p, POINTER(EPD)]),
    "chess_epd_variant_position": (VPOS, [EPD]),
    "chess_epd_free": (None, [EPD]),
    "chess_epd_position": (POS, [EPD]),
    "chess_epd_write": (ERR, [EPD, c_char_p, c_size_t, SIZE_P]),
    "chess_epd_operation_count": (c_size_t, [EPD]),
    "chess_epd_opcode": (ERR, [EPD, c_size_t, c_char_p, c_size_t, SIZE_P]),
    "chess_epd_has": (c_bool, [EPD, c_char_p]),
    "chess_epd_operand_count": (c_size_t, [EPD, c_char_p]),
    "chess_epd_operand_kind": (SMALL, [EPD, c_char_p, c_size_t]),
    "chess_epd_operand_string": (ERR, [EPD, c_char_p, c_size_t, c_char_p, c_size_t, SIZE_P]),
    "chess_epd_operand_integer": (ERR, [EPD, c_char_p, c_size_t, POINTER(c_int64)]),
    "chess_epd_operand_float": (ERR, [EPD, c_char_p, c_size_t, POINTER(c_double)]),
    "chess_epd_operand_move": (ERR, [EPD, c_char_p, c_size_t, MOVE_P]),
    "chess_epd_moves": (c_size_t, [EPD, c_char_p, MOVE_P, c_size_t]),
    # Syzygy tablebases
    "chess_tablebase_open": (ERR, [c_char_p, POINTER(TABLEBASE)]),
    "chess_tablebase_open_with": (ERR, [c_char_p, POINTER(TablebaseOptions), POINTER(TABLEBASE)]),
    "chess_tablebase_last_error": (ERR, [TABLEBASE, POINTER(TablebaseErrorInfo)]),
    "chess_tablebase_free": (None, [TABLEBASE]),
    "chess_tablebase_max_pieces": (c_uint32, [TABLEBASE]),
    "chess_tablebase_probe_wdl": (ERR, [TABLEBASE, POS, POINTER(c_int32)]),
    "chess_tablebase_probe_dtz": (ERR, [TABLEBASE, POS, POINTER(c_int32)]),
    "chess_tablebase_rank_moves": (ERR, [TABLEBASE, GAME, POINTER(TablebaseMove), c_size_t, SIZE_P]),
    # Polyglot books
    "chess_book_open": (ERR, [c_char_p, POINTER(BOOK)]),
    "chess_book_open_with": (ERR, [c_char_p, POINTER(BOOK), POINTER(BookErrorInfo)]),
    "chess_book_from_buffer": (ERR, [c_char_p, c_size_t, POINTER(BOOK)]),
    "chess_book_from_buffer_with": (ERR, [c_char_p, c_size_t, POINTER(BOOK), POINTER(BookErrorInfo)]),
    "chess_book_free": (None, [BOOK]),
    "chess_book_lookup": (c_size_t, [BOOK, POS, BOOK_ENTRY_P, c_size_t]),
    "chess_book_lookup_with": (c_size_t, [BOOK, POS, LOOKUP_P, BOOK_ENTRY_P, c_size_t]),
    "chess_book_pick": (ERR, [BOOK, POS, SMALL, c_uint64, BOOK_ENTRY_P]),
    "chess_book_pick_with": (ERR, [BOOK, POS, LOOKUP_P, SMALL, c_uint64, BOOK_ENTRY_P]),
    "chess_book_entry_count": (c_size_t, [BOOK]),
    "chess_book_entry_at": (ERR, [BOOK, c_size_t, POINTER(BookRawEntry)]),
    "chess_book_key_range": (ERR, [BOOK, c_uint64, POINTER(c_size_t), POINTER(c_size_t)]),
    "chess_book_raw_move": (c_uint16, [MOVE]),
    "chess_book_polyglot_random": (POINTER(c_uint64), []),
    "chess_book_move_from_raw": (ERR, [POS, c_uint16, MOVE_P]),
    "chess_book_write_file": (ERR, [BOOK, c_char_p]),
    "chess_book_merge": (ERR, [BOOK, BOOK, POINTER(BOOK)]),
    "chess_book_builder_new": (ERR, [POINTER(BookBuildOptions), POINTER(BUILDER)]),
    "chess_book_builder_add_pgn_file": (ERR, [BUILDER, c_char_p]),
    "chess_book_builder_add_game": (ERR, [BUILDER, GAME, SMALL]),
    "chess_book_builder_finish": (ERR, [BUILDER, POINTER(BOOK)]),
    "chess_book_builder_free": (None, [BUILDER]),
    # variant positions
    "chess_variant_from_name": (ERR, [c_char_p, POINTER(c_uint8)]),
    "chess_variant_name": (c_char_p, [SMALL]),
    "chess_variant_position_new": (ERR, [SMALL, c_char_p, POINTER(VPOS)]),
    "chess_variant_position_clone": (VPOS, [VPOS]),
    "chess_variant_position_copy": (None, [VPOS, VPOS]),
    "chess_variant_position_free": (None, [VPOS]),
    "chess_variant_position_fen": (ERR, [VPOS, c_char_p, c_size_t, SIZE_P]),
    "chess_variant_position_variant": (SMALL, [VPOS]),
    "chess_variant_position_legal_moves": (c_size_t, [VPOS, MOVE_P, c_size_t]),
    "chess_variant_position_play": (ERR, [VPOS, MOVE]),
    "chess_variant_position_san": (ERR, [VPOS, MOVE, c_char_p, c_size_t, SIZE_P]),
    "chess_variant_position_parse_san": (ERR, [VPOS, c_char_p, MOVE_P]),
    "chess_variant_position_uci": (ERR, [VPOS, MOVE, c_char_p, c_size_t, SIZE_P]),
    "chess_variant_position_parse_uci": (ERR, [VPOS, c_char_p, MOVE_P]),
    "chess_variant_position_perft": (c_uint64, [VPOS, c_uint32]),
    "chess_variant_position_outcome": (Outcome, [VPOS]),
    "chess_variant_position_is_check": (c_bool, [VPOS]),
    "chess_variant_position_is_checkmate": (c_bool, [VPOS]),
    "chess_variant_position_is_stalemate": (c_bool, [VPOS]),
    "chess_variant_position_is_variant_end": (c_bool, [VPOS]),
    "chess_variant_position_has_insufficient_material": (c_bool, [VPOS, SMALL]),
    "chess_variant_position_pocket": (c_uint32, [VPOS, SMALL, SMALL]),
    "chess_variant_position_promoted": (c_uint64, [VPOS]),
    "chess_variant_position_remaining_checks": (c_uint32, [VPOS, SMALL]),
    "chess_variant_position_turn": (SMALL, [VPOS]),
    "chess_variant_position_piece_at": (SMALL, [VPOS, SQUARE]),
    "chess_variant_position_setup": (ERR, [VPOS, SETUP]),
    "chess_variant_position_to_svg": (ERR, [VPOS, POINTER(SvgOptions), c_char_p, c_size_t, SIZE_P]),
    "chess_variant_position_pseudo_legal_moves": (c_size_t, [VPOS, MOVE_P, c_size_t]),
    "chess_variant_position_checkers": (c_uint64, [VPOS]),
    "chess_variant_position_pin": (c_uint64, [VPOS, SMALL, SQUARE]),
    "chess_variant_position_is_irreversible": (c_bool, [VPOS, MOVE]),
    "chess_variant_position_mirror": (ERR, [VPOS, POINTER(VPOS)]),
    "chess_variant_position_is_fifty_moves": (c_bool, [VPOS]),
    "chess_variant_position_is_seventy_five_moves": (c_bool, [VPOS]),
    "chess_variant_position_can_claim_fifty_moves": (c_bool, [VPOS]),
    "chess_variant_position_status": (ERR, [VPOS, POINTER(c_uint32)]),
    # UCI engines
    "chess_engine_start": (ERR, [c_char_p, POINTER(EngineOptions), POINTER(ENGINE)]),
    "chess_engine_free": (None, [ENGINE]),
    "chess_engine_name": (ERR, [ENGINE, c_char_p, c_size_t, SIZE_P]),
    "chess_engine_author": (ERR, [ENGINE, c_char_p, c_size_t, SIZE_P]),
    "chess_engine_option_count": (c_size_t, [ENGINE]),
    "chess_engine_option_at": (ERR, [ENGINE, c_size_t, POINTER(EngineOption)]),
    "chess_engine_option_name": (ERR, [ENGINE, c_size_t, c_char_p, c_size_t, SIZE_P]),
    "chess_engine_option_default": (ERR, [ENGINE, c_size_t, c_char_p, c_size_t, SIZE_P]),
    "chess_engine_option_var": (ERR, [ENGINE, c_size_t, c_size_t, c_char_p, c_size_t, SIZE_P]),
    "chess_engine_set_option": (ERR, [ENGINE, c_char_p, c_char_p]),
    "chess_engine_is_ready": (ERR, [ENGINE]),
    "chess_engine_new_game": (ERR, [ENGINE]),
    "chess_engine_stop": (ERR, [ENGINE]),
    "chess_engine_ponderhit": (ERR, [ENGINE]),
    "chess_engine_analyse": (ERR, [ENGINE, POS, POINTER(Limits), POINTER(ANALYSIS)]),
    "chess_engine_analyse_game": (ERR, [ENGINE, GAME, POINTER(Limits), INFO_FN, ctypes.c_void_p, POINTER(ANALYSIS)]),
    "chess_analysis_free": (None, [ANALYSIS]),
    "chess_analysis_best_move": (MOVE, [ANALYSIS]),
    "chess_analysis_ponder_move": (MOVE, [ANALYSIS]),
    "chess_analysis_line_count": (c_size_t, [ANALYSIS]),
    "chess_analysis_line": (ERR, [ANALYSIS, c_size_t, POINTER(Info)]),
}

# The soname of the ABI these declarations are written for (its major version).
SONAME = "libchesscore.so.1"
_NAMES = (SONAME, "libchesscore.so", "libchesscore.dylib", "chesscore.dll")


def _candidates():
    explicit = os.environ.get("CHESSCORE_LIB")
    if explicit:
        # An explicit choice is never replaced by another library behind the user's back.
        return [explicit]
    here = Path(__file__).resolve().parent
    found = [str(here / name) for name in _NAMES if (here / name).exists()]
    system = ctypes.util.find_library("chesscore")
    if system:
        found.append(system)
    found.append(SONAME)
    return found


def _load():
    failures = []
    for candidate in _candidates():
        try:
            lib = ctypes.CDLL(candidate)
        except OSError as e:
            failures.append(f"{candidate}: {e}")
            continue
        for name, (restype, argtypes) in SIGNATURES.items():
            try:
                function = getattr(lib, name)
            except AttributeError:
                raise LibraryError(f"{candidate} has no {name}: the library is older than this package") from None
            function.restype = restype
            function.argtypes = argtypes
        return lib, candidate
    raise LibraryError(
        "cannot load libchesscore (set CHESSCORE_LIB to its path, or install it): " + "; ".join(failures)
    )


lib, path = _load()
errors.use_messages(lambda code: lib.chess_error_message(code).decode("utf-8"))


class OwnsHandle:
    """Base of the objects that own a library handle to an open resource (a book, tables, an
    engine process): a copy or a pickle would be a second owner of the one handle, freeing it
    twice or using it after the first owner freed it, so both raise TypeError."""

    __slots__ = ()

    def _refuse(self) -> NoReturn:
        raise TypeError(f"a {type(self).__name__} owns an open resource of the library: it cannot be copied or pickled (share the object, or open another)")

    def __copy__(self) -> NoReturn:
        self._refuse()

    def __deepcopy__(self, memo: object) -> NoReturn:
        self._refuse()

    def __reduce_ex__(self, protocol: object) -> NoReturn:
        self._refuse()


class _Unchecked:
    """Functions called in tight loops (for every game read, millions of times over a large
    file; for every tablebase probe), through other handles of the same library without
    argtypes: ctypes then passes ctypes objects as they are, where checking and converting each
    argument against argtypes costs about 0.2 us. Callers pass only ctypes objects of the
    declared types (pointers, arrays, ``c_size_t`` values, ``byref``), never a Python int,
    which ctypes would pass as a C int, nor a structure, which it would pass by value.

    The ``releasing`` functions release the GIL, as those of ``lib``; the ``holding`` ones,
    which copy out or free what a game holds for less than releasing and taking back the GIL
    costs, hold it (a ``PyDLL`` handle)."""

    def __init__(self, library: str, releasing: Tuple[str, ...], holding: Tuple[str, ...] = ()):
        for handle, names in ((ctypes.CDLL(library), releasing), (ctypes.PyDLL(library), holding)):
            for name in names:
                function = getattr(handle, name)
                function.restype = SIGNATURES[name][0]
                setattr(self, name, function)


# Only chess_pgn_reader_next, which reads and replays a game, releases the GIL.
per_game: Any = _Unchecked(
    path,
    releasing=("chess_pgn_reader_next",),
    holding=(
        "chess_game_free",
        "chess_game_tags",
        "chess_game_moves",
        "chess_game_ply_count",
        "chess_game_start",
        "chess_position_is_chess960",
    ),
)
# Probes release the GIL: any number of threads may probe one tablebase at once.
per_probe: Any = _Unchecked(path, releasing=("chess_tablebase_probe_wdl", "chess_tablebase_probe_dtz"))


def _by_address(library: str) -> Any:
    """The library's functions with every pointer to one of its structures taken and given as
    an address (an int): a handle of its own on the same library, for the boards of
    ``chesscore.compat``, which hold the positions of their games by address. ctypes builds no
    pointer object per call then. Calls release the GIL, as those of ``lib``."""
    handle = ctypes.CDLL(library)
    signatures: Dict[str, Tuple[Any, List[Any]]] = SIGNATURES  # type: ignore[assignment]
    for name, (restype, argtypes) in signatures.items():
        function = getattr(handle, name)
        function.restype = _address_type(restype)
        function.argtypes = [_address_type(t) for t in argtypes]
    return handle


def _address_type(c_type: object) -> object:
    target = getattr(c_type, "_type_", None)
    if isinstance(target, type) and issubclass(target, ctypes.Structure):
        return ctypes.c_void_p
    return c_type


by_address: Any = _by_address(path)


def check(code: int) -> None:
    if code:
        raise_for(code)


def read_text(function: Callable[..., int], *args: Any, size: int = 128, error: Callable[[int], Exception] = error_for) -> str:
    """Calls ``function(*args, buf, cap, &len)``, asking again with the size it reports if short;
    ``error(code)`` is the exception of a failure."""
    buf = ctypes.create_string_buffer(size)
    length = c_size_t()
    code = function(*args, buf, size, ctypes.byref(length))
    if code == ErrorCode.BUFFER_TOO_SMALL:
        size = length.value + 1
        buf = ctypes.create_string_buffer(size)
        code = function(*args, buf, size, ctypes.byref(length))
    if code:
        raise error(code)
    return buf.raw[: length.value].decode("utf-8")


def parse_fen(function: Callable[..., int], *args: Any, filename: Optional[StrOrBytesPath] = None) -> Position:
    """The chess_position a FEN reader ``function(*args, dst, &info)`` writes; FenError with the
    offset of the fault (``filename`` names the file read)."""
    out = Position()
    info = fen_info()
    code = function(*args, out, ctypes.byref(info))
    if code:
        raise_for(code, offset=info.error_offset if is_fen_code(code) else None, filename=filename)
    return out


# python-chess 1.11.2's wording (chess.Board.parse_san, parse_uci): the move as given and, where
# the position decides, the position's FEN.
_MOVE_MESSAGES = {
    ErrorCode.ILLEGAL_MOVE: "illegal {notation}: {move!r} in {fen}",
    ErrorCode.SAN_AMBIGUOUS: "ambiguous san: {move!r} in {fen}",
    ErrorCode.SAN_NOT_CANONICAL: "non-canonical san: {move!r} in {fen}",
    ErrorCode.SAN_SYNTAX: "invalid san: {move!r}",
    ErrorCode.UCI_SYNTAX: "invalid uci: {move!r}",
    ErrorCode.INVALID_MOVE: "invalid move encoding: {move}",
}


def move_error(code: int, pos: Any, move: Any, notation: str = "move", fen: Optional[Callable[[], str]] = None) -> Error:
    """The exception of a move call that failed in ``pos`` (a chess_position, or a pointer to
    or the address of a game's, unchanged by the failure): ``move`` as given, in ``notation``
    ("san", "uci"; "move" for a chesscore.Move, named by its UCI, or by its number when its
    encoding is invalid and so has no UCI). ``fen`` writes the position's FEN where ``pos`` is
    no chess_position (a variant position's)."""
    template = _MOVE_MESSAGES.get(code)
    if template is None:
        return error_for(code)
    if not isinstance(move, str):
        move = f"{move.raw:#06x}" if code == ErrorCode.INVALID_MOVE else move.uci()
    if fen is None:
        if isinstance(pos, int):
            pos = ctypes.cast(pos, POS)
        text = read_text(lib.chess_fen_write, pos, size=FEN_MAX)
    else:
        text = fen()
    return error_for(code, template.format(notation=notation, move=move, fen=text))


def version() -> str:
    return lib.chess_version().decode("ascii")
