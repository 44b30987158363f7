//! Board pictures: the SVG read back with an XML parser (structure, one element per piece,
//! determinism, size), and drawn by a real browser (headless Chromium) and by an SVG-to-PNG
//! converter (librsvg's `rsvg-convert`) to check their pixels:
//! square colours, pieces, the last-move tint, the check glow, fills, highlight frames, arrows,
//! and the flipped board. Variant positions add crazyhouse's pockets and promoted pieces and
//! three-check's counters, and mark a check only where the variant has one.

use chesscore_test_support as common;

use std::path::Path;
use std::process::Command;

use chesscore_core::variant::{Variant, VariantPosition};
use chesscore_core::{
    Arrow, Bitboard, Color, Move, MoveKind, PieceKind, Position, Square, SvgColor, SvgColors, SvgOptions, SVG_NAMESPACE,
};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Each piece kind once in each colour, and room around them.
const EVERY_KIND: &str = "4k3/1q1r1b1n/p7/8/8/P7/1Q1R1B1N/4K3 w - - 0 1";
/// Fool's mate, after 2... Qh4#.
const CHECKMATE: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";

fn positions() -> Vec<(&'static str, Position)> {
    [("start", Position::startpos().to_fen().leak() as &str), ("kiwipete", KIWIPETE), ("every kind", EVERY_KIND)]
        .into_iter()
        .chain([("checkmate", CHECKMATE)])
        .map(|(name, fen)| (name, Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))))
        .collect()
}

/// The checkmate's options: the last move and the king in check marked.
fn checkmate_options(pos: &Position) -> SvgOptions {
    SvgOptions { last_move: Some(Move::new(Square::D8, Square::H4, MoveKind::Normal)), ..SvgOptions::for_position(pos) }
}

#[test]
fn the_document_is_xml_with_one_element_per_piece() {
    for (name, pos) in positions() {
        for orientation in Color::ALL {
            let options = SvgOptions { orientation, ..checkmate_options(&pos) };
            let svg = pos.to_svg(&options);
            assert_eq!(svg, pos.to_svg(&options), "{name}: the same input gives the same bytes");
            let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}\n{svg}"));
            let root = doc.root_element();
            assert_eq!(root.tag_name().name(), "svg");
            assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
            assert_eq!((root.attribute("version"), root.attribute("width")), (Some("1.1"), Some("400")));
            assert_eq!(root.attribute("viewBox"), Some("0 0 880 880"));
            let desc = root.children().find(|n| n.has_tag_name("desc")).expect("a desc");
            assert_eq!(desc.text(), Some(pos.to_fen().as_str()));

            let pieces: Vec<_> =
                doc.descendants().filter(|n| n.attribute((SVG_NAMESPACE, "square")).is_some()).collect();
            assert_eq!(pieces.len(), pos.occupancy().count() as usize, "{name}");
            for node in &pieces {
                assert_eq!(node.tag_name().name(), "use");
                let square: Square = node.attribute((SVG_NAMESPACE, "square")).unwrap().parse().unwrap();
                let letter = node.attribute((SVG_NAMESPACE, "piece")).unwrap();
                assert_eq!(pos.piece_at(square).map(|p| p.fen_char().to_string()).as_deref(), Some(letter));
                // The drawing it uses is defined in the document.
                let href = node.attribute(("http://www.w3.org/1999/xlink", "href")).unwrap();
                let id = href.strip_prefix('#').unwrap();
                assert!(doc.descendants().any(|n| n.attribute("id") == Some(id)), "{name}: no #{id}");
            }
            // Text is the coordinates and the FEN only.
            let texts: Vec<&str> =
                doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
            assert_eq!(texts.len(), 32);
            assert!(texts.iter().all(|t| t.len() == 1 && t.chars().all(|c| matches!(c, 'a'..='h' | '1'..='8'))));
        }
    }
    let start = Position::startpos().to_svg(&SvgOptions::default());
    println!("start position: {} bytes", start.len());
    assert!(start.len() < 12_000, "{} bytes", start.len());
}

