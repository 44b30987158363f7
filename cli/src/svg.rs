//! `chesscore svg`: the board as an SVG picture, with the last move and arrows marked, of
//! chess or of a lichess variant.

use std::path::PathBuf;

use chesscore_core::{Arrow, Color, Move, MoveKind, PieceKind, Square, SvgColor, SvgOptions};
use clap::Args;

use crate::args::{AnyPosition, VariantPositionArgs};
use crate::output::{write_file, Failure, Output};

#[derive(Args)]
pub(crate) struct SvgArgs {
    /// The position; with `--variant`, crazyhouse's pockets and three-check's remaining checks
    /// are drawn above and below the board, and a king is marked in check only where the
    /// variant has checks.
    #[command(flatten)]
    position: VariantPositionArgs,
    /// Black at the bottom.
    #[arg(long)]
    flip: bool,
    /// Tint the two squares of the move that led to the position, in UCI (`e2e4`), or the square
    /// of a crazyhouse drop (`N@f3`).
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

/// Draws the position, to standard output or to the file of `--output`.
pub(crate) fn run(args: &SvgArgs, out: &mut Output) -> Result<(), Failure> {
    let svg = match args.position.read()? {
        AnyPosition::Variant(pos) => pos.to_svg(&svg_options(SvgOptions::for_variant(&pos), args)?),
        AnyPosition::Chess(pos) => pos.to_svg(&svg_options(SvgOptions::for_position(&pos), args)?),
    };
    match &args.output {
        Some(path) => write_file(path, &svg)?,
        None => write!(out, "{svg}")?,
    }
    Ok(())
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

/// A crazyhouse drop written in UCI (`N@f3`, pawn to queen), split at its `@`: its square is
/// tinted as the last move's.
fn drop_move((piece, square): (&str, &str)) -> Option<Move> {
    let mut letters = piece.chars();
    let kind = letters.next().and_then(PieceKind::from_char).filter(|_| letters.next().is_none())?;
    Move::drop(kind, square.parse().ok()?)
}

/// The picture options of `chesscore svg`, from the position's own (its check marked).
fn svg_options(mut options: SvgOptions, args: &SvgArgs) -> Result<SvgOptions, String> {
    options.size = args.size;
    options.coordinates = !args.no_coordinates;
    if args.flip {
        options.orientation = Color::Black;
    }
    if let Some(text) = &args.lastmove {
        options.last_move = Some(match text.split_once('@') {
            Some(drop) => drop_move(drop).ok_or_else(|| format!("--lastmove `{text}` is not a drop (such as N@f3)"))?,
            None => {
                let (from, to) = uci_squares(text)?;
                if from == to {
                    return Err(format!("--lastmove `{text}`: a move goes from one square to another"));
                }
                Move::new(from, to, MoveKind::Normal)
            }
        });
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
