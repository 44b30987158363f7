//! The Python package, `bindings/python`: its pytest suite, run against the library this build
//! made (through `CHESSCORE_LIB`), which compares it with python-chess. pytest and python-chess
//! come from `target/venv`, which `scripts/test.sh` makes; without them the suite is recorded as
//! not run (or fails, when `CHESSCORE_REQUIRE` names `python`). Then the package as users get
//! it: the manylinux wheel of `scripts/build-wheels.sh`, installed where there is no cargo.

use chesscore_test_support as common;

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
    // The command line, for the tests that compare it with python-chess: built into the
    // profile's directory (above this test's `deps/`) by a workspace run (scripts/test.sh);
    // without it they are recorded as not run.
    let cli = library.parent().and_then(Path::parent).map(|profile| profile.join("chesscore"));
    if let Some(cli) = cli.filter(|cli| cli.is_file()) {
        pytest.env("CHESSCORE_CLI", cli);
    }
    // The documentation's tablebase snippets read their tables from SYZYGY_PATH.
    if let Some(shared) = common::shared_testdata("python: the tablebase snippets with tables") {
        pytest.env("SYZYGY_PATH", shared.join("syzygy"));
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

/// The Python package as users get it: `scripts/build-wheels.sh` (the documented command) builds
/// the sdist and a wheel, its library linked against glibc 2.17 and stripped, which `auditwheel`
/// tags `manylinux_2_17` and finds clean. The wheel is installed into a fresh virtual environment
/// run with no cargo on `PATH` and no `CHESSCORE_LIB`, where the quick start of the package's
/// README (positions, moves, SAN, PGN, `chesscore.compat`) runs from the library the wheel
/// carries, and `mypy --strict` checks the examples (but the Dask one) against the installed
/// package.
#[test]
fn python_wheel_is_manylinux_and_installs_without_cargo() {
    let suite = "python: the manylinux wheel, installed into a fresh environment";
    let Some(python) = common::python(suite) else { return };
    let probe = "import build, mypy, setuptools, wheel, auditwheel, ziglang, shutil, sysconfig\n\
                 assert shutil.which('cargo-zigbuild', path=sysconfig.get_path('scripts')), 'no cargo-zigbuild'";
    let tools = Command::new(&python).args(["-c", probe]).output().expect("run python");
    if !tools.status.success() {
        let why = format!(
            "{} lacks build, mypy, setuptools, wheel, auditwheel, ziglang or cargo-zigbuild \
             (scripts/test-requirements.txt)",
            python.display()
        );
        common::not_run("python", suite, &why);
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let package = root.join("bindings/python");
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python-wheel");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("create the wheel's directory");
    let run = |command: &mut Command, what: &str| {
        let output = command.env("PYTHONDONTWRITEBYTECODE", "1").output().unwrap_or_else(|e| panic!("{what}: {e}"));
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(output.status.success(), "{what} failed\n{stdout}{}", String::from_utf8_lossy(&output.stderr));
        stdout
    };

    // The library is built for the wheel in a target directory of its own (kept between runs):
    // the test's own is locked by the cargo running it, and this build is for another glibc.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("the target directory").join("wheel");
    let built = run(
        Command::new(root.join("scripts/build-wheels.sh"))
            .args(["--no-isolation", "--profile", "testing", "--outdir"])
            .arg(work.join("dist"))
            .env("PYTHON", &python)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("CHESSCORE_BUILD_LIB"),
        "scripts/build-wheels.sh",
    );
    let built: Vec<&Path> = built.lines().map(Path::new).collect();
    let wheel = *built.iter().find(|path| path.extension().is_some_and(|e| e == "whl")).expect("a wheel");
    let platform = format!("manylinux_2_17_{}", std::env::consts::ARCH);
    let name = wheel.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with("chesscore-1.0.0-py3-none-") && name.contains(&platform), "{name}");
    let show = run(Command::new(&python).args(["-m", "auditwheel", "show"]).arg(wheel), "auditwheel show");
    let show = show.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(show.contains(&format!("consistent with the following platform tag: \"{platform}\"")), "{show}");

    // Inside: the stripped library, and the metadata the package index shows.
    let inside = "import sys, zipfile\n\
                  wheel = zipfile.ZipFile(sys.argv[1])\n\
                  open(sys.argv[2], 'wb').write(wheel.read('chesscore/libchesscore.so'))\n\
                  print(wheel.read('chesscore-1.0.0.dist-info/METADATA').decode())";
    let library = work.join("libchesscore.so");
    let metadata = run(Command::new(&python).args(["-c", inside]).arg(wheel).arg(&library), "read the wheel");
    let sections = run(Command::new("readelf").arg("-S").arg(&library), "readelf -S");
    assert!(!sections.contains(".symtab") && !sections.contains(".debug_"), "not stripped:\n{sections}");
    for field in [
        "Requires-Python: >=3.8",
        "Description-Content-Type: text/markdown",
        "Project-URL: Repository, ",
        "Classifier: License",
    ] {
        assert!(metadata.contains(field), "the wheel's METADATA lacks {field}:\n{metadata}");
    }
    assert!(metadata.contains("# chesscore for Python"), "the README is not the description:\n{metadata}");
    let sdist = *built.iter().find(|path| path.to_string_lossy().ends_with(".tar.gz")).expect("a source distribution");
    let listing = run(Command::new("tar").arg("tzf").arg(sdist), "tar tzf");
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
            .arg(wheel),
        "pip install the wheel",
    );
    // The user's shell: the environment's scripts first, and no directory that holds cargo.
    let path = std::iter::once(venv.join("bin"))
        .chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                .filter(|dir| !dir.join("cargo").exists()),
        )
        .collect::<Vec<_>>();
    let path = std::env::join_paths(path).expect("a PATH");
    let user = |script: &str| {
        let mut command = Command::new("sh");
        command.env_clear().env("PATH", &path).arg("-c").arg(script).current_dir(&work);
        command
    };
    let cargo = user("command -v cargo").output().expect("run sh");
    assert!(!cargo.status.success(), "cargo is on the user's PATH: {}", String::from_utf8_lossy(&cargo.stdout));

    let readme = std::fs::read_to_string(package.join("README.md")).expect("read bindings/python/README.md");
    let quick_start = common::markdown_blocks(&readme, "python").concat();
    std::fs::write(work.join("quick_start.py"), quick_start).expect("write the quick start");
    let out = run(&mut user("python3 quick_start.py"), "the README's quick start");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "26 e1g1",
            "Morphy ['e2e4', 'e7e5', 'g1f3', 'd7d6']",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        ],
        "{out}"
    );
    let probe = "import chesscore, pathlib, sys\n\
                 lib = pathlib.Path(chesscore.library_path).resolve()\n\
                 assert lib.parent == pathlib.Path(chesscore.__file__).resolve().parent, lib\n\
                 assert pathlib.Path(sys.prefix).resolve() in lib.parents, lib\n\
                 assert (lib.parent / 'py.typed').is_file()\n\
                 print(chesscore.library_version())";
    let version = run(&mut user(&format!("python3 -c \"{probe}\"")), "the installed package");
    assert_eq!(version.trim(), env!("CARGO_PKG_VERSION"));

    run(
        Command::new(&python)
            .args(["-m", "mypy", "--strict", "--no-error-summary", "--python-executable"])
            .arg(&fresh)
            .arg("--cache-dir")
            .arg(work.join("mypy-cache"))
            .arg(package.join("examples"))
            // The Dask example needs Dask, which the package does not depend on.
            .args(["--exclude", "/examples/dask/"])
            .current_dir(&work)
            .env_remove("MYPYPATH"),
        "mypy --strict over the examples",
    );
}
