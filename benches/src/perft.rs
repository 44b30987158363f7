//! Perft group: node-count throughput of legal move generation.
//!
//! Two kinds, for every engine:
//! * `bulk`: bulk counting, at depth 1 the legal moves are counted without
//!   being made;
//! * `leaf`: every leaf move is made (depth 0 returns 1; otherwise generate,
//!   make each move, recurse).
//!
//! Each engine's position is parsed from FEN before timing starts. Every run's
//! node count is checked against the known value; a mismatch aborts.

use std::hint::black_box;
use std::time::Duration;

use crate::harness::{abort, print_table, time, Config, Row};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Bulk,
    Leaf,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bulk => "bulk",
            Kind::Leaf => "leaf",
        }
    }
}

pub struct Case {
    pub name: &'static str,
    pub fen: &'static str,
    /// (depth, expected nodes) for full and `--quick` runs.
    pub full: (u32, u64),
    pub quick: (u32, u64),
}

pub const CASES: &[Case] = &[
    Case {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        full: (6, 119_060_324),
        quick: (5, 4_865_609),
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        full: (5, 193_690_690),
        quick: (4, 4_085_603),
    },
];

/// A perft routine for one engine, with its position already set up.
pub type Runner = Box<dyn Fn(Kind, u32) -> u64>;

struct Engine {
    name: &'static str,
    /// Parses the FEN into the engine's own position type (untimed).
    prepare: fn(&str) -> Runner,
}

fn engines() -> Vec<Engine> {
    vec![
        Engine { name: crate::harness::CHESSCORE, prepare: chesscore_impl::prepare },
        Engine { name: "shakmaty", prepare: shakmaty_impl::prepare },
        Engine { name: "shakmaty+zobrist", prepare: shakmaty_impl::prepare_with_zobrist },
        Engine { name: "cozy-chess", prepare: cozy_impl::prepare },
        Engine { name: "chess", prepare: chess_impl::prepare },
    ]
}

pub fn run(cfg: &Config) {
    let kinds: Vec<Kind> = match cfg.only.as_deref() {
        None => vec![Kind::Bulk, Kind::Leaf],
        Some("bulk") => vec![Kind::Bulk],
        Some("leaf") => vec![Kind::Leaf],
        Some(other) => abort(&format!("perft: --only expects `bulk` or `leaf`, got `{other}`")),
    };
    let engines: Vec<Engine> = engines().into_iter().filter(|e| cfg.wants(e.name)).collect();
    let mut rows = Vec::new();

    for &kind in &kinds {
        for case in CASES {
            let (depth, expected) = if cfg.quick { case.quick } else { case.full };
            let bench = format!("{} {} d{}", kind.name(), case.name, depth);
            eprintln!("perft: {bench} ({} reps)", cfg.reps);

            let runners: Vec<Runner> = engines.iter().map(|e| (e.prepare)(case.fen)).collect();
            let mut best = vec![Duration::MAX; engines.len()];
            // Round-robin over engines inside each repetition, so slow drifts
            // of a shared machine hit every engine alike.
            for _ in 0..cfg.reps {
                for (i, (engine, runner)) in engines.iter().zip(&runners).enumerate() {
                    let (nodes, t) = time(|| runner(black_box(kind), black_box(depth)));
                    if nodes != expected {
                        abort(&format!("perft {bench}: {} counted {nodes} nodes, expected {expected}", engine.name));
                    }
                    best[i] = best[i].min(t);
                }
            }
            for (engine, best) in engines.iter().zip(best) {
                rows.push(Row { bench: bench.clone(), engine: engine.name, count: expected, best });
            }
        }
    }
    print_table("perft", "nodes", &rows);
}

pub mod chesscore_impl {
    use super::{Kind, Runner};
    use chesscore_core::Position;

    pub fn prepare(fen: &str) -> Runner {
        let pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(_) => crate::harness::abort(&format!("chesscore rejected FEN {fen}")),
        };
        Box::new(move |kind, depth| match kind {
            Kind::Bulk => pos.perft(depth),
            Kind::Leaf => leaf(&pos, depth),
        })
    }

    /// Every-leaf perft written against the public API (copy-make).
    fn leaf(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        for &mv in pos.legal_moves().iter() {
            let mut child = *pos;
            child.play_unchecked(mv);
            nodes += leaf(&child, depth - 1);
        }
        nodes
    }
}

