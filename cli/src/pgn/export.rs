//! `chesscore pgn --export jsonl|csv|parquet`: one JSON object, CSV row or Parquet row per game,
//! written as the games are read (memory bounded), for the tools data people load games with.

use std::collections::HashSet;
use std::fmt::Display;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use chesscore_core::files::Replacement;
use chesscore_core::game::GameBoard;
use chesscore_core::pgn::{Annotations, PgnReader, ReaderOptions, Score, SEVEN_TAG_ROSTER};
use chesscore_core::variant::VariantPosition;
use chesscore_core::{Game, Move, Position, Uci};
use clap::ValueEnum;
use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::PgnInput;
use crate::input::is_stdin;
use crate::output::{create_output, finish_output, io_text, Failure};

/// The formats of `--export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormat {
    /// One JSON object per line: `headers`, `uci`, `san`, `clk`, `eval`, `error`.
    Jsonl,
    /// One row per game: the tags as columns, then `result`, `plies`, `uci`, `error`.
    Csv,
    /// A Parquet file (`-o`) of the JSON lines' columns, each tag a text column of `headers`.
    Parquet,
}

/// Where a text export goes: standard output, or the file of `-o` through a temporary file.
pub(crate) enum Destination {
    Stdout,
    File(Replacement, PathBuf),
}

impl Destination {
    /// Runs `write` on the file, or on `stdout`; a file's write error names the file.
    fn write(
        &mut self,
        stdout: &mut dyn Write,
        write: impl FnOnce(&mut dyn Write) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        match self {
            Destination::Stdout => write(stdout),
            Destination::File(file, path) => write(file).map_err(|failure| match failure {
                Failure::Output(e) => format!("cannot write {}: {}", path.display(), io_text(&e)).into(),
                message => message,
            }),
        }
    }
}

/// The export being written, across the files of one command.
pub(crate) enum Export {
    Jsonl(Destination),
    Csv(Destination, Vec<String>),
    #[cfg(feature = "parquet")]
    Parquet(Box<super::parquet::ParquetExport>),
}

impl Export {
    /// Starts an export of `files` to `output` (standard output when `None`, which Parquet
    /// refuses).
    pub(crate) fn start(
        format: ExportFormat,
        files: &[PathBuf],
        output: Option<&Path>,
        stdout: &mut dyn Write,
    ) -> Result<Export, Failure> {
        let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        let destination = |path: &Path| create_output(path, &inputs).map(|file| (file, path.to_path_buf()));
        if format == ExportFormat::Parquet {
            let Some(path) = output else {
                return Err("--export parquet writes a file: name it with -o FILE".to_string().into());
            };
            return start_parquet(files, destination(path)?);
        }
        let mut destination = match output {
            Some(path) => {
                let (file, path) = destination(path)?;
                Destination::File(file, path)
            }
            None => Destination::Stdout,
        };
        if format == ExportFormat::Jsonl {
            return Ok(Export::Jsonl(destination));
        }
        let columns = tag_columns(files)?;
        let header = columns.iter().map(String::as_str).chain(["result", "plies", "uci", "error"]);
        destination.write(stdout, |out| csv_row(out, header))?;
        Ok(Export::Csv(destination, columns))
    }

    /// Writes one game, of chess or of a variant (for a broken one, what was read of it, with
    /// its error's message).
    pub(crate) fn write<B: ExportBoard>(
        &mut self,
        record: &Game<B>,
        error: Option<&str>,
        stdout: &mut dyn Write,
    ) -> Result<(), Failure> {
        match self {
            Export::Jsonl(destination) => destination.write(stdout, |out| {
                serde_json::to_writer(&mut *out, &JsonGame { record, error })
                    .map_err(|e| Failure::Output(io::Error::from(e)))?;
                writeln!(out).map_err(Failure::Output)
            }),
            Export::Csv(destination, columns) => {
                let uci: Vec<String> = uci_moves(record);
                let row = columns.iter().map(|name| record.tag(name).unwrap_or("").to_string()).chain([
                    record.effective_result().to_string(),
                    record.moves().len().to_string(),
                    uci.join(" "),
                    error.unwrap_or("").to_string(),
                ]);
                destination.write(stdout, |out| csv_row(out, row))
            }
            #[cfg(feature = "parquet")]
            Export::Parquet(parquet) => parquet.write(record, error),
        }
    }

