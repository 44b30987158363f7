//! # chesscore-core
//!
//! The pure-Rust chess core under the chesscore C library: bitboards, strict FEN reading with
//! typed errors, legal move generation verified by perft, Polyglot Zobrist keys updated
//! incrementally, game status, SAN, EPD, games with repetition and outcome, PGN reading and
//! writing, board pictures in SVG, UCI engines driven as child processes ([`engine`]),
//! Polyglot opening books (reading, building from PGN, merging), binary FEN ([`BinaryFen`]),
//! Stockfish's training data ([`binpack`]) and Syzygy endgame tablebases ([`syzygy`]). It holds no C types and exports no symbols; the C
//! ABI is the `chesscore` crate.
//!
//! ```
//! use chesscore_core::{Position, Uci};
//!
//! let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")?;
//! assert_eq!(pos.legal_moves().len(), 48);
//! assert_eq!(pos.perft(3), 97_862);
//! let after = pos.make_move("e1g1".parse::<Uci>()?.to_move(&pos)?);
//! assert_eq!(after.to_fen(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Moves in SAN, games with history and EPD records:
//!
//! ```
//! use chesscore_core::{Epd, Game, Outcome, Termination, Uci};
//!
//! let mut game = Game::default();
//! for san in ["f3", "e5", "g4", "Qh4#"] {
//!     game.push_san(san)?;
//! }
//! assert_eq!(game.san_moves().last().unwrap(), "Qh4#");
//! assert_eq!((game.outcome(), game.termination()), (Outcome::BlackWins, Some(Termination::Checkmate)));
//!
//! let epd: Epd = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - bm O-O-O; id \"long\";".parse()?;
//! assert_eq!(Uci::from_move(epd.position(), epd.best_moves()[0]).to_string(), "e8c8");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Squares are numbered 0 = a1 .. 63 = h8 (bit `i` of a [`Bitboard`] is square `i`).
//! Every type on the hot path ([`Position`], [`Move`], [`MoveList`], [`Bitboard`]) is plain
//! data without lifetimes or heap memory; move generation never allocates.

// The few `unsafe` blocks each say why they hold in a `// SAFETY:` comment, and an `unsafe fn`
// body would be no `unsafe` block.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod binpack;
mod board;
mod draw;
pub mod engine;
pub mod fallible;
pub mod files;
pub mod game;
mod notation;
pub mod pgn;
pub mod polyglot;
mod position;
pub mod syzygy;
pub mod variant;

pub use board::bitboard::{Bitboard, SquareIter};
pub use board::castling::{CastlingRights, CastlingSide};
pub use board::color::Color;
pub use board::moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use board::piece::{Piece, PieceKind};
pub use board::square::{File, ParseSquareError, Rank, Square};
pub use board::{attacks, zobrist};
pub use draw::render::{BoardStyle, Diagram};
pub use draw::svg::{Arrow, ParseSvgColorError, SvgColor, SvgColors, SvgOptions, SVG_NAMESPACE};
pub use game::{Game, Outcome, Termination};
pub use notation::binary_fen::{BinaryFen, BinaryFenError, BINARY_FEN_MAX_INPUT, BINARY_FEN_MAX_LEN};
pub use notation::epd::{Epd, EpdError, EpdPosition, Operand, Operation};
pub use notation::fen;
pub use notation::fen::{
    CastlingNotation, Fen, FenError, FenField, FenFileError, FenOptions, FenRepairs, FenWriteOptions, Repair,
    FEN_FILE_MAX_BLANK, FEN_MAX_INPUT, FEN_MAX_LEN,
};
pub use notation::material::{Material, MaterialError};
pub use notation::san::{LineError, MovesLine, San, SanError, SanMode, SanOptions, SAN_MAX_LEN};
pub use notation::setup::{Setup, SetupStatus};
pub use notation::uci::{Uci, UciCastling, UciError};
pub use position::tactics::SEE_VALUES;
pub use position::{EnPassantMode, IllegalMoveError, Position};

/// The crate's README (its page on the package registry), its example compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The Rust snippets of the repository's documentation pages, compiled and run as doctests: one
/// item per page that has any (the root crate's `tests/docs.rs` checks that the list is complete).
#[cfg(doctest)]
mod doc_pages {
    #[doc = include_str!("../../README.md")]
    struct Readme;
    #[doc = include_str!("../../docs/books.md")]
    struct Books;
    #[doc = include_str!("../../docs/engines.md")]
    struct Engines;
    #[doc = include_str!("../../docs/formats.md")]
    struct Formats;
    #[doc = include_str!("../../docs/pgn.md")]
    struct Pgn;
    #[doc = include_str!("../../docs/rust.md")]
    struct Rust;
    #[doc = include_str!("../../docs/svg.md")]
    struct Svg;
    #[doc = include_str!("../../docs/tablebases.md")]
    struct Tablebases;
    #[doc = include_str!("../../docs/variants.md")]
    struct Variants;
}
