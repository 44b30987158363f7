//! The position: piece placement, side to move, castling rights, en passant square, clocks and
//! Zobrist key, in 96 bytes of plain data; make-move and the board queries here, and in the
//! submodules what is built on them: attackers, checkers and pins (`attacks`), legal move
//! generation ([`movegen`]), perft, game-ending conditions of the position alone ([`status`]), a
//! search's questions ([`tactics`]) and Chess960 start positions. Notation is the layer above; the position knows nothing of text.

mod attacks;
mod chess960;
mod edit;
pub(crate) mod movegen;
pub(crate) mod perft;
mod status;
pub(crate) mod tactics;

use std::fmt;

use crate::board::attacks::pawn_attacks;
use crate::board::bitboard::Bitboard;
use crate::board::castling::{back_rank, CastlingRights, CastlingSide};
use crate::board::color::Color;
use crate::board::moves::{Move, MoveKind};
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{Rank, Square};
use crate::board::zobrist;

/// Which en passant square to report, write or hash.
///
/// FEN records the square after every double push; Polyglot hashing and X-FEN count it only
/// when a pawn of the side to move could capture (pseudo-legal); repetition and python-chess's
/// FEN output count it only when the capture is legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EnPassantMode {
    /// The square as recorded: set after every double push.
    AsRecorded,
    /// Only when a pawn of the side to move stands beside the pawn that double-pushed.
    PseudoLegal,
    /// Only when an en passant capture is legal.
    #[default]
    Legal,
}

/// A chess position. `Copy`, 128 bytes, no heap data.
///
/// Besides a bitboard per piece kind and colour it keeps the piece (colour and kind) of every
/// square in four bits, so that making a move finds the moving and captured pieces with one
/// load each instead of a chain of unpredictable tests, and their Zobrist keys with one more.
/// Measured, that is worth the 32 bytes it adds; 128 bytes is also the largest size the
/// compiler still copies inline.
///
/// Every `Position` that exists is valid: each side has one king, the side not to move is not
/// in check, and castling rights and the en passant square are consistent with the board. The
/// constructors ([`Position::startpos`], [`Position::from_fen`], ...) check this; only
/// [`Position::play_unchecked`] with an illegal move can break it.
///
/// `Position` holds the chess: the board, the rules, move generation and game-ending
/// conditions. Move notation lives in its own types ([`Uci`](crate::Uci), [`San`](crate::San),
/// [`MovesLine`](crate::MovesLine)), as do board drawings ([`Diagram`](crate::Diagram)) and
/// games with history ([`Game`](crate::Game)).
///
/// # Examples
///
/// ```
/// use chesscore_core::{Color, PieceKind, Position, Square, Uci};
///
/// let mut pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 20);
/// for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     let mv = uci.parse::<Uci>()?.to_move(&pos)?;
///     pos.play(mv)?;
/// }
/// assert!(pos.is_checkmate());
/// assert_eq!(pos.turn(), Color::White);
/// assert_eq!(pos.piece_at(Square::H4).map(|p| p.kind), Some(PieceKind::Queen));
/// assert_eq!(pos.checkers().count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The pieces of each kind (by [`PieceKind::index`]), then of each colour (from
    /// [`COLORS`]): one array of eight, so that a piece code's low three bits index it without
    /// a bounds check (an empty square's code reaches a colour board, changed by an empty mask).
    boards: [Bitboard; 8],
    /// The piece code of every square in 4-bit fields (16 squares per word): colour index << 3
    /// | kind index, [`NO_PIECE`] for an empty square.
    codes: [u64; 4],
    key: u64,
    /// Squares whose king or rook still carries a castling right: a move touching one of them
    /// updates the rights.
    castling_squares: Bitboard,
    castling: CastlingRights,
    ep: Option<Square>,
    turn: Color,
    chess960: bool,
    halfmove_clock: u32,
    fullmove_number: u32,
}

/// Index in `boards` of the first colour's bitboard.
pub(crate) const COLORS: usize = 6;
/// The `codes` entry of an empty square: no piece has it, and its Zobrist row is zero.
const NO_PIECE: u64 = 6;
const EMPTY_CODES: u64 = 0x6666_6666_6666_6666;

/// The 4-bit code of a piece of `color` and kind index `kind`.
#[inline(always)]
const fn piece_code(color: usize, kind: usize) -> u64 {
    (color << 3 | kind) as u64
}

