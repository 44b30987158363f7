//! A game's move tree: its nodes by number, with their moves as written, comments, NAGs and
//! variations, so a C program reads every annotation of a PGN game without PGN text.

use std::ffi::c_char;

use super::engine::{chess_score_kind, CHESS_SCORE_CP, CHESS_SCORE_MATE, CHESS_SCORE_NONE};
use super::error::*;
use super::game::{chess_game, record_ref};
use super::moves::chess_move;
use super::position::{chess_position, write_position};
use super::record::{each_game, Record};
use super::types::chess_square;
use super::util::{fill_array, guard, guard_code, oom, text_of, TextOut};
use super::variant::chess_variant_position;
use chesscore_core::pgn::{Annotations, Eval, MarkColor, MoveTree, NodeId, Score};

/// A node of a game's move tree. `CHESS_NODE_ROOT` (0) is the start position; every other node
/// is a move, numbered from 1 in the order the moves were read or added, up to
/// `chess_node_count(game) - 1`. The children of a node are the moves played from the
/// position it reaches: the first continues its line, the others are variations in the order
/// written. The main line is the chain of first children from the root. Numbers stay valid
/// until the game's moves change (`chess_game_push`, `_push_san`, `_push_uci`, `_pop`).
pub type chess_node = u32;
/// The root: the start position, before any move.
pub const CHESS_NODE_ROOT: chess_node = 0;
/// No node: what a navigation function returns when there is none (the root's parent, a last
/// sibling's next), or for a NULL game or a number out of range.
pub const CHESS_NODE_NONE: chess_node = u32::MAX;

/// Where a comment stands with respect to its node's move.
pub type chess_comment_place = u8;
/// After the move (`1. e4 {here}`); the root's are the comments before the first move.
pub const CHESS_COMMENT_AFTER: chess_comment_place = 0;
/// Before the move, as PGN writes them right after a variation's `(`: `({here} 1. d4)`.
pub const CHESS_COMMENT_BEFORE: chess_comment_place = 1;

/// The tree of `game` and its node numbered `node`, if both exist.
///
/// # Safety
/// `game` is NULL or a live handle not written during `'a`.
unsafe fn tree_node<'a>(game: *const chess_game, node: chess_node) -> Option<(&'a Record, NodeId)> {
    // SAFETY: this function's contract is `record_ref`'s.
    let record = unsafe { record_ref(game) }?;
    let id = record.tree().node_id(node as usize)?;
    Some((record, id))
}

fn number(id: Option<NodeId>) -> chess_node {
    id.map_or(CHESS_NODE_NONE, |id| id.index() as chess_node)
}

/// Writes a text of a node into the caller's buffer: `write` gets the game's record, the node
/// and the output. `CHESS_ERR_NULL_POINTER` for a NULL game, `CHESS_ERR_INVALID_ARGUMENT` for no
/// such node.
///
/// # Safety
/// `game` is NULL or a live handle; `buf` NULL or valid for `cap` bytes, `out_len` NULL or valid.
unsafe fn node_text(
    game: *const chess_game,
    node: chess_node,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
    write: impl FnOnce(&Record, NodeId, TextOut) -> Result<(), chess_error>,
) -> chess_error {
    guard_code(|| {
        if game.is_null() {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        // SAFETY: this function's contract.
        let out = unsafe { TextOut::new(buf, cap, out_len) }?;
        // SAFETY: `game` is not NULL, so it is a live handle (this function's contract).
        let (record, id) = unsafe { tree_node(game, node) }.ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        write(record, id, out)
    })
}

/// Runs a query on a node (from [`tree_node`]), or returns `fallback` when there is no such node
/// (or a caught panic).
fn query<T: Copy>(node: Option<(&Record, NodeId)>, fallback: T, f: impl FnOnce(&MoveTree, NodeId) -> T) -> T {
    guard(fallback, || node.map_or(fallback, |(record, id)| f(record.tree(), id)))
}

/// The number of nodes of the game's tree: its moves, main line and variations together, plus
/// the root (0 for a NULL game). Nodes are numbered 0 to this count minus 1.
#[no_mangle]
pub unsafe extern "C" fn chess_node_count(game: *const chess_game) -> usize {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    guard(0, || unsafe { record_ref(game) }.map_or(0, |record| record.tree().move_count() + 1))
}

/// The node before `node`: `CHESS_NODE_NONE` for the root (or no such node).
#[no_mangle]
pub unsafe extern "C" fn chess_node_parent(game: *const chess_game, node: chess_node) -> chess_node {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { tree_node(game, node) }, CHESS_NODE_NONE, |tree, id| number(tree.parent(id)))
}

