//! The command line: the commands and the position arguments they share (each command's own
//! options are in its module).

use std::path::PathBuf;

use chesscore_core::variant::{self, VariantPosition};
use chesscore_core::Position;
use clap::{Args, Parser, Subcommand};

use crate::input::{read, read_variant};
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
        rules: Rules,
    },
    /// Print the canonical FEN.
    Fen {
        #[command(flatten)]
        position: VariantPositionArgs,
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
    Moves(VariantPositionArgs),
    /// Check a FEN: exit status 0 when valid, 1 with the error otherwise.
    Validate(VariantPositionArgs),
    /// Play moves and print each as SAN, one per line.
    San {
        #[command(flatten)]
        moves: play::MovesArgs,
        /// Print each move in UCI instead (`e2e4`, `P@e4`).
        #[arg(long)]
        uci: bool,
    },
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
    /// With `--variant` the lines are positions of that variant, as python-chess writes them
    /// (crazyhouse pockets in the placement, three-check's counter after the en passant
    /// square). Exit status 1 when any line is invalid or the file has none.
    Epd {
        /// The EPD file, or `-` for standard input.
        file: PathBuf,
        #[command(flatten)]
        rules: Rules,
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
}

/// The position argument of the commands that play the lichess variants too.
#[derive(Args)]
pub(crate) struct VariantPositionArgs {
    /// The position: a FEN, `startpos` (the variant's start position), or `-` to read the FEN
    /// from standard input (its first non-empty line).
    fen: String,
    #[command(flatten)]
    pub(crate) rules: Rules,
}

impl VariantPositionArgs {
    pub(crate) fn read(&self) -> Result<AnyPosition, String> {
        self.rules.read(&self.fen)
    }
}

/// A position of chess (Chess960 included), or of a lichess variant.
pub(crate) enum AnyPosition {
    Chess(Position),
    Variant(VariantPosition),
}

/// The rules of the commands that play the lichess variants too: `--chess960` or `--variant`.
#[derive(Args, Clone, Copy)]
pub(crate) struct Rules {
    #[command(flatten)]
    chess: Variant,
    /// The variant: standard, chess960, atomic, antichess, crazyhouse, kingofthehill,
    /// threecheck, horde or racingkings (or giveaway, 3check, koth).
    #[arg(long, value_name = "NAME", value_parser = parse_variant, conflicts_with = "chess960")]
    variant: Option<variant::Variant>,
}

impl Rules {
    /// Reads the position `arg` stands for (see [`read`]): chess and Chess960 as the chess
    /// commands read them, the other variants as variant positions.
    pub(crate) fn read(&self, arg: &str) -> Result<AnyPosition, String> {
        match self.lichess() {
            Some(v) => Ok(AnyPosition::Variant(read_variant(arg, v)?)),
            None => Ok(AnyPosition::Chess(read(arg, Variant { chess960: self.chess960() })?)),
        }
    }

    /// Whether chess is played from a Chess960 position (`--chess960` or `--variant chess960`).
    pub(crate) fn chess960(&self) -> bool {
        self.chess.chess960 || self.variant == Some(variant::Variant::Chess960)
    }

    /// The variant named, unless it is chess or Chess960.
    pub(crate) fn lichess(&self) -> Option<variant::Variant> {
        self.variant.filter(|v| !matches!(v, variant::Variant::Chess | variant::Variant::Chess960))
    }
}

/// The variant `name` stands for, or an error listing the names.
fn parse_variant(name: &str) -> Result<variant::Variant, String> {
    variant::Variant::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = variant::Variant::ALL.iter().map(|v| v.name()).collect();
        format!("unknown variant `{name}`: expected one of {} (or giveaway, 3check, koth)", names.join(", "))
    })
}

#[derive(Args, Clone, Copy)]
pub(crate) struct Variant {
    /// Chess960: read X-FEN or Shredder-FEN castling; castling moves are king-takes-rook.
    #[arg(long)]
    pub(crate) chess960: bool,
}
