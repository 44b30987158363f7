//! The C ABI, declared in `include/chesscore.h` (generated from this module by cbindgen in
//! `build.rs`; see docs/c.md, "API conventions").
//!
//! This module only checks and converts arguments and calls the core. Every exported function is
//! a plain `extern "C" fn` whose body runs inside `util::guard`, so no panic unwinds into C (the
//! queries turn their handle into a reference, which cannot panic, just before).
//! The safety contract is the C one, stated once in the header: pointers are NULL or valid,
//! strings are NUL-terminated, and a handle written by one thread is used by no other meanwhile.
//!
//! A pointer from C is checked and converted in one place: an `unsafe fn` helper with a
//! `# Safety` section (`position_ref`, `record_ref`, `c_bytes`, `Out::new`, `TextOut::new`,
//! `fill_array`, ...), called in a small `unsafe` block whose `// SAFETY:` comment cites the C
//! contract. What the helper returns (a reference, or an output then written safely) needs no
//! more `unsafe`.

// C names, and one contract for every function instead of a `# Safety` section each.
#![allow(non_camel_case_types, clippy::missing_safety_doc)]
// An `unsafe fn` body is no `unsafe` block: each operation in it needs one, with its reason.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod engine;
mod epd;
mod error;
mod fen;
mod game;
mod moves;
mod pgn;
mod position;
mod queries;
mod record;
mod render;
mod san;
mod setup;
mod svg;
mod tablebase;
mod tree;
mod types;
mod util;
mod variant;
// Last, so that their declarations follow the ones they use in the header.
mod binary_fen;
mod binpack;
mod bitboards;
mod book;

pub use binary_fen::*;
pub use binpack::*;
pub use bitboards::*;
pub use book::*;
pub use engine::*;
pub use epd::*;
pub use error::*;
pub use fen::*;
pub use game::*;
pub use moves::*;
pub use pgn::*;
pub use position::*;
pub use queries::*;
pub use render::*;
pub use san::*;
pub use setup::*;
pub use svg::*;
pub use tablebase::*;
pub use tree::*;
pub use types::*;
pub use variant::*;

const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The library's version, such as "1.0.0" (static). Compare it with `CHESS_VERSION_STRING` to
/// detect a header and library mismatch.
#[no_mangle]
pub extern "C" fn chess_version() -> *const std::ffi::c_char {
    util::guard(VERSION.as_ptr().cast(), || VERSION.as_ptr().cast())
}

/// The library's version as a number, `MAJOR * 10000 + MINOR * 100 + PATCH` (1.0.0 is 10000, 1.2.3 is 10203), to
/// compare with `CHESS_VERSION_NUMBER`, the header's: a program can require a version at least
/// as new as the one it was compiled against.
#[no_mangle]
pub extern "C" fn chess_version_number() -> u32 {
    const NUMBER: u32 = number(env!("CARGO_PKG_VERSION_MAJOR")) * 10_000
        + number(env!("CARGO_PKG_VERSION_MINOR")) * 100
        + number(env!("CARGO_PKG_VERSION_PATCH"));
    NUMBER
}

/// A decimal number of the version, read at compile time.
const fn number(digits: &str) -> u32 {
    let (digits, mut value, mut i) = (digits.as_bytes(), 0, 0);
    while i < digits.len() {
        value = value * 10 + (digits[i] - b'0') as u32;
        i += 1;
    }
    value
}
