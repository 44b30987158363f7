//! The core is a Rust library of its own: a program that depends on `chesscore-core` alone
//! builds without cbindgen, clap or a C compiler, and the core exports no C symbols.

use chesscore_test_support as common;

use std::path::Path;
use std::process::Command;

const PROGRAM: &str = r#"use chesscore_core::Position;

fn main() {
    let pos = Position::startpos();
    println!("{} {}", pos.legal_moves().len(), pos.perft(3));
}
"#;

fn run(command: &mut Command) -> String {
    let out = command.output().unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(out.status.success(), "{command:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_program_on_the_core_alone_builds_without_the_c_side() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("core-alone");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let core = common::root().join("core");
    let manifest = format!(
        "[package]\nname = \"core-alone\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
         [dependencies]\nchesscore-core = {{ path = {:?} }}\n\n[workspace]\n",
        core.display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/main.rs"), PROGRAM).unwrap();
    // The workspace's lock file: the same versions, so the build needs no network.
    std::fs::copy(common::root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let cargo = || {
        let mut command = Command::new(&cargo);
        command.current_dir(&dir).env("CARGO_TARGET_DIR", dir.join("target")).arg("--offline").arg("--quiet");
        command
    };

    let tree = run(cargo().args(["tree", "--edges", "normal,build", "--prefix", "none"]));
    for crate_name in ["cbindgen", "clap", "cc ", "chesscore "] {
        assert!(!tree.contains(crate_name), "the core pulls in {crate_name}:\n{tree}");
    }
    assert_eq!(run(cargo().args(["run"])), "20 8902\n");

    let deps = dir.join("target/debug/deps");
    let rlib = std::fs::read_dir(&deps)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with("libchesscore_core-") && name.ends_with(".rlib")
        })
        .expect("the core's rlib");
    match Command::new("nm").args(["--defined-only", "--format=posix"]).arg(&rlib).output() {
        Ok(out) if out.status.success() => {
            let symbols = String::from_utf8_lossy(&out.stdout);
            let exported: Vec<&str> = symbols.lines().filter(|line| line.starts_with("chess_")).collect();
            assert!(exported.is_empty(), "C symbols in the core: {exported:?}");
        }
        _ => common::not_run("nm", "core alone: the core's symbols", "nm (binutils) is not installed"),
    }
}
