//! Forsyth-Edwards Notation: strict reading in two steps (the syntax into a [`Fen`], a
//! [`Setup`] with the place of each field in the text, then validation into a [`Position`])
//! and canonical writing.
//!
//! Accepted input: 4, 5 or 6 fields (missing clocks default to `0` and `1`), separated by one
//! or more spaces or tabs. Leading and trailing spaces, tabs, carriage returns and line feeds
//! are ignored. Any other byte that is not printable ASCII is an error, and so is input longer
//! than [`FEN_MAX_INPUT`] bytes. A fullmove number of 0 is read as 1.
//!
//! The reading is in `syntax` (the fields into a [`Setup`] with their places), the checks of
//! a setup in `validate` (shared with EPD and binary FEN), the position's constructors in
//! `position`, the writer in `write`, reading a `.fen` file in `file`; the errors and options
//! are re-exported here.

mod error;
mod file;
mod options;
mod position;
pub(crate) mod syntax;
pub(crate) mod validate;
pub(crate) mod write;

use std::borrow::Cow;
use std::fmt::{self, Write};
use std::ops::Range;
use std::str::FromStr;

use arrayvec::ArrayVec;

pub use error::{FenError, FenField};
pub use file::{FenFileError, FEN_FILE_MAX_BLANK};
pub use options::{CastlingNotation, FenOptions, FenRepairs, FenWriteOptions, Repair};
use syntax::{component_error, is_separator, CastlingLetters, Field, Fields, Spans};
use validate::{check_position, Site, Unplaced};
use write::write_board;

use crate::board::square::Square;
use crate::notation::setup::Setup;
use crate::position::Position;

/// Longest input accepted by the reader, in bytes (whitespace included).
pub const FEN_MAX_INPUT: usize = 256;

/// Longest FEN the writer produces, in bytes (71 for the placement, 4 for castling, 2 for en
/// passant, 10 for each clock, 5 separators and side to move).
pub const FEN_MAX_LEN: usize = 103;

/// A FEN read for its syntax: the [`Setup`] it describes, and where each of its fields and
/// pieces is in the text, for the errors of [`Fen::validate`], which checks the position and
/// builds it. A `Fen` made from a setup (`Fen::from(setup)`) counts offsets in the text its
/// `Display` writes: the setup's FEN with the en passant square as recorded and X-FEN castling
/// (`K`/`Q` for the outermost rook on a side, the file letter for another).
///
/// # Examples
///
/// ```
/// use chesscore_core::{Fen, FenError, FenField, FenOptions, Position, Square};
///
/// let fen: Fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3".parse()?;
/// assert_eq!(fen.setup().en_passant, Some(Square::E3));
/// assert_eq!(fen.field_range(FenField::Castling), Some(48..52));
/// assert_eq!(fen.field_range(FenField::HalfmoveClock), None);
/// assert_eq!(fen.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
///
/// let (pos, _) = fen.validate(&FenOptions::default())?;
/// assert_eq!(pos.to_setup(), *fen.setup());
///
/// // Errors point into the text.
/// let err = "4k3/8/8/8/8/8/8/4K3 w K - 0 1".parse::<Fen>()?.validate(&FenOptions::default());
/// assert_eq!(err, Err(FenError::BadCastlingRights { letter: 'K', offset: 22 }));
/// # Ok::<(), FenError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fen {
    pub(crate) setup: Setup,
    /// `None` for a FEN made from a setup: the spans of the text its `Display` writes, worked
    /// out only when asked for (an error, `field_range`), so that checking a setup costs no
    /// text layout.
    spans: Option<Spans>,
}

impl Fen {
    /// Reads the syntax of a FEN.
    pub fn parse(fen: &str) -> Result<Fen, FenError> {
        Fen::parse_bytes(fen.as_bytes())
    }

