//! `chesscore book`: Polyglot opening books.

use std::path::{Path, PathBuf};

use chesscore_core::pgn::PgnReader;
use chesscore_core::polyglot::{self, Book, BookBuilder, BuildOptions, Choice, LookupOptions};
use chesscore_core::{Color, Move, Position, Uci};
use clap::{Args, Subcommand};

use crate::args::PositionArgs;
use crate::input::input_name;
use crate::output::{counted, create_output, finish_output, io_text, Failure, Output};
use crate::pgn::PgnInput;

#[derive(Subcommand)]
pub(crate) enum BookCommand {
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
pub(crate) struct MakeArgs {
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

pub(crate) fn run(command: BookCommand, out: &mut Output) -> Result<(), Failure> {
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