#[test]
fn the_options_change_what_is_drawn() {
    let pos = Position::startpos();
    let plain = pos.to_svg(&SvgOptions::default());
    let without = pos.to_svg(&SvgOptions { coordinates: false, size: 800, ..SvgOptions::default() });
    assert!(!without.contains("<text"));
    assert!(without.contains("width=\"800\" height=\"800\" viewBox=\"0 0 800 800\""), "{without}");
    let marked = SvgOptions {
        arrows: vec![Arrow { from: Square::E2, to: Square::E4, color: None }],
        fill: vec![(Square::A3, "#ff000080".parse().unwrap())],
        squares: Bitboard::from_square(Square::H5),
        ..SvgOptions::default()
    };
    let svg = pos.to_svg(&marked);
    assert_eq!(svg.matches("<polygon").count(), 1);
    assert!(svg.contains("fill=\"#ff0000\" fill-opacity=\"0.5\""), "{svg}");
    assert!(svg.len() > plain.len());
    // No king in check: for_position marks nothing.
    assert_eq!(SvgOptions::for_position(&pos), SvgOptions::default());
}

/// A program that turns SVG into PNG: a browser, and a converter.
#[derive(Debug, Clone, Copy)]
enum Renderer {
    /// Headless Chromium (Debian's `chromium`).
    Chromium,
    /// librsvg's `rsvg-convert` (Debian's `librsvg2-bin`).
    Rsvg,
}

impl Renderer {
    fn program(self) -> &'static str {
        match self {
            Renderer::Chromium => "chromium",
            Renderer::Rsvg => "rsvg-convert",
        }
    }

    /// The renderers that are installed; each one missing is recorded as not run for `suite`
    /// (or fails the test when required).
    fn installed(suite: &str) -> Vec<Renderer> {
        let package = |r: Renderer| match r {
            Renderer::Chromium => "chromium",
            Renderer::Rsvg => "librsvg2-bin",
        };
        [Renderer::Chromium, Renderer::Rsvg]
            .into_iter()
            .filter(|&r| {
                let works = Command::new(r.program()).arg("--version").output().is_ok_and(|o| o.status.success());
                if !works {
                    let why = format!(
                        "{} is not installed (Debian's {}; scripts/test.sh installs it as root)",
                        r.program(),
                        package(r)
                    );
                    common::not_run(r.program(), &format!("{suite} by {}", r.program()), &why);
                }
                works
            })
            .collect()
    }

    /// The command that draws `svg` into `png`, `width` by `height` pixels.
    fn command(self, svg: &Path, png: &Path, (width, height): (u32, u32), profile: &Path) -> Command {
        let mut command = Command::new(self.program());
        match self {
            Renderer::Chromium => {
                // A profile of its own, so that runs at the same time share none; no sandbox,
                // which cannot start as root.
                command
                    .arg(format!("--user-data-dir={}", profile.display()))
                    .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"])
                    .arg("--force-device-scale-factor=1")
                    .arg(format!("--window-size={width},{height}"))
                    .arg(format!("--screenshot={}", png.display()))
                    .arg(svg);
            }
            Renderer::Rsvg => {
                command.arg("-o").arg(png).arg(svg);
            }
        }
        command
    }
}

/// An RGB picture decoded from a PNG.
struct Picture {
    width: usize,
    pixels: Vec<[u8; 3]>,
}

impl Picture {
    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        self.pixels[y * self.width + x]
    }
}

/// Draws `svg` with `renderer` at its own size (`size` pixels square) and decodes the PNG.
fn draw(renderer: Renderer, svg: &str, size: u32, name: &str) -> Picture {
    draw_sized(renderer, svg, (size, size), name)
}

/// Draws `svg` with `renderer` at its own size (`width` by `height` pixels) and decodes the PNG.
fn draw_sized(renderer: Renderer, svg: &str, (width, height): (u32, u32), name: &str) -> Picture {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("svg-pixels");
    std::fs::create_dir_all(&dir).unwrap();
    let (svg_path, png_path) = (dir.join(format!("{name}.svg")), dir.join(format!("{name}.png")));
    std::fs::write(&svg_path, svg).unwrap();
    let _ = std::fs::remove_file(&png_path);
    let profile = dir.join(format!("profile-{name}"));
    let out = renderer.command(&svg_path, &png_path, (width, height), &profile).output().unwrap();
    assert!(png_path.is_file(), "{name}: no picture: {}", String::from_utf8_lossy(&out.stderr));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png_path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    assert!(info.bit_depth == png::BitDepth::Eight && channels >= 3, "{name}: {info:?}");
    let pixels = buf[..info.buffer_size()].chunks(channels).map(|p| [p[0], p[1], p[2]]).collect();
    let picture = Picture { width: info.width as usize, pixels };
    assert_eq!((info.width, info.height), (width, height), "{name}");
    picture
}

