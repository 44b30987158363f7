//! Helpers shared by the integration tests: locating `../shared/testdata` and reading its files.

#![allow(dead_code)]

use std::path::PathBuf;

/// The shared test data directory: `$CHESSCORE_TESTDATA`, or `../shared/testdata` beside the
/// checkout. A missing directory fails the test run rather than skipping it.
pub fn testdata() -> PathBuf {
    let dir = std::env::var_os("CHESSCORE_TESTDATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata"));
    assert!(dir.is_dir(), "test data not found at {} (set CHESSCORE_TESTDATA)", dir.display());
    dir
}

/// The lines of a test data file, empty lines and `#` comments skipped.
pub fn lines(relative: &str) -> Vec<String> {
    let path = testdata().join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(str::to_string).collect()
}

/// One perft suite line: the FEN and its (depth, nodes) pairs.
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

pub fn perft_suite(relative: &str) -> Vec<PerftCase> {
    lines(relative)
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

/// The fenced code blocks of README.md in one language (```c, ```cpp, ```python, ```haxe), so
/// that every snippet the README shows is built and run by a test.
pub fn readme_blocks(language: &str) -> Vec<String> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("read README.md");
    let fence = format!("```{language}");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
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
