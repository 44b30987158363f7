//! `chesscore pgn filter`: the games of PGN files that meet every condition, written as PGN to
//! standard output, a file or numbered parts. The conditions are the core's
//! ([`GameFilter`], [`Dedupe`]); this reads the files, hands it the games and writes them.
//!
//! Each reading thread checks its games and writes the kept ones as text; this thread takes
//! them in input order, drops duplicates and writes the text out.

use std::fs;
use std::io::Write;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chesscore_core::files::Replacement;
use chesscore_core::game::{Dedupe, GameDigest, GameFilter, Openings, TagCondition};
use chesscore_core::pgn::{ParallelReader, PgnError, PgnErrorKind, PgnReader, ReaderOptions, WriteOptions};
use chesscore_core::variant::AnyGame;
use chesscore_core::{Material, Outcome};
use clap::{Args, ValueEnum};

use super::{default_threads, describe_pgn_error, PgnInput};
use crate::args::Variant;
use crate::input::{input_name, read};
use crate::output::{create_output, finish_output, io_text, Failure, Output};

#[derive(Args)]
pub(crate) struct FilterArgs {
    /// Keep the games whose tag NAME compares with VALUE by OP: `=`, `!=`, `<`, `<=`, `>`, `>=`
    /// (as numbers when both are numbers, else as text) or `~` (a glob: `*` any text, `?` any
    /// character); a missing tag matches only `!=`. Repeatable: every condition must hold.
    #[arg(long = "tag", value_name = "NAME OP VALUE")]
    tags: Vec<TagCondition>,
    /// Keep the games where White or Black matches this glob (`Carlsen*`).
    #[arg(long, value_name = "NAME")]
    player: Option<String>,
    /// Keep the games with this result (`1-0`, `0-1`, `1/2-1/2`, `*`): the `Result` tag, or
    /// the movetext's result when the tag is missing.
    #[arg(long, value_name = "R", value_parser = parse_result)]
    result: Option<Outcome>,
    /// Keep the games whose main line passes through this position (a FEN or `startpos`):
    /// pieces, side to move, castling rights and en passant as the Polyglot key sees them, not
    /// the clocks. Repeatable: any of them will do. A variant game meets none.
    #[arg(long = "position", value_name = "FEN")]
    positions: Vec<String>,
    /// Keep the games whose main line reaches this material, either side having either set of
    /// pieces (`KRPvKR`). A variant game meets none.
    #[arg(long, value_name = "SPEC")]
    material: Option<Material>,
    /// Keep the games with at least N half-moves in the main line.
    #[arg(long, value_name = "N")]
    min_plies: Option<usize>,
    /// Keep the games with at most N half-moves in the main line.
    #[arg(long, value_name = "N")]
    max_plies: Option<usize>,
    /// Keep the games whose main line ends in checkmate (a variant game: by its variant's rules).
    #[arg(long, conflicts_with = "stalemate")]
    checkmate: bool,
    /// Keep the games whose main line ends in stalemate.
    #[arg(long)]
    stalemate: bool,
    /// Keep only the first of games with the same start position and main-line moves (in the
    /// order of the input, whatever the threads).
    #[arg(long)]
    dedupe: bool,
    /// Leave these out of the games written: any of `comments`, `nags`, `variations`, with
    /// commas between.
    #[arg(long, value_name = "LIST", value_enum, value_delimiter = ',')]
    strip: Vec<Strip>,
    /// Set the `ECO` and `Opening` tags of each game (before the conditions are checked) by the
    /// deepest position of its main line in the lichess opening table; a game from a set-up
    /// position, a Chess960 or variant game and a game with no named position keep their tags.
    #[arg(long)]
    eco: bool,
    /// Write the games in files of N games each, `part-000001.pgn` and on, into --out-dir.
    #[arg(long, value_name = "N", requires = "out_dir", conflicts_with = "output")]
    split: Option<NonZeroUsize>,
    /// The directory of the --split files, made if needed.
    #[arg(long, value_name = "DIR", requires = "split")]
    out_dir: Option<PathBuf>,
    /// Threads reading each file (default: one per core); the games come out in file order.
    #[arg(long, default_value_t = default_threads(), value_name = "N")]
    threads: NonZeroUsize,
    /// The PGN files (plain, gzip or Zstandard), `-` for standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the games to this file (through a temporary file renamed into place) instead of
    /// standard output; it may not be one of the inputs.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
}

