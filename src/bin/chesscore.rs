//! The `chesscore` command: perft, FEN normalisation, board rendering, move listing, FEN
//! validation, SAN, playing moves and EPD checking, for humans and scripts.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use chesscore::{CastlingNotation, Epd, FenError, FenWriteOptions, Game, Position, SanError, SanMode, SanOptions};
use clap::{Args, Parser, Subcommand};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Parser)]
#[command(name = "chesscore", version, about = "Chess core command line: perft, FEN, boards, moves, SAN, EPD")]
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
        #[command(flatten)]
        variant: Variant,
    },
    /// Print the canonical FEN.
    Fen {
        fen: String,
        #[command(flatten)]
        variant: Variant,
        /// Write castling rights as rook files (Shredder-FEN, `HAha`).
        #[arg(long)]
        shredder: bool,
    },
    /// Print the board with FEN letters and coordinates.
    Board {
        fen: String,
        #[command(flatten)]
        variant: Variant,
    },
    /// Print the board with Unicode chess symbols.
    Unicode {
        fen: String,
        #[command(flatten)]
        variant: Variant,
    },
    /// Print the legal moves, one per line, in UCI (king-takes-rook castling in Chess960).
    Moves {
        fen: String,
        #[command(flatten)]
        variant: Variant,
    },
    /// Check a FEN: exit status 0 when valid, 1 with the error otherwise.
    Validate {
        fen: String,
        #[command(flatten)]
        variant: Variant,
    },
    /// Play moves (UCI or SAN, each read in the position the earlier ones reach) and print
    /// each as SAN, one per line.
    San(MovesArgs),
    /// Play moves (UCI or SAN) and print the resulting FEN and the outcome.
    Play(MovesArgs),
    /// Check an EPD file ("-" for standard input): each line's position and operations, or its
    /// error. Exit status 1 when any line is invalid.
    Epd { file: PathBuf },
}

#[derive(Args, Clone, Copy)]
struct Variant {
    /// Chess960: read X-FEN or Shredder-FEN castling; castling moves are king-takes-rook.
    #[arg(long)]
    chess960: bool,
}

#[derive(Args)]
struct MovesArgs {
    /// Read SAN strictly: only the canonical spelling, check suffix included.
    #[arg(long)]
    strict: bool,
    /// Accept null moves, written `Z0` or `0000` (`--` ends the options on a command line).
    #[arg(long)]
    allow_null: bool,
    #[command(flatten)]
    variant: Variant,
    /// The start position.
    fen: String,
    /// The moves, in UCI (`e2e4`, `e7e8q`) or SAN (`e4`, `Nf3`, `O-O`).
    moves: Vec<String>,
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

fn read(fen: &str, variant: Variant) -> Result<Position, String> {
    let parsed = if variant.chess960 { Position::from_fen_chess960(fen) } else { Position::from_fen(fen) };
    parsed.map_err(|e| describe(fen, &e))
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
        Command::Perft { fen, depth, divide, variant } => {
            // A lone number is the depth for the start position.
            let (fen, depth) = match (fen, depth) {
                (Some(f), None) if f.parse::<u32>().is_ok() => (START_FEN.to_string(), f.parse().ok()),
                (fen, depth) => (fen.unwrap_or_else(|| START_FEN.to_string()), depth),
            };
            let depth = depth.unwrap_or(6);
            let pos = read(&fen, variant)?;
            let start = Instant::now();
            let nodes = if divide {
                let mut total = 0;
                for (mv, count) in pos.divide(depth) {
                    println!("{}: {count}", pos.uci(mv));
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
        Command::Fen { fen, variant, shredder } => {
            let castling = if shredder { CastlingNotation::Shredder } else { CastlingNotation::Auto };
            println!("{}", read(&fen, variant)?.to_fen_with(&FenWriteOptions { castling, ..Default::default() }));
        }
        Command::Board { fen, variant } => print!("{}", read(&fen, variant)?.to_ascii()),
        Command::Unicode { fen, variant } => print!("{}", read(&fen, variant)?.to_unicode()),
        Command::Moves { fen, variant } => {
            let pos = read(&fen, variant)?;
            for &mv in pos.legal_moves().iter() {
                println!("{}", pos.uci(mv));
            }
        }
        Command::Validate { fen, variant } => {
            read(&fen, variant)?;
            println!("valid");
        }
        Command::San(args) => {
            play(&args, |game, mv| {
                // The move was just found legal in this position.
                let san = game.position().san(mv).map_err(|e| e.to_string())?;
                println!("{san}");
                Ok(())
            })?;
        }
        Command::Play(args) => {
            let game = play(&args, |_, _| Ok(()))?;
            println!("{}", game.position().to_fen());
            let outcome = game.outcome();
            match (game.termination(), game.claimable_draw()) {
                (Some(reason), _) => println!("{outcome} {reason}"),
                (None, Some(claim)) => println!("{outcome} ongoing, draw claimable by {claim}"),
                (None, None) => println!("{outcome} ongoing"),
            }
        }
        Command::Epd { file } => check_epd(&file)?,
    }
    Ok(())
}

/// Plays the moves of `args` from its FEN, calling `each` with the game before each move.
fn play(args: &MovesArgs, mut each: impl FnMut(&Game, chesscore::Move) -> Result<(), String>) -> Result<Game, String> {
    // The argument parser drops `--`; a null move written so would vanish without a word.
    if std::env::args_os().any(|a| a == "--") {
        return Err("`--` is not accepted here: write a null move as Z0 or 0000 (with --allow-null)".to_string());
    }
    let options =
        SanOptions { mode: if args.strict { SanMode::Strict } else { SanMode::Lenient }, allow_null: args.allow_null };
    let mut game = Game::new(read(&args.fen, args.variant)?);
    game.set_allow_null_moves(args.allow_null);
    for (i, token) in args.moves.iter().enumerate() {
        let bad = |e: &dyn std::fmt::Display| format!("move {} `{token}`: {e}", i + 1);
        let mv = game.position().parse_move_token(token, &options).map_err(|e| match e {
            SanError::Illegal if !args.allow_null && ["--", "Z0", "0000", "@@@@"].contains(&token.as_str()) => {
                bad(&"null moves need --allow-null")
            }
            e => bad(&e),
        })?;
        each(&game, mv)?;
        game.push(mv).map_err(|e| bad(&e))?;
    }
    Ok(game)
}

/// Checks every non-empty line of an EPD file, listing the operations of the valid ones.
fn check_epd(file: &PathBuf) -> Result<(), String> {
    let mut text = String::new();
    let result = if file.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::File::open(file).and_then(|mut f| f.read_to_string(&mut text)).map(|_| ())
    };
    result.map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let (mut lines, mut bad) = (0, 0);
    for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l)) {
        if line.trim().is_empty() {
            continue;
        }
        lines += 1;
        match Epd::parse(line) {
            Ok(epd) => {
                let fen = epd.position().to_fen();
                let fields = fen.rsplitn(3, ' ').nth(2).unwrap_or(&fen);
                println!("line {number}: ok {fields}");
                for op in epd.operations() {
                    let mut text = String::new();
                    epd.write_operation(op, &mut text)
                        .map_err(|_| format!("line {number}: cannot write {}", op.opcode))?;
                    println!("  {text}");
                }
            }
            Err(e) => {
                bad += 1;
                eprintln!("line {number}: error: {e}");
            }
        }
    }
    if bad > 0 {
        return Err(format!("{bad} of {lines} EPD lines invalid in {}", file.display()));
    }
    Ok(())
}
