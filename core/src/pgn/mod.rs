//! PGN: a streaming reader that replays and checks every move, and a writer.
//!
//! ```
//! use chesscore_core::pgn::PgnReader;
//!
//! let pgn = b"[Event \"Casual\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n1. e4 e5 2. Ke3 *\n";
//! let mut reader = PgnReader::from_bytes(&pgn[..]);
//! let game = reader.next_game()?.unwrap();
//! assert_eq!(game.tag("Event"), Some("Casual"));
//! assert_eq!(game.moves().len(), 7);
//! assert!(game.position().is_checkmate());
//! let broken = reader.next_game().unwrap_err();
//! assert_eq!((broken.game, broken.location.line, broken.location.column, broken.ply), (2, 5, 13, 3));
//! assert_eq!(broken.partial.unwrap().moves().len(), 2);
//! assert!(reader.next_game()?.is_none());
//! # Ok::<(), chesscore_core::pgn::PgnError>(())
//! ```
//!
//! # Reading
//! [`PgnReader`] reads from a file ([`PgnReader::open`], which decompresses gzip and, with the
//! `zstd` feature, Zstandard files, recognised by their first bytes), any [`std::io::Read`]
//! ([`PgnReader::new`]; wrap it in [`Decompressed`] for compressed input) or bytes in memory,
//! in place ([`PgnReader::from_bytes`]). Two ways to
//! take the games:
//! - [`PgnReader::next_game`] (or iterating the reader) gives each game as a
//!   [`Game`](crate::Game): its [`Tags`], the [`MoveTree`] of every move (the main line's and
//!   the variations') with its comments and NAGs, the main line's positions, repetitions and
//!   outcome, and the result token;
//! - [`PgnReader::read_game`] drives a [`Visitor`] with the events of a game (tags, moves with
//!   their positions, comments, NAGs, variations). A visitor that returns [`Flow::Skip`] from
//!   [`Visitor::end_tags`] gets the tags only: the movetext is scanned for its end, no move is
//!   read. Variations are skipped unless the visitor asks for them.
//!
//! Both go through one tokenizer, whose token loop serves the replay of the moves and, for
//! what is skipped (headers only, a game or variation skipped, the rest of a broken game), the
//! scan for where the skipped part ends.
//!
//! Memory stays bounded whatever the input's size: a buffer of [`CHUNK_SIZE`] bytes (grown
//! only while one comment or tag needs it, up to [`ReaderOptions`] limits), one position per
//! open variation, and, for [`Game`](crate::Game)s, the one game being built.
//!
//! # The format read
//! - Tag pairs `[Name "value"]`: several per line or one per line, before the movetext. Names
//!   are `[A-Za-z0-9][A-Za-z0-9_+#=:-]*`; `\"` and `\\` in values are unescaped. Unescaped
//!   quotes are common in the wild (`[Black "engine "x""]`): the value ends at the last `"]`
//!   of the line (or the first one followed by another tag). A repeated name replaces the
//!   earlier value. Tags are kept as read: the Seven Tag Roster is not filled in (the writer
//!   supplies its defaults).
//! - The start position comes from the `FEN` tag (whatever `SetUp` says, as python-chess
//!   reads it), else it is the standard one. A `Variant`
//!   tag of `Chess960` (or `chess 960`, `Fischerandom`, `960`, ...) reads the FEN as Chess960
//!   (Shredder-FEN or X-FEN castling); so does a FEN whose castling rights only make sense in
//!   Chess960. `Standard`, `From Position` and the like are standard chess; any other variant
//!   is an error. The FEN may have castling rights or an en passant square without effect (they
//!   are dropped) or an impossible check, as python-chess allows.
//! - Movetext: move numbers (`12.`, `12...`, glued `12.e4`, digits alone, and periods alone
//!   or spaced from their number: `2 . Nf3`, `1. ... e5`) are skipped and not checked; moves
//!   are lenient SAN ([`SanMode::Lenient`](crate::SanMode), see
//!   [`San`](crate::San)) or the null move `--` (also `Z0`,
//!   `0000`, `@@@@`), not allowed while in check; suffixes `!`, `?`, `!!`, `??`, `!?`, `?!`
//!   (glued or not) are NAGs 1 to 6, and so are `$0` to `$255`; the symbols `=`, `∞`, `+=`
//!   (`+/=`), `=+` (`=/+`), `+/-`, `-/+`, `+-`, `-+` (and `⩲ ⩱ ± ∓`) written alone are NAGs 10
//!   and 13 to 19, `=/∞` and `∞/=` 44 and 45;
//!   comments `{...}` (not nested) and `;` to the end of the line; `%` at the start of a line
//!   makes it an escape line, skipped; variations `( ... )` nest to any depth (up to
//!   [`ReaderOptions::max_depth`]) without recursion.
//! - Results `1-0`, `0-1`, `1/2-1/2`, `*` (a token of its own, even glued to a move: `Nc6*`).
//!   Byte order marks, CRLF line ends, any blank lines or none, games without tags. A blank
//!   line between two tag sections makes them two games, the first without moves.
//! - Real-world syntax, unless [`ReaderOptions::strict`] refuses it
//!   ([`PgnErrorKind::NonStandard`]): results `½-½` or with an en dash (`1–0`); move suffixes
//!   `e.p.`, `ep` (also standing alone after the move) and `++`; Unicode dashes in moves (`O‑O`)
//!   and daggers `†`/`‡` for check and mate; tag values and comments that are not UTF-8,
//!   decoded as Windows-1252 with a [`PgnWarning`] once per game
//!   ([`Game::warnings`](crate::Game::warnings), [`Visitor::warning`]; strict reading gives
//!   [`PgnErrorKind::InvalidUtf8`] instead).
//! - Comments are kept as written; the commands in them (`[%clk ...]`, `[%emt ...]`,
//!   `[%eval ...]`, `[%csl ...]`, `[%cal ...]`) are read per move by
//!   [`MoveTree::annotations`] (see [`Annotations`]).
//!
//! Every move is replayed: main-line moves and the moves of every variation read (a variation
//! starts from the position before the move it replaces, as python-chess reads them). A move
//! that is not valid SAN, not legal or ambiguous breaks the game.
//!
//! # Where games end
//! A game ends at its result token outside variations; comments on the rest of that line still
//! belong to it. A game without a result ends where the next one's tags begin (a `[` outside
//! comments) or at the end of the input. A blank line does not end a game. What comes after a
//! result that is not a tag starts a game without tags.
//!
//! # Broken games and recovery
//! A game is broken by a bad tag pair, an invalid `FEN` tag or variant, a move that is not
//! valid SAN, illegal or ambiguous (in the main line or a variation read), `)` without `(`, `(`
//! before any move of its line, a variation still open at the game's end, a comment left open
//! at the end of input or running into the next game's tags (a line holding only a tag pair),
//! `}`, `]` or `"` in movetext, a bad NAG, invalid UTF-8 in a tag value or comment (when
//! reading strictly; a NUL byte always, unless [`ReaderOptions::lossy_utf8`]), what strict
//! reading refuses, or a token,
//! tag or comment over its size limit. The reader returns a [`PgnError`] naming the game's
//! number, line, column, ply and text; the next call skips the rest of that game: to its
//! result token outside variations, to the next `[` outside comments, or to the end of input,
//! and reads on. Nothing after the broken game is lost. An I/O error stops the reader.
//!
//! Running out of memory is an error too ([`PgnErrorKind::OutOfMemory`]), never an abort: that
//! game is lost and the reader goes on with the next, except when its input buffer cannot grow
//! (a token, comment or tag line longer than what is in view), which ends the input as an I/O
//! error does.
//!
//! # Writing
//! [`Game::write_pgn`](crate::Game::write_pgn) (to any `fmt::Write`),
//! [`Game::write_pgn_io`](crate::Game::write_pgn_io) (to any `io::Write`) and
//! [`Game::to_pgn`](crate::Game::to_pgn) write the Seven Tag Roster in order (`?`,
//! `????.??.??` or the result for missing ones), then the other tags in order, `SetUp`/`FEN`
//! and `Variant` when the start position needs them and the tags lack them; a blank line; the
//! movetext as python-chess writes it (`1. e4 $1 { comment } 1... e5 ( 1... c5 ) 2. Nf3`:
//! a black move is numbered after a comment or variation), wrapped at 80 columns
//! ([`WriteOptions`]); the result; a line end. Reading what the writer wrote gives back the
//! same game. A game built move by move is written the same way, its result `*` unless set
//! ([`Game::set_result`](crate::Game::set_result)).

mod builder;
mod decompress;
mod error;
mod parallel;
mod reader;
mod recording;
mod replay;
mod source;
mod tokenizer;
mod visitor;
mod writer;

pub use decompress::{Compression, Decompressed};
pub use error::{Location, PgnError, PgnErrorKind, PgnWarning, PgnWarningKind};
pub use parallel::{split_points, ParallelReader, MAX_THREADS};
pub use reader::PgnReader;
pub use source::{BytesSource, IoSource, Source, CHUNK_SIZE};
pub use tokenizer::MAX_TOKEN_LEN;
pub use visitor::{Flow, ReaderOptions, Visitor};
pub use writer::WriteOptions;

// The game model lives in `crate::game`; its parts stay reachable where they were.
pub use crate::game::{
    is_tag_name, roster_default, strip_commands, Annotations, Arrow, Eval, Highlight, MainLineMoves, MarkColor,
    MoveTree, NodeId, NodeSan, Score, TagError, Tags, SEVEN_TAG_ROSTER,
};

/// The game type of earlier versions, which a [`Game`](crate::Game) now is: the one game type
/// is built by hand and read from PGN alike.
#[deprecated(note = "use Game")]
pub type GameRecord = crate::Game;
