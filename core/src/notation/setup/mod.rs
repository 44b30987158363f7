//! [`Setup`]: a position as plain data, where a FEN, an EPD record's position fields, the six
//! FEN fields given apart and a PGN `FEN` tag meet before the position is checked.

mod moves;
mod status;
mod write;

use arrayvec::ArrayVec;

use crate::board::bitboard::Bitboard;
use crate::board::castling::back_rank;
use crate::board::color::Color;
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{File, Rank, Square};
use crate::position::Position;

pub use status::SetupStatus;

/// A position as plain data, not checked: what a FEN says. Any value is a `Setup`; only
/// [`Position::from_setup`] (or [`Fen::validate`](crate::Fen::validate)) decides whether it is a position.
///
/// The board is a piece (or none) per square; castling rights are the squares of their rooks,
/// so that Chess960 needs nothing else. [`Fen`](crate::Fen) is its text form, [`Position::to_setup`] the way
/// back from a position. `Default` is the standard start position; [`Setup::empty`] has no
/// pieces.
///
/// # Examples
///
/// ```
/// use chesscore_core::{Bitboard, Color, Fen, FenOptions, Piece, PieceKind, Position, Setup, Square};
///
/// let mut setup = Setup::empty();
/// setup.board[Square::E1.index()] = Some(Piece::new(Color::White, PieceKind::King));
/// setup.board[Square::H1.index()] = Some(Piece::new(Color::White, PieceKind::Rook));
/// setup.board[Square::E8.index()] = Some(Piece::new(Color::Black, PieceKind::King));
/// setup.castling_rooks = Bitboard::from_square(Square::H1);
/// assert_eq!(Fen::from(setup).to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
///
/// let (pos, _) = Position::from_setup(setup, &FenOptions::default())?;
/// assert_eq!(pos.legal_moves().len(), 15);
/// assert_eq!(pos.to_setup(), setup);
///
/// // A FEN, read for its syntax, is a setup too.
/// let fen: Fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse()?;
/// assert_eq!(*fen.setup(), setup);
/// # Ok::<(), chesscore_core::FenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`] (a1 = 0, b1 = 1, ..., h8 = 63).
    pub board: [Option<Piece>; 64],
    /// The side to move.
    pub turn: Color,
    /// The squares of the rooks that keep a castling right: rank 1 holds White's, rank 8
    /// Black's (a square on another rank is never a valid right). In standard chess a right
    /// needs the king on the e-file and the rook in a corner; in Chess960 the king anywhere on
    /// the back rank between the rooks, one right per side of it.
    pub castling_rooks: Bitboard,
    /// The en passant square as recorded after a double push, whether or not a pawn can
    /// capture there.
    pub en_passant: Option<Square>,
    /// Halfmoves since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The number of the move, from 1 (0 is read as 1).
    pub fullmove_number: u32,
}

