//! The board queries of a setup that need no valid position: kings, attackers, checkers, pins,
//! the castling rights and en passant square that can stand, and the list of what keeps the
//! setup from being a position ([`SetupStatus`]), all as python-chess 1.11 answers them.

use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign};

use super::Setup;
use crate::board::attacks::{between, bishop_attacks, line, rook_attacks};
use crate::board::bitboard::Bitboard;
use crate::board::castling::back_rank;
use crate::board::color::Color;
use crate::board::piece::PieceKind;
use crate::board::square::{File, Square};
use crate::notation::fen::validate::en_passant_is_plausible;
use crate::position::Position;

/// What keeps a [`Setup`] from being a valid position: a set of flags with the values of
/// python-chess's `STATUS_*` constants (bits 12 to 14, its racing-kings flags, are set only by
/// [`VariantPosition::status`](crate::variant::VariantPosition::status)).
/// Empty means valid.
///
/// ```
/// use chesscore_core::{Setup, SetupStatus};
///
/// let status = Setup::empty().status(false);
/// assert_eq!(status, SetupStatus::EMPTY | SetupStatus::NO_WHITE_KING | SetupStatus::NO_BLACK_KING);
/// assert_eq!(status.bits(), 0b1000_0000_0011);
/// assert!(Setup::default().status(false).is_empty());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SetupStatus(u32);

impl SetupStatus {
    /// No flag: the setup is a valid position.
    pub const VALID: SetupStatus = SetupStatus(0);
    /// White has no king.
    pub const NO_WHITE_KING: SetupStatus = SetupStatus(1 << 0);
    /// Black has no king.
    pub const NO_BLACK_KING: SetupStatus = SetupStatus(1 << 1);
    /// More than two kings on the board.
    pub const TOO_MANY_KINGS: SetupStatus = SetupStatus(1 << 2);
    /// More than 8 white pawns.
    pub const TOO_MANY_WHITE_PAWNS: SetupStatus = SetupStatus(1 << 3);
    /// More than 8 black pawns.
    pub const TOO_MANY_BLACK_PAWNS: SetupStatus = SetupStatus(1 << 4);
    /// A pawn on the first or last rank.
    pub const PAWNS_ON_BACKRANK: SetupStatus = SetupStatus(1 << 5);
    /// More than 16 white pieces.
    pub const TOO_MANY_WHITE_PIECES: SetupStatus = SetupStatus(1 << 6);
    /// More than 16 black pieces.
    pub const TOO_MANY_BLACK_PIECES: SetupStatus = SetupStatus(1 << 7);
    /// Castling rights besides those of [`Setup::clean_castling_rooks`].
    pub const BAD_CASTLING_RIGHTS: SetupStatus = SetupStatus(1 << 8);
    /// An en passant square that [`Setup::valid_en_passant`] does not keep.
    pub const INVALID_EP_SQUARE: SetupStatus = SetupStatus(1 << 9);
    /// The side not to move is in check.
    pub const OPPOSITE_CHECK: SetupStatus = SetupStatus(1 << 10);
    /// No piece on the board.
    pub const EMPTY: SetupStatus = SetupStatus(1 << 11);
    /// Racing kings: a king is in check.
    pub const RACE_CHECK: SetupStatus = SetupStatus(1 << 12);
    /// Racing kings: both kings stand on the eighth rank with Black to move (the race is over).
    pub const RACE_OVER: SetupStatus = SetupStatus(1 << 13);
    /// Racing kings: a pawn, or more pieces of a kind than a side starts with.
    pub const RACE_MATERIAL: SetupStatus = SetupStatus(1 << 14);
    /// More than two pieces give check.
    pub const TOO_MANY_CHECKERS: SetupStatus = SetupStatus(1 << 15);
    /// A check no single move could have given.
    pub const IMPOSSIBLE_CHECK: SetupStatus = SetupStatus(1 << 16);

