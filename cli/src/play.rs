//! `chesscore san` and `chesscore play`: moves played from a position, printed as SAN or as the
//! position and outcome they reach.

use chesscore_core::{Game, MovesLine, San, SanError, SanMode, SanOptions};
use clap::Args;

use crate::args::PositionArgs;
use crate::output::{Failure, Output};

#[derive(Args)]
pub(crate) struct MovesArgs {
    /// Read SAN strictly: only the canonical spelling, check suffix included.
    #[arg(long)]
    strict: bool,
    /// Accept null moves, written `Z0` or `0000` (`--` ends the options on a command line).
    #[arg(long)]
    allow_null: bool,
    #[command(flatten)]
    position: PositionArgs,
    /// The moves, in UCI (`e2e4`, `e7e8q`) or SAN (`e4`, `Nf3`, `O-O`), each read in the
    /// position the earlier ones reach; none after the game has ended by checkmate, stalemate
    /// or another automatic rule.
    moves: Vec<String>,
}

/// Prints each move as SAN.
pub(crate) fn san(args: &MovesArgs, out: &mut Output) -> Result<(), Failure> {
    play_moves(args, |game, mv| {
        // The move was just found legal in this position.
        let san = San::from_move(game.position(), mv).map_err(|e| e.to_string())?;
        writeln!(out, "{san}")
    })?;
    Ok(())
}

/// Prints the FEN the moves reach and the outcome.
pub(crate) fn play(args: &MovesArgs, out: &mut Output) -> Result<(), Failure> {
    let game = play_moves(args, |_, _| Ok(()))?;
    writeln!(out, "{}", game.position().to_fen())?;
    let outcome = game.outcome();
    match (game.termination(), game.claimable_draw()) {
        (Some(reason), _) => writeln!(out, "{outcome} {reason}"),
        (None, Some(claim)) => writeln!(out, "{outcome} ongoing, draw claimable by {claim}"),
        (None, None) => writeln!(out, "{outcome} ongoing"),
    }
}

/// Plays the moves of `args` from its FEN, calling `each` with the game before each move.
fn play_moves(
    args: &MovesArgs,
    mut each: impl FnMut(&Game, chesscore_core::Move) -> Result<(), Failure>,
) -> Result<Game, Failure> {
    // The argument parser drops `--`; a null move written so would vanish without a word.
    if std::env::args_os().any(|a| a == "--") {
        let message = "`--` is not accepted here: write a null move as Z0 or 0000 (with --allow-null)";
        return Err(Failure::Message(message.to_string()));
    }
    let options =
        SanOptions { mode: if args.strict { SanMode::Strict } else { SanMode::Lenient }, allow_null: args.allow_null };
    let mut game = Game::new(args.position.read()?);
    game.set_allow_null_moves(args.allow_null);
    for (i, token) in args.moves.iter().enumerate() {
        let bad = |e: &dyn std::fmt::Display| format!("move {} `{token}`: {e}", i + 1);
        if let Some(reason) = game.termination() {
            return Err(bad(&format!("game is over ({reason})")).into());
        }
        let mv = MovesLine::read_token(game.position(), token, &options).map_err(|e| match e {
            SanError::Illegal if !args.allow_null && ["--", "Z0", "0000", "@@@@"].contains(&token.as_str()) => {
                bad(&"null moves need --allow-null")
            }
            e => bad(&e),
        })?;
        each(&game, mv)?;
        game.push(mv).map_err(|e| bad(&e))?;
    }
    Ok(game)
}
