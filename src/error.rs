//! Error codes and their messages.

use std::ffi::{c_char, CStr};

use super::util::guard;
use chesscore_core::engine::EngineError;
use chesscore_core::fen::FenError;
use chesscore_core::pgn::{PgnErrorKind, TagError};
use chesscore_core::polyglot::BookError;
use chesscore_core::{EpdError, SanError, UciError};

/// The result of a fallible call: `CHESS_OK` or the reason it failed. A 32-bit integer whatever
/// the compiler's enum size (`-fshort-enums` changes nothing), with the `CHESS_...` codes below.
///
/// The numbers are stable (never renumbered or reused) and grouped by family: 0-99 general,
/// 100-199 FEN, 200-299 moves, squares and games, 300-399 SAN, 400-499 PGN, 500-599 input and
/// output, 600-699 EPD, 700-799 UCI engines, 800-899 Polyglot books, 900-999 binary position
/// formats, 1000-1099 Syzygy tablebases, 1100-1199 variant positions. `chess_error_message` describes every code.
pub type chess_error = u32;

/// Success.
pub const CHESS_OK: chess_error = 0;
/// The end of a sequence was reached (for readers such as PGN's "no more games"); not a failure.
pub const CHESS_END: chess_error = 1;
/// A required pointer argument was NULL.
pub const CHESS_ERR_NULL_POINTER: chess_error = 2;
/// An argument is out of its documented range (for example an unknown enum value).
pub const CHESS_ERR_INVALID_ARGUMENT: chess_error = 3;
/// The text does not fit in the buffer; `*out_len` holds the length needed, without the NUL.
pub const CHESS_ERR_BUFFER_TOO_SMALL: chess_error = 4;
/// A text argument holds a byte outside ASCII (outside UTF-8 for an EPD line), a file path
/// is not valid on this system, or text for an engine holds a line end or a control character.
pub const CHESS_ERR_INVALID_TEXT: chess_error = 5;
/// Memory ran out. Every allocation a call makes can fail this way, never aborting the
/// process: the call had no effect (its outputs and handles are as they were, still usable
/// and freeable), except that the game `chess_pgn_reader_next` was reading is lost.
pub const CHESS_ERR_OUT_OF_MEMORY: chess_error = 6;
/// A bug inside the library was caught (a Rust panic); the call had no effect.
pub const CHESS_ERR_INTERNAL: chess_error = 7;

/// FEN: the input is empty or only whitespace.
pub const CHESS_ERR_FEN_EMPTY: chess_error = 100;
/// FEN: the input is longer than 256 bytes.
pub const CHESS_ERR_FEN_TOO_LONG: chess_error = 101;
/// FEN: a byte that is not printable ASCII, a space or a tab.
pub const CHESS_ERR_FEN_INVALID_CHARACTER: chess_error = 102;
/// FEN: not 4 to 6 fields separated by spaces.
pub const CHESS_ERR_FEN_FIELD_COUNT: chess_error = 103;
/// FEN: the piece placement does not have 8 ranks separated by '/'.
pub const CHESS_ERR_FEN_RANK_COUNT: chess_error = 104;
/// FEN: a rank does not describe exactly 8 squares.
pub const CHESS_ERR_FEN_RANK_WIDTH: chess_error = 105;
/// FEN: an empty-square count is not a single digit 1 to 8.
pub const CHESS_ERR_FEN_EMPTY_SQUARE_COUNT: chess_error = 106;
/// FEN: a character in the placement is neither a piece letter nor a digit.
pub const CHESS_ERR_FEN_PIECE_LETTER: chess_error = 107;
/// FEN: the side to move is not 'w' or 'b'.
pub const CHESS_ERR_FEN_SIDE_TO_MOVE: chess_error = 108;
/// FEN: the castling field is malformed.
pub const CHESS_ERR_FEN_CASTLING: chess_error = 109;
/// FEN: the en passant field is neither '-' nor a square.
pub const CHESS_ERR_FEN_EN_PASSANT: chess_error = 110;
/// FEN: the halfmove clock is not a decimal number from 0 to 4294967295.
pub const CHESS_ERR_FEN_HALFMOVE_CLOCK: chess_error = 111;
/// FEN: the fullmove number is not a decimal number from 0 to 4294967295.
pub const CHESS_ERR_FEN_FULLMOVE_NUMBER: chess_error = 112;
/// FEN: a side has no king.
pub const CHESS_ERR_FEN_MISSING_KING: chess_error = 113;
/// FEN: a side has more than one king.
pub const CHESS_ERR_FEN_TOO_MANY_KINGS: chess_error = 114;
/// FEN: a side has more than 16 pieces.
pub const CHESS_ERR_FEN_TOO_MANY_PIECES: chess_error = 115;
/// FEN: a side has more than 8 pawns.
pub const CHESS_ERR_FEN_TOO_MANY_PAWNS: chess_error = 116;
/// FEN: a pawn stands on the first or last rank.
pub const CHESS_ERR_FEN_PAWN_ON_BACK_RANK: chess_error = 117;
/// FEN: the side not to move is in check.
pub const CHESS_ERR_FEN_OPPOSITE_CHECK: chess_error = 118;
/// FEN: the side to move is in a check no single move could have given.
pub const CHESS_ERR_FEN_IMPOSSIBLE_CHECK: chess_error = 119;
/// FEN: the en passant square has no pawn that could just have advanced two squares.
pub const CHESS_ERR_FEN_INVALID_EN_PASSANT: chess_error = 120;
/// FEN: a castling right without its king and rook on their home squares.
pub const CHESS_ERR_FEN_BAD_CASTLING_RIGHTS: chess_error = 121;

