//! The syntax of a FEN: its fields split and read into a [`Setup`], with where each field and
//! piece stands in the text for error offsets.

use std::fmt::Write;
use std::ops::Range;

use super::write::write_board;
use super::{Fen, FenError};
use crate::board::color::Color;
use crate::board::piece::Piece;
use crate::board::square::{File, Rank, Square};
use crate::fallible::Length;
use crate::notation::setup::{BackRank, Setup};

/// A field of a FEN as read: where it starts in the input, and its bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field<'a> {
    pub(crate) offset: usize,
    pub(crate) text: &'a [u8],
}

/// The fields of a FEN, split but not read yet: what the text, the six components and an EPD
/// line each give [`Fields::read`], the one reader of their contents.
#[derive(Debug, Clone)]
pub(crate) struct Fields<'a> {
    /// The fields in order; those past `count` are empty, at `end`.
    pub(crate) list: [Field<'a>; 6],
    pub(crate) count: usize,
    /// Where the text ends, for the fields it leaves out.
    pub(crate) end: usize,
}

impl<'a> Fields<'a> {
    /// Splits `input[start..end]` (which starts and ends with a field) at runs of separators,
    /// into at most `max` fields; returns them and where the text after them resumes (`end`
    /// when nothing is left). The bytes are not checked yet.
    pub(crate) fn split(
        input: &'a [u8],
        start: usize,
        end: usize,
        max: usize,
        is_separator: impl Fn(u8) -> bool,
    ) -> (Fields<'a>, usize) {
        let mut fields = Fields { list: [Field { offset: end, text: &[] }; 6], count: 0, end };
        let mut i = start;
        while i < end && fields.count < max {
            let text = &input[i..end];
            let length = text.iter().position(|&b| is_separator(b)).unwrap_or(text.len());
            fields.list[fields.count] = Field { offset: i, text: &text[..length] };
            fields.count += 1;
            i += length;
            i += input[i..end].iter().take_while(|&&b| is_separator(b)).count();
        }
        (fields, i)
    }

    /// Reads the fields into a [`Fen`]. The first byte that is not printable ASCII is the
    /// error, if any; then too few fields; then each field in order.
    pub(crate) fn read(&self) -> Result<Fen, FenError> {
        // A field read whole holds printable ASCII only: bad bytes are looked for on failure.
        self.read_fields().map_err(|error| match self.first_bad_byte() {
            Some(offset) => FenError::InvalidCharacter { offset },
            None => error,
        })
    }

    pub(super) fn first_bad_byte(&self) -> Option<usize> {
        self.list[..self.count]
            .iter()
            .find_map(|field| field.text.iter().position(|b| !b.is_ascii_graphic()).map(|i| field.offset + i))
    }

    fn read_fields(&self) -> Result<Fen, FenError> {
        if self.count < 4 {
            return Err(FenError::FieldCount { found: self.count, offset: self.end });
        }
        let [placement, side, castling, en_passant, halfmove_clock, fullmove_number] = self.list;
        let mut fen = Fen {
            setup: Setup::empty(),
            spans: Some(Spans {
                fields: self.list.map(|field| field.offset..field.offset + field.text.len()),
                squares: [0; 64],
                castling: CastlingLetters::Read([None; 4]),
            }),
        };
        let setup = &mut fen.setup;
        let spans = fen.spans.as_mut().expect("a FEN read has its spans");
        read_placement(&mut setup.board, &mut spans.squares, placement)?;
        setup.turn = match side.text {
            [c] => Color::from_fen_char(*c as char),
            _ => None,
        }
        .ok_or(FenError::SideToMove { offset: side.offset })?;
        spans.castling = CastlingLetters::Read(read_castling(setup, castling)?);
        if en_passant.text != b"-" {
            let square = Square::from_ascii(en_passant.text);
            setup.en_passant = Some(square.map_err(|_| FenError::EnPassant { offset: en_passant.offset })?);
        }
        if self.count >= 5 {
            setup.halfmove_clock =
                parse_number(halfmove_clock.text).ok_or(FenError::HalfmoveClock { offset: halfmove_clock.offset })?;
        }
        if self.count == 6 {
            setup.fullmove_number = parse_number(fullmove_number.text)
                .ok_or(FenError::FullmoveNumber { offset: fullmove_number.offset })?
                .max(1);
        }
        Ok(fen)
    }
}

/// The piece each byte names in a placement ([`Piece::from_fen_char`]), looked up at one load.
static PIECE_LETTERS: [Option<Piece>; 256] = {
    let mut letters = [None; 256];
    let mut byte = 0;
    while byte < 256 {
        letters[byte] = Piece::from_fen_char(byte as u8 as char);
        byte += 1;
    }
    letters
};

