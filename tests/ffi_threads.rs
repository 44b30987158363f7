//! The threading contract of the C ABI: no global state, so threads may use their own handles
//! at once, and many threads may read one handle at once.

use std::thread;

use chesscore::{
    chess_fen_parse_into, chess_legal_moves, chess_move, chess_perft, chess_position, chess_position_clone,
    chess_position_copy, chess_position_free, chess_position_new, chess_position_play_unchecked,
    chess_position_zobrist, CHESS_MAX_MOVES, CHESS_OK,
};

/// A handle shared by reading threads only.
struct Shared(*mut chess_position);
// SAFETY: the threads below only read through the pointer, as the contract allows.
unsafe impl Sync for Shared {}

#[test]
fn threads_share_a_read_handle_and_change_their_own() {
    let root = chess_position_new();
    let fen = c"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(unsafe { chess_fen_parse_into(fen.as_ptr(), root) }, CHESS_OK);
    let shared = Shared(root);
    let results: Vec<(u64, u64)> = thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|i| {
                let shared = &shared;
                scope.spawn(move || unsafe {
                    // Each thread plays its own line on its own handles...
                    let mut moves: [chess_move; CHESS_MAX_MOVES] = [0; CHESS_MAX_MOVES];
                    let own = chess_position_clone(shared.0);
                    let child = chess_position_clone(own);
                    let n = chess_legal_moves(own, moves.as_mut_ptr(), moves.len());
                    chess_position_copy(child, own);
                    chess_position_play_unchecked(child, moves[i * 7 % n]);
                    let key = chess_position_zobrist(child);
                    chess_position_free(child);
                    chess_position_free(own);
                    // ...while all of them read the shared one.
                    (chess_perft(shared.0, 3), key)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    assert!(results.iter().all(|&(nodes, _)| nodes == 97_862));
    let keys: std::collections::HashSet<u64> = results.iter().map(|&(_, key)| key).collect();
    assert_eq!(keys.len(), 4);
    unsafe { chess_position_free(root) };
}