    /// The flags with their names, in bit order (for `Debug`).
    const NAMED: [(SetupStatus, &'static str); 17] = [
        (Self::NO_WHITE_KING, "NO_WHITE_KING"),
        (Self::NO_BLACK_KING, "NO_BLACK_KING"),
        (Self::TOO_MANY_KINGS, "TOO_MANY_KINGS"),
        (Self::TOO_MANY_WHITE_PAWNS, "TOO_MANY_WHITE_PAWNS"),
        (Self::TOO_MANY_BLACK_PAWNS, "TOO_MANY_BLACK_PAWNS"),
        (Self::PAWNS_ON_BACKRANK, "PAWNS_ON_BACKRANK"),
        (Self::TOO_MANY_WHITE_PIECES, "TOO_MANY_WHITE_PIECES"),
        (Self::TOO_MANY_BLACK_PIECES, "TOO_MANY_BLACK_PIECES"),
        (Self::BAD_CASTLING_RIGHTS, "BAD_CASTLING_RIGHTS"),
        (Self::INVALID_EP_SQUARE, "INVALID_EP_SQUARE"),
        (Self::OPPOSITE_CHECK, "OPPOSITE_CHECK"),
        (Self::EMPTY, "EMPTY"),
        (Self::RACE_CHECK, "RACE_CHECK"),
        (Self::RACE_OVER, "RACE_OVER"),
        (Self::RACE_MATERIAL, "RACE_MATERIAL"),
        (Self::TOO_MANY_CHECKERS, "TOO_MANY_CHECKERS"),
        (Self::IMPOSSIBLE_CHECK, "IMPOSSIBLE_CHECK"),
    ];

    /// The flags as python-chess's integer.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// True when no flag is set (a valid position).
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// These flags less those of `other`.
    pub const fn without(self, other: SetupStatus) -> SetupStatus {
        SetupStatus(self.0 & !other.0)
    }

    /// True when every flag of `other` is set here.
    pub const fn contains(self, other: SetupStatus) -> bool {
        self.0 & other.0 == other.0
    }

    fn set_if(&mut self, flag: SetupStatus, condition: bool) {
        if condition {
            self.0 |= flag.0;
        }
    }
}

impl BitOr for SetupStatus {
    type Output = SetupStatus;
    fn bitor(self, rhs: SetupStatus) -> SetupStatus {
        SetupStatus(self.0 | rhs.0)
    }
}

impl BitOrAssign for SetupStatus {
    fn bitor_assign(&mut self, rhs: SetupStatus) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for SetupStatus {
    type Output = SetupStatus;
    fn bitand(self, rhs: SetupStatus) -> SetupStatus {
        SetupStatus(self.0 & rhs.0)
    }
}

/// The names of the flags set, joined by `|` (`VALID` when none).
impl fmt::Debug for SetupStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names = Self::NAMED.iter().filter(|(flag, _)| self.contains(*flag)).map(|(_, name)| *name);
        match names.next() {
            None => f.write_str("VALID"),
            Some(first) => {
                f.write_str(first)?;
                names.try_for_each(|name| write!(f, "|{name}"))
            }
        }
    }
}

impl Setup {
    /// The pieces and side to move as a position value, for the board queries of the position
    /// layer (attackers, attacks), which hold on any placement. Never handed out: it need not
    /// be a valid position.
    pub(super) fn placement(&self) -> Position {
        let mut pos = Position::empty(self.turn);
        for sq in Square::ALL {
            if let Some(piece) = self.board[sq.index()] {
                pos.put(sq, piece);
            }
        }
        pos
    }

    /// The occupied squares.
    pub fn occupancy(&self) -> Bitboard {
        self.board.iter().zip(Square::ALL).filter(|(piece, _)| piece.is_some()).map(|(_, sq)| sq).collect()
    }

    /// The king of `color`: the highest of that colour's kings (python-chess's choice when
    /// there are several), `None` when there is none.
    ///
    /// ```
    /// use chesscore_core::{Color, Setup, Square};
    ///
    /// assert_eq!(Setup::default().king(Color::Black), Some(Square::E8));
    /// assert_eq!(Setup::empty().king(Color::White), None);
    /// ```
    pub fn king(&self, color: Color) -> Option<Square> {
        self.placement().pieces_of(color, PieceKind::King).last()
    }

    /// The pieces of `color` attacking `sq` were the occupied squares `occupied` (the pieces
    /// themselves stay where they are: `occupied` only decides what blocks a slider).
    pub fn attackers_to(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        self.placement().attackers_with(sq, color, occupied)
    }

