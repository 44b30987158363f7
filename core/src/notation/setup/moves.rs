//! Moves on any setup, as python-chess 1.11 generates and plays them: what the pieces allow,
//! legality judged for the mover's king (the highest, when there are several), and making a
//! move with python-chess's `push`.

use super::Setup;
use crate::board::attacks::{between, bishop_attacks, king_attacks, line, pawn_attacks, rook_attacks};
use crate::board::bitboard::Bitboard;
use crate::board::castling::{back_rank, CastlingSide};
use crate::board::color::Color;
use crate::board::moves::{Move, MoveKind};
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{File, Rank, Square};
use crate::position::Position;

/// The four promotions of a pawn reaching the last rank.
const PROMOTIONS: [MoveKind; 4] =
    [MoveKind::PromoteQueen, MoveKind::PromoteRook, MoveKind::PromoteBishop, MoveKind::PromoteKnight];

impl Setup {
    /// Every move the pieces of the side to move allow, whether or not it leaves a king in
    /// check: piece moves and captures, pawn pushes (a pawn on its first rank may advance two
    /// squares too), promotions, castling with the rights of [`Setup::clean_castling_rooks`],
    /// and en passant on [`Setup::valid_en_passant`] alone. A list, not a
    /// [`MoveList`](crate::MoveList): a board of many pieces may have more than 256 moves.
    ///
    /// Castling is the king taking its rook, as everywhere; when the king that castles in
    /// standard chess is not on the e-file (a second king), the move is a plain king move onto
    /// the rook, which [`Setup::play_unchecked`] plays as castling, as python-chess does.
    ///
    /// ```
    /// use chesscore_core::Setup;
    ///
    /// assert_eq!(Setup::default().pseudo_legal_moves(false).len(), 20);
    /// ```
    pub fn pseudo_legal_moves(&self, chess960: bool) -> Vec<Move> {
        let pos = self.placement();
        let us = self.turn;
        let ours = pos.color_occupancy(us);
        let theirs = pos.color_occupancy(!us);
        let occupied = pos.occupancy();
        let pawns = pos.pieces_of(us, PieceKind::Pawn);
        let mut moves = Vec::new();
        for from in ours & !pawns {
            moves.extend((pos.attacks_from(from) & !ours).iter().map(|to| Move::new(from, to, MoveKind::Normal)));
        }
        self.castling_moves(&pos, chess960, &mut moves);
        let (forward, double_ranks, home) = match us {
            Color::White => (1, Bitboard::rank(Rank::Third) | Bitboard::rank(Rank::Fourth), Rank::Second),
            Color::Black => (-1, Bitboard::rank(Rank::Sixth) | Bitboard::rank(Rank::Fifth), Rank::Seventh),
        };
        for from in pawns {
            for to in pawn_attacks(us, from) & theirs {
                pawn_move(from, to, &mut moves);
            }
            let Some(single) = from.offset(0, forward).filter(|&sq| !occupied.contains(sq)) else { continue };
            pawn_move(from, single, &mut moves);
            if let Some(double) = single.offset(0, forward).filter(|&sq| !occupied.contains(sq)) {
                if double_ranks.contains(double) {
                    let kind = if from.rank() == home { MoveKind::DoublePush } else { MoveKind::Normal };
                    moves.push(Move::new(from, double, kind));
                }
            }
        }
        if let Some(ep) = self.valid_en_passant() {
            moves.extend((pawns & pawn_attacks(!us, ep)).iter().map(|from| Move::new(from, ep, MoveKind::EnPassant)));
        }
        moves
    }

    /// The castling moves: the lowest king of the side to move on its back rank with each
    /// clean right, when the squares between king, rook and their destinations are empty and
    /// the king passes no attacked square, its own included.
    fn castling_moves(&self, pos: &Position, chess960: bool, moves: &mut Vec<Move>) {
        let us = self.turn;
        let rank = back_rank(us);
        let Some(king) = (pos.pieces_of(us, PieceKind::King) & Bitboard::rank(rank)).first() else { return };
        let king_bb = Bitboard::from_square(king);
        let occupied = pos.occupancy();
        let attacked = |squares: Bitboard, occupied: Bitboard| {
            squares.iter().any(|sq| pos.attackers_with(sq, !us, occupied).any())
        };
        for rook in self.clean_castling_rooks(chess960) & Bitboard::rank(rank) {
            let side = if rook < king { CastlingSide::QueenSide } else { CastlingSide::KingSide };
            let king_to = Square::new(side.king_destination_file(), rank);
            let rook_to = Square::new(side.rook_destination_file(), rank);
            let rook_bb = Bitboard::from_square(rook);
            let king_path = between(king, king_to);
            let needed = king_path | between(rook, rook_to) | king_to.into() | rook_to.into();
            let blocked = (occupied ^ king_bb ^ rook_bb) & needed;
            if blocked.any()
                || attacked(king_path | king_bb, occupied ^ king_bb)
                || attacked(king_to.into(), occupied ^ king_bb ^ rook_bb ^ Bitboard::from_square(rook_to))
            {
                continue;
            }
            let kind = if chess960 || king.file() == File::E { MoveKind::Castling } else { MoveKind::Normal };
            moves.push(Move::new(king, rook, kind));
        }
    }

