//! The C ABI as C programs see it: the committed header against a fresh generation, the header
//! under strict C99 and C++11 compilers (and the C++17 wrapper `chesscore.hpp` under C++17), the
//! symbols the shared library exports, and the C and C++ programs of `c_tests/` and `examples/`,
//! compiled with the `cc` crate's compiler, linked against the `libchesscore.so` (or `.a`) this
//! build made, and run.

use chesscore_test_support as common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use chesscore::ErrorCode;
use chesscore_core::pgn::PgnReader;
use chesscore_core::{
    Arrow, Bitboard, Color, Game, Move, MoveKind, Position, San, Square, SvgColor, SvgColors, SvgOptions, Uci,
};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");
/// The name programs linked against the library ask the run-time linker for.
const SONAME: &str = concat!("libchesscore.so.", env!("CARGO_PKG_VERSION_MAJOR"));
const C_FLAGS: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"];
const CXX_FLAGS: &[&str] = &["-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic"];
const CXX17_FLAGS: &[&str] = &["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic"];
/// The pages show the size-prefixed structs as `{.size = sizeof s}`, which `-Wextra` flags.
const DOC_C_FLAGS: &[&str] =
    &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-Wno-missing-field-initializers"];
/// A program that calls no deprecated function builds with the warnings on.
const NO_DEPRECATED_FLAGS: &[&str] = &[
    "-std=c99",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-DCHESS_WARN_DEPRECATED",
    "-Werror=deprecated-declarations",
];

/// The shared library of this build. Cargo leaves the library's outputs in
/// `target/<profile>/deps/`, beside this test; only `cargo build` copies them up a level.
fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let library = exe.with_file_name("libchesscore.so");
    assert!(library.is_file(), "{} not built", library.display());
    library
}

/// `target/<profile>`.
fn profile_dir() -> PathBuf {
    library().parent().and_then(Path::parent).expect("target/<profile>/deps").to_path_buf()
}

/// A scratch directory for this profile's C executables and files.
fn work_dir() -> PathBuf {
    let profile = profile_dir().file_name().expect("profile directory").to_owned();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_api").join(profile);
    std::fs::create_dir_all(&dir).expect("create the work directory");
    dir
}

/// A directory where the library is found under its soname, `libchesscore.so.MAJOR`, which is the
/// name linked programs ask the run-time linker for.
fn runtime_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = work_dir().join("lib");
        std::fs::create_dir_all(&dir).expect("create the library directory");
        let link = dir.join(SONAME);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(library(), &link).expect("link the soname");
        dir
    })
}

/// The C (or C++) compiler the `cc` crate chooses for this target, with its default flags.
fn compiler(cpp: bool) -> Command {
    let target = env!("CHESSCORE_BUILD_TARGET");
    cc::Build::new()
        .cpp(cpp)
        .target(target)
        .host(target)
        .opt_level(2)
        .debug(true)
        .cargo_metadata(false)
        // Not `warnings(false)`: its `-w` would silence the `-Werror` each build asks for.
        .get_compiler()
        .to_command()
}

/// A command running a C program built here. Cargo's LD_LIBRARY_PATH for tests would take
/// precedence over the program's run path and could load a stale `target/<profile>` library.
fn c_program(exe: &Path) -> Command {
    let mut command = Command::new(exe);
    command.env_remove("LD_LIBRARY_PATH");
    command
}

fn run_checked(command: &mut Command) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{command:?} failed ({})\nstdout:\n{stdout}\nstderr:\n{stderr}", output.status);
    print!("{stdout}");
    stdout
}

/// Compiles and links one C (C99) or C++ (C++11) source file against libchesscore.so; returns
/// the executable. Only `c_tests/deprecated.c` may call a deprecated function.
fn build(source: &str) -> PathBuf {
    let flags = match source {
        _ if source.ends_with(".cpp") => CXX_FLAGS,
        "c_tests/deprecated.c" => C_FLAGS,
        _ => NO_DEPRECATED_FLAGS,
    };
    build_with(source, "", flags, &shared_link())
}

/// Compiles and links a C++17 program using the wrapper `chesscore.hpp` against libchesscore.so.
fn build_cxx17(source: &str) -> PathBuf {
    build_with(source, "", CXX17_FLAGS, &shared_link())
}

