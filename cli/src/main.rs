//! The `chesscore` command: perft, FEN normalisation, board rendering, move listing, FEN
//! validation, SAN, playing moves, EPD checking, PGN reading, board pictures, UCI engines and
//! Polyglot books, for humans and
//! scripts.

use std::fmt;
use std::io::{self, BufRead, BufWriter, IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chesscore_core::files::Replacement;
use chesscore_core::pgn::{
    Decompressed, Flow, ParallelReader, PgnError, PgnReader, PgnWarning, ReaderOptions, Visitor, WriteOptions,
};
use chesscore_core::polyglot::{self, Book, BookBuilder, BuildOptions, Choice, LookupOptions};
use chesscore_core::{
    Arrow, BoardStyle, CastlingNotation, Color, Diagram, Epd, FenError, FenWriteOptions, Game, Move, MoveKind,
    MovesLine, Outcome, Position, San, SanError, SanMode, SanOptions, Square, SvgColor, SvgOptions, Uci, FEN_MAX_LEN,
};
use clap::{Args, Parser, Subcommand};
use export::{Export, ExportFormat};

mod convert;
mod engine;
mod export;
mod tablebase;

/// The FEN argument that stands for the standard start position.
const STARTPOS: &str = "startpos";

#[derive(Parser)]
#[command(
    name = "chesscore",
    version,
    about = "Chess core command line: perft, FEN, boards, moves, SAN, EPD, PGN, Polyglot books"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (default: start position, depth 6).
    Perft {
        /// The position: a FEN, `startpos` (the default), or `-` to read the FEN from standard
        /// input (its first non-empty line).
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
        #[command(flatten)]
        position: PositionArgs,
        /// Write castling rights as rook files (Shredder-FEN, `HAha`).
        #[arg(long, conflicts_with = "binary")]
        shredder: bool,
        /// Print the position in binary FEN (the lichess encoding), in hexadecimal.
        #[arg(long)]
        binary: bool,
    },
    /// Print the board with FEN letters and coordinates.
    Board(PositionArgs),
    /// Print the board with Unicode chess symbols.
    Unicode(PositionArgs),
    /// Print the legal moves, one per line, in UCI (king-takes-rook castling in Chess960).
    Moves(PositionArgs),
    /// Check a FEN: exit status 0 when valid, 1 with the error otherwise.
    Validate(PositionArgs),
    /// Play moves and print each as SAN, one per line.
    San(MovesArgs),
    /// Play moves and print the resulting FEN and the outcome.
    Play(MovesArgs),
    /// Convert training data between Stockfish's `.plain` and `.binpack` and EPD, by the files'
    /// extensions; prints the number of entries.
    ///
    /// EPD holds an entry as `hmvc`, `fmvn`, `sm` (the move), `ce` (the score), `ply` and
    /// `result` operations.
    Convert {
        /// The file to read (`.plain`, `.binpack` or `.epd`).
        input: PathBuf,
        /// The file to write (`.plain`, `.binpack` or `.epd`).
        output: PathBuf,
    },
    /// Check an EPD file: each line's position and operations, or its error.
    ///
    /// Exit status 1 when any line is invalid or the file has none.
    Epd {
        /// The EPD file, or `-` for standard input.
        file: PathBuf,
    },
    /// Read PGN files, replaying every move, and summarise them.
    ///
    /// The summary (games, plies, broken games, results) goes to standard output, each broken
    /// game's location to standard error. Exit status 1 when a game is broken or a file
    /// unreadable.
    Pgn(PgnArgs),
    /// Draw the board as an SVG picture, to standard output or to a file.
    ///
    /// A king in check glows red. Arrows are straight, from centre to centre; an arrow from a
    /// square to itself is a ring.
    Svg(SvgArgs),
    /// Analyse a position with a UCI engine: each MultiPV line as `multipv K depth D score cp
    /// N|mate N pv M1 M2 ...` (score from the side to move), then `bestmove M`.
    Analyse(engine::AnalyseArgs),
    /// Run an EPD test suite through a UCI engine: a position is solved when the engine's move
    /// is in `bm` and not in `am`. One line per position, then `N solved of M`.
    Epdtest(engine::EpdtestArgs),
    /// Play games between two UCI engines, colours alternating, adjudicated by the rules; ends
    /// with A's score, `A: W-D-L`.
    Match(engine::MatchArgs),
    /// Polyglot opening books: look a position up, pick a move, build a book from PGN games,
    /// merge two books, list a book's entries.
    #[command(subcommand)]
    Book(BookCommand),
    /// Syzygy endgame tablebases: probe a position, rank its moves.
    #[command(subcommand)]
    Tb(tablebase::TbCommand),
}

