//! The lichess variants: atomic, antichess, crazyhouse, king of the hill, three-check, horde
//! and racing kings, besides chess and Chess960, as lichess plays them.
//!
//! A [`VariantPosition`] holds the pieces, side to move, castling rights, en passant square and
//! clocks in a chess [`Position`] (so the attack tables, the key and the chess moves are
//! shared), plus what a variant adds: crazyhouse's pockets and promoted pieces, three-check's
//! remaining checks. The rules are chosen at run time by its [`Variant`]; the chess
//! [`Position`] itself stays as it is.
//!
//! # Examples
//!
//! ```
//! use chesscore_core::variant::{Variant, VariantPosition};
//!
//! let mut pos = VariantPosition::new(Variant::Crazyhouse);
//! for san in ["e4", "d5", "exd5", "Qxd5"] {
//!     let mv = pos.parse_san(san)?;
//!     pos.play(mv)?;
//! }
//! // White captured a pawn, Black a pawn: both may drop one.
//! assert_eq!(pos.to_fen(), "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3");
//! let drop = pos.parse_san("P@e6")?;
//! assert_eq!(pos.san(drop)?.as_str(), "@e6");
//! assert_eq!(pos.perft(2), 4_715);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod binary_fen;
mod engine;
mod epd;
mod fen;
mod game;
mod horde;
mod movegen;
mod query;
mod rules;
mod san;
mod svg;
mod zobrist;

use std::fmt;
use std::mem::MaybeUninit;
use std::ops::Deref;

use arrayvec::ArrayVec;

use crate::board::bitboard::Bitboard;
use crate::board::castling::CastlingRights;
use crate::board::color::Color;
use crate::board::moves::Move;
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::Square;
use crate::notation::setup::Setup;
use crate::position::{IllegalMoveError, Position};

pub use crate::notation::binary_fen::VARIANT_BINARY_FEN_MAX_LEN;
pub use binary_fen::VariantBinaryFenError;
pub use epd::VariantEpdError;
pub use fen::{VariantFenError, VARIANT_FEN_MAX_INPUT};
pub use game::{AnyGame, VariantGame};

/// The rules a [`VariantPosition`] plays by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Variant {
    /// Chess.
    Chess = 0,
    /// Chess960: chess from a shuffled back rank, castling written king-takes-rook.
    Chess960 = 1,
    /// Captures explode: the capturer and every piece but pawns around the square leave the
    /// board. Kings may touch; exploding the enemy king wins.
    Atomic = 2,
    /// Captures are compulsory, the king is an ordinary piece (pawns may promote to one), and
    /// losing every piece or being stalemated wins.
    Antichess = 3,
    /// Captured pieces go to the captor's pocket and may be dropped back as its own; a promoted
    /// piece goes back as a pawn.
    Crazyhouse = 4,
    /// A king reaching d4, d5, e4 or e5 wins.
    KingOfTheHill = 5,
    /// The third check wins.
    ThreeCheck = 6,
    /// White's 36 pawns (pawns on the first rank may advance two) against Black's army;
    /// White loses when all its pieces are gone.
    Horde = 7,
    /// No checks; the first king on the eighth rank wins, Black drawing by reaching it on the
    /// next move.
    RacingKings = 8,
}

impl Variant {
    /// Every variant, in the order of their values.
    pub const ALL: [Variant; 9] = [
        Variant::Chess,
        Variant::Chess960,
        Variant::Atomic,
        Variant::Antichess,
        Variant::Crazyhouse,
        Variant::KingOfTheHill,
        Variant::ThreeCheck,
        Variant::Horde,
        Variant::RacingKings,
    ];