/// The move is not legal in the position.
pub const CHESS_ERR_ILLEGAL_MOVE: chess_error = 200;
/// The value is not a move encoding (kind above 7, or origin equal to destination).
pub const CHESS_ERR_INVALID_MOVE: chess_error = 201;
/// The text is not a UCI move (`e2e4`, `e7e8q`, `0000`).
pub const CHESS_ERR_UCI_SYNTAX: chess_error = 202;
/// Not a square: a name other than a-h followed by 1-8, or an index outside 0..63.
pub const CHESS_ERR_INVALID_SQUARE: chess_error = 203;
/// The game has no move to take back.
pub const CHESS_ERR_EMPTY_HISTORY: chess_error = 204;

/// SAN: the text is not a move in SAN (in a line of moves: nor in UCI).
pub const CHESS_ERR_SAN_SYNTAX: chess_error = 300;
/// SAN: more than one legal move matches. (A well-formed SAN that matches no legal move gives
/// `CHESS_ERR_ILLEGAL_MOVE`.)
pub const CHESS_ERR_SAN_AMBIGUOUS: chess_error = 301;
/// SAN, strict reading: the text names a legal move but is not its canonical SAN (suffix
/// included).
pub const CHESS_ERR_SAN_NOT_CANONICAL: chess_error = 302;

/// PGN: a tag pair that is not `[Name "value"]`.
pub const CHESS_ERR_PGN_TAG: chess_error = 400;
/// PGN: a tag pair line over the reader's limit (64 KiB).
pub const CHESS_ERR_PGN_TAG_TOO_LONG: chess_error = 401;
/// PGN: the `Variant` tag names a variant other than standard chess or Chess960.
pub const CHESS_ERR_PGN_VARIANT: chess_error = 402;
/// PGN: a movetext token longer than any move, number or annotation can be (255 bytes).
pub const CHESS_ERR_PGN_TOKEN_TOO_LONG: chess_error = 403;
/// PGN: a character with no place in movetext (`}`, `]` or `"`).
pub const CHESS_ERR_PGN_UNEXPECTED_CHAR: chess_error = 404;
/// PGN: `$` without a number from 0 to 255, or a run of more than two `!`/`?`.
pub const CHESS_ERR_PGN_NAG: chess_error = 405;
/// PGN: a `{` comment still open at the end of the input or when the next game's tags begin.
pub const CHESS_ERR_PGN_UNTERMINATED_COMMENT: chess_error = 406;
/// PGN: a comment over the reader's limit (1 MiB).
pub const CHESS_ERR_PGN_COMMENT_TOO_LONG: chess_error = 407;
/// PGN: `)` without a variation to close.
pub const CHESS_ERR_PGN_UNMATCHED_PAREN: chess_error = 408;
/// PGN: the game ended inside a variation.
pub const CHESS_ERR_PGN_UNCLOSED_VARIATION: chess_error = 409;
/// PGN: `(` where its line has no move yet for the variation to replace.
pub const CHESS_ERR_PGN_VARIATION_WITHOUT_MOVE: chess_error = 410;
/// PGN: variations nested deeper than the reader's limit (10,000).
pub const CHESS_ERR_PGN_TOO_DEEP: chess_error = 411;
/// PGN: a tag value or comment that is not UTF-8, read strictly (`CHESS_PGN_STRICT`; otherwise
/// it is decoded as Windows-1252, with a warning).
pub const CHESS_ERR_PGN_INVALID_UTF8: chess_error = 412;
/// PGN lookup: the game has no tag of this name, or none at this index.
pub const CHESS_ERR_PGN_TAG_NOT_FOUND: chess_error = 413;
/// PGN: a NUL byte in a tag value or comment (a C string could not hold the text).
pub const CHESS_ERR_PGN_NUL_BYTE: chess_error = 414;
/// PGN, strict reading (`CHESS_PGN_STRICT`): something real files hold but the PGN standard
/// does not allow (a result written `½-½`, a move suffix `e.p.` or `++`, a Unicode dash in a
/// move); the message says what.
pub const CHESS_ERR_PGN_NON_STANDARD: chess_error = 415;