pub mod shakmaty_impl {
    use super::{Kind, Runner};
    use shakmaty::fen::Fen;
    use shakmaty::zobrist::Zobrist64;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

    pub fn prepare(fen: &str) -> Runner {
        let pos: Chess = Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| crate::harness::abort(&format!("shakmaty rejected FEN {fen}")));
        Box::new(move |kind, depth| match kind {
            // The crate's own perft: bulk counting at depth 1, clone + play_unchecked.
            Kind::Bulk => shakmaty::perft(&pos, depth),
            Kind::Leaf => leaf(&pos, depth),
        })
    }

    fn leaf(pos: &Chess, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            nodes += leaf(&child, depth - 1);
        }
        nodes
    }

    /// shakmaty keeping a Polyglot-style key as chesscore does in make-move: its own
    /// incremental `update_zobrist_hash` before each move, and the full `zobrist_hash` of the
    /// child for the moves that one does not handle (castling, king and double pawn moves,
    /// any move from a position with an en passant square).
    pub fn prepare_with_zobrist(fen: &str) -> Runner {
        let pos: Chess = Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| crate::harness::abort(&format!("shakmaty rejected FEN {fen}")));
        Box::new(move |kind, depth| {
            let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
            keyed(&pos, key, depth, kind == Kind::Bulk)
        })
    }

    fn keyed(pos: &Chess, key: Zobrist64, depth: u32, bulk: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = pos.legal_moves();
        if bulk && depth == 1 {
            return moves.len() as u64;
        }
        let mut nodes = 0;
        for m in moves {
            let incremental = pos.update_zobrist_hash(key, m, EnPassantMode::Legal);
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = incremental.unwrap_or_else(|| child.zobrist_hash(EnPassantMode::Legal));
            nodes += keyed(&child, std::hint::black_box(child_key), depth - 1, bulk);
        }
        nodes
    }
}

mod cozy_impl {
    use super::{Kind, Runner};
    use cozy_chess::Board;

    pub fn prepare(fen: &str) -> Runner {
        let board = Board::from_fen(fen, false)
            .unwrap_or_else(|e| crate::harness::abort(&format!("cozy-chess rejected FEN {fen}: {e:?}")));
        Box::new(move |kind, depth| match kind {
            Kind::Bulk => bulk(&board, depth),
            Kind::Leaf => leaf(&board, depth),
        })
    }

    fn bulk(board: &Board, depth: u32) -> u64 {
        let mut nodes = 0;
        match depth {
            0 => nodes = 1,
            1 => {
                board.generate_moves(|moves| {
                    nodes += moves.len() as u64;
                    false
                });
            }
            _ => {
                board.generate_moves(|moves| {
                    for mv in moves {
                        let mut child = board.clone();
                        child.play_unchecked(mv);
                        nodes += bulk(&child, depth - 1);
                    }
                    false
                });
            }
        }
        nodes
    }

    fn leaf(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += leaf(&child, depth - 1);
            }
            false
        });
        nodes
    }
}

mod chess_impl {
    use super::{Kind, Runner};
    use chess::{Board, MoveGen};
    use std::str::FromStr;

    pub fn prepare(fen: &str) -> Runner {
        let board =
            Board::from_str(fen).unwrap_or_else(|e| crate::harness::abort(&format!("chess rejected FEN {fen}: {e}")));
        Box::new(move |kind, depth| match kind {
            Kind::Bulk => bulk(&board, depth),
            Kind::Leaf => leaf(&board, depth),
        })
    }

    fn bulk(board: &Board, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => MoveGen::new_legal(board).len() as u64,
            _ => MoveGen::new_legal(board).map(|m| bulk(&board.make_move_new(m), depth - 1)).sum(),
        }
    }

    fn leaf(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        MoveGen::new_legal(board).map(|m| leaf(&board.make_move_new(m), depth - 1)).sum()
    }
}
