//! The Haxe binding, `bindings/haxe`: hxcpp externs over the C API and the `chess.fen.FEN` class.
//!
//! - The externs declared in `chesscore/Native.hx` are checked against the header: a C++ file
//!   calls every one with the C++ types hxcpp gives their Haxe parameter types, and includes the
//!   glue header `chesscore_hx.h`; it is compiled strictly, linked with the library and run.
//! - With `haxe` installed, the sources (the test program and the Haxe snippet of docs/haxe.md)
//!   type-check and generate C++ (`-D no-compilation`). `scripts/test.sh` installs haxe where it
//!   can; without it the suite is recorded as not run, or fails when `CHESSCORE_REQUIRE` names
//!   `haxe` (CI does).
//! - With hxcpp also installed as a haxelib (it is in no package registry, so CI lacks it), the
//!   test program and the snippet are built for real and run against this build's library;
//!   otherwise that suite is recorded as not run (`hxcpp`).

use chesscore_test_support as common;

use std::path::{Path, PathBuf};
use std::process::Command;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn haxe_dir() -> PathBuf {
    Path::new(MANIFEST_DIR).join("bindings/haxe")
}

fn library() -> PathBuf {
    let library = std::env::current_exe().expect("test executable path").with_file_name("libchesscore.so");
    assert!(library.is_file(), "{} not built", library.display());
    library
}

/// This profile's scratch directory for the Haxe outputs.
fn work_dir(name: &str) -> PathBuf {
    let profile = library().parent().and_then(Path::parent).and_then(Path::file_name).unwrap().to_owned();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("haxe").join(profile).join(name);
    std::fs::create_dir_all(&dir).expect("create the work directory");
    dir
}

fn run(command: &mut Command) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{command:?} failed ({})\nstdout:\n{stdout}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// An extern of Native.hx: its C name, its parameter types and its return type, as Haxe spells
/// them.
struct Extern {
    name: String,
    params: Vec<String>,
    returns: String,
}

fn externs() -> Vec<Extern> {
    let source = std::fs::read_to_string(haxe_dir().join("src/chesscore/Native.hx")).expect("read Native.hx");
    let source: String = source.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut found = Vec::new();
    for piece in source.split("@:native(\"").skip(1) {
        let (name, rest) = piece.split_once("\")").unwrap();
        let Some(rest) = rest.trim_start().strip_prefix("static function ") else { continue };
        let open = rest.find('(').unwrap();
        let mut depth = 0;
        let close = rest[open..]
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '(' | '<' => 1,
                    ')' | '>' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map(|(i, _)| open + i)
            .unwrap();
        let params = split_top_level(&rest[open + 1..close])
            .into_iter()
            .map(|param| param.split_once(':').expect("a typed parameter").1.trim().to_string())
            .collect();
        let returns =
            rest[close + 1..].trim_start().strip_prefix(':').unwrap().split(';').next().unwrap().trim().to_string();
        found.push(Extern { name: name.to_string(), params, returns });
    }
    found
}

fn split_top_level(list: &str) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
    for (i, c) in list.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !list.trim().is_empty() {
        parts.push(&list[start..]);
    }
    parts
}

/// The C++ type hxcpp generates for a Haxe type of the externs.
fn cpp_type(haxe: &str) -> String {
    if let Some(inner) = haxe.strip_prefix("RawPointer<").and_then(|t| t.strip_suffix('>')) {
        return format!("{} *", cpp_type(inner));
    }
    match haxe {
        "Int" => "int",
        "Bool" => "bool",
        "Void" => "void",
        "ConstCharStar" => "const char *",
        "cpp.Char" => "char",
        "SizeT" => "size_t",
        "UInt16" => "unsigned short",
        "UInt32" => "unsigned int",
        "UInt64" => "uint64_t",
        "ChessPosition" => "chess_position",
        "ChessFenInfo" => "chess_fen_info",
        other => panic!("no C++ mapping for the Haxe type {other}"),
    }
    .to_string()
}

