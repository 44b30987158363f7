//! `chesscore pgn --out`, `--export` and `pgn filter` on a database mixing chess and the
//! lichess variants: each variant game read and written by its rules (a `Variant` tag chooses
//! them), named in the exports by that tag, the same with one thread as with several. The
//! variant games are the generated games of `core/tests/data/variant` (moves and SAN from
//! python-chess 1.11.2), written as PGN by the library.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use chesscore_core::pgn::PgnReader;
use chesscore_core::variant::{AnyGame, Variant, VariantGame, VariantPosition};

const VARIANTS: [&str; 7] =
    ["atomic", "antichess", "crazyhouse", "kingofthehill", "threecheck", "horde", "racingkings"];

/// Games of the generated data per variant.
const PER_VARIANT: usize = 8;

/// Hand-written games: chess (a tag line inside a comment), a crazyhouse game broken in its
/// movetext, an unknown variant, a bad variant FEN, Chess960, and a whole crazyhouse game.
const HOSTILE: &str = "[Event \"chess\"]\n\n1. e4 e5 2. Nf3 {[Event \"fake\"]\n\n} Nc6 (2... d6) 3. Bb5 *\n\n\
    [Event \"broken zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d5 {drop} Qxa2 5. Q@e9 *\n\n\
    [Event \"bughouse\"]\n[Variant \"Bughouse\"]\n\n1. e4 *\n\n\
    [Event \"bad fen\"]\n[Variant \"Racing Kings\"]\n[FEN \"not a fen\"]\n\n1. Kh3 *\n\n\
    [Event \"960\"]\n[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. g3 *\n\n\
    [Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. @d5 @e6 *\n\n";

/// A generated game: its `Event`, variant, moves in UCI and SAN, and its PGN.
struct Generated {
    event: String,
    variant: Variant,
    uci: Vec<String>,
    san: Vec<String>,
    pgn: String,
}

fn generated() -> Vec<Generated> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/data/variant");
    let mut games = Vec::new();
    for name in VARIANTS {
        let text = fs::read_to_string(data.join(format!("{name}.games"))).unwrap();
        let variant = Variant::from_name(name).unwrap();
        for (n, line) in text.lines().take(PER_VARIANT).enumerate() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            let start = VariantPosition::from_fen(variant, record["start"].as_str().unwrap()).unwrap();
            let mut game = VariantGame::new(start);
            let (mut uci, mut san) = (Vec::new(), Vec::new());
            for ply in record["plies"].as_array().unwrap() {
                game.push_uci(ply[0].as_str().unwrap()).unwrap();
                uci.push(ply[0].as_str().unwrap().to_string());
                san.push(ply[1].as_str().unwrap().to_string());
            }
            let event = format!("{name} {n}");
            game.set_tag("Event", &event).unwrap();
            games.push(Generated { event, variant, uci, san, pgn: game.to_pgn() });
        }
    }
    games
}

/// The database: the hand-written games, then the generated ones (chess games among them).
fn database() -> String {
    let chess = "[Event \"chess 2\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 1/2-1/2\n\n";
    let mut text = HOSTILE.to_string();
    for game in generated() {
        text.push_str(&game.pgn);
        text.push('\n');
        text.push_str(chess);
    }
    text
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chesscore")).args(args).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// A fresh directory for one test, holding the database; its path and the database's.
fn setup(name: &str) -> (PathBuf, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pgn_variants").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mixed.pgn");
    fs::write(&path, database()).unwrap();
    (dir, path.to_str().unwrap().to_string())
}

/// The games of a PGN text as the library reads them: each game's PGN, or its error.
fn read_back(text: &str) -> Vec<Result<String, String>> {
    let mut reader = PgnReader::from_bytes(text);
    std::iter::from_fn(|| reader.next_any_game().transpose())
        .map(|game| game.map(|game| game.to_pgn()).map_err(|e| e.to_string()))
        .collect()
}

/// `--out` writes every game read whole, variant games with their `Variant` tag and moves: read
/// back, they are the games of the input; threads write the same file.
#[test]
fn out_writes_the_variant_games() {
    let (dir, input) = setup("out");
    let whole: Vec<String> = read_back(&database()).into_iter().filter_map(Result::ok).collect();
    assert_eq!(whole.len(), 3 + 2 * VARIANTS.len() * PER_VARIANT);
    let mut outputs = Vec::new();
    for threads in ["1", "3"] {
        let out = dir.join(format!("out-{threads}.pgn"));
        let (code, summary, err) = run(&["pgn", "--threads", threads, "--out", out.to_str().unwrap(), &input]);
        assert_eq!(code, 1, "{err}");
        assert!(summary.contains(&format!("{} games, 3 broken", whole.len() + 3)), "{summary}");
        assert!(err.contains("unsupported variant \"Bughouse\""), "{err}");
        let written = fs::read_to_string(&out).unwrap();
        let back: Vec<String> = read_back(&written).into_iter().map(Result::unwrap).collect();
        assert!(back == whole, "{threads} threads");
        outputs.push(written);
    }
    assert_eq!(outputs[0], outputs[1]);
    assert!(outputs[0].contains("[Variant \"Three-check\"]"));
}