#[derive(Args)]
struct SvgArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Black at the bottom.
    #[arg(long)]
    flip: bool,
    /// Tint the two squares of the move that led to the position, in UCI (`e2e4`).
    #[arg(long, value_name = "UCI")]
    lastmove: Option<String>,
    /// An arrow, in UCI with an optional colour: `e2e4`, `e2e4:red` (green, red, blue, yellow,
    /// #rgb, #rrggbb or #rrggbbaa). Repeat for more arrows.
    #[arg(long = "arrow", value_name = "UCI[:COLOUR]")]
    arrows: Vec<String>,
    /// Width and height in pixels.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    size: u32,
    /// No coordinates and no margin around the board.
    #[arg(long)]
    no_coordinates: bool,
    /// Write the picture to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Print a position's entries, one per line: `uci weight learn`, in file order (moves not
    /// legal in the position left out).
    Probe {
        /// The book file.
        book: PathBuf,
        #[command(flatten)]
        position: PositionArgs,
        /// Leave out entries of a lower weight (0 shows them all).
        #[arg(long, value_name = "N", default_value_t = 1)]
        min_weight: u16,
    },
    /// Print one of a position's book moves in UCI, chosen at random by weight (exit status 1
    /// when the position has none).
    Pick {
        /// The book file.
        book: PathBuf,
        #[command(flatten)]
        position: PositionArgs,
        /// Choose reproducibly: the same seed gives the same move.
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        /// Every entry alike, whatever its weight.
        #[arg(long, conflicts_with = "best")]
        uniform: bool,
        /// The highest weight (the first in the file among equal weights).
        #[arg(long)]
        best: bool,
    },
    /// Build a book from PGN games (the rules are in docs/books.md).
    Make(MakeArgs),
    /// Merge two books: the weights of a move in both add up, learn values come from the first.
    Merge {
        /// The first book.
        a: PathBuf,
        /// The second book.
        b: PathBuf,
        /// The book to write.
        #[arg(short, long = "out", value_name = "BOOK", required = true)]
        out: PathBuf,
    },
    /// Print every entry in file order: `key uci weight learn`, the key in 16 hex digits and
    /// the move as stored (castling as king takes rook).
    Dump {
        /// The book file.
        book: PathBuf,
    },
}

#[derive(Args)]
struct MakeArgs {
    /// The PGN files, `-` for standard input.
    #[arg(required = true, value_name = "PGN")]
    files: Vec<PathBuf>,
    /// The book to write.
    #[arg(short, long = "out", value_name = "BOOK", required = true)]
    out: PathBuf,
    /// Count the first N plies of each game.
    #[arg(long, value_name = "N", default_value_t = 40)]
    max_ply: u32,
    /// Leave out moves played in fewer than N games.
    #[arg(long, value_name = "N", default_value_t = 1)]
    min_games: u64,
    /// Leave out moves scoring under P percent for the side that played them.
    #[arg(long, value_name = "P", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    min_score: u32,
    /// Count White's moves only.
    #[arg(long, conflicts_with = "only_black")]
    only_white: bool,
    /// Count Black's moves only.
    #[arg(long)]
    only_black: bool,
    /// Give every move weight 1 instead of its score.
    #[arg(long)]
    uniform: bool,
    /// Count Chess960 games too (skipped otherwise).
    #[arg(long)]
    chess960: bool,
}

#[derive(Args)]
struct PgnArgs {
    /// Print the final FEN of each game's main line, one line per game (`# game N: error` for
    /// a broken one); the summary then goes to standard error.
    #[arg(long)]
    fen: bool,
    /// Print every game as a JSON line (`headers`, `uci`, `san`, `clk`, `eval`, `error`) or a CSV
    /// row (the tags, `result`, `plies`, `uci`, `error`); the summary then goes to standard
    /// error.
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with = "fen")]
    export: Option<ExportFormat>,
    /// Write every game read without error to this file, as clean PGN.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write one SVG picture per ply of the first game of the (one) file into DIR, made if
    /// needed: `ply-000.svg` is the start position, each later one has its move marked and a
    /// king in check glowing.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["fen", "out", "export"])]
    svg: Option<PathBuf>,
    /// Threads reading each file (default: one per core), each a part of it; the games come out
    /// in file order all the same.
    #[arg(long, default_value_t = default_threads(), value_name = "N")]
    threads: NonZeroUsize,
    /// The PGN files, `-` for standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// One thread per core, as the system tells them.
fn default_threads() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

#[derive(Args)]
struct PositionArgs {
    /// The position: a FEN, `startpos`, or `-` to read the FEN from standard input (its first
    /// non-empty line).
    fen: String,
    #[command(flatten)]
    variant: Variant,
}

impl PositionArgs {
    fn read(&self) -> Result<Position, String> {
        read(&self.fen, self.variant)
    }
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
    position: PositionArgs,
    /// The moves, in UCI (`e2e4`, `e7e8q`) or SAN (`e4`, `Nf3`, `O-O`), each read in the
    /// position the earlier ones reach; none after the game has ended by checkmate, stalemate
    /// or another automatic rule.
    moves: Vec<String>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to standard output, which can fail like any output.
            return match e.print() {
                Err(write) if !e.use_stderr() => exit_status(Err(Failure::Output(write))),
                _ => ExitCode::from(e.exit_code() as u8),
            };
        }
    };
    let mut out = Output::new();
    let result = run(cli.command, &mut out);
    // What was written before a failure goes out before the message about it.
    let flushed = out.flush();
    exit_status(result.and(flushed))
}

/// Reports the failure, if any, and gives the exit status.
fn exit_status(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader has stopped reading (`chesscore moves startpos | head -1`): it has what it
        // wanted, so stop quietly.
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(failure) => {
            // Nowhere is left to report a failure to write this.
            let _ = writeln!(io::stderr(), "chesscore: {failure}");
            ExitCode::FAILURE
        }
    }
}

/// Why a command failed.
enum Failure {
    /// Bad input, an unreadable file, an illegal move: the message for standard error.
    Message(String),
    /// Standard output could not be written.
    Output(io::Error),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Message(message)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Message(message) => f.write_str(message),
            Failure::Output(e) => write!(f, "cannot write output: {}", io_text(e)),
        }
    }
}

/// An I/O error's text without the ` (os error N)` that its `Display` appends.
fn io_text(e: &io::Error) -> String {
    let text = e.to_string();
    match e.raw_os_error() {
        Some(code) => text.strip_suffix(&format!(" (os error {code})")).unwrap_or(&text).to_string(),
        None => text,
    }
}

