//! `chesscore perft`: the leaves of the legal move tree, counted, with the time taken.

use std::time::Instant;

use chesscore_core::Uci;

use crate::args::{AnyPosition, Rules};
use crate::input::STARTPOS;
use crate::output::{counted, Failure, Output};

/// Counts the leaves below `fen` (default: the start position) at `depth` (default 6); a lone
/// number is the depth for the start position.
pub(crate) fn run(
    fen: Option<String>,
    depth: Option<u32>,
    divide: bool,
    rules: Rules,
    out: &mut Output,
) -> Result<(), Failure> {
    let (fen, depth) = match (fen, depth) {
        (Some(f), None) if f.parse::<u32>().is_ok() => (STARTPOS.to_string(), f.parse().ok()),
        (fen, depth) => (fen.unwrap_or_else(|| STARTPOS.to_string()), depth),
    };
    let depth = depth.unwrap_or(6);
    let pos = rules.read(&fen)?;
    let start = Instant::now();
    let nodes = match (&pos, divide) {
        (AnyPosition::Chess(pos), true) => {
            print_divided(pos.divide(depth).map(|(mv, count)| (Uci::from_move(pos, mv), count)), out)?
        }
        (AnyPosition::Chess(pos), false) => pos.perft(depth),
        (AnyPosition::Variant(pos), true) => {
            print_divided(pos.divide(depth).map(|(mv, count)| (pos.uci(mv), count)), out)?
        }
        (AnyPosition::Variant(pos), false) => pos.perft(depth),
    };
    let seconds = start.elapsed().as_secs_f64();
    let rate = nodes as f64 / seconds.max(1e-9);
    let counted_nodes = counted(nodes, "node", "nodes");
    writeln!(out, "depth {depth}: {counted_nodes} in {seconds:.3} s, {rate:.0} nodes/s")?;
    writeln!(out, "{nodes}")?;
    Ok(())
}

/// Prints each move with the count below it, and gives their sum.
fn print_divided(counts: impl Iterator<Item = (Uci, u64)>, out: &mut Output) -> Result<u64, Failure> {
    let mut total = 0;
    for (mv, count) in counts {
        writeln!(out, "{mv}: {count}")?;
        total += count;
    }
    Ok(total)
}