/// The file does not exist.
pub const CHESS_ERR_FILE_NOT_FOUND: chess_error = 500;
/// The file exists but could not be read, or a read callback reported an error.
pub const CHESS_ERR_IO: chess_error = 501;

/// EPD: fewer than the placement, side to move and castling fields.
pub const CHESS_ERR_EPD_MISSING_FIELDS: chess_error = 600;
/// EPD: an opcode that is not a letter followed by letters, digits or '_'.
pub const CHESS_ERR_EPD_OPCODE: chess_error = 601;
/// EPD: a quoted string without its closing quote.
pub const CHESS_ERR_EPD_UNTERMINATED_STRING: chess_error = 602;
/// EPD: an operand of the wrong form for its operation (a string in `bm`, a negative `hmvc`).
pub const CHESS_ERR_EPD_INVALID_OPERAND: chess_error = 603;
/// EPD lookup: no operation with this opcode or at this index, or no operand at this index.
pub const CHESS_ERR_EPD_NOT_FOUND: chess_error = 604;
/// EPD lookup: the operand is not of the type asked for.
pub const CHESS_ERR_EPD_WRONG_TYPE: chess_error = 605;

/// Engine: the program could not be started (not found, not executable, bad working
/// directory).
pub const CHESS_ERR_ENGINE_NOT_STARTED: chess_error = 700;
/// Engine: the engine exited or closed its output (a crash, say), or had failed before; its
/// process is gone.
pub const CHESS_ERR_ENGINE_EXITED: chess_error = 701;
/// Engine: no answer within the timeout (`uciok`, `readyok`, or the next line of a search);
/// the engine was killed.
pub const CHESS_ERR_ENGINE_TIMEOUT: chess_error = 702;
/// Engine: an answer that breaks the protocol (an illegal `bestmove`, a line over 1 MiB); the
/// engine was killed.
pub const CHESS_ERR_ENGINE_PROTOCOL: chess_error = 703;

/// Polyglot book: the book has no entry (an empty file or buffer).
pub const CHESS_ERR_BOOK_EMPTY: chess_error = 800;
/// Polyglot book: the length is not a multiple of 16 bytes (the last entry is cut short).
pub const CHESS_ERR_BOOK_LENGTH: chess_error = 801;
/// Polyglot book: an entry's key is smaller than the one before it.
pub const CHESS_ERR_BOOK_UNSORTED: chess_error = 802;

/// Binary FEN: a move counter that does not fit in 32 bits.
pub const CHESS_ERR_BINARY_FEN_COUNTER: chess_error = 900;
/// Binary FEN: a variant byte other than standard chess (0), Chess960 (2) or from a position (3).
pub const CHESS_ERR_BINARY_FEN_VARIANT: chess_error = 901;
/// Binary FEN: a non-zero byte after the position, or more bytes than any position takes.
pub const CHESS_ERR_BINARY_FEN_TRAILING_BYTES: chess_error = 902;
/// Binary FEN: an en passant pawn (code 12) off the fourth and fifth ranks, or a second one.
pub const CHESS_ERR_BINARY_FEN_EN_PASSANT_PAWN: chess_error = 903;
/// Binpack: a chunk without its `BINP` header, or longer than 100 MiB.
pub const CHESS_ERR_BINPACK_CHUNK: chess_error = 904;
/// Binpack or plain: the data ends inside a chunk, an entry or a chain's moves.
pub const CHESS_ERR_BINPACK_TRUNCATED: chess_error = 905;
/// Binpack: a score change coded in more than 16 bits.
pub const CHESS_ERR_BINPACK_SCORE: chess_error = 906;
/// Binpack or plain: a result other than -1, 0 or 1.
pub const CHESS_ERR_BINPACK_RESULT: chess_error = 907;
/// Plain: a line that is not a known `KEY VALUE` or `e`, a number out of range, or an entry
/// without one of its lines.
pub const CHESS_ERR_BINPACK_PLAIN_SYNTAX: chess_error = 908;
/// Binpack: an entry the format cannot hold (Chess960 castling rights, a ply over 16383).
pub const CHESS_ERR_BINPACK_UNREPRESENTABLE: chess_error = 909;

