//! Differential test of the tablebase probes against python-chess 1.11.2 over random legal
//! positions of every shared table (`scripts/tablebase_positions.py`: both sides to move, en
//! passant positions, half-move clocks near 100): the Python binding is compared inside the
//! script, the C API here.

use chesscore_test_support as common;

use std::ffi::CString;
use std::path::Path;
use std::process::Command;

use chesscore::{
    chess_error, chess_fen_parse_into, chess_position, chess_tablebase, chess_tablebase_free, chess_tablebase_open,
    chess_tablebase_probe_dtz, chess_tablebase_probe_wdl, CHESS_OK,
};
use serde_json::Value;

#[test]
fn random_positions_match_python_chess_in_c_and_python() {
    let Some(shared) = common::shared_testdata("tablebase differential: the Syzygy tables") else { return };
    let Some(python) = common::python("tablebase differential: python-chess as the oracle") else { return };
    let library = std::env::current_exe().expect("test executable path").with_file_name("libchesscore.so");
    let tables = shared.join("syzygy");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tablebase-differential.jsonl");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(python)
        .arg(root.join("scripts/tablebase_positions.py"))
        .arg(&tables)
        .args(["17500", "2026"])
        .arg(&out)
        .env("PYTHONPATH", root.join("bindings/python"))
        .env("CHESSCORE_LIB", &library)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run the position generator");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    println!("python: {stdout}");

    let dirs = CString::new(tables.to_str().unwrap()).unwrap();
    let mut tb: *mut chess_tablebase = std::ptr::null_mut();
    // SAFETY: a NUL-terminated string and a valid out pointer.
    assert_eq!(unsafe { chess_tablebase_open(dirs.as_ptr(), &mut tb) }, CHESS_OK);
    let text = std::fs::read_to_string(&out).unwrap();
    let (mut compared, mut en_passant) = (0, 0);
    for line in text.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let fen = record["fen"].as_str().unwrap();
        let c_fen = CString::new(fen).unwrap();
        // SAFETY: plain data, written whole by the parser before use.
        let mut pos: chess_position = unsafe { std::mem::zeroed() };
        // SAFETY: a NUL-terminated string and a valid destination.
        assert_eq!(unsafe { chess_fen_parse_into(c_fen.as_ptr(), &mut pos) }, CHESS_OK, "{fen}");
        type Probe = unsafe extern "C" fn(*const chess_tablebase, *const chess_position, *mut i32) -> chess_error;
        for (probe, key) in [(chess_tablebase_probe_wdl as Probe, "wdl"), (chess_tablebase_probe_dtz as Probe, "dtz")] {
            let mut value = 0;
            // SAFETY: a live tablebase, a valid position and a valid out pointer.
            let code = unsafe { probe(tb, &pos, &mut value) };
            let got = (code == CHESS_OK).then_some(i64::from(value));
            assert_eq!(got, record[key].as_i64(), "{key} of {fen} (code {code})");
        }
        compared += 1;
        en_passant += usize::from(fen.split(' ').nth(3) != Some("-"));
    }
    // SAFETY: the handle is live and no longer used.
    unsafe { chess_tablebase_free(tb) };
    assert!(compared >= 20_000 && en_passant >= 500, "{compared} positions, {en_passant} en passant");
}
