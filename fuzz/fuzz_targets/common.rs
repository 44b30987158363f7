//! Shared by the fuzz targets: positions to play in, and the invariants every valid position
//! keeps.

#![allow(dead_code)] // each target uses part of it

use chesscore_core::{EnPassantMode, FenOptions, FenWriteOptions, Position, Repair, San, SanMode, SanOptions, Uci};

/// The readings the FEN targets try: strict, and repairing all that can be repaired, in the
/// castling mode asked for.
pub fn fen_readings(chess960: bool) -> [FenOptions; 2] {
    let strict = FenOptions { chess960, ..FenOptions::default() };
    let lenient =
        FenOptions { chess960, bad_castling: Repair::Drop, bad_en_passant: Repair::Drop, allow_impossible_check: true };
    [strict, lenient]
}

/// Positions the move-reading targets pick from with their first input byte.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1",
    "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
    "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    "k7/8/8/8/8/8/6p1/4K2R b K - 0 1",
];

/// Picks a position; every other byte value selects the Chess960 reading.
pub fn position(selector: u8) -> Position {
    let fen = POSITIONS[usize::from(selector) % POSITIONS.len()];
    if selector & 0x80 != 0 {
        Position::from_fen_chess960(fen).expect("seed positions are valid")
    } else {
        Position::from_fen(fen).expect("seed positions are valid")
    }
}

/// Invariants of a valid position: the key matches a fresh computation, the FEN (en passant as
/// recorded) reads back to the same position, and every legal move can be played, written as
/// SAN and UCI and read back to the same move.
pub fn check_position(pos: &Position) {
    assert_eq!(pos.zobrist(), pos.compute_zobrist());
    let options = FenOptions { chess960: pos.is_chess960(), allow_impossible_check: true, ..FenOptions::default() };
    let recorded = FenWriteOptions { en_passant: EnPassantMode::AsRecorded, ..FenWriteOptions::default() };
    let fen = pos.to_fen_with(&recorded);
    let (again, repairs) = Position::from_fen_with(&fen, &options).expect("a written FEN reads back");
    assert!(repairs.is_empty());
    assert_eq!(&again, pos, "{fen}");
    let legal = pos.legal_moves();
    assert_eq!(legal.len(), pos.legal_move_count());
    let strict = SanOptions { mode: SanMode::Strict, allow_null: false };
    for &mv in legal.iter() {
        assert!(pos.is_legal(mv));
        let san = San::from_move(pos, mv).expect("legal moves have SAN");
        let read = san.as_str().parse::<San>().expect("written SAN reads back");
        assert_eq!(read.to_move(pos), Ok(mv), "{fen} {san}");
        assert_eq!(read.to_move_with(pos, &strict), Ok(mv), "{fen} {san}");
        let uci = Uci::from_move(pos, mv).to_string();
        assert_eq!(uci.parse::<Uci>().and_then(|uci| uci.to_move(pos)), Ok(mv), "{fen} {uci}");
        let after = pos.make_move(mv);
        assert!(
            !after.is_attacked(after.king_square(pos.turn()), after.turn()),
            "{fen} {san} leaves the king in check"
        );
        assert_eq!(after.zobrist(), after.compute_zobrist());
    }
}
