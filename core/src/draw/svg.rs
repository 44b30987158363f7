//! Board pictures: a position drawn as a standalone SVG 1.1 document, with the project's own
//! vector pieces and optional marks (last move, check, arrows, square fills, highlighted
//! squares).
//!
//! The drawing uses a fixed coordinate system (a square is 100 units, the margin 40) scaled to
//! [`SvgOptions::size`] pixels by `width`, `height` and `viewBox`, so the output for one input
//! is always the same bytes. Every piece is one `<use>` element carrying its square and FEN
//! letter in the attributes `chess:square` and `chess:piece` (namespace [`SVG_NAMESPACE`]).
//! A variant position adds its own marks through [`Extras`]: strips above and below the board
//! for crazyhouse's pockets and three-check's counters, and crazyhouse's promoted pieces.

use std::fmt::{self, Write};
use std::str::FromStr;

use crate::board::bitboard::Bitboard;
use crate::board::color::Color;
use crate::board::moves::Move;
use crate::board::piece::{Piece, PieceKind};
use crate::board::square::{File, Rank, Square};
use crate::notation::fen::FenWriteOptions;
use crate::position::Position;

/// The XML namespace of the `chess:square` and `chess:piece` attributes of the pieces.
pub const SVG_NAMESPACE: &str = "urn:chesscore:svg";

/// Side of a square in drawing units.
const SQUARE: i32 = 100;
/// Width of the margin that holds the coordinates, in drawing units.
const MARGIN: i32 = 40;
/// Height of the strips above and below the board that hold a variant's pockets and check
/// counters, in drawing units.
const STRIP: i32 = 100;
/// The least distance between a strip and the board (the margin, when there is one).
const STRIP_GAP: i32 = 20;

/// A colour with opacity (`a` 255 is opaque, 0 transparent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SvgColor {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl SvgColor {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> SvgColor {
        SvgColor { r, g, b, a: 255 }
    }

    /// The colour of a `0xRRGGBBAA` number.
    pub const fn from_rgba(rgba: u32) -> SvgColor {
        let [r, g, b, a] = rgba.to_be_bytes();
        SvgColor { r, g, b, a }
    }

    /// The colour as a `0xRRGGBBAA` number.
    pub const fn to_rgba(self) -> u32 {
        u32::from_be_bytes([self.r, self.g, self.b, self.a])
    }

    /// The arrow colours that have names (`"green"`, `"red"`, `"blue"`, `"yellow"`), all
    /// slightly transparent so the board shows through.
    pub const NAMED: [(&'static str, SvgColor); 4] = [
        ("green", SvgColor::from_rgba(0x1e_82_32_c8)),
        ("red", SvgColor::from_rgba(0xc8_28_28_c8)),
        ("blue", SvgColor::from_rgba(0x1e_50_c8_c8)),
        ("yellow", SvgColor::from_rgba(0xe6_a0_00_c8)),
    ];

    /// The `fill`/`stroke` attribute value: `#rrggbb`.
    fn hex(self) -> impl fmt::Display {
        HexColor(self)
    }
}

struct HexColor(SvgColor);

impl fmt::Display for HexColor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0.r, self.0.g, self.0.b)
    }
}

/// Text that is not a colour: see [`SvgColor`]'s `FromStr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid colour: expected #rgb, #rgba, #rrggbb, #rrggbbaa or green, red, blue, yellow")]
pub struct ParseSvgColorError;

impl FromStr for SvgColor {
    type Err = ParseSvgColorError;

