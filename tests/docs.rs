//! The documentation stays true to the code: the C reference (`docs/c-api.md`) is what
//! `scripts/c-api-docs.py` generates from the committed header, every page under `docs/` is
//! reachable from the README, every page's Rust snippets are doctests of the core, and every C
//! name the pages mention is declared in the header. (The snippets themselves run in
//! `tests/c_api.rs`, `tests/haxe.rs`, the Python suite's `test_docs.py` and the core's doctests.)

use chesscore_test_support as common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn relative(path: &Path) -> String {
    path.strip_prefix(common::root()).unwrap_or(path).display().to_string()
}

/// The committed reference is what the script makes of the committed header now;
/// `scripts/update-header.sh` regenerates both.
#[test]
fn c_api_reference_matches_a_fresh_generation() {
    let output = Command::new("python3")
        .arg(common::root().join("scripts/c-api-docs.py"))
        .arg("--stdout")
        .output()
        .expect("run python3 scripts/c-api-docs.py (python3 is needed by the test command)");
    assert!(output.status.success(), "c-api-docs.py failed: {}", String::from_utf8_lossy(&output.stderr));
    let fresh = String::from_utf8(output.stdout).expect("UTF-8 output");
    let committed = read(&common::root().join(common::GENERATED_PAGE));
    assert!(
        fresh == committed,
        "docs/c-api.md differs from a fresh generation from include/chesscore.h: run \
         python3 scripts/c-api-docs.py (or scripts/update-header.sh), review and commit"
    );
}

/// A newcomer finds every page from the README, which stays short.
#[test]
fn readme_is_short_and_links_every_docs_page() {
    let readme = read(&common::root().join("README.md"));
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines; keep it at 300 or fewer and move detail to docs/");
    let unlinked: Vec<String> = common::doc_pages()
        .iter()
        .map(|page| relative(page))
        .filter(|page| page.starts_with("docs/") && !readme.contains(&format!("]({page})")))
        .collect();
    assert!(unlinked.is_empty(), "pages the README does not link: {unlinked:?}");
}

/// A page's text outside its fenced code blocks.
fn prose(text: &str) -> String {
    let mut in_code = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Every relative link between the pages points at a file that exists.
#[test]
fn relative_links_resolve() {
    let mut broken = Vec::new();
    for page in common::doc_pages() {
        let text = prose(&read(&page));
        for target in text.split("](").skip(1).filter_map(|rest| rest.split(')').next()) {
            let file = target.split('#').next().unwrap_or_default();
            if file.is_empty() || file.contains("://") {
                continue;
            }
            if !page.parent().unwrap().join(file).exists() {
                broken.push(format!("{}: {target}", relative(&page)));
            }
        }
    }
    assert!(broken.is_empty(), "links to missing files: {broken:?}");
}

/// Each page with a Rust snippet is included as a doctest item by `core/src/lib.rs`, and
/// nothing else is.
#[test]
fn every_page_with_rust_snippets_is_a_core_doctest() {
    let lib = read(&common::root().join("core/src/lib.rs"));
    let included: BTreeSet<String> = lib
        .split("include_str!(\"../../")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect();
    let with_rust: BTreeSet<String> = common::doc_pages()
        .iter()
        .filter(|page| read(page).lines().any(|line| line.starts_with("```rust")))
        .map(|page| relative(page))
        .collect();
    assert_eq!(included, with_rust, "core/src/lib.rs's doc_pages must include exactly the pages with Rust snippets");
}

/// The names the header declares: functions, types and constants.
fn header_names() -> BTreeSet<String> {
    let header = read(&common::root().join("include/chesscore.h"));
    let mut names = BTreeSet::new();
    let mut in_comment = false;
    for line in header.lines() {
        let code = line.trim_start();
        if code.starts_with("/*") {
            in_comment = !code.contains("*/");
            continue;
        }
        if in_comment {
            in_comment = !code.contains("*/");
            continue;
        }
        names.extend(identifiers(line).into_iter().filter(|name| is_c_name(name)));
    }
    names
}

fn identifiers(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// A whole C name of the library (`chess_fen_parse`, `CHESS_ERR_IO`); a family prefix ending in
/// `_` (`chess_position_`, `CHESS_ERR_`) is not a name.
fn is_c_name(word: &str) -> bool {
    (word.starts_with("chess_") || word.starts_with("CHESS_")) && !word.ends_with('_')
}

/// Every `chess_...` and `CHESS_...` name the pages mention exists in the header (the C
/// reference is generated, so it is left out), so a renamed or invented function cannot hide
/// in the prose.
#[test]
fn c_names_in_the_pages_exist() {
    let declared = header_names();
    let mut unknown = BTreeSet::new();
    for page in common::doc_pages().iter().filter(|page| !page.ends_with(common::GENERATED_PAGE)) {
        for name in identifiers(&read(page)) {
            if is_c_name(&name) && !declared.contains(&name) {
                unknown.insert(format!("{}: {name}", relative(page)));
            }
        }
    }
    assert!(unknown.is_empty(), "names the header does not declare: {unknown:?}");
}
