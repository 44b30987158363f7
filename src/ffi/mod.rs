//! The C ABI, declared in `include/chesscore.h` (generated from this module by cbindgen in
//! `build.rs`; see the README's "API conventions").
//!
//! This module only checks and converts arguments and calls the core. Every exported function is
//! a plain `extern "C" fn` whose body runs inside `util::guard`, so no panic unwinds into C.
//! The safety contract is the C one, stated once in the header: pointers are NULL or valid,
//! strings are NUL-terminated, and a handle written by one thread is used by no other meanwhile.

// C names, and one contract for every function instead of a `# Safety` section each.
#![allow(non_camel_case_types, clippy::missing_safety_doc)]

mod epd;
mod error;
mod fen;
mod game;
mod moves;
mod pgn;
mod position;
mod render;
mod san;
mod types;
mod util;

pub use epd::*;
pub use error::*;
pub use fen::*;
pub use game::*;
pub use moves::*;
pub use pgn::*;
pub use position::*;
pub use render::*;
pub use san::*;
pub use types::*;

const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The library's version, such as "0.1.0" (static). Compare it with `CHESS_VERSION_STRING` to
/// detect a header and library mismatch.
#[no_mangle]
pub extern "C" fn chess_version() -> *const std::ffi::c_char {
    util::guard(VERSION.as_ptr().cast(), || VERSION.as_ptr().cast())
}