    /// The squares the piece on `sq` attacks (empty for an empty square).
    pub fn attacks(&self, sq: Square) -> Bitboard {
        self.placement().attacks_from(sq)
    }

    /// The pieces checking the king of the side to move ([`Setup::king`]); none without one.
    ///
    /// ```
    /// use chesscore_core::{Fen, Square};
    ///
    /// let fen: Fen = "4k3/8/8/8/8/3n4/8/R3K2q w - - 0 1".parse()?;
    /// assert_eq!(fen.setup().checkers().iter().collect::<Vec<_>>(), [Square::H1, Square::D3]);
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn checkers(&self) -> Bitboard {
        let pos = self.placement();
        match pos.pieces_of(self.turn, PieceKind::King).last() {
            Some(king) => pos.attackers_to(king, !self.turn),
            None => Bitboard::EMPTY,
        }
    }

    /// When the piece on `sq` is the only one between the king of `color` and an enemy slider
    /// that moves along their line, that whole line, on which alone it may move; else every
    /// square (also without a king).
    pub fn pin(&self, color: Color, sq: Square) -> Bitboard {
        let pos = self.placement();
        let Some(king) = pos.pieces_of(color, PieceKind::King).last() else { return Bitboard::FULL };
        let ray = line(king, sq);
        if ray.is_empty() {
            return Bitboard::FULL;
        }
        let queens = pos.pieces(PieceKind::Queen);
        let sliders = if king.file() == sq.file() || king.rank() == sq.rank() {
            pos.pieces(PieceKind::Rook) | queens
        } else {
            pos.pieces(PieceKind::Bishop) | queens
        };
        let blockers = pos.occupancy().with(sq);
        let pinner = (ray & sliders & pos.color_occupancy(!color))
            .iter()
            .find(|&sniper| between(sniper, king) & blockers == Bitboard::from_square(sq));
        pinner.map_or(Bitboard::FULL, |sniper| line(king, sniper))
    }

    /// The castling rights that can stand on this board: a rook of the right colour on its
    /// back rank with its king there too; in standard chess the king on the e-file and the rooks
    /// in the corners, in Chess960 the outermost right on each side of the king.
    ///
    /// ```
    /// use chesscore_core::{Bitboard, Fen, Square};
    ///
    /// let fen: Fen = "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1".parse()?;
    /// let clean = fen.setup().clean_castling_rooks(false);
    /// assert_eq!(clean, Bitboard::from_square(Square::A8) | Bitboard::from_square(Square::H8));
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn clean_castling_rooks(&self, chess960: bool) -> Bitboard {
        let pos = self.placement();
        let mut clean = Bitboard::EMPTY;
        for color in Color::ALL {
            let rank = Bitboard::rank(back_rank(color));
            let rooks = self.castling_rooks & pos.pieces_of(color, PieceKind::Rook) & rank;
            let kings = pos.pieces_of(color, PieceKind::King) & rank;
            if !chess960 {
                let corners = Bitboard::from_square(Square::new(File::A, back_rank(color)))
                    | Bitboard::from_square(Square::new(File::H, back_rank(color)));
                if kings.contains(Square::new(File::E, back_rank(color))) {
                    clean |= rooks & corners;
                }
                continue;
            }
            // One right per side of the king: the outermost rook of each.
            let (Some(king), Some(a_side), Some(h_side)) = (kings.last(), rooks.first(), rooks.last()) else {
                continue;
            };
            if a_side <= king {
                clean.set(a_side);
            }
            if h_side >= king {
                clean.set(h_side);
            }
        }
        clean
    }

    /// The en passant square when it can stand: on the sixth rank (third for Black to move),
    /// empty, with the square behind it empty and an enemy pawn in front of it, as after a
    /// double push; else `None`.
    pub fn valid_en_passant(&self) -> Option<Square> {
        // python-chess reads square 0 (a1) as no square; it is never valid anyway.
        self.en_passant.filter(|&ep| en_passant_is_plausible(&self.placement(), ep))
    }

