//! The probing rules on top of the tables: captures and en passant resolved by a small
//! search, DTZ completed where a table is stored for the other side to move, and the ranking
//! of a game's moves.

use super::material::MaterialKey;
use super::table::Kind;
use super::{SyzygyError, Tablebase, MAX_TABLE_PIECES};
use crate::game::History;
use crate::{Bitboard, Game, Move, Outcome, PieceKind, Position};

type Result<T> = std::result::Result<T, SyzygyError>;

/// DTZ of a zeroing move with the given WDL value: 1 for a win, 101 for a cursed win, and so
/// on for losses.
fn dtz_before_zeroing(wdl: i32) -> i32 {
    wdl.signum() * if wdl.abs() == 2 { 1 } else { 101 }
}

/// A legal move of a game with its values and its rank (see [`Tablebase::rank_root_moves`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// [`Tablebase::probe_wdl`] of the position after the move, negated: the mover's view.
    pub wdl: i32,
    /// [`Tablebase::probe_dtz`] of the position after the move, negated: the mover's view.
    pub dtz: i32,
    /// Greater is better; see [`Tablebase::rank_root_moves`].
    pub rank: i32,
}

/// Stockfish's `MAX_DTZ`, the scale of root ranks.
const MAX_DTZ: i32 = 1 << 18;

impl Tablebase {
    /// The WDL table's value, with KvK a draw.
    fn wdl_table(&self, pos: &Position) -> Result<i32> {
        if pos.occupancy() == pos.pieces(PieceKind::King) {
            return Ok(0);
        }
        let key = MaterialKey::of_position(pos);
        Ok(self.with_table(key, Kind::Wdl, |table| table.probe(pos, key, 0))?.unwrap_or(0))
    }

    /// The DTZ table's value, or `None` when it is stored for the other side to move.
    fn dtz_table(&self, pos: &Position, wdl: i32) -> Result<Option<i32>> {
        let key = MaterialKey::of_position(pos);
        self.with_table(key, Kind::Dtz, |table| table.probe(pos, key, wdl))
    }

    /// Alpha-beta over captures (en passant aside) down to the tables. Returns the value and
    /// 2 when a capture reached `beta`, 1 + (value > 0) when the best capture is at least the
    /// table's value, else 1.
    fn probe_ab(&self, pos: &Position, mut alpha: i32, beta: i32) -> Result<(i32, u8)> {
        if !pos.castling().is_empty() {
            return Err(SyzygyError::CastlingRights);
        }
        let count = pos.occupancy().count();
        // Captures may bring a position one piece over into the tables.
        if count > MAX_TABLE_PIECES + 1 {
            return Err(SyzygyError::TooManyPieces(count));
        }
        let theirs = pos.color_occupancy(!pos.turn());
        for &mv in &pos.legal_moves_between(Bitboard::FULL, theirs) {
            let v = -self.probe_ab(&pos.make_move(mv), -beta, -alpha)?.0;
            if v > alpha {
                if v >= beta {
                    return Ok((v, 2));
                }
                alpha = v;
            }
        }
        let v = self.wdl_table(pos)?;
        Ok(if alpha >= v { (alpha, 1 + u8::from(alpha > 0)) } else { (v, 1) })
    }

    /// The best value of the legal en passant captures, from the side to move, if any.
    fn en_passant_value(&self, pos: &Position) -> Result<Option<i32>> {
        let Some(ep) = pos.en_passant() else { return Ok(None) };
        let mut best = None;
        for &mv in &pos.legal_moves_between(pos.pieces_of(pos.turn(), PieceKind::Pawn), Bitboard::from_square(ep)) {
            if mv.is_en_passant() {
                let v = -self.probe_ab(&pos.make_move(mv), -2, 2)?.0;
                best = best.max(Some(v));
            }
        }
        Ok(best)
    }

    /// Every legal move is an en passant capture.
    fn only_en_passant(pos: &Position) -> bool {
        pos.legal_moves().iter().all(|mv| mv.is_en_passant())
    }