/// Tablebase: a table the position needs (WDL or DTZ, its own or one a capture leads to) is
/// not among the directories opened.
pub const CHESS_ERR_TABLEBASE_MISSING_TABLE: chess_error = 1000;
/// Tablebase: the position has castling rights, which no table holds.
pub const CHESS_ERR_TABLEBASE_CASTLING: chess_error = 1001;
/// Tablebase: more pieces than any table holds (more than 7, or more than 8 before captures).
pub const CHESS_ERR_TABLEBASE_TOO_MANY_PIECES: chess_error = 1002;
/// Tablebase: a table file is damaged or cut short (also: cut while open, a WDL file under a
/// DTZ name).
pub const CHESS_ERR_TABLEBASE_CORRUPT: chess_error = 1003;

/// Variant FEN: a crazyhouse pocket holding something other than piece letters (or a king), or
/// a pocket in another variant.
pub const CHESS_ERR_VARIANT_POCKET: chess_error = 1100;
/// Variant FEN: a three-check counter that is neither `W+B` (remaining checks, 0 to 3) nor
/// `+W+B` (checks given).
pub const CHESS_ERR_VARIANT_CHECKS: chess_error = 1101;
/// Variant FEN: a side has a number of kings its variant does not allow (one in most variants;
/// none for White in horde, at most one in atomic, any number in antichess).
pub const CHESS_ERR_VARIANT_KINGS: chess_error = 1102;

