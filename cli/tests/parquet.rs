//! `chesscore pgn --export parquet -o FILE`: the file read back with the `parquet` crate's reader
//! holds, column by column, what `--export jsonl` writes (plain, gzip and Zstandard input, a
//! broken game, one and two threads); `-o` for the text exports; what is refused, and that a
//! failed run leaves an existing file as it was and no temporary file. Built without the
//! `parquet` feature, that the format is refused.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[cfg(feature = "parquet")]
use arrow_array::{
    cast::AsArray,
    types::{Float64Type, Int32Type},
    Array, RecordBatch,
};
#[cfg(feature = "parquet")]
use parquet::{arrow::arrow_reader::ParquetRecordBatchReaderBuilder, basic::Compression};
#[cfg(feature = "parquet")]
use serde_json::{json, Map, Value};

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chesscore")).args(args).stdin(Stdio::null()).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("parquet").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn data(name: &str) -> String {
    format!("{}/../tests/data/pgn/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The files of the directory, by name.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

/// The inputs: games with `[%clk]` and `[%eval]` (mates included), a broken game, real-world
/// syntax, and the same sort of files gzip- and Zstandard-compressed.
#[cfg(feature = "parquet")]
fn inputs(dir: &Path) -> Vec<String> {
    let gz = dir.join("edge.pgn.gz");
    let mut encoder = flate2::write::GzEncoder::new(fs::File::create(&gz).unwrap(), flate2::Compression::default());
    std::io::copy(&mut fs::File::open(data("dev_edge_cases.pgn")).unwrap(), &mut encoder).unwrap();
    encoder.finish().unwrap();
    let zst = dir.join("crlf.pgn.zst");
    fs::write(&zst, zstd::encode_all(&fs::read(data("format_crlf_bom.pgn")).unwrap()[..], 3).unwrap()).unwrap();
    vec![
        data("dev_generated.pgn"),
        data("broken.pgn"),
        gz.to_str().unwrap().to_string(),
        data("format.pgn"),
        zst.to_str().unwrap().to_string(),
    ]
}

/// The rows of a Parquet file as the JSON objects of `--export jsonl` (a null tag is no key).
#[cfg(feature = "parquet")]
fn rows_as_json(path: &Path) -> Vec<Value> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(fs::File::open(path).unwrap()).unwrap();
    let batches: Vec<RecordBatch> = builder.build().unwrap().map(Result::unwrap).collect();
    let mut rows = Vec::new();
    for batch in &batches {
        let names: Vec<&str> = batch.schema_ref().fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names, ["headers", "uci", "san", "clk", "eval", "error"]);
        let headers = batch.column(0).as_struct();
        let [uci, san, clk, eval] = [1, 2, 3, 4].map(|i| batch.column(i).as_list::<i32>());
        let error = batch.column(5).as_string::<i32>();
        for row in 0..batch.num_rows() {
            let mut tags = Map::new();
            for (field, column) in headers.fields().iter().zip(headers.columns()) {
                let column = column.as_string::<i32>();
                if column.is_valid(row) {
                    tags.insert(field.name().clone(), json!(column.value(row)));
                }
            }
            let texts = |list: &arrow_array::ListArray| -> Value {
                list.value(row).as_string::<i32>().iter().map(|s| json!(s.expect("a move"))).collect()
            };
            let clocks: Value = clk.value(row).as_primitive::<Float64Type>().iter().map(|c| json!(c)).collect();
            let evals = eval.value(row);
            let evals = evals.as_struct();
            let (cp, mate) = (evals.column(0).as_primitive::<Int32Type>(), evals.column(1).as_primitive::<Int32Type>());
            let evals: Value = (0..evals.len())
                .map(|i| match (evals.is_valid(i), cp.is_valid(i), mate.is_valid(i)) {
                    (false, ..) => Value::Null,
                    (true, true, false) => json!({"cp": cp.value(i)}),
                    (true, false, true) => json!({"mate": mate.value(i)}),
                    other => panic!("an eval of cp or mate, not {other:?}"),
                })
                .collect();
            let error = if error.is_valid(row) { json!(error.value(row)) } else { Value::Null };
            rows.push(json!({
                "headers": tags, "uci": texts(uci), "san": texts(san), "clk": clocks, "eval": evals, "error": error
            }));
        }
    }
    rows
}