    /// Win/draw/loss for the side to move, assuming the position arose right after a zeroing
    /// move (python-chess's `probe_wdl`): 2 a win, 1 a win spoiled by the 50-move rule
    /// (cursed), 0 a draw, -1 a loss saved by the 50-move rule (blessed), -2 a loss.
    ///
    /// Captures are searched first, so a position with one piece more than the tables can
    /// have a value; en passant captures are weighed as python-chess does.
    pub fn probe_wdl(&self, pos: &Position) -> Result<i32> {
        let (mut v, _) = self.probe_ab(pos, -2, 2)?;
        if let Some(v1) = self.en_passant_value(pos)? {
            if v1 >= v || (v == 0 && Self::only_en_passant(pos)) {
                v = v1;
            }
        }
        Ok(v)
    }

    /// The result of the game the tables decide from `pos`, with its half-move clock counted:
    /// a win (WDL 2 for a side, its distance to zeroing and the clock within the 100 plies of
    /// the 50-move rule) or else a draw. `Ok(None)` when the tables do not hold the position
    /// (a missing table, castling rights, too many pieces); errors for damaged files.
    ///
    /// DTZ as [`Tablebase::probe_dtz`] gives it may be one more than the true distance, never
    /// less, so a win at the edge of the 50-move rule may be called a draw, never the reverse.
    pub fn adjudicate(&self, pos: &Position) -> Result<Option<Outcome>> {
        let wdl = match self.probe_wdl(pos) {
            Ok(wdl) => wdl,
            Err(SyzygyError::MissingTable { .. } | SyzygyError::CastlingRights | SyzygyError::TooManyPieces(_)) => {
                return Ok(None)
            }
            Err(e) => return Err(e),
        };
        if wdl.abs() != 2 {
            return Ok(Some(Outcome::Draw));
        }
        let dtz = self.probe_dtz(pos)?;
        if dtz.unsigned_abs() + pos.halfmove_clock() > 100 {
            return Ok(Some(Outcome::Draw));
        }
        let winner = if wdl > 0 { pos.turn() } else { !pos.turn() };
        Ok(Some(Outcome::win_for(winner)))
    }

    /// [`Tablebase::probe_wdl`], or `None` for any error.
    pub fn get_wdl(&self, pos: &Position) -> Option<i32> {
        self.probe_wdl(pos).ok()
    }

