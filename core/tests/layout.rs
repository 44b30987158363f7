//! The shape of the source tree, read from the sources themselves: no module cycle between the
//! core's top-level modules, and no source file over 800 lines in the core, the C layer or the
//! command line.
//!
//! The dependency graph has one node per top-level module of `core/src` (the first path segment
//! after `crate::`) and an edge `a -> b` when code in `a` names a path in `b`: a `use` item, an
//! expression or type path starting with `crate::`, or a `super::` chain that climbs out of `a`.
//! Comments (doc links included) and string literals are no dependency and are left out. A path
//! through a root re-export (`crate::Position`) resolves through `lib.rs`'s `pub use` lines to
//! the module that defines the item, so the short form hides no edge (internal code may use
//! either form); a root name the check cannot resolve fails the test, so a new kind of root item
//! has to be taught here first. Test modules count: a test that reaches up a layer is a cycle
//! too. `cargo test -p chesscore-core --test layout -- --nocapture` prints the layers.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The longest a source file may grow before it is split by concern.
const MAX_LINES: usize = 800;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("core/ has a parent").to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> =
        fs::read_dir(dir).expect("read source dir").map(|e| e.expect("dir entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source with comments and string and character literals blanked out (newlines kept, so
/// byte offsets still give line numbers).
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let blank = |out: &mut Vec<u8>, s: &[u8]| out.extend(s.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }));
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (0, 0);
            while j < rest.len() {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &rest[..j]);
            i += j;
        } else if let Some(len) = raw_string_len(b, i) {
            blank(&mut out, &rest[..len]);
            i += len;
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), or else a lifetime, which stays.
            let end = if rest.get(1) == Some(&b'\\') {
                rest.iter().skip(2).position(|&c| c == b'\'').map(|p| p + 3)
            } else {
                let n = src[i + 1..].chars().next().map_or(1, |c| 1 + c.len_utf8());
                (rest.get(n) == Some(&b'\'')).then_some(n + 1)
            };
            let end = end.unwrap_or(1);
            if end == 1 {
                out.push(b'\'');
            } else {
                blank(&mut out, &rest[..end]);
            }
            i += end;
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were replaced")
}

/// The length of a raw string literal (`r"…"`, `r#"…"#`, `br"…"`) starting at `i`, if one does.
fn raw_string_len(b: &[u8], i: usize) -> Option<usize> {
    if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
        return None;
    }
    let mut j = i;
    if b.get(j) == Some(&b'b') {
        j += 1;
    }
    if b.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
    j += hashes;
    if b.get(j) != Some(&b'"') {
        return None;
    }
    let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
    let body = j + 1;
    let end = b[body..].windows(close.len()).position(|w| w == close.as_slice())?;
    Some(body + end + close.len() - i)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Punct(&'static str),
}

/// Identifiers (with `$crate` as `crate`) and the punctuation the paths need, with the byte
/// offset of each.
fn tokens(src: &str) -> Vec<(Tok, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' || (c == b'$' && b.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic()))
        {
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = src[start..i].trim_start_matches('$');
            out.push((Tok::Ident(word.to_string()), start));
        } else if b[i..].starts_with(b"::") {
            out.push((Tok::Punct("::"), i));
            i += 2;
        } else {
            let p = match c {
                b'{' => Some("{"),
                b'}' => Some("}"),
                b',' => Some(","),
                b';' => Some(";"),
                b'*' => Some("*"),
                b'(' => Some("("),
                b')' => Some(")"),
                _ => None,
            };
            if let Some(p) = p {
                out.push((Tok::Punct(p), i));
            } else if c.is_ascii_digit() {
                while i + 1 < b.len() && (b[i + 1].is_ascii_alphanumeric() || b[i + 1] == b'_') {
                    i += 1;
                }
            }
            i += 1;
        }
    }
    out
}

/// A leaf of a use tree: its path and its alias (`as name`), if any.
type Leaf = (Vec<String>, Option<String>);