fn shared_link() -> [String; 2] {
    [library().display().to_string(), format!("-Wl,-rpath,{}", runtime_dir().display())]
}

/// Compiles and links one C source file against libchesscore.a and the system libraries the
/// Rust standard library needs.
fn build_static(source: &str) -> PathBuf {
    let archive = library().with_file_name("libchesscore.a").display().to_string();
    build_with(source, "_static", NO_DEPRECATED_FLAGS, &[archive, "-lpthread".into(), "-ldl".into(), "-lm".into()])
}

fn build_with(source: &str, suffix: &str, flags: &[&str], link: &[String]) -> PathBuf {
    let cpp = source.ends_with(".cpp");
    let source = Path::new(MANIFEST_DIR).join(source);
    let name = source.file_stem().expect("source file name").to_string_lossy();
    let exe = work_dir().join(format!("{name}{suffix}"));
    let mut command = compiler(cpp);
    command
        .args(flags)
        .arg("-I")
        .arg(Path::new(MANIFEST_DIR).join("include"))
        .arg(&source)
        .arg("-o")
        .arg(&exe)
        .args(link);
    run_checked(&mut command);
    exe
}

/// The committed header is what cbindgen generates from `src/` now. The build writes only
/// into `OUT_DIR`; `scripts/update-header.sh` (this test with `CHESSCORE_UPDATE_HEADER=1`)
/// writes the fresh header into `include/`.
#[test]
fn committed_header_matches_a_fresh_generation() {
    let fresh = include_str!(concat!(env!("OUT_DIR"), "/chesscore.h"));
    let path = Path::new(MANIFEST_DIR).join("include/chesscore.h");
    if std::env::var_os("CHESSCORE_UPDATE_HEADER").is_some() {
        std::fs::write(&path, fresh).expect("write include/chesscore.h");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        fresh == committed,
        "include/chesscore.h differs from the header generated from src/: run scripts/update-header.sh, \
         review the difference and commit it"
    );
}

#[test]
fn header_compiles_as_strict_c99_and_cxx11() {
    let header = Path::new(MANIFEST_DIR).join("include/chesscore.h");
    for (cpp, flags, language) in [(false, C_FLAGS, "c"), (true, CXX_FLAGS, "c++")] {
        let mut command = compiler(cpp);
        command.args(flags).args(["-fsyntax-only", "-x", language]).arg(&header);
        run_checked(&mut command);
    }
}

#[test]
fn cxx_wrapper_compiles_as_strict_cxx17() {
    let header = Path::new(MANIFEST_DIR).join("include/chesscore.hpp");
    let mut command = compiler(true);
    command.args(CXX17_FLAGS).args(["-Wshadow", "-Wconversion", "-fsyntax-only", "-x", "c++", "-I"]);
    command.arg(Path::new(MANIFEST_DIR).join("include")).arg(&header);
    run_checked(&mut command);
}

#[test]
fn cxx_wrapper_refuses_cxx14_with_a_clear_error() {
    let header = Path::new(MANIFEST_DIR).join("include/chesscore.hpp");
    let mut command = compiler(true);
    command.args(["-std=c++14", "-fsyntax-only", "-x", "c++", "-I"]).arg(Path::new(MANIFEST_DIR).join("include"));
    let output = command.arg(&header).output().expect("run the C++ compiler");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "chesscore.hpp compiled as C++14");
    assert!(stderr.contains("chesscore.hpp needs C++17 or later"), "{stderr}");
    assert_eq!(stderr.matches(": error:").count(), 1, "one error, not a cascade:\n{stderr}");
}

/// Function names declared in the header.
fn header_functions() -> BTreeSet<String> {
    let header = std::fs::read_to_string(Path::new(MANIFEST_DIR).join("include/chesscore.h")).unwrap();
    header
        .lines()
        .filter(|line| !line.starts_with([' ', '*', '/', '#', '}', '\t']) && line.contains('('))
        .filter_map(|line| {
            let name = line.split('(').next()?.rsplit([' ', '*']).next()?;
            name.starts_with("chess_").then(|| name.to_string())
        })
        .collect()
}