    fn probe_dtz_no_ep(&self, pos: &Position) -> Result<i32> {
        let (wdl, success) = self.probe_ab(pos, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        if success == 2 {
            return Ok(dtz_before_zeroing(wdl));
        }
        let empty = !pos.occupancy();
        let pawns = pos.pieces(PieceKind::Pawn);
        if wdl > 0 {
            // A pawn push that keeps the value zeroes at once.
            for &mv in &pos.legal_moves_between(pawns, empty) {
                if !mv.is_en_passant() && -self.probe_wdl(&pos.make_move(mv))? == wdl {
                    return Ok(if wdl == 2 { 1 } else { 101 });
                }
            }
        }
        if let Some(dtz) = self.dtz_table(pos, wdl)? {
            return Ok(dtz_before_zeroing(wdl) + if wdl > 0 { dtz } else { -dtz });
        }
        // The table holds the other side to move: one ply of search.
        if wdl > 0 {
            let mut best = 0xffff;
            for &mv in &pos.legal_moves_between(!pawns, empty) {
                let after = pos.make_move(mv);
                let v = -self.probe_dtz(&after)?;
                if v == 1 && after.is_checkmate() {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            Ok(best)
        } else {
            let mut best = -1;
            for &mv in &pos.legal_moves() {
                let after = pos.make_move(mv);
                let v = if after.halfmove_clock() == 0 {
                    if wdl == -2 {
                        -1
                    } else if self.probe_ab(&after, 1, 2)?.0 == 2 {
                        0
                    } else {
                        -101
                    }
                } else {
                    -self.probe_dtz(&after)? - 1
                };
                best = best.min(v);
            }
            Ok(best)
        }
    }

    /// Distance to zeroing in plies, signed like the WDL value (python-chess's `probe_dtz`,
    /// DTZ50'' with its rounding): 1..=100 a win, over 100 a cursed win, 0 a draw, -1..=-100
    /// a loss, under -100 a blessed loss. A value n may mean a zeroing move in n + 1 plies.
    /// Needs the WDL tables as well as the DTZ tables.
    pub fn probe_dtz(&self, pos: &Position) -> Result<i32> {
        let mut v = self.probe_dtz_no_ep(pos)?;
        let Some(ep) = self.en_passant_value(pos)? else { return Ok(v) };
        let v1 = [-1, -101, 0, 101, 1][(ep + 2) as usize];
        let take = if v < -100 {
            v1 >= 0
        } else if v < 0 {
            !(-100..0).contains(&v1)
        } else if v > 100 {
            v1 > 0
        } else if v > 0 {
            v1 == 1
        } else {
            v1 >= 0 || Self::only_en_passant(pos)
        };
        if take {
            v = v1;
        }
        Ok(v)
    }

    /// [`Tablebase::probe_dtz`], or `None` for any error.
    pub fn get_dtz(&self, pos: &Position) -> Option<i32> {
        self.probe_dtz(pos).ok()
    }

    /// Every legal move of the game's current position, best first, ranked as Stockfish's
    /// root probing ranks them with the 50-move rule on and DTZ ranking:
    ///
    /// * the move's DTZ from the root: after a zeroing move, 1 for a win, 101 for a cursed
    ///   win, -1 and -101 for losses, 0 for a draw (WDL of the position after it); after a
    ///   move that makes a threefold repetition or reaches 100 half-moves without mate, 0;
    ///   otherwise the negated DTZ of the position after it, one ply further from zero; a
    ///   mating move is 1;
    /// * with `n` the game's half-move clock and `rep` whether a position has repeated since
    ///   the last irreversible move: a win with `dtz + n <= 99` and no `rep` ranks
    ///   `2^18 - dtz`; another win `2^17 - (dtz + n)`; a draw 0; a loss with
    ///   `-2 dtz + n < 100` ranks `-2^18 - dtz`, another loss `-2^17 + (-dtz + n)`.
    ///
    /// Moves of equal rank keep the order of move generation.
    pub fn rank_root_moves(&self, game: &Game) -> Result<Vec<RankedMove>> {
        self.rank(&game.history)
    }

    fn rank(&self, history: &History) -> Result<Vec<RankedMove>> {
        let pos = history.position();
        // As Stockfish: no ranking where castling is still possible, even if no move keeps it.
        if !pos.castling().is_empty() {
            return Err(SyzygyError::CastlingRights);
        }
        let n = pos.halfmove_clock() as i32;
        let rep = history.repeated_since_irreversible();
        let mut ranked = Vec::new();
        let moves = pos.legal_moves();
        ranked.try_reserve_exact(moves.len()).map_err(|_| SyzygyError::OutOfMemory)?;
        for mv in moves {
            let after = pos.make_move(mv);
            let wdl = -self.probe_wdl(&after)?;
            let dtz = -self.probe_dtz(&after)?;
            let mut root = if after.halfmove_clock() == 0 {
                dtz_before_zeroing(wdl)
            } else if (after.halfmove_clock() >= 100 && !after.is_checkmate()) || history.occurrences_after(&after) >= 2
            {
                0
            } else {
                dtz + dtz.signum()
            };
            if root == 2 && after.is_checkmate() {
                root = 1;
            }
            let rank = match root {
                d if d > 0 && d + n <= 99 && !rep => MAX_DTZ - d,
                d if d > 0 => MAX_DTZ / 2 - (d + n),
                d if d < 0 && -2 * d + n < 100 => -MAX_DTZ - d,
                d if d < 0 => -MAX_DTZ / 2 + (-d + n),
                _ => 0,
            };
            ranked.push(RankedMove { mv, wdl, dtz, rank });
        }
        ranked.sort_by_key(|m| std::cmp::Reverse(m.rank));
        Ok(ranked)
    }
}