    /// The legal moves: those of [`Setup::pseudo_legal_moves`] after which the mover's king
    /// ([`Setup::king`]) is not attacked, found as python-chess finds them (when in check, only
    /// that king moves, or a piece other than a king captures or blocks a single checker);
    /// all of them when the mover has no king.
    ///
    /// ```
    /// use chesscore_core::Fen;
    ///
    /// // Two black kings: python-chess's board, which move generation takes as it is.
    /// let fen: Fen = "k6k/8/8/8/8/8/8/4K3 w - - 0 1".parse()?;
    /// assert_eq!(fen.setup().legal_moves(false).len(), 5);
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn legal_moves(&self, chess960: bool) -> Vec<Move> {
        let mut moves = self.pseudo_legal_moves(chess960);
        let pos = self.placement();
        let us = self.turn;
        let Some(king) = pos.pieces_of(us, PieceKind::King).last() else { return moves };
        let checkers = pos.attackers_to(king, !us);
        if checkers.any() {
            let evasions = self.evasion_filter(&pos, king, checkers);
            moves.retain(|&mv| evasions(mv));
            // The king's own moves, away from the lines of the sliders checking it.
            let sliders = checkers
                & (pos.pieces(PieceKind::Bishop) | pos.pieces(PieceKind::Rook) | pos.pieces(PieceKind::Queen));
            let behind = sliders.iter().fold(Bitboard::EMPTY, |acc, checker| acc | line(king, checker).without(checker));
            let targets = king_attacks(king) & !pos.color_occupancy(us) & !behind;
            moves.extend(targets.iter().map(|to| Move::new(king, to, MoveKind::Normal)));
        }
        let blockers = Setup::slider_blockers(&pos, king);
        moves.retain(|&mv| self.is_safe(&pos, king, blockers, mv));
        moves
    }

    /// Which pseudo-legal moves answer a check on `king`: with one checker, the moves of pieces
    /// other than kings that capture it or land between it and the king, and en passant
    /// captures of a checking pawn. The king's own moves are added apart.
    fn evasion_filter(&self, pos: &Position, king: Square, checkers: Bitboard) -> impl Fn(Move) -> bool {
        let single = checkers.first().filter(|_| !checkers.more_than_one());
        let target = single.map_or(Bitboard::EMPTY, |checker| between(king, checker).with(checker));
        let kings = pos.pieces(PieceKind::King);
        let pushed = self.valid_en_passant().map(|ep| Square::ALL[ep.index() ^ 8]);
        move |mv: Move| {
            !kings.contains(mv.from())
                && (target.contains(mv.to()) || (mv.is_en_passant() && single.is_some() && pushed == single))
        }
    }

    /// Whether `mv` leaves `king` unattacked, `blockers` being the mover's pieces that alone
    /// shield it from a slider.
    fn is_safe(&self, pos: &Position, king: Square, blockers: Bitboard, mv: Move) -> bool {
        if mv.from() == king {
            let castles = mv.from().file().index().abs_diff(mv.to().file().index()) > 1
                || pos.pieces_of(self.turn, PieceKind::Rook).contains(mv.to());
            return castles || !pos.is_attacked(mv.to(), !self.turn);
        }
        if mv.is_en_passant() {
            return self.pin(self.turn, mv.from()).contains(mv.to()) && !self.en_passant_uncovers(pos, king, mv.from());
        }
        !blockers.contains(mv.from()) || line(mv.from(), mv.to()).contains(king)
    }

    /// Whether taking en passant from `capturer` opens a rank or diagonal onto `king`, the two
    /// pawns leaving it.
    fn en_passant_uncovers(&self, pos: &Position, king: Square, capturer: Square) -> bool {
        let Some(ep) = self.en_passant else { return false };
        let pushed = Square::ALL[ep.index() ^ 8];
        let occupied = pos.occupancy().without(pushed).without(capturer).with(ep);
        let them = pos.color_occupancy(!self.turn);
        let queens = pos.pieces(PieceKind::Queen);
        let on_rank = rook_attacks(king, occupied) & Bitboard::rank(king.rank());
        (on_rank & (pos.pieces(PieceKind::Rook) | queens) & them).any()
            || (bishop_attacks(king, occupied) & (pos.pieces(PieceKind::Bishop) | queens) & them).any()
    }

