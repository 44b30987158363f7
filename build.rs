//! Build script: generates the sliding-piece attack tables (magic or PEXT indexed), the C header
//! (cbindgen, into `OUT_DIR` only), and the shared library's soname.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR is set by cargo"));
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let pext = arch == "x86_64" && features.split(',').any(|f| f == "bmi2");
    fs::write(out_dir.join("sliders.rs"), slider_tables(pext)).expect("write sliders.rs");
    generate_header(&out_dir);
    shared_library_name();
    export_list(&out_dir);
    // The C tests build with the cc crate, which needs the target outside a build script.
    println!("cargo:rustc-env=CHESSCORE_BUILD_TARGET={}", env::var("TARGET").expect("TARGET set by cargo"));
}

/// Generates the C header from `src/ffi` into `OUT_DIR`. The build never touches `include/`:
/// a test compares the committed header with this one, and `scripts/update-header.sh` copies it.
fn generate_header(out_dir: &Path) {
    for watched in ["src/ffi", "cbindgen.toml", "Cargo.toml"] {
        println!("cargo:rerun-if-changed={watched}");
    }
    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR is set by cargo"));
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("read cbindgen.toml");
    // cbindgen cannot write `usize::MAX`: the read callback's error value is defined here.
    config.after_includes = Some(version_macros() + READ_ERROR_MACRO);
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/ffi/mod.rs"))
        .generate()
        .expect("generate the C header from src/ffi")
        .write_to_file(out_dir.join("chesscore.h"));
}

/// `CHESS_READ_ERROR` of `src/ffi/pgn.rs`.
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

/// Squares a slider on `sq` attacks through `occupied` (blockers included).
fn slide(sq: i32, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// Relevant occupancy: the rays without their last square (an edge piece blocks nothing beyond).
fn relevant_mask(sq: i32, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        out.push(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            return out;
        }
    }
}

/// Software parallel bit extract, the same mapping as the BMI2 instruction.
fn pext(value: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & low != 0 {
            result |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    result
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds a magic factor mapping every relevant occupancy of `sq` to a slot without conflicts.
fn find_magic(mask: u64, occupancies: &[u64], attacks: &[u64], rng: &mut Rng) -> (u64, Vec<u64>) {
    let bits = mask.count_ones();
    let mut table = vec![0u64; 1 << bits];
    let mut used = vec![0u32; 1 << bits];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let mut ok = true;
        for (&occ, &att) in occupancies.iter().zip(attacks) {
            let index = ((occ.wrapping_mul(magic)) >> (64 - bits)) as usize;
            if used[index] != attempt {
                used[index] = attempt;
                table[index] = att;
            } else if table[index] != att {
                ok = false;
                break;
            }
        }
        if ok {
            return (magic, table);
        }
    }
}

fn slider_tables(pext_index: bool) -> String {
    let mut out = String::new();
    let mut all_attacks: Vec<u64> = Vec::new();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    writeln!(out, "// Generated by build.rs; indexing: {}.", if pext_index { "PEXT" } else { "magic" }).unwrap();
    for (name, dirs) in [("ROOK_MAGICS", &ROOK_DIRS), ("BISHOP_MAGICS", &BISHOP_DIRS)] {
        writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
        for sq in 0..64 {
            let mask = relevant_mask(sq, dirs);
            let occupancies = subsets(mask);
            let attacks: Vec<u64> = occupancies.iter().map(|&o| slide(sq, o, dirs)).collect();
            let bits = mask.count_ones();
            let (factor, table) = if pext_index {
                let mut table = vec![0u64; 1 << bits];
                for (&occ, &att) in occupancies.iter().zip(&attacks) {
                    table[pext(occ, mask) as usize] = att;
                }
                (0, table)
            } else {
                find_magic(mask, &occupancies, &attacks, &mut rng)
            };
            writeln!(
                out,
                "    Magic {{ mask: {mask:#018x}, factor: {factor:#018x}, offset: {}, shift: {} }},",
                all_attacks.len(),
                64 - bits
            )
            .unwrap();
            all_attacks.extend(table);
        }
        writeln!(out, "];").unwrap();
    }
    writeln!(out, "pub(crate) static SLIDER_ATTACKS: [u64; {}] = [", all_attacks.len()).unwrap();
    for chunk in all_attacks.chunks(8) {
        out.push_str("   ");
        for value in chunk {
            write!(out, " {value:#x},").unwrap();
        }
        out.push('\n');
    }
    writeln!(out, "];").unwrap();
    out
}
