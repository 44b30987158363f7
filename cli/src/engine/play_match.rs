//! `chesscore match`: games between two engines, from a start position, EPD openings or book
//! lines, adjudicated by the rules or by tablebases.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chesscore_core::engine::{Analysis, Engine, Limits, Score};
use chesscore_core::pgn::WriteOptions;
use chesscore_core::polyglot::{random_from_seed, Book, Choice};
use chesscore_core::syzygy::Tablebase;
use chesscore_core::{Epd, Game, Move, Outcome, Position};
use clap::Args;

use super::{engine_failure, start};
use crate::input::EpdLines;
use crate::output::{create_output, finish_output, io_text, Failure, Output};

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
    let tablebase = args.tb.as_deref().map(crate::tablebase::open).transpose()?;
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