    /// Reads `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` (hexadecimal, either case) or one of the
    /// [`SvgColor::NAMED`] colours.
    fn from_str(text: &str) -> Result<SvgColor, ParseSvgColorError> {
        if let Some((_, color)) = SvgColor::NAMED.iter().find(|(name, _)| *name == text) {
            return Ok(*color);
        }
        let digits = text.strip_prefix('#').ok_or(ParseSvgColorError)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(ParseSvgColorError);
        }
        let value = u32::from_str_radix(digits, 16).map_err(|_| ParseSvgColorError)?;
        // Short forms repeat each digit: #f80 is #ff8800.
        let expand = |short: u32, digits: u32| {
            (0..digits).rev().fold(0, |acc, i| (acc << 8) | (((short >> (4 * i)) & 0xf) * 0x11))
        };
        match digits.len() {
            3 => Ok(SvgColor::from_rgba(expand(value, 3) << 8 | 0xff)),
            4 => Ok(SvgColor::from_rgba(expand(value, 4))),
            6 => Ok(SvgColor::from_rgba(value << 8 | 0xff)),
            8 => Ok(SvgColor::from_rgba(value)),
            _ => Err(ParseSvgColorError),
        }
    }
}

/// The colours of a board picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SvgColors {
    /// Light squares.
    pub light: SvgColor,
    /// Dark squares.
    pub dark: SvgColor,
    /// A light square of the last move, instead of `light`.
    pub last_move_light: SvgColor,
    /// A dark square of the last move, instead of `dark`.
    pub last_move_dark: SvgColor,
    /// The margin around the board.
    pub margin: SvgColor,
    /// The coordinates on the margin.
    pub coordinates: SvgColor,
    /// The glow under a king in check.
    pub check: SvgColor,
    /// The frame of a highlighted square.
    pub highlight: SvgColor,
    /// Arrows that have no colour of their own.
    pub arrow: SvgColor,
}

impl Default for SvgColors {
    fn default() -> SvgColors {
        SvgColors {
            light: SvgColor::rgb(0xee, 0xda, 0xb6),
            dark: SvgColor::rgb(0xb0, 0x82, 0x5a),
            last_move_light: SvgColor::rgb(0xe2, 0xd6, 0x6e),
            last_move_dark: SvgColor::rgb(0xb8, 0xa6, 0x44),
            margin: SvgColor::rgb(0x2c, 0x2c, 0x2c),
            coordinates: SvgColor::rgb(0xe6, 0xe6, 0xe6),
            check: SvgColor::rgb(0xff, 0x00, 0x00),
            highlight: SvgColor::from_rgba(0x1e_50_c8_dc),
            arrow: SvgColor::NAMED[0].1,
        }
    }
}

/// An arrow between the centres of two squares, straight, its head on `to`; an arrow from a
/// square to itself is drawn as a ring around the square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrow {
    pub from: Square,
    pub to: Square,
    /// `None`: [`SvgColors::arrow`].
    pub color: Option<SvgColor>,
}

/// What [`Position::write_svg`] draws besides the position.
///
/// ```
/// use chesscore_core::{Arrow, Color, Position, Square, SvgOptions, Uci};
///
/// let before = Position::startpos();
/// let mv = "e2e4".parse::<Uci>()?.to_move(&before)?;
/// let pos = before.make_move(mv);
/// let options = SvgOptions {
///     size: 320,
///     orientation: Color::Black,
///     last_move: Some(mv),
///     arrows: vec![Arrow { from: Square::G8, to: Square::F6, color: None }],
///     ..SvgOptions::for_position(&pos) // marks the king in check, when it is
/// };
/// let svg = pos.to_svg(&options);
/// assert!(svg.starts_with("<svg") && svg.contains(r#"width="320""#));
/// assert_eq!(svg.matches("chess:piece=").count(), 32);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SvgOptions {
    /// Width and height of the picture in pixels (default 400), margin included.
    pub size: u32,
    /// The side at the bottom (default White).
    pub orientation: Color,
    /// File letters and rank numbers on a margin around the board (default true); without
    /// them there is no margin.
    pub coordinates: bool,
    /// Its two squares (`from` and `to`; for castling, encoded as king takes rook, the king's
    /// and the rook's) are drawn in the last-move colours.
    pub last_move: Option<Move>,
    /// Squares with the red check glow (see [`SvgOptions::for_position`]).
    pub check: Bitboard,
    /// Squares framed in the highlight colour, above the pieces (attacked squares, pins).
    pub squares: Bitboard,
    /// Squares tinted with a colour, in order (a later fill of a square goes over an earlier
    /// one), under the pieces.
    pub fill: Vec<(Square, SvgColor)>,
    /// Arrows, drawn in order above everything else.
    pub arrows: Vec<Arrow>,
    pub colors: SvgColors,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions {
            size: 400,
            orientation: Color::White,
            coordinates: true,
            last_move: None,
            check: Bitboard::EMPTY,
            squares: Bitboard::EMPTY,
            fill: Vec::new(),
            arrows: Vec::new(),
            colors: SvgColors::default(),
        }
    }
}

