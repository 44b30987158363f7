//! `chesscore analyse`: one position analysed by an engine, its MultiPV lines printed.

use std::time::Duration;

use chesscore_core::engine::{Limits, Score};
use chesscore_core::{Move, Uci, UciCastling};
use clap::Args;

use super::{default_engine, engine_failure, start, EngineArgs};
use crate::args::Variant;
use crate::input::read;
use crate::output::{Failure, Output};

#[derive(Args)]
pub(crate) struct AnalyseArgs {
    /// The position: a FEN (X-FEN with --chess960), `startpos`, or `-` for standard input.
    fen: String,
    #[command(flatten)]
    engine: EngineArgs,
    /// Search to this depth.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    depth: Option<u32>,
    /// Search this many milliseconds (the default: 1000, when no limit is given).
    #[arg(long, value_name = "MS", conflicts_with = "nodes")]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// How many best lines to show.
    #[arg(long, default_value_t = 1, value_name = "K")]
    multipv: u32,
    /// The engine's `Hash` option, in MB.
    #[arg(long, value_name = "MB")]
    hash: Option<u32>,
    /// Any engine option, `NAME=VALUE` (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    #[command(flatten)]
    variant: Variant,
}

/// A score as UCI writes it: `cp N` or `mate N`.
fn uci_score(score: Option<Score>) -> String {
    match score {
        Some(Score::Cp(cp)) => format!("cp {cp}"),
        Some(Score::Mate(n)) => format!("mate {n}"),
        None => "none".to_string(),
    }
}

fn uci_move(mv: Move, chess960: bool) -> String {
    let castling = if chess960 { UciCastling::KingTakesRook } else { UciCastling::KingTwoSquares };
    Uci::from_move_with(mv, castling).to_string()
}

/// Prints each MultiPV line, then `bestmove` (see `Command::Analyse`).
pub(crate) fn analyse(args: &AnalyseArgs, out: &mut Output) -> Result<(), Failure> {
    let pos = read(&args.fen, args.variant)?;
    let path = args.engine.engine.clone().unwrap_or_else(default_engine);
    let mut engine = start(&path, args.engine.threads)?;
    let fail = |e: chesscore_core::engine::EngineError| engine_failure(&path, &e);
    let mut options: Vec<(String, String)> = Vec::new();
    if let Some(hash) = args.hash {
        options.push(("Hash".into(), hash.to_string()));
    }
    for option in &args.options {
        let (name, value) = option.split_once('=').ok_or_else(|| format!("--option {option}: expected NAME=VALUE"))?;
        options.push((name.trim().to_string(), value.to_string()));
    }
    if args.variant.chess960 {
        options.push(("UCI_Chess960".into(), "true".into()));
    }
    for (name, value) in &options {
        engine.set_option(name, Some(value)).map_err(fail)?;
    }
    engine.is_ready().map_err(fail)?;
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: match (args.depth, args.nodes, args.movetime) {
            (None, None, None) => Some(Duration::from_secs(1)),
            (_, _, ms) => ms.map(Duration::from_millis),
        },
        ..Limits::default()
    };
    let analysis = engine.analyse_position(&pos, &limits, Some(args.multipv)).map_err(fail)?;
    let chess960 = args.variant.chess960;
    for line in &analysis.lines {
        let pv: Vec<String> = line.pv.iter().map(|&mv| uci_move(mv, chess960)).collect();
        writeln!(
            out,
            "multipv {} depth {} score {} pv {}",
            line.multipv.unwrap_or(1),
            line.depth.unwrap_or(0),
            uci_score(line.score),
            pv.join(" ")
        )?;
    }
    match analysis.best_move {
        Some(mv) => writeln!(out, "bestmove {}", uci_move(mv, chess960)),
        None => writeln!(out, "bestmove (none)"),
    }
}