/// Starts the output file `path`, written through a temporary file beside it that
/// [`finish_output`] renames into place (a failed run leaves the old file as it was); refused
/// when `path` is one of `inputs` (through any link), which writing would destroy.
fn create_output(path: &Path, inputs: &[&Path]) -> Result<Replacement, String> {
    Replacement::create(path, inputs).map_err(|e| format!("cannot write {}: {}", path.display(), io_text(&e)))
}

/// Puts an output file of [`create_output`] in place.
fn finish_output(file: Replacement, path: &Path) -> Result<(), String> {
    file.commit().map_err(|e| format!("cannot write {}: {}", path.display(), io_text(&e)))
}

/// Standard output, where every command writes with `write!`/`writeln!`: a failed write is a
/// [`Failure`] that ends the command. Buffered, except on a terminal, where each line shows as
/// it is written.
struct Output {
    stdout: Box<dyn Write>,
}

impl Output {
    fn new() -> Output {
        let stdout = io::stdout();
        let stdout: Box<dyn Write> =
            if stdout.is_terminal() { Box::new(stdout.lock()) } else { Box::new(BufWriter::new(stdout.lock())) };
        Output { stdout }
    }

    /// Standard output, for writers of their own.
    fn raw(&mut self) -> &mut dyn Write {
        &mut *self.stdout
    }

    /// What `write!` and `writeln!` call.
    fn write_fmt(&mut self, args: fmt::Arguments) -> Result<(), Failure> {
        self.stdout.write_fmt(args).map_err(Failure::Output)
    }

    fn flush(&mut self) -> Result<(), Failure> {
        self.stdout.flush().map_err(Failure::Output)
    }

    /// Writes a line to standard error after the output so far, so that the two keep their
    /// order when they go to the same place. A failure to write standard error is ignored, as
    /// Unix tools do: there is nowhere to report it.
    fn note(&mut self, line: fmt::Arguments) -> Result<(), Failure> {
        self.flush()?;
        let _ = writeln!(io::stderr(), "{line}");
        Ok(())
    }
}

/// Reads the position a FEN argument stands for: [`STARTPOS`] is the standard start position,
/// and `-` the first non-empty line of standard input (which may say `startpos` too).
fn read(arg: &str, variant: Variant) -> Result<Position, String> {
    let line;
    let fen = if arg == "-" {
        line = stdin_line()?;
        &line
    } else {
        arg
    };
    let start;
    let fen = if fen.trim() == STARTPOS {
        start = Position::startpos().to_fen();
        &start
    } else {
        fen
    };
    let parsed = if variant.chess960 { Position::from_fen_chess960(fen) } else { Position::from_fen(fen) };
    parsed.map_err(|e| describe(fen, &e))
}

/// The first line of standard input that is not blank, without its line end.
fn stdin_line() -> Result<String, String> {
    // A FEN is short: an endless stream without line ends is not read to its end.
    for line in io::stdin().lock().take(1 << 20).lines() {
        let line = line.map_err(|e| format!("cannot read standard input: {}", io_text(&e)))?;
        if !line.trim().is_empty() {
            return Ok(line);
        }
    }
    Err("no FEN on standard input".to_string())
}

/// The error, the FEN and a caret under the place of the error.
fn describe(fen: &str, error: &FenError) -> String {
    let (shown, caret) = show_at(fen, error.offset());
    format!("invalid FEN at byte {} ({}): {error}\n  {shown}\n  {}^", error.offset(), error.field(), " ".repeat(caret))
}

/// At most this many columns of a FEN are shown under an error: as many as the longest FEN a
/// position can have.
const SHOWN_FEN_WIDTH: usize = FEN_MAX_LEN;

/// Marks where a shown FEN was shortened.
const ELLIPSIS: &str = "...";

/// `input` as shown on one line, and the caret's column for byte `offset` in it. Every byte
/// that is not printable ASCII is shown as `\xNN`, so that each byte shown takes one column (a
/// terminal may give a non-ASCII character one column, two or none); an offset at the end or
/// past it points at the last character; and an input wider than [`SHOWN_FEN_WIDTH`] is
/// shortened around the offset, the cuts marked by [`ELLIPSIS`].
fn show_at(input: &str, offset: usize) -> (String, usize) {
    let chars: Vec<(usize, String)> = input.char_indices().map(|(i, c)| (i, show_char(c, false))).collect();
    let Some(at) = chars.iter().rposition(|&(i, _)| i <= offset) else {
        return (String::new(), 0);
    };
    let width = |range: std::ops::Range<usize>| chars[range].iter().map(|(_, shown)| shown.len()).sum::<usize>();
    let total = width(0..chars.len());
    let budget = if total <= SHOWN_FEN_WIDTH { total } else { SHOWN_FEN_WIDTH - 2 * ELLIPSIS.len() };
    // Grow the window around the caret one character each way at a time while it fits.
    let (mut start, mut end, mut used) = (at, at + 1, chars[at].1.len());
    loop {
        let before = (start, end);
        if start > 0 && used + chars[start - 1].1.len() <= budget {
            start -= 1;
            used += chars[start].1.len();
        }
        if end < chars.len() && used + chars[end].1.len() <= budget {
            used += chars[end].1.len();
            end += 1;
        }
        if (start, end) == before {
            break;
        }
    }
    let head = if start > 0 { ELLIPSIS } else { "" };
    let tail = if end < chars.len() { ELLIPSIS } else { "" };
    let shown: String = chars[start..end].iter().map(|(_, shown)| shown.as_str()).collect();
    (format!("{head}{shown}{tail}"), head.len() + width(start..at))
}

