//! Board pictures in SVG.

use std::ffi::c_char;
use std::fmt;

use super::error::*;
use super::moves::chess_move;
use super::position::{chess_position, position};
use super::types::{chess_square, square_arg};
use super::util::{c_ascii, guard_code, oom, versioned_ref, Out, Sink, TextOut, Versioned};
use super::variant::{chess_variant_position, variant_ref};
use chesscore_core::{Arrow, Bitboard, Color, Move, SvgColor, SvgColors, SvgOptions};

/// `chess_svg_options` flag: Black at the bottom (the board seen from Black's side).
pub const CHESS_SVG_FLIPPED: u32 = 1;
/// `chess_svg_options` flag: no margin and no coordinates around the board.
pub const CHESS_SVG_NO_COORDINATES: u32 = 2;
/// `chess_svg_options` flag: the king of the side to move glows red when it is in check (in
/// addition to the squares of `check`).
pub const CHESS_SVG_MARK_CHECK: u32 = 4;

/// An arrow of `chess_svg_options`: straight, from the centre of `from` to the centre of `to`
/// (its head there); from a square to itself it is a ring around the square.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_svg_arrow {
    pub from: chess_square,
    pub to: chess_square,
    /// `0xRRGGBBAA`, or 0 for `color_arrow`.
    pub color: u32,
}

/// A square tinted with a colour, for `chess_svg_options`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_svg_fill {
    pub square: chess_square,
    /// `0xRRGGBBAA` (an alpha below 0xFF lets the square show through; 0 draws nothing).
    pub color: u32,
}

/// What `chess_position_to_svg` draws besides the position. The caller sets `size` to
/// `sizeof(chess_svg_options)`; fields added in later versions are read only when `size` covers
/// them. Zero is the default of every field; colours are `0xRRGGBBAA` numbers (alpha in the
/// low byte, 0xFF opaque), 0 for the default colour.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chess_svg_options {
    /// `sizeof(chess_svg_options)`, set by the caller.
    pub size: usize,
    /// `CHESS_SVG_FLIPPED`, `CHESS_SVG_NO_COORDINATES`, `CHESS_SVG_MARK_CHECK`, or 0.
    pub flags: u32,
    /// Width and height of the picture in pixels, margin included (0: 400).
    pub pixels: u32,
    /// The last move, whose two squares are tinted (`from` and `to`: for castling, encoded as
    /// king takes rook, the king's and the rook's); `CHESS_MOVE_NONE` for none.
    pub last_move: chess_move,
    /// Squares with the red check glow (bit i is square i).
    pub check: u64,
    /// Squares framed in `color_highlight`, above the pieces (attacked squares, pins, ...).
    pub squares: u64,
    /// `arrow_count` arrows drawn in order above everything else (NULL when the count is 0).
    pub arrows: *const chess_svg_arrow,
    pub arrow_count: usize,
    /// `fill_count` square fills drawn in order under the pieces (NULL when the count is 0).
    pub fills: *const chess_svg_fill,
    pub fill_count: usize,
    /// Light squares.
    pub color_light: u32,
    /// Dark squares.
    pub color_dark: u32,
    /// A light square of the last move.
    pub color_last_move_light: u32,
    /// A dark square of the last move.
    pub color_last_move_dark: u32,
    /// The margin.
    pub color_margin: u32,
    /// The coordinates on the margin.
    pub color_coordinates: u32,
    /// The check glow.
    pub color_check: u32,
    /// The frames of `squares`.
    pub color_highlight: u32,
    /// Arrows whose colour is 0.
    pub color_arrow: u32,
}

// SAFETY: `#[repr(C)]`, `size: usize` first.
unsafe impl Versioned for chess_svg_options {}

