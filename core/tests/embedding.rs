//! What an engine's search needs from the core: staged generation (captures, then quiets),
//! gives-check, zobrist-after, hash-move validation and SEE, checked on every position of the
//! vector sets and along random games; SEE also against a slow swap-off written here from its
//! definition alone.

use chesscore_test_support as common;

use std::collections::HashSet;

use chesscore_core::{Color, Epd, FenOptions, Game, Move, MoveKind, Piece, PieceKind, Position, Square, Uci};
use serde_json::Value;

/// Every position of the vector sets (`vectors/*.jsonl`, with each position after one move)
/// and of the repository's EPD files.
fn vector_positions() -> Vec<Position> {
    let mut positions = Vec::new();
    for (file, chess960) in [("vectors/dev.jsonl", false), ("vectors/dev960.jsonl", true)] {
        let options = FenOptions { chess960, allow_impossible_check: true, ..FenOptions::default() };
        for line in common::lines(file) {
            let v: Value = serde_json::from_str(&line).unwrap();
            let pos = Position::from_fen_with(v["fen"].as_str().unwrap(), &options).unwrap().0;
            positions.push(pos);
            for entry in v["moves"].as_array().unwrap() {
                positions.push(Position::from_fen_with(entry[2].as_str().unwrap(), &options).unwrap().0);
            }
        }
    }
    for line in common::lines("epd/dev_generated.epd") {
        if let Ok(epd) = Epd::parse(&line) {
            positions.push(*epd.position());
        }
    }
    assert!(positions.len() > 20_000, "{} positions", positions.len());
    positions
}