/// Where a point of a square falls in the picture: `(fx, fy)` are fractions of the square from
/// its top left corner as seen.
fn pixel(sq: Square, orientation: Color, (fx, fy): (f64, f64), size: u32) -> (usize, usize) {
    let (file, rank) = (sq.file().index() as f64, sq.rank().index() as f64);
    let (column, row) = if orientation == Color::White { (file, 7.0 - rank) } else { (7.0 - file, rank) };
    let scale = f64::from(size) / 880.0;
    (((40.0 + (column + fx) * 100.0) * scale) as usize, ((40.0 + (row + fy) * 100.0) * scale) as usize)
}

fn close(a: [u8; 3], b: SvgColor) -> bool {
    a.iter().zip([b.r, b.g, b.b]).all(|(&x, y)| x.abs_diff(y) <= 6)
}

const CENTRE: (f64, f64) = (0.5, 0.5);
/// Inside the check glow's outer disc but clear of the king's outline.
const BESIDE_THE_KING: (f64, f64) = (0.08, 0.5);

#[test]
fn a_browser_and_a_converter_draw_the_squares_pieces_and_marks_where_they_belong() {
    for renderer in Renderer::installed("svg: squares, pieces, last move and check drawn") {
        draw_squares_pieces_and_marks(renderer);
    }
}

fn draw_squares_pieces_and_marks(renderer: Renderer) {
    let colors = SvgColors::default();
    let size = 440;
    for (name, pos) in positions() {
        for orientation in Color::ALL {
            let mut options = SvgOptions { orientation, size, ..checkmate_options(&pos) };
            if name != "checkmate" {
                options.last_move = Some(Move::new(Square::A3, Square::H6, MoveKind::Normal));
                options.check = Bitboard::EMPTY;
            }
            let last_move = options.last_move.map(|mv| [mv.from(), mv.to()]).unwrap();
            let label = format!("{}-{}-{}", name.replace(' ', "-"), orientation.name(), renderer.program());
            let picture = draw(renderer, &pos.to_svg(&options), size, &label);
            for sq in Square::ALL {
                let (x, y) = pixel(sq, orientation, CENTRE, size);
                let seen = picture.at(x, y);
                let empty = match (sq.is_light(), last_move.contains(&sq)) {
                    (true, false) => colors.light,
                    (false, false) => colors.dark,
                    (true, true) => colors.last_move_light,
                    (false, true) => colors.last_move_dark,
                };
                match pos.piece_at(sq) {
                    None => assert!(close(seen, empty), "{label}: {sq} at ({x}, {y}) is {seen:?}, not {empty:?}"),
                    Some(piece) => {
                        assert!(!close(seen, empty), "{label}: {sq} holds {piece} but looks empty ({seen:?})")
                    }
                }
                let beside = picture.at(pixel(sq, orientation, BESIDE_THE_KING, size).0, y);
                let red = i32::from(beside[0]) - i32::from(beside[1]);
                if options.check.contains(sq) {
                    assert!(red > 100, "{label}: no check glow on {sq}: {beside:?}");
                } else if !last_move.contains(&sq) {
                    assert!(red < 60, "{label}: {sq} is red: {beside:?}");
                }
            }
        }
    }
}

#[test]
fn a_browser_and_a_converter_draw_fills_frames_and_arrows() {
    for renderer in Renderer::installed("svg: fills, frames and arrows drawn") {
        draw_fills_frames_and_arrows(renderer);
    }
}

