//! Running out of memory through the C ABI: with allocations failing, the calls that create a
//! handle return NULL or `CHESS_ERR_OUT_OF_MEMORY` and leave their outputs alone, instead of
//! aborting. (Its own test binary: it replaces the global allocator.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr;

use chesscore::ffi::{
    chess_error, chess_fen_parse, chess_fen_parse_ex, chess_game_free, chess_game_new, chess_position,
    chess_position_clone, chess_position_free, chess_position_new,
};

thread_local! {
    static FAIL: Cell<bool> = const { Cell::new(false) };
}

/// The system allocator, failing on the current thread while `FAIL` is set.
struct FailingAllocator;

unsafe impl GlobalAlloc for FailingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if FAIL.with(Cell::get) {
            ptr::null_mut()
        } else {
            System.alloc(layout)
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: FailingAllocator = FailingAllocator;

fn out_of_memory<T>(f: impl FnOnce() -> T) -> T {
    FAIL.with(|fail| fail.set(true));
    let result = f();
    FAIL.with(|fail| fail.set(false));
    result
}

#[test]
fn handle_allocation_failures_are_reported() {
    let fen = c"4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let untouched = ptr::NonNull::<chess_position>::dangling().as_ptr();
    let mut out = untouched;
    let mut offset = 77;
    assert!(out_of_memory(|| chess_position_new()).is_null());
    let code = out_of_memory(|| unsafe { chess_fen_parse(fen.as_ptr(), &mut out) });
    assert_eq!(code, chess_error::CHESS_ERR_OUT_OF_MEMORY);
    let code = out_of_memory(|| unsafe { chess_fen_parse_ex(fen.as_ptr(), &mut out, &mut offset) });
    assert_eq!(code, chess_error::CHESS_ERR_OUT_OF_MEMORY);
    assert_eq!((out, offset), (untouched, 77));

    let pos = chess_position_new();
    assert!(!pos.is_null());
    assert!(out_of_memory(|| unsafe { chess_position_clone(pos) }).is_null());
    assert_eq!(unsafe { chess_fen_parse(fen.as_ptr(), &mut out) }, chess_error::CHESS_OK);
    assert!(out_of_memory(|| unsafe { chess_game_new(pos) }).is_null());
    let game = unsafe { chess_game_new(pos) };
    assert!(!game.is_null());
    unsafe {
        chess_game_free(game);
        chess_position_free(out);
        chess_position_free(pos);
    }
}