    /// Ends the export, putting its file in place.
    pub(crate) fn finish(self) -> Result<(), Failure> {
        match self {
            Export::Jsonl(destination) | Export::Csv(destination, _) => match destination {
                Destination::Stdout => Ok(()),
                Destination::File(file, path) => Ok(finish_output(file, &path)?),
            },
            #[cfg(feature = "parquet")]
            Export::Parquet(parquet) => parquet.finish(),
        }
    }
}

#[cfg(feature = "parquet")]
fn start_parquet(files: &[PathBuf], (file, path): (Replacement, PathBuf)) -> Result<Export, Failure> {
    if files.iter().any(|path| is_stdin(path)) {
        // Its tag columns are found by a first reading, which standard input does not allow.
        return Err("--export parquet reads its files twice: it cannot read standard input".to_string().into());
    }
    Ok(Export::Parquet(Box::new(super::parquet::ParquetExport::start(tag_columns(files)?, file, path)?)))
}

#[cfg(not(feature = "parquet"))]
fn start_parquet(_: &[PathBuf], _: (Replacement, PathBuf)) -> Result<Export, Failure> {
    Err("this chesscore was built without Parquet export (cargo feature `parquet`)".to_string().into())
}

/// The tag columns of an export of `files`: the Seven Tag Roster, then every other tag name of
/// the files in the order they first appear (a first reading of the tags alone finds them);
/// standard input cannot be read twice, so it adds none.
pub(super) fn tag_columns(files: &[PathBuf]) -> Result<Vec<String>, Failure> {
    let mut columns: Vec<String> = SEVEN_TAG_ROSTER.iter().map(|name| name.to_string()).collect();
    let mut known: HashSet<String> = columns.iter().cloned().collect();
    for path in files.iter().filter(|path| !is_stdin(path)) {
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
    Ok(columns)
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

/// A board whose games are exported: chess, or a lichess variant (drops written `P@e4`).
pub(crate) trait ExportBoard: GameBoard {
    /// `mv`, legal here, in UCI.
    fn uci(&self, mv: Move) -> Uci;
}

impl ExportBoard for Position {
    fn uci(&self, mv: Move) -> Uci {
        Uci::from_move(self, mv)
    }
}

impl ExportBoard for VariantPosition {
    fn uci(&self, mv: Move) -> Uci {
        VariantPosition::uci(self, mv)
    }
}

/// The main line's moves in UCI.
fn uci_moves<B: ExportBoard>(record: &Game<B>) -> Vec<String> {
    uci_line(record).map(|uci| uci.to_string()).collect()
}

/// The main line's moves in UCI, as they are written.
pub(super) fn uci_line<B: ExportBoard>(record: &Game<B>) -> impl Iterator<Item = Uci> + '_ {
    record.moves().enumerate().map(|(ply, mv)| {
        let before = record.position_at(ply).expect("a position before every move");
        before.uci(mv)
    })
}

/// What the comments of each main-line move say (`clk` and `eval` of the export).
pub(super) fn mainline_annotations<B: GameBoard>(record: &Game<B>) -> impl Iterator<Item = Annotations> + '_ {
    let tree = record.tree();
    tree.mainline().map(|node| tree.annotations(node))
}

/// The JSON object of a game, with the keys scripts read (fixed: see docs/pgn.md), written
/// straight from the record: a tree of JSON values built per game cost more than reading it.
struct JsonGame<'a, B> {
    record: &'a Game<B>,
    error: Option<&'a str>,
}

impl<B: ExportBoard> Serialize for JsonGame<'_, B> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let record = self.record;
        let mut game = serializer.serialize_struct("Game", 6)?;
        game.serialize_field("headers", &Headers(record))?;
        game.serialize_field("uci", &Seq(|| uci_line(record).map(Text)))?;
        game.serialize_field("san", &Seq(|| record.san_moves().map(Text)))?;
        game.serialize_field("clk", &Seq(|| mainline_annotations(record).map(|notes| notes.clock)))?;
        game.serialize_field(
            "eval",
            &Seq(|| mainline_annotations(record).map(|notes| Eval(notes.eval.map(|eval| eval.score)))),
        )?;
        game.serialize_field("error", &self.error)?;
        game.end()
    }
}

/// The tags as an object, in file order (names are unique in a record).
struct Headers<'a, B>(&'a Game<B>);

impl<B: GameBoard> Serialize for Headers<'_, B> {
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