fn draw_fills_frames_and_arrows(renderer: Renderer) {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let blue: SvgColor = "#0000ff".parse().unwrap();
    let size = 880;
    for orientation in Color::ALL {
        let options = SvgOptions {
            orientation,
            size,
            fill: vec![(Square::C4, blue)],
            squares: Bitboard::from_square(Square::H5),
            arrows: vec![Arrow { from: Square::A3, to: Square::A5, color: Some("red".parse().unwrap()) }],
            ..SvgOptions::default()
        };
        let label = format!("marks-{}-{}", orientation.name(), renderer.program());
        let picture = draw(renderer, &pos.to_svg(&options), size, &label);
        let at = |sq, point| {
            let (x, y) = pixel(sq, orientation, point, size);
            picture.at(x, y)
        };
        assert!(close(at(Square::C4, CENTRE), blue), "{label}: fill {:?}", at(Square::C4, CENTRE));
        // The frame runs along the inside of the square's edge; its middle is untouched.
        let frame = at(Square::H5, (0.06, 0.5));
        assert!(frame[2] > frame[0] + 60, "{label}: no frame on h5: {frame:?}");
        assert!(close(at(Square::H5, CENTRE), SvgColors::default().light), "{label}: h5 {:?}", at(Square::H5, CENTRE));
        // The shaft crosses a4, empty, on the way to a5.
        let shaft = at(Square::A4, CENTRE);
        assert!(shaft[0] > shaft[1] + 80, "{label}: no red arrow over a4: {shaft:?}");
        let a4 = if Square::A4.is_light() { SvgColors::default().light } else { SvgColors::default().dark };
        assert!(close(at(Square::A4, (0.1, 0.1)), a4), "{label}: the arrow is too wide");
    }
}

/// FNV-1a, 64 bits: a digest that stays the same across Rust releases.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// The chess pictures of the tests above, by name.
fn chess_pictures() -> Vec<(String, String)> {
    let mut pictures = Vec::new();
    for (name, pos) in positions() {
        for orientation in Color::ALL {
            let options = SvgOptions { orientation, ..checkmate_options(&pos) };
            pictures.push((format!("{name} {}", orientation.name()), pos.to_svg(&options)));
        }
    }
    let start = Position::startpos();
    pictures
        .push(("bare".into(), start.to_svg(&SvgOptions { coordinates: false, size: 800, ..SvgOptions::default() })));
    let marked = SvgOptions {
        arrows: vec![
            Arrow { from: Square::E2, to: Square::E4, color: None },
            Arrow { from: Square::B1, to: Square::B1, color: None },
        ],
        fill: vec![(Square::A3, "#ff000080".parse().unwrap())],
        squares: Bitboard::from_square(Square::H5),
        ..SvgOptions::default()
    };
    pictures.push(("marked".into(), start.to_svg(&marked)));
    pictures
}

#[test]
fn chess_pictures_are_the_same_bytes_as_before_variants() {
    // Recorded from the renderer before it drew variants (length and FNV-1a of each picture).
    let before = [
        ("start white", 10539, 0xa8982be0fce5a4ef),
        ("start black", 10539, 0xbc7a96c7bfb1e6fd),
        ("kiwipete white", 10555, 0xc90777af6236686f),
        ("kiwipete black", 10556, 0x622ef78f510a2efd),
        ("every kind white", 8857, 0xc897cf09efc0f4ae),
        ("every kind black", 8857, 0x1a269c009cabd2b6),
        ("checkmate white", 10724, 0xf516598f29f4cb83),
        ("checkmate black", 10718, 0x872b7309a2eb3ea7),
        ("bare", 9393, 0x12ab6245da08b371),
        ("marked", 10950, 0x7ae068bdf47121c9),
    ];
    let now: Vec<(String, usize, u64)> =
        chess_pictures().into_iter().map(|(name, svg)| (name, svg.len(), fnv1a(&svg))).collect();
    let now: Vec<(&str, usize, u64)> = now.iter().map(|(name, len, hash)| (name.as_str(), *len, *hash)).collect();
    assert_eq!(now, before);
}

/// Crazyhouse, both pockets holding something, a promoted queen on d8 (giving check) and a
/// promoted knight on a5.
const CRAZYHOUSE: &str = "r2Q~kb1r/ppp2ppp/2n5/n~3p3/4P3/8/PPP2PPP/R1B1KB1R[QNNPPPbp] b KQkq - 0 9";

/// The document of a picture, parsed.
fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"))
}

/// A number attribute of `node`.
fn number(node: roxmltree::Node, name: &str) -> i32 {
    node.attribute(name).unwrap_or_else(|| panic!("no {name}")).parse().unwrap()
}

