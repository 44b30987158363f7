//! The Python package, `bindings/python`: its pytest suite, run against the library this build
//! made (through `CHESSCORE_LIB`), which compares it with python-chess. pytest and python-chess
//! come from `target/venv`, which `scripts/test.sh` makes; without them the suite is recorded as
//! not run (or fails, when `CHESSCORE_REQUIRE` names `python`).

mod common;

use std::path::Path;
use std::process::Command;

#[test]
fn python_bindings_pass_their_pytest_suite() {
    let library = std::env::current_exe().expect("test executable path").with_file_name("libchesscore.so");
    assert!(library.is_file(), "{} not built", library.display());
    let Some(python) = common::python("python: the binding's pytest suite") else { return };
    let mut pytest = Command::new(python);
    if let Some(stockfish) = common::stockfish("python: the engine tests with Stockfish") {
        pytest.env("CHESSCORE_STOCKFISH", stockfish);
    }
    let output = pytest
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("bindings/python"))
        .env("CHESSCORE_LIB", &library)
        .env("CHESSCORE_DATA", common::data_dir())
        .env("CHESSCORE_FAKE_ENGINE", common::fake_engine())
        .env("CHESSCORE_NOT_RUN_DIR", Path::new(env!("CARGO_TARGET_TMPDIR")).join("not-run"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run pytest");
    let stdout = String::from_utf8_lossy(&output.stdout);
    print!("{stdout}");
    assert!(output.status.success(), "pytest failed\n{stdout}{}", String::from_utf8_lossy(&output.stderr));
}

/// `python -m build` over `bindings/python` (the sdist, then the wheel from it, as pip builds
/// one), with the library just built standing in for cargo's (`CHESSCORE_BUILD_LIB`); the wheel
/// is installed into a fresh virtual environment, where `import chesscore` finds the library it
/// carries with no environment variable, and `mypy --strict` checks the examples against the
/// installed package (its `py.typed` and hints).
#[test]
fn python_wheel_installs_into_a_fresh_environment_and_type_checks() {
    let library = std::env::current_exe().expect("test executable path").with_file_name("libchesscore.so");
    let Some(python) = common::python("python: the wheel, installed into a fresh environment") else { return };
    let tools =
        Command::new(&python).args(["-c", "import build, mypy, setuptools, wheel"]).output().expect("run python");
    if !tools.status.success() {
        let why =
            format!("{} lacks build, mypy, setuptools or wheel (scripts/test-requirements.txt)", python.display());
        common::not_run("python", "python: the wheel, installed into a fresh environment", &why);
        return;
    }
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("bindings/python");
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python-wheel");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("create the wheel's directory");
    let run = |command: &mut Command, what: &str| {
        let output = command.env("PYTHONDONTWRITEBYTECODE", "1").output().unwrap_or_else(|e| panic!("{what}: {e}"));
        let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert!(output.status.success(), "{what} failed\n{text}");
        text
    };
    run(
        Command::new(&python)
            .args(["-m", "build", "--no-isolation", "--outdir"])
            .arg(work.join("dist"))
            .arg(&package)
            .env("CHESSCORE_BUILD_LIB", &library),
        "python -m build",
    );
    let built: Vec<String> = std::fs::read_dir(work.join("dist"))
        .expect("the dist directory")
        .map(|entry| entry.expect("a dist entry").file_name().to_string_lossy().into_owned())
        .collect();
    let wheel = built.iter().find(|name| name.ends_with(".whl")).expect("a wheel");
    assert!(
        wheel.starts_with("chesscore-1.0.0-py3-none-") && !wheel.ends_with("-any.whl"),
        "{wheel} is not platform-tagged"
    );
    let sdist = built.iter().find(|name| name.ends_with(".tar.gz")).expect("a source distribution");
    let listing = run(Command::new("tar").arg("tzf").arg(work.join("dist").join(sdist)), "tar tzf");
    for rust in ["rust/Cargo.toml", "rust/Cargo.lock", "rust/src/lib.rs", "rust/core/src/lib.rs", "rust/cli/Cargo.toml"]
    {
        assert!(listing.lines().any(|line| line.ends_with(rust)), "the sdist lacks {rust}:\n{listing}");
    }

    let venv = work.join("venv");
    run(Command::new(&python).args(["-m", "venv"]).arg(&venv), "python -m venv");
    let fresh = venv.join("bin/python3");
    run(
        Command::new(&fresh)
            .args(["-m", "pip", "install", "--quiet", "--no-index", "--no-deps", "--disable-pip-version-check"])
            .arg(work.join("dist").join(wheel)),
        "pip install the wheel",
    );
    let probe = "import chesscore, pathlib, sys\n\
                 lib = pathlib.Path(chesscore.library_path).resolve()\n\
                 assert lib.parent == pathlib.Path(chesscore.__file__).resolve().parent, lib\n\
                 assert pathlib.Path(sys.prefix).resolve() in lib.parents, lib\n\
                 assert (lib.parent / 'py.typed').is_file()\n\
                 pos = chesscore.Position()\n\
                 assert pos.perft(3) == 8902 and pos.push_san('e4').uci() == 'e2e4'\n\
                 print(chesscore.library_version())";
    let version = run(
        Command::new(&fresh).args(["-c", probe]).current_dir(&work).env_remove("CHESSCORE_LIB"),
        "the installed package",
    );
    assert_eq!(version.trim(), env!("CARGO_PKG_VERSION"));

    run(
        Command::new(&python)
            .args(["-m", "mypy", "--strict", "--no-error-summary", "--python-executable"])
            .arg(&fresh)
            .arg("--cache-dir")
            .arg(work.join("mypy-cache"))
            .arg(package.join("examples"))
            .current_dir(&work)
            .env_remove("MYPYPATH"),
        "mypy --strict over the examples",
    );
}
