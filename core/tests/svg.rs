//! Board pictures: the SVG read back with an XML parser (structure, one element per piece,
//! determinism, size), and drawn by a real browser (headless Chromium) and by an SVG-to-PNG
//! converter (librsvg's `rsvg-convert`) to check their pixels:
//! square colours, pieces, the last-move tint, the check glow, fills, highlight frames, arrows,
//! and the flipped board.

use chesscore_test_support as common;

use std::path::Path;
use std::process::Command;

use chesscore_core::{
    Arrow, Bitboard, Color, Move, MoveKind, Position, Square, SvgColor, SvgColors, SvgOptions, SVG_NAMESPACE,
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

    /// The command that draws `svg` into `png`, `size` pixels square.
    fn command(self, svg: &Path, png: &Path, size: u32, profile: &Path) -> Command {
        let mut command = Command::new(self.program());
        match self {
            Renderer::Chromium => {
                // A profile of its own, so that runs at the same time share none; no sandbox,
                // which cannot start as root.
                command
                    .arg(format!("--user-data-dir={}", profile.display()))
                    .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"])
                    .arg("--force-device-scale-factor=1")
                    .arg(format!("--window-size={size},{size}"))
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
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("svg-pixels");
    std::fs::create_dir_all(&dir).unwrap();
    let (svg_path, png_path) = (dir.join(format!("{name}.svg")), dir.join(format!("{name}.png")));
    std::fs::write(&svg_path, svg).unwrap();
    let _ = std::fs::remove_file(&png_path);
    let out = renderer.command(&svg_path, &png_path, size, &dir.join(format!("profile-{name}"))).output().unwrap();
    assert!(png_path.is_file(), "{name}: no picture: {}", String::from_utf8_lossy(&out.stderr));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png_path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    assert!(info.bit_depth == png::BitDepth::Eight && channels >= 3, "{name}: {info:?}");
    let pixels = buf[..info.buffer_size()].chunks(channels).map(|p| [p[0], p[1], p[2]]).collect();
    let picture = Picture { width: info.width as usize, pixels };
    assert_eq!((info.width, info.height), (size, size), "{name}");
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