/// A short English description of `code`, if it is one.
fn message(code: chess_error) -> Option<&'static CStr> {
    Some(match code {
        CHESS_OK => c"success",
        CHESS_END => c"no more items",
        CHESS_ERR_NULL_POINTER => c"a required pointer argument is NULL",
        CHESS_ERR_INVALID_ARGUMENT => c"an argument is out of range",
        CHESS_ERR_BUFFER_TOO_SMALL => c"the output buffer is too small",
        CHESS_ERR_INVALID_TEXT => {
            c"text argument is not ASCII (an EPD line: not UTF-8), not a valid path, or not one line for an engine"
        }
        CHESS_ERR_OUT_OF_MEMORY => c"out of memory",
        CHESS_ERR_INTERNAL => c"internal error (a bug in chesscore; please report it)",
        CHESS_ERR_FEN_EMPTY => c"empty FEN",
        CHESS_ERR_FEN_TOO_LONG => c"FEN too long: at most 256 bytes are accepted",
        CHESS_ERR_FEN_INVALID_CHARACTER => {
            c"invalid character in FEN: only printable ASCII, spaces and tabs are allowed"
        }
        CHESS_ERR_FEN_FIELD_COUNT => c"expected 4 to 6 FEN fields separated by spaces",
        CHESS_ERR_FEN_RANK_COUNT => c"expected 8 ranks separated by '/' in the piece placement",
        CHESS_ERR_FEN_RANK_WIDTH => c"a rank does not describe exactly 8 squares",
        CHESS_ERR_FEN_EMPTY_SQUARE_COUNT => c"invalid empty-square count: a single digit 1 to 8 is expected",
        CHESS_ERR_FEN_PIECE_LETTER => c"invalid piece letter (expected one of PNBRQK pnbrqk or a digit)",
        CHESS_ERR_FEN_SIDE_TO_MOVE => c"invalid side to move: expected 'w' or 'b'",
        CHESS_ERR_FEN_CASTLING => {
            c"invalid castling field: expected '-' or at most four distinct letters of KQkq or A-H a-h"
        }
        CHESS_ERR_FEN_EN_PASSANT => c"invalid en passant field: expected '-' or a square such as e3",
        CHESS_ERR_FEN_HALFMOVE_CLOCK => c"invalid halfmove clock: expected a decimal number from 0 to 4294967295",
        CHESS_ERR_FEN_FULLMOVE_NUMBER => c"invalid fullmove number: expected a decimal number from 0 to 4294967295",
        CHESS_ERR_FEN_MISSING_KING => c"a side has no king",
        CHESS_ERR_FEN_TOO_MANY_KINGS => c"a side has more than one king",
        CHESS_ERR_FEN_TOO_MANY_PIECES => c"a side has more than 16 pieces",
        CHESS_ERR_FEN_TOO_MANY_PAWNS => c"a side has more than 8 pawns",
        CHESS_ERR_FEN_PAWN_ON_BACK_RANK => c"a pawn stands on the first or last rank",
        CHESS_ERR_FEN_OPPOSITE_CHECK => c"the side not to move is in check",
        CHESS_ERR_FEN_IMPOSSIBLE_CHECK => c"impossible check: no single move could have given it",
        CHESS_ERR_FEN_INVALID_EN_PASSANT => {
            c"en passant square without a pawn that could just have advanced two squares"
        }
        CHESS_ERR_FEN_BAD_CASTLING_RIGHTS => c"castling right without its king and rook on their home squares",
        CHESS_ERR_ILLEGAL_MOVE => c"illegal move in this position",
        CHESS_ERR_INVALID_MOVE => c"not a valid move encoding",
        CHESS_ERR_UCI_SYNTAX => c"invalid UCI move syntax",
        CHESS_ERR_INVALID_SQUARE => c"invalid square (expected a-h and 1-8, or an index 0 to 63)",
        CHESS_ERR_EMPTY_HISTORY => c"no move to take back",
        CHESS_ERR_SAN_SYNTAX => c"invalid SAN move syntax",
        CHESS_ERR_SAN_AMBIGUOUS => c"ambiguous SAN move: more than one legal move matches",
        CHESS_ERR_SAN_NOT_CANONICAL => c"not the canonical SAN of the move (strict reading)",
        CHESS_ERR_PGN_TAG => c"PGN: bad tag pair",
        CHESS_ERR_PGN_TAG_TOO_LONG => c"PGN: tag pair too long",
        CHESS_ERR_PGN_VARIANT => c"PGN: unsupported variant",
        CHESS_ERR_PGN_TOKEN_TOO_LONG => c"PGN: movetext token too long",
        CHESS_ERR_PGN_UNEXPECTED_CHAR => c"PGN: unexpected character in movetext",
        CHESS_ERR_PGN_NAG => c"PGN: invalid annotation (NAG)",
        CHESS_ERR_PGN_UNTERMINATED_COMMENT => c"PGN: unterminated comment",
        CHESS_ERR_PGN_COMMENT_TOO_LONG => c"PGN: comment too long",
        CHESS_ERR_PGN_UNMATCHED_PAREN => c"PGN: ')' without a matching '('",
        CHESS_ERR_PGN_UNCLOSED_VARIATION => c"PGN: variation not closed",
        CHESS_ERR_PGN_VARIATION_WITHOUT_MOVE => c"PGN: variation before any move of its line",
        CHESS_ERR_PGN_TOO_DEEP => c"PGN: variations nested too deep",
        CHESS_ERR_PGN_INVALID_UTF8 => c"PGN: invalid UTF-8",
        CHESS_ERR_PGN_TAG_NOT_FOUND => c"PGN: no such tag",
        CHESS_ERR_PGN_NUL_BYTE => c"PGN: NUL byte in a tag value or comment",
        CHESS_ERR_PGN_NON_STANDARD => c"PGN: not standard PGN (strict reading)",
        CHESS_ERR_FILE_NOT_FOUND => c"file not found",
        CHESS_ERR_IO => c"the input could not be read",
        CHESS_ERR_EPD_MISSING_FIELDS => {
            c"EPD: missing position fields (expected placement, side to move, castling and en passant)"
        }
        CHESS_ERR_EPD_OPCODE => c"EPD: invalid opcode (expected a letter followed by letters, digits or '_')",
        CHESS_ERR_EPD_UNTERMINATED_STRING => c"EPD: unterminated string",
        CHESS_ERR_EPD_INVALID_OPERAND => c"EPD: invalid operand for its operation",
        CHESS_ERR_EPD_NOT_FOUND => c"EPD: no such operation or operand",
        CHESS_ERR_EPD_WRONG_TYPE => c"EPD: the operand is of another type",
        CHESS_ERR_ENGINE_NOT_STARTED => c"engine: the program could not be started",
        CHESS_ERR_ENGINE_EXITED => c"engine: the engine exited",
        CHESS_ERR_ENGINE_TIMEOUT => c"engine: no answer within the timeout",
        CHESS_ERR_ENGINE_PROTOCOL => c"engine: the engine broke the UCI protocol",
        CHESS_ERR_BOOK_EMPTY => c"Polyglot book: the book is empty",
        CHESS_ERR_BOOK_LENGTH => {
            c"Polyglot book: the length is not a multiple of 16 bytes (the last entry is cut short)"
        }
        CHESS_ERR_BOOK_UNSORTED => c"Polyglot book: the entries are not sorted by key",
        CHESS_ERR_BINARY_FEN_COUNTER => c"binary FEN: a move counter does not fit in 32 bits",
        CHESS_ERR_BINARY_FEN_VARIANT => c"binary FEN: the variant byte is not standard chess",
        CHESS_ERR_BINARY_FEN_TRAILING_BYTES => c"binary FEN: unexpected bytes after the position",
        CHESS_ERR_BINARY_FEN_EN_PASSANT_PAWN => {
            c"binary FEN: an en passant pawn that cannot have just advanced two squares"
        }
        CHESS_ERR_BINPACK_CHUNK => c"binpack: not a binpack chunk (no BINP header, or longer than 100 MiB)",
        CHESS_ERR_BINPACK_TRUNCATED => c"training data cut short",
        CHESS_ERR_BINPACK_SCORE => c"binpack: a score change longer than 16 bits",
        CHESS_ERR_BINPACK_RESULT => c"training data: a result other than -1, 0 or 1",
        CHESS_ERR_BINPACK_PLAIN_SYNTAX => c"plain training data: a bad line or number, or a missing line",
        CHESS_ERR_BINPACK_UNREPRESENTABLE => c"binpack cannot hold this entry (Chess960 castling, a ply over 16383)",
        CHESS_ERR_TABLEBASE_MISSING_TABLE => c"tablebase: a table the position needs is missing",
        CHESS_ERR_TABLEBASE_CASTLING => c"tablebase: the tables hold no positions with castling rights",
        CHESS_ERR_TABLEBASE_TOO_MANY_PIECES => c"tablebase: more pieces than the tables hold",
        CHESS_ERR_TABLEBASE_CORRUPT => c"tablebase: a table file is corrupt or truncated",
        CHESS_ERR_VARIANT_POCKET => c"variant FEN: invalid crazyhouse pocket (or a pocket in another variant)",
        CHESS_ERR_VARIANT_CHECKS => c"variant FEN: invalid three-check counter",
        CHESS_ERR_VARIANT_KINGS => c"variant FEN: a side has a number of kings the variant does not allow",
        _ => return None,
    })
}