    /// Reads the syntax of a FEN given as bytes (which need not be UTF-8: any non-ASCII byte
    /// is reported as [`FenError::InvalidCharacter`]).
    pub fn parse_bytes(input: &[u8]) -> Result<Fen, FenError> {
        if input.len() > FEN_MAX_INPUT {
            return Err(FenError::TooLong { length: input.len() });
        }
        let is_trim = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
        let start = input.iter().position(|b| !is_trim(b)).ok_or(FenError::Empty)?;
        let end = input.iter().rposition(|b| !is_trim(b)).map_or(start, |i| i + 1);
        let (fields, next) = Fields::split(input, start, end, 6, is_separator);
        if next < end {
            // A seventh field; a bad byte anywhere still comes first.
            let bad = |b: &u8| !(b.is_ascii_graphic() || is_separator(*b));
            let later = || input[next..end].iter().position(bad).map(|i| next + i);
            return Err(match fields.first_bad_byte().or_else(later) {
                Some(offset) => FenError::InvalidCharacter { offset },
                None => FenError::FieldCount { found: 7, offset: next },
            });
        }
        fields.read()
    }

    /// Reads the six FEN fields given separately, each by itself (none may be empty or hold a
    /// space or tab). Error offsets count in the fields joined by single spaces.
    pub fn from_component_bytes(parts: [&[u8]; 6]) -> Result<Fen, FenError> {
        let mut list = [Field { offset: 0, text: &[] }; 6];
        let mut offset = 0;
        for (i, part) in parts.into_iter().enumerate() {
            // An empty or space-holding component would shift the fields; name it directly.
            if part.is_empty() || part.iter().copied().any(is_separator) {
                return Err(component_error(i, offset));
            }
            list[i] = Field { offset, text: part };
            offset += part.len() + 1;
        }
        let length = offset - 1;
        if length > FEN_MAX_INPUT {
            return Err(FenError::TooLong { length });
        }
        // Line ends before the first field and after the last are ignored, as in a FEN text,
        // even when they make up whole components (which then are no fields).
        let is_line_end = |b: &u8| matches!(b, b'\r' | b'\n');
        for field in list.iter_mut() {
            let ends = field.text.iter().take_while(|b| is_line_end(b)).count();
            field.offset += ends;
            field.text = &field.text[ends..];
            if !field.text.is_empty() {
                break;
            }
        }
        for field in list.iter_mut().rev() {
            let ends = field.text.iter().rev().take_while(|b| is_line_end(b)).count();
            field.text = &field.text[..field.text.len() - ends];
            if !field.text.is_empty() {
                break;
            }
        }
        let Some(last) = list.iter().rev().find(|f| !f.text.is_empty()) else { return Err(FenError::Empty) };
        let end = last.offset + last.text.len();
        let mut fields = Fields { list: [Field { offset: end, text: &[] }; 6], count: 0, end };
        for field in list.into_iter().filter(|f| !f.text.is_empty()) {
            fields.list[fields.count] = field;
            fields.count += 1;
        }
        fields.read()
    }

    /// The position the FEN describes, not checked yet.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The setup, without the offsets.
    pub fn into_setup(self) -> Setup {
        self.setup
    }

    /// Where `field` is in the text this FEN was read from (for one made from a [`Setup`], in
    /// the text its `Display` writes); `None` for a clock the text leaves out.
    /// [`FenField::Input`] spans the text from its first field to its last.
    pub fn field_range(&self, field: FenField) -> Option<Range<usize>> {
        let fields = &self.spans().fields;
        let range = match field {
            FenField::Input => fields[0].start..fields.iter().map(|f| f.end).max().unwrap_or(fields[0].end),
            FenField::Placement => fields[0].clone(),
            FenField::SideToMove => fields[1].clone(),
            FenField::Castling => fields[2].clone(),
            FenField::EnPassant => fields[3].clone(),
            FenField::HalfmoveClock => fields[4].clone(),
            FenField::FullmoveNumber => fields[5].clone(),
        };
        (!range.is_empty()).then_some(range)
    }

