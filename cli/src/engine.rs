//! The commands that drive UCI engines: `analyse`, `epdtest` and `match`.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chesscore_core::engine::{Analysis, Engine, EngineCommand, Limits, Score};
use chesscore_core::pgn::WriteOptions;
use chesscore_core::polyglot::{random_from_seed, Book, Choice};
use chesscore_core::syzygy::Tablebase;
use chesscore_core::{Epd, Game, Move, Outcome, Position, San, Uci, UciCastling};
use clap::Args;

use super::{create_output, finish_output, io_text, is_stdin, read, EpdLines, Failure, Output, Variant};

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

/// The engine to run and its thread count.
#[derive(Args)]
pub(crate) struct EngineArgs {
    /// The engine program (default: `stockfish` on PATH).
    #[arg(long, value_name = "PATH")]
    engine: Option<PathBuf>,
    /// The engine's `Threads` option.
    #[arg(long, value_name = "N")]
    threads: Option<u32>,
}

#[derive(Args)]
pub(crate) struct EpdtestArgs {
    /// The EPD test suite: positions with `bm` (best moves) and/or `am` (moves to avoid).
    file: PathBuf,
    #[command(flatten)]
    engine: EngineArgs,
    /// Milliseconds per position.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    movetime: u64,
}

#[derive(Args)]
pub(crate) struct MatchArgs {
    /// The two engines, A then B (given twice: `--engine A --engine B`).
    #[arg(long = "engine", value_name = "PATH", num_args = 1, required = true)]
    engines: Vec<PathBuf>,
    /// How many games; colours alternate, A has White in the first.
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Milliseconds per move (the default: 100, when no time control is given).
    #[arg(long, value_name = "MS", conflicts_with = "tc")]
    movetime: Option<u64>,
    /// A time control: seconds for the game plus seconds added per move, such as `10+0.1`.
    #[arg(long, value_name = "BASE+INC")]
    tc: Option<String>,
    /// Openings, each played twice with colours swapped, in turn: start positions (an EPD
    /// file), or lines drawn from a Polyglot book (`.bin`, by weight, a new line per pair).
    #[arg(long, value_name = "FILE.epd|BOOK.bin")]
    openings: Option<PathBuf>,
    /// With a book: how many plies each opening line takes from it at most.
    #[arg(long, default_value_t = 16, value_name = "N")]
    book_plies: u32,
    /// With a book: the seed of the line drawn for each pair (the same seed, the same lines).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write the games to this PGN file.
    #[arg(long, value_name = "OUT.pgn")]
    pgn: Option<PathBuf>,
    /// Syzygy tables (directories separated by ':'): a game ends as soon as they hold its
    /// position, with the result they give under the 50-move rule.
    #[arg(long, value_name = "DIR[:DIR...]")]
    tb: Option<String>,
}

/// Where `stockfish` is when no engine is named: on PATH, else where Debian installs it.
fn default_engine() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("stockfish"))
        .find(|path| path.is_file());
    on_path.unwrap_or_else(|| {
        let debian = Path::new("/usr/games/stockfish");
        if debian.is_file() {
            debian.to_path_buf()
        } else {
            PathBuf::from("stockfish")
        }
    })
}

/// Starts an engine and sets the thread count.
fn start(path: &Path, threads: Option<u32>) -> Result<Engine, Failure> {
    let mut engine = Engine::start(&EngineCommand::new(path)).map_err(|e| engine_failure(path, &e))?;
    if let Some(threads) = threads {
        engine.set_option("Threads", Some(&threads.to_string())).map_err(|e| engine_failure(path, &e))?;
    }
    Ok(engine)
}

