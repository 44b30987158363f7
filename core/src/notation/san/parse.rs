//! The syntax of SAN: the lenient and strict spellings read into a move's parts, with no
//! position at hand yet.

use crate::board::castling::CastlingSide;
use crate::board::piece::PieceKind;
use crate::board::square::{File, Rank, Square};

use super::SanError;

/// The parts of a normal (not castling, not null) SAN move.
#[derive(Clone, Copy)]
pub(super) struct Parsed {
    pub(super) piece: Option<PieceKind>,
    pub(super) file: Option<File>,
    pub(super) rank: Option<Rank>,
    pub(super) to: Square,
    pub(super) promotion: Option<PieceKind>,
}

/// What the body of a SAN (suffixes removed) says.
#[derive(Clone, Copy)]
pub(super) enum Body {
    Castle(CastlingSide),
    Normal(Parsed),
    /// A crazyhouse drop: `N@f3`, `P@e4` or `@e4` for a pawn.
    Drop(PieceKind, Square),
    Null,
}

pub(super) const NULL_SPELLINGS: [&[u8]; 4] = [b"--", b"Z0", b"0000", b"@@@@"];

/// Removes one annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`) from the end.
pub(super) fn strip_annotation(text: &[u8]) -> &[u8] {
    match text {
        [rest @ .., b'!' | b'?', b'!' | b'?'] => rest,
        [rest @ .., b'!' | b'?'] => rest,
        _ => text,
    }
}

/// The syntax of a whole SAN token, suffix and annotation included.
#[inline(always)]
pub(super) fn parse_syntax(bytes: &[u8]) -> Result<Body, SanError> {
    match common_shape(bytes) {
        Some(parsed) => Ok(Body::Normal(parsed)),
        None => parse_uncommon(bytes),
    }
}

/// [`parse_syntax`] for what [`common_shape`] does not read.
#[inline]
pub(super) fn parse_uncommon(bytes: &[u8]) -> Result<Body, SanError> {
    // Null moves start with one of these; most tokens are spared the comparisons.
    if matches!(bytes.first(), Some(b'-' | b'Z' | b'0' | b'@')) && NULL_SPELLINGS.contains(&bytes) {
        return Ok(Body::Null);
    }
    let body = strip_check(strip_annotation(bytes));
    let body = match body {
        [rest @ .., b'e', b'.', b'p', b'.'] | [rest @ .., b'e', b'p'] => strip_check(rest),
        _ => body,
    };
    parse_body(body)
}

/// Removes a check or mate sign (`+`, `#`, or doubled: `++`) from the end.
pub(super) fn strip_check(text: &[u8]) -> &[u8] {
    match text {
        [rest @ .., b'+', b'+'] => rest,
        [rest @ .., b'+' | b'#'] => rest,
        _ => text,
    }
}

pub(super) fn parse_body(body: &[u8]) -> Result<Body, SanError> {
    if let [b'O' | b'0', ..] = body {
        match body {
            b"O-O" | b"0-0" => return Ok(Body::Castle(CastlingSide::KingSide)),
            b"O-O-O" | b"0-0-0" => return Ok(Body::Castle(CastlingSide::QueenSide)),
            _ => {}
        }
    }
    if let Some(at) = body.iter().position(|&b| b == b'@') {
        let piece = match &body[..at] {
            b"" | b"P" => PieceKind::Pawn,
            [letter] => piece_letter(*letter).filter(|&k| k != PieceKind::King).ok_or(SanError::Syntax)?,
            _ => return Err(SanError::Syntax),
        };
        let to = Square::from_ascii(&body[at + 1..]).map_err(|_| SanError::Syntax)?;
        return Ok(Body::Drop(piece, to));
    }
    // Read from the end: [promotion], destination, [separator], then a prefix of at most a
    // piece letter, a file and a rank, in that order.
    let mut rest = body;
    let mut promotion = None;
    if let [head @ .., last] = rest {
        if let Some(kind) = promotion_letter(*last) {
            promotion = Some(kind);
            rest = head.strip_suffix(b"=").unwrap_or(head);
        }
    }
    let [head @ .., f, r] = rest else { return Err(SanError::Syntax) };
    let to = Square::from_ascii(&[*f, *r]).map_err(|_| SanError::Syntax)?;
    let mut prefix = match head {
        [h @ .., b'-' | b'x'] => h,
        h => h,
    };
    let mut piece = None;
    if let [first, tail @ ..] = prefix {
        piece = piece_letter(*first);
        if piece.is_some() {
            prefix = tail;
        }
    }
    let mut file = None;
    if let [first @ b'a'..=b'h', tail @ ..] = prefix {
        file = Some(File::new(first - b'a'));
        prefix = tail;
    }
    let mut rank = None;
    if let [first @ b'1'..=b'8', tail @ ..] = prefix {
        rank = Some(Rank::new(first - b'1'));
        prefix = tail;
    }
    if !prefix.is_empty() {
        return Err(SanError::Syntax);
    }
    Ok(Body::Normal(Parsed { piece, file, rank, to, promotion }))
}

