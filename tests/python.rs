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
