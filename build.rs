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
    config.after_includes = Some(version_macros() + READ_ERROR_MACRO);
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/lib.rs"))
        .generate()
        .expect("generate the C header from src/")
        .write_to_file(out_dir.join("chesscore.h"));
}

/// `CHESS_READ_ERROR` of `src/pgn.rs`.
const READ_ERROR_MACRO: &str = "\n\n/**\n * What a chess_read_fn returns when reading failed (SIZE_MAX): chess_pgn_reader_next then\n \
                                * returns CHESS_ERR_IO, and CHESS_END afterwards.\n */\n#define CHESS_READ_ERROR SIZE_MAX";

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