#[test]
fn crazyhouse_pockets_are_drawn_beside_the_board_and_turn_with_it() {
    let pos = VariantPosition::from_fen(Variant::Crazyhouse, CRAZYHOUSE).unwrap();
    for orientation in Color::ALL {
        let svg = pos.to_svg(&SvgOptions { orientation, ..SvgOptions::for_variant(&pos) });
        assert_eq!(svg, pos.to_svg(&SvgOptions { orientation, ..SvgOptions::for_variant(&pos) }));
        let doc = parse(&svg);
        let root = doc.root_element();
        // Two strips of 100 units, each 40 from the board (the margin): 880 by 1080.
        assert_eq!(root.attribute("viewBox"), Some("0 0 880 1080"));
        assert_eq!((root.attribute("width"), root.attribute("height")), (Some("400"), Some("491")));
        let desc = root.children().find(|n| n.has_tag_name("desc")).unwrap();
        assert_eq!(desc.text(), Some(pos.to_fen().as_str()));

        let board: Vec<_> = doc.descendants().filter(|n| n.attribute((SVG_NAMESPACE, "square")).is_some()).collect();
        assert_eq!(board.len(), pos.occupancy().count() as usize);
        let board_ys: Vec<i32> = board.iter().map(|n| number(*n, "y")).collect();
        let (board_top, board_bottom) = (*board_ys.iter().min().unwrap(), *board_ys.iter().max().unwrap() + 100);
        let pocket: Vec<_> = doc.descendants().filter(|n| n.attribute((SVG_NAMESPACE, "pocket")).is_some()).collect();
        assert_eq!(pocket.len(), 10, "five kinds a side");
        for node in &pocket {
            let color =
                if node.attribute((SVG_NAMESPACE, "pocket")) == Some("w") { Color::White } else { Color::Black };
            let letter = node.attribute((SVG_NAMESPACE, "piece")).unwrap();
            let kind =
                PieceKind::ALL.into_iter().find(|k| k.char_upper().to_string() == letter.to_uppercase()).unwrap();
            assert_eq!(letter.chars().all(|c| c.is_ascii_uppercase()), color == Color::White, "{letter}");
            let count: u8 = node.attribute((SVG_NAMESPACE, "count")).unwrap().parse().unwrap();
            assert_eq!(count, pos.pocket(color).count(kind), "{color} {kind:?}");
            assert_eq!(node.attribute("opacity").is_some(), count == 0, "the kinds a pocket lacks are faded");
            // The side at the bottom has its pocket below the board, the other above it.
            let y = number(*node, "y");
            if color == orientation {
                assert!(y >= board_bottom, "{orientation}: {color}'s pocket at {y}, the board ends at {board_bottom}");
            } else {
                assert!(
                    y + 100 <= board_top,
                    "{orientation}: {color}'s pocket at {y}, the board starts at {board_top}"
                );
            }
        }
        // A badge with the count of each kind held: White's P, N, Q, then Black's p, b.
        let texts: Vec<&str> = doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
        assert_eq!(texts.len(), 32 + 5, "the coordinates and five badges");
        assert_eq!(texts[32..], ["3", "2", "1", "1", "1"]);
        let promoted: Vec<&str> = doc.descendants().filter_map(|n| n.attribute((SVG_NAMESPACE, "promoted"))).collect();
        assert_eq!(promoted, ["a5", "d8"]);
    }
}