/// The leaves of the use tree starting at `toks[*i]` (after `use`), each with `prefix` first.
fn use_tree(toks: &[(Tok, usize)], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Leaf>) {
    let mut path = prefix;
    loop {
        match toks.get(*i).map(|t| &t.0) {
            Some(Tok::Ident(word)) => {
                path.push(word.clone());
                *i += 1;
                match toks.get(*i).map(|t| &t.0) {
                    Some(Tok::Punct("::")) => *i += 1,
                    Some(Tok::Ident(kw)) if kw == "as" => {
                        let alias = match toks.get(*i + 1) {
                            Some((Tok::Ident(a), _)) => Some(a.clone()),
                            _ => None,
                        };
                        *i += 2;
                        out.push((path, alias));
                        return;
                    }
                    _ => {
                        out.push((path, None));
                        return;
                    }
                }
            }
            Some(Tok::Punct("*")) => {
                *i += 1;
                out.push((path, None));
                return;
            }
            Some(Tok::Punct("{")) => {
                *i += 1;
                loop {
                    match toks.get(*i).map(|t| &t.0) {
                        Some(Tok::Punct("}")) | None => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Punct(",")) => *i += 1,
                        _ => use_tree(toks, i, path.clone(), out),
                    }
                }
            }
            _ => {
                out.push((path, None));
                return;
            }
        }
    }
}

/// The module path of a file under `core/src` (`board/square.rs` is `["board", "square"]`).
fn module_of(src_dir: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src_dir).expect("file under src");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    if last != "mod.rs" && last != "lib.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// One path named in the sources: where, and its segments as written.
struct Named {
    line: usize,
    /// The module the path is written in (file module plus inline `mod x { … }` blocks).
    scope: Vec<String>,
    path: Vec<String>,
}

