//! `chesscore pgn`: reads PGN files and summarises them, or writes their games' final FENs, an
//! export, clean PGN or pictures of a game; `chesscore pgn filter` (`filter.rs`) writes the
//! games that meet conditions.

use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use chesscore_core::files::Replacement;
use chesscore_core::pgn::{
    Flow, ParallelReader, PgnError, PgnReader, PgnWarning, ReaderOptions, Visitor, WriteOptions,
};
use chesscore_core::variant::{AnyGame, Variant, VariantPosition};
use chesscore_core::{Game, Move, Outcome, Position};
use clap::{Args, Subcommand};

use crate::input::{input_name, show_char, ELLIPSIS};
use crate::output::{counted, create_output, finish_output, io_text, Failure, Output};
use export::{Export, ExportFormat};
pub(crate) use input::PgnInput;
use input::Progress;

mod export;
mod filter;
mod input;
#[cfg(feature = "parquet")]
mod parquet;
mod pictures;

/// `chesscore pgn FILE...` reads files; `chesscore pgn filter ...` is a command of its own. A
/// first argument `filter` is the command: a file of that name is read as `./filter` or after
/// `--`. Once a file is named, `filter` is another file, and options of `pgn` before it
/// make it a file too.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true, disable_help_subcommand = true)]
pub(crate) struct PgnArgs {
    #[command(subcommand)]
    command: Option<PgnCommand>,
    /// Print the final FEN of each game's main line, one line per game (`# game N: error` for
    /// a broken one); the summary then goes to standard error.
    #[arg(long)]
    fen: bool,
    /// Print every game as a JSON line (`headers`, `uci`, `san`, `clk`, `eval`, `error`) or a CSV
    /// row (the tags, `result`, `plies`, `uci`, `error`), or write a Parquet file of the JSON
    /// lines' columns (with -o); the summary then goes to standard error. A variant game's moves
    /// are its variant's (drops as `P@e4` in UCI); its `Variant` tag names it.
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with = "fen")]
    export: Option<ExportFormat>,
    /// Write the export to this file (through a temporary file renamed into place) instead of
    /// standard output; it may not be one of the inputs.
    #[arg(short = 'o', long = "output", value_name = "FILE", requires = "export")]
    output: Option<PathBuf>,
    /// Write every game read without error to this file, as clean PGN (a variant game with its
    /// `Variant` tag).
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

#[derive(Subcommand)]
enum PgnCommand {
    /// Write the games that meet every condition as PGN (with their tags, comments, NAGs and
    /// variations), then `N of M games written` on standard error.
    ///
    /// To standard output, to the file of `-o` or in parts of `--split`, each file written
    /// through a temporary file and a rename. Broken games are reported on standard error and
    /// not written. Games of the lichess variants (a `Variant` tag naming one) are read and
    /// written by their rules.
    Filter(filter::FilterArgs),
}

/// One thread per core, as the system tells them.
fn default_threads() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

/// Draws the pictures of `--svg`, or reads every file.
pub(crate) fn run(args: &PgnArgs, out: &mut Output) -> Result<(), Failure> {
    if let Some(PgnCommand::Filter(filter)) = &args.command {
        return filter::run(filter, out);
    }
    match &args.svg {
        Some(dir) => pictures::game_pictures(dir, &args.files, out),
        None => read_pgn(args, out),
    }
}