impl SvgOptions {
    /// The default options with the king of the side to move glowing when it is in check.
    pub fn for_position(pos: &Position) -> SvgOptions {
        let check = if pos.in_check() { Bitboard::from_square(pos.king_square(pos.turn())) } else { Bitboard::EMPTY };
        SvgOptions { check, ..SvgOptions::default() }
    }
}

/// The piece outlines, each in a 100 by 100 box: `(kind, body, details)`. The body is filled
/// with the piece's colour and outlined; the details are lines drawn in the outline colour on
/// White's pieces and in white on Black's, so both read at a glance.
const PIECE_SHAPES: [(PieceKind, &str, &str); 6] = [
    (
        PieceKind::Pawn,
        "M30 86H70V80C70 68 60 62 57 52H63V45H37V52H43C40 62 30 68 30 80ZM38 31A12 12 0 1 1 62 31A12 12 0 1 1 38 31Z",
        "",
    ),
    (
        PieceKind::Knight,
        "M34 86H80C82 60 76 36 62 26L60 14L53 23L46 15L44 27C34 32 24 46 18 60C16 67 23 72 29 67L38 60C44 62 50 58 \
         54 52C52 64 38 72 34 86Z",
        "M45 37A3 3 0 1 1 45.1 37M24 62L28 60",
    ),
    (
        PieceKind::Bishop,
        "M26 86H74V79H61L59 70C72 64 72 44 50 27C28 44 28 64 41 70L39 79H26ZM44 20A6 6 0 1 1 56 20A6 6 0 1 1 44 20Z",
        "M50 42V58M42 50H58M41 70H59",
    ),
    (
        PieceKind::Rook,
        "M24 86H76V78H70L66 45L72 40V18H62V26H55V18H45V26H38V18H28V40L34 45L30 78H24Z",
        "M34 45H66M31 72H69",
    ),
    (
        PieceKind::Queen,
        "M26 86H74L72 76L84 36L68 58L66 27L56 56L50 23L44 56L34 27L32 58L16 36L28 76Z\
         M11 36A5 5 0 1 1 21 36A5 5 0 1 1 11 36ZM29 27A5 5 0 1 1 39 27A5 5 0 1 1 29 27Z\
         M45 21A5 5 0 1 1 55 21A5 5 0 1 1 45 21ZM61 27A5 5 0 1 1 71 27A5 5 0 1 1 61 27Z\
         M79 36A5 5 0 1 1 89 36A5 5 0 1 1 79 36Z",
        "M28 76H72",
    ),
    (
        PieceKind::King,
        "M24 86H76V78L72 72C86 60 82 40 66 40C58 40 52 46 50 52C48 46 42 40 34 40C18 40 14 60 28 72L24 78Z\
         M46 10H54V18H62V26H54V52H46V26H38V18H46Z",
        "M28 72H72M50 54V72",
    ),
];

/// The `id` of a piece's drawing in the document's `<defs>`.
fn piece_id(piece: Piece) -> impl fmt::Display {
    struct Id(Piece);
    impl fmt::Display for Id {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "chesscore-{}{}", self.0.color.fen_char(), self.0.kind.char_upper())
        }
    }
    Id(piece)
}