/// Error returned by [`Position::play`] for a move that is not legal in the position. The
/// message names the move in standard UCI, as no position is at hand to choose the notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {} in this position", .0.coordinates(false))]
pub struct IllegalMoveError(pub Move);

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        let mut pos = Position::empty(Color::White);
        let back = [
            PieceKind::Rook,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Queen,
            PieceKind::King,
            PieceKind::Bishop,
            PieceKind::Knight,
            PieceKind::Rook,
        ];
        for (file, kind) in back.into_iter().enumerate() {
            pos.put(Square::ALL[file], Piece::new(Color::White, kind));
            pos.put(Square::ALL[8 + file], Piece::new(Color::White, PieceKind::Pawn));
            pos.put(Square::ALL[48 + file], Piece::new(Color::Black, PieceKind::Pawn));
            pos.put(Square::ALL[56 + file], Piece::new(Color::Black, kind));
        }
        pos.castling = CastlingRights::STANDARD;
        pos.finish_setup();
        pos
    }

    /// A board with no pieces; only for building positions inside the crate.
    pub(crate) fn empty(turn: Color) -> Position {
        Position {
            boards: [Bitboard::EMPTY; 8],
            codes: [EMPTY_CODES; 4],
            key: 0,
            castling_squares: Bitboard::EMPTY,
            castling: CastlingRights::NONE,
            ep: None,
            turn,
            chess960: false,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// Places a piece on an empty square (setup only; the key is computed by `finish_setup`).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.put_code(sq, piece.kind.index(), piece.color.index());
    }

    /// [`Position::put`] with the piece as its kind and colour indexes (`kind < 6`,
    /// `color < 2`), for decoders that have them.
    #[inline(always)]
    pub(crate) fn put_code(&mut self, sq: Square, kind: usize, color: usize) {
        let bb = Bitboard::from_square(sq);
        self.boards[kind] |= bb;
        self.boards[COLORS + color] |= bb;
        // The square is empty: its code field holds NO_PIECE.
        let i = sq as usize;
        self.codes[i >> 4] ^= (NO_PIECE ^ piece_code(color, kind)) << ((i & 15) * 4);
    }

    /// The piece code on `sq`, or [`NO_PIECE`].
    #[inline(always)]
    pub(crate) fn code_at(&self, sq: Square) -> u64 {
        let i = sq as usize;
        (self.codes[i >> 4] >> ((i & 15) * 4)) & 15
    }

    #[inline(always)]
    fn set_code(&mut self, sq: Square, code: u64) {
        let i = sq as usize;
        let shift = (i & 15) * 4;
        self.codes[i >> 4] = (self.codes[i >> 4] & !(15 << shift)) | code << shift;
    }

    pub(crate) fn set_castling(&mut self, castling: CastlingRights) {
        self.castling = castling;
    }

    pub(crate) fn set_en_passant(&mut self, ep: Option<Square>) {
        self.ep = ep;
    }

    pub(crate) fn set_clocks(&mut self, halfmove_clock: u32, fullmove_number: u32) {
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number;
    }

    pub(crate) fn set_turn(&mut self, turn: Color) {
        self.turn = turn;
    }

    pub(crate) fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960;
    }

    /// Derives the cached fields (castling squares, Zobrist key) after a setup.
    pub(crate) fn finish_setup(&mut self) {
        self.castling_squares = self.compute_castling_squares();
        self.key = self.compute_zobrist();
    }

    /// Rook squares carrying a right, and the king squares of the sides that have one.
    #[inline(always)]
    fn compute_castling_squares(&self) -> Bitboard {
        let mut squares = self.castling.rook_squares();
        for color in Color::ALL {
            if self.castling.has_color(color) {
                squares |= self.pieces_of(color, PieceKind::King);
            }
        }
        squares
    }

    // ----- queries -----

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let code = self.code_at(sq);
        let kind = PieceKind::from_index((code & 7) as usize)?;
        let color = if code & 8 == 0 { Color::White } else { Color::Black };
        Some(Piece::new(color, kind))
    }

    /// The kind of the piece on `sq`, if any.
    #[inline(always)]
    pub fn kind_at(&self, sq: Square) -> Option<PieceKind> {
        PieceKind::from_index((self.code_at(sq) & 7) as usize)
    }

    /// Pieces of `kind`, both colours.
    #[inline(always)]
    pub fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.boards[kind.index()]
    }

    /// Pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.boards[kind.index()] & self.boards[COLORS + color.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupancy(&self) -> Bitboard {
        self.boards[COLORS] | self.boards[COLORS + 1]
    }

    /// Squares occupied by `color`.
    #[inline(always)]
    pub fn color_occupancy(&self, color: Color) -> Bitboard {
        self.boards[COLORS + color.index()]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces_of(color, PieceKind::King).lowest()
    }

    /// Number of pieces on the board, kings and pawns included.
    #[inline]
    pub fn piece_count(&self) -> u32 {
        self.occupancy().count()
    }

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The en passant square as recorded (set after every double push).
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// The en passant square under the given mode.
    pub fn en_passant_square(&self, mode: EnPassantMode) -> Option<Square> {
        let ep = self.ep?;
        let keep = match mode {
            EnPassantMode::AsRecorded => true,
            EnPassantMode::PseudoLegal => self.en_passant_candidates(ep).any(),
            EnPassantMode::Legal => {
                self.en_passant_candidates(ep).into_iter().any(|from| self.en_passant_is_legal(from, ep))
            }
        };
        keep.then_some(ep)
    }

    /// FIDE's "same position": the same pieces on the same squares, side to move, castling
    /// rights and en passant square where the capture is legal; the clocks do not count.
    pub(crate) fn is_same_position(&self, other: &Position) -> bool {
        self.turn == other.turn
            && self.castling == other.castling
            && Color::ALL
                .into_iter()
                .all(|c| PieceKind::ALL.into_iter().all(|k| self.pieces_of(c, k) == other.pieces_of(c, k)))
            && self.en_passant_square(EnPassantMode::Legal) == other.en_passant_square(EnPassantMode::Legal)
    }

    /// Pawns of the side to move that attack the en passant square.
    #[inline(always)]
    pub(crate) fn en_passant_candidates(&self, ep: Square) -> Bitboard {
        pawn_attacks(!self.turn, ep) & self.pieces_of(self.turn, PieceKind::Pawn)
    }

    /// Half-moves since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and incremented after Black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The Polyglot Zobrist key.
    #[inline(always)]
    pub fn zobrist(&self) -> u64 {
        self.key
    }

    /// True when the position follows Chess960 conventions (castling notation in FEN and UCI).
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Sets the key to 0, for a board whose key is computed when asked.
    pub(crate) fn forget_key(&mut self) {
        self.key = 0;
    }

    /// Computes the Polyglot key from scratch (the incremental key must always equal it).
    pub fn compute_zobrist(&self) -> u64 {
        self.zobrist_with(zobrist::polyglot_random())
    }

    /// The key Polyglot's scheme gives with `keys` in place of its constants, laid out as
    /// [`zobrist::polyglot_random`] (python-chess's `ZobristHasher`).
    pub fn zobrist_with(&self, keys: &[u64; 781]) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            let white = usize::from(color == Color::White);
            for kind in PieceKind::ALL {
                for sq in self.pieces_of(color, kind) {
                    key ^= keys[64 * (2 * kind.index() + white) + sq.index()];
                }
            }
        }
        for bit in 0..4 {
            if self.castling.bits() & (1 << bit) != 0 {
                key ^= keys[768 + bit];
            }
        }
        if let Some(ep) = self.en_passant_square(EnPassantMode::PseudoLegal) {
            key ^= keys[772 + ep.file().index()];
        }
        if self.turn == Color::White {
            key ^= keys[780];
        }
        key
    }

    // ----- making moves -----

    /// Plays `mv` if it is legal; otherwise returns an error and leaves the position unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::{Move, MoveKind, Position, Square};
    ///
    /// let mut pos = Position::startpos();
    /// let e4 = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
    /// pos.play(e4)?;
    /// assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// assert!(pos.play(e4).is_err()); // now it is Black's move
    /// # Ok::<(), chesscore_core::IllegalMoveError>(())
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(IllegalMoveError(mv))
        }
    }

    /// The position after `mv`, which must be legal (as returned by [`Position::legal_moves`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::Position;
    ///
    /// // Copy-make over every legal move: the position itself does not change.
    /// let pos = Position::startpos();
    /// let replies: usize = pos.legal_moves().iter().map(|&mv| pos.make_move(mv).legal_moves().len()).sum();
    /// assert_eq!(replies, 400);
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn make_move(&self, mv: Move) -> Position {
        let mut next = *self;
        next.play_unchecked(mv);
        next
    }

    /// Passes the turn (a null move, as PGN writes `--`): the en passant square is cleared, the
    /// halfmove clock advances. Not allowed while in check; returns false then.
    pub fn play_null(&mut self) -> bool {
        if self.in_check() {
            return false;
        }
        self.key ^= self.hashed_en_passant_key();
        self.ep = None;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = !self.turn;
        self.key ^= zobrist::white_to_move_key();
        true
    }

    /// Flips one piece in the bitboards (adding and removing are the same XOR) and returns the
    /// change of the key. Key changes are gathered in a local and stored once per move: a chain
    /// of read-modify-writes of the key in memory would serialise the move.
    #[inline(always)]
    #[must_use]
    fn toggle(&mut self, color: Color, kind: PieceKind, sq: Square) -> u64 {
        let bb = Bitboard::from_square(sq);
        self.boards[kind.index()] ^= bb;
        self.boards[COLORS + color.index()] ^= bb;
        zobrist::piece_key_parts(color, kind, sq)
    }

    #[inline(always)]
    #[must_use]
    fn add(&mut self, color: Color, kind: PieceKind, sq: Square) -> u64 {
        self.set_code(sq, piece_code(color.index(), kind.index()));
        self.toggle(color, kind, sq)
    }

    #[inline(always)]
    #[must_use]
    fn remove(&mut self, color: Color, kind: PieceKind, sq: Square) -> u64 {
        self.set_code(sq, NO_PIECE);
        self.toggle(color, kind, sq)
    }

    #[inline(always)]
    #[must_use]
    fn shift(&mut self, color: Color, kind: PieceKind, from: Square, to: Square) -> u64 {
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.boards[kind.index()] ^= bb;
        self.boards[COLORS + color.index()] ^= bb;
        self.set_code(from, NO_PIECE);
        self.set_code(to, piece_code(color.index(), kind.index()));
        zobrist::piece_key_parts(color, kind, from) ^ zobrist::piece_key_parts(color, kind, to)
    }

    /// Plays `mv`, known to be legal here or to be an allowed null move: a move of a game or
    /// of a record's move tree.
    pub(crate) fn play_known(&mut self, mv: Move) {
        if mv.is_null() {
            self.play_null();
        } else {
            self.play_unchecked(mv);
        }
    }

    /// Plays `mv` without checking that it is legal, updating the Zobrist key incrementally.
    ///
    /// `mv` must come from this position's legal moves; anything else leaves the position in
    /// an unspecified (but memory-safe) state. For copy-make, copy the position and play on the
    /// copy (`let mut child = *pos; child.play_unchecked(mv);`), which compiles to less work
    /// than returning a new position.
    #[inline(always)]
    pub fn play_unchecked(&mut self, mv: Move) {
        self.play_unchecked_moving::<true>(mv, None);
    }

    /// [`Position::play_unchecked`], given the code of the moved piece where the caller has
    /// it already (`moved`, of a normal move: [`Position::code_at`] of its origin). Without
    /// `KEYED` the key is left as it was, for a board whose key is computed when asked (a
    /// variant position's): the key's changes are then never computed.
    #[inline(always)]
    pub(crate) fn play_unchecked_moving<const KEYED: bool>(&mut self, mv: Move, moved: Option<u64>) {
        let us = self.turn;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let mut key = self.key ^ zobrist::white_to_move_key();

        // `hashed_en_passant_key` written out: taking the square here is one instruction less
        // per move than reading it and storing `None` after (callgrind, every-leaf perft).
        if let Some(ep) = self.ep.take() {
            if self.en_passant_candidates(ep).any() {
                key ^= zobrist::en_passant_key(ep.file());
            }
        }
        let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
        if (touched & self.castling_squares).any() {
            key ^= self.update_castling(touched);
        }

        let kind = mv.kind();
        if kind == MoveKind::Normal {
            // The common case, written without data-dependent branches.
            let moved = moved.unwrap_or_else(|| self.code_at(from));
            let target = self.code_at(to);
            // An empty destination's code reaches a colour board, changed by an empty mask.
            let captured_bb = Bitboard::from_square(to) & self.boards[COLORS + them.index()];
            let is_capture = captured_bb.any();
            self.boards[(target & 7) as usize] ^= captured_bb;
            self.boards[COLORS + them.index()] ^= captured_bb;
            key ^= normal_move_piece_keys(moved, target, from, to);

            self.boards[(moved & 7) as usize] ^= touched;
            self.boards[COLORS + us.index()] ^= touched;
            self.codes[from as usize >> 4] ^= (moved ^ NO_PIECE) << ((from as usize & 15) * 4);
            self.codes[to as usize >> 4] ^= (target ^ moved) << ((to as usize & 15) * 4);
            let reset = is_capture | (moved & 7 == PieceKind::Pawn as u64);
            self.halfmove_clock = if reset { 0 } else { self.halfmove_clock.wrapping_add(1) };
        } else {
            key ^= self.play_special(mv, kind, us);
        }

        // Black's move completes a full move.
        self.fullmove_number = self.fullmove_number.wrapping_add(us as u32);
        self.turn = them;
        if KEYED {
            self.key = key;
        }
    }

    /// The Polyglot key the position would have after the legal move `mv`, without making it:
    /// what a search prefetches its hash entry with. Equal to `self.make_move(mv).zobrist()`,
    /// but computed from the key changes alone for the common moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use chesscore_core::Position;
    ///
    /// let pos = Position::startpos();
    /// for &mv in pos.legal_moves().iter() {
    ///     assert_eq!(pos.zobrist_after(mv), pos.make_move(mv).zobrist());
    /// }
    /// ```
    #[inline]
    pub fn zobrist_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
        if mv.kind() != MoveKind::Normal || (touched & self.castling_squares).any() {
            return self.make_move(mv).zobrist();
        }
        self.key
            ^ zobrist::white_to_move_key()
            ^ self.hashed_en_passant_key()
            ^ normal_move_piece_keys(self.code_at(from), self.code_at(to), from, to)
    }

    /// The en passant part of the key: the file's key when a pawn of the side to move could
    /// capture (the Polyglot rule), otherwise 0.
    #[inline(always)]
    fn hashed_en_passant_key(&self) -> u64 {
        match self.ep {
            Some(ep) if self.en_passant_candidates(ep).any() => zobrist::en_passant_key(ep.file()),
            _ => 0,
        }
    }

    /// True when [`Position::play_unchecked`] keeps the position consistent when given `mv`:
    /// for every pseudo-legal move, and for any other value that moves a piece of the side to
    /// move onto a square holding neither its own pieces nor a king, with the pieces a special
    /// move needs where it needs them. The C API's unchecked moves ask this first, so no 16-bit
    /// value can corrupt a position; on the common path it costs two bit tests.
    #[inline(always)]
    pub fn can_play_unchecked(&self, mv: Move) -> bool {
        let ours = self.boards[COLORS + self.turn.index()];
        if !ours.contains(mv.from()) || mv.is_variant_move() {
            return false;
        }
        let kind = mv.kind();
        if kind == MoveKind::Normal {
            return !(ours | self.boards[PieceKind::King.index()]).contains(mv.to());
        }
        if kind == MoveKind::DoublePush {
            // As common as captures in openings: checked here, not in the call below.
            return self.can_double_push(mv.from(), mv.to());
        }
        self.can_play_special(mv, kind)
    }

    #[inline(always)]
    fn can_double_push(&self, from: Square, to: Square) -> bool {
        let forward = if self.turn == Color::White { 16 } else { -16 };
        let over = Square::from_index_masked((from as u32 + to as u32) / 2);
        let path = Bitboard::from_square(to) | Bitboard::from_square(over);
        self.code_at(from) & 7 == PieceKind::Pawn as u64
            && to as i32 - from as i32 == forward
            && (self.occupancy() & path).is_empty()
    }

    fn can_play_special(&self, mv: Move, kind: MoveKind) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let occupied = self.occupancy();
        let pawn = self.code_at(from) & 7 == PieceKind::Pawn as u64;
        match kind {
            MoveKind::EnPassant => pawn && self.ep == Some(to) && self.en_passant_candidates(to).contains(from),
            MoveKind::Castling => self.castling_is_pseudo_legal(from, to, occupied),
            MoveKind::DoublePush => self.can_double_push(from, to),
            _ => pawn && !(self.boards[COLORS + self.turn.index()] | self.boards[PieceKind::King.index()]).contains(to),
        }
    }

    /// Double pushes, en passant, castling and promotions; returns the change of the key.
    #[inline(never)]
    fn play_special(&mut self, mv: Move, kind: MoveKind, us: Color) -> u64 {
        let them = !us;
        let (from, to) = (mv.from(), mv.to());
        match kind {
            MoveKind::DoublePush => {
                self.halfmove_clock = 0;
                let ep = Square::from_index_masked((from as u32 + to as u32) / 2);
                self.ep = Some(ep);
                let hashed = (pawn_attacks(us, ep) & self.pieces_of(them, PieceKind::Pawn)).any();
                let ep_key = zobrist::en_passant_key(ep.file()) & 0u64.wrapping_sub(hashed as u64);
                self.shift(us, PieceKind::Pawn, from, to) ^ ep_key
            }
            MoveKind::EnPassant => {
                self.halfmove_clock = 0;
                self.remove(them, PieceKind::Pawn, Square::new(to.file(), from.rank()))
                    ^ self.shift(us, PieceKind::Pawn, from, to)
            }
            MoveKind::Castling => {
                self.halfmove_clock = self.halfmove_clock.wrapping_add(1);
                let side = if to > from { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                let rank = back_rank(us);
                // Both leave before either lands: in Chess960 a destination may be an origin.
                self.remove(us, PieceKind::King, from)
                    ^ self.remove(us, PieceKind::Rook, to)
                    ^ self.add(us, PieceKind::King, Square::new(side.king_destination_file(), rank))
                    ^ self.add(us, PieceKind::Rook, Square::new(side.rook_destination_file(), rank))
            }
            MoveKind::Normal
            | MoveKind::PromoteKnight
            | MoveKind::PromoteBishop
            | MoveKind::PromoteRook
            | MoveKind::PromoteQueen => {
                self.halfmove_clock = 0;
                let captured = match self.kind_at(to) {
                    Some(captured) => self.remove(them, captured, to),
                    None => 0,
                };
                let promoted = mv.promotion().unwrap_or(PieceKind::Queen);
                captured ^ self.remove(us, PieceKind::Pawn, from) ^ self.add(us, promoted, to)
            }
        }
    }

    /// Drops the castling rights lost by a move touching `touched` (called before the move);
    /// returns the change of the key.
    #[inline(always)]
    fn update_castling(&mut self, touched: Bitboard) -> u64 {
        let before = self.castling.bits();
        let kings = self.boards[PieceKind::King.index()] & touched;
        let mut lost = self.castling.rook_bits_on(touched);
        lost |= ((kings & self.boards[COLORS]).any() as u8) * 0b0011;
        lost |= ((kings & self.boards[COLORS + 1]).any() as u8) * 0b1100;
        self.castling.remove_bits(lost);
        self.castling_squares = self.compute_castling_squares();
        zobrist::castling_key(before ^ self.castling.bits())
    }

    /// The back rank of the side to move, for castling code.
    #[inline(always)]
    pub(crate) fn our_back_rank(&self) -> Rank {
        back_rank(self.turn)
    }
}