fn engine_failure(path: &Path, error: &dyn std::fmt::Display) -> Failure {
    format!("engine {}: {error}", path.display()).into()
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

/// A one-line progress bar on standard error, when it is a terminal.
struct Bar {
    total: usize,
}

impl Bar {
    fn new(total: usize) -> Option<Bar> {
        io::stderr().is_terminal().then_some(Bar { total })
    }

    fn show(&self, done: usize) {
        let filled = done * 40 / self.total.max(1);
        // Only a help: a failure to show it is no reason to stop.
        let _ = write!(io::stderr(), "\r[{}{}] {done}/{}", "#".repeat(filled), ".".repeat(40 - filled), self.total);
    }

    fn clear(&self) {
        let _ = write!(io::stderr(), "\r{}\r", " ".repeat(60));
    }
}

/// Moves in SAN, joined by spaces.
fn sans(pos: &Position, moves: &[Move]) -> String {
    let sans: Vec<String> = moves
        .iter()
        .map(|&mv| San::from_move(pos, mv).map_or_else(|_| Uci::from_move(pos, mv).to_string(), |san| san.to_string()))
        .collect();
    sans.join(" ")
}

/// Runs an EPD test suite (see `Command::Epdtest`).
pub(crate) fn epdtest(args: &EpdtestArgs, out: &mut Output) -> Result<(), Failure> {
    // Counted first for the progress bar (on a terminal only), then read again as the engine
    // goes: a line at a time both times, so that a file of any size costs no more memory.
    let bar = if io::stderr().is_terminal() && !is_stdin(&args.file) {
        let mut lines = EpdLines::open(&args.file)?;
        let mut total = 0;
        while lines.next_line()?.is_some() {
            total += 1;
        }
        Bar::new(total)
    } else {
        None
    };
    let mut lines = EpdLines::open(&args.file)?;
    let path = args.engine.engine.clone().unwrap_or_else(default_engine);
    let mut engine = start(&path, args.engine.threads)?;
    let fail = |e: chesscore_core::engine::EngineError| engine_failure(&path, &e);
    let limits = Limits { movetime: Some(Duration::from_millis(args.movetime)), ..Limits::default() };
    let (mut solved, mut done) = (0, 0);
    while let Some((number, line)) = lines.next_line()? {
        if let Some(bar) = &bar {
            bar.show(done);
        }
        let epd = match line.map(Epd::parse) {
            Some(Ok(epd)) => epd,
            Some(Err(e)) => {
                out.note(format_args!("line {number}: error: {e}"))?;
                continue;
            }
            None => {
                out.note(format_args!("line {number}: error: not UTF-8 text"))?;
                continue;
            }
        };
        done += 1;
        engine.new_game().map_err(fail)?;
        let pos = epd.position();
        let analysis = engine.analyse_position(pos, &limits, None).map_err(fail)?;
        let (best, avoid) = (epd.best_moves(), epd.avoid_moves());
        let ok = analysis.best_move.is_some_and(|mv| (best.is_empty() || best.contains(&mv)) && !avoid.contains(&mv));
        solved += usize::from(ok);
        let mut expected = String::new();
        if !best.is_empty() {
            let _ = write!(expected, "bm {}", sans(pos, &best));
        }
        if !avoid.is_empty() {
            let _ = write!(expected, "{}am {}", if expected.is_empty() { "" } else { ", " }, sans(pos, &avoid));
        }
        let got = analysis.best_move.map_or("(none)".to_string(), |mv| sans(pos, &[mv]));
        let id = epd.string("id").map_or_else(|| format!("line {number}"), str::to_string);
        if let Some(bar) = &bar {
            bar.clear();
        }
        writeln!(out, "{id}: expected {expected}, got {got}: {}", if ok { "ok" } else { "fail" })?;
        out.flush()?;
    }
    if let Some(bar) = &bar {
        bar.clear();
    }
    writeln!(out, "{solved} solved of {done}")
}

/// A time control: the time for the game and the increment per move.
#[derive(Clone, Copy)]
struct TimeControl {
    base: Duration,
    increment: Duration,
}

/// The longest base time and increment of `match --tc`, in seconds (a day): more is a mistake,
/// and a clock far beyond it would overflow.
const MAX_TC_SECONDS: f64 = 86_400.0;

impl TimeControl {
    fn parse(text: &str) -> Result<TimeControl, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |s: &str| {
            s.trim().parse::<f64>().ok().filter(|v| (0.0..=MAX_TC_SECONDS).contains(v)).map(Duration::from_secs_f64)
        };
        match (seconds(base), seconds(increment)) {
            (Some(base), Some(increment)) if !base.is_zero() => Ok(TimeControl { base, increment }),
            _ => Err(format!(
                "--tc {text}: expected BASE+INC in seconds, such as 10+0.1, each at most {MAX_TC_SECONDS} (a day)"
            )),
        }
    }
}

/// One player of a match.
struct Player {
    path: PathBuf,
    engine: Engine,
    name: String,
}

impl Player {
    fn start(path: &Path) -> Result<Player, Failure> {
        let engine = start(path, None)?;
        let name = engine.name().map_or_else(|| path.display().to_string(), str::to_string);
        Ok(Player { path: path.to_path_buf(), engine, name })
    }
}