#[test]
fn library_exports_exactly_the_header_functions_under_its_soname() {
    let library = library();
    let mut nm = Command::new("nm");
    nm.args(["-D", "--defined-only", "--format=posix"]).arg(&library);
    let exported: BTreeSet<String> =
        run_checked(&mut nm).lines().filter_map(|line| line.split_whitespace().next()).map(str::to_string).collect();
    let declared = header_functions();
    assert!(declared.len() >= 50, "{declared:?}");
    assert_eq!(exported, declared, "exported symbols differ from the header's functions");

    let mut readelf = Command::new("readelf");
    readelf.arg("-d").arg(&library);
    assert!(run_checked(&mut readelf).contains(&format!("Library soname: [{SONAME}]")));
}

/// Every function of the header is called from the C test programs.
#[test]
fn c_tests_call_every_header_function() {
    let mut sources = String::new();
    for entry in std::fs::read_dir(Path::new(MANIFEST_DIR).join("c_tests")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "c") {
            sources.push_str(&std::fs::read_to_string(path).unwrap());
        }
    }
    let uncalled: Vec<String> =
        header_functions().into_iter().filter(|f| !sources.contains(&format!("{f}("))).collect();
    assert!(uncalled.is_empty(), "no C test calls {uncalled:?}");
}

/// A C program printing the size and alignment of every type the header declares and the
/// offset of every struct field, built with `extra` compiler flags.
fn layouts(extra: &[&str], name: &str) -> String {
    let source = work_dir().join("layouts.c");
    std::fs::write(
        &source,
        r#"#include <chesscore.h>
#include <stddef.h>
#include <stdio.h>
#define TYPE(t) do { struct probe { char c; t x; }; printf(#t " %zu %zu\n", sizeof(t), offsetof(struct probe, x)); } while (0)
#define FIELD(t, f) printf(#t "." #f " %zu\n", offsetof(t, f))
int main(void) {
    TYPE(chess_error); TYPE(chess_move); TYPE(chess_square); TYPE(chess_color); TYPE(chess_piece);
    TYPE(chess_piece_kind); TYPE(chess_move_kind); TYPE(chess_ep_mode); TYPE(chess_result);
    TYPE(chess_termination); TYPE(chess_operand_kind); TYPE(chess_position); TYPE(chess_outcome);
    TYPE(chess_fen_info); TYPE(chess_pgn_error_info); TYPE(chess_pgn_options); TYPE(chess_node);
    TYPE(chess_comment_place); TYPE(chess_svg_options); TYPE(chess_svg_arrow); TYPE(chess_svg_fill);
TYPE(chess_engine_options); TYPE(chess_engine_option); TYPE(chess_limits);
    TYPE(chess_info); TYPE(chess_option_type); TYPE(chess_score_kind); TYPE(chess_bound);
TYPE(chess_book_entry); TYPE(chess_book_raw_entry); TYPE(chess_book_choice);
    TYPE(chess_book_error_info); TYPE(chess_book_lookup_options); TYPE(chess_book_build_options);
    FIELD(chess_book_entry, weight); FIELD(chess_book_entry, learn); FIELD(chess_book_raw_entry, raw_move);
    FIELD(chess_book_raw_entry, weight); FIELD(chess_book_raw_entry, learn); FIELD(chess_book_error_info, code);
    FIELD(chess_book_error_info, entry); FIELD(chess_book_error_info, message); FIELD(chess_book_lookup_options, flags);
    FIELD(chess_book_lookup_options, min_weight); FIELD(chess_book_lookup_options, exclude);
    FIELD(chess_book_lookup_options, exclude_count); FIELD(chess_book_build_options, flags);
    FIELD(chess_book_build_options, max_ply); FIELD(chess_book_build_options, min_games);
    FIELD(chess_book_build_options, min_score);
    FIELD(chess_outcome, result); FIELD(chess_outcome, termination);
    FIELD(chess_fen_info, error_offset); FIELD(chess_fen_info, dropped_castling); FIELD(chess_fen_info, dropped_en_passant);
    FIELD(chess_pgn_error_info, code); FIELD(chess_pgn_error_info, game); FIELD(chess_pgn_error_info, line);
    FIELD(chess_pgn_error_info, column); FIELD(chess_pgn_error_info, ply); FIELD(chess_pgn_error_info, message);
    FIELD(chess_pgn_options, flags); FIELD(chess_pgn_options, max_depth); FIELD(chess_pgn_options, max_tag_len);
    FIELD(chess_pgn_options, max_comment_len);
    FIELD(chess_svg_options, flags); FIELD(chess_svg_options, pixels); FIELD(chess_svg_options, last_move);
    FIELD(chess_svg_options, check); FIELD(chess_svg_options, squares); FIELD(chess_svg_options, arrows);
    FIELD(chess_svg_options, arrow_count); FIELD(chess_svg_options, fills); FIELD(chess_svg_options, fill_count);
    FIELD(chess_svg_options, color_light); FIELD(chess_svg_options, color_arrow);
    FIELD(chess_svg_arrow, to); FIELD(chess_svg_arrow, color); FIELD(chess_svg_fill, color);
    TYPE(chess_eval); TYPE(chess_mark_color); TYPE(chess_highlight); TYPE(chess_arrow);
    FIELD(chess_eval, value); FIELD(chess_eval, depth); FIELD(chess_highlight, color);
    FIELD(chess_arrow, to); FIELD(chess_arrow, color);
    TYPE(chess_training_entry); FIELD(chess_training_entry, move); FIELD(chess_training_entry, score);
    FIELD(chess_training_entry, ply); FIELD(chess_training_entry, result);
    TYPE(chess_training_record); FIELD(chess_training_record, move); FIELD(chess_training_record, score);
    FIELD(chess_training_record, ply); FIELD(chess_training_record, halfmove_clock);
    FIELD(chess_training_record, result);
    TYPE(chess_setup); FIELD(chess_setup, castling_rooks); FIELD(chess_setup, halfmove_clock);
    FIELD(chess_setup, fullmove_number); FIELD(chess_setup, turn); FIELD(chess_setup, en_passant);
    FIELD(chess_setup, chess960);
    return 0;
}
"#,
    )
    .unwrap();
    let exe = work_dir().join(name);
    let mut command = compiler(false);
    command.args(C_FLAGS).args(extra).arg("-I").arg(Path::new(MANIFEST_DIR).join("include")).arg(&source);
    run_checked(command.arg("-o").arg(&exe));
    run_checked(&mut c_program(&exe))
}

