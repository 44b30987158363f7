//! Build script of the C library: generates the C header (cbindgen, into `OUT_DIR` only), the
//! shared library's soname and its list of exported symbols.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR is set by cargo"));
    generate_header(&out_dir);
    shared_library_name();
    export_list(&out_dir);
    // The C tests build with the cc crate, which needs the target outside a build script.
    println!("cargo:rustc-env=CHESSCORE_BUILD_TARGET={}", env::var("TARGET").expect("TARGET set by cargo"));
}

/// Generates the C header from `src/` into `OUT_DIR`. The build never touches `include/`:
/// a test compares the committed header with this one, and `scripts/update-header.sh` copies it.
fn generate_header(out_dir: &Path) {
    for watched in ["src", "cbindgen.toml", "Cargo.toml"] {
        println!("cargo:rerun-if-changed={watched}");
    }
    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR is set by cargo"));
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("read cbindgen.toml");
    // cbindgen cannot write `usize::MAX`: the read callback's error value is defined here.
    config.after_includes = Some(version_macros() + READ_ERROR_MACRO + DEPRECATED_MACRO);
    let mut header = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs"))
        .generate()
        .expect("generate the C header from src/")
        .write(&mut header);
    let header = String::from_utf8(header).expect("cbindgen writes UTF-8");
    fs::write(out_dir.join("chesscore.h"), with_family_headings(&header)).expect("write the header");
}

/// The families of functions, by name prefix (the longest that matches), with their guide page
/// under `docs/`. cbindgen sorts the functions by name, so each family is one run; a heading
/// comment opens it, and `scripts/c-api-docs.py` makes the reference's sections from these.
const FAMILIES: &[(&str, &str, &str)] = &[
    ("chess_analysis_", "Engine analysis", "engines.md"),
    ("chess_binary_fen_", "Binary FEN", "formats.md"),
    ("chess_binpack_", "Training data (binpack)", "formats.md"),
    ("chess_bitboard_", "Squares and bitboards", "c.md"),
    ("chess_book_", "Polyglot book", "books.md"),
    ("chess_engine_", "UCI engine", "engines.md"),
    ("chess_epd_", "EPD", "formats.md"),
    ("chess_error_", "Errors", "c.md"),
    ("chess_fen_", "FEN", "formats.md"),
    ("chess_game_", "Game", "games.md"),
    ("chess_legal_", "Legal moves", "c.md"),
    ("chess_move", "Move", "formats.md"),
    ("chess_node_", "Node (a game's move tree)", "pgn.md"),
    ("chess_perft", "Perft", "c.md"),
    ("chess_pgn_", "PGN reader", "pgn.md"),
    ("chess_position_", "Position", "c.md"),
    ("chess_pseudo_legal_", "Pseudo-legal moves", "c.md"),
    ("chess_setup_", "Editable setup", "c.md"),
    ("chess_square_", "Square", "c.md"),
    ("chess_svg_", "Board pictures (SVG)", "svg.md"),
    ("chess_tablebase_", "Syzygy tablebases", "tablebases.md"),
    ("chess_variant_", "Variants (the lichess variants)", "c.md"),
    ("chess_version", "Version", "c.md"),
];

/// `header` with a heading comment before the doc comment of each family's first function.
fn with_family_headings(header: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let (mut current, mut doc_start) = (None, 0);
    for line in header.lines() {
        if line.starts_with("/**") {
            doc_start = out.len();
        }
        if let Some(name) = function_name(line) {
            let (prefix, title, guide) = FAMILIES
                .iter()
                .filter(|(prefix, ..)| name.starts_with(prefix))
                .max_by_key(|(prefix, ..)| prefix.len())
                .unwrap_or_else(|| panic!("{name}: no family in build.rs's FAMILIES"));
            if current != Some(prefix) {
                let heading = format!("/* ======== {title} ({prefix}*; guide: docs/{guide}) ======== */");
                assert!(!out.contains(&heading), "{name}: the {title} family is split");
                out.splice(doc_start..doc_start, [heading, String::new()]);
                current = Some(prefix);
            }
        }
        out.push(line.to_string());
    }
    out.join("\n") + "\n"
}