#[cfg(feature = "parquet")]
#[test]
fn parquet_export_holds_the_json_lines_columns() {
    let dir = dir("columns");
    let inputs = inputs(&dir);
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let (jsonl_ok, jsonl, jsonl_err) = run(&[&["pgn", "--export", "jsonl", "--threads", "1"], &inputs[..]].concat());
    let expected: Vec<Value> = jsonl.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert!(!jsonl_ok, "broken.pgn has a broken game");
    assert!(expected.iter().any(|game| game["error"].is_string()));
    assert!(expected.iter().any(|game| game["eval"].as_array().unwrap().iter().any(|e| e.get("mate").is_some())));
    assert!(expected.iter().any(|game| game["clk"].as_array().unwrap().iter().any(Value::is_f64)));
    for threads in ["1", "2"] {
        let out = dir.join(format!("games-{threads}.parquet"));
        let out_arg = out.to_str().unwrap();
        let args = [&["pgn", "--export", "parquet", "--threads", threads, "-o", out_arg], &inputs[..]].concat();
        let (ok, stdout, err) = run(&args);
        // The same summary and exit status; nothing on standard output.
        assert_eq!((ok, stdout.as_str(), err.as_str()), (false, "", jsonl_err.as_str()));
        assert_eq!(rows_as_json(&out), expected, "{threads} threads");
        let reader = ParquetRecordBatchReaderBuilder::try_new(fs::File::open(&out).unwrap()).unwrap();
        let metadata = reader.metadata();
        assert_eq!(metadata.file_metadata().num_rows() as usize, expected.len());
        for column in metadata.row_groups().iter().flat_map(|group| group.columns()) {
            assert!(matches!(column.compression(), Compression::ZSTD(_)), "{:?}", column.compression());
        }
        // Every tag of the files is a column, the Seven Tag Roster first.
        let headers = reader.schema().field(0).clone();
        let arrow_schema::DataType::Struct(tags) = headers.data_type() else { panic!("{headers:?}") };
        let tags: Vec<&str> = tags.iter().map(|f| f.name().as_str()).collect();
        assert_eq!(tags[..7], ["Event", "Site", "Date", "Round", "White", "Black", "Result"]);
        for game in &expected {
            assert!(game["headers"].as_object().unwrap().keys().all(|name| tags.contains(&name.as_str())));
        }
    }
    assert_eq!(listing(&dir), ["crlf.pgn.zst", "edge.pgn.gz", "games-1.parquet", "games-2.parquet"]);
}

#[test]
fn text_exports_write_the_file_of_output() {
    let dir = dir("text");
    let input = data("dev_generated.pgn");
    for format in ["jsonl", "csv"] {
        let (ok, stdout, _) = run(&["pgn", "--export", format, &input]);
        assert!(ok);
        let out = dir.join(format!("games.{format}"));
        let (ok, written, err) = run(&["pgn", "--export", format, "--output", out.to_str().unwrap(), &input]);
        assert!(ok, "{err}");
        assert_eq!((written.as_str(), fs::read_to_string(&out).unwrap()), ("", stdout));
    }
    // -o names where an export goes.
    let (ok, _, err) = run(&["pgn", "-o", dir.join("x").to_str().unwrap(), &input]);
    assert!(!ok && err.contains("--export"), "{err}");
}