/// Every type crossing the boundary has a fixed width: `-fshort-enums`, which shrinks C enums,
/// changes no size, alignment or offset. And C's `chess_position` is the Rust position's size
/// and alignment.
#[test]
fn layouts_are_fixed_and_match_the_rust_types() {
    let plain = layouts(&[], "layouts");
    let short = layouts(&["-fshort-enums"], "layouts_short_enums");
    assert_eq!(plain, short, "-fshort-enums changes the ABI");
    let position = plain.lines().find(|l| l.starts_with("chess_position ")).unwrap();
    let expected = format!("chess_position {} {}", size_of::<Position>(), align_of::<Position>());
    assert_eq!(position, expected);
    for (c_type, bytes) in [
        ("chess_error", 4),
        ("chess_move", 2),
        ("chess_square", 4),
        ("chess_color", 1),
        ("chess_outcome", 2),
        ("chess_eval", 12),
        ("chess_highlight", 8),
        ("chess_arrow", 12),
        ("chess_book_entry", 8),
        ("chess_book_raw_entry", 16),
        ("chess_book_choice", 1),
        ("chess_training_entry", 136),
        ("chess_training_record", 34),
        ("chess_setup", 96),
    ] {
        assert!(plain.lines().any(|l| l.starts_with(&format!("{c_type} {bytes} "))), "{c_type}: {plain}");
    }
}

/// Builds and runs one of the C test programs, which ends with a tally of failed checks.
fn run_suite(source: &str, args: &[PathBuf]) {
    let output = run_checked(c_program(&build(source)).args(args));
    assert!(output.contains(", 0 failed"), "{output}");
}

#[test]
fn c_api_suite() {
    run_suite("c_tests/api.c", &[common::data_dir(), work_dir()]);
}

