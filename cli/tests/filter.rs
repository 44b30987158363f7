//! `chesscore pgn filter`: each condition on small PGN files made here, the outputs (standard
//! output, `-o`, `--split`), compressed input, threads, and telling the command from a file
//! named `filter`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chesscore")).args(args).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("filter").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The `Event` of each game of a PGN text, in order.
fn events(pgn: &str) -> Vec<&str> {
    pgn.lines().filter_map(|line| line.strip_prefix("[Event \"")?.strip_suffix("\"]")).collect()
}

/// Six games: A (White Carlsen 2850, mate), B (Black Carlsen, a draw with comments, NAGs and a
/// variation, no WhiteElo), C (a broken game), D (an endgame from a FEN reaching KRvKP), E (the
/// same moves as A under other tags), F (stalemate from a FEN).
const GAMES: &str = r#"[Event "A"]
[White "Carlsen, Magnus"]
[Black "Someone"]
[WhiteElo "2850"]
[BlackElo "900"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "B"]
[White "Anand, V"]
[Black "Carlsen, Magnus"]
[BlackElo "2850"]
[Result "1/2-1/2"]

1. d4 { a comment } d5 $1 ( 1... Nf6 2. c4 ) 2. c4 e6 1/2-1/2

[Event "C"]
[Result "*"]

1. e4 e5 2. Ke3 *

[Event "D"]
[Result "0-1"]
[FEN "8/8/4k3/8/2r5/3RP3/4K3/8 w - - 0 1"]
[SetUp "1"]

1. Rd6+ Kxd6 0-1

[Event "E"]
[White "Other"]
[Black "Else"]
[WhiteElo "10000"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "F"]
[Result "1/2-1/2"]
[FEN "7k/5Q2/8/6K1/8/8/8/8 w - - 0 1"]
[SetUp "1"]

1. Kg6 1/2-1/2
"#;

/// The events written by `pgn filter ARGS... FILE`, with the summary line checked.
fn filter(file: &str, args: &[&str], expected_written: usize) -> Vec<String> {
    let mut all = vec!["pgn", "filter", "--threads", "1"];
    all.extend_from_slice(args);
    all.push(file);
    let (ok, out, err) = run(&all);
    assert!(ok, "{args:?}: {err}");
    assert!(err.ends_with(&format!("{expected_written} of 6 games written\n")), "{args:?}: {err}");
    assert!(err.contains("game 3: illegal move \"Ke3\""), "{err}");
    events(&out).into_iter().map(String::from).collect()
}