    /// What keeps this setup from being a valid position, as python-chess's `Board.status()`
    /// computes it (with `chess960` for the castling rights).
    ///
    /// ```
    /// use chesscore_core::{Fen, SetupStatus};
    ///
    /// let fen: Fen = "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1".parse()?;
    /// assert_eq!(fen.setup().status(false), SetupStatus::BAD_CASTLING_RIGHTS);
    /// let fen: Fen = "4k3/8/8/8/8/5n2/8/R3K1r1 b - - 0 1".parse()?;
    /// assert_eq!(fen.setup().status(false), SetupStatus::OPPOSITE_CHECK);
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn status(&self, chess960: bool) -> SetupStatus {
        let pos = self.placement();
        let mut status = SetupStatus::VALID;
        let occupied = pos.occupancy();
        let kings = pos.pieces(PieceKind::King);
        status.set_if(SetupStatus::EMPTY, occupied.is_empty());
        status.set_if(SetupStatus::NO_WHITE_KING, pos.pieces_of(Color::White, PieceKind::King).is_empty());
        status.set_if(SetupStatus::NO_BLACK_KING, pos.pieces_of(Color::Black, PieceKind::King).is_empty());
        status.set_if(SetupStatus::TOO_MANY_KINGS, kings.count() > 2);
        status.set_if(SetupStatus::TOO_MANY_WHITE_PIECES, pos.color_occupancy(Color::White).count() > 16);
        status.set_if(SetupStatus::TOO_MANY_BLACK_PIECES, pos.color_occupancy(Color::Black).count() > 16);
        status.set_if(SetupStatus::TOO_MANY_WHITE_PAWNS, pos.pieces_of(Color::White, PieceKind::Pawn).count() > 8);
        status.set_if(SetupStatus::TOO_MANY_BLACK_PAWNS, pos.pieces_of(Color::Black, PieceKind::Pawn).count() > 8);
        status.set_if(SetupStatus::PAWNS_ON_BACKRANK, (pos.pieces(PieceKind::Pawn) & Bitboard::BACK_RANKS).any());
        status.set_if(SetupStatus::BAD_CASTLING_RIGHTS, self.castling_rooks != self.clean_castling_rooks(chess960));
        let valid_ep = self.valid_en_passant();
        status.set_if(SetupStatus::INVALID_EP_SQUARE, self.en_passant != valid_ep);

        let turn = self.turn;
        let their_king = pos.pieces_of(!turn, PieceKind::King).last();
        status.set_if(SetupStatus::OPPOSITE_CHECK, their_king.is_some_and(|king| pos.is_attacked(king, turn)));

        let checkers = self.checkers();
        if checkers.any() {
            status.set_if(SetupStatus::TOO_MANY_CHECKERS, checkers.count() > 2);
            let our_kings = pos.pieces_of(turn, PieceKind::King);
            let impossible = match valid_ep {
                // The double push just played gave the check, or uncovered it.
                Some(ep) => {
                    let pushed = Square::ALL[ep.index() ^ 8];
                    let origin = Square::ALL[ep.index() ^ 24];
                    let before = occupied.without(pushed).with(origin);
                    checkers.more_than_one()
                        || (checkers.last() != Some(pushed)
                            && our_kings.iter().any(|king| pos.attackers_with(king, !turn, before).any()))
                }
                // Two checkers on one line through the king cannot come from one move.
                None => {
                    let aligned = match (checkers.first(), checkers.last()) {
                        (Some(first), Some(last)) => (line(first, last) & our_kings).any(),
                        _ => false,
                    };
                    checkers.count() > 2 || (checkers.count() == 2 && aligned)
                }
            };
            status.set_if(SetupStatus::IMPOSSIBLE_CHECK, impossible);
        }
        status
    }

    /// The side to move's pieces that stand alone between its king `king` and an enemy slider
    /// moving along their line.
    pub(super) fn slider_blockers(pos: &Position, king: Square) -> Bitboard {
        let us = pos.turn();
        let queens = pos.pieces(PieceKind::Queen);
        let empty = Bitboard::EMPTY;
        let snipers = ((rook_attacks(king, empty) & (pos.pieces(PieceKind::Rook) | queens))
            | (bishop_attacks(king, empty) & (pos.pieces(PieceKind::Bishop) | queens)))
            & pos.color_occupancy(!us);
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = between(king, sniper) & pos.occupancy();
            if between.count() == 1 {
                blockers |= between;
            }
        }
        blockers & pos.color_occupancy(us)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::{Fen, FenOptions};

    fn status(fen: &str, chess960: bool) -> SetupStatus {
        fen.parse::<Fen>().unwrap().setup().status(chess960)
    }