/// The C code of a core error (public for Rust code that extends the C API).
pub trait ErrorCode {
    /// The `CHESS_ERR_...` value the C API returns for this error.
    fn code(&self) -> chess_error;
}

impl ErrorCode for FenError {
    fn code(&self) -> chess_error {
        match self {
            FenError::Empty => CHESS_ERR_FEN_EMPTY,
            FenError::TooLong { .. } => CHESS_ERR_FEN_TOO_LONG,
            FenError::InvalidCharacter { .. } => CHESS_ERR_FEN_INVALID_CHARACTER,
            FenError::FieldCount { .. } => CHESS_ERR_FEN_FIELD_COUNT,
            FenError::RankCount { .. } => CHESS_ERR_FEN_RANK_COUNT,
            FenError::RankWidth { .. } => CHESS_ERR_FEN_RANK_WIDTH,
            FenError::EmptySquareCount { .. } => CHESS_ERR_FEN_EMPTY_SQUARE_COUNT,
            FenError::PieceLetter { .. } => CHESS_ERR_FEN_PIECE_LETTER,
            FenError::SideToMove { .. } => CHESS_ERR_FEN_SIDE_TO_MOVE,
            FenError::Castling { .. } => CHESS_ERR_FEN_CASTLING,
            FenError::EnPassant { .. } => CHESS_ERR_FEN_EN_PASSANT,
            FenError::HalfmoveClock { .. } => CHESS_ERR_FEN_HALFMOVE_CLOCK,
            FenError::FullmoveNumber { .. } => CHESS_ERR_FEN_FULLMOVE_NUMBER,
            FenError::MissingKing { .. } => CHESS_ERR_FEN_MISSING_KING,
            FenError::TooManyKings { .. } => CHESS_ERR_FEN_TOO_MANY_KINGS,
            FenError::TooManyPieces { .. } => CHESS_ERR_FEN_TOO_MANY_PIECES,
            FenError::TooManyPawns { .. } => CHESS_ERR_FEN_TOO_MANY_PAWNS,
            FenError::PawnOnBackRank { .. } => CHESS_ERR_FEN_PAWN_ON_BACK_RANK,
            FenError::OppositeCheck { .. } => CHESS_ERR_FEN_OPPOSITE_CHECK,
            FenError::ImpossibleCheck { .. } => CHESS_ERR_FEN_IMPOSSIBLE_CHECK,
            FenError::InvalidEnPassant { .. } => CHESS_ERR_FEN_INVALID_EN_PASSANT,
            FenError::BadCastlingRights { .. } => CHESS_ERR_FEN_BAD_CASTLING_RIGHTS,
            // A kind of fault newer than the codes: still the text's fault.
            _ => CHESS_ERR_INVALID_TEXT,
        }
    }
}

