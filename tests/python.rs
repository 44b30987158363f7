//! The Python package, `bindings/python`: its pytest suite, run against the library this build
//! made (through `CHESSCORE_LIB`), which compares it with python-chess. pytest and python-chess
//! must be installed (`.ci/run` installs them); without them this test fails, it never skips.

mod common;

use std::path::Path;
use std::process::Command;

#[test]
fn python_bindings_pass_their_pytest_suite() {
    let library = std::env::current_exe().expect("test executable path").with_file_name("libchesscore.so");
    assert!(library.is_file(), "{} not built", library.display());
    let probe = Command::new("python3").args(["-c", "import pytest, chess"]).output().expect("python3 is needed");
    assert!(
        probe.status.success(),
        "pytest and python-chess are needed: python3 -m pip install pytest chess==1.11.2\n{}",
        String::from_utf8_lossy(&probe.stderr)
    );
    let output = Command::new("python3")
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("bindings/python"))
        .env("CHESSCORE_LIB", &library)
        .env("CHESSCORE_TESTDATA", common::testdata())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run pytest");
    let stdout = String::from_utf8_lossy(&output.stdout);
    print!("{stdout}");
    assert!(output.status.success(), "pytest failed\n{stdout}{}", String::from_utf8_lossy(&output.stderr));
}