#[test]
fn each_condition() {
    let dir = dir("conditions");
    let file = write(&dir, "games.pgn", GAMES);
    let f = |args: &[&str], expected: &[&str]| assert_eq!(filter(&file, args, expected.len()), expected, "{args:?}");
    f(&[], &["A", "B", "D", "E", "F"]);
    // Numbers as numbers: "10000" > "2800" as numbers, not as text.
    f(&["--tag", "WhiteElo >= 2800"], &["A", "E"]);
    f(&["--tag", "WhiteElo < 2900"], &["A"]);
    f(&["--tag", "WhiteElo>2800", "--tag", "BlackElo<1000"], &["A"]);
    // Text: "Anand, V" < "B".
    f(&["--tag", "White < B"], &["B"]);
    // A missing tag matches only !=.
    f(&["--tag", "WhiteElo != 2850"], &["B", "D", "E", "F"]);
    f(&["--tag", "White ~ *"], &["A", "B", "E"]);
    f(&["--tag", "White ~ ?nand*"], &["B"]);
    f(&["--player", "Carlsen*"], &["A", "B"]);
    f(&["--player", "*e"], &["A", "E"]);
    f(&["--result", "1-0"], &["A", "E"]);
    f(&["--result", "1/2-1/2"], &["B", "F"]);
    // After 1. e4 e5, whatever the clocks say; any of several positions.
    f(&["--position", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 5 9"], &["A", "E"]);
    f(&["--position", "startpos", "--position", "8/8/4k3/8/2r5/3RP3/4K3/8 w - - 0 1"], &["A", "B", "D", "E"]);
    f(&["--material", "KRPvKR"], &["D"]);
    f(&["--material", "KPvKR"], &["D"]);
    f(&["--material", "KRvKP"], &["D"]);
    f(&["--min-plies", "4"], &["A", "B", "E"]);
    f(&["--max-plies", "2"], &["D", "F"]);
    f(&["--min-plies", "2", "--max-plies", "4"], &["B", "D"]);
    f(&["--checkmate"], &["A", "E"]);
    f(&["--stalemate"], &["F"]);
    f(&["--dedupe"], &["A", "B", "D", "F"]);
    // Duplicates among the games kept: E is written when A is left out.
    f(&["--dedupe", "--tag", "White = Other"], &["E"]);
    f(&["--checkmate", "--player", "Carlsen*", "--tag", "Result = 1-0"], &["A"]);
}

#[test]
fn games_are_written_whole_or_stripped() {
    let dir = dir("strip");
    let file = write(&dir, "games.pgn", GAMES);
    let (ok, out, _) = run(&["pgn", "filter", "--tag", "Event = B", &file]);
    assert!(ok);
    assert!(out.contains("1. d4 { a comment } 1... d5 $1 ( 1... Nf6 2. c4 ) 2. c4 e6 1/2-1/2"), "{out}");
    assert!(out.starts_with("[Event \"B\"]\n[Site \"?\"]"), "{out}");
    let (_, out, _) = run(&["pgn", "filter", "--tag", "Event = B", "--strip", "comments,variations", &file]);
    assert!(out.contains("\n1. d4 d5 $1 2. c4 e6 1/2-1/2\n"), "{out}");
    let (_, out, _) = run(&["pgn", "filter", "--tag", "Event = B", "--strip", "nags", "--strip", "comments", &file]);
    assert!(out.contains("\n1. d4 d5 ( 1... Nf6 2. c4 ) 2. c4 e6 1/2-1/2\n"), "{out}");
    // What is written reads back as the same games.
    let (_, all, _) = run(&["pgn", "filter", &file]);
    let again = write(&dir, "again.pgn", &all);
    let (ok, out, err) = run(&["pgn", "filter", &again]);
    assert!(ok && out == all && err == "5 of 5 games written\n", "{err}");
}

#[test]
fn output_file_replaces_and_never_an_input() {
    let dir = dir("output");
    let file = write(&dir, "games.pgn", GAMES);
    let (ok, _, err) = run(&["pgn", "filter", "--checkmate", &file, "-o", &file]);
    assert!(!ok && err.contains("cannot write"), "{err}");
    assert_eq!(fs::read_to_string(&file).unwrap(), GAMES, "the input is untouched");
    let out = dir.join("out.pgn");
    fs::write(&out, "old").unwrap();
    let (ok, stdout, err) = run(&["pgn", "filter", "--checkmate", &file, "-o", out.to_str().unwrap()]);
    assert!(ok && stdout.is_empty() && err.ends_with("2 of 6 games written\n"), "{err}");
    assert_eq!(events(&fs::read_to_string(&out).unwrap()), ["A", "E"]);
    let mut left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    left.sort();
    assert_eq!(left, ["games.pgn", "out.pgn"], "no temporary file left");
    // A cut gzip file: the games before the cut are read, then the command fails, leaving the
    // old output as it was.
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut encoder, GAMES.repeat(20).as_bytes()).unwrap();
    let gz = encoder.finish().unwrap();
    let cut = dir.join("cut.pgn.gz");
    fs::write(&cut, &gz[..gz.len() / 2]).unwrap();
    let (ok, _, err) = run(&["pgn", "filter", cut.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(!ok && err.contains("cannot read") && !err.contains("games written"), "{err}");
    assert_eq!(events(&fs::read_to_string(&out).unwrap()), ["A", "E"], "the old output kept");
}

#[test]
fn split_into_numbered_parts() {
    let dir = dir("split");
    let file = write(&dir, "games.pgn", GAMES);
    let parts = dir.join("parts");
    let (ok, stdout, err) = run(&["pgn", "filter", "--split", "2", "--out-dir", parts.to_str().unwrap(), &file]);
    assert!(ok && stdout.is_empty() && err.ends_with("5 of 6 games written\n"), "{err}");
    let mut names: Vec<String> =
        fs::read_dir(&parts).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["part-000001.pgn", "part-000002.pgn", "part-000003.pgn"]);
    let read = |name: &str| fs::read_to_string(parts.join(name)).unwrap();
    assert_eq!(events(&read("part-000001.pgn")), ["A", "B"]);
    assert_eq!(events(&read("part-000002.pgn")), ["D", "E"]);
    assert_eq!(events(&read("part-000003.pgn")), ["F"]);
    // Nothing kept: no part.
    let none = dir.join("none");
    let (ok, _, err) =
        run(&["pgn", "filter", "--split", "2", "--out-dir", none.to_str().unwrap(), "--max-plies", "0", &file]);
    assert!(ok && err.ends_with("0 of 6 games written\n"), "{err}");
    assert_eq!(fs::read_dir(&none).unwrap().count(), 0);
    let (ok, _, err) = run(&["pgn", "filter", "--split", "2", &file]);
    assert!(!ok && err.contains("--out-dir"), "{err}");
    let (ok, _, err) = run(&["pgn", "filter", "--split", "0", "--out-dir", none.to_str().unwrap(), &file]);
    assert!(!ok && err.contains("--split"), "{err}");
}

/// Many games over several of the reader's chunks, eight different ones (four openings, with
/// and without `3. a3`) under other tags.
fn many_games(count: usize) -> String {
    let openings = [
        "1. e4 e5 2. Nf3 Nc6",
        "1. d4 d5 2. c4 e6",
        "1. c4 { English } c5 2. Nc3 Nc6",
        "1. e4 c5 ( 1... e6 ) 2. Nf3 d6",
    ];
    let mut pgn = String::new();
    for i in 0..count {
        let moves = openings[i % openings.len()];
        let elo = 1500 + (i * 37) % 1400;
        let more = if i % 3 == 0 { "3. a3 " } else { "" };
        pgn.push_str(&format!("[Event \"G{i}\"]\n[WhiteElo \"{elo}\"]\n[Result \"*\"]\n\n{moves} {more}*\n\n"));
    }
    pgn
}

#[test]
fn threads_compressed_input_and_dedupe_agree() {
    use std::io::Write;

    let dir = dir("threads");
    let pgn = many_games(10_000);
    assert!(pgn.len() > 600_000, "several chunks of the parallel reader");
    let plain = write(&dir, "many.pgn", &pgn);
    let gz = dir.join("many.pgn.gz");
    let mut encoder = flate2::write::GzEncoder::new(fs::File::create(&gz).unwrap(), flate2::Compression::default());
    encoder.write_all(pgn.as_bytes()).unwrap();
    encoder.finish().unwrap();
    let zst = dir.join("many.pgn.zst");
    fs::write(&zst, zstd::encode_all(pgn.as_bytes(), 3).unwrap()).unwrap();
    let conditions = ["--tag", "WhiteElo >= 2000", "--dedupe", "--strip", "comments"];
    let mut outputs = Vec::new();
    for input in [plain.as_str(), gz.to_str().unwrap(), zst.to_str().unwrap()] {
        for threads in ["1", "4"] {
            let mut args = vec!["pgn", "filter", "--threads", threads];
            args.extend_from_slice(&conditions);
            args.push(input);
            let (ok, out, err) = run(&args);
            assert!(ok, "{err}");
            outputs.push((out, err));
        }
    }
    let (first, summary) = &outputs[0];
    assert!(outputs.iter().all(|o| o == &outputs[0]), "every input and thread count gives the same output");
    // Eight distinct games (4 openings, with and without 3. a3); the first of each with an Elo
    // of 2000 or more is kept, in input order.
    let kept = events(first);
    assert_eq!(summary, &format!("{} of 10000 games written\n", kept.len()));
    assert_eq!(kept.len(), 8, "{kept:?}");
    let numbers: Vec<usize> = kept.iter().map(|e| e[1..].parse().unwrap()).collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbers:?}");
    assert!(!first.contains('{'), "comments stripped");
}

#[test]
fn filter_command_or_a_file_named_filter() {
    let dir = dir("named");
    write(&dir, "filter", GAMES);
    let in_dir = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_chesscore")).args(args).current_dir(&dir).output().unwrap();
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let summary = "filter: 6 games, 1 broken, 21 plies";
    // The file, named so that it is no command.
    for args in [&["pgn", "./filter"][..], &["pgn", "--", "filter"], &["pgn", "--threads", "1", "filter"]] {
        let (out, err) = in_dir(args);
        assert!(out.contains(summary.trim_start_matches("filter")), "{args:?}: {out}{err}");
    }
    let (out, _) = in_dir(&["pgn", "filter", "filter"]);
    assert_eq!(events(&out), ["A", "B", "D", "E", "F"], "the command, reading the file");
    let (out, err) = in_dir(&["pgn", "filter"]);
    assert!(out.is_empty() && err.contains("<FILES>"), "the command wants files: {err}");
    // A file named like a value of an option.
    write(&dir, "1-0", GAMES);
    let (out, err) = in_dir(&["pgn", "filter", "--result", "1-0", "1-0"]);
    assert_eq!(events(&out), ["A", "E"], "{err}");
    // `help` is no command of `pgn`: a file of that name is read.
    write(&dir, "help", GAMES);
    let (out, err) = in_dir(&["pgn", "help"]);
    assert!(out.starts_with("help: 6 games"), "{out}{err}");
}

#[test]
fn bad_arguments_are_refused_with_the_reason() {
    let dir = dir("bad");
    let file = write(&dir, "games.pgn", GAMES);
    for (args, reason) in [
        (&["--tag", "WhiteElo 2500"][..], "expected one of = != < <= > >= ~"),
        (&["--tag", "= 2500"], "expected a tag name"),
        (&["--material", "KXvK"], "`X` is not a piece letter"),
        (&["--material", "KRKP"], "`v`"),
        (&["--result", "2-0"], "expected 1-0, 0-1, 1/2-1/2 or *"),
        (&["--position", "8/8/8 w - - 0 1"], "invalid FEN"),
        (&["--strip", "tags"], "comments"),
        (&["--checkmate", "--stalemate"], "cannot be used with"),
        (&["-o", "x.pgn", "--split", "2", "--out-dir", "d"], "cannot be used with"),
    ] {
        let mut all = vec!["pgn", "filter"];
        all.extend_from_slice(args);
        all.push(&file);
        let (ok, out, err) = run(&all);
        assert!(!ok && out.is_empty() && err.contains(reason), "{args:?}: {err}");
    }
    let (ok, _, err) = run(&["pgn", "filter", &dir.join("missing.pgn").to_string_lossy()]);
    assert!(!ok && err.contains("cannot read"), "{err}");
}

/// The value of tag `name` of each game of a PGN text, in order (`-` where it is missing).
fn tag_values<'a>(pgn: &'a str, name: &str) -> Vec<&'a str> {
    let prefix = format!("[{name} \"");
    pgn.split("\n\n[Event ")
        .map(|game| game.lines().find_map(|l| l.strip_prefix(&prefix)?.strip_suffix("\"]")).unwrap_or("-"))
        .collect()
}

