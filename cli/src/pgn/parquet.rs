//! `chesscore pgn --export parquet -o FILE`: the columns of the JSON lines export in a Parquet
//! file (zstd), one row per game, written in row groups of bounded size as the games are read.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{ArrayBuilder, Float64Builder, Int32Builder, ListBuilder, StringBuilder, StructBuilder};
use arrow_array::{ArrayRef, RecordBatch, StructArray};
use arrow_schema::{DataType, Field, FieldRef, Fields, Schema, SchemaRef};
use chesscore_core::files::Replacement;
use chesscore_core::pgn::Score;
use chesscore_core::Game;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;

use super::export::{mainline_annotations, uci_line, ExportBoard};
use crate::output::{finish_output, io_text, Failure};

/// A row group ends after this many games...
const GROUP_GAMES: usize = 1 << 16;
/// ...or this many plies, whichever comes first: the games of a group are held in memory.
const GROUP_PLIES: usize = 1 << 20;

/// The Parquet file being written, with the games of the row group in progress.
pub(crate) struct ParquetExport {
    writer: ArrowWriter<Replacement>,
    path: PathBuf,
    schema: SchemaRef,
    rows: Rows,
}

/// The columns of the row group in progress.
struct Rows {
    /// One per tag column, in the order of the `headers` struct's fields.
    tags: Vec<StringBuilder>,
    tag_names: Vec<String>,
    tag_fields: Fields,
    uci: ListBuilder<StringBuilder>,
    san: ListBuilder<StringBuilder>,
    clk: ListBuilder<Float64Builder>,
    /// Items of `cp` and `mate`, null where a move has no `[%eval]`.
    eval: ListBuilder<StructBuilder>,
    error: StringBuilder,
    games: usize,
    plies: usize,
}

/// The item of the `uci` and `san` lists.
fn text_item() -> FieldRef {
    Arc::new(Field::new("item", DataType::Utf8, false))
}

fn clock_item() -> FieldRef {
    Arc::new(Field::new("item", DataType::Float64, true))
}

fn eval_fields() -> Fields {
    Fields::from(vec![Field::new("cp", DataType::Int32, true), Field::new("mate", DataType::Int32, true)])
}

fn eval_item() -> FieldRef {
    Arc::new(Field::new("item", DataType::Struct(eval_fields()), true))
}

/// The file's columns: `headers` (a struct of one nullable text field per tag), `uci`, `san`,
/// `clk`, `eval` and `error`, as the JSON lines have them.
fn schema(tag_fields: &Fields) -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("headers", DataType::Struct(tag_fields.clone()), false),
        Field::new("uci", DataType::List(text_item()), false),
        Field::new("san", DataType::List(text_item()), false),
        Field::new("clk", DataType::List(clock_item()), false),
        Field::new("eval", DataType::List(eval_item()), false),
        Field::new("error", DataType::Utf8, true),
    ]))
}

impl Rows {
    fn new(tag_names: Vec<String>) -> Rows {
        let eval_builders: Vec<Box<dyn ArrayBuilder>> =
            vec![Box::new(Int32Builder::new()), Box::new(Int32Builder::new())];
        Rows {
            tags: tag_names.iter().map(|_| StringBuilder::new()).collect(),
            tag_fields: tag_names.iter().map(|name| Field::new(name, DataType::Utf8, true)).collect(),
            tag_names,
            uci: ListBuilder::new(StringBuilder::new()).with_field(text_item()),
            san: ListBuilder::new(StringBuilder::new()).with_field(text_item()),
            clk: ListBuilder::new(Float64Builder::new()).with_field(clock_item()),
            eval: ListBuilder::new(StructBuilder::new(eval_fields(), eval_builders)).with_field(eval_item()),
            error: StringBuilder::new(),
            games: 0,
            plies: 0,
        }
    }