/// Draws the position as a standalone SVG 1.1 document (UTF-8 text; see docs/svg.md) with
/// `options`, which may be NULL for the defaults. The same input always gives
/// the same bytes. Each piece is one `<use>` element with its square and FEN letter in the
/// attributes `chess:square` and `chess:piece` (namespace `urn:chesscore:svg`). Errors:
/// `CHESS_ERR_NULL_POINTER` (also an array NULL with a count above 0),
/// `CHESS_ERR_INVALID_ARGUMENT` (a `size` smaller than this version's struct, an unknown flag,
/// a `last_move` that is not a move encoding, a square outside 0..63),
/// `CHESS_ERR_OUT_OF_MEMORY`, `CHESS_ERR_BUFFER_TOO_SMALL`.
#[no_mangle]
pub unsafe extern "C" fn chess_position_to_svg(
    pos: *const chess_position,
    options: *const chess_svg_options,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a valid position (the C contract).
        let pos = unsafe { position(pos) }?;
        // SAFETY: the C contract, as `draw` needs it.
        unsafe {
            draw(
                options,
                buf,
                cap,
                out_len,
                || SvgOptions::for_position(pos).check,
                |sink, options| pos.write_svg(sink, options),
            )
        }
    })
}

/// Draws a variant position as `chess_position_to_svg` draws a chess one (same options, same
/// errors; `CHESS_SVG_MARK_CHECK` marks the king the variant counts in check: never in
/// antichess or racing kings), the variant's FEN as the `<desc>`, plus what the variant adds:
/// for crazyhouse a strip above and one below the board, each holding one side's pocket (one
/// piece of each kind with its count, `chess:pocket`, `chess:piece` and `chess:count`
/// attributes), and a tilde on each promoted piece (`chess:promoted`); for three-check the same
/// strips holding each side's check counter (`chess:checks`, `chess:remaining`). With strips
/// the picture is taller than wide: `pixels` is its width. Errors: those of
/// `chess_position_to_svg`.
#[no_mangle]
pub unsafe extern "C" fn chess_variant_position_to_svg(
    pos: *const chess_variant_position,
    options: *const chess_svg_options,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> chess_error {
    guard_code(|| {
        // SAFETY: `pos` is NULL or a live handle (the C contract).
        let pos = unsafe { variant_ref(pos) }.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: the C contract, as `draw` needs it.
        unsafe {
            draw(
                options,
                buf,
                cap,
                out_len,
                || SvgOptions::for_variant(pos).check,
                |sink, options| pos.write_svg(sink, options),
            )
        }
    })
}

/// Reads the options (the defaults for NULL; `king_in_check` gives the glow of
/// `CHESS_SVG_MARK_CHECK`) and writes the picture `write` draws with them into `buf`.
///
/// # Safety
/// `options` is NULL or valid for its `size` bytes with its arrays NULL or holding their
/// counts of items; `buf` NULL or valid for `cap` bytes; `out_len` NULL or valid for a write.
unsafe fn draw(
    options: *const chess_svg_options,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
    king_in_check: impl FnOnce() -> Bitboard,
    write: impl Fn(&mut Sink, &SvgOptions) -> fmt::Result,
) -> Result<(), chess_error> {
    // SAFETY: this function's contract.
    let options = match unsafe { versioned_ref(options) }? {
        None => SvgOptions::default(),
        // SAFETY: this function's contract.
        Some(options) => unsafe { svg_options(options, king_in_check) }?,
    };
    // SAFETY: this function's contract.
    let text_out = unsafe { TextOut::new(buf, cap, out_len) }?;
    // Writing to the sink cannot fail.
    text_out.write_with(|sink| write(sink, &options).map_err(|_| CHESS_ERR_INTERNAL))?;
    Ok(())
}

/// Reads a colour written `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (hexadecimal), or one of
/// the arrow colours `green`, `red`, `blue`, `yellow`, into `*out` as `0xRRGGBBAA`. Errors:
/// `CHESS_ERR_NULL_POINTER`, `CHESS_ERR_INVALID_TEXT` (not ASCII), `CHESS_ERR_INVALID_ARGUMENT`
/// (not a colour).
#[no_mangle]
pub unsafe extern "C" fn chess_svg_parse_color(text: *const c_char, out: *mut u32) -> chess_error {
    guard_code(|| {
        // SAFETY: `text` is NULL or a NUL-terminated string (the C contract).
        let text = unsafe { c_ascii(text) }?;
        // SAFETY: `out` is NULL or valid for a write (the C contract).
        let out = unsafe { Out::new(out) }?;
        let color: SvgColor = text.parse().map_err(|_| CHESS_ERR_INVALID_ARGUMENT)?;
        out.write(color.to_rgba());
        Ok(())
    })
}

/// The core's options for a C struct, checked; `king_in_check` gives the glow of
/// `CHESS_SVG_MARK_CHECK`.
///
/// # Safety
/// The arrays of `o` are NULL or hold their counts of items.
unsafe fn svg_options(
    o: &chess_svg_options,
    king_in_check: impl FnOnce() -> Bitboard,
) -> Result<SvgOptions, chess_error> {
    if o.flags & !(CHESS_SVG_FLIPPED | CHESS_SVG_NO_COORDINATES | CHESS_SVG_MARK_CHECK) != 0 {
        return Err(CHESS_ERR_INVALID_ARGUMENT);
    }
    let square = |sq: chess_square| square_arg(sq).ok_or(CHESS_ERR_INVALID_ARGUMENT);
    let color = |rgba: u32| (rgba != 0).then(|| SvgColor::from_rgba(rgba));
    let defaults = SvgColors::default();
    let or_default = |rgba: u32, default: SvgColor| color(rgba).unwrap_or(default);
    let last_move = match Move::from_raw(o.last_move) {
        None => return Err(CHESS_ERR_INVALID_ARGUMENT),
        Some(mv) if mv.is_null() => None,
        Some(mv) => Some(mv),
    };
    let mut arrows = Vec::new();
    arrows.try_reserve_exact(o.arrow_count).map_err(oom)?;
    // SAFETY: the arrays hold their counts (this function's contract).
    for arrow in unsafe { items(o.arrows, o.arrow_count) }? {
        arrows.push(Arrow { from: square(arrow.from)?, to: square(arrow.to)?, color: color(arrow.color) });
    }
    let mut fill = Vec::new();
    fill.try_reserve_exact(o.fill_count).map_err(oom)?;
    // SAFETY: as for the arrows.
    for item in unsafe { items(o.fills, o.fill_count) }? {
        fill.push((square(item.square)?, SvgColor::from_rgba(item.color)));
    }
    let mut check = Bitboard(o.check);
    if o.flags & CHESS_SVG_MARK_CHECK != 0 {
        check = check.union(king_in_check());
    }
    Ok(SvgOptions {
        size: if o.pixels == 0 { SvgOptions::default().size } else { o.pixels },
        orientation: if o.flags & CHESS_SVG_FLIPPED != 0 { Color::Black } else { Color::White },
        coordinates: o.flags & CHESS_SVG_NO_COORDINATES == 0,
        last_move,
        check,
        squares: Bitboard(o.squares),
        fill,
        arrows,
        colors: SvgColors {
            light: or_default(o.color_light, defaults.light),
            dark: or_default(o.color_dark, defaults.dark),
            last_move_light: or_default(o.color_last_move_light, defaults.last_move_light),
            last_move_dark: or_default(o.color_last_move_dark, defaults.last_move_dark),
            margin: or_default(o.color_margin, defaults.margin),
            coordinates: or_default(o.color_coordinates, defaults.coordinates),
            check: or_default(o.color_check, defaults.check),
            highlight: or_default(o.color_highlight, defaults.highlight),
            arrow: or_default(o.color_arrow, defaults.arrow),
        },
    })
}

/// The `count` items at `ptr` (which may be NULL only when `count` is 0).
///
/// # Safety
/// `ptr` is NULL or points to `count` items that outlive `'a`.
unsafe fn items<'a, T>(ptr: *const T, count: usize) -> Result<&'a [T], chess_error> {
    match (ptr.is_null(), count) {
        (_, 0) => Ok(&[]),
        (true, _) => Err(CHESS_ERR_NULL_POINTER),
        // SAFETY: not NULL, so `count` valid items (this function's contract).
        (false, count) => Ok(unsafe { std::slice::from_raw_parts(ptr, count) }),
    }
}
