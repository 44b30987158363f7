//! `chesscore pgn --export jsonl|csv`: one JSON object or one CSV row per game, written as the
//! games are read (constant memory), for the tools data people load games with.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::Path;

use chesscore_core::pgn::{GameRecord, PgnReader, ReaderOptions, Score, SEVEN_TAG_ROSTER};
use chesscore_core::Uci;
use clap::ValueEnum;
use serde_json::{json, Map, Value};

use super::{is_stdin, Failure, PgnInput};

/// The formats of `--export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormat {
    /// One JSON object per line: `headers`, `uci`, `san`, `clk`, `eval`, `error`.
    Jsonl,
    /// One row per game: the tags as columns, then `result`, `plies`, `uci`, `error`.
    Csv,
}

/// The export being written, across the files of one command.
pub(crate) enum Export {
    Jsonl,
    Csv { columns: Vec<String> },
}

impl Export {
    /// Starts an export of `files`. The CSV columns are every tag name of the files, in the
    /// order they first appear (a first reading of the tags alone finds them); standard input
    /// cannot be read twice, so its games have the Seven Tag Roster's columns.
    pub(crate) fn start(
        format: ExportFormat,
        files: &[impl AsRef<Path>],
        out: &mut dyn Write,
    ) -> Result<Export, Failure> {
        if format == ExportFormat::Jsonl {
            return Ok(Export::Jsonl);
        }
        let mut columns: Vec<String> = SEVEN_TAG_ROSTER.iter().map(|name| name.to_string()).collect();
        let mut known: HashSet<String> = columns.iter().cloned().collect();
        for path in files.iter().map(AsRef::as_ref).filter(|path| !is_stdin(path)) {
            let options = ReaderOptions { headers_only: true, ..ReaderOptions::default() };
            for game in PgnReader::new(PgnInput::open(path)?).with_options(options) {
                // A broken game's row has the tags read before the problem.
                let tags = match &game {
                    Ok(record) => record.tags(),
                    Err(e) => match &e.partial {
                        Some(partial) => partial.tags(),
                        None => continue,
                    },
                };
                for (name, _) in tags.iter() {
                    if known.insert(name.to_string()) {
                        columns.push(name.to_string());
                    }
                }
            }
        }
        let header = columns.iter().map(String::as_str).chain(["result", "plies", "uci", "error"]);
        csv_row(out, header)?;
        Ok(Export::Csv { columns })
    }

    /// Writes one game (for a broken one, what was read of it, with its error's message).
    pub(crate) fn write(
        &mut self,
        record: &GameRecord,
        error: Option<&str>,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        match self {
            Export::Jsonl => {
                serde_json::to_writer(&mut *out, &json_object(record, error))
                    .map_err(|e| Failure::Output(io::Error::from(e)))?;
                writeln!(out).map_err(Failure::Output)?;
            }
            Export::Csv { columns } => {
                let line = record.game();
                let uci: Vec<String> = uci_moves(record);
                let row = columns.iter().map(|name| record.tag(name).unwrap_or("").to_string()).chain([
                    record.effective_result().to_string(),
                    line.moves().len().to_string(),
                    uci.join(" "),
                    error.unwrap_or("").to_string(),
                ]);
                csv_row(out, row)?;
            }
        }
        Ok(())
    }
}

/// Writes one CSV row (quoted where it needs to be) and hands it on at once.
fn csv_row<I>(out: &mut dyn Write, fields: I) -> Result<(), Failure>
where
    I: IntoIterator,
    I::Item: AsRef<[u8]>,
{
    let mut writer = csv::WriterBuilder::new().buffer_capacity(4096).from_writer(out);
    let written = writer.write_record(fields).and_then(|()| Ok(writer.flush()?));
    written.map_err(|e| match e.into_kind() {
        csv::ErrorKind::Io(e) => Failure::Output(e),
        other => Failure::Message(format!("cannot write CSV: {other:?}")),
    })
}

/// The main line's moves in UCI.
fn uci_moves(record: &GameRecord) -> Vec<String> {
    let line = record.game();
    line.moves()
        .enumerate()
        .map(|(ply, mv)| {
            let before = line.position_at(ply).expect("a position before every move");
            Uci::from_move(before, mv).to_string()
        })
        .collect()
}

/// The JSON object of a game, with the keys scripts read (fixed: see the README).
fn json_object(record: &GameRecord, error: Option<&str>) -> Value {
    let headers: Map<String, Value> =
        record.tags().iter().map(|(name, value)| (name.to_string(), Value::from(value))).collect();
    let tree = record.tree();
    let annotations: Vec<_> = tree.mainline().map(|node| tree.annotations(node)).collect();
    let clk: Vec<Value> = annotations.iter().map(|a| a.clock.map_or(Value::Null, Value::from)).collect();
    let eval: Vec<Value> = annotations
        .iter()
        .map(|a| match a.eval.map(|eval| eval.score) {
            None => Value::Null,
            Some(Score::Centipawns(cp)) => json!({ "cp": cp }),
            Some(Score::Mate(n)) => json!({ "mate": n }),
        })
        .collect();
    json!({
        "headers": headers,
        "uci": uci_moves(record),
        "san": record.game().san_moves().map(|san| san.to_string()).collect::<Vec<_>>(),
        "clk": clk,
        "eval": eval,
        "error": error,
    })
}
