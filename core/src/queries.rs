//! Board queries beside move generation: the castling rooks, what one piece attacks, the line a
//! pin holds a piece on, and the colour-swapped mirror of a position (the questions
//! python-chess's `Board` answers with `castling_rights`, `attacks`, `pin` and `mirror`).

use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::Square;
use crate::fen::FenOptions;
use crate::position::Position;
use crate::setup::Setup;

impl Position {
    /// The squares of the rooks that keep a castling right (White's on rank 1, Black's on rank
    /// 8): the rights with the rooks they castle with, as Chess960 needs them.
    ///
    /// ```
    /// use chesscore_core::{Bitboard, Position, Square};
    ///
    /// let corners = [Square::A1, Square::H1, Square::A8, Square::H8];
    /// assert_eq!(Position::startpos().castling_rooks().iter().collect::<Vec<_>>(), corners);
    /// ```
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling().rook_squares()
    }

    /// The squares the piece on `sq` attacks (its own pieces included, a slider stopping at the
    /// first piece in its way); empty when `sq` is empty. A pawn attacks its two diagonals.
    ///
    /// ```
    /// use chesscore_core::{Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.attacks_from(Square::G1).iter().collect::<Vec<_>>(), [Square::E2, Square::F3, Square::H3]);
    /// assert!(pos.attacks_from(Square::E4).is_empty());
    /// ```
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        let Some(piece) = self.piece_at(sq) else { return Bitboard::EMPTY };
        let occupied = self.occupancy();
        match piece.kind {
            PieceKind::Pawn => pawn_attacks(piece.color, sq),
            PieceKind::Knight => knight_attacks(sq),
            PieceKind::Bishop => bishop_attacks(sq, occupied),
            PieceKind::Rook => rook_attacks(sq, occupied),
            PieceKind::Queen => queen_attacks(sq, occupied),
            PieceKind::King => king_attacks(sq),
        }
    }

    /// When the piece of `color` on `sq` is pinned to its king, the whole line (edge to edge)
    /// through the king and the pinned piece, along which alone it may move; else `None`.
    ///
    /// ```
    /// use chesscore_core::{Color, Fen, FenOptions, Square};
    ///
    /// let pos = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1".parse::<Fen>()?.validate(&FenOptions::default())?.0;
    /// assert_eq!(pos.pin_line(Color::White, Square::E2).map(|line| line.count()), Some(8));
    /// assert_eq!(pos.pin_line(Color::Black, Square::E7), None);
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn pin_line(&self, color: Color, sq: Square) -> Option<Bitboard> {
        self.pinned_of(color).contains(sq).then(|| line(self.king_square(color), sq))
    }

    /// The position with the board flipped top to bottom and the colours swapped: White's
    /// pieces become Black's on the mirrored squares, the other side moves, castling rights and
    /// the en passant square follow; the clocks stay.
    ///
    /// ```
    /// use chesscore_core::{Fen, FenOptions, Position};
    ///
    /// let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    /// let pos = after_e4.parse::<Fen>()?.validate(&FenOptions::default())?.0;
    /// let mirrored = "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1";
    /// assert_eq!(pos.mirror(), mirrored.parse::<Fen>()?.validate(&FenOptions::default())?.0);
    /// assert_eq!(pos.mirror().mirror(), pos);
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn mirror(&self) -> Position {
        let setup = self.to_setup();
        let mut mirrored = Setup {
            board: [None; 64],
            turn: !setup.turn,
            castling_rooks: Bitboard(setup.castling_rooks.0.swap_bytes()),
            en_passant: setup.en_passant.map(Square::flip_vertical),
            ..setup
        };
        for sq in Square::ALL {
            mirrored.board[sq.flip_vertical().index()] =
                setup.board[sq.index()].map(|piece| Piece::new(!piece.color, piece.kind));
        }
        // The mirror of a position is one just as valid, impossible checks included.
        let options =
            FenOptions { chess960: self.is_chess960(), allow_impossible_check: true, ..FenOptions::default() };
        Position::from_setup(mirrored, &options).expect("the mirror of a valid position is valid").0
    }
}