    /// Checks the position and builds it: the one validation of every FEN reader and of
    /// [`Position::from_setup`]. Each side has one king, at most 16 pieces and 8 pawns; no pawn
    /// stands on a back rank; the side not to move is not in check, and the checks of the side
    /// to move could come from one move (unless `allow_impossible_check`); every castling right
    /// has its king and rook at home; the en passant square lies behind a pawn that could just
    /// have advanced two squares. The last two can be repaired instead ([`Repair::Drop`]).
    pub fn validate(&self, options: &FenOptions) -> Result<(Position, FenRepairs), FenError> {
        let setup = &self.setup;
        let mut pos = Position::empty(setup.turn);
        for sq in Square::ALL {
            if let Some(piece) = setup.board[sq.index()] {
                pos.put(sq, piece);
            }
        }
        let letters = self.castling_letters();
        let offset = |site| match site {
            Site::Placement => self.field_start(FenField::Placement),
            Site::Square(sq) => self.offset_of(sq),
            Site::CastlingLetter(i) => self.field_start(FenField::Castling) + i,
            Site::EnPassant => self.field_start(FenField::EnPassant),
        };
        let rest = Unplaced {
            castling: &letters,
            en_passant: setup.en_passant,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
        };
        let repairs = check_position(&mut pos, rest, options, offset)?;
        Ok((pos, repairs))
    }

    /// The castling letters in order with the rook squares they name: those read, or those
    /// `Display` writes.
    fn castling_letters(&self) -> ArrayVec<(u8, Square), 64> {
        match self.spans.as_ref().map(|spans| &spans.castling) {
            Some(CastlingLetters::Read(letters)) => letters.iter().flatten().copied().collect(),
            Some(CastlingLetters::Written) | None => self.setup.castling_letters(),
        }
    }

    /// The spans: those read, or those of the text `Display` writes.
    fn spans(&self) -> Cow<'_, Spans> {
        match &self.spans {
            Some(spans) => Cow::Borrowed(spans),
            None => Cow::Owned(Spans::written(&self.setup)),
        }
    }

    /// Where a field (not [`FenField::Input`]) starts.
    fn field_start(&self, field: FenField) -> usize {
        let index = match field {
            FenField::Input | FenField::Placement => 0,
            FenField::SideToMove => 1,
            FenField::Castling => 2,
            FenField::EnPassant => 3,
            FenField::HalfmoveClock => 4,
            FenField::FullmoveNumber => 5,
        };
        self.spans().fields[index].start
    }

    fn offset_of(&self, sq: Square) -> usize {
        let spans = self.spans();
        spans.fields[0].start + usize::from(spans.squares[sq.index()])
    }
}

/// Reads the syntax, as [`Fen::parse`].
impl FromStr for Fen {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Fen, FenError> {
        Fen::parse(fen)
    }
}

/// Writes the setup's FEN: all six fields, the en passant square as recorded, castling in
/// X-FEN (see [`Fen`]). A setup that a FEN can hold (at most four castling rights, each on a
/// back rank) reads back equal.
impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setup = &self.setup;
        write_board(f, |sq| setup.board[sq.index()], |_, _| {})?;
        write!(f, " {} ", setup.turn.fen_char())?;
        if setup.castling_rooks.is_empty() {
            f.write_char('-')?;
        }
        for (letter, _) in setup.castling_letters() {
            f.write_char(letter as char)?;
        }
        match setup.en_passant {
            Some(sq) => write!(f, " {sq}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", setup.halfmove_clock, setup.fullmove_number)
    }
}

/// A FEN without a text: its offsets count in the text its `Display` writes.
impl From<Setup> for Fen {
    fn from(setup: Setup) -> Fen {
        Fen { spans: None, setup }
    }
}