#[test]
fn haxe_externs_match_the_header() {
    let externs = externs();
    assert!(externs.len() >= 25, "{} externs", externs.len());
    let mut check = String::from(
        "// Generated by tests/haxe.rs from bindings/haxe/src/chesscore/Native.hx.\n\
         #include \"chesscore_hx.h\"\n#include <cstdio>\n#include <cstring>\n#include <type_traits>\n#include <utility>\n\n",
    );
    for ext in &externs {
        let args: Vec<String> = ext.params.iter().map(|p| format!("std::declval<{}>()", cpp_type(p))).collect();
        let call = format!("::{}({})", ext.name, args.join(", "));
        let returns = cpp_type(&ext.returns);
        let test = if returns == "void" {
            format!("std::is_same<decltype({call}), void>::value")
        } else {
            format!("std::is_convertible<decltype({call}), {returns}>::value")
        };
        check.push_str(&format!("static_assert({test}, \"{}\");\n", ext.name));
    }
    // Every extern links, and the glue works.
    check.push_str("\nint main() {\n    const void *functions[] = {\n");
    for ext in &externs {
        check.push_str(&format!("        reinterpret_cast<const void *>(&::{}),\n", ext.name));
    }
    check.push_str(
        r#"    };
    char buf[64];
    size_t len = 0;
    chess_fen_info info = chesscore_hx_fen_info();
    chess_position start = chesscore_hx_start_position();
    bool ok = functions[0] != nullptr && info.size == sizeof info && chess_perft(&start, 2) == 400 &&
              chesscore_hx_fen_split("8/8/8/8/8/8/8/K6k w - -", buf, sizeof buf, &len, &info) == CHESS_OK &&
              len == 27 && std::memcmp(buf, "8/8/8/8/8/8/8/K6k\0w\0-\0-\0" "0\0" "1", 28) == 0 &&
              chesscore_hx_fen_split("8/8 w", buf, sizeof buf, &len, &info) == CHESS_ERR_FEN_FIELD_COUNT &&
              info.error_offset == 5;
    std::printf("haxe externs: %zu checked, %s\n", sizeof functions / sizeof *functions, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
"#,
    );
    let dir = work_dir("externs");
    let source = dir.join("externs_check.cpp");
    std::fs::write(&source, check).unwrap();
    let exe = dir.join("externs_check");
    let target = env!("CHESSCORE_BUILD_TARGET");
    let mut compiler = cc::Build::new()
        .cpp(true)
        .target(target)
        .host(target)
        .opt_level(0)
        .cargo_metadata(false)
        .get_compiler()
        .to_command();
    compiler
        .args(["-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(Path::new(MANIFEST_DIR).join("include"))
        .arg("-I")
        .arg(haxe_dir().join("src/chesscore"))
        .arg(&source)
        .arg("-o")
        .arg(&exe)
        .arg(library())
        .arg(format!("-Wl,-rpath,{}", library_dir().display()));
    run(&mut compiler);
    let output = run(Command::new(&exe).env_remove("LD_LIBRARY_PATH"));
    assert!(output.contains("ok"), "{output}");
}

/// A directory holding the library as the linker (`libchesscore.so`) and the loader (the soname)
/// look for it.
fn library_dir() -> PathBuf {
    let dir = work_dir("lib");
    for name in ["libchesscore.so", concat!("libchesscore.so.", env!("CARGO_PKG_VERSION_MAJOR"))] {
        let link = dir.join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(library(), &link).expect("link the library");
    }
    dir
}

fn haxe_available(suite: &str) -> bool {
    common::tool("haxe", &["--version"], suite, "apt-get install haxe")
}

/// The documentation's Haxe snippet (its one program, class `Main`) as a class file in its own
/// directory.
fn doc_snippet() -> PathBuf {
    let blocks = common::doc_blocks("haxe");
    assert_eq!(blocks.len(), 1, "the documentation has one Haxe program (docs/haxe.md)");
    let dir = work_dir("doc_src");
    std::fs::write(dir.join("Main.hx"), &blocks[0].1).unwrap();
    dir
}

/// `haxe` compiling one program of the binding (its main class in `class_path`) to C++ in `out`.
fn haxe(class_path: &Path, main: &str, out: &Path) -> Command {
    let mut command = Command::new("haxe");
    command.arg("-cp").arg(haxe_dir().join("src")).arg("-cp").arg(class_path).args(["-main", main, "-cpp"]).arg(out);
    command
}

#[test]
fn haxe_sources_type_check_and_generate_cpp() {
    if !haxe_available("haxe: type-check and generate C++") {
        return;
    }
    for (class_path, main, name) in
        [(haxe_dir().join("test"), "TestFEN", "gen_test"), (doc_snippet(), "Main", "gen_doc")]
    {
        let out = work_dir(name);
        run(haxe(&class_path, main, &out).arg("-D").arg("no-compilation"));
        let fen = std::fs::read_to_string(out.join("src/chess/fen/FEN.cpp")).expect("generated FEN.cpp");
        assert!(fen.contains("chess_fen_parse_with") && fen.contains("#include \"chesscore_hx.h\""));
    }
}

#[test]
fn haxe_programs_run_with_hxcpp() {
    const SUITE: &str = "haxe: build and run with hxcpp";
    if !haxe_available(SUITE) {
        return;
    }
    if !Command::new("haxelib").args(["path", "hxcpp"]).output().is_ok_and(|o| o.status.success()) {
        let why = "hxcpp is not installed as a haxelib (it is in no package registry; see docs/haxe.md)";
        common::not_run("hxcpp", SUITE, why);
        return;
    }
    let include = Path::new(MANIFEST_DIR).join("include");
    for (class_path, main, name, expect) in
        [(haxe_dir().join("test"), "TestFEN", "hxcpp_test", ", 0 failed"), (doc_snippet(), "Main", "hxcpp_doc", "O-O")]
    {
        let out = work_dir(name);
        run(haxe(&class_path, main, &out)
            .arg("-D")
            .arg(format!("chesscore_include={}", include.display()))
            .arg("-D")
            .arg(format!("chesscore_lib={}", library_dir().display())));
        let output = run(Command::new(out.join(main)).env_remove("LD_LIBRARY_PATH").env("TMPDIR", &out));
        print!("{output}");
        assert!(output.contains(expect), "{output}");
    }
}
