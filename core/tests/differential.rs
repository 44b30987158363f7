//! Differential testing at scale against python-chess (installed by `.ci/run`): random and
//! capture-biased games from many start positions, compared ply by ply: legal moves, SAN of
//! every legal move, FEN, Polyglot key, check/mate/stalemate/material, fifty-move and
//! repetition claims. Any mismatch prints the FEN and the difference.

use chesscore_test_support as common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use chesscore_core::{FenOptions, Game, Move, Position, San, Uci};
use serde_json::{json, Value};

const MIN_PLIES: usize = 20_000;

/// Start positions: the standard start, every seventh dev vector, and some Chess960 starts.
fn starts() -> Vec<Position> {
    let mut starts = vec![Position::startpos()];
    let options = FenOptions { allow_impossible_check: true, ..FenOptions::default() };
    for line in common::lines("vectors/dev.jsonl").iter().step_by(7) {
        let v: Value = serde_json::from_str(line).unwrap();
        let pos = Position::from_fen_with(v["fen"].as_str().unwrap(), &options).unwrap().0;
        if pos.checkers().count() <= 2 {
            starts.push(pos);
        }
    }
    starts.extend((0..960).step_by(37).map(|n| Position::chess960_start(n).unwrap()));
    starts
}

/// A random game: captures preferred half of the time, and now and then a move that undoes
/// the side's previous move, so that repetitions happen.
fn random_game(start: Position, rng: &mut common::Rng, max_plies: usize) -> Vec<Move> {
    let mut pos = start;
    let mut moves: Vec<Move> = Vec::new();
    while moves.len() < max_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let back = moves.len().checked_sub(2).map(|i| moves[i]);
        let undo = back.and_then(|b| legal.iter().copied().find(|m| m.from() == b.to() && m.to() == b.from()));
        let captures: Vec<Move> =
            legal.iter().copied().filter(|m| pos.piece_at(m.to()).is_some() || m.is_en_passant()).collect();
        let mv = match (undo, rng.below(100)) {
            (Some(mv), r) if r < 30 => mv,
            (_, r) if r < 50 && !captures.is_empty() => captures[rng.below(captures.len())],
            _ => legal[rng.below(legal.len())],
        };
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    moves
}

fn our_flags(game: &Game) -> Vec<bool> {
    let pos = game.position();
    vec![
        pos.in_check(),
        pos.is_checkmate(),
        pos.is_stalemate(),
        pos.is_insufficient_material(),
        pos.is_fifty_moves(),
        pos.can_claim_fifty_moves(),
        game.is_threefold_repetition(),
        game.can_claim_threefold_repetition(),
        game.is_fivefold_repetition(),
        pos.is_seventy_five_moves(),
    ]
}

fn compare_ply(game: &Game, theirs: &Value, context: &str) {
    let pos = game.position();
    let fen = pos.to_fen();
    let mut legal: Vec<(String, Move)> =
        pos.legal_moves().iter().map(|&m| (Uci::from_move(pos, m).to_string(), m)).collect();
    legal.sort();
    let ucis: Vec<&str> = legal.iter().map(|(u, _)| u.as_str()).collect();
    let their_ucis: Vec<&str> = theirs["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(ucis, their_ucis, "legal moves differ at {fen} ({context})");
    for ((uci, mv), their_san) in legal.iter().zip(theirs["san"].as_array().unwrap()) {
        let san = San::from_move(pos, *mv).unwrap();
        assert_eq!(san.as_str(), their_san.as_str().unwrap(), "SAN of {uci} differs at {fen} ({context})");
    }
    assert_eq!(fen, theirs["fen"].as_str().unwrap(), "FEN differs ({context})");
    assert_eq!(format!("{:016x}", pos.zobrist()), theirs["key"].as_str().unwrap(), "key differs at {fen} ({context})");
    let their_flags: Vec<bool> = theirs["flags"].as_array().unwrap().iter().map(|f| f.as_bool().unwrap()).collect();
    assert_eq!(our_flags(game), their_flags, "flags [check, mate, stalemate, material, fifty, claim fifty, threefold, claim threefold, fivefold, seventy-five] differ at {fen} ({context})");
}

#[test]
fn random_games_agree_with_python_chess() {
    let Some(python) = common::python("differential: random games against python-chess") else { return };
    let mut rng = common::Rng(0xd1ff_e7e7_1a1b_0b0b);
    let mut games = Vec::new();
    let mut plies = 0;
    let starts = starts();
    for round in 0.. {
        if plies >= MIN_PLIES {
            break;
        }
        let start = starts[round % starts.len()];
        let length = 40 + rng.below(100);
        let moves = random_game(start, &mut rng, length);
        plies += moves.len();
        games.push((start, moves));
    }

    let mut oracle = Command::new(python)
        .arg(common::root().join("tests/oracle/python_chess_oracle.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the python-chess oracle");
    let mut input = oracle.stdin.take().unwrap();
    let requests: Vec<String> = games
        .iter()
        .map(|(start, moves)| {
            let ucis: Vec<String> = moves.iter().map(|&m| Uci::from_move(start, m).to_string()).collect();
            json!({"fen": start.to_fen(), "chess960": start.is_chess960(), "moves": ucis}).to_string()
        })
        .collect();
    let writer = std::thread::spawn(move || {
        for request in requests {
            writeln!(input, "{request}").unwrap();
        }
    });
    let mut answers = BufReader::new(oracle.stdout.take().unwrap()).lines();
    let mut compared = 0;
    // How often each flag was set, so that the test is known to exercise them.
    let mut flag_counts = [0usize; 10];
    for (index, (start, moves)) in games.iter().enumerate() {
        let answer = answers.next().expect("python-chess (pip install chess) answers every game").unwrap();
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert!(answer["error"].is_null(), "game {index}: python-chess: {}", answer["error"]);
        let their_plies = answer["plies"].as_array().unwrap();
        assert_eq!(their_plies.len(), moves.len() + 1);
        let mut game = Game::new(*start);
        for (ply, theirs) in their_plies.iter().enumerate() {
            compare_ply(&game, theirs, &format!("game {index} ply {ply}"));
            for (count, flag) in flag_counts.iter_mut().zip(our_flags(&game)) {
                *count += usize::from(flag);
            }
            compared += 1;
            if let Some(&mv) = moves.get(ply) {
                game.push(mv).unwrap();
            }
        }
    }
    writer.join().unwrap();
    assert!(oracle.wait().unwrap().success());
    assert!(compared >= MIN_PLIES, "{compared}");
    println!("{} games, {compared} positions compared with python-chess; flags set: {flag_counts:?}", games.len());
    // Checks, mates, threefold claims and repetitions all occurred.
    for i in [0, 1, 6, 7] {
        assert!(flag_counts[i] > 0, "flag {i} never set: {flag_counts:?}");
    }
}