/// `--export jsonl`: each variant game's UCI and SAN are python-chess's (drops as `P@e4`), its
/// `Variant` header names it; a broken crazyhouse game keeps its moves before the error; CSV
/// has a `Variant` column. One thread and three write the same.
#[test]
fn export_names_the_variant_and_writes_its_moves() {
    let (_dir, input) = setup("export");
    let (code, lines, err) = run(&["pgn", "--threads", "1", "--export", "jsonl", &input]);
    assert_eq!(code, 1, "{err}");
    let (_, threaded, _) = run(&["pgn", "--threads", "3", "--export", "jsonl", &input]);
    assert_eq!(lines, threaded);
    let rows: Vec<serde_json::Value> = lines.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let by_event = |event: &str| rows.iter().find(|row| row["headers"]["Event"] == event).unwrap();
    let texts = |value: &serde_json::Value| -> Vec<String> {
        value.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
    };
    for game in generated() {
        let row = by_event(&game.event);
        assert_eq!(row["headers"]["Variant"], game.variant.pgn_name(), "{}", game.event);
        assert_eq!(texts(&row["uci"]), game.uci, "{}", game.event);
        assert_eq!(texts(&row["san"]), game.san, "{}", game.event);
        assert!(row["error"].is_null());
    }
    let broken = by_event("broken zh");
    assert_eq!(texts(&broken["uci"]), ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "P@d5", "a5a2"]);
    assert!(broken["error"].as_str().unwrap().contains("Q@e9"), "{broken}");
    let zh = by_event("zh");
    assert_eq!(texts(&zh["san"]), ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "@d5", "@e6"]);
    let unknown = by_event("bughouse");
    assert!(unknown["error"].as_str().unwrap().contains("unsupported variant"), "{unknown}");
    assert_eq!(unknown["headers"]["Variant"], "Bughouse");

    let (_, csv, _) = run(&["pgn", "--threads", "2", "--export", "csv", &input]);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let variant = header.iter().position(|&name| name == "Variant").expect("a Variant column");
    let zh_row = csv.lines().find(|line| line.starts_with("zh,")).unwrap();
    assert_eq!(zh_row.split(',').nth(variant), Some("Crazyhouse"));
    assert!(zh_row.contains("P@d5 P@e6"), "{zh_row}");
}

/// `pgn filter` reads variant games, checks them by their rules and writes them back: a tag
/// condition on `Variant`, the length, `--dedupe` across copies (a variant game is not the
/// chess game of the same moves), `--eco` (variant games keep their tags), `--position`
/// (which no variant game meets); one thread and three keep the same games.
#[test]
fn filter_keeps_variant_games_by_their_rules() {
    let (dir, input) = setup("filter");
    let twice = dir.join("twice.pgn");
    fs::write(&twice, database().repeat(2)).unwrap();
    let twice = twice.to_str().unwrap();
    let zh = generated().into_iter().filter(|game| game.variant == Variant::Crazyhouse).count() + 1;
    for threads in ["1", "3"] {
        let (code, out, err) = run(&["pgn", "filter", "--threads", threads, "--tag", "Variant = Crazyhouse", &input]);
        assert_eq!(code, 0, "{err}");
        let mut reader = PgnReader::from_bytes(out.as_str());
        let kept: Vec<AnyGame> =
            std::iter::from_fn(|| reader.next_any_game().transpose()).map(Result::unwrap).collect();
        assert_eq!(kept.len(), zh, "{err}");
        assert!(kept.iter().all(|game| game.variant() == Variant::Crazyhouse));
        assert!(err.contains("game 2:") && err.contains("game 3:"), "broken games reported: {err}");

        let (_, out, err) = run(&["pgn", "filter", "--threads", threads, "--dedupe", "--eco", twice]);
        let all = read_back(&database()).into_iter().filter_map(Result::ok).collect::<Vec<_>>();
        // The chess game after each generated one is one game, written once.
        let distinct = all.len() - (VARIANTS.len() * PER_VARIANT - 1);
        assert!(err.contains(&format!("{distinct} of {} games written", 2 * (all.len() + 3))), "{err}");
        let kept = read_back(&out);
        let variant_games: Vec<&String> =
            kept.iter().filter_map(|game| game.as_ref().ok()).filter(|pgn| pgn.contains("[Variant \"")).collect();
        assert!(variant_games.iter().all(|pgn| !pgn.contains("[ECO")), "variant games keep their tags");
        assert!(kept.iter().any(|game| game.as_ref().is_ok_and(|pgn| pgn.contains("[ECO"))), "chess games are named");

        let (_, out, err) = run(&["pgn", "filter", "--threads", threads, "--position", "startpos", &input]);
        assert!(err.contains(&format!("{} of ", 1 + VARIANTS.len() * PER_VARIANT)), "{err}");
        assert!(!out.contains("[Variant"), "{out}");
    }
}