/// Reads a piece placement into `board`, noting in `squares` where each piece's letter is in
/// the field.
fn read_placement(board: &mut [Option<Piece>; 64], squares: &mut [u8; 64], field: Field<'_>) -> Result<(), FenError> {
    let Field { offset, text } = field;
    // A wrong number of ranks outranks any error inside one.
    let fail = |error| {
        let found = text.iter().filter(|&&b| b == b'/').count() + 1;
        Err(if found == 8 { error } else { FenError::RankCount { found, offset } })
    };
    // The rank being read (7 for the eighth, read first), where it starts and its width so far.
    let mut rank = 7u8;
    let mut rank_start = 0;
    let mut width = 0usize;
    let mut previous_digit = false;
    for (i, &c) in text.iter().enumerate() {
        if let Some(piece) = PIECE_LETTERS[usize::from(c)] {
            previous_digit = false;
            if width < 8 {
                let sq = Square::new(File::new(width as u8), Rank::new(rank));
                board[sq.index()] = Some(piece);
                // The field is at most FEN_MAX_INPUT bytes long.
                squares[sq.index()] = i as u8;
            }
            width += 1;
            continue;
        }
        match c {
            b'/' if width != 8 => {
                return fail(FenError::RankWidth { rank: rank + 1, width, offset: offset + rank_start });
            }
            // A ninth rank: `fail` counts them.
            b'/' if rank == 0 => return fail(FenError::RankCount { found: 9, offset }),
            b'/' => {
                rank -= 1;
                rank_start = i + 1;
                width = 0;
                previous_digit = false;
            }
            b'1'..=b'9' if !previous_digit => {
                previous_digit = true;
                width += usize::from(c - b'0');
            }
            b'0'..=b'9' => return fail(FenError::EmptySquareCount { rank: rank + 1, offset: offset + i }),
            _ => return fail(FenError::PieceLetter { letter: c as char, offset: offset + i }),
        }
    }
    if rank != 0 {
        return fail(FenError::RankCount { found: 8 - usize::from(rank), offset });
    }
    if width != 8 {
        return Err(FenError::RankWidth { rank: 1, width, offset: offset + rank_start });
    }
    Ok(())
}

/// Reads the castling field into `setup.castling_rooks` (the board read already); returns the
/// letters in order with the rook squares they name.
fn read_castling(setup: &mut Setup, field: Field<'_>) -> Result<[Option<(u8, Square)>; 4], FenError> {
    let Field { offset, text } = field;
    let mut letters = [None; 4];
    if text == b"-" {
        return Ok(letters);
    }
    if text.len() > 4 {
        return Err(FenError::Castling { offset: offset + 4 });
    }
    let back_ranks = Color::ALL.map(|color| BackRank::of_setup(setup, color));
    for (i, &c) in text.iter().enumerate() {
        let valid = matches!(c, b'K' | b'Q' | b'k' | b'q' | b'A'..=b'H' | b'a'..=b'h');
        if !valid || text[..i].contains(&c) {
            return Err(FenError::Castling { offset: offset + i });
        }
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let rook = back_ranks[color.index()].rook_square(c);
        setup.castling_rooks.set(rook);
        letters[i] = Some((c, rook));
    }
    Ok(letters)
}

/// Where a FEN's fields and pieces are in its text, for error offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Spans {
    /// Each field's bytes; an absent clock is empty, where the text ends.
    pub(super) fields: [Range<usize>; 6],
    /// Where each piece's letter is in the placement field.
    pub(super) squares: [u8; 64],
    pub(super) castling: CastlingLetters,
}

/// The castling letters errors name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum CastlingLetters {
    /// Read from the text, in order, with the rook squares they name.
    Read([Option<(u8, Square)>; 4]),
    /// Those written for the setup ([`Setup::castling_letters`]).
    Written,
}

impl Spans {
    /// The spans of the text `Fen`'s `Display` writes for `setup`.
    pub(super) fn written(setup: &Setup) -> Spans {
        let mut squares = [0; 64];
        let mut placement = Length(0);
        // Counting bytes cannot fail.
        let _ = write_board(&mut placement, |sq| setup.board[sq.index()], |sq, at| squares[sq.index()] = at as u8);
        let digits = |n: u32| {
            let mut length = Length(0);
            let _ = write!(length, "{n}");
            length.0
        };
        let lengths = [
            placement.0,
            1,
            (setup.castling_rooks.count() as usize).max(1),
            if setup.en_passant.is_some() { 2 } else { 1 },
            digits(setup.halfmove_clock),
            digits(setup.fullmove_number),
        ];
        let mut start = 0;
        let fields = lengths.map(|length| {
            let field = start..start + length;
            start += length + 1;
            field
        });
        Spans { fields, squares, castling: CastlingLetters::Written }
    }
}

#[inline]
pub(super) fn is_separator(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

pub(super) fn parse_number(field: &[u8]) -> Option<u32> {
    if field.is_empty() {
        return None;
    }
    field.iter().try_fold(0u32, |acc, &b| {
        if b.is_ascii_digit() {
            acc.checked_mul(10)?.checked_add(u32::from(b - b'0'))
        } else {
            None
        }
    })
}

pub(super) fn component_error(index: usize, offset: usize) -> FenError {
    match index {
        0 => FenError::RankCount { found: 0, offset },
        1 => FenError::SideToMove { offset },
        2 => FenError::Castling { offset },
        3 => FenError::EnPassant { offset },
        4 => FenError::HalfmoveClock { offset },
        _ => FenError::FullmoveNumber { offset },
    }
}