/// The first child of `node`: the move continuing its line; `CHESS_NODE_NONE` at the end of a
/// line (or no such node).
#[no_mangle]
pub unsafe extern "C" fn chess_node_first_child(game: *const chess_game, node: chess_node) -> chess_node {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { tree_node(game, node) }, CHESS_NODE_NONE, |tree, id| number(tree.main_child(id)))
}

/// The next child of `node`'s parent: the next alternative to `node`'s move; `CHESS_NODE_NONE`
/// for the last one and the root (or no such node).
#[no_mangle]
pub unsafe extern "C" fn chess_node_next_sibling(game: *const chess_game, node: chess_node) -> chess_node {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { tree_node(game, node) }, CHESS_NODE_NONE, |tree, id| number(tree.next_sibling(id)))
}

/// The move that leads to `node`: `CHESS_MOVE_NONE` for the root (or no such node) and for a
/// null move (`--`), told apart by the node number.
#[no_mangle]
pub unsafe extern "C" fn chess_node_move(game: *const chess_game, node: chess_node) -> chess_move {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { tree_node(game, node) }, 0, |tree, id| tree.mv(id).map_or(0, |mv| mv.raw()))
}

/// How many moves lead from the root to `node` (0 for the root, or no such node).
#[no_mangle]
pub unsafe extern "C" fn chess_node_ply(game: *const chess_game, node: chess_node) -> u32 {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { tree_node(game, node) }, 0, MoveTree::ply)
}

/// Writes the SAN of `node`'s move as the PGN it was read from wrote it (`Nf3`, `Ng1f3`,
/// `e2-e4`, `Nf3+`; without move number and `!`/`?` suffix, which are NAGs), or for a move
/// added otherwise the SAN as `chess_move_to_san` writes it (a null move is `--`). Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (the root, or no such node),
/// `CHESS_ERR_BUFFER_TOO_SMALL`, `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_node_san(
    game: *const chess_game,
    node: chess_node,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    // SAFETY: the pointers are as `node_text` needs (the C contract).
    unsafe {
        node_text(game, node, buf, cap, out_len, |record, id, out| {
            let san = each_game!(record, game => game.try_san(id)).map_err(oom)?.ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
            out.write(san.as_str().as_bytes())?;
            Ok(())
        })
    }
}

/// Writes the position reached at `node` (the start position for the root) into `*dst`, a
/// caller-owned `chess_position`; `*dst` is untouched on error. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (no such node),
/// `CHESS_ERR_VARIANT_GAME` (see `chess_node_variant_position`), `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_node_position(
    game: *const chess_game,
    node: chess_node,
    dst: *mut chess_position,
) -> chess_error {
    guard_code(|| {
        if game.is_null() || dst.is_null() {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        // SAFETY: `game` is not NULL, so it is a live handle (the C contract).
        let (record, id) = unsafe { tree_node(game, node) }.ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        let pos = record.chess()?.try_node_position(id).map_err(oom)?;
        // SAFETY: `dst` is not NULL, so it is valid for a write of a position (the C contract).
        unsafe { write_position(dst, pos) };
        Ok(())
    })
}

/// Writes the position reached at `node` into `*dst`, a `chess_variant_position` of the
/// caller's (`chess_variant_position_new`): `chess_node_position` for a game of any variant (a
/// chess game's positions come as `CHESS_VARIANT_CHESS` or `CHESS_VARIANT_CHESS960`); `*dst` is
/// untouched on error. Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (no such
/// node), `CHESS_ERR_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn chess_node_variant_position(
    game: *const chess_game,
    node: chess_node,
    dst: *mut chess_variant_position,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `dst` is NULL or a live handle no one else uses (the C contract).
        let dst = unsafe { dst.as_mut() }.ok_or(CHESS_ERR_NULL_POINTER)?;
        if game.is_null() {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        // SAFETY: `game` is not NULL, so it is a live handle (the C contract).
        let (record, id) = unsafe { tree_node(game, node) }.ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        dst.pos = match record {
            Record::Chess(game) => game.try_node_position(id).map_err(oom)?.into(),
            Record::Variant(game) => game.try_node_position(id).map_err(oom)?,
        };
        Ok(())
    })
}

/// Comment number `index` of `tree`'s `id` at `place`, if there is one.
fn comment(tree: &MoveTree, id: NodeId, place: chess_comment_place, index: usize) -> Option<&str> {
    match place {
        CHESS_COMMENT_AFTER => tree.comments(id).nth(index),
        CHESS_COMMENT_BEFORE => tree.comments_before(id).nth(index),
        _ => None,
    }
}