    /// The command line's name: `standard`, `chess960`, `atomic`, `antichess`, `crazyhouse`,
    /// `kingofthehill`, `threecheck`, `horde` or `racingkings`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "standard",
            Variant::Chess960 => "chess960",
            Variant::Atomic => "atomic",
            Variant::Antichess => "antichess",
            Variant::Crazyhouse => "crazyhouse",
            Variant::KingOfTheHill => "kingofthehill",
            Variant::ThreeCheck => "threecheck",
            Variant::Horde => "horde",
            Variant::RacingKings => "racingkings",
        }
    }

    /// The name a PGN `[Variant]` tag gives, as lichess writes it (`Standard`, `Chess960`,
    /// `Atomic`, `Antichess`, `Crazyhouse`, `King of the Hill`, `Three-check`, `Horde`,
    /// `Racing Kings`).
    pub const fn pgn_name(self) -> &'static str {
        match self {
            Variant::Chess => "Standard",
            Variant::Chess960 => "Chess960",
            Variant::Atomic => "Atomic",
            Variant::Antichess => "Antichess",
            Variant::Crazyhouse => "Crazyhouse",
            Variant::KingOfTheHill => "King of the Hill",
            Variant::ThreeCheck => "Three-check",
            Variant::Horde => "Horde",
            Variant::RacingKings => "Racing Kings",
        }
    }

    /// The value of UCI's `UCI_Variant` option (`chess`, `atomic`, `antichess`, `crazyhouse`,
    /// `kingofthehill`, `3check`, `horde`, `racingkings`; Chess960 is `chess` with
    /// `UCI_Chess960`).
    pub const fn uci_name(self) -> &'static str {
        match self {
            Variant::Chess | Variant::Chess960 => "chess",
            Variant::ThreeCheck => "3check",
            other => other.name(),
        }
    }

    /// The variant a name stands for: the names of [`Variant::name`], [`Variant::pgn_name`]
    /// and [`Variant::uci_name`], and the common aliases (`giveaway`, `3check`, `koth`, `zh`,
    /// `fischerandom`, `from position`, ...), ignoring case, spaces, hyphens and underscores.
    ///
    /// ```
    /// use chesscore_core::variant::Variant;
    ///
    /// assert_eq!(Variant::from_name("King of the Hill"), Some(Variant::KingOfTheHill));
    /// assert_eq!(Variant::from_name("3check"), Some(Variant::ThreeCheck));
    /// assert_eq!(Variant::from_name("giveaway"), Some(Variant::Antichess));
    /// assert_eq!(Variant::from_name("shogi"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Variant> {
        // Compared in place: the PGN reader asks for every game, and must not allocate.
        const NAMES: [(&str, Variant); 30] = [
            ("standard", Variant::Chess),
            ("chess", Variant::Chess),
            ("classical", Variant::Chess),
            ("normal", Variant::Chess),
            ("fromposition", Variant::Chess),
            ("chess960", Variant::Chess960),
            ("960", Variant::Chess960),
            ("fischerandom", Variant::Chess960),
            ("fischerrandom", Variant::Chess960),
            ("frc", Variant::Chess960),
            ("atomic", Variant::Atomic),
            ("atom", Variant::Atomic),
            ("atomicchess", Variant::Atomic),
            ("antichess", Variant::Antichess),
            ("anti", Variant::Antichess),
            ("giveaway", Variant::Antichess),
            ("giveawaychess", Variant::Antichess),
            ("crazyhouse", Variant::Crazyhouse),
            ("house", Variant::Crazyhouse),
            ("zh", Variant::Crazyhouse),
            ("kingofthehill", Variant::KingOfTheHill),
            ("koth", Variant::KingOfTheHill),
            ("threecheck", Variant::ThreeCheck),
            ("3check", Variant::ThreeCheck),
            ("threecheckchess", Variant::ThreeCheck),
            ("horde", Variant::Horde),
            ("hordechess", Variant::Horde),
            ("racingkings", Variant::RacingKings),
            ("racing", Variant::RacingKings),
            ("race", Variant::RacingKings),
        ];
        let key = || name.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).map(|c| c.to_ascii_lowercase());
        NAMES.iter().find(|(alias, _)| key().eq(alias.chars())).map(|&(_, variant)| variant)
    }

    /// The start position's FEN, in the form [`VariantPosition::to_fen`] writes.
    pub const fn starting_fen(self) -> &'static str {
        match self {
            Variant::Chess | Variant::Chess960 | Variant::Atomic | Variant::KingOfTheHill => {
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            }
            Variant::Antichess => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            Variant::Crazyhouse => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
            Variant::ThreeCheck => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
            Variant::Horde => "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
            Variant::RacingKings => "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        }
    }

    /// Chess or Chess960: the board is a chess [`Position`] under chess's own rules, which users
    /// see ([`VariantPosition::as_chess`]) and whose key is kept move by move. The other
    /// variants compute the key when asked, which leaves every move a tenth cheaper (every-leaf
    /// perft).
    const fn is_chess(self) -> bool {
        matches!(self, Variant::Chess | Variant::Chess960)
    }
}