/// A writer that escapes the five XML special characters of the text going through it, for
/// text and attribute values; it allocates nothing.
struct XmlEscaper<'a, W: Write>(&'a mut W);

impl<W: Write> Write for XmlEscaper<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        for c in text.chars() {
            match c {
                '&' => self.0.write_str("&amp;")?,
                '<' => self.0.write_str("&lt;")?,
                '>' => self.0.write_str("&gt;")?,
                '"' => self.0.write_str("&quot;")?,
                '\'' => self.0.write_str("&apos;")?,
                c => self.0.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// ` fill="#rrggbb"`, with ` fill-opacity` when the colour is not opaque (SVG 1.1 has no
/// colours with alpha).
fn paint(attribute: &'static str, color: SvgColor) -> impl fmt::Display {
    struct Paint(&'static str, SvgColor);
    impl fmt::Display for Paint {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, " {}=\"{}\"", self.0, self.1.hex())?;
            if self.1.a != 255 {
                write!(f, " {}-opacity=\"{}\"", self.0, Decimal(f64::from(self.1.a) / 255.0))?;
            }
            Ok(())
        }
    }
    Paint(attribute, color)
}

/// A number with at most two decimals, without trailing zeros (`0.5`, `12`, `-3.25`).
struct Decimal(f64);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hundredths = (self.0 * 100.0).round() as i64;
        let (sign, abs) = if hundredths < 0 { ("-", -hundredths) } else { ("", hundredths) };
        let (whole, fraction) = (abs / 100, abs % 100);
        match fraction {
            0 => write!(f, "{sign}{whole}"),
            _ if fraction % 10 == 0 => write!(f, "{sign}{whole}.{}", fraction / 10),
            _ => write!(f, "{sign}{whole}.{fraction:02}"),
        }
    }
}

/// Where squares go in the picture.
struct Layout {
    /// Width of the margin around the board (0 without coordinates).
    margin: i32,
    /// The board's top edge: below the margin, and below the top strip when there are strips.
    top: i32,
    orientation: Color,
}

impl Layout {
    fn new(options: &SvgOptions, strips: bool) -> Layout {
        let margin = if options.coordinates { MARGIN } else { 0 };
        let top = if strips { STRIP + margin.max(STRIP_GAP) } else { margin };
        Layout { margin, top, orientation: options.orientation }
    }

    fn width(&self) -> i32 {
        8 * SQUARE + 2 * self.margin
    }

    fn height(&self) -> i32 {
        8 * SQUARE + 2 * self.top
    }

    /// The top left corner of a square, in drawing units.
    fn corner(&self, sq: Square) -> (i32, i32) {
        let (file, rank) = (sq.file().index() as i32, sq.rank().index() as i32);
        let (column, row) = match self.orientation {
            Color::White => (file, 7 - rank),
            Color::Black => (7 - file, rank),
        };
        (self.margin + column * SQUARE, self.top + row * SQUARE)
    }

    /// The top edge of the strip of `color`: the bottom one for the side at the bottom.
    fn strip_top(&self, color: Color) -> i32 {
        if color == self.orientation {
            self.height() - STRIP
        } else {
            0
        }
    }

    fn centre(&self, sq: Square) -> (f64, f64) {
        let (x, y) = self.corner(sq);
        (f64::from(x + SQUARE / 2), f64::from(y + SQUARE / 2))
    }
}

/// What a variant adds to the picture of its board ([`VariantPosition`](crate::variant::VariantPosition)'s
/// `write_svg`); the default adds nothing.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Extras<'a> {
    /// The `<desc>` text instead of the board's FEN (a variant's FEN).
    pub(crate) fen: Option<&'a str>,
    /// Crazyhouse: how many of each kind, pawn to queen, each side holds in its pocket
    /// (indexed by [`Color::index`]), drawn in its strip.
    pub(crate) pockets: Option<[[u8; 5]; 2]>,
    /// Crazyhouse: pieces marked as promoted pawns.
    pub(crate) promoted: Bitboard,
    /// Three-check: the checks each side still has to give, drawn in its strip.
    pub(crate) remaining_checks: Option<[u8; 2]>,
}

