//! Helpers shared by the integration tests of every crate of the workspace (a dev-dependency,
//! used as `common`): the project's test data (`tests/data`), the third-party files that stay
//! outside the repository, the policy for optional tools, and reading test data files. It uses
//! the standard library alone, so it brings nothing into the tests of the pure-Rust core.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The repository's top folder (the first folder up from this crate's that holds `tests/data`).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("tests/data").is_dir())
        .expect("the repository's tests/data")
}

/// The project's own test data: `tests/data` (always present).
pub fn data_dir() -> PathBuf {
    root().join("tests/data")
}

/// A file or directory under `tests/data`.
pub fn data(relative: &str) -> PathBuf {
    data_dir().join(relative)
}

/// The folder cargo gives integration tests for their files (`CARGO_TARGET_TMPDIR`, which is
/// set when a test is compiled, not when this library is): `tmp` in the target directory, three
/// levels up from the running test binary (`<target>/<profile>/deps/<test>`).
pub fn target_tmpdir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let target = exe.ancestors().nth(3).unwrap_or_else(|| panic!("no target directory above {}", exe.display()));
    target.join("tmp")
}

/// Whether an optional tool is required: `CHESSCORE_REQUIRE` lists tools by name, separated
/// by commas, or says `all`.
pub fn required(tool: &str) -> bool {
    std::env::var("CHESSCORE_REQUIRE")
        .is_ok_and(|list| list.split(',').map(str::trim).any(|name| name == "all" || name == tool))
}

/// The one policy for every optional tool: when `tool` is missing, a required tool fails the
/// test; otherwise the suite is recorded as not run (with why) for the end-of-run summary of
/// `scripts/test.sh`, and the caller returns without checking anything.
pub fn not_run(tool: &str, suite: &str, why: &str) {
    assert!(!required(tool), "{suite}: {why} (CHESSCORE_REQUIRE makes `{tool}` required)");
    let dir = target_tmpdir().join("not-run");
    std::fs::create_dir_all(&dir).expect("create target/tmp/not-run");
    let file_name: String = suite.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let mut file = std::fs::File::create(dir.join(file_name)).expect("record a suite that did not run");
    writeln!(file, "{suite}: not run ({tool}): {why}").expect("write the record");
    eprintln!("NOT RUN {suite}: {why}");
}

/// The third-party test files (`../shared/testdata/SOURCES.md`: the classic perft suite, the
/// published EPD suites, the lichess and TWIC excerpts, the Polyglot books), which never go into
/// the repository: `$CHESSCORE_TESTDATA`, or `../shared/testdata` beside the checkout. `None`
/// (the suite recorded as not run) when absent, unless `testdata` is required.
pub fn shared_testdata(suite: &str) -> Option<PathBuf> {
    let dir =
        std::env::var_os("CHESSCORE_TESTDATA").map(PathBuf::from).unwrap_or_else(|| root().join("../shared/testdata"));
    if dir.is_dir() {
        return Some(dir);
    }
    not_run("testdata", suite, &format!("the third-party test files are not at {}", dir.display()));
    None
}

/// The Python interpreter that has pytest and python-chess 1.11.2 (the oracle):
/// `$CHESSCORE_PYTHON`, else the project's `target/venv` (made by `scripts/test.sh`), else
/// `python3`. `None` (the suite recorded as not run) when none has them, unless `python` is
/// required.
pub fn python(suite: &str) -> Option<PathBuf> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let found = FOUND.get_or_init(|| {
        let venv = root().join("target/venv/bin/python3");
        let interpreter = std::env::var_os("CHESSCORE_PYTHON").map(PathBuf::from).unwrap_or_else(|| {
            if venv.is_file() {
                venv
            } else {
                PathBuf::from("python3")
            }
        });
        let probe = "import pytest, chess; assert chess.__version__ == '1.11.2', chess.__version__";
        match Command::new(&interpreter).args(["-c", probe]).output() {
            Ok(out) if out.status.success() => Ok(interpreter),
            Ok(out) => Err(format!(
                "{} lacks pytest or python-chess 1.11.2 (scripts/test.sh installs them into target/venv): {}",
                interpreter.display(),
                String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
            )),
            Err(e) => Err(format!("cannot run {}: {e}", interpreter.display())),
        }
    });
    match found {
        Ok(interpreter) => Some(interpreter.clone()),
        Err(why) => {
            not_run("python", suite, why);
            None
        }
    }
}