/// The parts of the commonest moves, read in one match (`e4`, `Nf3`, `Nxf3`, `exd5`, each
/// with an optional `+` or `#`); `None` sends anything else to [`parse_body`], which reads
/// these the same way.
#[inline(always)]
pub(super) fn common_shape(bytes: &[u8]) -> Option<Parsed> {
    let body = match bytes {
        [rest @ .., b'+' | b'#'] => rest,
        _ => bytes,
    };
    let square = |f: u8, r: u8| Square::new(File::new(f - b'a'), Rank::new(r - b'1'));
    // A table rather than a jump on the letter (see `san_origins`), indexed by the low five
    // bits of the letter's code, which tell the letters apart: B 2, K 11, N 14, Q 17, R 18.
    const LETTERS: [PieceKind; 32] = {
        let mut table = [PieceKind::Pawn; 32];
        table[b'B' as usize & 31] = PieceKind::Bishop;
        table[b'N' as usize & 31] = PieceKind::Knight;
        table[b'Q' as usize & 31] = PieceKind::Queen;
        table[b'R' as usize & 31] = PieceKind::Rook;
        table[b'K' as usize & 31] = PieceKind::King;
        table
    };
    let piece = |p: u8| LETTERS[p as usize & 31];
    let (piece, file, to) = match *body {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (None, None, square(f, r)),
        [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), f @ b'a'..=b'h', r @ b'1'..=b'8']
        | [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            (Some(piece(p)), None, square(f, r))
        }
        [from @ b'a'..=b'h', b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            (None, Some(File::new(from - b'a')), square(f, r))
        }
        _ => return None,
    };
    Some(Parsed { piece, file, rank: None, to, promotion: None })
}

/// A piece's upper-case SAN letter (no letter for pawns).
fn piece_letter(b: u8) -> Option<PieceKind> {
    match b {
        b'N' => Some(PieceKind::Knight),
        b'B' => Some(PieceKind::Bishop),
        b'R' => Some(PieceKind::Rook),
        b'Q' => Some(PieceKind::Queen),
        b'K' => Some(PieceKind::King),
        _ => None,
    }
}

pub(super) fn promotion_letter(b: u8) -> Option<PieceKind> {
    match b.to_ascii_lowercase() {
        b'n' => Some(PieceKind::Knight),
        b'b' => Some(PieceKind::Bishop),
        b'r' => Some(PieceKind::Rook),
        b'q' => Some(PieceKind::Queen),
        b'k' => Some(PieceKind::King),
        _ => None,
    }
}

/// `[a-h][1-8][a-h][1-8][nbrq]?`: read as UCI by the line reader.
pub(super) fn is_uci_shaped(token: &[u8]) -> bool {
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match token {
        [a, b, c, d] => square(*a, *b) && square(*c, *d),
        [a, b, c, d, p] => square(*a, *b) && square(*c, *d) && matches!(p, b'n' | b'b' | b'r' | b'q'),
        _ => false,
    }
}