/// Reads every game of every file (see `Command::Pgn`).
fn read_pgn(args: &PgnArgs, out: &mut Output) -> Result<(), Failure> {
    let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    let mut clean = args.out.as_deref().map(|path| create_output(path, &inputs)).transpose()?;
    let mut export =
        args.export.map(|format| Export::start(format, &args.files, args.output.as_deref(), out.raw())).transpose()?;
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
    if let Some(export) = export {
        export.finish()?;
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

/// What the summary of `chesscore pgn` needs of a game: its plies, its result token, the
/// reader's warnings, its final position when `--fen` asks for it, and the record itself (of
/// chess or of a variant) when `--out` or `--export` does.
struct GameRead {
    plies: u64,
    result: Option<Outcome>,
    warnings: Vec<PgnWarning>,
    final_fen: Option<String>,
    record: Option<AnyGame>,
}

/// Reads the main line of a game for its summary, replaying the moves without keeping them;
/// games of the lichess variants (a `Variant` tag naming one) are read by their rules.
struct Summarise {
    fen: bool,
    plies: u64,
    warnings: Vec<PgnWarning>,
    last: Option<Position>,
    last_variant: Option<VariantPosition>,
}

impl Visitor for Summarise {
    type Output = GameRead;

    fn begin_game(&mut self) {
        (self.plies, self.last, self.last_variant) = (0, None, None);
        self.warnings.clear();
    }

    fn reads_variant(&mut self, _: Variant) -> bool {
        true
    }

    fn begin_variant_movetext(&mut self, start: &VariantPosition) {
        if self.fen {
            self.last_variant = Some(*start);
        }
    }

    fn variant_san(&mut self, _: &str, _: Move, _: &VariantPosition, after: &VariantPosition) -> Flow {
        self.plies += 1;
        if self.fen {
            self.last_variant = Some(*after);
        }
        Flow::Continue
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
            final_fen: self.last.map(|pos| pos.to_fen()).or_else(|| self.last_variant.map(|pos| pos.to_fen())),
            record: None,
        }
    }
}

impl GameRead {
    fn of_record(record: AnyGame) -> GameRead {
        let (plies, result, warnings, final_fen) = match &record {
            AnyGame::Chess(game) => (game.moves().len(), game.result(), game.warnings(), game.position().to_fen()),
            AnyGame::Variant(game) => (game.moves().len(), game.result(), game.warnings(), game.position().to_fen()),
        };
        let warnings = warnings.to_vec();
        GameRead { plies: plies as u64, result, warnings, final_fen: Some(final_fen), record: Some(record) }
    }
}

/// The games of `input`, of chess and of the lichess variants, read by `threads` threads (one:
/// a single reader in this thread), as whole records when `records` is set, else through
/// [`Summarise`].
fn pgn_games(
    input: PgnInput,
    threads: usize,
    records: bool,
    fen: bool,
) -> Box<dyn Iterator<Item = Result<GameRead, PgnError>>> {
    let options = ReaderOptions::default();
    let summarise = move || Summarise { fen, plies: 0, warnings: Vec::new(), last: None, last_variant: None };
    match (threads, records) {
        (1, true) => {
            let mut reader = PgnReader::new(input);
            Box::new(
                std::iter::from_fn(move || reader.next_any_game().transpose())
                    .map(|game| game.map(GameRead::of_record)),
            )
        }
        (1, false) => {
            let (mut reader, mut visitor) = (PgnReader::new(input), summarise());
            Box::new(std::iter::from_fn(move || reader.read_game(&mut visitor).transpose()))
        }
        (_, true) => {
            Box::new(ParallelReader::any_records(input, threads, options).map(|game| game.map(GameRead::of_record)))
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
                match (export.as_mut(), &game.record) {
                    (Some(export), Some(AnyGame::Chess(record))) => export.write(record, None, out.raw())?,
                    (Some(export), Some(AnyGame::Variant(record))) => export.write(record, None, out.raw())?,
                    _ => {}
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
                    let error = Some(e.to_string());
                    match (&e.partial, &e.variant_partial) {
                        (None, Some(partial)) => export.write(&**partial, error.as_deref(), out.raw())?,
                        (partial, _) => {
                            let empty = Game::default();
                            export.write(partial.as_deref().unwrap_or(&empty), error.as_deref(), out.raw())?;
                        }
                    }
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
pub(super) fn describe_pgn_error(e: &chesscore_core::pgn::PgnError) -> String {
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