/// How many comments `node` has at `place` (`CHESS_COMMENT_AFTER` or `CHESS_COMMENT_BEFORE`);
/// 0 for no such node or place.
#[no_mangle]
pub unsafe extern "C" fn chess_node_comment_count(
    game: *const chess_game,
    node: chess_node,
    place: chess_comment_place,
) -> usize {
    // SAFETY: `game` is NULL or a live handle (the C contract).
    query(unsafe { tree_node(game, node) }, 0, |tree, id| match place {
        CHESS_COMMENT_AFTER => tree.comments(id).count(),
        CHESS_COMMENT_BEFORE => tree.comments_before(id).count(),
        _ => 0,
    })
}

/// Writes comment number `index` (from 0, in input order) of `node` at `place`: UTF-8, without
/// its braces, trimmed, line ends as LF. Errors: `CHESS_ERR_NULL_POINTER`,
/// `CHESS_ERR_INVALID_ARGUMENT` (no such node, place or comment), `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_node_comment(
    game: *const chess_game,
    node: chess_node,
    place: chess_comment_place,
    index: usize,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    // SAFETY: the pointers are as `node_text` needs (the C contract).
    unsafe {
        node_text(game, node, buf, cap, out_len, |record, id, out| {
            let text = comment(record.tree(), id, place, index).ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
            out.write(text.as_bytes()).map(drop)
        })
    }
}

/// Writes up to `cap` NAGs of `node` to `out`, in input order (`!` is 1, `?` 2, `!!` 3, `??` 4,
/// `!?` 5, `?!` 6, `$n` is n), and returns how many it has. `out` may be NULL when `cap` is 0.
/// Returns 0 for no such node, or a NULL `out` with `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_node_nags(game: *const chess_game, node: chess_node, out: *mut u8, cap: usize) -> usize {
    // SAFETY: `game` is NULL or a live handle, and `out` NULL or valid for `cap` writes (the C
    // contract).
    query(unsafe { tree_node(game, node) }, 0, |tree, id| unsafe { fill_array(tree.nags(id), out, cap) })
}

// ----- commands in comments: clocks, evaluations, highlights, arrows -----

/// An evaluation of the position after a move (`[%eval 0.35]`, `[%eval #-4]`,
/// `[%eval 0.35,18]`), from White's side, as `chess_node_eval` writes it.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_eval {
    /// `CHESS_SCORE_CP` (centipawns) or `CHESS_SCORE_MATE` (moves to mate).
    pub kind: chess_score_kind,
    /// Centipawns, positive when White stands better; or moves to mate, positive when White
    /// mates, negative when Black does (0 after mate).
    pub value: i32,
    /// The search depth, or `CHESS_EVAL_NO_DEPTH` when the command gives none.
    pub depth: u32,
}

/// `chess_eval.depth` when the command gives none.
pub const CHESS_EVAL_NO_DEPTH: u32 = u32::MAX;

/// The colour of a highlight or an arrow (its letter in the command).
pub type chess_mark_color = u8;
/// `R`.
pub const CHESS_MARK_RED: chess_mark_color = 0;
/// `G`.
pub const CHESS_MARK_GREEN: chess_mark_color = 1;
/// `Y`.
pub const CHESS_MARK_YELLOW: chess_mark_color = 2;
/// `B`.
pub const CHESS_MARK_BLUE: chess_mark_color = 3;

/// A highlighted square of `[%csl Ga4,Rb5]`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_highlight {
    pub square: chess_square,
    pub color: chess_mark_color,
}

/// An arrow of `[%cal Ge2e4]`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_arrow {
    pub from: chess_square,
    pub to: chess_square,
    pub color: chess_mark_color,
}

fn mark_color(color: MarkColor) -> chess_mark_color {
    match color {
        MarkColor::Red => CHESS_MARK_RED,
        MarkColor::Green => CHESS_MARK_GREEN,
        MarkColor::Yellow => CHESS_MARK_YELLOW,
        MarkColor::Blue => CHESS_MARK_BLUE,
    }
}

fn eval_ret(Eval { score, depth }: Eval) -> chess_eval {
    let (kind, value) = match score {
        Score::Centipawns(cp) => (CHESS_SCORE_CP, cp),
        Score::Mate(moves) => (CHESS_SCORE_MATE, moves),
    };
    chess_eval { kind, value, depth: depth.unwrap_or(CHESS_EVAL_NO_DEPTH) }
}