impl Extras<'_> {
    /// True when the picture has a strip above and below the board.
    fn strips(&self) -> bool {
        self.pockets.is_some() || self.remaining_checks.is_some()
    }
}

/// The kinds a pocket can hold, pawn to queen, in the order they are drawn (the order of the
/// pocket counts).
const POCKET_KINDS: &[PieceKind] = PieceKind::ALL.split_at(5).0;

impl Position {
    /// The board as a standalone SVG 1.1 document (see [`Position::write_svg`]).
    pub fn to_svg(&self, options: &SvgOptions) -> String {
        let mut out = String::with_capacity(12 * 1024);
        // Writing to a String cannot fail.
        let _ = self.write_svg(&mut out, options);
        out
    }

    /// Writes the board as a standalone SVG 1.1 document to any `fmt::Write`: from the bottom
    /// up, the margin and its coordinates, the squares (last-move colours on the last move's
    /// squares), the fills, the check glow, the pieces, the highlight frames and the arrows. The
    /// position's FEN is the document's `<desc>`.
    pub fn write_svg<W: Write>(&self, out: &mut W, options: &SvgOptions) -> fmt::Result {
        self.write_svg_with(out, options, &Extras::default())
    }

    /// [`Position::write_svg`] with a variant's additions: its strips (pockets, check counters)
    /// drawn after the coordinates, the promoted marks after the pieces.
    pub(crate) fn write_svg_with<W: Write>(&self, out: &mut W, options: &SvgOptions, extras: &Extras) -> fmt::Result {
        let layout = Layout::new(options, extras.strips());
        let margin = layout.margin;
        let (width, height) = (layout.width(), layout.height());
        let colors = &options.colors;
        // The height in pixels keeps the drawing's proportions, rounded.
        let pixel_height = (u64::from(options.size) * height as u64 + width as u64 / 2) / width as u64;
        write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             xmlns:chess=\"{SVG_NAMESPACE}\" version=\"1.1\" width=\"{}\" height=\"{pixel_height}\" \
             viewBox=\"0 0 {width} {height}\">\n<desc>",
            options.size,
        )?;
        match extras.fen {
            Some(fen) => XmlEscaper(out).write_str(fen)?,
            None => self.write_fen(&mut XmlEscaper(out), &FenWriteOptions::default())?,
        }
        out.write_str("</desc>\n")?;
        self.write_piece_definitions(out, extras)?;
        if options.coordinates || extras.strips() {
            writeln!(out, "<rect width=\"{width}\" height=\"{height}\"{}/>", paint("fill", colors.margin))?;
        }
        if options.coordinates {
            write_coordinates(out, &layout, colors.coordinates)?;
        }
        if extras.strips() {
            for color in Color::ALL {
                write_strip(out, &layout, color, extras, colors)?;
            }
        }
        let last_move = options.last_move.map_or(Bitboard::EMPTY, |mv| Bitboard::from_square(mv.from()).with(mv.to()));
        let board = 8 * SQUARE;
        writeln!(
            out,
            "<rect x=\"{margin}\" y=\"{}\" width=\"{board}\" height=\"{board}\"{}/>",
            layout.top,
            paint("fill", colors.light)
        )?;
        for sq in Square::ALL {
            let color = match (sq.is_light(), last_move.contains(sq)) {
                (true, false) => continue,
                (false, false) => colors.dark,
                (true, true) => colors.last_move_light,
                (false, true) => colors.last_move_dark,
            };
            let (x, y) = layout.corner(sq);
            writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\"{}/>",
                paint("fill", color)
            )?;
        }
        for &(sq, color) in &options.fill {
            let (x, y) = layout.corner(sq);
            writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\"{}/>",
                paint("fill", color)
            )?;
        }
        for sq in options.check {
            write_check_glow(out, layout.centre(sq), colors.check)?;
        }
        for sq in Square::ALL {
            if let Some(piece) = self.piece_at(sq) {
                let (x, y) = layout.corner(sq);
                writeln!(
                    out,
                    "<use xlink:href=\"#{}\" x=\"{x}\" y=\"{y}\" chess:square=\"{sq}\" chess:piece=\"{}\"/>",
                    piece_id(piece),
                    piece.fen_char()
                )?;
            }
        }
        for sq in extras.promoted & self.occupancy() {
            write_promoted_mark(out, layout.corner(sq), sq, colors)?;
        }
        for sq in options.squares {
            let (x, y) = layout.corner(sq);
            writeln!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{w}\" height=\"{w}\" fill=\"none\" stroke-width=\"8\"{}/>",
                x + 4,
                y + 4,
                paint("stroke", colors.highlight),
                w = SQUARE - 8,
            )?;
        }
        for arrow in &options.arrows {
            write_arrow(out, &layout, arrow, arrow.color.unwrap_or(colors.arrow))?;
        }
        out.write_str("</svg>\n")
    }

    /// The `<defs>` of the pieces drawn, each kind and colour once: those on the board, those a
    /// pocket can hold when there are pockets, and the kings of the check counters.
    fn write_piece_definitions<W: Write>(&self, out: &mut W, extras: &Extras) -> fmt::Result {
        out.write_str("<defs>\n")?;
        for color in Color::ALL {
            let (fill, detail) = match color {
                Color::White => ("#ffffff", "#000000"),
                Color::Black => ("#000000", "#ffffff"),
            };
            for (kind, body, details) in PIECE_SHAPES {
                let drawn = !self.pieces_of(color, kind).is_empty()
                    || (extras.pockets.is_some() && POCKET_KINDS.contains(&kind))
                    || (extras.remaining_checks.is_some() && kind == PieceKind::King);
                if !drawn {
                    continue;
                }
                write!(
                    out,
                    "<g id=\"{}\" transform=\"matrix(1.12 0 0 1.12 -6 -6)\" stroke=\"#000000\" \
                     stroke-width=\"3\" stroke-linejoin=\"round\" stroke-linecap=\"round\"><path d=\"{body}\" fill=\"{fill}\"/>",
                    piece_id(Piece::new(color, kind))
                )?;
                if !details.is_empty() {
                    write!(out, "<path d=\"{details}\" fill=\"none\" stroke=\"{detail}\"/>")?;
                }
                out.write_str("</g>\n")?;
            }
        }
        out.write_str("</defs>\n")
    }
}

