//! `chesscore svg`: the board as an SVG picture, with the last move and arrows marked.

use std::path::PathBuf;

use chesscore_core::{Arrow, Color, Move, MoveKind, Position, Square, SvgColor, SvgOptions};
use clap::Args;

use crate::args::PositionArgs;
use crate::output::{write_file, Failure, Output};

#[derive(Args)]
pub(crate) struct SvgArgs {
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

/// Draws the position, to standard output or to the file of `--output`.
pub(crate) fn run(args: &SvgArgs, out: &mut Output) -> Result<(), Failure> {
    let pos = args.position.read()?;
    let svg = pos.to_svg(&svg_options(&pos, args)?);
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