/// `c` as a message shows it: printable ASCII as it is, the replacement character that stands
/// for invalid UTF-8 as `?`, other printable characters as they are when `unicode`, and any
/// other character as `\xNN` for each byte of its UTF-8.
fn show_char(c: char, unicode: bool) -> String {
    match c {
        ' '..='~' => c.to_string(),
        char::REPLACEMENT_CHARACTER => "?".to_string(),
        c if unicode && !c.is_control() => c.to_string(),
        c => c.to_string().bytes().map(|b| format!("\\x{b:02X}")).collect(),
    }
}

fn run(command: Command, out: &mut Output) -> Result<(), Failure> {
    match command {
        Command::Perft { fen, depth, divide, variant } => {
            // A lone number is the depth for the start position.
            let (fen, depth) = match (fen, depth) {
                (Some(f), None) if f.parse::<u32>().is_ok() => (STARTPOS.to_string(), f.parse().ok()),
                (fen, depth) => (fen.unwrap_or_else(|| STARTPOS.to_string()), depth),
            };
            let depth = depth.unwrap_or(6);
            let pos = read(&fen, variant)?;
            let start = Instant::now();
            let nodes = if divide {
                let mut total = 0;
                for (mv, count) in pos.divide(depth) {
                    writeln!(out, "{}: {count}", Uci::from_move(&pos, mv))?;
                    total += count;
                }
                total
            } else {
                pos.perft(depth)
            };
            let seconds = start.elapsed().as_secs_f64();
            let rate = nodes as f64 / seconds.max(1e-9);
            let counted_nodes = counted(nodes, "node", "nodes");
            writeln!(out, "depth {depth}: {counted_nodes} in {seconds:.3} s, {rate:.0} nodes/s")?;
            writeln!(out, "{nodes}")?;
        }
        Command::Fen { position, binary: true, .. } => writeln!(out, "{}", position.read()?.to_binary_fen())?,
        Command::Fen { position, shredder, binary: false } => {
            let castling = if shredder { CastlingNotation::Shredder } else { CastlingNotation::Auto };
            let options = FenWriteOptions { castling, ..Default::default() };
            writeln!(out, "{}", position.read()?.to_fen_with(&options))?;
        }
        Command::Board(position) => write!(out, "{}", Diagram::new(&position.read()?, BoardStyle::Ascii))?,
        Command::Unicode(position) => write!(out, "{}", Diagram::new(&position.read()?, BoardStyle::Unicode))?,
        Command::Moves(position) => {
            let pos = position.read()?;
            for &mv in pos.legal_moves().iter() {
                writeln!(out, "{}", Uci::from_move(&pos, mv))?;
            }
        }
        Command::Validate(position) => {
            position.read()?;
            writeln!(out, "valid")?;
        }
        Command::San(args) => {
            play(&args, |game, mv| {
                // The move was just found legal in this position.
                let san = San::from_move(game.position(), mv).map_err(|e| e.to_string())?;
                writeln!(out, "{san}")
            })?;
        }
        Command::Play(args) => {
            let game = play(&args, |_, _| Ok(()))?;
            writeln!(out, "{}", game.position().to_fen())?;
            let outcome = game.outcome();
            match (game.termination(), game.claimable_draw()) {
                (Some(reason), _) => writeln!(out, "{outcome} {reason}")?,
                (None, Some(claim)) => writeln!(out, "{outcome} ongoing, draw claimable by {claim}")?,
                (None, None) => writeln!(out, "{outcome} ongoing")?,
            }
        }
        Command::Convert { input, output } => convert::convert(&input, &output, out)?,
        Command::Epd { file } => check_epd(&file, out)?,
        Command::Pgn(args) => match &args.svg {
            Some(dir) => game_pictures(dir, &args.files, out)?,
            None => read_pgn(&args, out)?,
        },
        Command::Svg(args) => {
            let pos = args.position.read()?;
            let svg = pos.to_svg(&svg_options(&pos, &args)?);
            match &args.output {
                Some(path) => write_file(path, &svg)?,
                None => write!(out, "{svg}")?,
            }
        }
        Command::Analyse(args) => engine::analyse(&args, out)?,
        Command::Epdtest(args) => engine::epdtest(&args, out)?,
        Command::Match(args) => engine::play_match(&args, out)?,
        Command::Book(command) => book(command, out)?,
        Command::Tb(command) => tablebase::run(command, out)?,
    }
    Ok(())
}

/// A move in UCI as the position's convention writes it (castling `e1g1` in standard chess).
fn uci(pos: &Position, mv: Move) -> String {
    Uci::from_move(pos, mv).to_string()
}

/// Opens a book file, naming it in the error.
fn open_book(path: &Path) -> Result<Book, String> {
    Book::open(path).map_err(|e| match e {
        polyglot::BookError::Io(io) => format!("cannot read book {}: {}", path.display(), io_text(&io)),
        e => format!("bad book {}: {e}", path.display()),
    })
}

/// Writes a book file made from `inputs`, naming it in the error.
fn save_book(book: &Book, path: &Path, inputs: &[&Path]) -> Result<(), String> {
    let mut file = create_output(path, inputs)?;
    book.write_to(&mut file).map_err(|e| format!("cannot write {}: {}", path.display(), io_text(&e)))?;
    finish_output(file, path)
}

