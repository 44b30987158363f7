//! The install script lays the library out as a packager would, and a program builds against
//! it with nothing but `pkg-config`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/<profile>/deps`, where `cargo test` leaves the freshly built libraries.
fn built_libraries() -> PathBuf {
    std::env::current_exe().unwrap().parent().unwrap().to_path_buf()
}

fn run(command: &mut Command) -> String {
    let out = command.output().unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        out.status.success(),
        "{command:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn install_then_build_with_pkg_config() {
    if !common::tool(
        "pkg-config",
        &["--version"],
        "install: build against the installed library with pkg-config",
        "scripts/test.sh installs pkgconf into target/venv",
    ) {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let prefix = std::env::temp_dir().join(format!("chesscore-install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&prefix);
    run(Command::new("sh")
        .arg(root.join("scripts/install.sh"))
        .args(["--no-build", "--prefix"])
        .arg(&prefix)
        .arg("--from")
        .arg(built_libraries()));

    let lib = prefix.join("lib");
    let version = env!("CARGO_PKG_VERSION");
    let major = env!("CARGO_PKG_VERSION_MAJOR");
    assert!(lib.join(format!("libchesscore.so.{version}")).is_file());
    assert_eq!(
        std::fs::read_link(lib.join(format!("libchesscore.so.{major}"))).unwrap(),
        Path::new(&format!("libchesscore.so.{version}"))
    );
    assert_eq!(
        std::fs::read_link(lib.join("libchesscore.so")).unwrap(),
        Path::new(&format!("libchesscore.so.{major}"))
    );
    assert!(lib.join("libchesscore.a").is_file());
    assert!(prefix.join("include/chesscore.h").is_file());
    assert!(prefix.join("include/chesscore.hpp").is_file());

    let pkg_config_path = lib.join("pkgconfig");
    let flags = run(Command::new("pkg-config").env("PKG_CONFIG_PATH", &pkg_config_path).args([
        "--cflags",
        "--libs",
        "chesscore",
    ]));
    assert!(flags.contains("-lchesscore"), "{flags}");
    let modversion =
        run(Command::new("pkg-config").env("PKG_CONFIG_PATH", &pkg_config_path).args(["--modversion", "chesscore"]));
    assert_eq!(modversion.trim(), version);

    let program = prefix.join("legal_moves");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    run(Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror"])
        .arg(root.join("examples/legal_moves.c"))
        .args(flags.split_whitespace())
        .arg("-o")
        .arg(&program));
    // The installed library is found through the soname, not the build tree.
    let out = run(Command::new(&program)
        .arg("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        .env_remove("LD_LIBRARY_PATH")
        .env("LD_LIBRARY_PATH", &lib));
    assert_eq!(out.lines().count(), 6, "{out}");
    let linked = run(Command::new("ldd").arg(&program).env("LD_LIBRARY_PATH", &lib));
    assert!(linked.contains(&format!("libchesscore.so.{major} => {}", lib.display())), "{linked}");
    std::fs::remove_dir_all(&prefix).unwrap();
}