impl fmt::Display for Variant {
    /// The command line's name ([`Variant::name`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The pieces a side holds in its crazyhouse pocket, pawn to queen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pocket {
    counts: [u8; 5],
}

impl Pocket {
    /// The kinds a pocket holds, pawn to queen.
    pub const KINDS: [PieceKind; 5] =
        [PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen];

    /// How many of each kind the pocket holds, in the order of [`Pocket::KINDS`].
    pub const fn counts(&self) -> [u8; 5] {
        self.counts
    }

    /// How many pieces of `kind` the pocket holds (0 for a king).
    pub const fn count(&self, kind: PieceKind) -> u8 {
        if matches!(kind, PieceKind::King) {
            0
        } else {
            self.counts[kind as usize]
        }
    }

    /// The number of pieces in the pocket.
    pub fn len(&self) -> u32 {
        self.counts.iter().map(|&n| n as u32).sum()
    }

    /// True when the pocket holds nothing.
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 5]
    }

    /// Adds a piece of `kind` (a king is refused: `false`; so is a 65th piece of a kind).
    pub fn add(&mut self, kind: PieceKind) -> bool {
        match self.counts.get_mut(kind as usize).filter(|n| **n < 64) {
            Some(n) => {
                *n += 1;
                true
            }
            None => false,
        }
    }

    /// Takes a piece of `kind` out; `false` when there is none.
    pub fn remove(&mut self, kind: PieceKind) -> bool {
        match self.counts.get_mut(kind as usize).filter(|n| **n > 0) {
            Some(n) => {
                *n -= 1;
                true
            }
            None => false,
        }
    }
}

/// Capacity of a [`VariantMoveList`]: crazyhouse's drops can take a position past the 218
/// moves chess allows (five kinds on up to 62 empty squares, besides the board's moves).
pub const MAX_VARIANT_MOVES: usize = 512;

/// The legal moves of a [`VariantPosition`], stored inline.
#[derive(Clone, Default)]
pub struct VariantMoveList {
    moves: ArrayVec<Move, MAX_VARIANT_MOVES>,
}

impl VariantMoveList {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        // The capacity is above any position's count; a full list keeps what it has.
        let _ = self.moves.try_push(mv);
    }

    fn retain(&mut self, keep: impl FnMut(&mut Move) -> bool) {
        self.moves.retain(keep);
    }
}

impl Deref for VariantMoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        &self.moves
    }
}

impl fmt::Debug for VariantMoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.moves.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a VariantMoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

/// A position of any [`Variant`]: the board as a chess [`Position`] holds it, plus the
/// pockets and promoted pieces of crazyhouse and the remaining checks of three-check.
///
/// The moves, checks and endings are the variant's; the chess [`Position`] is exposed only
/// for chess and Chess960 ([`VariantPosition::as_chess`]), since a variant's board need not
/// hold one king a side.
// Aligned to 16 so that make-move's 16-byte copies never straddle a page: at 8 bytes past
// a multiple of 16, a position on the stack straddled one in a few stack placements in a
// hundred, and every-leaf perft took up to half as long again.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, align(16))]
pub struct VariantPosition {
    /// First: the fields after it are one block of bytes, which make-move copies at once.
    /// Its key is kept only in chess and Chess960 ([`Variant::is_chess`]); in the
    /// other variants it stays 0 and [`VariantPosition::zobrist`] computes the key when asked.
    board: Position,
    /// Crazyhouse: the pieces that were pawns (they go back to a pocket as pawns).
    promoted: Bitboard,
    variant: Variant,
    /// Crazyhouse: each side's pocket, indexed by [`Color::index`].
    pockets: [Pocket; 2],
    /// Three-check: the checks each side still has to give to win.
    remaining_checks: [u8; 2],
}

