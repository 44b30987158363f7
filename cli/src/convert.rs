//! `chesscore convert IN OUT`: training data between `.plain`, `.binpack` and `.epd`, chosen by
//! the files' extensions, streamed entry by entry.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;

use chesscore_core::binpack::{
    BinpackError, BinpackErrorKind, BinpackReader, BinpackWriter, PlainReader, TrainingEntry,
};
use chesscore_core::files::{self, Replacement};
use chesscore_core::Epd;

use crate::input::EPD_MAX_LINE;
use crate::output::{create_output, finish_output, io_text, Failure, Output};

/// A training data format, by file extension.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Plain,
    Binpack,
    Epd,
}

impl Format {
    fn of(path: &Path) -> Result<Format, String> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("plain") => Ok(Format::Plain),
            Some("binpack") => Ok(Format::Binpack),
            Some("epd") => Ok(Format::Epd),
            _ => Err(format!("{}: unknown format (the extensions are .plain, .binpack and .epd)", path.display())),
        }
    }
}

/// The entries of an EPD file, one a line (blank lines skipped); errors at the line's byte. A
/// line longer than [`EPD_MAX_LINE`] is an error, and ends the reading.
fn epd_entries(mut input: impl BufRead) -> impl Iterator<Item = Result<TrainingEntry, BinpackError>> {
    let (mut offset, mut line, mut ended) = (0u64, Vec::new(), false);
    std::iter::from_fn(move || loop {
        if ended {
            return None;
        }
        let at = offset;
        match files::read_line(&mut input, &mut line, EPD_MAX_LINE) {
            Ok(0) => return None,
            Ok(read) => offset += read as u64,
            Err(e) => {
                ended = true;
                return Some(Err(BinpackError { offset: at, kind: BinpackErrorKind::Io(e) }));
            }
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        let entry = Epd::parse(&text).map_err(BinpackErrorKind::Epd).and_then(|epd| TrainingEntry::from_epd(&epd));
        return Some(entry.map_err(|kind| BinpackError { offset: at, kind }));
    })
}

/// Where entries go.
enum Sink {
    Binpack(Box<BinpackWriter<Replacement>>),
    Text(Replacement, Format),
}

impl Sink {
    fn write(&mut self, entry: &TrainingEntry) -> Result<(), String> {
        match self {
            Sink::Binpack(writer) => writer.write(entry).map_err(|e| e.to_string()),
            Sink::Text(out, Format::Epd) => writeln!(out, "{}", entry.to_epd()).map_err(|e| io_text(&e)),
            Sink::Text(out, _) => {
                entry.check().map_err(|e| e.to_string())?;
                write!(out, "{entry}").map_err(|e| io_text(&e))
            }
        }
    }

    /// The output file, complete, for [`finish_output`].
    fn finish(self) -> Result<Replacement, String> {
        match self {
            Sink::Binpack(writer) => writer.finish().map_err(|e| e.to_string()),
            Sink::Text(out, _) => Ok(out),
        }
    }
}

/// Converts `input` into `output`; prints the number of entries.
pub(crate) fn convert(input: &Path, output: &Path, out: &mut Output) -> Result<(), Failure> {
    let (from, to) = (Format::of(input)?, Format::of(output)?);
    let cannot = |verb: &str, path: &Path, e: io::Error| format!("cannot {verb} {}: {}", path.display(), io_text(&e));
    let file = File::open(input).map_err(|e| cannot("read", input, e))?;
    let output_file = create_output(output, &[input])?;
    let entries: Box<dyn Iterator<Item = Result<TrainingEntry, BinpackError>>> = match from {
        Format::Binpack => Box::new(BinpackReader::new(file)),
        Format::Plain => Box::new(PlainReader::new(BufReader::new(file))),
        Format::Epd => Box::new(epd_entries(BufReader::new(file))),
    };
    let mut sink = match to {
        Format::Binpack => Sink::Binpack(Box::new(BinpackWriter::new(output_file))),
        text => Sink::Text(output_file, text),
    };
    let mut count = 0u64;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", input.display()))?;
        sink.write(&entry).map_err(|e| format!("{}: entry {}: {e}", output.display(), count + 1))?;
        count += 1;
    }
    let file = sink.finish().map_err(|e| format!("{}: {e}", output.display()))?;
    finish_output(file, output)?;
    writeln!(out, "{count} {}", if count == 1 { "entry" } else { "entries" })?;
    Ok(())
}
