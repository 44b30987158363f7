//! Variant games (`VariantGame`, `PgnReader::next_any_game`) against python-chess 1.11.2:
//! repetitions and claimable draws on games made to repeat, and PGN both ways (python-chess's
//! read by us, ours read by python-chess).

use std::process::Command;

use chesscore_core::game::{Dedupe, GameDigest, GameFilter};
use chesscore_core::pgn::{PgnReader, WriteOptions};
use chesscore_core::variant::{AnyGame, Variant, VariantGame, VariantPosition};
use chesscore_core::{Game, Outcome, Position, Termination};
use chesscore_test_support as common;

const VARIANTS: [&str; 7] =
    ["atomic", "antichess", "crazyhouse", "kingofthehill", "threecheck", "horde", "racingkings"];

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/variant").join(name)
}

fn run_python(python: &std::path::Path, script: &str, args: &[&str]) -> String {
    let output = Command::new(python)
        .arg("-c")
        .arg(script)
        .args(args)
        .env("PYTHONHASHSEED", "0")
        .current_dir(data(""))
        .output()
        .expect("run python");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// python-chess's name of a termination (`FIVEFOLD_REPETITION`), ours as it prints it.
fn termination_name(termination: Termination) -> String {
    let mut name = String::new();
    for c in format!("{termination:?}").chars() {
        if c.is_ascii_uppercase() && !name.is_empty() {
            name.push('_');
        }
        name.push(c.to_ascii_uppercase());
    }
    name.replace("SEVENTY_FIVE", "SEVENTYFIVE")
}

/// Games that shuffle pieces back and forth (mostly moves that neither capture nor move a
/// pawn, with now and then any move), from the start position and from positions of the
/// generated games, with python-chess's repetition count, claims and outcome after every move.
const REPEATING_GAMES: &str = r#"
import json, random, sys, chess, chess.variant
rng = random.Random(38)
for name in sys.argv[1:]:
    cls = chess.variant.find_variant(name)
    starts = [cls().fen()]
    for line in list(open(f"{name}.games"))[:12]:
        data = json.loads(line)
        board = cls(data["start"])
        for uci, *_ in data["plies"][: len(data["plies"]) // 2]:
            board.push(chess.Move.from_uci(uci))
        starts.append(board.fen())
    for start in starts:
        board = cls(start)
        plies = []
        for _ in range(60):
            moves = list(board.legal_moves)
            if not moves or board.is_variant_end():
                break
            quiet = [m for m in moves if not board.is_zeroing(m) and m.drop is None]
            back = [m for m in quiet if len(board.move_stack) >= 2
                    and (m.to_square, m.from_square) == (board.move_stack[-2].from_square, board.move_stack[-2].to_square)]
            if back and rng.random() < 0.7:
                move = back[0]
            else:
                move = rng.choice(quiet if quiet and rng.random() < 0.9 else moves)
            board.push(move)
            count = max(k for k in range(1, 6) if k == 1 or board.is_repetition(k))
            outcome = board.outcome()
            plies.append([move.uci(), count, board.can_claim_threefold_repetition(),
                          board.can_claim_fifty_moves(),
                          outcome.termination.name if outcome else None,
                          outcome.result() if outcome else "*"])
        print(json.dumps({"variant": name, "start": start, "plies": plies}))
"#;

#[test]
fn repetitions_and_claims_match_python_chess() {
    let Some(python) = common::python("variant games: repetitions") else { return };
    let (mut plies, mut repeated, mut threefold, mut fivefold) = (0, 0, 0, 0);
    for line in run_python(&python, REPEATING_GAMES, &VARIANTS).lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let variant = Variant::from_name(record["variant"].as_str().unwrap()).unwrap();
        let start = VariantPosition::from_fen(variant, record["start"].as_str().unwrap()).expect("a start FEN");
        let mut game = VariantGame::new(start);
        for ply in record["plies"].as_array().unwrap() {
            let uci = ply[0].as_str().unwrap();
            let context = format!("{variant} {} {uci}", game.position());
            game.push_uci(uci).unwrap_or_else(|e| panic!("{context}: {e}"));
            let count = ply[1].as_u64().unwrap() as usize;
            assert_eq!(game.repetition_count().min(5), count, "{context}: repetitions");
            assert_eq!(game.is_repetition(), count >= 2, "{context}: is_repetition");
            assert_eq!(game.can_claim_threefold_repetition(), ply[2].as_bool().unwrap(), "{context}: threefold claim");
            let termination = game.termination();
            assert_eq!(termination.map(termination_name).as_deref(), ply[4].as_str(), "{context}: termination");
            assert_eq!(game.outcome().as_pgn(), ply[5].as_str().unwrap(), "{context}: outcome");
            if termination.is_none() {
                let fifty = ply[3].as_bool().unwrap();
                let claim = game.claimable_draw();
                assert_eq!(claim == Some(Termination::FiftyMoves), fifty, "{context}: fifty-move claim {claim:?}");
            }
            plies += 1;
            repeated += usize::from(count >= 2);
            threefold += usize::from(count >= 3);
            fivefold += usize::from(count >= 5);
        }
    }
    // The walk must have met what it tests.
    assert!(
        plies > 5_000 && repeated > 500 && threefold > 100 && fivefold > 10,
        "{plies} {repeated} {threefold} {fivefold}"
    );
}

/// The generated games as python-chess writes them (a variation and comments on some), read
/// as whole games, written by us and read back by python-chess as the same games.
#[test]
fn pgn_both_ways_with_python_chess() {
    let Some(python) = common::python("variant games: PGN") else { return };
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/python_chess_variant_pgn.py");
    let output = Command::new(&python).arg(script).args(VARIANTS).output().expect("run python");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let theirs = String::from_utf8(output.stdout).expect("UTF-8 PGN");
    let mut reader = PgnReader::from_bytes(theirs.as_bytes());
    let mut ours = String::new();
    let mut games = 0;
    while let Some(game) = reader.next_any_game().expect("a game") {
        let AnyGame::Variant(game) = game else { panic!("a variant game read as chess") };
        let variant = game.position().variant();
        assert_eq!(game.tag("Variant"), Some(variant.pgn_name()));
        // Written as read: the text python-chess gave each move.
        let written: Vec<String> = game.mainline_san().map(|san| san.as_str().to_owned()).collect();
        let made: Vec<String> = game.san_moves().map(|san| san.to_string()).collect();
        assert_eq!(written, made, "{variant}: SAN as python-chess wrote it");
        let result = Outcome::from_pgn(game.tag("Result").unwrap()).unwrap();
        assert_eq!(game.effective_result(), result);
        game.write_pgn(&mut ours, &WriteOptions::default()).unwrap();
        ours.push('\n');
        games += 1;
    }
    assert_eq!(games, 30 * VARIANTS.len());

    // python-chess reads our text as the games it wrote: the same main line, variation and
    // comments, tags and final position.
    let path = std::env::temp_dir().join(format!("chesscore-variant-games-{}.pgn", std::process::id()));
    std::fs::write(&path, &ours).unwrap();
    let compare = r#"
import sys, chess.pgn
def summary(game):
    board = game.end().board()
    main = [n.move.uci() for n in game.mainline()]
    first = game.next()
    side = [v.move.uci() for v in first.variations[1:]] if first else []
    comments = [n.comment for n in game.mainline() if n.comment]
    # python-chess writes a FEN tag for a variant's own start position too; we do not.
    headers = {k: v for k, v in game.headers.items() if k not in ("FEN", "SetUp")}
    return (type(board).__name__, headers, main, side, comments, board.fen(), game.errors)
def games(path):
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            yield summary(game)
print(list(games(sys.argv[1])) == list(games(sys.argv[2])))
"#;
    let theirs_path = std::env::temp_dir().join(format!("chesscore-variant-theirs-{}.pgn", std::process::id()));
    std::fs::write(&theirs_path, &theirs).unwrap();
    let same = run_python(&python, compare, &[path.to_str().unwrap(), theirs_path.to_str().unwrap()]);
    let _ = (std::fs::remove_file(&path), std::fs::remove_file(&theirs_path));
    assert_eq!(same.trim(), "True", "python-chess reads our PGN as a different game");
}

/// Built move by move, written and read back: the variant tag and FEN (only for a start that
/// is not the variant's own), drops, and `#` for a decisive variant end.
#[test]
fn built_games_round_trip() {
    let mut zh = VariantGame::new(VariantPosition::new(Variant::Crazyhouse));
    for san in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "P@d5", "P@e6"] {
        zh.push_san(san).unwrap();
    }
    let pgn = zh.to_pgn();
    assert!(pgn.contains("[Variant \"Crazyhouse\"]") && !pgn.contains("[FEN"), "{pgn}");
    assert!(pgn.contains("4. @d5 @e6 *"), "{pgn}");
    let Some(AnyGame::Variant(back)) = PgnReader::from_bytes(pgn.as_bytes()).next_any_game().unwrap() else {
        panic!("a variant game")
    };
    assert_eq!(back.position(), zh.position());
    assert_eq!(back.moves().collect::<Vec<_>>(), zh.moves().collect::<Vec<_>>());

    let start = VariantPosition::from_fen(Variant::ThreeCheck, "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1").unwrap();
    let mut checks = VariantGame::new(start);
    for san in ["Ra8+", "Kd7", "Ra7+", "Kc6", "Ra6+"] {
        checks.push_san(san).unwrap();
    }
    assert_eq!(checks.termination(), Some(Termination::VariantLoss));
    assert_eq!(checks.outcome(), Outcome::WhiteWins);
    checks.set_result(Some(checks.outcome()));
    let pgn = checks.to_pgn();
    assert!(
        pgn.contains("[Variant \"Three-check\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("3. Ra6# 1-0"), "{pgn}");
    let Some(AnyGame::Variant(back)) = PgnReader::from_bytes(pgn.as_bytes()).next_any_game().unwrap() else {
        panic!("a variant game")
    };
    assert_eq!(back.outcome(), Outcome::WhiteWins);
    assert!(checks.push_san("Kb5").is_err(), "no move after the end");
    assert!(checks.push(chesscore_core::Move::NULL).is_err(), "no null move in a variant");
}

/// A database mixing chess, Chess960 and variant games: each read as its kind, broken ones
/// reported with their number and the next one read.
#[test]
fn mixed_database() {
    let pgn = "[Variant \"Atomic\"]\n\n1. e4 d5 2. exd5 *\n\n\
               [Event \"plain\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
               [Variant \"Horde\"]\n\n1. e5 Kxe5 *\n\n\
               [Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. g3 *\n\n\
               [Variant \"Racing Kings\"]\n\n1. Kh3 *\n";
    let mut reader = PgnReader::from_bytes(pgn);
    let atomic = reader.next_any_game().unwrap().unwrap();
    assert_eq!(atomic.variant(), Variant::Atomic);
    let chess = reader.next_any_game().unwrap().unwrap();
    let AnyGame::Chess(ref chess_game) = chess else { panic!("a chess game") };
    assert_eq!(chess_game.outcome(), Outcome::WhiteWins);
    assert_eq!(chess.tags().get("Event"), Some("plain"));
    let broken = reader.next_any_game().expect_err("Kxe5 is no horde move");
    assert_eq!(broken.game, 3);
    assert!(broken.partial.is_none() && broken.variant_partial.is_some());
    assert_eq!(reader.next_any_game().unwrap().unwrap().variant(), Variant::Chess960);
    let racing = reader.next_any_game().unwrap().unwrap();
    assert_eq!(racing.variant(), Variant::RacingKings);
    assert!(racing.to_pgn().contains("1. Kh3 *"));
    assert!(reader.next_any_game().unwrap().is_none());
}

/// A variant game meets the conditions on tags, result and length, checkmate and stalemate by
/// its own rules, and no position or material condition; its digest is not that of the chess
/// game with the same moves.
#[test]
fn variant_games_meet_the_conditions_of_any_game() {
    // King of the hill: Black's king reaches e5 and wins, which is no checkmate.
    let mut koth = VariantGame::new(VariantPosition::new(Variant::KingOfTheHill));
    let mut chess = Game::default();
    for san in ["d4", "e5", "dxe5", "Ke7", "Kd2", "Ke6", "Kd3", "Kxe5"] {
        koth.push_san(san).unwrap();
        chess.push_san(san).unwrap();
    }
    koth.set_tag("White", "Hill, Kim").unwrap();
    koth.set_result(Some(koth.outcome()));
    let mut filter = GameFilter::new();
    filter.player("Hill*").min_plies(8).max_plies(8).result(Outcome::BlackWins);
    assert!(filter.matches(&koth));
    assert!(!filter.clone().max_plies(7).matches(&koth));
    assert!(!filter.clone().result(Outcome::Draw).matches(&koth));
    assert!(!filter.clone().checkmate().matches(&koth), "a king on the hill is no checkmate");
    assert!(!filter.clone().stalemate().matches(&koth));
    assert!(!filter.clone().position(&Position::startpos()).matches(&koth));
    assert!(!filter.clone().material("KQRRBBNNPPPPPPPvKQRRBBNNPPPPPPP".parse().unwrap()).matches(&koth));
    // The chess game with the same moves: the position and material conditions hold there.
    let material = "KQRRBBNNPPPPPPPvKQRRBBNNPPPPPPP".parse().unwrap();
    assert!(GameFilter::new().position(&Position::startpos()).material(material).matches(&chess));
    assert_ne!(GameDigest::of(&koth), GameDigest::of(&chess));
    assert_eq!(GameDigest::of(&koth), GameDigest::of(&koth.clone()));
    let mut seen = Dedupe::new();
    assert!(seen.first(&koth) && seen.first(&chess) && !seen.first(&koth));
}
