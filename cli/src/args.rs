//! The command line: the commands and the position arguments they share (each command's own
//! options are in its module).

use std::path::PathBuf;

use chesscore_core::Position;
use clap::{Args, Parser, Subcommand};

use crate::input::read;
use crate::{book, engine, pgn, play, svg, tablebase};

#[derive(Parser)]
#[command(
    name = "chesscore",
    version,
    about = "Chess core command line: perft, FEN, boards, moves, SAN, EPD, PGN, Polyglot books"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
    San(play::MovesArgs),
    /// Play moves and print the resulting FEN and the outcome.
    Play(play::MovesArgs),
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
    Pgn(pgn::PgnArgs),
    /// Draw the board as an SVG picture, to standard output or to a file.
    ///
    /// A king in check glows red. Arrows are straight, from centre to centre; an arrow from a
    /// square to itself is a ring.
    Svg(svg::SvgArgs),
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
    Book(book::BookCommand),
    /// Syzygy endgame tablebases: probe a position, rank its moves.
    #[command(subcommand)]
    Tb(tablebase::TbCommand),
}

#[derive(Args)]
pub(crate) struct PositionArgs {
    /// The position: a FEN, `startpos`, or `-` to read the FEN from standard input (its first
    /// non-empty line).
    fen: String,
    #[command(flatten)]
    variant: Variant,
}

impl PositionArgs {
    pub(crate) fn read(&self) -> Result<Position, String> {
        read(&self.fen, self.variant)
    }

    /// The position argument as given.
    pub(crate) fn fen(&self) -> &str {
        &self.fen
    }
}

#[derive(Args, Clone, Copy)]
pub(crate) struct Variant {
    /// Chess960: read X-FEN or Shredder-FEN castling; castling moves are king-takes-rook.
    #[arg(long)]
    pub(crate) chess960: bool,
}