/// Writes what `value` picks from the annotations of `game`'s `node` to `*out`: `CHESS_OK`,
/// or `CHESS_END` when the node has none (`*out` untouched then).
///
/// # Safety
/// `game` is NULL or a live handle, `out` NULL or valid for a write.
unsafe fn annotation_out<T>(
    game: *const chess_game,
    node: chess_node,
    out: *mut T,
    value: impl FnOnce(Annotations) -> Option<T>,
) -> chess_error {
    guard_code(|| {
        if game.is_null() || out.is_null() {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        // SAFETY: `game` is not NULL, so it is a live handle (this function's contract).
        let (record, id) = unsafe { tree_node(game, node) }.ok_or(CHESS_ERR_INVALID_ARGUMENT)?;
        let found = value(record.tree().annotations(id)).ok_or(CHESS_END)?;
        // SAFETY: `out` is not NULL, so it is valid for a write (this function's contract).
        unsafe { out.write(found) };
        Ok(())
    })
}

/// Writes to `*seconds` the clock after `node`'s move (`[%clk 0:03:00.5]` in a comment after
/// it: 180.5), the time left to the player who moved. Errors: `CHESS_END` when there is none,
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (no such node).
#[no_mangle]
pub unsafe extern "C" fn chess_node_clock(game: *const chess_game, node: chess_node, seconds: *mut f64) -> chess_error {
    // SAFETY: the C contract is `annotation_out`'s.
    unsafe { annotation_out(game, node, seconds, |a| a.clock) }
}

/// Writes to `*seconds` the time `node`'s move took (`[%emt 0:00:05]`: 5). Errors as
/// `chess_node_clock`.
#[no_mangle]
pub unsafe extern "C" fn chess_node_elapsed(
    game: *const chess_game,
    node: chess_node,
    seconds: *mut f64,
) -> chess_error {
    // SAFETY: the C contract is `annotation_out`'s.
    unsafe { annotation_out(game, node, seconds, |a| a.elapsed) }
}

/// Writes to `*eval` the evaluation after `node`'s move (`[%eval ...]`, see `chess_eval`).
/// Errors as `chess_node_clock`.
#[no_mangle]
pub unsafe extern "C" fn chess_node_eval(
    game: *const chess_game,
    node: chess_node,
    eval: *mut chess_eval,
) -> chess_error {
    // SAFETY: the C contract is `annotation_out`'s.
    unsafe { annotation_out(game, node, eval, |a| a.eval.map(eval_ret)) }
}

/// Writes up to `cap` highlighted squares of `node` (`[%csl ...]` after its move) to `out`, in
/// order, and returns how many it has. `out` may be NULL when `cap` is 0. Returns 0 for no such
/// node, or a NULL `out` with `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_node_highlights(
    game: *const chess_game,
    node: chess_node,
    out: *mut chess_highlight,
    cap: usize,
) -> usize {
    // SAFETY: `game` is NULL or a live handle, and `out` NULL or valid for `cap` writes (the C
    // contract).
    query(unsafe { tree_node(game, node) }, 0, |tree, id| {
        let marks = tree.annotations(id).highlights.into_iter();
        let marks =
            marks.map(|h| chess_highlight { square: h.square.index() as chess_square, color: mark_color(h.color) });
        // SAFETY: as above.
        unsafe { fill_array(marks, out, cap) }
    })
}

/// Writes up to `cap` arrows of `node` (`[%cal ...]` after its move) to `out`, in order, and
/// returns how many it has, as `chess_node_highlights` does.
#[no_mangle]
pub unsafe extern "C" fn chess_node_arrows(
    game: *const chess_game,
    node: chess_node,
    out: *mut chess_arrow,
    cap: usize,
) -> usize {
    // SAFETY: `game` is NULL or a live handle, and `out` NULL or valid for `cap` writes (the C
    // contract).
    query(unsafe { tree_node(game, node) }, 0, |tree, id| {
        let arrows = tree.annotations(id).arrows.into_iter().map(|a| chess_arrow {
            from: a.from.index() as chess_square,
            to: a.to.index() as chess_square,
            color: mark_color(a.color),
        });
        // SAFETY: as above.
        unsafe { fill_array(arrows, out, cap) }
    })
}

/// Writes the text of the comments after `node`'s move without the commands read from them
/// (`[%clk ...]`, `[%eval ...]`, ...), the comments joined by a space (empty when they hold
/// commands only). Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_ARGUMENT` (no such
/// node), `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_node_comment_text(
    game: *const chess_game,
    node: chess_node,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    // SAFETY: the pointers are as `node_text` needs (the C contract).
    unsafe {
        node_text(game, node, buf, cap, out_len, |record, id, out| {
            out.write(record.tree().comment_text(id).as_bytes()).map(drop)
        })
    }
}

// ----- the main line at once: one call for what a node function gives move by move -----

