//! The `chesscore` command: perft, FEN normalisation, board rendering, move listing, FEN
//! validation, SAN, playing moves, EPD checking and PGN reading, for humans and scripts.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use chesscore::pgn::{PgnReader, WriteOptions};
use chesscore::{
    CastlingNotation, Epd, FenError, FenWriteOptions, Game, Outcome, Position, SanError, SanMode, SanOptions,
};
use clap::{Args, Parser, Subcommand};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Parser)]
#[command(name = "chesscore", version, about = "Chess core command line: perft, FEN, boards, moves, SAN, EPD, PGN")]
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
    /// Read PGN files ("-" for standard input), replaying every move: a summary (games, plies,
    /// broken games, results) on standard output, each broken game's location on standard
    /// error. Exit status 1 when a game is broken or a file unreadable.
    Pgn(PgnArgs),
}

#[derive(Args)]
struct PgnArgs {
    /// Print the final FEN of each game's main line, one line per game (`# game N: error` for
    /// a broken one); the summary then goes to standard error.
    #[arg(long)]
    fen: bool,
    /// Write every game read without error to this file, as clean PGN.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The PGN files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
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
        Command::Pgn(args) => read_pgn(&args)?,
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

/// What was read from one or more PGN files.
#[derive(Default)]
struct PgnSummary {
    games: u64,
    broken: u64,
    plies: u64,
    /// `1-0`, `0-1`, `1/2-1/2`, `*`, and games whose movetext has no result.
    results: [u64; 5],
}

impl PgnSummary {
    fn add(&mut self, other: &PgnSummary) {
        self.games += other.games;
        self.broken += other.broken;
        self.plies += other.plies;
        for (a, b) in self.results.iter_mut().zip(other.results) {
            *a += b;
        }
    }

    fn line(&self, name: &str) -> String {
        let [white, black, draw, ongoing, none] = self.results;
        format!(
            "{name}: {} games, {} broken, {} plies; results 1-0 {white}, 0-1 {black}, 1/2-1/2 {draw}, * {ongoing}, none {none}",
            self.games, self.broken, self.plies
        )
    }
}

/// Files smaller than this get no progress bar.
const PROGRESS_MIN_BYTES: u64 = 32 << 20;

/// A progress bar on standard error, redrawn at most five times a second.
struct Progress {
    total: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    /// A bar for `total` bytes, when standard error is a terminal and the file is large.
    fn new(total: Option<u64>) -> Option<Progress> {
        let total = total.filter(|&t| t >= PROGRESS_MIN_BYTES && std::io::stderr().is_terminal())?;
        let now = Instant::now();
        Some(Progress { total, start: now, last: now.checked_sub(Duration::from_secs(1)).unwrap_or(now) })
    }

    fn update(&mut self, done: u64) {
        let now = Instant::now();
        if now.duration_since(self.last) < Duration::from_millis(200) {
            return;
        }
        self.last = now;
        let fraction = (done as f64 / self.total as f64).min(1.0);
        let filled = (fraction * 40.0) as usize;
        let rate = done as f64 / 1e6 / now.duration_since(self.start).as_secs_f64().max(1e-3);
        eprint!("\r[{}{}] {:5.1}% {rate:7.1} MB/s", "#".repeat(filled), ".".repeat(40 - filled), fraction * 100.0);
    }

    fn finish(&self) {
        eprint!("\r{}\r", " ".repeat(70));
    }
}

/// Reads every game of every file (see `Command::Pgn`).
fn read_pgn(args: &PgnArgs) -> Result<(), String> {
    let mut out = match &args.out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        )),
        None => None,
    };
    let stdout = std::io::stdout();
    let mut stdout = stdout.lock();
    let mut total = PgnSummary::default();
    let mut failed_files = 0;
    let mut lines = Vec::new();
    for path in &args.files {
        match read_pgn_file(path, args.fen, &mut out, &mut stdout) {
            Ok(summary) => {
                lines.push(summary.line(&path.display().to_string()));
                total.add(&summary);
            }
            Err(message) => {
                eprintln!("chesscore: {message}");
                failed_files += 1;
            }
        }
    }
    if let Some(out) = &mut out {
        out.flush().map_err(|e| format!("cannot write the PGN output: {e}"))?;
    }
    if args.files.len() > 1 {
        lines.push(total.line("total"));
    }
    for line in lines {
        if args.fen {
            eprintln!("{line}");
        } else {
            writeln!(stdout, "{line}").map_err(|e| e.to_string())?;
        }
    }
    match (total.broken, failed_files) {
        (0, 0) => Ok(()),
        (broken, 0) => Err(format!("{broken} broken game{}", if broken == 1 { "" } else { "s" })),
        (_, files) => Err(format!("{files} file{} could not be read", if files == 1 { "" } else { "s" })),
    }
}

/// Reads one file ("-" for standard input), printing FENs and errors as it goes.
fn read_pgn_file(
    path: &Path,
    fen: bool,
    out: &mut Option<std::io::BufWriter<std::fs::File>>,
    stdout: &mut impl Write,
) -> Result<PgnSummary, String> {
    let name = path.display().to_string();
    let (input, size): (Box<dyn Read>, Option<u64>) = if path.as_os_str() == "-" {
        (Box::new(std::io::stdin().lock()), None)
    } else {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        let size = file.metadata().ok().map(|m| m.len());
        (Box::new(file), size)
    };
    let mut reader = PgnReader::new(input);
    let mut progress = Progress::new(size);
    let mut summary = PgnSummary::default();
    let write_error = |e: std::io::Error| format!("cannot write: {e}");
    loop {
        let game = reader.next_game();
        if let Some(progress) = &mut progress {
            progress.update(reader.bytes_read());
        }
        match game {
            Ok(None) => break,
            Ok(Some(record)) => {
                summary.games += 1;
                summary.plies += record.game().moves().len() as u64;
                let slot = match record.result() {
                    Some(Outcome::WhiteWins) => 0,
                    Some(Outcome::BlackWins) => 1,
                    Some(Outcome::Draw) => 2,
                    Some(Outcome::Ongoing) => 3,
                    None => 4,
                };
                summary.results[slot] += 1;
                if fen {
                    writeln!(stdout, "{}", record.position().to_fen()).map_err(write_error)?;
                }
                if let Some(out) = out {
                    record.write_pgn_io(out, &WriteOptions::default()).map_err(write_error)?;
                    writeln!(out).map_err(write_error)?;
                }
            }
            Err(e) => {
                if let Some(progress) = &progress {
                    progress.finish();
                }
                if let chesscore::pgn::PgnErrorKind::Io { .. } = e.kind {
                    return Err(format!("cannot read {name}: {}", e.kind));
                }
                summary.games += 1;
                summary.broken += 1;
                let l = e.location;
                eprintln!("{name}:{}:{}: game {}: {}", l.line, l.column, e.game, describe_pgn_error(&e));
                if fen {
                    writeln!(stdout, "# game {}: {}", e.game, describe_pgn_error(&e)).map_err(write_error)?;
                }
            }
        }
    }
    if let Some(progress) = &progress {
        progress.finish();
    }
    Ok(summary)
}

/// A PGN error without its location (printed before it).
fn describe_pgn_error(e: &chesscore::pgn::PgnError) -> String {
    let mut text = e.kind.to_string();
    if !e.text.is_empty() {
        text.push_str(&format!(" {:?}", e.text));
    }
    if e.ply > 0 {
        text.push_str(&format!(" at ply {}", e.ply));
    }
    text
}
