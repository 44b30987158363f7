//! The `chesscore` command: perft, FEN normalisation, board rendering, move listing, FEN
//! validation, SAN, playing moves, EPD checking, PGN reading, board pictures, UCI engines and
//! Polyglot books, for humans and scripts.
//!
//! `args` is the command line, each command has a module of its own (with its options), and
//! `input` and `output` are how every command reads its arguments and files and writes its
//! results and failures. The chess is the core's: a command reads, calls the core and prints.

use std::io::{self, Write};
use std::process::ExitCode;

use chesscore_core::BoardStyle;
use clap::Parser;

use args::{Cli, Command};
use output::{Failure, Output};

mod args;
mod book;
mod convert;
mod engine;
mod epd;
mod input;
mod output;
mod perft;
mod pgn;
mod play;
mod position;
mod svg;
mod tablebase;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to standard output, which can fail like any output.
            return match e.print() {
                Err(write) if !e.use_stderr() => exit_status(Err(Failure::Output(write))),
                _ => ExitCode::from(e.exit_code() as u8),
            };
        }
    };
    let mut out = Output::new();
    let result = run(cli.command, &mut out);
    // What was written before a failure goes out before the message about it.
    let flushed = out.flush();
    exit_status(result.and(flushed))
}

/// Reports the failure, if any, and gives the exit status.
fn exit_status(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader has stopped reading (`chesscore moves startpos | head -1`): it has what it
        // wanted, so stop quietly.
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(failure) => {
            // Nowhere is left to report a failure to write this.
            let _ = writeln!(io::stderr(), "chesscore: {failure}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the command given.
fn run(command: Command, out: &mut Output) -> Result<(), Failure> {
    match command {
        Command::Perft { fen, depth, divide, rules } => perft::run(fen, depth, divide, rules, out),
        Command::Fen { position, shredder, binary } => position::fen(&position, shredder, binary, out),
        Command::Board(position) => position::board(&position, BoardStyle::Ascii, out),
        Command::Unicode(position) => position::board(&position, BoardStyle::Unicode, out),
        Command::Moves(position) => position::moves(&position, out),
        Command::Validate(position) => position::validate(&position, out),
        Command::San { moves, uci } => play::san(&moves, uci, out),
        Command::Play(args) => play::play(&args, out),
        Command::Convert { input, output } => convert::convert(&input, &output, out),
        Command::Epd { file, rules } => epd::check_epd(&file, &rules, out),
        Command::Pgn(args) => pgn::run(&args, out),
        Command::Svg(args) => svg::run(&args, out),
        Command::Analyse(args) => engine::analyse(&args, out),
        Command::Epdtest(args) => engine::epdtest(&args, out),
        Command::Match(args) => engine::play_match(&args, out),
        Command::Book(command) => book::run(command, out),
        Command::Tb(command) => tablebase::run(command, out),
    }
}