impl Setup {
    /// No pieces, White to move, no castling rights nor en passant square, clocks `0 1`.
    pub const fn empty() -> Setup {
        Setup {
            board: [None; 64],
            turn: Color::White,
            castling_rooks: Bitboard::EMPTY,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// The castling letters of this setup's FEN with the rook squares they stand for, in the
    /// order of [`castling_letters`].
    pub(crate) fn castling_letters(&self) -> ArrayVec<(u8, Square), 64> {
        castling_letters(self.castling_rooks, |color| BackRank::of_setup(self, color))
    }
}

/// The castling letters of rights with their rooks on `rooks`, with those squares, in the order
/// written: White's (the squares of ranks 1 to 4), then Black's (ranks 8 to 5), each from its
/// back rank inwards and from the h-file to the a-file. A rook square is written `K` or `Q` when
/// that letter names it (see [`BackRank::rook_square`]), else as its file; `back_rank` gives a
/// side's king and rooks, asked only for a side with rights.
pub(crate) fn castling_letters(rooks: Bitboard, back_rank: impl Fn(Color) -> BackRank) -> ArrayVec<(u8, Square), 64> {
    let mut letters = ArrayVec::new();
    for color in Color::ALL {
        let ranks = match color {
            Color::White => [0, 1, 2, 3],
            Color::Black => [7, 6, 5, 4],
        };
        let mut back = None;
        for rank in ranks {
            let mut row = (rooks.0 >> (8 * rank)) as u8;
            while row != 0 {
                let file = 7 - row.leading_zeros() as u8;
                row &= !(1 << file);
                let sq = Square::new(File::new(file), Rank::new(rank));
                letters.push((back.get_or_insert_with(|| back_rank(color)).letter(sq), sq));
            }
        }
    }
    letters
}

/// The standard start position.
impl Default for Setup {
    fn default() -> Self {
        Position::startpos().to_setup()
    }
}

impl From<&Position> for Setup {
    fn from(pos: &Position) -> Setup {
        pos.to_setup()
    }
}

impl Position {
    /// The position as plain data: [`Position::from_setup`] with
    /// `chess960: self.is_chess960()` builds it back.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: Square::ALL.map(|sq| self.piece_at(sq)),
            turn: self.turn(),
            castling_rooks: self.castling().rook_squares(),
            en_passant: self.en_passant(),
            halfmove_clock: self.halfmove_clock(),
            fullmove_number: self.fullmove_number(),
        }
    }
}

/// A side's king and rooks on its back rank: what its castling letters name.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BackRank {
    color: Color,
    /// The king's file when it stands on the back rank (the first one, if there are more).
    king: Option<File>,
    /// The side's rooks on the back rank.
    rooks: Bitboard,
}

impl BackRank {
    /// The back rank of `color` in a setup.
    pub(crate) fn of_setup(setup: &Setup, color: Color) -> BackRank {
        let rank = back_rank(color);
        let mut back = BackRank { color, king: None, rooks: Bitboard::EMPTY };
        for file in File::ALL {
            let sq = Square::new(file, rank);
            match setup.board[sq.index()] {
                Some(Piece { color: c, kind: PieceKind::King }) if c == color && back.king.is_none() => {
                    back.king = Some(file)
                }
                Some(Piece { color: c, kind: PieceKind::Rook }) if c == color => back.rooks.set(sq),
                _ => {}
            }
        }
        back
    }

    /// The back rank of `color` in a position.
    pub(crate) fn of_position(pos: &Position, color: Color) -> BackRank {
        let rank = Bitboard::rank(back_rank(color));
        let king = pos.king_square(color);
        BackRank {
            color,
            king: rank.contains(king).then_some(king.file()),
            rooks: pos.pieces_of(color, PieceKind::Rook) & rank,
        }
    }

    /// The rook square a castling letter (either case) names: a file letter, that file's
    /// square; `k` (`q`), the outermost rook beyond the king towards the h-file (a-file), or the
    /// corner when there is none, a right that validation then rejects.
    pub(crate) fn rook_square(self, letter: u8) -> Square {
        let rank = back_rank(self.color);
        let beyond_king = |file: File, towards_h: bool| match self.king {
            Some(king) => (file > king) == towards_h && file != king,
            None => false,
        };
        let file = match letter.to_ascii_lowercase() {
            b'k' => self.rooks.iter().filter(|sq| beyond_king(sq.file(), true)).last().map_or(File::H, Square::file),
            b'q' => self.rooks.iter().find(|sq| beyond_king(sq.file(), false)).map_or(File::A, Square::file),
            letter => File::new(letter - b'a'),
        };
        Square::new(file, rank)
    }

    /// The X-FEN letter of the castling right with its rook on `rook`: `K` or `Q` when that
    /// letter names the square, the file letter otherwise; upper case for White.
    pub(crate) fn letter(self, rook: Square) -> u8 {
        let letter = if self.rook_square(b'k') == rook {
            b'k'
        } else if self.rook_square(b'q') == rook {
            b'q'
        } else {
            rook.file().to_char() as u8
        };
        match self.color {
            Color::White => letter.to_ascii_uppercase(),
            Color::Black => letter,
        }
    }
}