/// File letters above and below the board, rank numbers left and right of it.
fn write_coordinates<W: Write>(out: &mut W, layout: &Layout, color: SvgColor) -> fmt::Result {
    writeln!(
        out,
        "<g font-family=\"sans-serif\" font-size=\"26\" font-weight=\"bold\" text-anchor=\"middle\"{}>",
        paint("fill", color)
    )?;
    // Beyond the board's edges, in the middle of the margin.
    let (left, right) = (layout.margin / 2, layout.margin + 8 * SQUARE + layout.margin / 2);
    let (above, below) = (layout.top - layout.margin / 2, layout.top + 8 * SQUARE + layout.margin / 2);
    // Text sits on its baseline: a third of the font size lower centres it vertically.
    let baseline = 9;
    let mut label = |x: f64, y: f64, text: char| -> fmt::Result {
        write!(out, "<text x=\"{}\" y=\"{}\">", Decimal(x), Decimal(y))?;
        XmlEscaper(out).write_char(text)?;
        writeln!(out, "</text>")
    };
    for file in File::ALL {
        let (x, _) = layout.centre(Square::new(file, Rank::First));
        for y in [above, below] {
            label(x, f64::from(y + baseline), file.to_char())?;
        }
    }
    for rank in Rank::ALL {
        let (_, y) = layout.centre(Square::new(File::A, rank));
        for x in [left, right] {
            label(f64::from(x), y + f64::from(baseline), rank.to_char())?;
        }
    }
    out.write_str("</g>\n")
}

