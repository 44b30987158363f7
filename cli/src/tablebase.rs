//! `chesscore tb`: Syzygy tablebase probes of a position and of its moves.

use chesscore_core::syzygy::Tablebase;
use chesscore_core::{Game, Uci};
use clap::{Args, Subcommand};

use crate::args::PositionArgs;
use crate::output::{Failure, Output};

/// Syzygy endgame tablebases.
#[derive(Subcommand)]
pub(crate) enum TbCommand {
    /// Print `wdl W dtz D` for the position: python-chess's `probe_wdl` and `probe_dtz`, from
    /// the side to move.
    Probe(TbArgs),
    /// Print `UCI wdl W dtz D` for every legal move, best first (Stockfish's root ranking with
    /// the 50-move rule and the FEN's half-move clock): the values of the position after the
    /// move, seen from the side that plays it.
    Best(TbArgs),
}

#[derive(Args)]
pub(crate) struct TbArgs {
    /// Directories of `.rtbw` and `.rtbz` files, separated by ':'.
    #[arg(long, value_name = "DIR[:DIR...]")]
    tb: String,
    #[command(flatten)]
    position: PositionArgs,
}

pub(crate) fn open(dirs: &str) -> Result<Tablebase, String> {
    Tablebase::open(dirs.split(':').filter(|d| !d.is_empty())).map_err(|e| e.to_string())
}

pub(crate) fn run(command: TbCommand, out: &mut Output) -> Result<(), Failure> {
    match command {
        TbCommand::Probe(args) => {
            let tb = open(&args.tb)?;
            let pos = args.position.read()?;
            let wdl = tb.probe_wdl(&pos).map_err(|e| e.to_string())?;
            let dtz = tb.probe_dtz(&pos).map_err(|e| e.to_string())?;
            writeln!(out, "wdl {wdl} dtz {dtz}")?;
        }
        TbCommand::Best(args) => {
            let tb = open(&args.tb)?;
            let pos = args.position.read()?;
            let ranked = tb.rank_root_moves(&Game::new(pos)).map_err(|e| e.to_string())?;
            for m in ranked {
                writeln!(out, "{} wdl {} dtz {}", Uci::from_move(&pos, m.mv), m.wdl, m.dtz)?;
            }
        }
    }
    Ok(())
}
