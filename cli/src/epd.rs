//! `chesscore epd`: checks an EPD file line by line.

use std::path::Path;

use chesscore_core::{Epd, EpdPosition, FenOptions};

use crate::args::Rules;
use crate::input::EpdLines;
use crate::output::{counted, Failure, Output};

/// Checks every non-empty line of an EPD file (of chess, or of the variant of `rules`), listing
/// the operations of the valid ones. A file without any is an error too: an empty file is more
/// likely a mistake than a test suite.
pub(crate) fn check_epd(file: &Path, rules: &Rules, out: &mut Output) -> Result<(), Failure> {
    let mut input = EpdLines::open(file)?;
    let name = input.name.clone();
    let (mut lines, mut bad) = (0u64, 0u64);
    while let Some((number, line)) = input.next_line()? {
        let Some(line) = line else {
            lines += 1;
            bad += 1;
            out.note(format_args!("line {number}: error: not UTF-8 text"))?;
            continue;
        };
        lines += 1;
        let checked = match rules.lichess() {
            Some(variant) => Epd::parse_variant(variant, line)
                .map(|epd| list(&epd, epd.position().to_fen(), number, out))
                .map_err(|e| e.to_string()),
            None => {
                let options = FenOptions { chess960: rules.chess960(), ..FenOptions::default() };
                Epd::parse_with(line, &options)
                    .map(|epd| list(&epd, epd.position().to_fen(), number, out))
                    .map_err(|e| e.to_string())
            }
        };
        match checked {
            Ok(listed) => listed?,
            Err(e) => {
                bad += 1;
                out.note(format_args!("line {number}: error: {e}"))?;
            }
        }
    }
    match (lines, bad) {
        (0, _) => Err(format!("no EPD lines in {name}").into()),
        (_, 0) => Ok(()),
        (lines, bad) => Err(format!("{bad} of {} invalid in {name}", counted(lines, "EPD line", "EPD lines")).into()),
    }
}

/// Lists a valid line: its position fields (`fen` without the clocks), then each operation.
fn list<P: EpdPosition>(epd: &Epd<P>, fen: String, number: usize, out: &mut Output) -> Result<(), Failure> {
    let fields = fen.rsplitn(3, ' ').nth(2).unwrap_or(&fen);
    writeln!(out, "line {number}: ok {fields}")?;
    for op in epd.operations() {
        let mut text = String::new();
        epd.write_operation(op, &mut text).map_err(|_| format!("line {number}: cannot write {}", op.opcode))?;
        writeln!(out, "  {text}")?;
    }
    Ok(())
}