impl ErrorCode for UciError {
    fn code(&self) -> chess_error {
        match self {
            UciError::Syntax => CHESS_ERR_UCI_SYNTAX,
            UciError::Illegal => CHESS_ERR_ILLEGAL_MOVE,
            // A kind of fault newer than the codes: still the text's fault.
            _ => CHESS_ERR_INVALID_TEXT,
        }
    }
}

impl ErrorCode for SanError {
    fn code(&self) -> chess_error {
        match self {
            SanError::Syntax => CHESS_ERR_SAN_SYNTAX,
            SanError::Illegal => CHESS_ERR_ILLEGAL_MOVE,
            SanError::Ambiguous => CHESS_ERR_SAN_AMBIGUOUS,
            SanError::NotCanonical { .. } => CHESS_ERR_SAN_NOT_CANONICAL,
            // A kind of fault newer than the codes: still the text's fault.
            _ => CHESS_ERR_INVALID_TEXT,
        }
    }
}

impl ErrorCode for EpdError {
    fn code(&self) -> chess_error {
        match self {
            EpdError::MissingFields => CHESS_ERR_EPD_MISSING_FIELDS,
            EpdError::Position(e) => e.code(),
            EpdError::Opcode(_) => CHESS_ERR_EPD_OPCODE,
            EpdError::UnterminatedString(_) => CHESS_ERR_EPD_UNTERMINATED_STRING,
            EpdError::Operand { .. } => CHESS_ERR_EPD_INVALID_OPERAND,
            EpdError::Move { error, .. } => error.code(),
            EpdError::OutOfMemory => CHESS_ERR_OUT_OF_MEMORY,
            // A kind of fault newer than the codes: still the line's fault.
            _ => CHESS_ERR_INVALID_TEXT,
        }
    }
}

impl ErrorCode for EngineError {
    fn code(&self) -> chess_error {
        match self {
            EngineError::NotStarted(_) => CHESS_ERR_ENGINE_NOT_STARTED,
            EngineError::Exited => CHESS_ERR_ENGINE_EXITED,
            EngineError::Timeout(_) => CHESS_ERR_ENGINE_TIMEOUT,
            EngineError::Protocol(_) => CHESS_ERR_ENGINE_PROTOCOL,
            EngineError::InvalidText(_) => CHESS_ERR_INVALID_TEXT,
            // A kind of fault newer than the codes: the engine did not keep to the protocol.
            _ => CHESS_ERR_ENGINE_PROTOCOL,
        }
    }
}

impl ErrorCode for TagError {
    /// A tag `chess_game_set_tag` refuses: a bad name, or one of the start position's.
    fn code(&self) -> chess_error {
        match self {
            TagError::InvalidName | TagError::StartPositionTag => CHESS_ERR_INVALID_ARGUMENT,
            _ => CHESS_ERR_INVALID_ARGUMENT,
        }
    }
}