/// The name of the function a header line declares, if it starts a function declaration.
fn function_name(line: &str) -> Option<&str> {
    let line =
        line.strip_prefix("CHESS_DEPRECATED(").map_or(line, |rest| rest.split_once(") ").map_or(rest, |(_, d)| d));
    if !line.starts_with(|c: char| c.is_ascii_lowercase()) || line.starts_with("typedef") {
        return None;
    }
    let name = line.split('(').next()?.rsplit([' ', '*']).next()?;
    name.starts_with("chess_").then_some(name)
}

/// `CHESS_READ_ERROR` of `src/pgn.rs`.
const READ_ERROR_MACRO: &str = "\n\n/**\n * What a chess_read_fn returns when reading failed (SIZE_MAX): chess_pgn_reader_next then\n \
                                * returns CHESS_ERR_IO, and CHESS_END afterwards.\n */\n#define CHESS_READ_ERROR SIZE_MAX";

/// `CHESS_DEPRECATED(msg)`, which cbindgen writes before a function marked `#[deprecated]`.
const DEPRECATED_MACRO: &str = "\n\n/**\n * Marks a function kept for the 1.x ABI that 2.0 removes; its message names the replacement.\n \
 * Empty unless the program defines CHESS_WARN_DEPRECATED before including this header: then a\n \
 * call of such a function is a compiler warning (C23, C++14, GCC, Clang, MSVC).\n */\n\
#ifndef CHESS_DEPRECATED\n\
#if defined(CHESS_WARN_DEPRECATED) && defined(__cplusplus) && __cplusplus >= 201402L\n\
#define CHESS_DEPRECATED(msg) [[deprecated(msg)]]\n\
#elif defined(CHESS_WARN_DEPRECATED) && !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 202311L\n\
#define CHESS_DEPRECATED(msg) [[deprecated(msg)]]\n\
#elif defined(CHESS_WARN_DEPRECATED) && (defined(__GNUC__) || defined(__clang__))\n\
#define CHESS_DEPRECATED(msg) __attribute__((deprecated(msg)))\n\
#elif defined(CHESS_WARN_DEPRECATED) && defined(_MSC_VER)\n\
#define CHESS_DEPRECATED(msg) __declspec(deprecated(msg))\n\
#else\n\
#define CHESS_DEPRECATED(msg)\n\
#endif\n\
#endif";

fn version_macros() -> String {
    let mut out = String::new();
    for (part, what) in [("MAJOR", "major"), ("MINOR", "minor"), ("PATCH", "patch")] {
        let value = env::var(format!("CARGO_PKG_VERSION_{part}")).expect("version set by cargo");
        writeln!(out, "\n/** The {what} version of this header. */\n#define CHESS_VERSION_{part} {value}").unwrap();
    }
    let version = env::var("CARGO_PKG_VERSION").expect("version set by cargo");
    write!(
        out,
        "\n/** The version of this header as text; chess_version() gives the library's. */\n\
         #define CHESS_VERSION_STRING \"{version}\""
    )
    .unwrap();
    let part = |name: &str| env::var(name).expect("version set by cargo").parse::<u32>().expect("a numeric version");
    let number = part("CARGO_PKG_VERSION_MAJOR") * 10_000
        + part("CARGO_PKG_VERSION_MINOR") * 100
        + part("CARGO_PKG_VERSION_PATCH");
    write!(
        out,
        "\n\n/** The version of this header as a number, MAJOR * 10000 + MINOR * 100 + PATCH;\n \
         * chess_version_number() gives the library's. */\n#define CHESS_VERSION_NUMBER {number}"
    )
    .unwrap();
    out
}

/// On ELF systems the shared library carries the major version in its soname
/// (`libchesscore.so.1`), the name programs linked against it ask the run-time linker for.
fn shared_library_name() {
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if matches!(os.as_str(), "macos" | "ios" | "windows" | "") {
        return;
    }
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("version set by cargo");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libchesscore.so.{major}");
}

/// On ELF systems a linker version script exports exactly the C API's functions (every one is
/// named `chess_...`), whatever else the Rust code holds.
fn export_list(out_dir: &Path) {
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if matches!(os.as_str(), "macos" | "ios" | "windows" | "") {
        return;
    }
    let script = out_dir.join("chesscore.map");
    fs::write(&script, "{\n  global: chess_*;\n  local: *;\n};\n").expect("write the version script");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={}", script.display());
}
