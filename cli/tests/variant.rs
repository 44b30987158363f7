//! `--variant NAME` on `perft`, `moves`, `fen`, `san`, `play` and `validate`: the lichess
//! variants read, played and written, with the expected figures from the published perft
//! results and python-chess 1.11.2.

use std::process::Command;

/// Exit status, standard output, standard error.
fn run(args: &[&str]) -> (i32, String, String) {
    run_with_input(args, b"")
}

/// Like `run`, with `input` on standard input.
fn run_with_input(args: &[&str], input: &[u8]) -> (i32, String, String) {
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
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// The output of a command that must succeed.
fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

/// The message of a command that must fail with status 1.
fn fails(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 1, "{args:?}: {out}");
    err
}

/// Perft of each start position at depth 3, as shakmaty, python-chess and Fairy-Stockfish
/// publish it.
const START_PERFT_3: [(&str, u64); 9] = [
    ("standard", 8_902),
    ("chess960", 8_902),
    ("atomic", 8_902),
    ("antichess", 8_067),
    ("crazyhouse", 8_902),
    ("kingofthehill", 8_902),
    ("threecheck", 8_902),
    ("horde", 1_274),
    ("racingkings", 11_264),
];

/// The last line of perft's output: the count.
fn count(out: &str) -> u64 {
    out.lines().last().unwrap().parse().unwrap()
}

#[test]
fn perft_counts_every_start_position() {
    for (variant, expected) in START_PERFT_3 {
        // A lone number is the depth from the variant's start position.
        assert_eq!(count(&ok(&["perft", "--variant", variant, "3"])), expected, "{variant}");
        let out = ok(&["perft", "--variant", variant, "startpos", "3", "--divide"]);
        assert_eq!(count(&out), expected, "{variant}");
        let listed: u64 = out
            .lines()
            .filter_map(|l| l.split_once(": "))
            .filter(|(mv, _)| !mv.starts_with("depth"))
            .map(|(_, n)| n.parse::<u64>().unwrap())
            .sum();
        assert_eq!(listed, expected, "{variant}: {out}");
        let timing = out.lines().rev().nth(1).unwrap();
        assert!(timing.starts_with(&format!("depth 3: {expected} nodes in ")), "{timing}");
    }
}

#[test]
fn perft_from_a_crazyhouse_fen_counts_drops() {
    // After 1. e4 d5 2. exd5 Qxd5: python-chess counts 4715 leaves at depth 2.
    let fen = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3";
    assert_eq!(count(&ok(&["perft", "--variant", "crazyhouse", fen, "2"])), 4_715);
}

#[test]
fn moves_lists_crazyhouse_drops_in_uci() {
    // python-chess: 63 legal moves, 34 of them pawn drops (not on the first or eighth rank).
    let fen = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3";
    let out = ok(&["moves", "--variant", "crazyhouse", fen]);
    assert_eq!(out.lines().count(), 63, "{out}");
    let drops: Vec<&str> = out.lines().filter(|l| l.contains('@')).collect();
    assert_eq!(drops.len(), 34, "{out}");
    assert!(drops.iter().all(|d| d.len() == 4 && d.starts_with("P@")), "{drops:?}");
    assert!(drops.contains(&"P@e4") && !drops.contains(&"P@e1") && !drops.contains(&"P@e8"), "{drops:?}");
    assert!(out.lines().any(|l| l == "e1e2"), "{out}");
    // The same position without --variant has no pocket to read.
    let err = fails(&["moves", fen]);
    assert!(err.starts_with("chesscore: invalid FEN"), "{err}");
}