/// Positions along random games from the start position and a few sharp ones.
fn random_game_positions() -> Vec<Position> {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    ];
    let mut rng = common::Rng(0x5eed_1234_abcd_0001);
    let mut positions = Vec::new();
    for round in 0..40 {
        let mut pos = Position::from_fen(starts[round % starts.len()]).unwrap();
        for _ in 0..120 {
            positions.push(pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    positions
}

fn all_positions() -> Vec<Position> {
    let mut positions = vector_positions();
    positions.extend(random_game_positions());
    positions
}

fn is_capture_stage(pos: &Position, mv: Move) -> bool {
    mv.is_en_passant() || mv.promotion().is_some() || (!mv.is_castling() && pos.piece_at(mv.to()).is_some())
}

#[test]
fn captures_and_quiets_partition_the_legal_moves() {
    for pos in all_positions() {
        let captures = pos.legal_captures();
        let quiets = pos.legal_quiets();
        let legal: HashSet<Move> = pos.legal_moves().iter().copied().collect();
        let capture_set: HashSet<Move> = captures.iter().copied().collect();
        let quiet_set: HashSet<Move> = quiets.iter().copied().collect();
        assert_eq!(capture_set.len(), captures.len(), "duplicate capture in {pos:?}");
        assert_eq!(quiet_set.len(), quiets.len(), "duplicate quiet in {pos:?}");
        assert!(capture_set.is_disjoint(&quiet_set), "{pos:?}");
        assert_eq!(&capture_set | &quiet_set, legal, "{pos:?}");
        assert!(captures.iter().all(|&mv| is_capture_stage(&pos, mv)), "{pos:?}");
        assert!(quiets.iter().all(|&mv| !is_capture_stage(&pos, mv)), "{pos:?}");
        // Deterministic: each stage lists its moves in the order of the legal moves.
        let all = pos.legal_moves();
        let in_order = |capture: bool| -> Vec<Move> {
            all.iter().copied().filter(|&mv| is_capture_stage(&pos, mv) == capture).collect()
        };
        assert_eq!(captures.to_vec(), in_order(true), "{pos:?}");
        assert_eq!(quiets.to_vec(), in_order(false), "{pos:?}");
        // The array writers list the same moves in the same order.
        let mut out = [std::mem::MaybeUninit::<Move>::uninit(); 256];
        let n = pos.write_legal_captures(&mut out);
        // SAFETY: the first `n` entries were written.
        assert_eq!(out[..n].iter().map(|m| unsafe { m.assume_init() }).collect::<Vec<_>>(), captures.to_vec());
        let n = pos.write_legal_quiets(&mut out);
        // SAFETY: as above.
        assert_eq!(out[..n].iter().map(|m| unsafe { m.assume_init() }).collect::<Vec<_>>(), quiets.to_vec());
        assert_eq!(pos.has_legal_moves(), !legal.is_empty(), "{pos:?}");
    }
}

#[test]
fn staged_order_is_fixed() {
    let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let uci = |moves: &[Move]| moves.iter().map(|&m| Uci::from_move(&pos, m).to_string()).collect::<Vec<_>>();
    assert_eq!(uci(&pos.legal_captures()), ["e5g6", "e5d7", "e5f7", "e2a6", "f3h3", "f3f6", "g2h3", "d5e6"]);
    let quiets = uci(&pos.legal_quiets());
    assert_eq!(quiets.len(), 48 - 8);
    assert_eq!(&quiets[..3], ["e1d1", "e1f1", "c3b1"]);
    assert_eq!(&quiets[quiets.len() - 2..], ["e1g1", "e1c1"]);
}

#[test]
fn in_check_both_stages_hold_evasions_only() {
    // Check by the rook on e2: captures are Kxe2 and Nxe2 ... every listed move answers it.
    let pos = Position::from_fen("4k3/8/8/8/8/8/4r3/3NK2R w K - 0 1").unwrap();
    assert!(pos.in_check());
    let captures = pos.legal_captures();
    let quiets = pos.legal_quiets();
    for &mv in captures.iter().chain(quiets.iter()) {
        assert!(!pos.make_move(mv).attackers_to(pos.make_move(mv).king_square(Color::White), Color::Black).any());
    }
    let uci = |moves: &[Move]| moves.iter().map(|&m| Uci::from_move(&pos, m).to_string()).collect::<Vec<_>>();
    assert_eq!(uci(&captures), ["e1e2"]);
    assert_eq!(uci(&quiets), ["e1f1"]);
}

#[test]
fn gives_check_and_zobrist_after_match_the_move_made() {
    let mut checks = 0;
    for pos in all_positions() {
        for &mv in pos.legal_moves().iter() {
            let after = pos.make_move(mv);
            assert_eq!(pos.gives_check(mv), after.in_check(), "{} in {pos:?}", Uci::from_move(&pos, mv));
            assert_eq!(pos.zobrist_after(mv), after.zobrist(), "{} in {pos:?}", Uci::from_move(&pos, mv));
            checks += usize::from(after.in_check());
        }
    }
    assert!(checks > 1000, "only {checks} checking moves seen");
}

#[test]
fn check_squares_give_direct_checks() {
    for pos in random_game_positions() {
        let them = !pos.turn();
        let king = pos.king_square(them);
        for kind in PieceKind::ALL {
            for sq in pos.check_squares(kind) {
                // A piece of `kind` of ours put on `sq` would attack the king.
                assert!(kind != PieceKind::King && sq != king, "{pos:?}");
            }
        }
        for &mv in pos.legal_moves().iter().filter(|mv| mv.kind() == MoveKind::Normal) {
            let kind = pos.piece_at(mv.from()).unwrap().kind;
            let after = pos.make_move(mv);
            let direct = after.attackers_to(king, pos.turn()).contains(mv.to());
            assert_eq!(pos.check_squares(kind).contains(mv.to()), direct, "{pos:?}");
        }
    }
}

#[test]
fn attacks_by_is_the_union_of_attacked_squares() {
    for pos in random_game_positions().into_iter().step_by(7) {
        for color in Color::ALL {
            let expected = Square::ALL.into_iter().filter(|&sq| pos.attackers_to(sq, color).any());
            assert_eq!(pos.attacks_by(color).into_iter().collect::<Vec<_>>(), expected.collect::<Vec<_>>());
        }
    }
}

#[test]
fn is_pseudo_legal_over_every_16_bit_value() {
    let positions = all_positions();
    let mut refused = 0;
    for pos in positions.iter().step_by(97) {
        let pseudo: HashSet<Move> = pos.pseudo_legal_moves().iter().copied().collect();
        let legal: HashSet<Move> = pos.legal_moves().iter().copied().collect();
        assert!(legal.is_subset(&pseudo));
        for raw in 0..=u16::MAX {
            let mv = Move::from_bits(raw);
            assert_eq!(pos.is_pseudo_legal(mv), pseudo.contains(&mv), "{raw:#06x} in {pos:?}");
        }
        for &mv in pseudo.difference(&legal) {
            let mut copy = *pos;
            assert!(copy.play(mv).is_err(), "{pos:?}");
            assert_eq!(copy, *pos);
            refused += 1;
        }
    }
    assert!(refused > 50, "only {refused} illegal pseudo-legal moves tried");
}

#[test]
fn null_move_and_repetition() {
    let mut pos = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
    assert!(pos.play_null());
    assert_eq!(pos.zobrist(), pos.compute_zobrist());
    assert_eq!(pos.turn(), Color::Black);

    let mut game = Game::default();
    for san in ["e4", "Nf6", "Nf3", "Ng8"] {
        game.push_san(san).unwrap();
        assert!(!game.is_repetition());
    }
    // Back to the position after 1. e4, the first after the last irreversible move.
    game.push_san("Ng1").unwrap();
    assert!(game.is_repetition());
    game.push_san("Nc6").unwrap();
    assert!(!game.is_repetition());
    game.push_san("d4").unwrap();
    game.push_san("Nb8").unwrap();
    // Seen before d4, not since.
    assert!(!game.is_repetition());
}

// ----- SEE -----

const VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

/// A board of our own, so the slow SEE shares nothing with the library but the piece list.
type Board = [Option<Piece>; 64];

fn board_of(pos: &Position) -> Board {
    let mut board = [None; 64];
    for sq in Square::ALL {
        board[sq.index()] = pos.piece_at(sq);
    }
    board
}

/// Whether the piece on `from` attacks `to` on `board`, by walking the board.
fn attacks(board: &Board, from: usize, to: usize) -> bool {
    let Some(piece) = board[from] else { return false };
    let (ff, fr) = ((from % 8) as i32, (from / 8) as i32);
    let (tf, tr) = ((to % 8) as i32, (to / 8) as i32);
    let (df, dr) = (tf - ff, tr - fr);
    if df == 0 && dr == 0 {
        return false;
    }
    let slide = |diagonal: bool, straight: bool| {
        let is_diagonal = df.abs() == dr.abs();
        let is_straight = df == 0 || dr == 0;
        if !((diagonal && is_diagonal) || (straight && is_straight)) {
            return false;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let (mut f, mut r) = (ff + sf, fr + sr);
        while (f, r) != (tf, tr) {
            if board[(r * 8 + f) as usize].is_some() {
                return false;
            }
            f += sf;
            r += sr;
        }
        true
    };
    match piece.kind {
        PieceKind::Pawn => df.abs() == 1 && dr == if piece.color == Color::White { 1 } else { -1 },
        PieceKind::Knight => (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1),
        PieceKind::Bishop => slide(true, false),
        PieceKind::Rook => slide(false, true),
        PieceKind::Queen => slide(true, true),
        PieceKind::King => df.abs() <= 1 && dr.abs() <= 1,
    }
}

/// The least valuable piece of `side` attacking `sq` (lowest square among equals).
fn least_attacker(board: &Board, sq: usize, side: Color) -> Option<usize> {
    (0..64)
        .filter(|&from| board[from].is_some_and(|p| p.color == side) && attacks(board, from, sq))
        .min_by_key(|&from| (board[from].unwrap().kind.index(), from))
}

/// What `side` gains at best by starting to capture on `sq` (it may decline: never below 0).
fn exchange(board: &Board, sq: usize, side: Color) -> i32 {
    let Some(from) = least_attacker(board, sq, side) else { return 0 };
    let victim = VALUES[board[sq].unwrap().kind.index()];
    let mut next = *board;
    next[sq] = next[from].take();
    if board[from].unwrap().kind == PieceKind::King && least_attacker(&next, sq, !side).is_some() {
        return 0;
    }
    (victim - exchange(&next, sq, !side)).max(0)
}

/// SEE by its definition, by brute recursion.
fn slow_see(pos: &Position, mv: Move) -> i32 {
    if mv.is_castling() {
        return 0;
    }
    let mut board = board_of(pos);
    let (from, to) = (mv.from().index(), mv.to().index());
    let mut gain = board[to].map_or(0, |p| VALUES[p.kind.index()]);
    if mv.is_en_passant() {
        board[Square::new(mv.to().file(), mv.from().rank()).index()] = None;
        gain = VALUES[0];
    }
    // A promotion stays a pawn for SEE.
    board[to] = board[from].take();
    gain - exchange(&board, to, !pos.turn())
}

#[test]
fn see_agrees_with_the_slow_definition_on_every_capture() {
    let mut compared = 0;
    let mut nonzero = 0;
    for pos in all_positions() {
        for &mv in pos.legal_captures().iter() {
            let expected = slow_see(&pos, mv);
            let see = pos.see(mv);
            assert_eq!(see, expected, "{} in {pos:?}", Uci::from_move(&pos, mv));
            for threshold in [see - 1, see, see + 1, -300, 0, 100] {
                assert_eq!(pos.see_ge(mv, threshold), see >= threshold, "{} in {pos:?}", Uci::from_move(&pos, mv));
            }
            compared += 1;
            nonzero += usize::from(see < 0);
        }
    }
    assert!(compared > 50_000 && nonzero > 5_000, "{compared} captures, {nonzero} losing");
}

#[test]
fn see_of_quiet_moves_agrees_too() {
    for pos in random_game_positions().into_iter().step_by(3) {
        for &mv in pos.legal_quiets().iter() {
            assert_eq!(pos.see(mv), slow_see(&pos, mv), "{} in {pos:?}", Uci::from_move(&pos, mv));
        }
    }
}

fn see_of(fen: &str, uci: &str) -> i32 {
    let pos = Position::from_fen(fen).unwrap();
    let mv = uci.parse::<Uci>().unwrap().to_move(&pos).unwrap();
    let see = pos.see(mv);
    assert_eq!(see, slow_see(&pos, mv), "{uci} in {fen}");
    see
}

#[test]
fn see_hand_made_exchanges() {
    // Undefended pawn, then defended by a pawn.
    assert_eq!(see_of("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
    assert_eq!(see_of("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), -400);
    // Knight takes a knight defended by a pawn: even.
    assert_eq!(see_of("4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5"), 0);
    // Rook battery (x-ray): Rxd5 Rxd5 Rxd5 wins the pawn and a rook for a rook.
    assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
    // The same with the defender's rook doubled behind ours: each side has two, pawn lost.
    assert_eq!(see_of("3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), -400);
    // Queen behind a bishop on the diagonal.
    assert_eq!(see_of("4k3/8/5n2/8/3B4/2Q5/8/4K3 w - - 0 1", "d4f6"), 300);
    assert_eq!(see_of("4k3/6p1/5n2/8/3B4/2Q5/8/4K3 w - - 0 1", "d4f6"), 100); // Bxf6 gxf6 Qxf6
                                                                              // The king may recapture only when nothing takes it back.
    assert_eq!(see_of("8/8/8/4k3/3p4/8/8/3RK3 w - - 0 1", "d1d4"), 100 - 500); // Kxd4
    assert_eq!(see_of("8/8/8/4k3/3p4/8/3R4/3RK3 w - - 0 1", "d2d4"), 100);
    // Our king takes back last, when their side is out of attackers.
    assert_eq!(see_of("4k3/8/8/8/8/3q4/4P3/4K3 b - - 0 1", "d3e2"), 100 - 900);
    assert_eq!(see_of("4k3/8/8/8/1B6/3q4/4P3/4K3 b - - 0 1", "d3e2"), 100 - 900);
    // En passant captures a pawn; here the capturing pawn is taken back by a pawn.
    assert_eq!(see_of("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "d5e6"), 100);
    assert_eq!(see_of("4k3/5p2/8/3Pp3/8/8/8/4K3 w - e6 0 1", "d5e6"), 0);
    // A promotion counts as the pawn it was: no promotion gain, and it is taken as a pawn.
    assert_eq!(see_of("3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8q"), 500 - 100); // Kxd8 takes a "pawn"
    assert_eq!(see_of("3rk3/2P5/8/8/8/8/8/3RK3 w - - 0 1", "c7d8q"), 500); // Kxd8 Rxd8: no king recapture
    assert_eq!(see_of("2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), -100);
    assert_eq!(see_of("2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7c8n"), 500);
    // A quiet move to an attacked square loses the piece.
    assert_eq!(see_of("4k3/8/4p3/8/8/8/8/3RK3 w - - 0 1", "d1d5"), -500);
    assert_eq!(see_of("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "d1d5"), 0);
    // Castling is worth nothing.
    assert_eq!(see_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), 0);
}
