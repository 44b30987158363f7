//! `chesscore epdtest`: an EPD test suite run through an engine.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use chesscore_core::engine::Limits;
use chesscore_core::{Epd, Move, Position, San, Uci};
use clap::Args;

use super::{default_engine, engine_failure, start, EngineArgs};
use crate::input::{is_stdin, EpdLines};
use crate::output::{Failure, Output};

#[derive(Args)]
pub(crate) struct EpdtestArgs {
    /// The EPD test suite: positions with `bm` (best moves) and/or `am` (moves to avoid).
    file: PathBuf,
    #[command(flatten)]
    engine: EngineArgs,
    /// Milliseconds per position.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    movetime: u64,
}

/// A one-line progress bar on standard error, when it is a terminal.
struct Bar {
    total: usize,
}

impl Bar {
    fn new(total: usize) -> Option<Bar> {
        io::stderr().is_terminal().then_some(Bar { total })
    }

    fn show(&self, done: usize) {
        let filled = done * 40 / self.total.max(1);
        // Only a help: a failure to show it is no reason to stop.
        let _ = write!(io::stderr(), "\r[{}{}] {done}/{}", "#".repeat(filled), ".".repeat(40 - filled), self.total);
    }

    fn clear(&self) {
        let _ = write!(io::stderr(), "\r{}\r", " ".repeat(60));
    }
}

/// Moves in SAN, joined by spaces.
fn sans(pos: &Position, moves: &[Move]) -> String {
    let sans: Vec<String> = moves
        .iter()
        .map(|&mv| San::from_move(pos, mv).map_or_else(|_| Uci::from_move(pos, mv).to_string(), |san| san.to_string()))
        .collect();
    sans.join(" ")
}

/// Runs an EPD test suite (see `Command::Epdtest`).
pub(crate) fn epdtest(args: &EpdtestArgs, out: &mut Output) -> Result<(), Failure> {
    // Counted first for the progress bar (on a terminal only), then read again as the engine
    // goes: a line at a time both times, so that a file of any size costs no more memory.
    let bar = if io::stderr().is_terminal() && !is_stdin(&args.file) {
        let mut lines = EpdLines::open(&args.file)?;
        let mut total = 0;
        while lines.next_line()?.is_some() {
            total += 1;
        }
        Bar::new(total)
    } else {
        None
    };
    let mut lines = EpdLines::open(&args.file)?;
    let path = args.engine.engine.clone().unwrap_or_else(default_engine);
    let mut engine = start(&path, args.engine.threads)?;
    let fail = |e: chesscore_core::engine::EngineError| engine_failure(&path, &e);
    let limits = Limits { movetime: Some(Duration::from_millis(args.movetime)), ..Limits::default() };
    let (mut solved, mut done) = (0, 0);
    while let Some((number, line)) = lines.next_line()? {
        if let Some(bar) = &bar {
            bar.show(done);
        }
        let epd = match line.map(Epd::parse) {
            Some(Ok(epd)) => epd,
            Some(Err(e)) => {
                out.note(format_args!("line {number}: error: {e}"))?;
                continue;
            }
            None => {
                out.note(format_args!("line {number}: error: not UTF-8 text"))?;
                continue;
            }
        };
        done += 1;
        engine.new_game().map_err(fail)?;
        let pos = epd.position();
        let analysis = engine.analyse_position(pos, &limits, None).map_err(fail)?;
        let (best, avoid) = (epd.best_moves(), epd.avoid_moves());
        let ok = analysis.best_move.is_some_and(|mv| (best.is_empty() || best.contains(&mv)) && !avoid.contains(&mv));
        solved += usize::from(ok);
        let mut expected = String::new();
        if !best.is_empty() {
            let _ = write!(expected, "bm {}", sans(pos, &best));
        }
        if !avoid.is_empty() {
            let _ = write!(expected, "{}am {}", if expected.is_empty() { "" } else { ", " }, sans(pos, &avoid));
        }
        let got = analysis.best_move.map_or("(none)".to_string(), |mv| sans(pos, &[mv]));
        let id = epd.string("id").map_or_else(|| format!("line {number}"), str::to_string);
        if let Some(bar) = &bar {
            bar.clear();
        }
        writeln!(out, "{id}: expected {expected}, got {got}: {}", if ok { "ok" } else { "fail" })?;
        out.flush()?;
    }
    if let Some(bar) = &bar {
        bar.clear();
    }
    writeln!(out, "{solved} solved of {done}")
}
