//! Search group: the work an engine's search does at each node, without the evaluation. From
//! every position of `vectors/dev.jsonl`, to a fixed depth: generate the captures (en passant
//! and every promotion included), score each by SEE and order them, make each and recurse;
//! then generate the quiet moves, test each for giving check, make each and recurse.
//!
//! chesscore uses its staged generators, `see` and `gives_check`, with copy-make. shakmaty has
//! no staged generation, SEE or public gives-check: its loop takes `capture_moves` plus the
//! non-capturing `promotion_moves`, the quiet moves filtered out of `legal_moves`, chesscore's
//! SEE definition written below over shakmaty's types, and `is_check` of the child it makes
//! anyway (which spares it a gives-check of its own). Both must visit the same nodes and find
//! the same SEE sum and number of checking quiet moves, or the run aborts.

use std::hint::black_box;
use std::time::Duration;

use crate::harness::{abort, print_table, time, Config, Row};

/// What one walk found: the check that both engines did the same work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    nodes: u64,
    see_sum: i64,
    checking_quiets: u64,
}

/// SEE piece values, pawn to king (the king is never captured in SEE).
const VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

pub fn run(cfg: &Config) {
    let mut fens = crate::san::vector_fens();
    if cfg.quick {
        fens.truncate(fens.len() / 4);
    }
    let depth = if cfg.quick { 2 } else { 3 };
    let ours = chesscore_impl::prepare(&fens);
    let theirs = shakmaty_impl::prepare(&fens);
    let (expected, _) = time(|| chesscore_impl::walk(&ours, depth));
    let (found, _) = time(|| shakmaty_impl::walk(&theirs, depth));
    if expected != found {
        abort(&format!("search: chesscore found {expected:?}, shakmaty {found:?}"));
    }
    let bench = format!("{} positions d{depth}", fens.len());
    eprintln!("search: {bench}, {} nodes ({} reps)", expected.nodes, cfg.reps);

    let mut best = [Duration::MAX; 2];
    for _ in 0..cfg.reps {
        if cfg.wants(crate::harness::CHESSCORE) {
            let (totals, t) = time(|| chesscore_impl::walk(black_box(&ours), depth));
            black_box(totals);
            best[0] = best[0].min(t);
        }
        if cfg.wants("shakmaty") {
            let (totals, t) = time(|| shakmaty_impl::walk(black_box(&theirs), depth));
            black_box(totals);
            best[1] = best[1].min(t);
        }
    }
    let mut rows = Vec::new();
    for (engine, best) in [(crate::harness::CHESSCORE, best[0]), ("shakmaty", best[1])] {
        if best != Duration::MAX {
            rows.push(Row { bench: bench.clone(), engine, count: expected.nodes, best });
        }
    }
    print_table("search-shaped (staged moves, SEE order, gives-check, copy-make)", "nodes", &rows);
}

mod chesscore_impl {
    use super::Totals;
    use chesscore_core::{FenOptions, Move, Position};

    pub fn prepare(fens: &[String]) -> Vec<Position> {
        let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
        fens.iter()
            .map(|fen| {
                Position::from_fen_with(fen, &options)
                    .unwrap_or_else(|e| crate::harness::abort(&format!("chesscore rejected {fen}: {e}")))
                    .0
            })
            .collect()
    }

    pub fn walk(positions: &[Position], depth: u32) -> Totals {
        let mut totals = Totals::default();
        // One score list per ply, as an engine keeps them.
        let mut plies: Vec<Vec<(i32, Move)>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        for pos in positions {
            visit(pos, &mut plies, &mut totals);
        }
        totals
    }

    fn visit(pos: &Position, plies: &mut [Vec<(i32, Move)>], totals: &mut Totals) {
        totals.nodes += 1;
        let Some((scored, deeper)) = plies.split_first_mut() else { return };
        scored.clear();
        for &mv in pos.legal_captures().iter() {
            let see = pos.see(mv);
            totals.see_sum += i64::from(see);
            scored.push((see, mv));
        }
        scored.sort_unstable_by_key(|&(see, mv)| (std::cmp::Reverse(see), mv));
        for &(_, mv) in scored.iter() {
            let mut child = *pos;
            child.play_unchecked(mv);
            visit(&child, deeper, totals);
        }
        for &mv in pos.legal_quiets().iter() {
            totals.checking_quiets += u64::from(pos.gives_check(mv));
            let mut child = *pos;
            child.play_unchecked(mv);
            visit(&child, deeper, totals);
        }
    }
}

