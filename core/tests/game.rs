//! Games against python-chess: the mainlines of the PGN test files replayed from their SAN,
//! and repetition, claim and outcome verdicts at every ply (`tests/data/game_claims.jsonl`,
//! made by `tests/data/gen_game_claims.py`).

use chesscore_test_support as common;

use std::path::Path;

use chesscore_core::game::{MoveTree, NodeId, TagError};
use chesscore_core::pgn::PgnReader;
use chesscore_core::{FenOptions, Game, Move, Outcome, Position, Termination, Uci};
use serde_json::Value;

fn start_position(fen: &str, chess960: bool) -> Position {
    let options = FenOptions { chess960, ..FenOptions::default() };
    Position::from_fen_with(fen, &options).unwrap_or_else(|e| panic!("{fen}: {e}")).0
}

/// Every mainline of the PGN test files `stems` of `dir`, read from its SAN: the same moves as
/// python-chess, the same SAN written back, the same final position, and undo back to the
/// start. Returns (games, plies).
fn replay_mainlines(dir: &Path, stems: &[&str]) -> (usize, usize) {
    let mut games = 0;
    let mut plies = 0;
    for file in stems {
        for line in common::lines_of(&dir.join(format!("{file}.expected.jsonl"))) {
            let v: Value = serde_json::from_str(&line).unwrap();
            let start = start_position(v["start_fen"].as_str().unwrap(), v["chess960"].as_bool().unwrap());
            let mut game = Game::new(start);
            game.set_allow_null_moves(true);
            let sans: Vec<&str> = v["mainline_san"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
            let ucis: Vec<&str> = v["mainline_uci"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
            for (san, uci) in sans.iter().zip(&ucis) {
                let mv = game.push_san(san).unwrap_or_else(|e| panic!("{file} #{}: {san}: {e}", v["index"]));
                let expected = Uci::from_move(&start, mv).to_string();
                assert_eq!(&expected, uci, "{file} #{}", v["index"]);
            }
            let written: Vec<String> = game.san_moves().map(|s| s.to_string()).collect();
            assert_eq!(written, sans, "{file} #{}", v["index"]);
            assert_eq!(game.position().to_fen(), v["final_fen"].as_str().unwrap(), "{file} #{}", v["index"]);
            plies += game.moves().len();
            while game.pop().is_some() {}
            assert_eq!(game.position(), &start);
            games += 1;
        }
    }
    (games, plies)
}

#[test]
fn generated_pgn_mainlines_replay_from_san() {
    let (games, plies) = replay_mainlines(&common::data("pgn"), &["dev_edge_cases", "dev_generated"]);
    assert!(games == 67 && plies > 3_000, "{games} games, {plies} plies");
}

#[test]
fn real_world_pgn_mainlines_replay_from_san() {
    let Some(shared) = common::shared_testdata("games: the lichess and TWIC excerpts") else { return };
    let (games, plies) = replay_mainlines(&shared.join("pgn"), &["lichess_db_100k", "twic1599_100k"]);
    assert!(games == 157 && plies > 10_000, "{games} games, {plies} plies");
}

fn termination_name(t: Termination) -> &'static str {
    match t {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::InsufficientMaterial => "insufficient_material",
        Termination::SeventyFiveMoves => "seventyfive_moves",
        Termination::FivefoldRepetition => "fivefold_repetition",
        Termination::FiftyMoves => "fifty_moves",
        Termination::ThreefoldRepetition => "threefold_repetition",
        Termination::VariantWin => "variant_win",
        Termination::VariantLoss => "variant_loss",
        Termination::VariantDraw => "variant_draw",
    }
}

/// (repetitions capped at 5, claim threefold, claim fifty, automatic termination) at a ply.
fn verdicts(game: &Game) -> (u64, bool, bool, Option<&'static str>) {
    (
        game.repetition_count().min(5) as u64,
        game.can_claim_threefold_repetition(),
        game.position().can_claim_fifty_moves(),
        game.termination().map(termination_name),
    )
}

#[test]
fn repetition_and_claims_agree_with_python_chess() {
    let path = common::data("game_claims.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let mut flagged = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let name = v["game"].as_str().unwrap();
        let mut game = Game::new(start_position(v["start_fen"].as_str().unwrap(), false));
        let moves: Vec<&str> = v["moves"].as_str().unwrap().split_whitespace().collect();
        let flags = v["flags"].as_array().unwrap();
        for ply in 0..=moves.len() {
            if ply > 0 {
                game.push_uci(moves[ply - 1]).unwrap();
            }
            let expected = match flags.iter().find(|f| f[0].as_u64() == Some(ply as u64)) {
                Some(f) => {
                    flagged += 1;
                    (f[1].as_u64().unwrap(), f[2].as_bool().unwrap(), f[3].as_bool().unwrap(), f[4].as_str())
                }
                None => (1, false, false, None),
            };
            let ours = verdicts(&game);
            assert_eq!((ours.0, ours.1, ours.2), (expected.0, expected.1, expected.2), "{name} ply {ply}");
            assert_eq!(ours.3, expected.3, "{name} ply {ply}");
        }
    }
    assert!(flagged > 300, "{flagged}");
}

/// The en passant subtlety: after 1...d5 the e5 pawn is pinned, so the d6 square (which the
/// Polyglot key counts) gives no capture and the position repeats the later ones without it.
#[test]
fn unusable_en_passant_square_does_not_prevent_repetition() {
    let play = |fen: &str| {
        let mut game = Game::new(Position::from_fen(fen).unwrap());
        game.push_san("d5").unwrap();
        let first = *game.position();
        for san in ["Nf3", "Nf5", "Ng1", "Ng7"] {
            game.push_san(san).unwrap();
        }
        (first, game)
    };
    let (first, game) = play("4r1k1/3p2n1/8/4P3/8/8/8/4K1N1 b - - 0 1");
    assert_eq!(first.en_passant(), Some(chesscore_core::Square::D6));
    assert_ne!(first.zobrist(), game.position().zobrist());
    assert_eq!(game.repetition_count(), 2);
    // Without the pin the capture is possible: a different position.
    let (_, game) = play("6k1/3p2n1/8/4P3/8/8/8/4K1N1 b - - 0 1");
    assert_eq!(game.repetition_count(), 1);
}

#[test]
fn claims_and_outcomes() {
    // Threefold by announcing the move: after the fourth shuffle move Nf6 would repeat again.
    let mut game = Game::default();
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        game.push_san(san).unwrap();
    }
    assert_eq!(game.repetition_count(), 2);
    assert!(!game.is_threefold_repetition());
    assert!(game.can_claim_threefold_repetition());
    assert_eq!(game.claimable_draw(), Some(Termination::ThreefoldRepetition));
    assert_eq!(game.outcome(), Outcome::Ongoing);

    let mut game = Game::new(Position::from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 149 90").unwrap());
    assert_eq!(game.claimable_draw(), Some(Termination::FiftyMoves));
    game.push_san("Ra2").unwrap();
    assert_eq!(game.termination(), Some(Termination::SeventyFiveMoves));
    assert_eq!(game.outcome(), Outcome::Draw);

    let mut game = Game::new(Position::from_fen("7k/Q7/6K1/8/8/8/8/8 w - - 149 90").unwrap());
    game.push_san("Qg7#").unwrap();
    assert_eq!(game.termination(), Some(Termination::Checkmate));
    assert_eq!(game.outcome(), Outcome::WhiteWins);

    // A null move is a barrier: positions before it are not compared with positions after.
    let mut game = Game::default();
    game.set_allow_null_moves(true);
    for mv in ["Nf3", "Nf6", "Ng1", "Ng8", "--", "--", "Nf3", "Nf6", "Ng1", "Ng8"] {
        game.push_san(mv).unwrap();
    }
    assert_eq!(game.repetition_count(), 2);
    assert!(game.moves().any(|mv| mv.is_null()));
}

// A game read from PGN and then changed move by move keeps its tree and its texts in step.

fn mainline(record: &Game) -> Vec<Move> {
    record.tree().mainline().map(|n| record.tree().mv(n).unwrap()).collect()
}

/// The main line as the game's moves give it, checked against its positions.
fn game_moves(game: &Game) -> Vec<Move> {
    let moves: Vec<Move> = game.moves().collect();
    assert_eq!(moves.len(), game.moves().len());
    for (ply, &mv) in moves.iter().enumerate() {
        let mut after = *game.position_at(ply).unwrap();
        after.play(mv).unwrap();
        assert_eq!(game.position_at(ply + 1), Some(&after));
    }
    assert_eq!(game.position_at(moves.len()), Some(game.position()));
    moves
}

#[test]
fn push_and_pop_keep_the_tree_on_the_main_line() {
    let pgn = "{start} 1. e4 {good} e5 (1... c5 {Sicilian} 2. Nf3) 2. Nf3 $1 Nc6 *";
    let mut record = PgnReader::from_bytes(pgn).next_game().unwrap().unwrap();
    let last = record.moves().nth(3).unwrap();
    assert_eq!(record.pop(), Some(last));
    assert_eq!(mainline(&record), game_moves(&record));
    assert_eq!(
        record.to_pgn().split_once("\n\n").unwrap().1,
        "{ start } 1. e4 { good } 1... e5 ( 1... c5 { Sicilian } 2. Nf3 ) 2. Nf3 $1 *\n"
    );
    record.push_san("Nc6").unwrap();
    record.push_uci("f1b5").unwrap();
    assert_eq!(mainline(&record), game_moves(&record));
    assert!(record.push_san("Ke3").is_err() && record.push_uci("e1e3").is_err());
    assert!(record.push(Move::NULL).is_ok());
    record.set_allow_null_moves(false);
    assert!(record.push(Move::NULL).is_err());
    while record.pop().is_some() {
        assert_eq!(mainline(&record), game_moves(&record));
    }
    assert_eq!(record.tree().move_count(), 0);
    assert_eq!(record.to_pgn().split_once("\n\n").unwrap().1, "{ start } *\n");
    record.push_san("d4").unwrap();
    assert_eq!(record.to_pgn().split_once("\n\n").unwrap().1, "{ start } 1. d4 *\n");
}

#[test]
fn moves_keep_their_text_as_written() {
    let pgn = "1. e2-e4 e5 (1... c7-c5?! 2. Ng1f3) 2. Nf3! Nc6 3. Bb5 *";
    let mut record = PgnReader::from_bytes(pgn).next_game().unwrap().unwrap();
    fn written(record: &Game) -> Vec<Option<&str>> {
        let tree = record.tree();
        (1..=tree.move_count()).map(|i| tree.written_san(tree_node(tree, i))).collect()
    }
    assert_eq!(
        written(&record),
        [Some("e2-e4"), Some("e5"), Some("c7-c5"), Some("Ng1f3"), Some("Nf3"), Some("Nc6"), Some("Bb5")]
    );
    assert_eq!(record.tree().written_san(NodeId::ROOT), None);
    // Popping the newest move drops its text; a rebuild keeps the others' text.
    record.pop();
    record.push_san("Bc4").unwrap();
    assert_eq!(written(&record)[5..], [Some("Nc6"), None]);
    record.pop();
    record.pop();
    assert_eq!(written(&record), [Some("e2-e4"), Some("e5"), Some("c7-c5"), Some("Ng1f3"), Some("Nf3")]);
}

/// The node of index `i` of `tree`, found by walking it.
fn tree_node(tree: &MoveTree, i: usize) -> NodeId {
    let mut stack = vec![NodeId::ROOT];
    while let Some(n) = stack.pop() {
        if n.index() == i {
            return n;
        }
        stack.extend(tree.children(n));
    }
    panic!("no node {i}")
}

#[test]
fn tags_are_set_and_removed_by_the_rules() {
    let mut record = Game::try_new(Position::startpos()).unwrap();
    assert_eq!(record.set_tag("White", "Morphy"), Ok(()));
    assert_eq!(record.set_tag("Event", "Paris \"Opera\""), Ok(()));
    assert_eq!(record.set_tag("White", "Paul Morphy"), Ok(()));
    assert_eq!(record.tags().iter().collect::<Vec<_>>(), [("White", "Paul Morphy"), ("Event", "Paris \"Opera\"")]);
    assert_eq!(record.set_tag("a b", "x"), Err(TagError::InvalidName));
    assert_eq!(record.set_tag("", "x"), Err(TagError::InvalidName));
    assert_eq!(record.set_tag("FEN", "8/8/8/8/8/8/8/8 w - - 0 1"), Err(TagError::StartPositionTag));
    assert!(record.remove_tag("White") && !record.remove_tag("White"));
    let back = PgnReader::from_bytes(record.to_pgn()).next_game().unwrap().unwrap();
    assert_eq!(back.tag("Event"), Some("Paris \"Opera\""));
    assert_eq!(back.tag("White"), Some("?"));
}