/// What `--strip` leaves out.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Strip {
    Comments,
    Nags,
    Variations,
}

fn parse_result(text: &str) -> Result<Outcome, String> {
    Outcome::from_pgn(text).ok_or_else(|| "expected 1-0, 0-1, 1/2-1/2 or *".to_string())
}

/// The number of digits of a part's number: part names sort in order up to a million parts.
const PART_DIGITS: usize = 6;

/// The name of the `number`th part of `--split` (from 1).
fn part_name(number: u64) -> String {
    format!("part-{number:0PART_DIGITS$}.pgn")
}

/// Where the games go: standard output, one file, or parts of N games.
enum Sink {
    Stdout,
    File(Replacement, PathBuf),
    Parts { dir: PathBuf, size: u64, current: Option<(Replacement, PathBuf)>, written: u64 },
}

impl Sink {
    /// Writes a game's PGN text, then a blank line.
    fn write(&mut self, text: &str, inputs: &[&Path], out: &mut Output) -> Result<(), Failure> {
        let (file, path): (&mut dyn Write, Option<&Path>) = match self {
            Sink::Stdout => (out.raw(), None),
            Sink::File(file, path) => (file, Some(path.as_path())),
            Sink::Parts { dir, size, current, written } => {
                if *written % *size == 0 {
                    if let Some((done, path)) = current.take() {
                        finish_output(done, &path)?;
                    }
                    let path = dir.join(part_name(*written / *size + 1));
                    *current = Some((create_output(&path, inputs)?, path));
                }
                *written += 1;
                let (file, path) = current.as_mut().expect("a part was just started");
                (file, Some(path.as_path()))
            }
        };
        let written = file.write_all(text.as_bytes()).and_then(|()| writeln!(file));
        match (written, path) {
            (Ok(()), _) => Ok(()),
            (Err(e), None) => Err(Failure::Output(e)),
            (Err(e), Some(path)) => Err(format!("cannot write {}: {}", path.display(), io_text(&e)).into()),
        }
    }

    /// Puts the files written in place.
    fn finish(self) -> Result<(), Failure> {
        match self {
            Sink::Stdout | Sink::Parts { current: None, .. } => Ok(()),
            Sink::File(file, path) | Sink::Parts { current: Some((file, path)), .. } => Ok(finish_output(file, &path)?),
        }
    }
}

/// The conditions of the arguments.
fn game_filter(args: &FilterArgs) -> Result<GameFilter, Failure> {
    let mut filter = GameFilter::new();
    for condition in &args.tags {
        filter.tag(condition.clone());
    }
    for fen in &args.positions {
        let position = read(fen, Variant { chess960: false }).map_err(|e| format!("--position: {e}"))?;
        filter.position(&position);
    }
    if let Some(pattern) = &args.player {
        filter.player(pattern);
    }
    if let Some(result) = args.result {
        filter.result(result);
    }
    if let Some(material) = args.material {
        filter.material(material);
    }
    if let Some(min) = args.min_plies {
        filter.min_plies(min);
    }
    if let Some(max) = args.max_plies {
        filter.max_plies(max);
    }
    if args.checkmate {
        filter.checkmate();
    }
    if args.stalemate {
        filter.stalemate();
    }
    Ok(filter)
}

/// A game that met the conditions: its PGN text, and its digest when duplicates are dropped.
struct Kept {
    text: String,
    digest: Option<GameDigest>,
}

/// Names, checks and writes a game when kept; in the reading threads.
struct Keep {
    filter: GameFilter,
    options: WriteOptions,
    dedupe: bool,
    openings: Option<&'static Openings>,
}