impl ErrorCode for PgnErrorKind {
    /// A broken PGN game's code: one per kind of fault, except a bad `FEN` tag (its FEN code), a
    /// bad move (its SAN or move code, as `chess_move_from_san` gives) and a read error
    /// (`CHESS_ERR_IO`), and running out of memory (`CHESS_ERR_OUT_OF_MEMORY`).
    fn code(&self) -> chess_error {
        match self {
            PgnErrorKind::BadTag { .. } => CHESS_ERR_PGN_TAG,
            PgnErrorKind::TagTooLong { .. } => CHESS_ERR_PGN_TAG_TOO_LONG,
            PgnErrorKind::InvalidFen(e) => e.code(),
            PgnErrorKind::UnsupportedVariant(_) => CHESS_ERR_PGN_VARIANT,
            PgnErrorKind::Move(e) => e.code(),
            PgnErrorKind::TokenTooLong { .. } => CHESS_ERR_PGN_TOKEN_TOO_LONG,
            PgnErrorKind::UnexpectedChar(_) => CHESS_ERR_PGN_UNEXPECTED_CHAR,
            PgnErrorKind::InvalidNag => CHESS_ERR_PGN_NAG,
            PgnErrorKind::UnterminatedComment => CHESS_ERR_PGN_UNTERMINATED_COMMENT,
            PgnErrorKind::CommentTooLong { .. } => CHESS_ERR_PGN_COMMENT_TOO_LONG,
            PgnErrorKind::UnmatchedParen => CHESS_ERR_PGN_UNMATCHED_PAREN,
            PgnErrorKind::UnclosedVariation { .. } => CHESS_ERR_PGN_UNCLOSED_VARIATION,
            PgnErrorKind::VariationWithoutMove => CHESS_ERR_PGN_VARIATION_WITHOUT_MOVE,
            PgnErrorKind::TooDeep { .. } => CHESS_ERR_PGN_TOO_DEEP,
            PgnErrorKind::InvalidUtf8 => CHESS_ERR_PGN_INVALID_UTF8,
            PgnErrorKind::NulByte => CHESS_ERR_PGN_NUL_BYTE,
            PgnErrorKind::NonStandard { .. } => CHESS_ERR_PGN_NON_STANDARD,
            PgnErrorKind::Io { .. } => CHESS_ERR_IO,
            PgnErrorKind::OutOfMemory => CHESS_ERR_OUT_OF_MEMORY,
            _ => CHESS_ERR_INVALID_TEXT,
        }
    }
}

impl ErrorCode for BookError {
    /// A book's code: one per kind of malformed book, a file's (`CHESS_ERR_FILE_NOT_FOUND`,
    /// `CHESS_ERR_IO`, also for a directory), or a PGN reading failure's while building.
    fn code(&self) -> chess_error {
        match self {
            BookError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => CHESS_ERR_FILE_NOT_FOUND,
            BookError::Io(_) | BookError::NotAFile => CHESS_ERR_IO,
            BookError::Empty => CHESS_ERR_BOOK_EMPTY,
            BookError::Length { .. } => CHESS_ERR_BOOK_LENGTH,
            BookError::Unsorted { .. } => CHESS_ERR_BOOK_UNSORTED,
            BookError::OutOfMemory => CHESS_ERR_OUT_OF_MEMORY,
            BookError::Pgn(e) => e.kind.code(),
            // A kind of fault newer than the codes: the book could not be read.
            _ => CHESS_ERR_IO,
        }
    }
}

/// A static, NUL-terminated English description of `code`; never NULL. An unknown code gives
/// "unknown error code".
#[no_mangle]
pub extern "C" fn chess_error_message(code: chess_error) -> *const c_char {
    const UNKNOWN: &CStr = c"unknown error code";
    guard(UNKNOWN.as_ptr(), || message(code).unwrap_or(UNKNOWN).as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Every code the committed header defines (`CHESS_OK`, `CHESS_END`, `CHESS_ERR_*`), in its
    /// order: the list is not copied here (the header test keeps the header current).
    fn header_codes() -> Vec<chess_error> {
        include_str!("../include/chesscore.h")
            .lines()
            .filter_map(|line| {
                let mut words = line.strip_prefix("#define ")?.split_whitespace();
                let name = words.next()?;
                let is_code = name.starts_with("CHESS_ERR_") || name == "CHESS_OK" || name == "CHESS_END";
                is_code.then(|| words.next()?.parse().ok())?
            })
            .collect()
    }

    #[test]
    fn codes_are_sorted_unique_and_described() {
        let codes = header_codes();
        assert!(codes.len() > 80 && codes.contains(&CHESS_ERR_VARIANT_KINGS), "{codes:?}");
        assert!(codes.windows(2).all(|w| w[0] < w[1]), "{codes:?}");
        let messages: HashSet<&CStr> = codes.iter().filter_map(|&e| message(e)).collect();
        assert_eq!(messages.len(), codes.len());
        for e in codes {
            // SAFETY: the message is a static NUL-terminated string.
            assert_eq!(unsafe { CStr::from_ptr(chess_error_message(e)) }, message(e).unwrap());
        }
        for unknown in [u32::MAX, 8, 99, 122, 205, 303, 416, 502, 606, 704, 803, 910, 1004, 1103, i32::MAX as u32] {
            // SAFETY: the message is a static NUL-terminated string.
            assert_eq!(unsafe { CStr::from_ptr(chess_error_message(unknown)) }, c"unknown error code");
        }
    }
}