/// Where the fields after a [`VariantPosition`]'s board start.
const AFTER_BOARD: usize = std::mem::size_of::<Position>();
const _: () = assert!(std::mem::offset_of!(VariantPosition, board) == 0);

impl VariantPosition {
    /// The start position of `variant` (Chess960's is the standard one, number 518).
    pub fn new(variant: Variant) -> VariantPosition {
        VariantPosition::from_fen(variant, variant.starting_fen()).expect("the start positions are valid")
    }

    /// The variant played.
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// The board as plain data: pieces, side to move, the rooks that keep a castling right,
    /// the en passant square as recorded and the clocks (what a variant adds has its own
    /// accessors).
    pub fn to_setup(&self) -> Setup {
        self.board.to_setup()
    }

    /// The chess position, for [`Variant::Chess`] and [`Variant::Chess960`] only.
    pub fn as_chess(&self) -> Option<&Position> {
        self.variant.is_chess().then_some(&self.board)
    }

    /// The squares of `color`'s pieces of `kind`.
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.board.pieces_of(color, kind)
    }

    /// The squares of `color`'s pieces.
    pub fn color_occupancy(&self, color: Color) -> Bitboard {
        self.board.color_occupancy(color)
    }

    /// The occupied squares.
    pub fn occupancy(&self) -> Bitboard {
        self.board.occupancy()
    }

    /// The en passant square as recorded after a double push.
    pub fn en_passant(&self) -> Option<Square> {
        self.board.en_passant()
    }

    /// Halfmoves since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.board.halfmove_clock()
    }

    /// The number of the move, from 1.
    pub fn fullmove_number(&self) -> u32 {
        self.board.fullmove_number()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.board.turn()
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// The castling rights.
    pub fn castling(&self) -> CastlingRights {
        self.board.castling()
    }

    /// `color`'s crazyhouse pocket (empty in the other variants).
    pub const fn pocket(&self, color: Color) -> &Pocket {
        &self.pockets[color as usize]
    }

    /// The crazyhouse pieces that were promoted pawns (empty in the other variants).
    pub const fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// The checks `color` still has to give to win three-check (3 at the start; 3 for both
    /// sides in the other variants, which never count them).
    pub const fn remaining_checks(&self, color: Color) -> u8 {
        self.remaining_checks[color as usize]
    }

    /// Plays `mv` when it is legal here.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if !self.is_legal(mv) {
            return Err(IllegalMoveError(mv));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// The position after the legal move `mv`.
    #[inline(always)]
    pub fn make_move(&self, mv: Move) -> VariantPosition {
        let mut after = MaybeUninit::uninit();
        self.make_into(mv, &mut after);
        // SAFETY: `make_into` writes a whole position into `after`.
        unsafe { after.assume_init() }
    }

    /// Sets the board's key to 0 in the variants that do not keep it (all but
    /// [`Variant::is_chess`]): after a change of the board by its own functions, which
    /// keep it.
    fn forget_board_key(&mut self) {
        if !self.variant.is_chess() {
            self.board.forget_key();
        }
    }

    /// True when `mv` is one of [`VariantPosition::legal_moves`].
    pub fn is_legal(&self, mv: Move) -> bool {
        !mv.is_null() && self.legal_moves().contains(&mv)
    }
}

impl fmt::Debug for VariantPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VariantPosition({:?}, {:?})", self.variant, self.to_fen())
    }
}

impl fmt::Display for VariantPosition {
    /// The FEN ([`VariantPosition::to_fen`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
