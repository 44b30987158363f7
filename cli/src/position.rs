//! The commands that print one position: `fen`, `board`, `unicode`, `moves` and `validate`
//! (all but the boards in the lichess variants too).

use chesscore_core::{BoardStyle, CastlingNotation, Diagram, FenWriteOptions, Uci};

use crate::args::{AnyPosition, PositionArgs, VariantPositionArgs};
use crate::output::{Failure, Output};

/// The canonical FEN, in Shredder-FEN castling or as binary FEN in hexadecimal when asked.
pub(crate) fn fen(
    position: &VariantPositionArgs,
    shredder: bool,
    binary: bool,
    out: &mut Output,
) -> Result<(), Failure> {
    if let Some(variant) = position.rules.lichess().filter(|_| shredder || binary) {
        let option = if binary { "--binary" } else { "--shredder" };
        return Err(format!("{option} is not available for {variant}").into());
    }
    let pos = match position.read()? {
        AnyPosition::Chess(pos) => pos,
        AnyPosition::Variant(pos) => return writeln!(out, "{}", pos.to_fen()),
    };
    if binary {
        return writeln!(out, "{}", pos.to_binary_fen());
    }
    let castling = if shredder { CastlingNotation::Shredder } else { CastlingNotation::Auto };
    let options = FenWriteOptions { castling, ..Default::default() };
    writeln!(out, "{}", pos.to_fen_with(&options))
}

/// The board in letters (`board`) or chess symbols (`unicode`), with coordinates.
pub(crate) fn board(position: &PositionArgs, style: BoardStyle, out: &mut Output) -> Result<(), Failure> {
    write!(out, "{}", Diagram::new(&position.read()?, style))
}

/// The legal moves in UCI, one per line.
pub(crate) fn moves(position: &VariantPositionArgs, out: &mut Output) -> Result<(), Failure> {
    match position.read()? {
        AnyPosition::Chess(pos) => {
            for &mv in pos.legal_moves().iter() {
                writeln!(out, "{}", Uci::from_move(&pos, mv))?;
            }
        }
        AnyPosition::Variant(pos) => {
            for &mv in pos.legal_moves().iter() {
                writeln!(out, "{}", pos.uci(mv))?;
            }
        }
    }
    Ok(())
}

/// `valid`, or the FEN's error (the exit status says which).
pub(crate) fn validate(position: &VariantPositionArgs, out: &mut Output) -> Result<(), Failure> {
    position.read()?;
    writeln!(out, "valid")
}
