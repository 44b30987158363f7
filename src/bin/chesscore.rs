//! The `chesscore` command: perft, FEN normalisation, board rendering, move listing and FEN
//! validation for humans and scripts.

use std::process::ExitCode;
use std::time::Instant;

use chesscore::{FenError, Position};
use clap::{Parser, Subcommand};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Parser)]
#[command(name = "chesscore", version, about = "Chess core command line: perft, FEN, boards, moves")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (default: start position, depth 6).
    Perft {
        /// Position (default: the start position).
        fen: Option<String>,
        /// Depth in plies (default 6).
        depth: Option<u32>,
        /// Print the count below each legal move first.
        #[arg(long)]
        divide: bool,
    },
    /// Print the canonical FEN.
    Fen { fen: String },
    /// Print the board with FEN letters and coordinates.
    Board { fen: String },
    /// Print the board with Unicode chess symbols.
    Unicode { fen: String },
    /// Print the legal moves, one per line, in UCI.
    Moves { fen: String },
    /// Check a FEN: exit status 0 when valid, 1 with the error otherwise.
    Validate { fen: String },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("chesscore: {message}");
            ExitCode::FAILURE
        }
    }
}

fn read(fen: &str) -> Result<Position, String> {
    Position::from_fen(fen).map_err(|e| describe(fen, &e))
}

fn describe(fen: &str, error: &FenError) -> String {
    format!(
        "invalid FEN at byte {} ({:?} field): {error}\n  {fen}\n  {}^",
        error.offset(),
        error.field(),
        " ".repeat(error.offset())
    )
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Perft { fen, depth, divide } => {
            // A lone number is the depth for the start position.
            let (fen, depth) = match (fen, depth) {
                (Some(f), None) if f.parse::<u32>().is_ok() => (START_FEN.to_string(), f.parse().ok()),
                (fen, depth) => (fen.unwrap_or_else(|| START_FEN.to_string()), depth),
            };
            let depth = depth.unwrap_or(6);
            let pos = read(&fen)?;
            let start = Instant::now();
            let nodes = if divide {
                let mut total = 0;
                for (mv, count) in pos.divide(depth) {
                    println!("{mv}: {count}");
                    total += count;
                }
                total
            } else {
                pos.perft(depth)
            };
            let seconds = start.elapsed().as_secs_f64();
            println!("depth {depth}: {nodes} nodes in {seconds:.3} s, {:.0} nodes/s", nodes as f64 / seconds.max(1e-9));
            println!("{nodes}");
        }
        Command::Fen { fen } => println!("{}", read(&fen)?.to_fen()),
        Command::Board { fen } => print!("{}", read(&fen)?.to_ascii()),
        Command::Unicode { fen } => print!("{}", read(&fen)?.to_unicode()),
        Command::Moves { fen } => {
            for mv in read(&fen)?.legal_moves() {
                println!("{mv}");
            }
        }
        Command::Validate { fen } => {
            read(&fen)?;
            println!("valid");
        }
    }
    Ok(())
}
