//! EPD against python-chess: every line of `epd/*.epd` with its `.expected.jsonl` verdict,
//! position (clocks from `hmvc`/`fmvn`), operations and canonical output.

mod common;

use chesscore::{Epd, Operand};
use serde_json::{json, Value};

/// Our operations in python-chess's shapes: move lists as UCI, a lone number or string as
/// itself, no operand as null (an empty list for `bm`, `am`, `pv`).
fn ops_as_json(epd: &Epd) -> Value {
    let mut map = serde_json::Map::new();
    for op in epd.operations() {
        let value = match (op.opcode.as_str(), op.operands.as_slice()) {
            ("bm" | "am" | "pv", operands) => {
                Value::Array(operands.iter().map(|o| json!(o.as_move().unwrap().to_uci())).collect())
            }
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
            moves.sort_by_key(|&mv| epd.position().san(mv).unwrap().to_string());
            sorted.set(opcode, moves.into_iter().map(Operand::Move).collect()).unwrap();
        }
    }
    sorted.to_string()
}

#[test]
fn epd_files_agree_with_python_chess() {
    let dir = common::testdata().join("epd");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "epd"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    let (mut ok, mut errors, mut reordered) = (0, 0, 0);
    for path in files {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for expected in common::lines(&format!("epd/{name}.expected.jsonl")) {
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
    assert!(ok > 450 && errors > 20, "{ok} ok, {errors} errors");
    println!("{ok} lines read, {errors} rejected as python-chess does, {reordered} with bm/am kept in order");
}