mod shakmaty_impl {
    use super::{Totals, VALUES};
    use shakmaty::fen::Fen;
    use shakmaty::{Bitboard, CastlingMode, Chess, Color, Move, Position, PositionError, Role, Square};

    pub fn prepare(fens: &[String]) -> Vec<Chess> {
        fens.iter()
            .map(|fen| {
                Fen::from_ascii(fen.as_bytes())
                    .ok()
                    .and_then(|f| {
                        f.into_position(CastlingMode::Standard)
                            .or_else(PositionError::ignore_too_much_material)
                            .or_else(PositionError::ignore_impossible_check)
                            .ok()
                    })
                    .unwrap_or_else(|| crate::harness::abort(&format!("shakmaty rejected {fen}")))
            })
            .collect()
    }

    pub fn walk(positions: &[Chess], depth: u32) -> Totals {
        let mut totals = Totals::default();
        let mut plies: Vec<Vec<(i32, Move)>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        for pos in positions {
            visit(pos, &mut plies, &mut totals);
        }
        totals
    }

    fn visit(pos: &Chess, plies: &mut [Vec<(i32, Move)>], totals: &mut Totals) {
        totals.nodes += 1;
        let Some((scored, deeper)) = plies.split_first_mut() else { return };
        scored.clear();
        let promotions = pos.promotion_moves().into_iter().filter(|m| !m.is_capture());
        for m in pos.capture_moves().into_iter().chain(promotions) {
            let see = see(pos, m);
            totals.see_sum += i64::from(see);
            scored.push((see, m));
        }
        // Stable: equal scores keep the generation order.
        scored.sort_by_key(|&(see, _)| std::cmp::Reverse(see));
        for &(_, m) in scored.iter() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            visit(&child, deeper, totals);
        }
        for m in pos.legal_moves().into_iter().filter(|m| !m.is_capture() && !m.is_promotion()) {
            let mut child = pos.clone();
            child.play_unchecked(m);
            totals.checking_quiets += u64::from(child.is_check());
            visit(&child, deeper, totals);
        }
    }

    fn value(role: Role) -> i32 {
        VALUES[role as usize - 1]
    }

    /// chesscore's SEE definition (see `Position::see`) over shakmaty's board.
    fn see(pos: &Chess, m: Move) -> i32 {
        let (from, to, captured) = match m {
            Move::Normal { from, to, capture, .. } => (from, to, capture.map_or(0, value)),
            Move::EnPassant { from, to } => (from, to, value(Role::Pawn)),
            Move::Castle { .. } | Move::Put { .. } => return 0,
        };
        let board = pos.board();
        let mut occupied = board.occupied().without(from);
        if let Move::EnPassant { .. } = m {
            occupied = occupied.without(Square::from_coords(to.file(), from.rank()));
        }
        let mut gains = [0i32; 34];
        gains[0] = captured;
        let mut on_square = value(m.role());
        let mut side = !pos.turn();
        let mut depth = 0;
        while let Some((sq, role)) = recapture(board, to, side, occupied) {
            depth += 1;
            gains[depth] = on_square - gains[depth - 1];
            on_square = value(role);
            occupied = occupied.without(sq);
            side = !side;
        }
        while depth > 0 {
            gains[depth - 1] = gains[depth - 1].min(-gains[depth]);
            depth -= 1;
        }
        gains[0]
    }

    fn recapture(board: &shakmaty::Board, to: Square, side: Color, occupied: Bitboard) -> Option<(Square, Role)> {
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        let (sq, role) =
            Role::ALL.into_iter().find_map(|role| (attackers & board.by_role(role)).first().map(|sq| (sq, role)))?;
        if role == Role::King {
            let after = occupied.without(sq);
            if (board.attacks_to(to, !side, after) & after).any() {
                return None;
            }
        }
        Some((sq, role))
    }
}