/// `[%clk h:mm:ss.s]`.
fn clock(time: Duration) -> String {
    let tenths = time.as_millis() / 100;
    let seconds = tenths / 10;
    format!("[%clk {}:{:02}:{:02}.{}]", seconds / 3600, seconds / 60 % 60, seconds % 60, tenths % 10)
}

/// `[%eval 0.35,12]` or `[%eval #-4,12]`: from White's point of view, as PGN comments give it.
fn eval(analysis: &Analysis) -> Option<String> {
    let line = analysis.lines.first()?;
    let depth = line.depth.map_or(String::new(), |d| format!(",{d}"));
    Some(match line.white_score? {
        Score::Cp(cp) => format!("[%eval {:.2}{depth}]", f64::from(cp) / 100.0),
        Score::Mate(n) => format!("[%eval #{n}{depth}]"),
    })
}

/// Plays engine games (see `Command::Match`).
pub(crate) fn play_match(args: &MatchArgs, out: &mut Output) -> Result<(), Failure> {
    let [a, b] = args.engines.as_slice() else {
        return Err("match: give exactly two engines, --engine A --engine B".to_string().into());
    };
    let tc = args.tc.as_deref().map(TimeControl::parse).transpose()?;
    let movetime = Duration::from_millis(args.movetime.unwrap_or(100));
    let openings = match &args.openings {
        Some(path) => Openings::read(path, args.games.div_ceil(2).max(1))?,
        None => Openings::Positions(vec![Position::startpos()]),
    };
    let tablebase = args.tb.as_deref().map(super::tablebase::open).transpose()?;
    let mut players = [Player::start(a)?, Player::start(b)?];
    let inputs: Vec<&Path> = args.openings.iter().map(PathBuf::as_path).collect();
    let mut pgn = args.pgn.as_deref().map(|path| create_output(path, &inputs)).transpose()?;
    // Wins, draws and losses of A.
    let mut score = [0u32; 3];
    for round in 0..args.games {
        let opening = openings.line(round / 2, args.book_plies, args.seed);
        // A has White in even rounds.
        let white = (round % 2) as usize;
        let (record, reason) = play_game(&mut players, white, opening, tc, movetime, tablebase.as_ref())?;
        let outcome = record.effective_result();
        let a_white = white == 0;
        match (outcome, a_white) {
            (Outcome::WhiteWins, true) | (Outcome::BlackWins, false) => score[0] += 1,
            (Outcome::Draw, _) => score[1] += 1,
            _ => score[2] += 1,
        }
        writeln!(
            out,
            "game {}: {} - {} {outcome} ({reason})",
            round + 1,
            players[white].name,
            players[1 - white].name
        )?;
        if let Some(pgn) = &mut pgn {
            let mut record = record;
            let tags = [
                ("Event", "chesscore match".to_string()),
                ("Round", (round + 1).to_string()),
                ("White", players[white].name.clone()),
                ("Black", players[1 - white].name.clone()),
                ("Result", outcome.to_string()),
                ("Termination", reason),
            ];
            for (name, value) in tags {
                record.set_tag(name, &value).map_err(|e| format!("PGN tag {name}: {e}"))?;
            }
            if let Some(tc) = &args.tc {
                record.set_tag("TimeControl", tc).map_err(|e| format!("PGN tag TimeControl: {e}"))?;
            }
            record
                .write_pgn_io(pgn, &WriteOptions::default())
                .and_then(|()| writeln!(pgn))
                .map_err(|e| format!("cannot write the PGN file: {}", io_text(&e)))?;
        }
    }
    if let (Some(pgn), Some(path)) = (pgn, &args.pgn) {
        finish_output(pgn, path)?;
    }
    writeln!(out, "{}: {}-{}-{}", a.display(), score[0], score[1], score[2])
}

/// Where the games of a match start.
enum Openings {
    /// Start positions, in turn.
    Positions(Vec<Position>),
    /// Lines from the start position drawn from a book.
    Book(Book),
}