    /// Plays `mv` as python-chess's `push` does on any board, legal or not: the castling rights
    /// first become [`Setup::clean_castling_rooks`]; the piece on the origin (whatever its
    /// colour) moves for the side to move and takes what stands on the destination; a king
    /// onto a piece of its own side castles; a pawn advancing two squares from its second
    /// rank sets the en passant square, and a pawn moving diagonally onto the en passant
    /// square takes what stands in front of it; the promotion replaces the piece; the rights
    /// of the squares touched and of a moving king go; the clocks advance. Only the promotion
    /// of the move's kind counts: the rest is read from the squares, and `e1g1`/`e1c1` (and
    /// `e8g8`/`e8c8`) with a king on e1 (e8) and no rook on the destination castle to the
    /// corner rook. The null move passes the turn; an empty origin square does the same.
    ///
    /// ```
    /// use chesscore_core::{Fen, Move, MoveKind, Square};
    ///
    /// let mut setup = *"4k3/8/8/8/8/8/4P3/4K2R w K - 0 1".parse::<Fen>()?.setup();
    /// setup.play_unchecked(Move::new(Square::E1, Square::G1, MoveKind::Normal), false);
    /// assert_eq!(Fen::from(setup).to_string(), "4k3/8/8/8/8/8/4P3/5RK1 b - - 1 1");
    /// # Ok::<(), chesscore_core::FenError>(())
    /// ```
    pub fn play_unchecked(&mut self, mv: Move, chess960: bool) {
        let us = self.turn;
        let (from, mut to, mut promotion) = (mv.from(), mv.to(), mv.promotion());
        if let Some(corner) = self.castling_corner(from, to) {
            (to, promotion) = (corner, None);
        }
        let touched = Bitboard::from_square(from).with(to);
        self.castling_rooks = self.clean_castling_rooks(chess960);
        let ep = self.en_passant.take();
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        let piece = if mv.is_null() { None } else { self.board[from.index()] };
        let Some(piece) = piece else {
            self.turn = !us;
            return;
        };
        let pos = self.placement();
        if (touched & (pos.pieces(PieceKind::Pawn) | pos.color_occupancy(!us))).any() {
            self.halfmove_clock = 0;
        }
        self.board[from.index()] = None;
        let captured = self.board[to.index()];
        self.castling_rooks &= !touched;
        if piece.kind == PieceKind::King {
            self.castling_rooks &= !Bitboard::rank(back_rank(us));
        } else if captured.is_some_and(|p| p.kind == PieceKind::King) && to.rank() == back_rank(!us) {
            self.castling_rooks &= !Bitboard::rank(back_rank(!us));
        }
        if piece.kind == PieceKind::Pawn {
            let diff = to as i32 - from as i32;
            if diff == 16 && from.rank() == Rank::Second {
                self.en_passant = from.offset(0, 1);
            } else if diff == -16 && from.rank() == Rank::Seventh {
                self.en_passant = from.offset(0, -1);
            } else if ep == Some(to) && matches!(diff.abs(), 7 | 9) && captured.is_none() {
                let down = if us == Color::White { -1 } else { 1 };
                if let Some(taken) = to.offset(0, down) {
                    self.board[taken.index()] = None;
                }
            }
        }
        let kind = promotion.unwrap_or(piece.kind);
        let rank = back_rank(us);
        if kind == PieceKind::King && captured.is_some_and(|p| p.color == us) {
            let side = if to.file() < from.file() { CastlingSide::QueenSide } else { CastlingSide::KingSide };
            self.board[to.index()] = None;
            self.board[Square::new(side.king_destination_file(), rank).index()] = Some(Piece::new(us, PieceKind::King));
            self.board[Square::new(side.rook_destination_file(), rank).index()] = Some(Piece::new(us, PieceKind::Rook));
        } else {
            self.board[to.index()] = Some(Piece::new(us, kind));
        }
        self.turn = !us;
    }

    /// The corner a king on e1 or e8 castles with when asked to go two files to g or c, where
    /// no rook stands (python-chess's reading of a standard castling move), else `None`.
    fn castling_corner(&self, from: Square, to: Square) -> Option<Square> {
        let is = |sq: Square, kind: PieceKind| self.board[sq.index()].is_some_and(|p| p.kind == kind);
        if from.file() != File::E || !matches!(from.rank(), Rank::First | Rank::Eighth) || !is(from, PieceKind::King) {
            return None;
        }
        if to.rank() != from.rank() || is(to, PieceKind::Rook) {
            return None;
        }
        match to.file() {
            File::G => Some(Square::new(File::H, from.rank())),
            File::C => Some(Square::new(File::A, from.rank())),
            _ => None,
        }
    }
}

/// A pawn move to `to`, as the four promotions on the first or last rank.
fn pawn_move(from: Square, to: Square, moves: &mut Vec<Move>) {
    if matches!(to.rank(), Rank::First | Rank::Eighth) {
        moves.extend(PROMOTIONS.map(|kind| Move::new(from, to, kind)));
    } else {
        moves.push(Move::new(from, to, MoveKind::Normal));
    }
}