/// Whether `program --version` (or the given probe arguments) runs; records `suite` as not run
/// when it does not.
pub fn tool(program: &str, probe: &[&str], suite: &str, install_hint: &str) -> bool {
    let works = Command::new(program).args(probe).output().is_ok_and(|o| o.status.success());
    if !works {
        not_run(program, suite, &format!("{program} is not installed ({install_hint})"));
    }
    works
}

/// Stockfish, for the suites that drive a real UCI engine: `stockfish` on PATH, else Debian's
/// `/usr/games/stockfish`. `None` (the suite recorded as not run) when absent, unless
/// `stockfish` is required.
pub fn stockfish(suite: &str) -> Option<PathBuf> {
    let runs = |program: &Path| {
        Command::new(program)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .and_then(|mut child| {
                drop(child.stdin.take());
                child.wait()
            })
            .is_ok()
    };
    let found = [Path::new("stockfish"), Path::new("/usr/games/stockfish")].into_iter().find(|p| runs(p));
    if found.is_none() {
        not_run("stockfish", suite, "stockfish is not installed (apt-get install stockfish)");
    }
    found.map(Path::to_path_buf)
}

/// The fake UCI engine of the engine tests (`c_tests/fake_engine.c`, see its modes there),
/// compiled once per test binary with `$CC` (default `cc`).
pub fn fake_engine() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = target_tmpdir().join("fake_engines");
        std::fs::create_dir_all(&dir).expect("create the fake engine's directory");
        // One file per test binary: binaries run at once must not write each other's.
        let exe = dir.join(std::env::current_exe().unwrap().file_name().unwrap());
        let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
        let status = Command::new(&compiler)
            .args(["-std=c99", "-O1"])
            .arg(root().join("c_tests/fake_engine.c"))
            .arg("-o")
            .arg(&exe)
            .status()
            .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
        assert!(status.success(), "cannot build the fake engine");
        exe
    })
}

/// The lines of a file under `tests/data`, empty lines and `#` comments skipped.
pub fn lines(relative: &str) -> Vec<String> {
    lines_of(&data(relative))
}

/// The lines of a file, empty lines and `#` comments skipped.
pub fn lines_of(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(str::to_string).collect()
}

/// One perft suite line: the FEN and its (depth, nodes) pairs.
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// A perft suite under `tests/data`.
pub fn perft_suite(relative: &str) -> Vec<PerftCase> {
    perft_suite_at(&data(relative))
}

pub fn perft_suite_at(path: &Path) -> Vec<PerftCase> {
    lines_of(path)
        .iter()
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut words = p.split_whitespace();
                    let depth = words.next().unwrap().trim_start_matches('D').parse().unwrap();
                    let nodes = words.next().unwrap().parse().unwrap();
                    (depth, nodes)
                })
                .collect();
            PerftCase { fen, counts }
        })
        .collect()
}

/// A small deterministic generator (xorshift64*), so random tests replay identically.
pub struct Rng(pub u64);

impl Rng {
    #[allow(clippy::should_implement_trait, reason = "endless: the tests want a u64, not an Option")]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The Markdown pages whose snippets the tests run: README.md, ARCHITECTURE.md,
/// CONTRIBUTING.md and every page under `docs/`, in a fixed order.
pub fn doc_pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> =
        ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"].iter().map(|name| root().join(name)).collect();
    let mut dirs = vec![root().join("docs")];
    let mut found = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read docs/") {
            let path = entry.expect("a docs/ entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    pages.extend(found);
    pages
}

/// The page generated from the header (`scripts/c-api-docs.py`): its code blocks are the
/// header's declarations, not programs.
pub const GENERATED_PAGE: &str = "docs/c-api.md";

/// The fenced code blocks in one language (```c, ```cpp, ```python, ```haxe) of every page of
/// `doc_pages` but the generated one, each with the page it is on, so that every snippet the
/// documentation shows is built and run by a test.
pub fn doc_blocks(language: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    for page in doc_pages().into_iter().filter(|page| !page.ends_with(GENERATED_PAGE)) {
        let text = std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("read {}: {e}", page.display()));
        let name = page.strip_prefix(root()).unwrap_or(&page).display().to_string();
        blocks.extend(markdown_blocks(&text, language).into_iter().map(|block| (name.clone(), block)));
    }
    blocks
}

/// The fenced code blocks of a Markdown text in one language.
pub fn markdown_blocks(markdown: &str, language: &str) -> Vec<String> {
    let fence = format!("```{language}");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match current.as_mut() {
            None if line == fence => current = Some(String::new()),
            Some(_) if line == "```" => blocks.push(current.take().unwrap()),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
}