/// Every `use` leaf and every `crate::`/`super::`/`self::` path of one file.
fn named_paths(file_module: &[String], src: &str) -> Vec<Named> {
    let text = strip(src);
    let toks = tokens(&text);
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut out = Vec::new();
    // Inline modules: (name, brace depth at which their body opened).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let scope = |inline: &[(String, usize)]| {
        let mut s = file_module.to_vec();
        s.extend(inline.iter().map(|(n, _)| n.clone()));
        s
    };
    let mut i = 0;
    while i < toks.len() {
        let (tok, offset) = &toks[i];
        match tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Punct("{"), _))) = (toks.get(i + 1), toks.get(i + 2)) {
                    inline.push((name.clone(), depth + 1));
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            Tok::Ident(w) if w == "use" => {
                let mut leaves = Vec::new();
                i += 1;
                if toks.get(i).map(|t| &t.0) == Some(&Tok::Punct("::")) {
                    i += 1;
                }
                use_tree(&toks, &mut i, Vec::new(), &mut leaves);
                let s = scope(&inline);
                for (path, _) in leaves {
                    out.push(Named { line: line_of(*offset), scope: s.clone(), path });
                }
                continue;
            }
            Tok::Ident(w) if w == "crate" || w == "super" || w == "self" => {
                let starts_path = i == 0 || toks[i - 1].0 != Tok::Punct("::");
                if starts_path && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Punct("::")) {
                    let mut path = vec![w.clone()];
                    let mut j = i + 1;
                    while toks.get(j).map(|t| &t.0) == Some(&Tok::Punct("::")) {
                        match toks.get(j + 1) {
                            Some((Tok::Ident(seg), _)) => path.push(seg.clone()),
                            _ => break,
                        }
                        j += 2;
                    }
                    out.push(Named { line: line_of(*offset), scope: scope(&inline), path });
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The absolute module path a written path points into (`None`: not into this crate).
fn absolute(scope: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut abs: Vec<String> = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("super") | Some("self") => scope.to_vec(),
        _ => return None,
    };
    let mut rest = if path[0] == "crate" { &path[1..] } else { path };
    while let Some(seg) = rest.first() {
        match seg.as_str() {
            "super" => {
                abs.pop()?;
            }
            "self" => {}
            _ => break,
        }
        rest = &rest[1..];
    }
    abs.extend(rest.iter().cloned());
    Some(abs)
}

/// The root's modules, and each name the root re-exports with the module it comes from.
fn root_names(lib: &str) -> (BTreeSet<String>, BTreeMap<String, String>) {
    let text = strip(lib);
    let toks = tokens(&text);
    let mut modules = BTreeSet::new();
    let mut reexports = BTreeMap::new();
    let mut i = 0;
    let mut depth = 0usize;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => depth = depth.saturating_sub(1),
            Tok::Ident(w) if w == "mod" && depth == 0 => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Punct(";"), _))) = (toks.get(i + 1), toks.get(i + 2)) {
                    modules.insert(name.clone());
                }
            }
            Tok::Ident(w) if w == "use" && depth == 0 => {
                let mut leaves = Vec::new();
                i += 1;
                use_tree(&toks, &mut i, Vec::new(), &mut leaves);
                for (leaf, alias) in leaves {
                    // The module a name comes from: the first segment after `crate::`/`self::`.
                    let from = leaf.iter().find(|s| *s != "crate" && *s != "self").cloned();
                    if let (Some(from), Some(name)) = (from, alias.or_else(|| leaf.last().cloned())) {
                        reexports.insert(name, from);
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    (modules, reexports)
}

struct Graph {
    /// Edge (from, to) with the first place that makes it.
    edges: BTreeMap<(String, String), String>,
    nodes: BTreeSet<String>,
}

fn core_graph() -> Result<Graph, Vec<String>> {
    let src_dir = repo().join("core/src");
    let lib = fs::read_to_string(src_dir.join("lib.rs")).expect("read lib.rs");
    let (modules, reexports) = root_names(&lib);
    let mut files = Vec::new();
    rust_files(&src_dir, &mut files);
    let mut edges = BTreeMap::new();
    let mut unresolved = Vec::new();
    for file in &files {
        let module = module_of(&src_dir, file);
        let Some(from) = module.first().cloned() else { continue };
        let src = fs::read_to_string(file).expect("read source");
        let rel = file.strip_prefix(repo()).unwrap_or(file).display().to_string();
        for named in named_paths(&module, &src) {
            let Some(abs) = absolute(&named.scope, &named.path) else { continue };
            let Some(first) = abs.first() else { continue };
            let to = if modules.contains(first) {
                first.clone()
            } else if let Some(m) = reexports.get(first) {
                m.clone()
            } else {
                unresolved.push(format!(
                    "{rel}:{}: `{}` names no module of the root",
                    named.line,
                    named.path.join("::")
                ));
                continue;
            };
            if to != from {
                edges.entry((from.clone(), to)).or_insert_with(|| format!("{rel}:{}", named.line));
            }
        }
    }
    if unresolved.is_empty() {
        Ok(Graph { edges, nodes: modules })
    } else {
        Err(unresolved)
    }
}

/// A cycle of the graph, if it has one, as the list of its modules.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for (from, to) in graph.edges.keys() {
            if from != node {
                continue;
            }
            match state.get(to).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|n| n == to).expect("on the stack");
                    return Some(stack[at..].to_vec());
                }
                0 => {
                    if let Some(cycle) = visit(to, graph, state, stack) {
                        return Some(cycle);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in &graph.nodes {
        if !state.contains_key(node) {
            if let Some(cycle) = visit(node, graph, &mut state, &mut Vec::new()) {
                return Some(cycle);
            }
        }
    }
    None
}

/// The modules in layers: each layer depends only on the layers before it.
fn layers(graph: &Graph) -> Vec<Vec<String>> {
    let mut placed: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    while placed.len() < graph.nodes.len() {
        let layer: Vec<String> = graph
            .nodes
            .iter()
            .filter(|n| !placed.contains(*n))
            .filter(|n| graph.edges.keys().all(|(from, to)| from != *n || placed.contains(to)))
            .cloned()
            .collect();
        assert!(!layer.is_empty(), "layers of a graph with a cycle");
        placed.extend(layer.iter().cloned());
        out.push(layer);
    }
    out
}

#[test]
fn core_modules_have_no_cycle() {
    let graph =
        core_graph().unwrap_or_else(|unresolved| panic!("paths the check cannot place:\n{}", unresolved.join("\n")));
    if let Some(cycle) = find_cycle(&graph) {
        let mut steps = Vec::new();
        for (k, from) in cycle.iter().enumerate() {
            let to = &cycle[(k + 1) % cycle.len()];
            steps.push(format!("  {from} -> {to} ({})", graph.edges[&(from.clone(), to.clone())]));
        }
        panic!("module cycle {} -> {}:\n{}", cycle.join(" -> "), cycle[0], steps.join("\n"));
    }
    // The order, lowest layer first (`cargo test --test layout -- --nocapture` shows it).
    for (k, layer) in layers(&graph).iter().enumerate() {
        println!("layer {k}: {}", layer.join(", "));
    }
}

#[test]
fn cycle_check_sees_each_kind_of_path() {
    let scope = vec!["board".to_string(), "square".to_string()];
    let src = "use crate::{position::Position, notation::{fen::Fen, San as S}};\n\
               use super::super::draw::svg;\n\
               // crate::engine::Client in a comment is no dependency\n\
               fn f() -> crate::Game { let _ = \"crate::pgn\"; crate::perft::with_popcnt!(x) }\n\
               mod tests { use super::*; use super::super::color::Color; }\n";
    let paths: Vec<(usize, String)> = named_paths(&scope, src)
        .iter()
        .map(|n| (n.line, absolute(&n.scope, &n.path).map(|p| p.join("::")).unwrap_or_default()))
        .collect();
    let want = [
        (1, "position::Position"),
        (1, "notation::fen::Fen"),
        (1, "notation::San"),
        (2, "draw::svg"),
        (4, "Game"),
        (4, "perft::with_popcnt"),
        (5, "board::square"),
        (5, "board::color::Color"),
    ];
    assert_eq!(paths, want.map(|(l, p)| (l, p.to_string())));
    let (modules, reexports) = root_names("mod board;\npub mod engine;\npub use board::attacks;\npub use position::{Position, EnPassantMode as Ep};\npub use notation::fen::Fen as F;\n");
    assert_eq!(modules, ["board", "engine"].map(String::from).into());
    assert_eq!(reexports["attacks"], "board");
    assert_eq!(reexports["Position"], "position");
    assert_eq!(reexports["Ep"], "position");
    assert_eq!(reexports["F"], "notation");
    let graph = Graph {
        edges: [("a", "b"), ("b", "c"), ("c", "a")].map(|(f, t)| ((f.into(), t.into()), String::new())).into(),
        nodes: ["a", "b", "c"].map(String::from).into(),
    };
    assert_eq!(find_cycle(&graph), Some(vec!["a".to_string(), "b".into(), "c".into()]));
}

#[test]
fn no_source_file_is_too_long() {
    let mut long = Vec::new();
    for dir in ["core/src", "src", "cli/src"] {
        let mut files = Vec::new();
        rust_files(&repo().join(dir), &mut files);
        for file in files {
            let lines = fs::read_to_string(&file).expect("read source").lines().count();
            if lines > MAX_LINES {
                long.push(format!("{} ({lines} lines)", file.strip_prefix(repo()).unwrap_or(&file).display()));
            }
        }
    }
    assert!(long.is_empty(), "source files over {MAX_LINES} lines, to split by concern:\n{}", long.join("\n"));
}