#[test]
fn three_check_counters_show_the_checks_each_side_has_left() {
    // White has given two checks, Black one.
    let pos = VariantPosition::from_fen(
        Variant::ThreeCheck,
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+2 0 3",
    )
    .unwrap();
    let colors = SvgColors::default();
    for orientation in Color::ALL {
        let svg = pos.to_svg(&SvgOptions { orientation, ..SvgOptions::default() });
        let doc = parse(&svg);
        assert_eq!(doc.root_element().attribute("viewBox"), Some("0 0 880 1080"));
        let counters: Vec<_> = doc.descendants().filter(|n| n.attribute((SVG_NAMESPACE, "checks")).is_some()).collect();
        assert_eq!(counters.len(), 2);
        for counter in counters {
            let side = counter.attribute((SVG_NAMESPACE, "checks")).unwrap();
            let color = if side == "w" { Color::White } else { Color::Black };
            let remaining = pos.remaining_checks(color);
            assert_eq!(counter.attribute((SVG_NAMESPACE, "remaining")), Some(remaining.to_string().as_str()));
            let discs: Vec<_> = counter.children().filter(|n| n.has_tag_name("circle")).collect();
            assert_eq!(discs.len(), 3, "{side}");
            let red = format!("#{:02x}{:02x}{:02x}", colors.check.r, colors.check.g, colors.check.b);
            let filled = discs.iter().filter(|n| n.attribute("fill") == Some(red.as_str())).count();
            assert_eq!(filled, usize::from(remaining), "{side}");
            // Its king, then the discs; the side at the bottom has its counter at the bottom.
            let king = counter.children().find(|n| n.has_tag_name("use")).unwrap();
            let href = king.attribute(("http://www.w3.org/1999/xlink", "href")).unwrap();
            assert_eq!(href, format!("#chesscore-{side}K"));
            assert!(doc.descendants().any(|n| n.attribute("id") == Some(&href[1..])));
            assert_eq!(number(king, "y") > 500, color == orientation, "{orientation}: {side}");
        }
        // No pockets in three-check.
        assert!(!svg.contains("chess:pocket"));
    }
    assert_eq!((pos.remaining_checks(Color::White), pos.remaining_checks(Color::Black)), (1, 2));
}

#[test]
fn the_check_mark_follows_the_variant() {
    // The black king is attacked by a rook in each; in the second, the kings touch.
    let cases = [
        (Variant::Antichess, "4k3/8/8/8/8/8/8/4R2K b - - 0 1", false),
        (Variant::Atomic, "8/8/8/8/8/3kK3/8/3R4 b - - 0 1", false),
        (Variant::Atomic, "4k3/8/8/8/8/8/8/4R2K b - - 0 1", true),
        (Variant::KingOfTheHill, "4k3/8/8/8/8/8/8/4R2K b - - 0 1", true),
        (Variant::ThreeCheck, "4k3/8/8/8/8/8/8/4R2K b - - 2+3 0 1", true),
        (Variant::Crazyhouse, "4k3/8/8/8/8/8/8/4R2K[] b - - 0 1", true),
        (Variant::Chess, "4k3/8/8/8/8/8/8/4R2K b - - 0 1", true),
    ];
    for (variant, fen, check) in cases {
        let pos = VariantPosition::from_fen(variant, fen).unwrap_or_else(|e| panic!("{variant}: {e}"));
        // Chess refuses touching kings; elsewhere its board sees the check.
        if let Ok(chess) = Position::from_fen(&fen.replace("[]", "").replace(" 2+3", "")) {
            assert!(chess.in_check(), "{variant}: the chess board has a check");
        }
        assert_eq!(pos.is_check(), check, "{variant}");
        let options = SvgOptions::for_variant(&pos);
        let king = pos.pieces_of(Color::Black, PieceKind::King);
        assert_eq!(options.check, if check { king } else { Bitboard::EMPTY }, "{variant}");
        // The glow's outer disc has a radius of 50.
        let svg = pos.to_svg(&options);
        assert_eq!(svg.contains("r=\"50\""), check, "{variant}");
    }
}

#[test]
fn a_chess_variant_position_is_drawn_as_the_chess_position() {
    for (name, pos) in positions() {
        let variant = VariantPosition::from_fen(Variant::Chess, &pos.to_fen()).unwrap();
        assert_eq!(SvgOptions::for_variant(&variant), SvgOptions::for_position(&pos), "{name}");
        let options = SvgOptions { orientation: Color::Black, ..checkmate_options(&pos) };
        assert_eq!(variant.to_svg(&options), pos.to_svg(&options), "{name}");
    }
    // Variants without pockets or counters draw the board alone.
    let atomic = VariantPosition::new(Variant::Atomic);
    let svg = atomic.to_svg(&SvgOptions::default());
    assert_eq!(svg, Position::startpos().to_svg(&SvgOptions::default()));
}

#[test]
fn a_browser_and_a_converter_draw_pockets_and_counters() {
    for renderer in Renderer::installed("svg: pockets, promoted marks and check counters drawn") {
        draw_pockets_and_counters(renderer);
    }
}