    fn push<B: ExportBoard>(&mut self, record: &Game<B>, error: Option<&str>) {
        for (column, name) in self.tags.iter_mut().zip(&self.tag_names) {
            column.append_option(record.tag(name));
        }
        for uci in uci_line(record) {
            // Written into the builder's buffer (no string in between), then ended as a value.
            let values = self.uci.values();
            write!(values, "{uci}").expect("a string builder takes any text");
            values.append_value("");
        }
        self.uci.append(true);
        for san in record.san_moves() {
            self.san.values().append_value(san);
        }
        self.san.append(true);
        for notes in mainline_annotations(record) {
            self.clk.values().append_option(notes.clock);
            let (cp, mate) = match notes.eval.map(|eval| eval.score) {
                None => (None, None),
                Some(Score::Centipawns(cp)) => (Some(cp), None),
                Some(Score::Mate(n)) => (None, Some(n)),
            };
            let item = self.eval.values();
            for (i, value) in [cp, mate].into_iter().enumerate() {
                item.field_builder::<Int32Builder>(i).expect("eval fields are Int32").append_option(value);
            }
            item.append(notes.eval.is_some());
        }
        self.clk.append(true);
        self.eval.append(true);
        self.error.append_option(error);
        self.games += 1;
        self.plies += record.moves().len();
    }

    fn full(&self) -> bool {
        self.games >= GROUP_GAMES || self.plies >= GROUP_PLIES
    }

    /// The games so far as a batch of `schema`, the builders emptied.
    fn take(&mut self, schema: &SchemaRef) -> Result<RecordBatch, ParquetError> {
        let tags: Vec<ArrayRef> = self.tags.iter_mut().map(|column| Arc::new(column.finish()) as ArrayRef).collect();
        let headers = StructArray::try_new(self.tag_fields.clone(), tags, None)?;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(headers),
            Arc::new(self.uci.finish()),
            Arc::new(self.san.finish()),
            Arc::new(self.clk.finish()),
            Arc::new(self.eval.finish()),
            Arc::new(self.error.finish()),
        ];
        (self.games, self.plies) = (0, 0);
        Ok(RecordBatch::try_new(schema.clone(), columns)?)
    }
}

impl ParquetExport {
    /// Starts the file, with a text column for each of `tag_names`.
    pub(crate) fn start(tag_names: Vec<String>, file: Replacement, path: PathBuf) -> Result<ParquetExport, Failure> {
        let rows = Rows::new(tag_names);
        let schema = schema(&rows.tag_fields);
        let properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_max_row_group_row_count(Some(GROUP_GAMES))
            .build();
        let writer = ArrowWriter::try_new(file, schema.clone(), Some(properties)).map_err(|e| write_error(&path, e))?;
        Ok(ParquetExport { writer, path, schema, rows })
    }

    pub(crate) fn write<B: ExportBoard>(&mut self, record: &Game<B>, error: Option<&str>) -> Result<(), Failure> {
        self.rows.push(record, error);
        if self.rows.full() {
            self.write_group()?;
        }
        Ok(())
    }

    /// Writes the games held as a row group of their own.
    fn write_group(&mut self) -> Result<(), Failure> {
        let batch = self.rows.take(&self.schema);
        let written = batch.and_then(|batch| self.writer.write(&batch)).and_then(|()| self.writer.flush());
        written.map_err(|e| write_error(&self.path, e))
    }

    /// Writes the last row group and the footer, and puts the file in place.
    pub(crate) fn finish(mut self) -> Result<(), Failure> {
        if self.rows.games > 0 {
            self.write_group()?;
        }
        let file = self.writer.into_inner().map_err(|e| write_error(&self.path, e))?;
        Ok(finish_output(file, &self.path)?)
    }
}

/// The message of a failure to write the file at `path` (an I/O error's as elsewhere).
fn write_error(path: &Path, e: ParquetError) -> Failure {
    let text = match e {
        ParquetError::External(e) => match e.downcast::<std::io::Error>() {
            Ok(e) => io_text(&e),
            Err(e) => e.to_string(),
        },
        e => e.to_string(),
    };
    format!("cannot write {}: {text}", path.display()).into()
}