/// Writes up to `cap` of what `value` gives for each main-line node, first move first, to `out`,
/// and returns how many moves the main line has (see [`fill_array`]); 0 for a NULL game.
///
/// # Safety
/// `game` is NULL or a live handle, `out` NULL or valid for `cap` writes.
unsafe fn mainline_array<T>(
    game: *const chess_game,
    out: *mut T,
    cap: usize,
    value: impl Fn(&MoveTree, NodeId) -> T,
) -> usize {
    guard(0, || {
        // SAFETY: `game` is NULL or a live handle (this function's contract).
        let Some(record) = (unsafe { record_ref(game) }) else { return 0 };
        let tree = record.tree();
        // SAFETY: `out` is NULL or valid for `cap` writes (this function's contract).
        unsafe { fill_array(tree.mainline().map(|id| value(tree, id)), out, cap) }
    })
}

/// Writes up to `cap` nodes of the main line (the chain of first children from the root, root
/// excluded), first move first, to `out` and returns how many moves the main line has. `out`
/// may be NULL when `cap` is 0. Returns 0 for a NULL game, or a NULL `out` with `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_game_mainline_nodes(game: *const chess_game, out: *mut chess_node, cap: usize) -> usize {
    // SAFETY: the C contract is `mainline_array`'s.
    unsafe { mainline_array(game, out, cap, |_, id| id.index() as chess_node) }
}

/// Writes the SAN of every main-line move, first move first, each as `chess_node_san` writes it
/// (as read from PGN, else made; `--` for a null move), separated by single spaces (empty
/// before the first move); `chess_game_san_moves` writes the moves played in canonical SAN.
/// Errors: `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_game_mainline_san(
    game: *const chess_game,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    let write = |record: &Record, out: TextOut| {
        out.write_with(|sink| {
            each_game!(record, game => for (i, san) in game.mainline_san().enumerate() {
                if i > 0 {
                    sink.write_bytes(b" ");
                }
                sink.write_bytes(san.as_str().as_bytes());
            });
            Ok(())
        })?;
        Ok(())
    };
    // SAFETY: `game` is NULL or a live handle, `buf` NULL or valid for `cap` bytes, `out_len`
    // NULL or valid (the C contract).
    unsafe { text_of(record_ref(game), buf, cap, out_len, write) }
}

/// What `chess_game_mainline_clocks` and `chess_game_mainline_elapsed` write for a move without
/// the command (times are never negative).
pub const CHESS_NO_TIME: f64 = -1.0;

/// Writes up to `cap` clocks of the main line to `out`, first move first, each as
/// `chess_node_clock` reads it (seconds) or `CHESS_NO_TIME` for a move without `[%clk ...]`,
/// and returns how many moves the main line has. `out` may be NULL when `cap` is 0. Returns 0
/// for a NULL game, or a NULL `out` with `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_game_mainline_clocks(game: *const chess_game, out: *mut f64, cap: usize) -> usize {
    // SAFETY: the C contract is `mainline_array`'s.
    unsafe { mainline_array(game, out, cap, |tree, id| tree.annotations(id).clock.unwrap_or(CHESS_NO_TIME)) }
}

/// Writes up to `cap` move times (`[%emt ...]`, as `chess_node_elapsed` reads them) of the main
/// line to `out` as `chess_game_mainline_clocks` writes clocks.
#[no_mangle]
pub unsafe extern "C" fn chess_game_mainline_elapsed(game: *const chess_game, out: *mut f64, cap: usize) -> usize {
    // SAFETY: the C contract is `mainline_array`'s.
    unsafe { mainline_array(game, out, cap, |tree, id| tree.annotations(id).elapsed.unwrap_or(CHESS_NO_TIME)) }
}

/// Writes up to `cap` evaluations of the main line to `out`, first move first, each as
/// `chess_node_eval` reads it, or with `kind` `CHESS_SCORE_NONE` (`value` 0, `depth`
/// `CHESS_EVAL_NO_DEPTH`) for a move without `[%eval ...]`, and returns how many moves the main
/// line has. `out` may be NULL when `cap` is 0. Returns 0 for a NULL game, or a NULL `out` with
/// `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn chess_game_mainline_evals(game: *const chess_game, out: *mut chess_eval, cap: usize) -> usize {
    const NONE: chess_eval = chess_eval { kind: CHESS_SCORE_NONE, value: 0, depth: CHESS_EVAL_NO_DEPTH };
    // SAFETY: the C contract is `mainline_array`'s.
    unsafe { mainline_array(game, out, cap, |tree, id| tree.annotations(id).eval.map_or(NONE, eval_ret)) }
}
