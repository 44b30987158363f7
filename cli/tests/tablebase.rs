//! `chesscore tb probe` and `chesscore tb best` against python-chess's values of the dev
//! positions (`../shared/testdata/syzygy`).

use chesscore_test_support as common;

use std::process::Command;

use serde_json::Value;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chesscore")).args(args).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn probe_and_best_print_python_chess_values() {
    let Some(shared) = common::shared_testdata("cli tb: the Syzygy dev positions") else { return };
    let dir = shared.join("syzygy");
    let dirs = format!("{}:{}", dir.display(), std::env::temp_dir().display());
    let text = std::fs::read_to_string(dir.join("dev_positions.jsonl")).unwrap();
    let mut checked = 0;
    for line in text.lines().step_by(40) {
        let record: Value = serde_json::from_str(line).unwrap();
        let fen = record["fen"].as_str().unwrap();
        let (ok, stdout, stderr) = run(&["tb", "probe", "--tb", &dirs, fen]);
        if record["wdl"].is_null() || record["dtz"].is_null() {
            assert!(!ok && !stderr.is_empty(), "{fen}");
            continue;
        }
        assert!(ok, "{fen}: {stderr}");
        assert_eq!(stdout, format!("wdl {} dtz {}\n", record["wdl"], record["dtz"]), "{fen}");

        let moves = record["moves"].as_array().unwrap();
        if moves.iter().any(|m| m[1].is_null() || m[2].is_null()) {
            continue;
        }
        let (ok, stdout, stderr) = run(&["tb", "best", "--tb", &dirs, fen]);
        assert!(ok, "{fen}: {stderr}");
        let mut printed: Vec<&str> = stdout.lines().collect();
        assert_eq!(printed.len(), moves.len(), "{fen}");
        // Best first: no move printed after one with a lower WDL has a higher one, at a zero
        // half-move clock.
        let wdls: Vec<i64> = printed.iter().map(|l| l.split(' ').nth(2).unwrap().parse().unwrap()).collect();
        if fen.ends_with(" 0 1") || fen.split(' ').nth(4) == Some("0") {
            assert!(wdls.windows(2).all(|w| w[0] >= w[1]), "{fen}: {stdout}");
        }
        let mut expected: Vec<String> = moves
            .iter()
            .map(|m| {
                format!("{} wdl {} dtz {}", m[0].as_str().unwrap(), -m[1].as_i64().unwrap(), -m[2].as_i64().unwrap())
            })
            .collect();
        printed.sort_unstable();
        expected.sort_unstable();
        assert_eq!(printed, expected, "{fen}");
        checked += 1;
    }
    assert!(checked > 30, "{checked}");
}

#[test]
fn errors_name_what_is_wrong() {
    let (ok, _, stderr) = run(&["tb", "probe", "--tb", "/no/such/tables", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"]);
    assert!(!ok && stderr.contains("/no/such/tables"), "{stderr}");
    let empty = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tb-no-tables");
    std::fs::create_dir_all(&empty).unwrap();
    let (ok, _, stderr) = run(&["tb", "probe", "--tb", empty.to_str().unwrap(), "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"]);
    assert!(!ok && stderr.contains("missing table KQvK.rtbw"), "{stderr}");
    let (ok, _, stderr) = run(&["tb", "best", "--tb", empty.to_str().unwrap(), "startpos"]);
    assert!(!ok && stderr.contains("castling"), "{stderr}");
    let (ok, stdout, _) = run(&["tb", "probe", "--tb", empty.to_str().unwrap(), "8/8/8/4k3/8/8/8/4K3 w - - 0 1"]);
    assert!(ok && stdout == "wdl 0 dtz 0\n");
    // A damaged table: the message names the file and what is wrong.
    let damaged = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tb-damaged");
    std::fs::create_dir_all(&damaged).unwrap();
    let table = damaged.join("KQvK.rtbw");
    std::fs::write(&table, b"not a table").unwrap();
    for command in ["probe", "best"] {
        let (ok, _, stderr) =
            run(&["tb", command, "--tb", damaged.to_str().unwrap(), "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"]);
        assert!(!ok && stderr.contains(&format!("corrupt table {}: ", table.display())), "{stderr}");
    }
}

#[test]
fn match_ends_a_game_the_tables_hold() {
    let Some(shared) = common::shared_testdata("cli tb: match --tb") else { return };
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let openings = dir.join("kqk.epd");
    std::fs::write(&openings, "8/8/8/8/8/8/4KQ2/k7 w - -\n").unwrap();
    let engine = common::fake_engine().to_str().unwrap();
    let tb = shared.join("syzygy");
    let pgn = dir.join("kqk.pgn");
    let (ok, out, err) = run(&[
        "match",
        "--engine",
        engine,
        "--engine",
        engine,
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--tb",
        tb.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "game 1: Fake Engine 1.0 - Fake Engine 1.0 1-0 (tablebase)", "{out}");
    assert_eq!(lines[1], "game 2: Fake Engine 1.0 - Fake Engine 1.0 1-0 (tablebase)", "{out}");
    assert!(lines[2].ends_with(": 1-0-1"), "{out}");
    let written = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(written.matches("[Termination \"tablebase\"]").count(), 2, "{written}");
    let (ok, _, err) = run(&["match", "--engine", engine, "--engine", engine, "--tb", "/nonexistent/tables"]);
    assert!(!ok && err.contains("/nonexistent/tables"), "{err}");
}
