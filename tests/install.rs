//! The install script lays the library and the command line out as a packager would; a C
//! program builds and runs against the install with nothing but the line the script prints and
//! `pkg-config`, dynamically and statically; `--uninstall` removes every file again. The CMake
//! package finds both targets from an install, also after the install has been moved.

use chesscore_test_support as common;

use std::path::{Path, PathBuf};
use std::process::Command;

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/legal_moves.c");

/// What `install.sh --from` takes: this build's libraries (left by `cargo test` in
/// `target/<profile>/deps`) and, `with_cli`, its `chesscore` command (in `target/<profile>`).
fn staged_build(dir: &Path, with_cli: bool) -> PathBuf {
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let mut files = vec![deps.join("libchesscore.so"), deps.join("libchesscore.a")];
    if with_cli {
        let cli = deps.parent().unwrap().join("chesscore");
        assert!(cli.is_file(), "{} not built: test the workspace (scripts/test.sh does)", cli.display());
        files.push(cli);
    }
    std::fs::create_dir_all(dir).unwrap();
    for from in files {
        std::fs::copy(&from, dir.join(from.file_name().unwrap())).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
    dir.to_path_buf()
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

/// A shell with a bare environment (no library or pkg-config paths) running `line` and then
/// `script`.
fn fresh_shell(line: &str, script: &str) -> String {
    let path = std::env::var("PATH").unwrap();
    run(Command::new("sh").env_clear().env("PATH", path).arg("-c").arg(format!("set -e\n{line}\n{script}")))
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && !path.is_symlink() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn install_build_run_and_uninstall() {
    if !common::tool(
        "pkg-config",
        &["--version"],
        "install: build against the install with pkg-config",
        "scripts/test.sh installs pkgconf into target/venv",
    ) {
        return;
    }
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let prefix = scratch.join("prefix");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/install.sh");
    let printed = run(Command::new("sh")
        .arg(&script)
        .args(["--no-build", "--prefix"])
        .arg(&prefix)
        .arg("--from")
        .arg(staged_build(&scratch.join("build"), true)));

    let lib = prefix.join("lib");
    let version = env!("CARGO_PKG_VERSION");
    let major = env!("CARGO_PKG_VERSION_MAJOR");
    let shared = lib.join(format!("libchesscore.so.{version}"));
    assert_eq!(
        std::fs::read_link(lib.join(format!("libchesscore.so.{major}"))).unwrap(),
        Path::new(&format!("libchesscore.so.{version}"))
    );
    assert_eq!(
        std::fs::read_link(lib.join("libchesscore.so")).unwrap(),
        Path::new(&format!("libchesscore.so.{major}"))
    );
    for file in [
        "lib/libchesscore.a",
        "lib/pkgconfig/chesscore.pc",
        "lib/cmake/chesscore/chesscoreConfig.cmake",
        "lib/cmake/chesscore/chesscoreConfigVersion.cmake",
        "include/chesscore.h",
        "include/chesscore.hpp",
        "bin/chesscore",
    ] {
        assert!(prefix.join(file).is_file(), "{file} not installed");
    }
    // Stripped: no symbol table or debug information beyond the exported symbols.
    let sections = run(Command::new("readelf").arg("-S").arg(&shared));
    assert!(!sections.contains(".symtab") && !sections.contains(".debug_"), "{sections}");

    // The one line printed for a prefix the run-time linker does not search.
    let line =
        printed.lines().find(|l| l.starts_with("export ")).unwrap_or_else(|| panic!("no export line in:\n{printed}"));
    let exe = scratch.join("legal_moves");
    let out = fresh_shell(
        line,
        &format!(
            "cc -std=c99 -Wall -Wextra -Werror {EXAMPLE} $(pkg-config --cflags --libs chesscore) -o {exe}\n\
             {exe} '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1'\n\
             test \"$(pkg-config --modversion chesscore)\" = {version}\n\
             chesscore moves '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1' | wc -l",
            exe = exe.display()
        ),
    );
    // Six legal moves from the C program, then the six counted from the installed command.
    assert_eq!(out.lines().count(), 7, "{out}");
    assert_eq!(out.lines().last().map(str::trim), Some("6"), "{out}");
    let needed = run(Command::new("readelf").arg("-d").arg(&exe));
    assert!(needed.contains(&format!("[libchesscore.so.{major}]")), "{needed}");

    // Static: the archive and its system libraries (Libs.private), nothing of ours loaded at run time.
    let static_exe = scratch.join("legal_moves_static");
    let out = fresh_shell(
        line,
        &format!(
            "cc -static -std=c99 {EXAMPLE} $(pkg-config --static --cflags --libs chesscore) -o {exe} 2>/dev/null\n\
             env -u LD_LIBRARY_PATH {exe} '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1'",
            exe = static_exe.display()
        ),
    );
    assert_eq!(out.lines().count(), 6, "{out}");
    assert!(!run(Command::new("readelf").arg("-d").arg(&static_exe)).contains("libchesscore"));

    run(Command::new("sh").arg(&script).arg("--uninstall").arg("--prefix").arg(&prefix));
    let left: Vec<PathBuf> = files_under(&prefix);
    assert!(left.is_empty(), "left after --uninstall: {left:?}");
    std::fs::remove_dir_all(&scratch).unwrap();
}

/// Configures, builds and runs `examples/cmake` (`find_package(chesscore 1.0 CONFIG REQUIRED)`)
/// against the install under `prefix`, linked with `target`; returns the program's output.
fn cmake_build_and_run(prefix: &Path, target: &str, build: &Path) -> String {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cmake");
    let _ = std::fs::remove_dir_all(build);
    let line = format!(
        "cmake -S {source} -B {build} -DCMAKE_PREFIX_PATH={prefix} -DCHESSCORE_TARGET={target} >/dev/null\n\
         cmake --build {build} >/dev/null\n\
         env -u LD_LIBRARY_PATH {build}/legal_moves '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1'",
        source = source.display(),
        build = build.display(),
        prefix = prefix.display(),
    );
    fresh_shell("", &line)
}

/// Whether `find_package(chesscore VERSION CONFIG)` accepts the install under `prefix`.
fn cmake_accepts(prefix: &Path, version: &str, scratch: &Path) -> bool {
    let dir = scratch.join(format!("version-{version}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.16)\nproject(probe LANGUAGES NONE)\n\
             find_package(chesscore {version} CONFIG QUIET)\nmessage(STATUS \"found=${{chesscore_FOUND}}\")\n"
        ),
    )
    .unwrap();
    let out = fresh_shell(
        "",
        &format!("cmake -S {dir} -B {dir}/build -DCMAKE_PREFIX_PATH={}", prefix.display(), dir = dir.display()),
    );
    out.contains("found=1")
}

#[test]
fn cmake_package_links_both_targets_and_moves_with_the_install() {
    if !common::tool("cmake", &["--version"], "install: the CMake package", "apt-get install cmake") {
        return;
    }
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("install-cmake-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let prefix = scratch.join("prefix");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/install.sh");
    run(Command::new("sh")
        .arg(&script)
        .args(["--no-build", "--no-cli", "--prefix"])
        .arg(&prefix)
        .arg("--from")
        .arg(staged_build(&scratch.join("build"), false)));
    // Relocatable: no absolute path of the install in the package's files.
    for file in ["chesscoreConfig.cmake", "chesscoreConfigVersion.cmake"] {
        let text = std::fs::read_to_string(prefix.join("lib/cmake/chesscore").join(file)).unwrap();
        assert!(!text.contains(prefix.to_str().unwrap()), "{file} names the prefix:\n{text}");
    }

    // The ABI's policy: same major version, at least the minor version asked for.
    let major: u32 = env!("CARGO_PKG_VERSION_MAJOR").parse().unwrap();
    let minor: u32 = env!("CARGO_PKG_VERSION_MINOR").parse().unwrap();
    for (version, accepted) in [
        (format!("{major}.0"), true),
        (env!("CARGO_PKG_VERSION").to_string(), true),
        (format!("{major}.{}", minor + 1), false),
        (format!("{}.0", major + 1), false),
    ] {
        assert_eq!(cmake_accepts(&prefix, &version, &scratch), accepted, "find_package(chesscore {version})");
    }

    let moved = scratch.join("moved/elsewhere");
    for (install, when) in [(prefix.clone(), "installed"), (moved.clone(), "moved")] {
        if when == "moved" {
            std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
            std::fs::rename(&prefix, &moved).unwrap();
        }
        let shared_build = scratch.join(format!("cmake-shared-{when}"));
        let out = cmake_build_and_run(&install, "chesscore::chesscore", &shared_build);
        assert_eq!(out.lines().count(), 6, "{when}, shared: {out}");
        let dynamic = run(Command::new("readelf").arg("-d").arg(shared_build.join("legal_moves")));
        assert!(dynamic.contains(&format!("[libchesscore.so.{major}]")), "{when}: {dynamic}");
        assert!(
            dynamic.contains(install.join("lib").to_str().unwrap()),
            "{when}: no run path to the install: {dynamic}"
        );

        let static_build = scratch.join(format!("cmake-static-{when}"));
        let out = cmake_build_and_run(&install, "chesscore::chesscore_static", &static_build);
        assert_eq!(out.lines().count(), 6, "{when}, static: {out}");
        let dynamic = run(Command::new("readelf").arg("-d").arg(static_build.join("legal_moves")));
        assert!(!dynamic.contains("libchesscore"), "{when}: {dynamic}");
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}