#[test]
fn c_deprecated_suite() {
    run_suite("c_tests/deprecated.c", &[]);
}

/// `CHESS_DEPRECATED` is nothing by default, and a warning naming the replacement with
/// `CHESS_WARN_DEPRECATED`, in C and in C++14.
#[test]
fn a_deprecated_call_warns_only_when_asked() {
    let source = work_dir().join("deprecated_call.c");
    std::fs::write(
        &source,
        "#include <chesscore.h>\nint main(void) {\n    chess_position *pos = NULL;\n    \
         return (int)chess_fen_parse(\"8/8/8/8/8/8/8/8 w - - 0 1\", &pos);\n}\n",
    )
    .unwrap();
    let include = Path::new(MANIFEST_DIR).join("include");
    for (cpp, flags) in [(false, C_FLAGS), (true, &["-std=c++14", "-Wall", "-Werror", "-pedantic"][..])] {
        let language = if cpp { "c++" } else { "c" };
        let mut quiet = compiler(cpp);
        quiet.args(flags).args(["-fsyntax-only", "-x", language, "-I"]).arg(&include).arg(&source);
        run_checked(&mut quiet);
        let mut warned = compiler(cpp);
        warned.args(flags).args(["-DCHESS_WARN_DEPRECATED", "-fsyntax-only", "-x", language, "-I"]);
        let output = warned.arg(&include).arg(&source).output().expect("run the compiler");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{language}: a deprecated call compiled without a warning: {warned:?}");
        assert!(stderr.contains("deprecated") && stderr.contains("use chess_fen_parse_into"), "{stderr}");
    }
}

#[test]
fn c_san_suite() {
    let shared = common::shared_testdata("c san: round trip of perftsuite.epd");
    run_suite("c_tests/san.c", &std::iter::once(common::data_dir()).chain(shared).collect::<Vec<_>>());
}

#[test]
fn c_game_suite() {
    run_suite("c_tests/game.c", &[]);
}

#[test]
fn c_epd_suite() {
    let shared = common::shared_testdata("c epd: the published EPD suites");
    run_suite("c_tests/epd.c", &std::iter::once(common::data_dir()).chain(shared).collect::<Vec<_>>());
}

#[test]
fn c_pgn_suite() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn");
    let compressed = work_dir().join("compressed_pgn");
    compress_test_files(&data, &compressed);
    run_suite("c_tests/pgn.c", &[data, compressed]);
}

/// Compressed copies of two PGN test files for the C suite: `.gz`, `.zst`, `.multi.gz` (two
/// gzip members, split inside a game), and `format.pgn.cut.gz` (its last 40 bytes missing);
/// and `broken_x300.pgn`, 300 copies of `broken.pgn`, for the threads.
fn compress_test_files(data: &Path, dir: &Path) {
    use std::io::Write;
    let gzip = |bytes: &[u8]| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    };
    std::fs::create_dir_all(dir).unwrap();
    for name in ["format.pgn", "broken.pgn"] {
        let text = std::fs::read(data.join(name)).unwrap();
        let zst = zstd::stream::encode_all(text.as_slice(), 3).unwrap();
        let (first, second) = text.split_at(text.len() / 2);
        std::fs::write(dir.join(format!("{name}.gz")), gzip(&text)).unwrap();
        std::fs::write(dir.join(format!("{name}.multi.gz")), [gzip(first), gzip(second)].concat()).unwrap();
        if name == "format.pgn" {
            let gz = gzip(&text);
            std::fs::write(dir.join(format!("{name}.cut.gz")), &gz[..gz.len() - 40]).unwrap();
        }
        std::fs::write(dir.join(format!("{name}.zst")), zst).unwrap();
    }
    std::fs::write(dir.join("broken_x300.pgn"), std::fs::read(data.join("broken.pgn")).unwrap().repeat(300)).unwrap();
}