/// The key change of the pieces of a normal move: the piece of code `moved` from `from` to
/// `to`, taking what has code `target` there (an empty square's key is zero).
#[inline(always)]
fn normal_move_piece_keys(moved: u64, target: u64, from: Square, to: Square) -> u64 {
    zobrist::piece_code_key(target, to) ^ zobrist::piece_code_key(moved, from) ^ zobrist::piece_code_key(moved, to)
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_is_compact() {
        assert_eq!(std::mem::size_of::<Position>(), 128);
    }

    #[test]
    fn startpos_queries() {
        let pos = Position::startpos();
        assert_eq!(pos.zobrist(), 0x463b_9618_1691_fc9c);
        assert_eq!(pos.piece_count(), 32);
        assert_eq!(pos.king_square(Color::White), Square::E1);
        assert_eq!(pos.king_square(Color::Black), Square::E8);
        assert_eq!(pos.piece_at(Square::D8), Some(Piece::new(Color::Black, PieceKind::Queen)));
        assert_eq!(pos.piece_at(Square::E4), None);
        assert_eq!(pos.pieces_of(Color::White, PieceKind::Pawn).count(), 8);
        assert!(!pos.in_check());
        assert!(pos.pinned().is_empty());
        assert_eq!(pos.attackers_to(Square::F3, Color::White).count(), 3);
        assert!(pos.is_attacked(Square::F6, Color::Black));
        assert!(!pos.is_attacked(Square::E4, Color::White));
    }
}
