//! The `san`, `play` and `epd` commands: output, and a clear error with a non-zero exit status
//! on bad input.

use chesscore_test_support as common;

use std::process::Command;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chesscore")).args(args).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// Like `run`, with `input` on standard input.
fn run_with_input(args: &[&str], input: &[u8]) -> (bool, String, String) {
    use std::io::Write;
    use std::process::Stdio;

    let mut child = Command::new(env!("CARGO_BIN_EXE_chesscore"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Small enough for the pipe: written whole before the output is read.
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// The summary (which skips variations), the jsonl export (which reads records) and the
/// threaded summary agree: a bad move in a variation cuts the variation with a warning, the
/// game is good; a blank line inside a tag section does not split a game; a missing Result tag
/// is the termination marker's.
#[test]
fn pgn_summary_and_export_agree_on_real_world_files() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("real_world.pgn");
    std::fs::write(
        &file,
        "[Event \"ChessBase\"]\n\n[Site \"Hamburg\"]\n\n1. d4 (1. e4 e5 2. Qxh7) d5 0-1\n\n[Event \"Bad\"]\n\n1. e4 Qxh7 *\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let summary = format!("{path}: 2 games, 1 broken, 2 plies; results 1-0 0, 0-1 1, 1/2-1/2 0, * 0, none 0\n");
    for threads in ["1", "2"] {
        let (ok, out, err) = run(&["pgn", path, "--threads", threads]);
        assert!(!ok && out == summary && err.contains("game 2: illegal move"), "{out}{err}");
    }
    let (ok, out, err) = run(&["pgn", "--export", "jsonl", path]);
    assert!(
        !ok && err.contains("game 1: warning: a move in a variation cannot be played")
            && err.ends_with("1 broken game\n"),
        "{err}"
    );
    assert!(err.contains(&summary), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0]
        .starts_with(r#"{"headers":{"Event":"ChessBase","Site":"Hamburg","Result":"0-1"},"uci":["d2d4","d7d5"]"#));
    assert!(lines[0].ends_with(r#""error":null}"#), "{out}");
    assert!(lines[1].contains(r#""error":"game 2"#), "{out}");
}

#[test]
fn san_writes_each_move() {
    let (ok, out, _) = run(&["san", START, "e2e4", "e5", "g1f3", "Nc6", "Bb5", "a6", "e1g1"]);
    assert!(ok);
    assert_eq!(out, "e4\ne5\nNf3\nNc6\nBb5\na6\nO-O\n");
    let (ok, out, err) = run(&["san", START, "e4", "e5", "Ke3"]);
    assert!(!ok);
    assert_eq!(out, "e4\ne5\n");
    assert_eq!(err, "chesscore: move 3 `Ke3`: illegal move\n");
    let (ok, _, err) = run(&["san", "--strict", START, "Ngf3"]);
    assert!(!ok);
    assert!(err.contains("expected Nf3"), "{err}");
    let (ok, _, err) = run(&["san", START, "Z0"]);
    assert!(!ok);
    assert!(err.contains("--allow-null"), "{err}");
}

#[test]
fn no_move_after_the_end_of_the_game() {
    let (ok, out, err) = run(&["san", "startpos", "f3", "e5", "g4", "Qh4#", "a3"]);
    assert!(!ok);
    assert_eq!(out, "f3\ne5\ng4\nQh4#\n");
    assert_eq!(err, "chesscore: move 5 `a3`: game is over (checkmate)\n");
    let (ok, _, err) = run(&["play", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Kg8"]);
    assert!(!ok);
    assert_eq!(err, "chesscore: move 1 `Kg8`: game is over (stalemate)\n");
    let (ok, _, err) = run(&["play", "8/8/8/8/8/8/8/K6k w - - 0 1", "Kb2"]);
    assert!(!ok);
    assert_eq!(err, "chesscore: move 1 `Kb2`: game is over (insufficient material)\n");
}

#[test]
fn play_prints_fen_and_outcome() {
    let (ok, out, _) = run(&["play", START, "f3", "e5", "g4", "Qh4#"]);
    assert!(ok);
    assert_eq!(out, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n0-1 checkmate\n");
    let (ok, out, _) = run(&["play", START, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
    assert!(ok);
    assert!(out.ends_with("* ongoing, draw claimable by threefold repetition\n"), "{out}");
    let (ok, out, _) = run(&["play", "--allow-null", START, "e4", "Z0"]);
    assert!(ok);
    assert!(out.starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2\n"), "{out}");
    let (ok, _, err) = run(&["play", "--allow-null", START, "e4", "--", "e5"]);
    assert!(!ok);
    assert!(err.contains("write a null move as Z0 or 0000"), "{err}");
    let (ok, _, err) = run(&["play", "not a fen", "e4"]);
    assert!(!ok);
    assert!(err.starts_with("chesscore: invalid FEN"), "{err}");
}

#[test]
fn epd_lists_operations_and_reports_errors() {
    let dir = std::env::temp_dir().join(format!("chesscore-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.epd");
    std::fs::write(
        &file,
        format!("{} bm e4; id \"x\";\n\n{} bm Nf6;\n", &START[..START.len() - 4], &START[..START.len() - 4]),
    )
    .unwrap();
    let (ok, out, err) = run(&["epd", file.to_str().unwrap()]);
    assert!(!ok);
    assert_eq!(out, "line 1: ok rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n  bm e4;\n  id \"x\";\n");
    assert!(err.contains("line 3: error: operand 1 `Nf6` of operation `bm`: illegal move"), "{err}");
    assert!(err.contains("1 of 2 EPD lines invalid"), "{err}");
    let (ok, _, err) = run(&["epd", dir.join("missing.epd").to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("cannot read") && err.ends_with(": No such file or directory\n"), "{err}");
    // No line to check is an error too.
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "").unwrap();
    let (ok, out, err) = run(&["epd", empty.to_str().unwrap()]);
    assert!(!ok && out.is_empty());
    assert_eq!(err, format!("chesscore: no EPD lines in {}\n", empty.display()));
    let (ok, _, err) = run_with_input(&["epd", "-"], b"\n \n");
    assert!(!ok);
    assert_eq!(err, "chesscore: no EPD lines in standard input\n");
    // Read a line at a time: a device without line ends stops with an error (it once read the
    // whole input first, and `/dev/zero` never returned).
    if std::path::Path::new("/dev/zero").exists() {
        let (ok, _, err) = run(&["epd", "/dev/zero"]);
        assert!(!ok);
        assert_eq!(err, "chesscore: line 1 of /dev/zero is longer than 64 MiB: not read further\n");
    }
    let (ok, _, err) = run_with_input(&["epd", "-"], b"\xff\n");
    assert!(!ok && err.starts_with("line 1: error: not UTF-8 text\n"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn perft_defaults_and_last_line_is_the_count() {
    let (ok, out, _) = run(&["perft", "3"]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("8902"));
    let (ok, out, _) =
        run(&["perft", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "2", "--divide"]);
    assert!(ok);
    assert!(out.contains("e1g1: "), "{out}");
    assert_eq!(out.lines().last(), Some("2039"));
    let (ok, _, err) = run(&["perft", "not a fen", "2"]);
    assert!(!ok);
    assert!(err.contains("invalid FEN"), "{err}");
}

#[test]
fn fen_moves_and_validate() {
    let (ok, out, _) = run(&["fen", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b QKqk e3"]);
    assert!(ok);
    assert_eq!(out.trim(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let (ok, out, _) = run(&["moves", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]);
    assert!(ok);
    assert_eq!(out.lines().count(), 15);
    assert!(out.lines().any(|l| l == "e1g1"));
    let (ok, out, _) = run(&["validate", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(ok && out.contains("valid"));
    let (ok, _, err) = run(&["validate", "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1"]);
    assert!(!ok);
    assert!(err.contains("at byte 22 (castling rights): "), "{err}");
    let (ok, out, _) = run(&["board", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(ok && out.starts_with("8 . . . . k . . .\n"), "{out}");
}

#[test]
fn fen_binary_prints_hex() {
    let (ok, out, _) = run(&["fen", "--binary", "startpos"]);
    assert!(ok);
    assert_eq!(out, "ffff00000000ffff2d844ad200000000111111113e955be3\n");
    let (ok, out, _) = run(&["fen", "--binary", "4k3/8/8/8/8/8/8/4K3 b - - 3 10"]);
    assert!(ok);
    assert_eq!(out.trim(), "1000000000000010fa0313");
    let (ok, _, err) = run(&["fen", "--binary", "--shredder", "startpos"]);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
}

/// Every command that reads a FEN, with `FEN` where it goes.
const FEN_COMMANDS: [&[&str]; 11] = [
    &["perft", "FEN", "2"],
    &["perft", "--divide", "FEN", "1"],
    &["fen", "FEN"],
    &["fen", "--binary", "FEN"],
    &["fen", "--chess960", "--shredder", "FEN"],
    &["board", "FEN"],
    &["unicode", "FEN"],
    &["moves", "FEN"],
    &["validate", "FEN"],
    &["san", "FEN", "e4", "e5"],
    &["play", "FEN", "e4", "e5"],
];

fn with_fen<'a>(command: &[&'a str], fen: &'a str) -> Vec<&'a str> {
    command.iter().map(|&a| if a == "FEN" { fen } else { a }).collect()
}

/// The output without perft's timing line.
fn untimed(out: &str) -> String {
    out.lines().filter(|l| !l.starts_with("depth ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn startpos_and_standard_input_stand_for_a_fen() {
    for command in FEN_COMMANDS {
        let (ok, expected, err) = run(&with_fen(command, START));
        assert!(ok, "{command:?}: {err}");
        let (ok, out, err) = run(&with_fen(command, "startpos"));
        assert!(ok, "{command:?}: {err}");
        assert_eq!(untimed(&out), untimed(&expected), "{command:?}");
        // The first non-empty line of standard input, which may say startpos too.
        let input = format!("\n  \r\n{START}\r\nnot read\n");
        for input in [input.as_str(), "startpos"] {
            let (ok, out, err) = run_with_input(&with_fen(command, "-"), input.as_bytes());
            assert!(ok, "{command:?}: {err}");
            assert_eq!(untimed(&out), untimed(&expected), "{command:?}");
        }
    }
    let (ok, out, _) = run(&["perft", "2"]);
    assert!(ok && out.ends_with("\n400\n"), "{out}");
    let (ok, _, err) = run_with_input(&["moves", "-"], b"\n\n");
    assert!(!ok);
    assert_eq!(err, "chesscore: no FEN on standard input\n");
    let (ok, _, err) = run_with_input(&["board", "-"], b"4k3/8/8/8/8/8/8/4K3 x\n");
    assert!(!ok);
    assert!(err.contains("\n  4k3/8/8/8/8/8/8/4K3 x\n"), "{err}");
}

/// The FEN line and the caret line of an invalid FEN's error message, checked to be aligned:
/// the caret stands under a character of the FEN shown, which is returned.
fn caret_target(err: &str) -> char {
    let lines: Vec<&str> = err.lines().collect();
    let (shown, caret) = (lines[1].strip_prefix("  ").unwrap(), lines[2].strip_prefix("  ").unwrap());
    let column = caret.len() - 1;
    assert_eq!(caret.trim_start(), "^", "{err}");
    assert!(shown.is_ascii() && column < shown.len(), "{err}");
    shown.as_bytes()[column] as char
}

#[test]
fn fen_errors_name_the_field_and_point_into_the_input() {
    let (_, _, err) = run(&["validate", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"]);
    assert!(err.starts_with("chesscore: invalid FEN at byte 20 (side to move): "), "{err}");
    assert_eq!(caret_target(&err), 'x');
    // An error at the end of the input points at its last character.
    let (_, _, err) = run(&["validate", "4k3/8/8/8/8/8/8/4K3 w"]);
    assert!(err.starts_with("chesscore: invalid FEN at byte 21 (whole input): "), "{err}");
    assert_eq!(caret_target(&err), 'w');
    // Control and non-ASCII characters are escaped, the caret under the escape.
    let (_, _, err) = run(&["validate", "4k3/8/8/8/8/8/8/4K3 w - -\nfoo"]);
    assert!(err.contains("\n  4k3/8/8/8/8/8/8/4K3 w - -\\x0Afoo\n"), "{err}");
    assert_eq!(caret_target(&err), '\\');
    let (_, _, err) = run(&["validate", "4k3/8/8/8/8/8/8/4K3 w é - 0 1"]);
    assert!(err.contains("w \\xC3\\xA9 - 0 1\n"), "{err}");
    assert_eq!(caret_target(&err), '\\');
    // A long input is shortened around the error, escapes before it kept in line.
    let long = format!("{}\u{1}é{}", "8/".repeat(120), "8/".repeat(20));
    let (_, _, err) = run(&["validate", &long]);
    assert!(err.contains("at byte 256 (whole input): FEN too long"), "{err}");
    assert!(err.lines().nth(1).unwrap().starts_with("  .../8/"), "{err}");
    assert!(err.contains("/\\x01\\xC3\\xA98/"), "{err}");
    assert_eq!(caret_target(&err), long.as_bytes()[256] as char);
    let (_, _, err) = run(&["validate", ""]);
    assert_eq!(err, "chesscore: invalid FEN at byte 0 (whole input): empty FEN\n  \n  ^\n");
}

#[test]
fn chess960_flag() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let (ok, out, _) = run(&["perft", "--chess960", fen, "3"]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("12189"));
    let (ok, out, _) = run(&["moves", "--chess960", "4k3/8/8/8/8/8/8/4KR2 w F - 0 1"]);
    assert!(ok && out.lines().any(|l| l == "e1f1"), "{out}");
    let (ok, out, _) = run(&["fen", "--chess960", fen]);
    assert!(ok);
    // X-FEN: both rooks are the outermost on their side, so K and Q.
    assert_eq!(out.trim(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    let (ok, out, _) = run(&["fen", "--chess960", "--shredder", fen]);
    assert!(ok && out.trim() == fen, "{out}");
    let (ok, out, _) = run(&["san", "--chess960", "4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1f1"]);
    assert!(ok && out.trim() == "O-O", "{out}");
    // Without the flag the inner-rook right is not standard chess.
    let (ok, _, _) = run(&["fen", fen]);
    assert!(!ok);
}

#[test]
fn pgn_summarises_reexports_and_reports_broken_games() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/pgn");
    let format = format!("{data}/format.pgn");
    let (ok, out, err) = run(&["pgn", &format]);
    assert!(ok, "{err}");
    assert_eq!(out, format!("{format}: 15 games, 0 broken, 69 plies; results 1-0 1, 0-1 0, 1/2-1/2 2, * 10, none 2\n"));

    let broken = format!("{data}/broken.pgn");
    let (ok, out, err) = run(&["pgn", "--fen", &broken]);
    assert!(!ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 24);
    assert_eq!(lines[0], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    assert_eq!(lines[1], "# game 2: unterminated comment at ply 2");
    assert!(err.contains(&format!("{broken}:40:47: game 10: illegal move \"Bxe5\" at ply 9\n")), "{err}");
    // The crazyhouse game (game 22) is replayed by its variant's rules; `--out` below keeps it.
    assert_eq!(lines[21], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1");
    assert!(err.contains(&format!("{broken}: 24 games, 12 broken, 23 plies;")), "{err}");
    assert!(err.ends_with("chesscore: 12 broken games\n"), "{err}");
    // Text that is not UTF-8 is read as Windows-1252, and said.
    let warning = "warning: text that is not UTF-8 read as Windows-1252\n";
    assert!(err.contains(&format!("{broken}:55:1: game 14: {warning}{broken}:57:1: game 15: {warning}")), "{err}");

    // The clean re-export reads back to the same games.
    let dir = std::env::temp_dir().join(format!("chesscore-cli-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let clean = dir.join("clean.pgn");
    let (ok, _, _) = run(&["pgn", "--out", clean.to_str().unwrap(), &broken]);
    assert!(!ok);
    let (ok, out, err) = run(&["pgn", "--fen", clean.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 12);
    assert!(out.lines().any(|fen| fen == lines[21]), "{out}");
    assert!(err.contains(": 12 games, 0 broken, 23 plies;"), "{err}");
    let (ok, _, err) = run(&["pgn", dir.join("missing.pgn").to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("cannot read") && err.contains("1 file could not be read"), "{err}");

    // Any number of threads: the same output, games in file order.
    let many = dir.join("many.pgn");
    std::fs::write(&many, std::fs::read(&broken).unwrap().repeat(300)).unwrap();
    let many = many.to_str().unwrap();
    let one = run(&["pgn", "--fen", "--threads", "1", many]);
    assert!(!one.0 && one.1.lines().count() == 24 * 300, "{}", one.2);
    for threads in ["2", "3"] {
        assert_eq!(run(&["pgn", "--fen", "--threads", threads, many]), one, "{threads} threads");
    }
    let (ok, _, err) = run(&["pgn", "--threads", "0", many]);
    assert!(!ok && err.contains("--threads"), "{err}");

    // Compressed files are recognised by their first bytes, whatever their names.
    let text = std::fs::read(&format).unwrap();
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gzip, &text).unwrap();
    for (name, bytes) in
        [("format.pgn.gz", gzip.finish().unwrap()), ("format.zst.txt", zstd::encode_all(&text[..], 3).unwrap())]
    {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let path = path.to_str().unwrap();
        let (ok, out, err) = run(&["pgn", path]);
        assert!(ok, "{err}");
        assert_eq!(
            out,
            format!("{path}: 15 games, 0 broken, 69 plies; results 1-0 1, 0-1 0, 1/2-1/2 2, * 10, none 2\n")
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--export jsonl` against python-chess's reading of the generated games (moves in UCI and
/// SAN, `[%clk]` and `[%eval]` per ply), `--export csv` with every tag as a column, and both
/// loaded by Python's own `json` and `csv` modules with the fixed keys.
#[test]
fn pgn_exports_json_lines_and_csv() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/pgn");
    let pgn = format!("{data}/dev_generated.pgn");
    let (ok, jsonl, err) = run(&["pgn", "--export", "jsonl", "--threads", "2", &pgn]);
    assert!(ok, "{err}");
    assert!(err.contains("dev_generated.pgn: "), "the summary goes to standard error: {err}");
    let expected = std::fs::read_to_string(format!("{data}/dev_generated.expected.jsonl")).unwrap();
    let (mut clocks, mut evals) = (0, 0);
    for (line, want) in jsonl.lines().zip(expected.lines()) {
        let got: serde_json::Value = serde_json::from_str(line).unwrap();
        let want: serde_json::Value = serde_json::from_str(want).unwrap();
        let keys: Vec<&str> = got.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["headers", "uci", "san", "clk", "eval", "error"]);
        assert_eq!(got["uci"], want["mainline_uci"]);
        assert_eq!(got["san"], want["mainline_san"]);
        // The comments python-chess read, by ply, give the clocks and evaluations expected.
        let plies = got["uci"].as_array().unwrap().len();
        let (mut clk, mut eval) = (vec![serde_json::Value::Null; plies], vec![serde_json::Value::Null; plies]);
        for comment in want["comments"].as_array().unwrap() {
            let (ply, text) = (comment[0].as_i64().unwrap(), comment[1].as_str().unwrap());
            let Some(slot) = usize::try_from(ply).ok().filter(|&p| p >= 1).map(|p| p - 1) else { continue };
            if let Some(time) = command(text, "%clk") {
                let parts: Vec<f64> = time.split(':').map(|p| p.parse().unwrap()).collect();
                clk[slot] = serde_json::json!(parts[0] * 3600.0 + parts[1] * 60.0 + parts[2]);
                clocks += 1;
            }
            if let Some(value) = command(text, "%eval") {
                let value = value.split(',').next().unwrap();
                eval[slot] = match value.strip_prefix('#') {
                    Some(mate) => serde_json::json!({ "mate": mate.parse::<i64>().unwrap() }),
                    None => serde_json::json!({ "cp": (value.parse::<f64>().unwrap() * 100.0).round() as i64 }),
                };
                evals += 1;
            }
        }
        assert_eq!(got["clk"], serde_json::Value::from(clk), "{line}");
        assert_eq!(got["eval"], serde_json::Value::from(eval), "{line}");
        assert_eq!(got["error"], serde_json::Value::Null);
    }
    assert_eq!(jsonl.lines().count(), expected.lines().count());
    assert!(clocks > 0 && evals > 0, "the generated games have clocks and evaluations");

    // A broken game: its message, and its moves up to the error.
    let (_, broken, _) = run(&["pgn", "--export", "jsonl", &format!("{data}/broken.pgn")]);
    let illegal: serde_json::Value = serde_json::from_str(broken.lines().nth(9).unwrap()).unwrap();
    assert!(illegal["error"].as_str().unwrap().contains("illegal move \"Bxe5\""), "{illegal}");
    assert_eq!(illegal["uci"].as_array().unwrap().len(), 8);

    let (ok, csv, err) = run(&["pgn", "--export", "csv", &pgn, &format!("{data}/format.pgn")]);
    assert!(ok, "{err}");
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(header[..7], ["Event", "Site", "Date", "Round", "White", "Black", "Result"]);
    assert!(header.ends_with(&["result", "plies", "uci", "error"]) && header.contains(&"Annotator"), "{header:?}");

    let Some(python) = common::python("cli: the exports loaded by Python's json and csv") else { return };
    let dir = std::env::temp_dir().join(format!("chesscore-cli-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("games.jsonl"), &jsonl).unwrap();
    std::fs::write(dir.join("games.csv"), &csv).unwrap();
    let script = "import csv, json, sys\n\
        games = [json.loads(line) for line in open(sys.argv[1])]\n\
        assert all(list(g) == ['headers', 'uci', 'san', 'clk', 'eval', 'error'] for g in games)\n\
        assert all(len(g['uci']) == len(g['san']) == len(g['clk']) == len(g['eval']) for g in games)\n\
        rows = list(csv.DictReader(open(sys.argv[2], newline='')))\n\
        assert all(int(r['plies']) == len(r['uci'].split()) for r in rows)\n\
        print(len(games), len(rows))\n";
    let out = Command::new(python)
        .args(["-c", script])
        .arg(dir.join("games.jsonl"))
        .arg(dir.join("games.csv"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let counts = String::from_utf8(out.stdout).unwrap();
    assert_eq!(counts.trim(), format!("{} {}", jsonl.lines().count(), csv.lines().count() - 1));
    std::fs::remove_dir_all(dir).unwrap();
}

/// The argument of the first `[%name ...]` command of a comment.
fn command<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let start = comment.find(&format!("[{name} "))? + name.len() + 2;
    Some(comment[start..].split(']').next()?.trim())
}

/// Every command, with arguments it succeeds with, for the tests that apply to all of them.
fn every_command() -> Vec<Vec<String>> {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data");
    let commands: [&[&str]; 14] = [
        &["perft", "2", "--divide"],
        &["fen", START],
        &["board", START],
        &["unicode", START],
        &["moves", START],
        &["validate", START],
        &["san", START, "e4"],
        &["play", START, "e4"],
        &["epd", &format!("{data}/epd/dev_generated.epd")],
        &["pgn", &format!("{data}/pgn/format.pgn")],
        &["svg", START],
        &["book", "dump", &format!("{data}/polyglot/dev.bin")],
        &["book", "probe", &format!("{data}/polyglot/dev.bin"), "startpos"],
        &["--help"],
    ];
    commands.iter().map(|args| args.iter().map(|a| a.to_string()).collect()).collect()
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_one_line_and_exit_status_1() {
    for args in every_command() {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_chesscore")).args(&args).stdout(full).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            (out.status.code(), err.as_str()),
            (Some(1), "chesscore: cannot write output: No space left on device\n"),
            "{args:?}"
        );
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let spawn = |args: &[String]| {
        Command::new(env!("CARGO_BIN_EXE_chesscore"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // The reader gone before the first write.
    for args in every_command() {
        let mut child = spawn(&args);
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success() && out.stderr.is_empty(), "{args:?}: {out:?}");
    }
    // The reader gone after one line of more output than a pipe holds.
    let dir = std::env::temp_dir().join(format!("chesscore-cli-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("many.pgn");
    std::fs::write(&pgn, "1. e4 *\n\n".repeat(20_000)).unwrap();
    let mut child = spawn(&["pgn".into(), "--fen".into(), pgn.to_str().unwrap().into()]);
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert_eq!(line, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n");
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_count_of_one_is_singular() {
    let (ok, out, _) = run(&["perft", "0"]);
    assert!(ok && out.starts_with("depth 0: 1 node in "), "{out}");
    let (ok, out, _) = run(&["perft", "8/8/8/8/8/8/8/K6k w - - 0 1", "1"]);
    assert!(ok && out.starts_with("depth 1: 3 nodes in "), "{out}");
    let (ok, out, _) = run_with_input(&["pgn", "-"], b"1. e4 *\n");
    assert!(ok);
    assert!(out.starts_with("standard input: 1 game, 0 broken, 1 ply;"), "{out}");
    let (ok, out, err) = run_with_input(&["pgn", "-"], b"1. e4 e4 *\n");
    assert!(!ok);
    assert!(out.starts_with("standard input: 1 game, 1 broken, 0 plies;"), "{out}");
    assert!(err.ends_with("\nchesscore: 1 broken game\n"), "{err}");
    let (ok, _, err) = run(&["pgn", "no such file.pgn"]);
    assert!(!ok && err.ends_with("\nchesscore: 1 file could not be read\n"), "{err}");
    let (ok, _, err) = run_with_input(&["epd", "-"], b"bad\n");
    assert!(!ok && err.ends_with("\nchesscore: 1 of 1 EPD line invalid in standard input\n"), "{err}");
}

#[test]
fn pgn_errors_show_a_printable_excerpt() {
    let error = |input: &[u8]| {
        let (ok, _, err) = run_with_input(&["pgn", "-"], input);
        assert!(!ok);
        err.lines().next().unwrap().to_string()
    };
    // Invalid UTF-8 as `?`, control characters as `\xNN`, other characters as they are.
    assert_eq!(
        error(b"1. e4 e\x01\x7f\xc3\xa9\xff5 *\n"),
        "standard input:1:7: game 1: invalid move syntax \"e\\x01\\x7Fé?5\" at ply 2"
    );
    // (Text that is not UTF-8 is read as Windows-1252, unless it holds a NUL.)
    assert_eq!(
        error(b"[White \"Jos\xff\x00\"]\n\n1. e4 *\n"),
        "standard input:1:1: game 1: invalid UTF-8 \"[White \"Jos?\\x00\"]\""
    );
    let long = format!("1. e4 {} *\n", "Q".repeat(70));
    assert_eq!(
        error(long.as_bytes()),
        format!("standard input:1:7: game 1: invalid move syntax \"{}...\" at ply 2", "Q".repeat(40))
    );
}

#[test]
fn svg_draws_the_board_with_its_marks() {
    let (ok, plain, _) = run(&["svg", "startpos"]);
    assert!(ok && plain.starts_with("<svg ") && plain.ends_with("</svg>\n"), "{plain}");
    assert_eq!(plain.matches("chess:piece=").count(), 32);
    assert!(plain.contains("width=\"400\"") && !plain.contains("<polygon"));
    let (ok, flipped, _) = run(&["svg", START, "--flip"]);
    assert!(ok && flipped != plain && flipped.len() == plain.len());
    let (ok, marked, _) =
        run(&["svg", "startpos", "--lastmove", "e2e4", "--arrow", "g1f3:#ff0000", "--arrow", "e7e5", "--size", "800"]);
    assert!(ok && marked.contains("width=\"800\"") && marked.matches("<polygon").count() == 2, "{marked}");
    assert!(marked.contains("fill=\"#ff0000\""), "{marked}");
    let (ok, bare, _) = run(&["svg", "startpos", "--no-coordinates"]);
    assert!(ok && !bare.contains("<text"));
    // A king in check glows.
    let (ok, mated, _) = run(&["svg", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"]);
    assert!(ok && mated.matches("<circle").count() == 4 && !plain.contains("<circle"));

    let dir = std::env::temp_dir().join(format!("chesscore-cli-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("start.svg");
    let (ok, printed, _) = run(&["svg", "startpos", "-o", file.to_str().unwrap()]);
    assert!(ok && printed.is_empty());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), plain);
    std::fs::remove_dir_all(dir).unwrap();

    for (args, message) in [
        (&["svg", "startpos", "--arrow", "e2e9"][..], "`e2e9` is not a move in UCI"),
        (&["svg", "startpos", "--arrow", "e2e4:purple"], "invalid colour"),
        (&["svg", "startpos", "--lastmove", "e2"], "`e2` is not a move in UCI"),
        (&["svg", "startpos", "--lastmove", "e2e4x"], "`e2e4x` is not a move in UCI"),
        (&["svg", "startpos", "--lastmove", "e2e2"], "from one square to another"),
        (&["svg", "startpos", "--size", "0"], "0 is not in 1..=1000000"),
        (&["svg", "8/8/8/8/8/8/8/8 w - - 0 1"], "invalid FEN"),
    ] {
        let (ok, _, err) = run(args);
        assert!(!ok && err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn svg_variant_draws_pockets_counters_and_the_variant_check() {
    // Crazyhouse: the pockets above and below the board, the picture taller than wide.
    let fen = "r1bqkbnr/pppp1ppp/2n5/8/4P3/8/PPP2PPP/RNBQKBNR[Pp] w KQkq - 0 4";
    let (ok, house, err) = run(&["svg", "--variant", "crazyhouse", fen]);
    assert!(ok, "{err}");
    assert_eq!(house.matches("chess:pocket=").count(), 10);
    assert!(house.contains(r#"chess:pocket="w" chess:piece="P" chess:count="1""#), "{house}");
    assert!(house.contains(r#"viewBox="0 0 880 1080""#) && house.contains(&format!("<desc>{fen}</desc>")));
    let (ok, flipped, _) = run(&["svg", "--variant", "zh", fen, "--flip"]);
    assert!(ok && flipped != house && flipped.len() == house.len());
    // A drop as the last move tints its square only: the default last-move colours.
    let (ok, dropped, _) = run(&["svg", "--variant", "crazyhouse", fen, "--lastmove", "N@f3"]);
    let tinted = |svg: &str| svg.matches("fill=\"#e2d66e\"").count() + svg.matches("fill=\"#b8a644\"").count();
    assert!(ok && tinted(&dropped) == 1 && tinted(&house) == 0, "{dropped}");
    // `startpos` is the variant's start position.
    let (ok, start, _) = run(&["svg", "startpos", "--variant", "3check"]);
    assert!(ok && start.matches("chess:remaining=\"3\"").count() == 2, "{start}");
    // The rook attacks the king: a check in chess, none in antichess.
    let attacked = "4k3/8/8/8/8/8/8/4R2K b - - 0 1";
    let (ok, chess, _) = run(&["svg", attacked]);
    assert!(ok && chess.contains("r=\"50\""));
    let (ok, anti, _) = run(&["svg", attacked, "--variant", "giveaway"]);
    assert!(ok && !anti.contains("r=\"50\"") && !anti.contains("chess:pocket"));
    // Standard as a variant draws what the chess command draws.
    let (ok, standard, _) = run(&["svg", "startpos", "--variant", "standard"]);
    let (_, plain, _) = run(&["svg", "startpos"]);
    assert!(ok && standard == plain);
    for (args, message) in [
        (&["svg", "startpos", "--variant", "shogi"][..], "unknown variant `shogi`"),
        (&["svg", "startpos", "--lastmove", "K@e4"], "`K@e4` is not a drop"),
        (&["svg", "startpos", "--lastmove", "N@e9"], "`N@e9` is not a drop"),
        (&["svg", "startpos", "--variant", "atomic", "--chess960"], "cannot be used with"),
        (&["svg", "8/8/8/8/8/8/8/8 w - - 0 1", "--variant", "horde"], "invalid horde FEN"),
    ] {
        let (ok, _, err) = run(args);
        assert!(!ok && err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn pgn_svg_writes_a_picture_of_every_ply() {
    let dir = std::env::temp_dir().join(format!("chesscore-cli-pgn-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("mate.pgn");
    std::fs::write(&pgn, "[Event \"a\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n[Event \"b\"]\n\n1. e4 *\n").unwrap();
    let pictures = dir.join("pictures");
    let (ok, printed, err) = run(&["pgn", "--svg", pictures.to_str().unwrap(), pgn.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(printed, format!("5 pictures written to {}\n", pictures.display()));
    let mut names: Vec<String> =
        std::fs::read_dir(&pictures).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["ply-000.svg", "ply-001.svg", "ply-002.svg", "ply-003.svg", "ply-004.svg"]);
    let picture = |ply: usize| std::fs::read_to_string(pictures.join(&names[ply])).unwrap();
    let (ok, start, _) = run(&["svg", "startpos"]);
    assert!(ok);
    assert_eq!(picture(0), start);
    // The last move (d8h4) is tinted and the mated king glows.
    let (ok, last, _) =
        run(&["svg", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "--lastmove", "d8h4"]);
    assert!(ok);
    assert_eq!(picture(4), last);
    assert!(picture(4).contains("<circle") && !picture(3).contains("<circle"));

    let (ok, _, err) = run(&["pgn", "--svg", pictures.to_str().unwrap(), pgn.to_str().unwrap(), pgn.to_str().unwrap()]);
    assert!(!ok && err.contains("give one file"), "{err}");
    std::fs::write(&pgn, "1. e4 e4 *\n").unwrap();
    let (ok, _, err) = run(&["pgn", "--svg", pictures.to_str().unwrap(), pgn.to_str().unwrap()]);
    assert!(!ok && err.contains("game 1: illegal move"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}
/// The test book, `book make --chess960` of the generated PGN files.
const BOOK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/polyglot/dev.bin");

fn scratch(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("book");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_str().unwrap().to_string()
}

#[test]
fn book_make_rebuilds_the_test_book_and_merge_adds_up() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/pgn");
    let (generated, edge) = (format!("{data}/dev_generated.pgn"), format!("{data}/dev_edge_cases.pgn"));
    let out = scratch("made.bin");
    let (ok, printed, _) = run(&["book", "make", &generated, &edge, "-o", &out, "--chess960"]);
    assert!(ok);
    assert!(printed.starts_with(&format!("{out}: 727 entries from 48 of 67 games")), "{printed}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(BOOK).unwrap());
    // Options, and PGN from standard input.
    let pgn = std::fs::read(&generated).unwrap();
    let white = scratch("white.bin");
    let args = ["book", "make", "-", "-o", &white, "--only-white", "--max-ply", "10", "--min-games", "2"];
    let (ok, printed, _) = run_with_input(&args, &pgn);
    assert!(ok && printed.contains(" entries from "), "{printed}");
    let (_, dump, _) = run(&["book", "dump", &white]);
    assert!(dump.lines().count() > 5, "{dump}");
    let (ok, _, err) = run(&["book", "make", &generated, "-o", &white, "--min-score", "101"]);
    assert!(!ok && err.contains("101"), "{err}");
    // A book merged with itself: every weight doubled.
    let merged = scratch("merged.bin");
    let (ok, printed, _) = run(&["book", "merge", BOOK, BOOK, "-o", &merged]);
    assert_eq!((ok, printed), (true, format!("{merged}: 727 entries (from 727 + 727)\n")));
    let weights = |path: &str| -> Vec<(String, u32)> {
        let (_, dump, _) = run(&["book", "dump", path]);
        dump.lines()
            .map(|l| l.rsplitn(3, ' ').collect::<Vec<_>>())
            .map(|f| (f[2].to_string(), f[1].parse().unwrap()))
            .collect()
    };
    let (single, double) = (weights(BOOK), weights(&merged));
    assert!(single.iter().zip(&double).all(|((a, w), (b, v))| a == b && 2 * w == *v));
    // Castling is stored as the king taking its rook, and probed in the position's convention.
    let castle = scratch("castle.bin");
    let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O 1-0\n";
    assert!(run_with_input(&["book", "make", "-", "-o", &castle], pgn).0);
    let before = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 6 4";
    assert_eq!(run(&["book", "probe", &castle, before]).1, "e1g1 2 0\n");
    assert!(run(&["book", "dump", &castle]).1.contains(" e1h1 2 0\n"));
    // No game with a result that counts: an empty book, and a warning.
    let empty = scratch("empty.bin");
    let (ok, printed, err) = run_with_input(&["book", "make", "-", "-o", &empty], b"1. e4 e5 *\n");
    assert!(ok && printed.contains("0 entries from 0 of 1 game"), "{printed}");
    assert!(err.contains("warning: no game gave an entry"), "{err}");
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
}

#[test]
fn book_probe_pick_and_dump() {
    let (ok, probe, _) = run(&["book", "probe", BOOK, "startpos"]);
    assert!(ok);
    assert!(probe.starts_with("c2c3 5 0\ne2e4 4 0\n"), "{probe}");
    assert!(probe.lines().all(|l| l.split(' ').count() == 3 && l.ends_with(" 0")), "{probe}");
    let (_, all, _) = run(&["book", "probe", "--min-weight", "0", BOOK, START]);
    assert!(all.lines().count() > probe.lines().count(), "{all}");
    let (_, strong, _) = run(&["book", "probe", "--min-weight", "3", BOOK, START]);
    assert_eq!(strong, "c2c3 5 0\ne2e4 4 0\ne2e3 3 0\nh2h3 3 0\n");
    let pick = |extra: &[&str]| {
        let (ok, out, err) = run(&[&["book", "pick", BOOK, "startpos"][..], extra].concat());
        assert!(ok, "{err}");
        out.trim_end().to_string()
    };
    assert_eq!(pick(&["--best"]), "c2c3");
    assert_eq!(pick(&["--seed", "7"]), pick(&["--seed", "7"]));
    let seeded: std::collections::BTreeSet<String> = (0..40).map(|s| pick(&["--seed", &s.to_string()])).collect();
    assert!(seeded.len() > 3 && seeded.iter().all(|m| probe.contains(&format!("{m} "))), "{seeded:?}");
    let uniform: std::collections::BTreeSet<String> =
        (0..60).map(|s| pick(&["--uniform", "--seed", &s.to_string()])).collect();
    assert!(uniform.contains("g1h3"), "{uniform:?}");
    let (ok, _, err) = run(&["book", "pick", BOOK, "8/8/8/8/8/8/8/K6k w - - 0 1"]);
    assert!(!ok && err == "chesscore: no book move for this position\n", "{err}");
    let (ok, _, _) = run(&["book", "pick", BOOK, "startpos", "--best", "--uniform"]);
    assert!(!ok);
    let (ok, dump, _) = run(&["book", "dump", BOOK]);
    assert!(ok);
    let lines: Vec<&str> = dump.lines().collect();
    assert_eq!(lines.len(), 727);
    for line in &lines {
        let fields: Vec<&str> = line.split(' ').collect();
        assert!(fields.len() == 4 && fields[0].len() == 16 && u64::from_str_radix(fields[0], 16).is_ok(), "{line}");
    }
    assert!(lines.contains(&"463b96181691fc9c c2c3 5 0"), "{dump}");
    // The start of a Chess960 game of the test file, which was drawn.
    let chess960 = "rbbqknnr/pppppppp/8/8/8/8/PPPPPPPP/RBBQKNNR w KQkq - 0 1";
    let (ok, out, _) = run(&["book", "probe", "--chess960", BOOK, chess960]);
    assert_eq!((ok, out.as_str()), (true, "b2b4 1 0\n"));
}

#[test]
fn malformed_books_are_clear_errors() {
    let good = std::fs::read(BOOK).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = scratch(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let mut unsorted = good[16..32].to_vec();
    unsorted.extend(&good[..16]);
    let garbage: Vec<u8> = (0..1600u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
    let dir = std::path::Path::new(&scratch("x")).parent().unwrap().to_str().unwrap().to_string();
    let cases = [
        (
            write("truncated.bin", &good[..100]),
            "the length, 100 bytes, is not a multiple of 16: entry 6 (at byte offset 96) is cut short",
        ),
        (write("unsorted.bin", &unsorted), "entry 1 (at byte offset 16) has key"),
        (write("empty.bin", b""), "the book is empty"),
        (dir, "not a regular file"),
        (write("garbage.bin", &garbage), "not sorted by key"),
        (scratch("missing.bin"), "cannot read book"),
    ];
    for (path, message) in cases {
        for args in [
            vec!["book", "dump", &path],
            vec!["book", "probe", &path, "startpos"],
            vec!["book", "pick", &path, "startpos"],
        ] {
            let (ok, out, err) = run(&args);
            assert!(!ok && out.is_empty(), "{args:?}");
            assert!(err.starts_with("chesscore: ") && err.contains(message) && err.contains(&path), "{args:?}: {err}");
        }
    }
}

#[test]
fn convert_between_binpack_plain_and_epd() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("convert");
    std::fs::create_dir_all(&dir).unwrap();
    let fixture = common::data("binpack/generated.binpack");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let steps = [
        (fixture.to_str().unwrap().to_string(), path("a.plain")),
        (path("a.plain"), path("b.binpack")),
        (path("b.binpack"), path("c.epd")),
        (path("c.epd"), path("d.plain")),
    ];
    for (input, output) in &steps {
        let (ok, out, err) = run(&["convert", input, output]);
        assert!(ok, "{err}");
        assert_eq!(out, "4113 entries\n");
    }
    assert_eq!(std::fs::read(path("b.binpack")).unwrap(), std::fs::read(&fixture).unwrap());
    assert_eq!(std::fs::read_to_string(path("d.plain")).unwrap(), std::fs::read_to_string(path("a.plain")).unwrap());
    let epd = std::fs::read_to_string(path("c.epd")).unwrap();
    assert!(epd.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; sm "), "{epd}");

    let (ok, _, err) = run(&["convert", &path("a.plain"), &path("e.txt")]);
    assert!(!ok && err.contains("unknown format"), "{err}");
    std::fs::write(dir.join("bad.plain"), "fen 8/8/8/8/8/8/8/8 w - - 0 1\ne\n").unwrap();
    let (ok, _, err) = run(&["convert", &path("bad.plain"), &path("f.binpack")]);
    assert!(!ok && err.contains("bad.plain: invalid FEN: no white king (at byte 4)"), "{err}");
}

/// `run` with a limit on time and memory: a command that hangs or grows without bound fails
/// its test (killed at `seconds`, or refused memory past 4 GiB of address space) instead of
/// holding or sinking the suite.
fn run_bounded(args: &[&str], seconds: u64) -> (bool, String, String) {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4194304 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_chesscore"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let (stdout, stderr) =
        (reader(Box::new(child.stdout.take().unwrap())), reader(Box::new(child.stderr.take().unwrap())));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chesscore {args:?} ran past {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status.success(), stdout.join().unwrap(), stderr.join().unwrap())
}

/// A directory of its own under the scratch directory, made afresh.
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A UCI engine as a shell script: it names itself `name` (written with printf, so `\033`
/// and the like are control bytes) and has no move in any position.
fn script_engine(dir: &std::path::Path, name: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("engine.sh");
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) printf 'id name {name}\\nuciok\\n' ;;\n    \
         isready) echo readyok ;;\n    go*) echo 'bestmove 0000' ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

/// Absurd time controls are refused with a message (`1e300` once panicked turning into a
/// duration), before any engine starts.
#[test]
fn match_refuses_absurd_time_controls() {
    for tc in ["1e300+0", "10+1e300", "86401+0", "inf+0", "NaN+0", "-1+0", "10+-1", "0+1"] {
        let (ok, out, err) = run_bounded(&["match", "--engine", "a", "--engine", "b", &format!("--tc={tc}")], 20);
        assert!(!ok && out.is_empty(), "{tc}");
        assert!(err.starts_with(&format!("chesscore: --tc {tc}: expected BASE+INC")), "{tc}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// An engine whose name holds control bytes (ESC, SOH, DEL, a tab) gives a `--pgn` file that
/// our reader reads back, the names with spaces in their place.
#[test]
fn match_pgn_reads_back_whatever_the_engines_are_called() {
    let dir = scratch_dir("names");
    let engine = script_engine(&dir, "Bad\\033[31m\\001Name\\177\\tX");
    let pgn = dir.join("games.pgn");
    let pgn = pgn.to_str().unwrap();
    let (ok, out, err) =
        run_bounded(&["match", "--engine", &engine, "--engine", &engine, "--games", "2", "--pgn", pgn], 60);
    assert!(ok, "{out}{err}");
    let text = std::fs::read_to_string(pgn).unwrap();
    assert!(text.contains("[White \"Bad [31m Name  X\"]"), "{text:?}");
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text:?}");
    let (ok, out, err) = run_bounded(&["pgn", "--threads", "1", pgn], 20);
    assert!(ok && out.starts_with(&format!("{pgn}: 2 games")), "{out}{err}");
}

/// A FIFO given as a book is refused at once (its open used to wait for a writer for ever).
#[test]
fn book_commands_refuse_a_fifo() {
    let dir = scratch_dir("fifo_book");
    let fifo = dir.join("book.bin");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let fifo = fifo.to_str().unwrap();
    for args in [vec!["book", "probe", fifo, "startpos"], vec!["book", "dump", fifo]] {
        let (ok, _, err) = run_bounded(&args, 20);
        assert!(!ok && err.contains("not a regular file"), "{args:?}: {err}");
    }
}

/// `book make` and `book merge` replace their output by a rename: a reader of the old book
/// keeps reading it whole; an output that is an input is refused.
#[test]
fn book_writers_replace_their_output_by_a_rename() {
    let dir = scratch_dir("book_rename");
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/pgn");
    let book = dir.join("book.bin");
    let book = book.to_str().unwrap();
    let (ok, _, err) = run_bounded(&["book", "make", &format!("{data}/dev_generated.pgn"), "-o", book], 60);
    assert!(ok, "{err}");
    let before = std::fs::read(book).unwrap();
    let mut old = std::fs::File::open(book).unwrap();
    let (ok, _, err) = run_bounded(&["book", "make", &format!("{data}/dev_edge_cases.pgn"), "-o", book], 60);
    assert!(ok, "{err}");
    let mut old_bytes = Vec::new();
    std::io::Read::read_to_end(&mut old, &mut old_bytes).unwrap();
    assert_eq!(old_bytes, before);
    assert_ne!(std::fs::read(book).unwrap(), before);
    let (ok, _, err) = run_bounded(&["book", "merge", book, BOOK, "-o", book], 20);
    assert!(!ok && err.contains("the same file as the input"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["book.bin"]);
}

/// `convert` of a `.plain` or `.epd` input that is one endless line (`/dev/zero`) stops with
/// an error, in bounded memory; the output file is not left behind.
#[test]
fn convert_stops_at_an_endless_line() {
    let dir = scratch_dir("endless");
    for (name, message) in [("zero.plain", "line longer than 4096 bytes"), ("zero.epd", "line longer than")] {
        let input = dir.join(name);
        std::os::unix::fs::symlink("/dev/zero", &input).unwrap();
        let output = dir.join("out.binpack");
        let (ok, _, err) = run_bounded(&["convert", input.to_str().unwrap(), output.to_str().unwrap()], 60);
        assert!(!ok && err.contains(message), "{name}: {err}");
        assert!(!output.exists());
    }
}

/// `epdtest` and `match --openings` read a line at a time: `/dev/zero` (one endless line) is
/// an error in bounded time and memory, not 15 GB read in a minute.
#[test]
fn epd_inputs_of_engine_commands_are_read_a_line_at_a_time() {
    let dir = scratch_dir("epd_zero");
    let engine = script_engine(&dir, "Quiet");
    let zero = dir.join("zero.epd");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let zero = zero.to_str().unwrap();
    let (ok, _, err) = run_bounded(&["epdtest", zero, "--engine", &engine, "--movetime", "10"], 60);
    assert!(!ok && err.contains("line 1 of") && err.contains("longer than 64 MiB"), "{err}");
    let (ok, _, err) = run_bounded(&["match", "--engine", &engine, "--engine", &engine, "--openings", zero], 60);
    assert!(!ok && err.contains("longer than 64 MiB"), "{err}");
    // Only the openings the games use are read: one for a pair of games, the bad line after it
    // never.
    let many = dir.join("many.epd");
    let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n";
    std::fs::write(&many, format!("{line}not an EPD line\n")).unwrap();
    let args =
        ["match", "--engine", &engine, "--engine", &engine, "--games", "2", "--openings", many.to_str().unwrap()];
    let (ok, out, err) = run_bounded(&args, 60);
    assert!(ok && out.ends_with(": 1-0-1\n"), "{out}{err}");
}

/// An output that is one of the inputs (the same name, a hard link, a symbolic link) is
/// refused and the input left whole; a failed run leaves the old output as it was.
#[test]
fn outputs_never_replace_their_inputs() {
    let dir = scratch_dir("same_file");
    let pgn = dir.join("games.pgn");
    std::fs::copy(common::data("pgn/dev_generated.pgn"), &pgn).unwrap();
    let original = std::fs::read(&pgn).unwrap();
    std::fs::hard_link(&pgn, dir.join("hard.pgn")).unwrap();
    std::os::unix::fs::symlink(&pgn, dir.join("soft.pgn")).unwrap();
    for out in ["games.pgn", "hard.pgn", "soft.pgn"] {
        let out = dir.join(out);
        let (ok, _, err) = run_bounded(&["pgn", pgn.to_str().unwrap(), "--out", out.to_str().unwrap()], 20);
        assert!(!ok && err.contains("the same file as the input"), "{err}");
        assert_eq!(std::fs::read(&pgn).unwrap(), original);
    }
    let binpack = dir.join("data.binpack");
    std::fs::copy(common::data("binpack/generated.binpack"), &binpack).unwrap();
    let data = std::fs::read(&binpack).unwrap();
    std::os::unix::fs::symlink(&binpack, dir.join("link.binpack")).unwrap();
    for out in ["data.binpack", "link.binpack"] {
        let out = dir.join(out);
        let (ok, _, err) = run_bounded(&["convert", binpack.to_str().unwrap(), out.to_str().unwrap()], 20);
        assert!(!ok && err.contains("the same file as the input"), "{err}");
        assert_eq!(std::fs::read(&binpack).unwrap(), data);
    }
    // A conversion failing half-way leaves the old output untouched, and no temporary file.
    let bad = dir.join("bad.plain");
    let good_entry = "fen 8/8/8/8/8/8/8/K6k w - - 0 1\nmove a1a2\nscore 0\nply 0\nresult 0\ne\n";
    std::fs::write(&bad, format!("{good_entry}fen nonsense\ne\n")).unwrap();
    let (ok, _, err) = run_bounded(&["convert", bad.to_str().unwrap(), binpack.to_str().unwrap()], 20);
    assert!(!ok && err.contains("invalid FEN"), "{err}");
    assert_eq!(std::fs::read(&binpack).unwrap(), data);
    // Through a symbolic link, the file it names is replaced, the link kept.
    let good = dir.join("good.plain");
    std::fs::write(&good, good_entry).unwrap();
    let link = dir.join("link.binpack");
    let (ok, _, err) = run_bounded(&["convert", good.to_str().unwrap(), link.to_str().unwrap()], 20);
    assert!(ok, "{err}");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_ne!(std::fs::read(&binpack).unwrap(), data);
    let mut names: Vec<_> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["bad.plain", "data.binpack", "games.pgn", "good.plain", "hard.pgn", "link.binpack", "soft.pgn"]);
    // Writing to /dev/null (not a regular file) goes on as before.
    let (ok, _, err) = run_bounded(&["pgn", pgn.to_str().unwrap(), "--out", "/dev/null"], 20);
    assert!(ok, "{err}");
}

/// A huge `--threads` reads with the library's most threads, at once.
#[test]
fn pgn_threads_are_capped() {
    let pgn = common::data("pgn/dev_generated.pgn");
    let (ok, one, _) = run_bounded(&["pgn", "--threads", "1", pgn.to_str().unwrap()], 20);
    assert!(ok);
    let (ok, many, err) = run_bounded(&["pgn", "--threads", "4294967295", pgn.to_str().unwrap()], 20);
    assert!(ok, "{err}");
    assert_eq!(many, one);
}