/// The C suite draws Kiwipete with every option set: the same bytes as the core's drawing with
/// the same options.
#[test]
fn c_svg_suite_draws_what_the_core_draws() {
    run_suite("c_tests/svg.c", &[work_dir()]);
    let drawn = std::fs::read_to_string(work_dir().join("kiwipete.svg")).unwrap();
    let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let rgba = SvgColor::from_rgba;
    let options = SvgOptions {
        size: 600,
        orientation: Color::Black,
        coordinates: true,
        last_move: Some(Move::new(Square::D2, Square::D4, MoveKind::Normal)),
        check: Bitboard::from_square(Square::E8),
        squares: Bitboard::from_square(Square::C5).with(Square::D1),
        fill: vec![(Square::A6, rgba(0xff00ff80))],
        arrows: vec![
            Arrow { from: Square::E2, to: Square::E4, color: None },
            Arrow { from: Square::F3, to: Square::F3, color: Some(rgba(0x0000ff80)) },
        ],
        colors: SvgColors {
            light: rgba(0xddeeffff),
            dark: rgba(0x8899aaff),
            last_move_light: rgba(0x11111111),
            last_move_dark: rgba(0x22222222),
            margin: rgba(0x33333333),
            coordinates: rgba(0x44444444),
            check: rgba(0x55555555),
            highlight: rgba(0x66666666),
            arrow: rgba(0x77777777),
        },
    };
    assert_eq!(drawn, pos.to_svg(&options));
}

#[test]
fn c_book_suite() {
    let shared = common::shared_testdata("c book: the third-party Polyglot book");
    let args: Vec<PathBuf> = [common::data_dir(), work_dir()].into_iter().chain(shared).collect();
    run_suite("c_tests/book.c", &args);
}

#[test]
fn c_tablebase_suite() {
    let shared = common::shared_testdata("c tablebase: the Syzygy tables and their dev positions");
    let args: Vec<PathBuf> = [work_dir()].into_iter().chain(shared).collect();
    run_suite("c_tests/tablebase.c", &args);
}

#[test]
fn c_binary_suite() {
    run_suite("c_tests/binary.c", &[common::data_dir(), work_dir()]);
}

#[test]
fn c_setup_suite() {
    run_suite("c_tests/setup.c", &[]);
}

#[test]
fn c_variant_suite() {
    run_suite("c_tests/variant.c", &[]);
}

/// With python-chess at hand, its PGN of generated variant games joins the games the threads read.
#[test]
fn c_variant_game_suite() {
    let mut args = vec![PathBuf::from("2000")];
    if let Some(python) = common::python("C variant games read by threads: python-chess's games") {
        let script = Path::new(MANIFEST_DIR).join("scripts/python_chess_variant_pgn.py");
        let variants = ["atomic", "antichess", "crazyhouse", "kingofthehill", "threecheck", "horde", "racingkings"];
        let output = Command::new(python).arg(script).args(["--limit", "20"]).args(variants).output().expect("python");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let path = work_dir().join("python_chess_variants.pgn");
        std::fs::write(&path, output.stdout).expect("write the games");
        args.push(path);
    }
    run_suite("c_tests/variant_game.c", &args);
}

#[test]
fn c_variant_layers_suite() {
    run_suite("c_tests/variant_layers.c", &[]);
}

#[test]
fn c_embedding_suite() {
    run_suite("c_tests/embedding.c", &[common::data_dir()]);
}

#[test]
fn c_chess960_suite() {
    // Depth 4 where it has at most this many leaves: all of it in release builds.
    let limit = if cfg!(debug_assertions) { "200000" } else { "5000000" };
    run_suite("c_tests/chess960.c", &[common::data_dir(), limit.into()]);
}

#[test]
fn c_perft_recursion_and_chess_perft() {
    let exe = build("c_tests/perft.c");
    // The debug library is slow; the release run goes deeper.
    let limit = if cfg!(debug_assertions) { "200000" } else { "5000000" };
    let mut command = c_program(&exe);
    command.arg(common::data_dir()).arg(limit);
    run_checked(&mut command);
}

/// `text` on one line, as `c_tests/pgn_tree.c` prints it.
fn escaped(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\n', "\\n")
}

