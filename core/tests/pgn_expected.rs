//! Differential test against python-chess: every game of every `pgn/*.pgn` file is read as its
//! `.expected.jsonl` records python-chess reading it (one entry per game, in file order).
//!
//! Documented differences, accounted for here:
//! - python-chess fills the Seven Tag Roster with defaults (`?`, `????.??.??`, the result);
//!   we keep tags as read, so a tag we lack must hold its default there;
//! - python-chess keeps tag values raw; we unescape `\"` and `\\`;
//! - python-chess drops `;` comments; we keep them (they are listed in `LINE_COMMENTS`);
//! - python-chess joins the comments of a move with a space; we keep them apart.

use chesscore_test_support as common;

use std::path::Path;

use chesscore_core::pgn::{roster_default, PgnError, PgnErrorKind, PgnReader, WriteOptions};
use chesscore_core::{Color, Game, Move, Position, SanError, Uci, UciCastling};
use serde_json::Value;

/// `;` comments python-chess does not keep: (file, game index, ply, text).
const LINE_COMMENTS: &[(&str, u64, i64, &str)] = &[("dev_edge_cases", 3, 4, "to end of line")];

fn unescape(raw: &str) -> String {
    raw.replace("\\\\", "\u{0}").replace("\\\"", "\"").replace('\u{0}', "\\")
}

fn uci(pos_chess960: bool, mv: Move) -> String {
    let castling = if pos_chess960 { UciCastling::KingTakesRook } else { UciCastling::KingTwoSquares };
    Uci::from_move_with(mv, castling).to_string()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// The comments of the main line as python-chess lists them: [ply, text], ply 0 before the
/// first move, -ply before a move (a variation's starting comment).
fn our_comments(record: &Game, file: &str, index: u64) -> Vec<(i64, String)> {
    let tree = record.tree();
    let mut out = Vec::new();
    let mut push = |ply: i64, texts: Vec<&str>| {
        let texts: Vec<&str> = texts.into_iter().filter(|t| !LINE_COMMENTS.contains(&(file, index, ply, *t))).collect();
        if !texts.is_empty() {
            out.push((ply, texts.join(" ")));
        }
    };
    push(0, tree.comments(tree.root()).collect());
    for (i, node) in tree.mainline().enumerate() {
        let ply = i as i64 + 1;
        push(-ply, tree.comments_before(node).collect());
        push(ply, tree.comments(node).collect());
    }
    out
}

fn our_nags(record: &Game) -> Vec<(i64, Vec<u8>)> {
    let tree = record.tree();
    let mut out = Vec::new();
    for (i, node) in std::iter::once(tree.root()).chain(tree.mainline()).enumerate() {
        let mut nags: Vec<u8> = tree.nags(node).collect();
        nags.sort();
        nags.dedup();
        if !nags.is_empty() {
            out.push((i as i64, nags));
        }
    }
    out
}

fn check_tags(record: &Game, expected: &Value, ctx: &str) {
    let expected: Vec<(String, String)> = expected
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| (pair[0].as_str().unwrap().to_string(), unescape(pair[1].as_str().unwrap())))
        .collect();
    for (name, value) in &expected {
        match record.tag(name) {
            Some(ours) => assert_eq!(ours, value, "tag {name} {ctx}"),
            None if name == "Result" => assert_eq!(record.effective_result().as_pgn(), value, "{ctx}"),
            None => assert_eq!(roster_default(name), Some(value.as_str()), "missing tag {name} {ctx}"),
        }
    }
    for (name, _) in record.tags().iter() {
        assert!(expected.iter().any(|(n, _)| n == name), "extra tag {name} {ctx}");
    }
    let others = |names: Vec<&str>| -> Vec<String> {
        names.into_iter().filter(|n| roster_default(n).is_none()).map(str::to_string).collect()
    };
    assert_eq!(
        others(record.tags().iter().map(|(n, _)| n).collect()),
        others(expected.iter().map(|(n, _)| n.as_str()).collect()),
        "tag order {ctx}"
    );
}

/// The mainline of `record` as UCI and SAN.
fn mainline(record: &Game) -> (Vec<String>, Vec<String>) {
    let chess960 = record.start().is_chess960();
    let game = &record;
    (game.moves().map(|m| uci(chess960, m)).collect(), game.san_moves().map(|s| s.to_string()).collect())
}