impl From<Fen> for Setup {
    fn from(fen: Fen) -> Setup {
        fen.setup
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitboard::Bitboard;
    use crate::position::EnPassantMode;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn start_position_round_trip() {
        let pos = Position::from_fen(START).unwrap();
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.to_fen(), START);
    }

    #[test]
    fn optional_clocks_and_whitespace() {
        let four = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
        assert_eq!(four.to_fen(), START);
        let five = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7").unwrap();
        assert_eq!(five.halfmove_clock(), 7);
        assert_eq!(five.fullmove_number(), 1);
        let spaced = Position::from_fen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw  KQkq - 0 1\r\n").unwrap();
        assert_eq!(spaced.to_fen(), START);
        assert!(matches!(Position::from_fen("8/8/8/8/8/8/8/8 w"), Err(FenError::FieldCount { found: 2, .. })));
    }

    #[test]
    fn errors_name_field_and_offset() {
        let err = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").unwrap_err();
        assert_eq!(err, FenError::SideToMove { offset: 44 });
        assert_eq!(err.field(), FenField::SideToMove);
        assert_eq!(err.field().to_string(), "side to move");
        let err = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1").unwrap_err();
        assert_eq!(err, FenError::PieceLetter { letter: 'X', offset: 42 });
        let err = Position::from_fen("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
        assert_eq!(err, FenError::RankWidth { rank: 7, width: 7, offset: 9 });
        let err = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w Kq - 0 1").unwrap_err();
        assert_eq!(err, FenError::BadCastlingRights { letter: 'q', offset: 24 });
    }

    #[test]
    fn repairs_drop_and_report() {
        let options = FenOptions { bad_castling: Repair::Drop, bad_en_passant: Repair::Drop, ..FenOptions::default() };
        let (pos, repairs) = Position::from_fen_with("4k3/8/8/8/8/8/8/4K2R w KQk e6 0 1", &options).unwrap();
        assert_eq!(pos.castling().to_fen(), "K");
        assert_eq!(repairs.dropped_castling, 2 | 4);
        assert_eq!(repairs.dropped_en_passant, Some(Square::E6));
    }

    #[test]
    fn en_passant_modes() {
        // Recorded after e2e4 with no black pawn beside: only AsRecorded keeps it.
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        let recorded = FenWriteOptions { en_passant: EnPassantMode::AsRecorded, ..Default::default() };
        assert!(pos.to_fen_with(&recorded).contains(" e3 "));
        assert!(pos.to_fen().contains(" - "));
        // Pinned capturer: pseudo-legal keeps it, legal drops it.
        let pos = Position::from_fen("4k2b/8/8/3pP3/8/8/1K6/8 w - d6 0 2").unwrap();
        assert_eq!(pos.en_passant_square(EnPassantMode::PseudoLegal), Some(Square::D6));
        assert_eq!(pos.en_passant_square(EnPassantMode::Legal), None);
    }

    #[test]
    fn field_ranges_and_components() {
        let fen = Fen::parse(" 8/8/8/8/8/8/8/K6k\tw  - - ").unwrap();
        let fields = [FenField::Placement, FenField::SideToMove, FenField::Castling, FenField::EnPassant];
        assert_eq!(fields.map(|field| fen.field_range(field)), [Some(1..18), Some(19..20), Some(22..23), Some(24..25)]);
        assert_eq!(fen.field_range(FenField::HalfmoveClock), None);
        assert_eq!(fen.field_range(FenField::Input), Some(1..25));
        let pos =
            Position::from_fen_components("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "KQkq", "-", "0", "1")
                .unwrap();
        assert_eq!(pos, Position::startpos());
        assert!(matches!(
            Position::from_fen_components("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "", "-", "0", "1"),
            Err(FenError::Castling { .. })
        ));
        let bytes: [&[u8]; 6] = [b"4k3/8/8/8/8/8/8/4K3", b"w", b"-", b"-", b"0", b"1\xff"];
        assert_eq!(Position::from_fen_component_bytes(bytes), Err(FenError::InvalidCharacter { offset: 29 }));
        let bytes: [&[u8]; 6] = [b"4k3/8/8/8/8/8/8/4K3", b"w", b"-", b"-", b"0", b"1"];
        assert_eq!(Position::from_fen_component_bytes(bytes).unwrap().to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }

    #[test]
    fn components_ignore_line_ends_around_the_fen() {
        // As the text joined by spaces would read: line ends at its ends are trimmed, even when
        // they are a whole component; inside, they are bad bytes.
        let bytes: [&[u8]; 6] = [b"\r\n4k3/8/8/8/8/8/8/4K3", b"w", b"-", b"-", b"0", b"1\r\n"];
        assert_eq!(Position::from_fen_component_bytes(bytes).unwrap().to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let bytes: [&[u8]; 6] = [b"4k3/8/8/8/8/8/8/4K3", b"w", b"-", b"-", b"\n", b"\n"];
        assert_eq!(Position::from_fen_component_bytes(bytes).unwrap().to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let bytes: [&[u8]; 6] = [b"\n", b"w", b"-", b"-", b"0", b"1"];
        assert_eq!(Position::from_fen_component_bytes(bytes), Err(FenError::RankCount { found: 1, offset: 2 }));
        let bytes: [&[u8]; 6] = [b"\n", b"\r", b"\n", b"\n", b"\r\n", b"\n"];
        assert_eq!(Position::from_fen_component_bytes(bytes), Err(FenError::Empty));
        let bytes: [&[u8]; 6] = [b"4k3/8/8/8/8/8/8/4K3", b"w\n", b"-", b"-", b"0", b"1"];
        assert_eq!(Position::from_fen_component_bytes(bytes), Err(FenError::InvalidCharacter { offset: 21 }));
    }

    #[test]
    fn file_errors_show_their_cause_once() {
        use std::error::Error;
        // Reading a directory fails after opening it.
        let err = Position::from_fen_file(std::env::temp_dir()).unwrap_err();
        let FenFileError::Io { error, .. } = &err else { panic!("{err:?}") };
        assert!(err.to_string().ends_with(&format!(": {error}")), "{err}");
        assert!(err.source().is_none());
        let err = FenFileError::from(FenError::Empty);
        assert_eq!((err.to_string(), err.source().is_none()), ("empty FEN".to_string(), true));
    }

    #[test]
    fn text_form_of_a_setup() {
        let fen: Fen = "  4k3/8/8/8/8/8/8/4K2R w HK - 3".parse().unwrap();
        // `H` and `K` name one rook: the setup has one right, the text a repeated one.
        assert_eq!(fen.setup().castling_rooks, Bitboard::from_square(Square::H1));
        assert_eq!(fen.to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 3 1");
        assert_eq!(fen.validate(&FenOptions::default()), Err(FenError::BadCastlingRights { letter: 'K', offset: 26 }));
        assert!(Fen::from(*fen.setup()).validate(&FenOptions::default()).is_ok());
        // Squares a FEN cannot hold are written all the same, and rejected.
        let mut setup = *fen.setup();
        setup.castling_rooks = Bitboard::from_square(Square::H1).with(Square::G1).with(Square::B3);
        let made = Fen::from(setup);
        assert_eq!(made.to_string(), "4k3/8/8/8/8/8/8/4K2R w KGB - 3 1");
        assert_eq!(made.validate(&FenOptions::default()), Err(FenError::BadCastlingRights { letter: 'G', offset: 24 }));
        let lenient = FenOptions { bad_castling: Repair::Drop, ..FenOptions::default() };
        let (pos, repairs) = made.validate(&lenient).unwrap();
        assert_eq!((pos.castling().to_fen(), repairs.dropped_castling), ("K".to_string(), 1 | 2));
    }
}