/// What `c_tests/pgn_tree.c` prints for `record`, made from the Rust reader's own tree.
fn tree_dump(out: &mut String, record: &Game) {
    use std::fmt::Write;
    for (name, value) in record.tags().iter() {
        writeln!(out, "tag {name} {}", escaped(value)).unwrap();
    }
    let tree = record.tree();
    let mut stack = vec![tree.root()];
    while let Some(node) = stack.pop() {
        let parent = tree.parent(node).map_or("-".to_string(), |p| p.index().to_string());
        let san = match (tree.written_san(node), tree.mv(node)) {
            (Some(written), _) => written.to_string(),
            (None, Some(mv)) if mv.is_null() => "--".to_string(),
            (None, Some(mv)) => {
                San::from_move(&record.node_position(tree.parent(node).unwrap()), mv).unwrap().to_string()
            }
            (None, None) => "-".to_string(),
        };
        let mv = tree.mv(node).map_or(0, |mv| mv.raw());
        writeln!(out, "node {} parent {parent} ply {} move {mv} san {san}", node.index(), tree.ply(node)).unwrap();
        let nags: Vec<String> = tree.nags(node).map(|n| n.to_string()).collect();
        if !nags.is_empty() {
            writeln!(out, "nags {}", nags.join(" ")).unwrap();
        }
        for text in tree.comments_before(node) {
            writeln!(out, "before {}", escaped(text)).unwrap();
        }
        for text in tree.comments(node) {
            writeln!(out, "after {}", escaped(text)).unwrap();
        }
        writeln!(out, "fen {}", record.node_position(node).to_fen()).unwrap();
        let children: Vec<_> = tree.children(node).collect();
        stack.extend(children.into_iter().rev());
    }
}

/// A C program walks the tree of every game of the PGN test files through the node functions
/// and prints every move, SAN as written, comment, NAG, variation and position: the same as
/// the Rust reader's own trees give.
#[test]
fn c_walk_of_every_pgn_tree_matches_the_rust_reader() {
    use std::fmt::Write;
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::data("pgn")).unwrap().map(|e| e.unwrap().path()).collect();
    if let Some(shared) = common::shared_testdata("c pgn tree: the third-party PGN files") {
        files.extend(std::fs::read_dir(shared.join("pgn")).unwrap().map(|e| e.unwrap().path()));
    }
    files.retain(|f| f.extension().is_some_and(|e| e == "pgn"));
    files.sort();
    let mut expected = String::new();
    let (mut games, mut nodes, mut comments, mut nags, mut variations) = (0, 0, 0, 0, 0);
    for file in &files {
        for (number, game) in PgnReader::open(file).unwrap().enumerate() {
            writeln!(expected, "game {}", number + 1).unwrap();
            let record = match game {
                Ok(record) => record,
                Err(error) => {
                    writeln!(expected, "error {}", error.kind.code()).unwrap();
                    *error.partial.expect("a partial game")
                }
            };
            tree_dump(&mut expected, &record);
            let tree = record.tree();
            games += 1;
            nodes += tree.move_count();
            let all = || std::iter::once(tree.root()).chain((1..=tree.move_count()).filter_map(|i| tree.node_id(i)));
            comments += all().map(|n| tree.comments(n).count() + tree.comments_before(n).count()).sum::<usize>();
            nags += all().map(|n| tree.nags(n).count()).sum::<usize>();
            variations += all().filter(|&n| !tree.is_main_child(n)).count();
        }
    }
    // The files hold each kind of annotation, so the comparison covers them.
    assert!(comments > 0 && nags > 0 && variations > 0, "{comments} comments, {nags} NAGs, {variations} variations");
    let printed = run_checked(c_program(&build("c_tests/pgn_tree.c")).args(&files));
    if printed != expected {
        let line = printed.lines().zip(expected.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!("line {}: C printed {:?}, Rust {:?}", line + 1, printed.lines().nth(line), expected.lines().nth(line));
    }
    eprintln!("{games} games, {nodes} moves, {comments} comments, {nags} NAGs, {variations} variations alike");
}

#[test]
fn c_engine_suite() {
    let mut args = vec![common::fake_engine().to_path_buf()];
    args.extend(common::stockfish("c_engine_suite (the Stockfish part)"));
    run_suite("c_tests/engine.c", &args);
}

#[test]
fn cxx_program_links_and_runs() {
    let output = run_checked(&mut c_program(&build("c_tests/cxx.cpp")));
    assert!(output.contains("26 moves, ok"), "{output}");
}