fn check_game(record: &Game, v: &Value, file: &str, index: u64, ctx: &str) {
    check_tags(record, &v["headers"], ctx);
    assert_eq!(record.start().to_fen(), v["start_fen"].as_str().unwrap(), "start {ctx}");
    assert_eq!(record.start().is_chess960(), v["chess960"].as_bool().unwrap(), "chess960 {ctx}");
    let (ucis, sans) = mainline(record);
    assert_eq!(ucis, strings(&v["mainline_uci"]), "uci {ctx}");
    assert_eq!(sans, strings(&v["mainline_san"]), "san {ctx}");
    assert_eq!(record.position().to_fen(), v["final_fen"].as_str().unwrap(), "final {ctx}");
    assert_eq!(record.tree().move_count() as u64, v["n_nodes"].as_u64().unwrap(), "nodes {ctx}");
    let comments: Vec<(i64, String)> = v["comments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_i64().unwrap(), c[1].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(our_comments(record, file, index), comments, "comments {ctx}");
    let nags: Vec<(i64, Vec<u8>)> = v["nags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_i64().unwrap(), n[1].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u8).collect()))
        .collect();
    assert_eq!(our_nags(record), nags, "nags {ctx}");
    // The movetext we write on one line is python-chess's export, except for `;` comments.
    if !LINE_COMMENTS.iter().any(|&(f, i, ..)| f == file && i == index) {
        let mut ours = String::new();
        record.write_pgn(&mut ours, &WriteOptions { line_width: 0, ..WriteOptions::default() }).unwrap();
        // python-chess writes the comments of one move as one.
        let ours = ours.split_once("\n\n").unwrap().1.trim_end().replace(" } { ", " ");
        let theirs = v["export"].as_str().unwrap().split_once("\n\n").unwrap().1;
        assert_eq!(ours, theirs, "export {ctx}");
    }
}

/// python-chess stopped its main line at the bad move: so must our partial game.
fn check_broken(error: &PgnError, v: &Value, ctx: &str) {
    let message = v["errors"][0].as_str().unwrap();
    let partial = error.partial.as_deref().expect("partial game");
    let (ucis, sans) = mainline(partial);
    assert_eq!(ucis, strings(&v["mainline_uci"]), "partial uci {ctx}");
    assert_eq!(sans, strings(&v["mainline_san"]), "partial san {ctx}");
    assert_eq!(partial.position().to_fen(), v["final_fen"].as_str().unwrap(), "partial final {ctx}");
    assert_eq!(error.ply as usize, ucis.len() + 1, "{ctx}");
    let kind = match &error.kind {
        PgnErrorKind::Move(SanError::Illegal) => "illegal san",
        PgnErrorKind::Move(SanError::Ambiguous) => "ambiguous san",
        PgnErrorKind::Move(_) => "invalid san",
        other => panic!("unexpected error {other} {ctx}"),
    };
    assert!(message.starts_with(&format!("{kind}: '{}'", error.text)), "{message} vs {error} {ctx}");
    let fen = message.rsplit_once(" in ").unwrap().1;
    assert_eq!(partial.position().to_fen(), fen, "{ctx}");
}

/// Every game of the files `stems` of `dir` against python-chess's reading beside them; returns
/// the number of games.
fn check_files(dir: &Path, stems: &[&str]) -> usize {
    let mut total = 0;
    for stem in stems {
        let expected: Vec<Value> = common::lines_of(&dir.join(format!("{stem}.expected.jsonl")))
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let results: Vec<_> = PgnReader::open(dir.join(format!("{stem}.pgn"))).unwrap().collect();
        assert_eq!(results.len(), expected.len(), "{stem}: games");
        for (i, (result, v)) in results.iter().zip(&expected).enumerate() {
            assert_eq!(v["index"].as_u64().unwrap(), i as u64);
            let ctx = format!("in {stem} game {i}");
            let broken = !v["errors"].as_array().unwrap().is_empty();
            match result {
                Ok(record) => {
                    assert!(!broken, "python-chess found {} {ctx}", v["errors"]);
                    check_game(record, v, stem, i as u64, &ctx);
                }
                Err(e) => {
                    assert!(broken, "{e} {ctx}");
                    assert_eq!(e.game, i as u64 + 1, "{ctx}");
                    check_broken(e, v, &ctx);
                }
            }
            total += 1;
        }
    }
    total
}

#[test]
fn generated_pgn_files_read_as_python_chess_reads_them() {
    let total = check_files(&common::data("pgn"), &["dev_edge_cases", "dev_generated"]);
    assert_eq!(total, 7 + 60);
}

/// The lichess and TWIC excerpts of the third-party test files.
#[test]
fn real_world_pgn_files_read_as_python_chess_reads_them() {
    let Some(shared) = common::shared_testdata("pgn: lichess and TWIC excerpts") else { return };
    let total = check_files(&shared.join("pgn"), &["lichess_db_100k", "twic1599_100k"]);
    assert_eq!(total, 47 + 110);
}

#[test]
fn broken_game_location() {
    let path = common::data("pgn/dev_edge_cases.pgn");
    let error = PgnReader::open(path).unwrap().find_map(Result::err).unwrap();
    assert_eq!((error.game, error.location.line, error.location.column, error.ply), (6, 30, 13, 3));
    assert_eq!(error.text, "e5");
    assert_eq!(error.to_string(), "game 6, line 30, column 13: illegal move \"e5\" at ply 3");
    let partial = error.partial.unwrap();
    assert_eq!(partial.tag("Event"), Some("Illegal move"));
    assert_eq!(partial.position().turn(), Color::White);
    assert_ne!(partial.position(), &Position::startpos());
}