impl Keep {
    /// A game of chess or of a variant; only chess games are named by the opening table.
    fn keep(&self, mut game: AnyGame) -> Option<Kept> {
        if let (Some(openings), AnyGame::Chess(game)) = (self.openings, &mut game) {
            openings.set_tags(game);
        }
        let matches = match &game {
            AnyGame::Chess(game) => self.filter.matches(game),
            AnyGame::Variant(game) => self.filter.matches(game),
        };
        if !matches {
            return None;
        }
        let mut text = String::new();
        game.write_pgn(&mut text, &self.options).expect("a String takes any text");
        let digest = || match &game {
            AnyGame::Chess(game) => GameDigest::of(game),
            AnyGame::Variant(game) => GameDigest::of(game),
        };
        Some(Kept { text, digest: self.dedupe.then(digest) })
    }
}

type Games = Box<dyn Iterator<Item = Result<Option<Kept>, PgnError>>>;

/// The games of one input, of chess and of the lichess variants, read and checked by `threads`
/// threads (one: in this thread).
fn games(input: PgnInput, threads: usize, keep: &Arc<Keep>) -> Games {
    let keep = keep.clone();
    match threads {
        1 => {
            let mut reader = PgnReader::new(input);
            let games = std::iter::from_fn(move || reader.next_any_game().transpose());
            Box::new(games.map(move |game| game.map(|game| keep.keep(game))))
        }
        _ => Box::new(ParallelReader::map_any_records(input, threads, ReaderOptions::default(), move |game| {
            keep.keep(game)
        })),
    }
}

/// Writes the games of every file that meet the conditions, then `N of M games written` on
/// standard error. A broken game is reported there and not written; an unreadable file ends
/// the command.
pub(crate) fn run(args: &FilterArgs, out: &mut Output) -> Result<(), Failure> {
    let filter = game_filter(args)?;
    let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    let mut sink = match (&args.output, &args.out_dir, args.split) {
        (Some(path), ..) => Sink::File(create_output(path, &inputs)?, path.clone()),
        (None, Some(dir), Some(size)) => {
            fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {}", dir.display(), io_text(&e)))?;
            Sink::Parts { dir: dir.clone(), size: size.get() as u64, current: None, written: 0 }
        }
        _ => Sink::Stdout,
    };
    let options = WriteOptions {
        comments: !args.strip.contains(&Strip::Comments),
        nags: !args.strip.contains(&Strip::Nags),
        variations: !args.strip.contains(&Strip::Variations),
        ..WriteOptions::default()
    };
    let openings = args.eco.then(Openings::lichess);
    let keep = Arc::new(Keep { filter, options, dedupe: args.dedupe, openings });
    let mut dedupe = Dedupe::new();
    let (mut read_games, mut written) = (0u64, 0u64);
    for path in &args.files {
        let name = input_name(path);
        for game in games(PgnInput::open(path)?, args.threads.get(), &keep) {
            if let Err(e) = &game {
                if let PgnErrorKind::Io { .. } = e.kind {
                    return Err(format!("cannot read {name}: {}", e.kind).into());
                }
            }
            read_games += 1;
            let kept = match game {
                Ok(kept) => kept,
                Err(e) => {
                    let l = e.location;
                    out.note(format_args!(
                        "{name}:{}:{}: game {}: {}",
                        l.line,
                        l.column,
                        e.game,
                        describe_pgn_error(&e)
                    ))?;
                    continue;
                }
            };
            // Duplicates among the games kept: a game left out does not hide a later copy.
            let Some(kept) = kept else { continue };
            if kept.digest.is_none_or(|digest| dedupe.first_digest(digest)) {
                sink.write(&kept.text, &inputs, out)?;
                written += 1;
            }
        }
    }
    sink.finish()?;
    out.note(format_args!("{written} of {read_games} games written"))
}

#[cfg(test)]
mod tests {
    use super::part_name;

    #[test]
    fn part_names_sort_in_order() {
        let names: Vec<String> = [1, 2, 10, 99, 100, 999_999].into_iter().map(part_name).collect();
        assert_eq!(names[0], "part-000001.pgn");
        assert!(names.windows(2).all(|w| w[0] < w[1]));
    }
}