#[test]
fn cxx_wrapper_suite() {
    let limit = if cfg!(debug_assertions) { "200000" } else { "5000000" };
    let output = run_checked(
        c_program(&build_cxx17("c_tests/cxx_wrapper.cpp"))
            .arg(common::data_dir())
            .arg(work_dir())
            .arg(limit)
            .arg(common::fake_engine()),
    );
    assert!(output.contains(", 0 failed"), "{output}");
}

/// Every C and C++ snippet of the documentation (README.md and docs/), built as C99 and C++17
/// with the strict flags and run.
#[test]
fn doc_c_and_cxx_snippets_build_and_run() {
    let c = common::doc_blocks("c");
    let cxx = common::doc_blocks("cpp");
    assert!(!c.is_empty() && !cxx.is_empty(), "the documentation has C and C++ snippets");
    for (language, blocks, extension) in [("c", c, "c"), ("cpp", cxx, "cpp")] {
        for (i, (page, block)) in blocks.iter().enumerate() {
            let source = work_dir().join(format!("doc_{language}_{i}.{extension}"));
            std::fs::write(&source, block).unwrap();
            let flags = if extension == "c" { DOC_C_FLAGS } else { CXX17_FLAGS };
            let exe = build_with(source.to_str().unwrap(), "", flags, &shared_link());
            let output = run_checked(&mut c_program(&exe));
            assert!(!output.is_empty(), "{language} snippet {i} ({page}) printed nothing");
        }
    }
}

#[test]
fn examples_build_and_run() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let perft = build("examples/perft.c");
    let output = run_checked(c_program(&perft).args([fen, "3"]));
    assert!(output.contains("C recursion: depth 3, 97862 nodes"), "{output}");
    assert!(output.contains("chess_perft: depth 3, 97862 nodes"), "{output}");
    let bad = c_program(&perft).arg("8/8/8/8/8/8/8/8 x - - 0 1").output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("column 17"), "{bad:?}");

    let legal_moves = build("examples/legal_moves.c");
    let printed = run_checked(c_program(&legal_moves).arg(fen));
    let pos = Position::from_fen(fen).unwrap();
    let expected: Vec<String> = pos.legal_moves().iter().map(|&m| Uci::from_move(&pos, m).to_string()).collect();
    assert_eq!(printed.lines().collect::<Vec<_>>(), expected);
    assert_eq!(run_checked(&mut c_program(&legal_moves)).lines().count(), 20);
    let linked_statically = build_static("examples/legal_moves.c");
    assert_eq!(run_checked(c_program(&linked_statically).arg(fen)).lines().collect::<Vec<_>>(), expected);
}

/// The example engine (alpha-beta and quiescence over the staged moves, SEE and gives-check)
/// finds the key move of every mate in two of the repository's file, and of Win at Chess's
/// mates in two when the third-party files are there.
#[test]
fn example_search_solves_mates_in_two() {
    let search = build("examples/search.c");
    let output = run_checked(c_program(&search).arg(common::data("epd/mate_in_2.epd")));
    assert!(output.ends_with("8 solved of 8\n"), "{output}");
    assert_eq!(output.matches("mate in 2, solved").count(), 8, "{output}");

    let Some(shared) = common::shared_testdata("c: examples/search.c on Win at Chess") else { return };
    let ids = ["WAC.001", "WAC.004", "WAC.005", "WAC.012", "WAC.027", "WAC.054", "WAC.060", "WAC.061", "WAC.084"];
    let wac = std::fs::read_to_string(shared.join("epd/win_at_chess.epd")).unwrap();
    let mates: Vec<&str> =
        wac.lines().filter(|line| ids.iter().any(|id| line.contains(&format!("id \"{id}\"")))).collect();
    assert_eq!(mates.len(), ids.len());
    let file = work_dir().join("wac_mates_in_two.epd");
    std::fs::write(&file, mates.join("\n") + "\n").unwrap();
    let output = run_checked(c_program(&search).arg(&file));
    assert!(output.ends_with(&format!("{n} solved of {n}\n", n = ids.len())), "{output}");
}
