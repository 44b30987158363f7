//! EPD against python-chess: every line of `epd/*.epd` with its `.expected.jsonl` verdict,
//! position (clocks from `hmvc`/`fmvn`), operations and canonical output.

use chesscore_test_support as common;

use std::path::Path;

use chesscore_core::{Epd, Operand, San, Uci};
use serde_json::{json, Value};

/// Our operations in python-chess's shapes: move lists as UCI, a lone number or string as
/// itself, no operand as null (an empty list for `bm`, `am`, `pv`).
fn ops_as_json(epd: &Epd) -> Value {
    let mut map = serde_json::Map::new();
    for op in epd.operations() {
        let value = match (op.opcode.as_str(), op.operands.as_slice()) {
            ("bm" | "am" | "pv", operands) => Value::Array(
                operands
                    .iter()
                    .map(|o| json!(Uci::from_move(epd.position(), o.as_move().unwrap()).to_string()))
                    .collect(),
            ),
            (_, []) => Value::Null,
            (_, [Operand::Integer(n)]) => json!(n),
            (_, [Operand::Float(x)]) => json!(x),
            (_, [Operand::String(s) | Operand::Word(s)]) => json!(s),
            (opcode, operands) => panic!("{opcode}: {operands:?} has no python-chess counterpart"),
        };
        map.insert(op.opcode.clone(), value);
    }
    Value::Object(map)
}

/// The canonical text with `bm`/`am` moves sorted by SAN, as python-chess writes them.
fn python_canonical(epd: &Epd) -> String {
    let mut sorted = epd.clone();
    for opcode in ["bm", "am"] {
        if let Some(op) = epd.get(opcode) {
            let mut moves: Vec<_> = op.moves().collect();
            moves.sort_by_key(|&mv| San::from_move(epd.position(), mv).unwrap().to_string());
            sorted.set(opcode, moves.into_iter().map(Operand::Move).collect()).unwrap();
        }
    }
    sorted.to_string()
}

/// Every line of the `.epd` files of `dir` against python-chess's verdict beside it: (lines
/// read, lines rejected).
fn check_dir(dir: &Path, names: &[&str]) -> (usize, usize) {
    let (mut ok, mut errors, mut reordered) = (0, 0, 0);
    for name in names {
        let text = std::fs::read_to_string(dir.join(format!("{name}.epd"))).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for expected in common::lines_of(&dir.join(format!("{name}.expected.jsonl"))) {
            let v: Value = serde_json::from_str(&expected).unwrap();
            let number = v["line"].as_u64().unwrap() as usize;
            let line = lines[number - 1];
            assert_eq!(line, v["epd"].as_str().unwrap(), "{name}:{number}");
            let ctx = format!("{name}:{number}: {line}");
            let parsed = Epd::parse(line);
            if v["expected"] == "error" {
                assert!(parsed.is_err(), "{ctx}: accepted, python-chess says {}", v["message"]);
                errors += 1;
                continue;
            }
            let epd = parsed.unwrap_or_else(|e| panic!("{ctx}: {e}"));
            assert_eq!(epd.position().to_fen(), v["fen"].as_str().unwrap(), "{ctx}");
            assert_eq!(ops_as_json(&epd), v["ops"], "{ctx}");
            let canonical = epd.to_string();
            let theirs = v["epd_canonical"].as_str().unwrap();
            if canonical != theirs {
                // The only difference allowed: python-chess sorts bm/am, this writer keeps order.
                assert_eq!(python_canonical(&epd), theirs, "{ctx}");
                reordered += 1;
            }
            assert_eq!(Epd::parse(&canonical).as_ref(), Ok(&epd), "{ctx}: canonical does not read back");
            ok += 1;
        }
    }
    println!("{ok} lines read, {errors} rejected as python-chess does, {reordered} with bm/am kept in order");
    (ok, errors)
}

#[test]
fn generated_epd_files_agree_with_python_chess() {
    let (ok, errors) = check_dir(&common::data("epd"), &["dev_edge_cases", "dev_generated"]);
    assert_eq!((ok, errors), (157, 1));
}

/// The published suites (Win at Chess, Bratko-Kopec, CCR), from the third-party test files.
#[test]
fn published_epd_suites_agree_with_python_chess() {
    let Some(shared) = common::shared_testdata("epd: published suites") else { return };
    let (ok, errors) = check_dir(&shared.join("epd"), &["bratko_kopec", "ccr_one_hour", "win_at_chess"]);
    // python-chess refuses every CCR line (the file's own syntax), and so do we.
    assert_eq!((ok, errors), (24 + 300, 25));
}