fn book(command: BookCommand, out: &mut Output) -> Result<(), Failure> {
    match command {
        BookCommand::Probe { book, position, min_weight } => {
            let (book, pos) = (open_book(&book)?, position.read()?);
            for entry in book.lookup_with(&pos, LookupOptions { min_weight, ..LookupOptions::default() }) {
                writeln!(out, "{} {} {}", uci(&pos, entry.mv), entry.weight, entry.learn)?;
            }
        }
        BookCommand::Pick { book, position, seed, uniform, best } => {
            let (book, pos) = (open_book(&book)?, position.read()?);
            let choice = match (uniform, best) {
                (true, _) => Choice::Uniform,
                (_, true) => Choice::Best,
                _ => Choice::Weighted,
            };
            // Without a seed, a number the standard library draws afresh for each process.
            let random = match seed {
                Some(seed) => polyglot::random_from_seed(seed),
                None => std::hash::BuildHasher::hash_one(&std::collections::hash_map::RandomState::new(), 0u8),
            };
            let entry = book.pick(&pos, choice, random).ok_or("no book move for this position".to_string())?;
            writeln!(out, "{}", uci(&pos, entry.mv))?;
        }
        BookCommand::Make(args) => make_book(&args, out)?,
        BookCommand::Merge { a, b, out: path } => {
            let (first, second) = (open_book(&a)?, open_book(&b)?);
            let entries = polyglot::merge(&first, &second).map_err(|e| format!("cannot merge: {e}"))?;
            let merged = Book::from_entries(&entries).map_err(|e| format!("cannot merge: {e}"))?;
            save_book(&merged, &path, &[&a, &b])?;
            let (sizes, total) =
                (format!("{} + {}", first.len(), second.len()), counted(merged.len() as u64, "entry", "entries"));
            writeln!(out, "{}: {total} (from {sizes})", path.display())?;
        }
        BookCommand::Dump { book } => {
            for entry in open_book(&book)?.entries() {
                writeln!(out, "{entry}")?;
            }
        }
    }
    Ok(())
}

/// Builds a book from the games of every file (see `BookCommand::Make`).
fn make_book(args: &MakeArgs, out: &mut Output) -> Result<(), Failure> {
    let only = match (args.only_white, args.only_black) {
        (true, _) => Some(Color::White),
        (_, true) => Some(Color::Black),
        _ => None,
    };
    let options = BuildOptions {
        max_ply: args.max_ply,
        min_games: args.min_games,
        min_score: args.min_score,
        only,
        uniform: args.uniform,
        chess960: args.chess960,
    };
    let mut builder = BookBuilder::new(options);
    let (mut games, mut used, mut broken) = (0, 0, 0);
    for path in &args.files {
        let name = input_name(path);
        let input = PgnInput::open(path)?;
        let summary = builder.add_pgn(&mut PgnReader::new(input)).map_err(|e| format!("cannot read {name}: {e}"))?;
        (games, used, broken) = (games + summary.games, used + summary.counted, broken + summary.broken);
    }
    let book = builder.build().map_err(|e| format!("cannot build the book: {e}"))?;
    let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    save_book(&book, &args.out, &inputs)?;
    if book.is_empty() {
        out.note(format_args!("chesscore: warning: no game gave an entry: {} is empty", args.out.display()))?;
    }
    let entries = counted(book.len() as u64, "entry", "entries");
    let games = counted(games, "game", "games");
    // Only the games that count are read through, so only those can be found broken.
    let broken = if broken > 0 {
        format!(", {} counted up to the problem", counted(broken, "broken game", "broken games"))
    } else {
        String::new()
    };
    writeln!(out, "{}: {entries} from {used} of {games}{broken}", args.out.display())?;
    Ok(())
}