impl Openings {
    /// A book by its `.bin` extension, else an EPD file, of which the first `wanted` positions
    /// are read (one per pair of games: no more are played), a line at a time.
    fn read(path: &Path, wanted: u32) -> Result<Openings, Failure> {
        if path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("bin")) {
            let book = Book::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            if book.pick(&Position::startpos(), Choice::Weighted, 0).is_none() {
                return Err(format!("{}: no move for the start position", path.display()).into());
            }
            return Ok(Openings::Book(book));
        }
        let mut lines = EpdLines::open(path)?;
        let mut openings = Vec::new();
        while openings.len() < wanted as usize {
            let Some((number, line)) = lines.next_line()? else { break };
            let line = line.ok_or_else(|| format!("{} line {number}: not UTF-8 text", path.display()))?;
            let epd = Epd::parse(line).map_err(|e| format!("{} line {number}: {e}", path.display()))?;
            openings.push(*epd.position());
        }
        if openings.is_empty() {
            return Err(format!("no openings in {}", path.display()).into());
        }
        Ok(Openings::Positions(openings))
    }

    /// The opening of the `pair`th pair of games: a start position and the moves played from it
    /// before the engines take over.
    fn line(&self, pair: u32, book_plies: u32, seed: u64) -> (Position, Vec<Move>) {
        match self {
            Openings::Positions(positions) => (positions[pair as usize % positions.len()], Vec::new()),
            Openings::Book(book) => {
                let start = Position::startpos();
                let mut pos = start;
                let mut moves = Vec::new();
                for ply in 0..book_plies {
                    let random = random_from_seed(seed ^ (u64::from(pair) << 32 | u64::from(ply)));
                    let Some(entry) = book.pick(&pos, Choice::Weighted, random) else { break };
                    // A book entry names a legal move.
                    pos.play(entry.mv).expect("legal book move");
                    moves.push(entry.mv);
                }
                (start, moves)
            }
        }
    }
}

/// Plays one game, `players[white]` with White; gives the record (comments with the clock
/// and the evaluation after each move, the result set) and why it ended. An engine that fails
/// or runs out of time loses the game and is restarted for the next one.
fn play_game(
    players: &mut [Player; 2],
    white: usize,
    (start, book_moves): (Position, Vec<Move>),
    tc: Option<TimeControl>,
    movetime: Duration,
    tablebase: Option<&Tablebase>,
) -> Result<(Game, String), Failure> {
    let mut record = Game::new(start);
    for mv in book_moves {
        record.push(mv).map_err(|e| format!("book move: {e}"))?;
    }
    let mut clocks = [tc.map_or(Duration::ZERO, |tc| tc.base); 2];
    for player in players.iter_mut() {
        player.engine.new_game().map_err(|e| engine_failure(&player.path, &e))?;
    }
    loop {
        let game = &record;
        if let Some(reason) = game.termination().or_else(|| game.claimable_draw()) {
            record.set_result(Some(match game.outcome() {
                Outcome::Ongoing => Outcome::Draw,
                decided => decided,
            }));
            return Ok((record, reason.to_string()));
        }
        if let Some(tablebase) = tablebase {
            if let Some(outcome) = tablebase.adjudicate(game.position()).map_err(|e| e.to_string())? {
                record.set_result(Some(outcome));
                return Ok((record, "tablebase".to_string()));
            }
        }
        let turn = game.position().turn();
        let side = usize::from(turn == chesscore_core::Color::Black);
        let mover = if side == 0 { white } else { 1 - white };
        let limits = match tc {
            Some(tc) => Limits {
                wtime: Some(clocks[0]),
                btime: Some(clocks[1]),
                winc: Some(tc.increment),
                binc: Some(tc.increment),
                ..Limits::default()
            },
            None => Limits { movetime: Some(movetime), ..Limits::default() },
        };
        let began = Instant::now();
        let result = players[mover].engine.analyse(game.start(), game.moves(), &limits, None);
        let spent = began.elapsed();
        let loss = Some(Outcome::win_for(!turn));
        let analysis = match result {
            Ok(analysis) => analysis,
            Err(e) => {
                let reason = format!("{} failed: {e}", players[mover].name);
                players[mover] = Player::start(&players[mover].path.clone())?;
                record.set_result(loss);
                return Ok((record, reason));
            }
        };
        if let Some(tc) = tc {
            if spent > clocks[side] {
                record.set_result(loss);
                return Ok((record, "time forfeit".to_string()));
            }
            clocks[side] = clocks[side] - spent + tc.increment;
        }
        let Some(mv) = analysis.best_move else {
            record.set_result(loss);
            return Ok((record, format!("{} gave no move", players[mover].name)));
        };
        record.push(mv).map_err(|e| format!("{}: {e}", players[mover].name))?;
        let mut comment = eval(&analysis).unwrap_or_default();
        if tc.is_some() {
            let _ = write!(comment, "{}{}", if comment.is_empty() { "" } else { " " }, clock(clocks[side]));
        }
        if !comment.is_empty() {
            let tree = record.tree_mut();
            if let Some(node) = tree.node_id(tree.move_count()) {
                tree.add_comment(node, &comment);
            }
        }
    }
}