/// The strip of `color`, as wide as the board: its pocket (each kind a piece, with its count on
/// a badge; the kinds it lacks faded) and its check counter (its king, then a disc for each
/// check it still has to give and a ring for each one given).
fn write_strip<W: Write>(
    out: &mut W,
    layout: &Layout,
    color: Color,
    extras: &Extras,
    colors: &SvgColors,
) -> fmt::Result {
    let (left, top) = (layout.margin, layout.strip_top(color));
    let side = color.fen_char();
    writeln!(
        out,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{STRIP}\"{}/>",
        8 * SQUARE,
        paint("fill", colors.light)
    )?;
    let mut x = left;
    if let Some(pockets) = extras.pockets {
        let pocket = pockets[color.index()];
        for &kind in POCKET_KINDS {
            let (piece, count) = (Piece::new(color, kind), pocket[kind.index()]);
            let faded = if count == 0 { " opacity=\"0.3\"" } else { "" };
            writeln!(
                out,
                "<use xlink:href=\"#{}\" x=\"{x}\" y=\"{top}\"{faded} chess:pocket=\"{side}\" \
                 chess:piece=\"{}\" chess:count=\"{count}\"/>",
                piece_id(piece),
                piece.fen_char()
            )?;
            if count > 0 {
                let (cx, cy) = (x + SQUARE - 18, top + SQUARE - 18);
                // Text sits on its baseline: 9 units lower centres the digits on the badge.
                writeln!(
                    out,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"18\"{}/><text x=\"{cx}\" y=\"{}\" \
                     font-family=\"sans-serif\" font-size=\"26\" font-weight=\"bold\" text-anchor=\"middle\"{}>{count}</text>",
                    paint("fill", colors.margin),
                    cy + 9,
                    paint("fill", colors.coordinates),
                )?;
            }
            x += SQUARE;
        }
    }
    if let Some(checks) = extras.remaining_checks {
        let remaining = checks[color.index()];
        write!(
            out,
            "<g chess:checks=\"{side}\" chess:remaining=\"{remaining}\"><use xlink:href=\"#{}\" x=\"{x}\" y=\"{top}\"/>",
            piece_id(Piece::new(color, PieceKind::King))
        )?;
        for i in 0..3 {
            let cx = x + SQUARE + 20 + i * 50;
            let fill = if i < i32::from(remaining) { paint("fill", colors.check) } else { paint("fill", colors.light) };
            write!(
                out,
                "<circle cx=\"{cx}\" cy=\"{}\" r=\"16\" stroke-width=\"5\"{fill}{}/>",
                top + SQUARE / 2,
                paint("stroke", colors.check)
            )?;
        }
        out.write_str("</g>\n")?;
    }
    Ok(())
}

/// A tilde on a small disc in the top right corner of the square whose top left corner is
/// `(x, y)`: the piece there is a promoted pawn.
fn write_promoted_mark<W: Write>(out: &mut W, (x, y): (i32, i32), sq: Square, colors: &SvgColors) -> fmt::Result {
    writeln!(
        out,
        "<g chess:promoted=\"{sq}\" transform=\"translate({x} {y})\"><circle cx=\"84\" cy=\"16\" r=\"14\"{}/>\
         <path d=\"M75 19C77 12 81 12 84 16S91 20 93 13\" fill=\"none\" stroke-width=\"4\" stroke-linecap=\"round\"{}/></g>",
        paint("fill", colors.margin),
        paint("stroke", colors.coordinates)
    )
}