/// Plays the moves of `args` from its FEN, calling `each` with the game before each move.
fn play(
    args: &MovesArgs,
    mut each: impl FnMut(&Game, chesscore_core::Move) -> Result<(), Failure>,
) -> Result<Game, Failure> {
    // The argument parser drops `--`; a null move written so would vanish without a word.
    if std::env::args_os().any(|a| a == "--") {
        let message = "`--` is not accepted here: write a null move as Z0 or 0000 (with --allow-null)";
        return Err(Failure::Message(message.to_string()));
    }
    let options =
        SanOptions { mode: if args.strict { SanMode::Strict } else { SanMode::Lenient }, allow_null: args.allow_null };
    let mut game = Game::new(args.position.read()?);
    game.set_allow_null_moves(args.allow_null);
    for (i, token) in args.moves.iter().enumerate() {
        let bad = |e: &dyn std::fmt::Display| format!("move {} `{token}`: {e}", i + 1);
        if let Some(reason) = game.termination() {
            return Err(bad(&format!("game is over ({reason})")).into());
        }
        let mv = MovesLine::read_token(game.position(), token, &options).map_err(|e| match e {
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

/// Checks every non-empty line of an EPD file, listing the operations of the valid ones. A file
/// without any is an error too: an empty file is more likely a mistake than a test suite.
fn check_epd(file: &Path, out: &mut Output) -> Result<(), Failure> {
    let mut input = EpdLines::open(file)?;
    let name = input.name.clone();
    let (mut lines, mut bad) = (0u64, 0u64);
    while let Some((number, line)) = input.next_line()? {
        let Some(line) = line else {
            lines += 1;
            bad += 1;
            out.note(format_args!("line {number}: error: not UTF-8 text"))?;
            continue;
        };
        lines += 1;
        match Epd::parse(line) {
            Ok(epd) => {
                let fen = epd.position().to_fen();
                let fields = fen.rsplitn(3, ' ').nth(2).unwrap_or(&fen);
                writeln!(out, "line {number}: ok {fields}")?;
                for op in epd.operations() {
                    let mut text = String::new();
                    epd.write_operation(op, &mut text)
                        .map_err(|_| format!("line {number}: cannot write {}", op.opcode))?;
                    writeln!(out, "  {text}")?;
                }
            }
            Err(e) => {
                bad += 1;
                out.note(format_args!("line {number}: error: {e}"))?;
            }
        }
    }
    match (lines, bad) {
        (0, _) => Err(format!("no EPD lines in {name}").into()),
        (_, 0) => Ok(()),
        (lines, bad) => Err(format!("{bad} of {} invalid in {name}", counted(lines, "EPD line", "EPD lines")).into()),
    }
}

/// The longest EPD line read (64 MiB, by `epd`, `epdtest` and `match --openings`): input is
/// read a line at a time, so a huge file costs no more memory than its longest line, and a
/// device that never ends a line (such as `/dev/zero`) stops with an error.
const EPD_MAX_LINE: usize = 64 << 20;

/// The lines of an EPD file, or of standard input (`-`), one at a time (see [`EPD_MAX_LINE`]).
struct EpdLines {
    input: Box<dyn BufRead>,
    /// The file's name in messages.
    name: String,
    number: usize,
    bytes: Vec<u8>,
}

impl EpdLines {
    fn open(path: &Path) -> Result<EpdLines, String> {
        let name = input_name(path);
        let input: Box<dyn BufRead> = if is_stdin(path) {
            Box::new(io::stdin().lock())
        } else {
            let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {}", io_text(&e)))?;
            Box::new(io::BufReader::new(file))
        };
        Ok(EpdLines { input, name, number: 0, bytes: Vec::new() })
    }

    /// The next line that is not blank, with its number (from 1), `None` for its text when it
    /// is not UTF-8; `None` at the end of the input. A line too long is an error.
    fn next_line(&mut self) -> Result<Option<(usize, Option<&str>)>, String> {
        loop {
            self.number += 1;
            let (number, name) = (self.number, &self.name);
            match chesscore_core::files::read_line(&mut self.input, &mut self.bytes, EPD_MAX_LINE) {
                Ok(0) => return Ok(None),
                Ok(_) => {}
                Err(_) if self.bytes.len() > EPD_MAX_LINE => {
                    let mib = EPD_MAX_LINE >> 20;
                    return Err(format!("line {number} of {name} is longer than {mib} MiB: not read further"));
                }
                Err(e) => return Err(format!("cannot read {name}: {}", io_text(&e))),
            }
            match std::str::from_utf8(&self.bytes) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(_) => break,
                Err(_) => return Ok(Some((number, None))),
            }
        }
        Ok(Some((self.number, std::str::from_utf8(&self.bytes).ok())))
    }
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
            "{name}: {}, {} broken, {}; results 1-0 {white}, 0-1 {black}, 1/2-1/2 {draw}, * {ongoing}, none {none}",
            counted(self.games, "game", "games"),
            self.broken,
            counted(self.plies, "ply", "plies")
        )
    }
}

/// `-` stands for standard input where a file is read.
fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How messages name an input file.
fn input_name(path: &Path) -> String {
    if is_stdin(path) {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// `count` with the noun for it: `1 game`, `2 games`.
fn counted(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
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
        let bar = format!("[{}{}]", "#".repeat(filled), ".".repeat(40 - filled));
        let left = (self.total.saturating_sub(done)) as f64 / 1e6 / rate.max(1e-9);
        let eta = format!("ETA {}:{:02}", (left / 60.0) as u64, (left % 60.0) as u64);
        // Only a help: a failure to show it is no reason to stop.
        let _ = write!(io::stderr(), "\r{bar} {:5.1}% {rate:7.1} MB/s {eta:>10}", fraction * 100.0);
    }

    fn finish(&self) {
        let _ = write!(io::stderr(), "\r{}\r", " ".repeat(80));
    }
}

/// Reads every game of every file (see `Command::Pgn`).
fn read_pgn(args: &PgnArgs, out: &mut Output) -> Result<(), Failure> {
    let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    let mut clean = args.out.as_deref().map(|path| create_output(path, &inputs)).transpose()?;
    let mut export = args.export.map(|format| Export::start(format, &args.files, out.raw())).transpose()?;
    let mut total = PgnSummary::default();
    let mut failed_files = 0u64;
    let mut lines = Vec::new();
    for path in &args.files {
        let sinks = Sinks { fen: args.fen, clean: &mut clean, export: &mut export };
        match read_pgn_file(path, args.threads.get(), sinks, out) {
            Ok(summary) => {
                lines.push(summary.line(&input_name(path)));
                total.add(&summary);
            }
            Err(Failure::Message(message)) => {
                out.note(format_args!("chesscore: {message}"))?;
                failed_files += 1;
            }
            Err(output) => return Err(output),
        }
    }
    // In place even when games were broken: it holds the others.
    if let (Some(clean), Some(path)) = (clean, &args.out) {
        finish_output(clean, path)?;
    }
    if args.files.len() > 1 {
        lines.push(total.line("total"));
    }
    for line in lines {
        if args.fen || args.export.is_some() {
            out.note(format_args!("{line}"))?;
        } else {
            writeln!(out, "{line}")?;
        }
    }
    match (total.broken, failed_files) {
        (0, 0) => Ok(()),
        (broken, 0) => Err(counted(broken, "broken game", "broken games").into()),
        (_, files) => Err(format!("{} could not be read", counted(files, "file", "files")).into()),
    }
}

/// The message for a failure to write the file of `pgn --out`.
fn clean_write_error(e: io::Error) -> String {
    format!("cannot write the --out file: {}", io_text(&e))
}

/// A PGN input of the command line: a file or standard input ("-"), decompressed when its
/// first bytes say it is gzip or Zstandard, counting the bytes taken from it (for the progress
/// bar, which follows the file, not the text decompressed from it).
struct PgnInput {
    input: Decompressed<Counting>,
    /// The file's size; `None` for standard input.
    size: Option<u64>,
    consumed: Arc<AtomicU64>,
}

/// A reader counting the bytes it gives (shared with the thread that shows the progress).
struct Counting {
    inner: Box<dyn Read + Send>,
    consumed: Arc<AtomicU64>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl PgnInput {
    fn open(path: &Path) -> Result<PgnInput, Failure> {
        let consumed = Arc::new(AtomicU64::new(0));
        let (inner, size): (Box<dyn Read + Send>, Option<u64>) = if is_stdin(path) {
            (Box::new(io::stdin()), None)
        } else {
            let name = input_name(path);
            let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {}", io_text(&e)))?;
            let size = file.metadata().ok().map(|m| m.len());
            (Box::new(file), size)
        };
        let counting = Counting { inner, consumed: consumed.clone() };
        Ok(PgnInput { input: Decompressed::threaded(counting), size, consumed })
    }
}

impl Read for PgnInput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.input.read(buf)
    }
}

/// What the summary of `chesscore pgn` needs of a game: its plies, its result token, the
/// reader's warnings, its final position when `--fen` asks for it, and the record itself when
/// `--out` does.
struct GameRead {
    plies: u64,
    result: Option<Outcome>,
    warnings: Vec<PgnWarning>,
    final_fen: Option<String>,
    record: Option<Game>,
}

/// Reads the main line of a game for its summary, replaying the moves without keeping them.
struct Summarise {
    fen: bool,
    plies: u64,
    warnings: Vec<PgnWarning>,
    last: Option<Position>,
}

impl Visitor for Summarise {
    type Output = GameRead;

    fn begin_game(&mut self) {
        (self.plies, self.last) = (0, None);
        self.warnings.clear();
    }

    fn warning(&mut self, warning: PgnWarning) {
        self.warnings.push(warning);
    }

    fn begin_movetext(&mut self, start: &Position) {
        if self.fen {
            self.last = Some(*start);
        }
    }

    fn san(&mut self, _: &str, _: Move, _: &Position, after: &Position) -> Flow {
        self.plies += 1;
        if self.fen {
            self.last = Some(*after);
        }
        Flow::Continue
    }

    fn end_game(&mut self, result: Option<Outcome>) -> GameRead {
        GameRead {
            plies: self.plies,
            result,
            warnings: std::mem::take(&mut self.warnings),
            final_fen: self.last.map(|pos| pos.to_fen()),
            record: None,
        }
    }
}

impl GameRead {
    fn of_record(record: Game) -> GameRead {
        GameRead {
            plies: record.moves().len() as u64,
            result: record.result(),
            warnings: record.warnings().to_vec(),
            final_fen: Some(record.position().to_fen()),
            record: Some(record),
        }
    }
}

/// The games of `input`, read by `threads` threads (one: a single reader in this thread), as
/// whole records when `records` is set, else through [`Summarise`].
fn pgn_games(
    input: PgnInput,
    threads: usize,
    records: bool,
    fen: bool,
) -> Box<dyn Iterator<Item = Result<GameRead, PgnError>>> {
    let options = ReaderOptions::default();
    let summarise = move || Summarise { fen, plies: 0, warnings: Vec::new(), last: None };
    match (threads, records) {
        (1, true) => Box::new(PgnReader::new(input).map(|game| game.map(GameRead::of_record))),
        (1, false) => {
            let (mut reader, mut visitor) = (PgnReader::new(input), summarise());
            Box::new(std::iter::from_fn(move || reader.read_game(&mut visitor).transpose()))
        }
        (_, true) => {
            Box::new(ParallelReader::records(input, threads, options).map(|game| game.map(GameRead::of_record)))
        }
        (_, false) => Box::new(ParallelReader::visiting(input, threads, options, summarise)),
    }
}

/// Where `chesscore pgn` puts the games besides its summary.
struct Sinks<'a> {
    /// Each game's final FEN on standard output.
    fen: bool,
    /// The clean PGN of `--out`.
    clean: &'a mut Option<Replacement>,
    /// The rows of `--export`.
    export: &'a mut Option<Export>,
}

