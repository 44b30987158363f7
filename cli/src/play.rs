//! `chesscore san` and `chesscore play`: moves played from a position, printed as SAN (or UCI)
//! or as the position and outcome they reach, in chess or a lichess variant.

use chesscore_core::variant::VariantPosition;
use chesscore_core::{Game, Move, MovesLine, Outcome, San, SanError, SanMode, SanOptions, Termination, Uci};
use clap::Args;

use crate::args::{AnyPosition, VariantPositionArgs};
use crate::output::{Failure, Output};

#[derive(Args)]
pub(crate) struct MovesArgs {
    /// Read SAN strictly: only the canonical spelling, check suffix included (chess only).
    #[arg(long)]
    strict: bool,
    /// Accept null moves, written `Z0` or `0000` (`--` ends the options on a command line;
    /// chess only).
    #[arg(long)]
    allow_null: bool,
    #[command(flatten)]
    position: VariantPositionArgs,
    /// The moves, in UCI (`e2e4`, `e7e8q`, `P@e4`) or SAN (`e4`, `Nf3`, `O-O`, `N@f3`), each
    /// read in the position the earlier ones reach; none after the game has ended by
    /// checkmate, stalemate or another automatic rule.
    moves: Vec<String>,
}

/// Prints each move as SAN, or as UCI when `uci`.
pub(crate) fn san(args: &MovesArgs, uci: bool, out: &mut Output) -> Result<(), Failure> {
    match start(args)? {
        Start::Chess(game) => san_on(args, game, uci, out),
        Start::Variant(pos) => san_on(args, pos, uci, out),
    }
}

/// Prints the FEN the moves reach and the outcome.
pub(crate) fn play(args: &MovesArgs, out: &mut Output) -> Result<(), Failure> {
    match start(args)? {
        Start::Chess(game) => play_on(args, game, out),
        Start::Variant(pos) => play_on(args, pos, out),
    }
}

fn san_on(args: &MovesArgs, mut line: impl Line, uci: bool, out: &mut Output) -> Result<(), Failure> {
    play_moves(args, &mut line, |line, mv| {
        // The move was just found legal in this position.
        let written = if uci { line.uci(mv).to_string() } else { line.san(mv)?.to_string() };
        writeln!(out, "{written}")
    })
}

fn play_on(args: &MovesArgs, mut line: impl Line, out: &mut Output) -> Result<(), Failure> {
    play_moves(args, &mut line, |_, _| Ok(()))?;
    writeln!(out, "{}", line.fen())?;
    let outcome = line.outcome();
    match (line.termination(), line.claimable_draw()) {
        (Some(reason), _) => writeln!(out, "{outcome} {reason}"),
        (None, Some(claim)) => writeln!(out, "{outcome} ongoing, draw claimable by {claim}"),
        (None, None) => writeln!(out, "{outcome} ongoing"),
    }
}

/// Where the moves are played: a chess game, which knows its repetitions, or a variant
/// position.
enum Start {
    Chess(Game),
    Variant(VariantPosition),
}

/// The start of `args`, with the options that chess alone takes refused for a variant.
fn start(args: &MovesArgs) -> Result<Start, Failure> {
    // The argument parser drops `--`; a null move written so would vanish without a word.
    if std::env::args_os().any(|a| a == "--") {
        let message = "`--` is not accepted here: write a null move as Z0 or 0000 (with --allow-null)";
        return Err(Failure::Message(message.to_string()));
    }
    match args.position.read()? {
        AnyPosition::Chess(pos) => {
            let mut game = Game::new(pos);
            game.set_allow_null_moves(args.allow_null);
            Ok(Start::Chess(game))
        }
        AnyPosition::Variant(pos) => match [("--strict", args.strict), ("--allow-null", args.allow_null)] {
            [(option, true), _] | [_, (option, true)] => {
                Err(format!("{option} is not available for {}", pos.variant()).into())
            }
            _ => Ok(Start::Variant(pos)),
        },
    }
}

/// What moves are played on, as `san` and `play` need it.
trait Line {
    /// The legal move `token` names, in UCI or SAN.
    fn read(&self, token: &str, args: &MovesArgs) -> Result<Move, String>;
    fn push(&mut self, mv: Move) -> Result<(), String>;
    /// The SAN of a legal move.
    fn san(&self, mv: Move) -> Result<San, String>;
    fn uci(&self, mv: Move) -> Uci;
    fn fen(&self) -> String;
    fn outcome(&self) -> Outcome;
    fn termination(&self) -> Option<Termination>;
    fn claimable_draw(&self) -> Option<Termination>;
}

impl Line for Game {
    fn read(&self, token: &str, args: &MovesArgs) -> Result<Move, String> {
        let mode = if args.strict { SanMode::Strict } else { SanMode::Lenient };
        let options = SanOptions { mode, allow_null: args.allow_null };
        MovesLine::read_token(self.position(), token, &options).map_err(|e| match e {
            SanError::Illegal if !args.allow_null && ["--", "Z0", "0000", "@@@@"].contains(&token) => {
                "null moves need --allow-null".to_string()
            }
            e => e.to_string(),
        })
    }

    fn push(&mut self, mv: Move) -> Result<(), String> {
        Game::push(self, mv).map_err(|e| e.to_string())
    }

    fn san(&self, mv: Move) -> Result<San, String> {
        San::from_move(self.position(), mv).map_err(|e| e.to_string())
    }

    fn uci(&self, mv: Move) -> Uci {
        Uci::from_move(self.position(), mv)
    }

    fn fen(&self) -> String {
        self.position().to_fen()
    }

    fn outcome(&self) -> Outcome {
        Game::outcome(self)
    }

    fn termination(&self) -> Option<Termination> {
        Game::termination(self)
    }

    fn claimable_draw(&self) -> Option<Termination> {
        Game::claimable_draw(self)
    }
}

impl Line for VariantPosition {
    fn read(&self, token: &str, _: &MovesArgs) -> Result<Move, String> {
        // A token that is no legal move in UCI is read as SAN, whose error is reported.
        self.parse_uci(token).or_else(|_| self.parse_san(token)).map_err(|e| e.to_string())
    }

    fn push(&mut self, mv: Move) -> Result<(), String> {
        self.play(mv).map_err(|e| e.to_string())
    }

    fn san(&self, mv: Move) -> Result<San, String> {
        VariantPosition::san(self, mv).map_err(|e| e.to_string())
    }

    fn uci(&self, mv: Move) -> Uci {
        VariantPosition::uci(self, mv)
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn outcome(&self) -> Outcome {
        VariantPosition::outcome(self)
    }

    fn termination(&self) -> Option<Termination> {
        VariantPosition::termination(self)
    }

    /// A variant position keeps no history to claim a draw by.
    fn claimable_draw(&self) -> Option<Termination> {
        None
    }
}

/// Plays the moves of `args` on `line`, calling `each` with it before each move.
fn play_moves<L: Line>(
    args: &MovesArgs,
    line: &mut L,
    mut each: impl FnMut(&L, Move) -> Result<(), Failure>,
) -> Result<(), Failure> {
    for (i, token) in args.moves.iter().enumerate() {
        let bad = |e: &dyn std::fmt::Display| format!("move {} `{token}`: {e}", i + 1);
        if let Some(reason) = line.termination() {
            return Err(bad(&format!("game is over ({reason})")).into());
        }
        let mv = line.read(token, args).map_err(|e| bad(&e))?;
        each(line, mv)?;
        line.push(mv).map_err(|e| bad(&e))?;
    }
    Ok(())
}