/// A red glow: concentric discs whose opacities add up towards the centre (no gradient, so the
/// document needs no `id` beyond the pieces').
fn write_check_glow<W: Write>(out: &mut W, (x, y): (f64, f64), color: SvgColor) -> fmt::Result {
    let opacity = SvgColor { a: (u32::from(color.a) * 9 / 20) as u8, ..color };
    write!(out, "<g{}>", paint("fill", opacity))?;
    for radius in [50, 40, 30, 20] {
        write!(out, "<circle cx=\"{}\" cy=\"{}\" r=\"{radius}\"/>", Decimal(x), Decimal(y))?;
    }
    out.write_str("</g>\n")
}

/// A straight arrow from centre to centre (its tip on the target's centre), or a ring for an
/// arrow from a square to itself.
fn write_arrow<W: Write>(out: &mut W, layout: &Layout, arrow: &Arrow, color: SvgColor) -> fmt::Result {
    let (x0, y0) = layout.centre(arrow.from);
    let (x1, y1) = layout.centre(arrow.to);
    if arrow.from == arrow.to {
        return writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"44\" fill=\"none\" stroke-width=\"8\"{}/>",
            Decimal(x0),
            Decimal(y0),
            paint("stroke", color)
        );
    }
    let (dx, dy) = (x1 - x0, y1 - y0);
    let length = dx.hypot(dy);
    let (ux, uy) = (dx / length, dy / length);
    // The unit normal, to the arrow's left.
    let (nx, ny) = (-uy, ux);
    let (shaft, head, head_length) = (10.0, 26.0, 44.0);
    let (bx, by) = (x1 - ux * head_length, y1 - uy * head_length);
    let points = [
        (x0 + nx * shaft, y0 + ny * shaft),
        (bx + nx * shaft, by + ny * shaft),
        (bx + nx * head, by + ny * head),
        (x1, y1),
        (bx - nx * head, by - ny * head),
        (bx - nx * shaft, by - ny * shaft),
        (x0 - nx * shaft, y0 - ny * shaft),
    ];
    write!(out, "<polygon points=\"")?;
    for (i, (x, y)) in points.into_iter().enumerate() {
        let gap = if i == 0 { "" } else { " " };
        write!(out, "{gap}{},{}", Decimal(x), Decimal(y))?;
    }
    writeln!(out, "\"{}/>", paint("fill", color))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_every_form_and_refuse_the_rest() {
        let read = |text: &str| text.parse::<SvgColor>().map(SvgColor::to_rgba);
        assert_eq!(read("#f80"), Ok(0xff8800ff));
        assert_eq!(read("#f808"), Ok(0xff880088));
        assert_eq!(read("#A1b2C3"), Ok(0xa1b2c3ff));
        assert_eq!(read("#a1b2c3d4"), Ok(0xa1b2c3d4));
        assert_eq!(read("green"), Ok(SvgColor::NAMED[0].1.to_rgba()));
        for bad in ["", "#", "#12", "#12345", "#1234567", "#+12", "#gggggg", "ff0000", "Green", "#ff0000\"/>"] {
            assert_eq!(read(bad), Err(ParseSvgColorError), "{bad}");
        }
    }

    #[test]
    fn decimals_are_short_and_rounded() {
        let shown = |x: f64| Decimal(x).to_string();
        assert_eq!(
            [shown(12.0), shown(0.5), shown(-3.25), shown(1.004), shown(2.999)],
            ["12", "0.5", "-3.25", "1", "3"]
        );
    }

    #[test]
    fn text_is_escaped() {
        let mut out = String::new();
        XmlEscaper(&mut out).write_str("<a href='x'>&\"</a> é").unwrap();
        assert_eq!(out, "&lt;a href=&apos;x&apos;&gt;&amp;&quot;&lt;/a&gt; é");
    }

    #[test]
    fn only_the_pieces_on_the_board_are_defined() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let svg = pos.to_svg(&SvgOptions::default());
        assert_eq!(svg.matches("<g id=").count(), 3, "{svg}");
        assert!(svg.contains("id=\"chesscore-wP\"") && svg.contains("id=\"chesscore-bK\""));
    }
}