#[test]
fn moves_follow_the_variant_rules() {
    // Antichess: the capture is compulsory.
    let out = ok(&["moves", "--variant", "antichess", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"]);
    assert_eq!(out, "e4d5\n");
    // Racing kings: no move gives check.
    let out = ok(&["moves", "--variant", "racingkings", "startpos"]);
    assert_eq!(out.lines().count(), 21, "{out}");
}

#[test]
fn san_and_uci_both_ways_in_crazyhouse() {
    let uci = ["e2e4", "d7d5", "e4d5", "d8d5", "P@e6"];
    let san = ["e4", "d5", "exd5", "Qxd5", "@e6"];
    let with = |command: &[&'static str], moves: &[&'static str]| {
        [command, &["--variant", "crazyhouse", "startpos"], moves].concat()
    };
    assert_eq!(ok(&with(&["san"], &uci)), san.map(|m| format!("{m}\n")).concat());
    assert_eq!(ok(&with(&["san", "--uci"], &san)), uci.map(|m| format!("{m}\n")).concat());
    // `P@e6` is SAN too; a drop of a piece the pocket lacks is illegal.
    assert_eq!(ok(&with(&["san"], &["e4", "d5", "exd5", "Qxd5", "P@e6"])).lines().last(), Some("@e6"));
    let err = fails(&with(&["san"], &["e4", "d5", "exd5", "Qxd5", "N@e6"]));
    assert_eq!(err, "chesscore: move 5 `N@e6`: illegal move\n");
}

#[test]
fn san_marks_a_decisive_variant_end_as_mate() {
    // Three-check, White with two checks given (lichess's counter): the third check wins.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +2+0";
    let out = ok(&["san", "--variant", "threecheck", fen, "e2e4", "d7d5", "f1b5"]);
    assert_eq!(out, "e4\nd5\nBb5#\n");
}

#[test]
fn fen_normalises_the_variant_forms() {
    // lichess's checks given (`+1+0`) become python-chess's remaining checks (`2+3`).
    let out =
        ok(&["fen", "--variant", "threecheck", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +1+0"]);
    assert_eq!(out, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+3 0 2\n");
    // lichess's ninth row for the pocket becomes brackets.
    let out = ok(&["fen", "--variant", "crazyhouse", "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Nq w KQkq - 0 1"]);
    assert_eq!(out, "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nq] w KQkq - 0 1\n");
    // Each start position as python-chess writes it.
    let out = ok(&["fen", "--variant", "horde", "startpos"]);
    assert_eq!(out, "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1\n");
    let out = ok(&["fen", "--variant", "racingkings", "startpos"]);
    assert_eq!(out, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1\n");
}

#[test]
fn fen_options_of_chess_alone_are_refused_for_a_variant() {
    let err = fails(&["fen", "--binary", "--variant", "atomic", "startpos"]);
    assert_eq!(err, "chesscore: --binary is not available for atomic\n");
    let err = fails(&["fen", "--shredder", "--variant", "horde", "startpos"]);
    assert_eq!(err, "chesscore: --shredder is not available for horde\n");
    let err = fails(&["san", "--strict", "--variant", "atomic", "startpos", "e4"]);
    assert_eq!(err, "chesscore: --strict is not available for atomic\n");
    let err = fails(&["play", "--allow-null", "--variant", "crazyhouse", "startpos", "Z0"]);
    assert_eq!(err, "chesscore: --allow-null is not available for crazyhouse\n");
}

#[test]
fn an_unknown_variant_name_lists_the_names() {
    for command in [
        &["perft", "--variant", "shogi", "2"][..],
        &["moves", "--variant", "shogi", "startpos"],
        &["fen", "--variant", "shogi", "startpos"],
        &["san", "--variant", "shogi", "startpos", "e4"],
        &["play", "--variant", "shogi", "startpos", "e4"],
        &["validate", "--variant", "shogi", "startpos"],
    ] {
        let (code, out, err) = run(command);
        assert_eq!(code, 2, "{command:?}: {out}");
        assert!(err.contains("unknown variant `shogi`"), "{err}");
        for (name, _) in START_PERFT_3 {
            assert!(err.contains(name), "{name}: {err}");
        }
        assert!(err.contains("giveaway, 3check, koth"), "{err}");
    }
    // --chess960 and a variant contradict each other.
    let (code, _, err) = run(&["fen", "--chess960", "--variant", "atomic", "startpos"]);
    assert!(code == 2 && err.contains("cannot be used with"), "{err}");
}

#[test]
fn validate_reports_a_fen_invalid_for_the_variant() {
    // Horde: White has no king.
    let horde_king = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPKPPP w kq - 0 1";
    let err = fails(&["validate", "--variant", "horde", horde_king]);
    assert_eq!(err, "chesscore: invalid horde FEN: horde needs no king for White\n");
    // Racing kings: no side may be in check, not even the side to move.
    let check = "k7/8/8/8/8/8/8/K6r w - - 0 1";
    assert_eq!(ok(&["validate", check]), "valid\n");
    let err = fails(&["validate", "--variant", "racingkings", check]);
    assert!(err.starts_with("chesscore: invalid racingkings FEN: ") && err.contains("in check"), "{err}");
    // A pocket belongs to crazyhouse; malformed fields name their field.
    let err = fails(&["validate", "--variant", "atomic", "8/8/8/8/8/8/8/K6k[Q] w - - 0 1"]);
    assert!(err.starts_with("chesscore: invalid atomic FEN: invalid pocket"), "{err}");
    let err = fails(&["validate", "--variant", "threecheck", "8/8/8/8/8/8/8/K6k w - - 4+0 0 1"]);
    assert_eq!(err, "chesscore: invalid threecheck FEN: invalid three-check counter\n");
    let err = fails(&["validate", "--variant", "crazyhouse", "8/8/8/8/8/8/8/K6k[] x - - 0 1"]);
    assert!(err.starts_with("chesscore: invalid crazyhouse FEN (side to move): "), "{err}");
    // Atomic allows kings to touch; antichess any number of kings.
    assert_eq!(ok(&["validate", "--variant", "atomic", "8/8/8/8/8/8/8/Kk6 w - - 0 1"]), "valid\n");
    assert_eq!(ok(&["validate", "--variant", "antichess", "8/8/8/8/8/8/8/KKK5 w - - 0 1"]), "valid\n");
}

#[test]
fn play_reaches_a_variant_end() {
    // King of the hill: the king on d4 wins; no move follows.
    let fen = "4k3/8/8/8/8/3K4/8/R7 w - - 0 1";
    let out = ok(&["play", "--variant", "kingofthehill", fen, "Kd4"]);
    assert_eq!(out, "4k3/8/8/8/3K4/8/8/R7 b - - 1 1\n1-0 variant loss\n");
    let err = fails(&["play", "--variant", "kingofthehill", fen, "Kd4", "Kd8"]);
    assert_eq!(err, "chesscore: move 2 `Kd8`: game is over (variant loss)\n");
    // In chess the same moves go on.
    assert_eq!(ok(&["play", fen, "Kd4", "Kd8"]), "3k4/8/8/8/3K4/8/8/R7 w - - 2 2\n* ongoing\n");
    // Three-check: the third check.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +2+0";
    let out = ok(&["play", "--variant", "threecheck", fen, "e4", "d5", "Bb5+"]);
    assert_eq!(out, "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 0+3 1 2\n1-0 variant loss\n");
    // Atomic: a capture explodes the capturer.
    let out = ok(&["play", "--variant", "atomic", "startpos", "e4", "d5", "exd5"]);
    assert_eq!(out, "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2\n* ongoing\n");
}

#[test]
fn aliases_and_names_choose_the_same_rules() {
    for (alias, name) in [("giveaway", "antichess"), ("3check", "threecheck"), ("koth", "kingofthehill")] {
        let by_alias = ok(&["moves", "--variant", alias, "startpos"]);
        assert_eq!(by_alias, ok(&["moves", "--variant", name, "startpos"]), "{alias}");
        assert_eq!(ok(&["fen", "--variant", alias, "startpos"]), ok(&["fen", "--variant", name, "startpos"]));
    }
    // Three-check's start position is not chess's (the counter), antichess's has no castling.
    assert_eq!(
        ok(&["fen", "--variant", "3check", "startpos"]),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1\n"
    );
    assert_eq!(
        ok(&["fen", "--variant", "giveaway", "startpos"]),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n"
    );
}

#[test]
fn standard_and_chess960_keep_the_chess_commands() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for command in [
        &["moves", kiwipete][..],
        &["fen", "--binary", kiwipete],
        &["play", "startpos", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"],
    ] {
        let chess = ok(command);
        let standard = ok(&[command, &["--variant", "standard"]].concat());
        assert_eq!(standard, chess, "{command:?}");
    }
    let frc = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    for command in [&["moves", frc][..], &["fen", "--shredder", frc], &["perft", frc, "2"]] {
        let chess960 = ok(&[command, &["--chess960"]].concat());
        let named = ok(&[command, &["--variant", "chess960"]].concat());
        assert_eq!(
            named.lines().filter(|l| !l.starts_with("depth")).collect::<Vec<_>>(),
            chess960.lines().filter(|l| !l.starts_with("depth")).collect::<Vec<_>>(),
            "{command:?}"
        );
    }
    // Castling king-takes-rook, as --chess960 prints it.
    let corners = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert!(ok(&["moves", "--variant", "chess960", corners]).lines().any(|l| l == "e1h1"));
    assert!(ok(&["moves", "--variant", "standard", corners]).lines().any(|l| l == "e1g1"));
}

#[test]
fn startpos_and_standard_input_stand_for_a_variant_fen() {
    let start = ok(&["fen", "--variant", "crazyhouse", "startpos"]);
    assert_eq!(start, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n");
    for input in [start.as_str(), "\n  \nstartpos\n"] {
        let (code, out, err) = run_with_input(&["fen", "--variant", "crazyhouse", "-"], input.as_bytes());
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, start);
    }
    let (code, out, err) = run_with_input(&["perft", "--variant", "horde", "-", "3"], b"startpos\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(count(&out), 1_274);
}

/// A `Variant` tag selects the rules `pgn` replays a game by; a name the library does not play
/// is a broken game.
#[test]
fn pgn_replays_each_game_by_its_variant_tag() {
    let pgn = "[Variant \"Atomic\"]\n\n1. e4 e5 2. Nf3 d5 3. Nxe5 *\n\n\
               [Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. @e6 *\n\n\
               [Variant \"King of the Hill\"]\n[FEN \"8/8/8/8/8/2K5/8/6k1 w - - 0 1\"]\n\n1. Kd4# 1-0\n\n\
               [Variant \"Shogi\"]\n\n1. e4 *\n";
    let (code, out, err) = run_with_input(&["pgn", "--fen", "-"], pgn.as_bytes());
    assert_eq!(code, 1, "{err}");
    let fens: Vec<&str> = out.lines().collect();
    assert_eq!(
        fens,
        [
            "rnbqkbnr/ppp2ppp/8/3p4/4P3/8/PPPP1PPP/RNBQKB1R b KQkq - 0 3",
            "rnb1kbnr/ppp1pppp/4P3/3q4/8/8/PPPP1PPP/RNBQKBNR[p] b KQkq - 1 3",
            "8/8/8/8/3K4/8/8/6k1 b - - 1 1",
            "# game 4: unsupported variant \"Shogi\"",
        ]
    );
    assert!(err.contains("4 games, 1 broken, 11 plies"), "{err}");
}

/// `epd --variant`: lines of crazyhouse (pockets, drops in `bm` and `pv`) and three-check (the
/// counter field) listed as the library writes them; a line the variant refuses fails the file;
/// without `--variant` the same crazyhouse line is no chess position.
#[test]
fn epd_checks_variant_lines() {
    let zh = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R/Qp w KQkq - bm Q@d4 Q@e2; pv Q@e2 P@d4;\n";
    let (code, out, err) = run_with_input(&["epd", "--variant", "crazyhouse", "-"], zh.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "line 1: ok r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] w KQkq -\n  bm Q@d4 Q@e2;\n  pv Q@e2 @d4;\n"
    );
    let tc = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+1 bm Bc4;\nrnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - bm Bc4;\n";
    let (code, out, err) = run_with_input(&["epd", "--variant", "3check", "-"], tc.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("line 1: ok rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+1\n  bm Bc4;\n"),
        "{out}"
    );
    assert!(out.contains("line 2: ok rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 3+3\n"), "{out}");
    let (code, _, err) = run_with_input(&["epd", "--variant", "atomic", "-"], zh.as_bytes());
    assert_eq!(code, 1);
    assert!(err.contains("line 1: error: invalid position: invalid pocket"), "{err}");
    let (code, _, err) = run_with_input(&["epd", "-"], zh.as_bytes());
    assert_eq!(code, 1);
    assert!(err.contains("line 1: error"), "{err}");
}