/// Reads one file ("-" for standard input), printing FENs, exports and errors as it goes.
fn read_pgn_file(path: &Path, threads: usize, sinks: Sinks<'_>, out: &mut Output) -> Result<PgnSummary, Failure> {
    let Sinks { fen, clean, export } = sinks;
    let name = input_name(path);
    let input = PgnInput::open(path)?;
    let (size, consumed) = (input.size, input.consumed.clone());
    let mut progress = Progress::new(size);
    let mut summary = PgnSummary::default();
    for game in pgn_games(input, threads, clean.is_some() || export.is_some(), fen) {
        if let Some(progress) = &mut progress {
            progress.update(consumed.load(Ordering::Relaxed));
        }
        match game {
            Ok(game) => {
                summary.games += 1;
                summary.plies += game.plies;
                let slot = match game.result {
                    Some(Outcome::WhiteWins) => 0,
                    Some(Outcome::BlackWins) => 1,
                    Some(Outcome::Draw) => 2,
                    Some(Outcome::Ongoing) => 3,
                    None => 4,
                };
                summary.results[slot] += 1;
                for w in &game.warnings {
                    let l = w.location;
                    let number = summary.games;
                    out.note(format_args!("{name}:{}:{}: game {number}: warning: {}", l.line, l.column, w.kind))?;
                }
                if let (true, Some(final_fen)) = (fen, &game.final_fen) {
                    writeln!(out, "{final_fen}")?;
                }
                if let (Some(clean), Some(record)) = (clean.as_mut(), &game.record) {
                    record
                        .write_pgn_io(clean, &WriteOptions::default())
                        .and_then(|()| writeln!(clean))
                        .map_err(clean_write_error)?;
                }
                if let (Some(export), Some(record)) = (export.as_mut(), &game.record) {
                    export.write(record, None, out.raw())?;
                }
            }
            Err(e) => {
                if let Some(progress) = &progress {
                    progress.finish();
                }
                if let chesscore_core::pgn::PgnErrorKind::Io { .. } = e.kind {
                    return Err(format!("cannot read {name}: {}", e.kind).into());
                }
                summary.games += 1;
                summary.broken += 1;
                let l = e.location;
                out.note(format_args!("{name}:{}:{}: game {}: {}", l.line, l.column, e.game, describe_pgn_error(&e)))?;
                if fen {
                    writeln!(out, "# game {}: {}", e.game, describe_pgn_error(&e))?;
                }
                if let Some(export) = export.as_mut() {
                    let empty = Game::default();
                    let partial = e.partial.as_deref().unwrap_or(&empty);
                    export.write(partial, Some(&e.to_string()), out.raw())?;
                }
            }
        }
    }
    if let Some(progress) = &progress {
        progress.finish();
    }
    Ok(summary)
}