    #[test]
    fn each_flag() {
        use SetupStatus as S;
        let cases = [
            ("8/8/8/8/8/8/8/8 w - - 0 1", S::EMPTY | S::NO_WHITE_KING | S::NO_BLACK_KING),
            ("4k3/8/8/8/8/8/8/8 w - - 0 1", S::NO_WHITE_KING),
            ("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", S::TOO_MANY_KINGS),
            ("4k3/8/8/8/8/PPPPPPPP/P7/4K3 w - - 0 1", S::TOO_MANY_WHITE_PAWNS),
            ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", S::TOO_MANY_BLACK_PAWNS),
            ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", S::PAWNS_ON_BACKRANK),
            ("4k3/8/8/8/NNNNNNNN/NNNNNNNN/N7/4K3 w - - 0 1", S::TOO_MANY_WHITE_PIECES),
            ("4k3/nnnnnnnn/nnnnnnnn/n7/8/8/8/4K3 w - - 0 1", S::TOO_MANY_BLACK_PIECES),
            ("4k3/8/8/8/8/8/8/4K3 w Q - 0 1", S::BAD_CASTLING_RIGHTS),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", S::INVALID_EP_SQUARE),
            ("4k3/8/8/8/8/8/8/4K2R b - - 0 1", S::VALID),
            ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", S::OPPOSITE_CHECK),
            ("4k3/8/8/8/1b6/3n4/8/R3K2q w - - 0 1", S::TOO_MANY_CHECKERS | S::IMPOSSIBLE_CHECK),
            ("4k3/8/8/8/8/8/8/r3K2r w - - 0 1", S::IMPOSSIBLE_CHECK),
            // Two leapers checking: python-chess lets it pass (the strict reader does not).
            ("4k3/8/8/8/8/3n4/5p2/4K3 w - - 0 1", S::VALID),
            // The double push uncovered the check: possible.
            ("4k3/8/8/8/3Pp3/8/8/7K b - d3 0 1", S::VALID),
        ];
        for (fen, expected) in cases {
            assert_eq!(status(fen, false), expected, "{fen}");
            let valid = Position::from_setup(*fen.parse::<Fen>().unwrap().setup(), &FenOptions::default()).is_ok();
            let leapers = fen.starts_with("4k3/8/8/8/8/3n4/5p2");
            assert_eq!(valid, expected.is_empty() && !leapers, "{fen}");
        }
        assert_eq!(format!("{:?}", status("8/8/8/8/8/8/8/4K3 w - - 0 1", false)), "NO_BLACK_KING");
        assert_eq!(format!("{:?}", SetupStatus::VALID), "VALID");
    }

    #[test]
    fn chess960_castling_keeps_the_outermost_right_on_each_side() {
        let mut setup = *"1r2k1rr/8/8/8/8/8/8/RR2K2R w - - 0 1".parse::<Fen>().unwrap().setup();
        setup.castling_rooks =
            [Square::A1, Square::B1, Square::H1, Square::B8, Square::G8, Square::H8].into_iter().collect();
        let clean = setup.clean_castling_rooks(true);
        let expected: Bitboard = [Square::A1, Square::H1, Square::B8, Square::H8].into_iter().collect();
        assert_eq!(clean, expected);
        let corners: Bitboard = [Square::A1, Square::H1, Square::H8].into_iter().collect();
        assert_eq!(setup.clean_castling_rooks(false), corners);
    }

    #[test]
    fn pins_and_kings() {
        let setup = *"k6k/8/8/8/3b4/8/1P6/K7 w - - 0 1".parse::<Fen>().unwrap().setup();
        assert_eq!(setup.king(Color::Black), Some(Square::H8));
        assert_eq!(setup.pin(Color::White, Square::B2), line(Square::A1, Square::D4));
        assert_eq!(setup.pin(Color::Black, Square::B2), Bitboard::FULL);
        assert_eq!(setup.pin(Color::White, Square::A1), Bitboard::FULL);
        assert_eq!(setup.attacks(Square::B2), Bitboard::from_square(Square::A3) | Square::C3.into());
        assert_eq!(setup.attackers_to(Square::C3, Color::Black, setup.occupancy()), Bitboard::from_square(Square::D4));
    }
}