/// Row groups end at 65536 games or 2^20 plies (the export's bounds on what it holds): many
/// empty games, then long games, each make more than one, and the rows are the JSON lines all
/// the same.
#[cfg(feature = "parquet")]
#[test]
fn row_groups_are_bounded_by_games_and_plies() {
    let dir = dir("groups");
    let empty = dir.join("empty.pgn");
    fs::write(&empty, (0..70_000).map(|i| format!("[Event \"{i}\"]\n\n*\n\n")).collect::<String>()).unwrap();
    // 1200 plies of knights going out and back, 1000 times: 1.2 million plies.
    let shuffle: String = (0..300).map(|i| format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2)).collect();
    let long = dir.join("long.pgn");
    fs::write(&long, (0..1000).map(|i| format!("[Event \"{i}\"]\n\n{shuffle}*\n\n")).collect::<String>()).unwrap();
    for input in [&empty, &long] {
        let input = input.to_str().unwrap();
        let out = dir.join("out.parquet");
        let (ok, _, err) = run(&["pgn", "--export", "parquet", "-o", out.to_str().unwrap(), input]);
        assert!(ok, "{err}");
        let (_, jsonl, _) = run(&["pgn", "--export", "jsonl", input]);
        let expected: Vec<Value> = jsonl.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
        assert_eq!(rows_as_json(&out), expected, "{input}");
        let reader = ParquetRecordBatchReaderBuilder::try_new(fs::File::open(&out).unwrap()).unwrap();
        let groups: Vec<usize> = reader.metadata().row_groups().iter().map(|g| g.num_rows() as usize).collect();
        assert!(groups.len() > 1, "{input}: {groups:?}");
        let mut first = 0;
        for (i, &rows) in groups.iter().enumerate() {
            let plies: Vec<usize> =
                expected[first..first + rows].iter().map(|game| game["uci"].as_array().unwrap().len()).collect();
            let total: usize = plies.iter().sum();
            assert!(rows <= 1 << 16 && total - plies[rows - 1] < 1 << 20, "{input}: group {i}: {rows} {total}");
            // Every group but the last is full.
            assert!(i == groups.len() - 1 || rows == 1 << 16 || total >= 1 << 20, "{input}: group {i}");
            first += rows;
        }
    }
}

#[cfg(feature = "parquet")]
#[test]
fn refused_and_failed_parquet_exports_leave_files_as_they_were() {
    let dir = dir("refused");
    let input = data("format.pgn");
    let out = dir.join("old.parquet");
    fs::write(&out, "the old file").unwrap();
    let out_arg = out.to_str().unwrap();
    let refusals: [(&[&str], &str); 3] = [
        (&["pgn", "--export", "parquet", &input], "-o FILE"),
        (&["pgn", "--export", "parquet", "-o", out_arg, "-"], "standard input"),
        (&["pgn", "--export", "parquet", "-o", out_arg, &input, out_arg], "the same file as the input"),
    ];
    for (args, message) in refusals {
        let (ok, stdout, err) = run(args);
        assert!(!ok && stdout.is_empty() && err.contains(message), "{args:?}: {err}");
        assert_eq!(fs::read_to_string(&out).unwrap(), "the old file");
    }
    // A directory that cannot be made: an error, and nothing written anywhere.
    let blocked = dir.join("old.parquet").join("new.parquet");
    let (ok, _, err) = run(&["pgn", "--export", "parquet", "-o", blocked.to_str().unwrap(), &input]);
    assert!(!ok && err.contains("cannot write"), "{err}");
    // A device that fails every write: the error names it.
    let (ok, _, err) = run(&["pgn", "--export", "parquet", "-o", "/dev/full", &data("dev_generated.pgn")]);
    assert!(!ok && err.contains("cannot write /dev/full"), "{err}");
    assert_eq!(listing(&dir), ["old.parquet"]);
    // Success replaces the old file.
    let (ok, _, err) = run(&["pgn", "--export", "parquet", "-o", out_arg, &input]);
    assert!(ok, "{err}");
    let (_, jsonl, _) = run(&["pgn", "--export", "jsonl", &input]);
    assert_eq!(rows_as_json(&out).len(), jsonl.lines().count());
    assert_eq!(listing(&dir), ["old.parquet"]);
}

#[cfg(not(feature = "parquet"))]
#[test]
fn parquet_export_is_refused_without_the_feature() {
    let dir = dir("without");
    let out = dir.join("games.parquet");
    let (ok, _, err) = run(&["pgn", "--export", "parquet", "-o", out.to_str().unwrap(), &data("format.pgn")]);
    assert!(!ok && err.contains("built without Parquet export"), "{err}");
    assert!(listing(&dir).is_empty());
}