#[test]
fn eco_names_openings_before_the_conditions() {
    let dir = dir("eco");
    // A: the Queen's Gambit Declined by way of the English, with a wrong ECO tag, then out of
    // theory. B: from a set-up position (not named). C: no moves (not named).
    let file = write(
        &dir,
        "eco.pgn",
        r#"[Event "A"]
[ECO "A00"]
[Opening "Wrong"]

1. c4 e6 2. Nc3 d5 3. d4 Nf6 4. Kd2 *

[Event "B"]
[ECO "C20"]
[FEN "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]
[SetUp "1"]

2. Nf3 Nc6 3. Bb5 a6 *

[Event "C"]

*
"#,
    );
    let (ok, out, err) = run(&["pgn", "filter", "--eco", &file]);
    assert!(ok, "{err}");
    assert_eq!(err, "3 of 3 games written\n");
    assert_eq!(events(&out), ["A", "B", "C"]);
    assert_eq!(tag_values(&out, "ECO"), ["D35", "C20", "-"]);
    assert_eq!(tag_values(&out, "Opening"), ["Queen's Gambit Declined: Normal Defense", "-", "-"]);
    // The conditions see the tags as named: A is D35 only with --eco.
    let (ok, out, err) = run(&["pgn", "filter", "--eco", "--tag", "ECO = D35", &file]);
    assert!(ok && err == "1 of 3 games written\n", "{err}");
    assert_eq!(events(&out), ["A"]);
    let (ok, _, err) = run(&["pgn", "filter", "--tag", "ECO = D35", &file]);
    assert!(ok && err == "0 of 3 games written\n", "{err}");
    // Without --eco the tags are left as they are.
    let (_, out, _) = run(&["pgn", "filter", &file]);
    assert_eq!(tag_values(&out, "ECO"), ["A00", "C20", "-"]);
}

#[test]
fn eco_is_the_same_in_every_thread_count() {
    let dir = dir("eco-threads");
    let pgn = many_games(10_000);
    let file = write(&dir, "many.pgn", &pgn);
    let outputs: Vec<(bool, String, String)> = ["1", "4"]
        .into_iter()
        .map(|threads| run(&["pgn", "filter", "--eco", "--strip", "variations", "--threads", threads, &file]))
        .collect();
    assert!(outputs[0].0, "{}", outputs[0].2);
    assert_eq!(outputs[0], outputs[1]);
    let out = &outputs[0].1;
    let ecos = tag_values(out, "ECO");
    assert_eq!(ecos.len(), 10_000);
    // The four openings of many_games (their lines in the table: A35, B50, C44, D30), whatever
    // 3. a3 adds (no line of the table plays it).
    let mut distinct: Vec<&str> = ecos.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct, ["A35", "B50", "C44", "D30"]);
}