fn draw_pockets_and_counters(renderer: Renderer) {
    let colors = SvgColors::default();
    let pos = VariantPosition::from_fen(Variant::Crazyhouse, CRAZYHOUSE).unwrap();
    let three = VariantPosition::from_fen(Variant::ThreeCheck, "4k3/8/8/8/8/8/8/4K3 w - - 1+2 0 1").unwrap();
    // 880 pixels wide: one unit a pixel, 1080 high.
    let size = 880;
    for orientation in Color::ALL {
        let label = format!("crazyhouse-{}-{}", orientation.name(), renderer.program());
        let svg = pos.to_svg(&SvgOptions { orientation, size, ..SvgOptions::default() });
        let picture = draw_sized(renderer, &svg, (size, 1080), &label);
        // The squares sit 100 units lower than on a chess board.
        let at_square = |sq: Square, (fx, fy): (f64, f64)| {
            let (x, y) = pixel(sq, orientation, (fx, fy), 880);
            picture.at(x, y + 100)
        };
        let d4 = if Square::D4.is_light() { colors.light } else { colors.dark };
        assert!(close(at_square(Square::D4, CENTRE), d4), "{label}: d4 is {:?}", at_square(Square::D4, CENTRE));
        // The promoted queen's mark: a disc in the margin colour in d8's top right corner.
        assert!(close(at_square(Square::D8, (0.88, 0.12)), colors.margin), "{label}: no mark on d8");
        assert!(!close(at_square(Square::E4, (0.88, 0.12)), colors.margin), "{label}: a mark on e4");
        // The strips (y 0 to 100 and 980 to 1080) hold the pockets, the bottom one the pocket
        // of the side at the bottom: its pawn in the first slot (x 40 to 140), the strip's
        // colour past the fifth slot.
        for color in Color::ALL {
            let top = if color == orientation { 980 } else { 0 };
            let (body, expected) = (picture.at(90, top + 75), if color == Color::White { 255 } else { 0 });
            assert!(close(body, SvgColor::rgb(expected, expected, expected)), "{label}: {color}'s pawn is {body:?}");
            let beyond = picture.at(700, top + 50);
            assert!(close(beyond, colors.light), "{label}: the strip past the pocket is {beyond:?}");
        }
        let label = format!("three-check-{}-{}", orientation.name(), renderer.program());
        let svg = three.to_svg(&SvgOptions { orientation, size, ..SvgOptions::default() });
        let picture = draw_sized(renderer, &svg, (size, 1080), &label);
        // The discs after the king: centres at x 160, 210 and 260 of the strip.
        for color in Color::ALL {
            let y = if color == orientation { 1030 } else { 50 };
            let filled: Vec<bool> = [160, 210, 260].iter().map(|&x| close(picture.at(x, y), colors.check)).collect();
            let remaining = usize::from(three.remaining_checks(color));
            assert_eq!(filled, (0..3).map(|i| i < remaining).collect::<Vec<_>>(), "{label}: {color}");
        }
    }
}

#[test]
fn every_variant_start_position_is_a_picture_of_its_pieces() {
    for variant in Variant::ALL {
        let pos = VariantPosition::new(variant);
        for orientation in Color::ALL {
            for coordinates in [true, false] {
                let svg = pos.to_svg(&SvgOptions { orientation, coordinates, ..SvgOptions::for_variant(&pos) });
                let doc = parse(&svg);
                let strips = matches!(variant, Variant::Crazyhouse | Variant::ThreeCheck);
                let (width, height) = match (coordinates, strips) {
                    (true, true) => (880, 1080),
                    (false, true) => (800, 1040),
                    (true, false) => (880, 880),
                    (false, false) => (800, 800),
                };
                let view_box = format!("0 0 {width} {height}");
                assert_eq!(doc.root_element().attribute("viewBox"), Some(view_box.as_str()), "{variant}");
                let pieces = doc.descendants().filter(|n| n.attribute((SVG_NAMESPACE, "square")).is_some()).count();
                assert_eq!(pieces, pos.occupancy().count() as usize, "{variant}");
                // Every drawing used is defined.
                for node in doc.descendants().filter(|n| n.has_tag_name("use")) {
                    let id = &node.attribute(("http://www.w3.org/1999/xlink", "href")).unwrap()[1..];
                    assert!(doc.descendants().any(|n| n.attribute("id") == Some(id)), "{variant}: no #{id}");
                }
            }
        }
    }
}
