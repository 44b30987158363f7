//! `chesscore pgn --export jsonl|csv`: one JSON object or one CSV row per game, written as the
//! games are read (constant memory), for the tools data people load games with.

use std::collections::HashSet;
use std::fmt::Display;
use std::io::{self, Write};
use std::path::Path;

use chesscore_core::pgn::{PgnReader, ReaderOptions, Score, SEVEN_TAG_ROSTER};
use chesscore_core::{Game, Uci};
use clap::ValueEnum;
use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::PgnInput;
use crate::input::is_stdin;
use crate::output::Failure;

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
    pub(crate) fn write(&mut self, record: &Game, error: Option<&str>, out: &mut dyn Write) -> Result<(), Failure> {
        match self {
            Export::Jsonl => {
                serde_json::to_writer(&mut *out, &JsonGame { record, error })
                    .map_err(|e| Failure::Output(io::Error::from(e)))?;
                writeln!(out).map_err(Failure::Output)?;
            }
            Export::Csv { columns } => {
                let line = &record;
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
fn uci_moves(record: &Game) -> Vec<String> {
    let line = &record;
    line.moves()
        .enumerate()
        .map(|(ply, mv)| {
            let before = line.position_at(ply).expect("a position before every move");
            Uci::from_move(before, mv).to_string()
        })
        .collect()
}

/// The JSON object of a game, with the keys scripts read (fixed: see docs/pgn.md), written
/// straight from the record: a tree of JSON values built per game cost more than reading it.
struct JsonGame<'a> {
    record: &'a Game,
    error: Option<&'a str>,
}

impl Serialize for JsonGame<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let record = self.record;
        let line = &record;
        let tree = record.tree();
        let mut game = serializer.serialize_struct("Game", 6)?;
        game.serialize_field("headers", &Headers(record))?;
        game.serialize_field(
            "uci",
            &Seq(|| {
                line.moves().enumerate().map(|(ply, mv)| {
                    let before = line.position_at(ply).expect("a position before every move");
                    Text(Uci::from_move(before, mv))
                })
            }),
        )?;
        game.serialize_field("san", &Seq(|| line.san_moves().map(Text)))?;
        game.serialize_field("clk", &Seq(|| tree.mainline().map(|node| tree.annotations(node).clock)))?;
        game.serialize_field(
            "eval",
            &Seq(|| tree.mainline().map(|node| Eval(tree.annotations(node).eval.map(|eval| eval.score)))),
        )?;
        game.serialize_field("error", &self.error)?;
        game.end()
    }
}

/// The tags as an object, in file order (names are unique in a record).
struct Headers<'a>(&'a Game);

impl Serialize for Headers<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tags = self.0.tags();
        let mut map = serializer.serialize_map(Some(tags.len()))?;
        for (name, value) in tags.iter() {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// An array of what the closure's iterator yields (a closure, as serializing takes `&self`).
struct Seq<F>(F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// A string written from `Display`, without a `String` in between.
struct Text<T>(T);

impl<T: Display> Serialize for Text<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// An evaluation: `null`, `{"cp": N}` or `{"mate": N}`.
struct Eval(Option<Score>);

impl Serialize for Eval {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (key, value) = match self.0 {
            None => return serializer.serialize_none(),
            Some(Score::Centipawns(cp)) => ("cp", cp),
            Some(Score::Mate(n)) => ("mate", n),
        };
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(key, &value)?;
        map.end()
    }
}
