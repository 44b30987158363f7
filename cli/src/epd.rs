//! `chesscore epd`: checks an EPD file line by line.

use std::path::Path;

use chesscore_core::Epd;

use crate::input::EpdLines;
use crate::output::{counted, Failure, Output};

/// Checks every non-empty line of an EPD file, listing the operations of the valid ones. A file
/// without any is an error too: an empty file is more likely a mistake than a test suite.
pub(crate) fn check_epd(file: &Path, out: &mut Output) -> Result<(), Failure> {
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
        match Epd::parse(line) {
            Ok(epd) => {
                let fen = epd.position().to_fen();
                let fields = fen.rsplitn(3, ' ').nth(2).unwrap_or(&fen);
                writeln!(out, "line {number}: ok {fields}")?;
                for op in epd.operations() {
                    let mut text = String::new();
                    epd.write_operation(op, &mut text)
                        .map_err(|_| format!("line {number}: cannot write {}", op.opcode))?;
                    writeln!(out, "  {text}")?;
                }
            }
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