/// At most this many characters of the offending text are shown in a PGN error.
const PGN_EXCERPT_CHARS: usize = 40;

/// A PGN error without its location (printed before it), its offending text quoted as
/// [`show_char`] shows it and shortened to [`PGN_EXCERPT_CHARS`].
fn describe_pgn_error(e: &chesscore_core::pgn::PgnError) -> String {
    let mut text = e.kind.to_string();
    if !e.text.is_empty() {
        let excerpt: String = e.text.chars().take(PGN_EXCERPT_CHARS).map(|c| show_char(c, true)).collect();
        let cut = if e.text.chars().nth(PGN_EXCERPT_CHARS).is_some() { ELLIPSIS } else { "" };
        text.push_str(&format!(" \"{excerpt}{cut}\""));
    }
    if e.ply > 0 {
        text.push_str(&format!(" at ply {}", e.ply));
    }
    text
}

/// The two squares of a move written in UCI (`e2e4`, `e7e8q`), which need not be legal: the
/// marks of a picture are drawn, not played.
fn uci_squares(text: &str) -> Result<(Square, Square), String> {
    let bad = || format!("`{text}` is not a move in UCI (such as e2e4)");
    let square = |range: std::ops::Range<usize>| text.get(range).and_then(|name| name.parse().ok()).ok_or_else(bad);
    let promotion = text.get(4..).ok_or_else(bad)?;
    if !["", "q", "r", "b", "n"].contains(&promotion) {
        return Err(bad());
    }
    Ok((square(0..2)?, square(2..4)?))
}

/// The picture options of `chesscore svg`.
fn svg_options(pos: &Position, args: &SvgArgs) -> Result<SvgOptions, String> {
    let mut options = SvgOptions::for_position(pos);
    options.size = args.size;
    options.coordinates = !args.no_coordinates;
    if args.flip {
        options.orientation = Color::Black;
    }
    if let Some(text) = &args.lastmove {
        let (from, to) = uci_squares(text)?;
        if from == to {
            return Err(format!("--lastmove `{text}`: a move goes from one square to another"));
        }
        options.last_move = Some(Move::new(from, to, MoveKind::Normal));
    }
    for text in &args.arrows {
        let (squares, color) = match text.split_once(':') {
            Some((squares, color)) => {
                let color: SvgColor = color.parse().map_err(|e| format!("--arrow `{text}`: {e}"))?;
                (squares, Some(color))
            }
            None => (text.as_str(), None),
        };
        let (from, to) = uci_squares(squares).map_err(|e| format!("--arrow: {e}"))?;
        options.arrows.push(Arrow { from, to, color });
    }
    Ok(options)
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    let mut file = create_output(path, &[])?;
    file.write_all(text.as_bytes()).map_err(|e| format!("cannot write {}: {}", path.display(), io_text(&e)))?;
    finish_output(file, path)
}

/// `pgn --svg DIR`: a picture of every position of the first game's main line.
fn game_pictures(dir: &Path, files: &[PathBuf], out: &mut Output) -> Result<(), Failure> {
    let [file] = files else {
        return Err(Failure::Message("--svg draws the first game of one file: give one file".to_string()));
    };
    let name = input_name(file);
    let record = match PgnReader::new(PgnInput::open(file)?).next_game() {
        Ok(Some(record)) => record,
        Ok(None) => return Err(format!("no game in {name}").into()),
        Err(e) => {
            let l = e.location;
            return Err(format!("{name}:{}:{}: game {}: {}", l.line, l.column, e.game, describe_pgn_error(&e)).into());
        }
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {}", dir.display(), io_text(&e)))?;
    let game = &record;
    for ply in 0..=game.moves().len() {
        // Every ply up to the number of moves has a position.
        let pos = game.position_at(ply).ok_or_else(|| format!("no position at ply {ply}"))?;
        let options = SvgOptions {
            last_move: ply.checked_sub(1).and_then(|i| game.moves().nth(i)),
            ..SvgOptions::for_position(pos)
        };
        write_file(&dir.join(format!("ply-{ply:03}.svg")), &pos.to_svg(&options))?;
    }
    let pictures = counted(game.moves().len() as u64 + 1, "picture", "pictures");
    writeln!(out, "{pictures} written to {}", dir.display())?;
    Ok(())
}
