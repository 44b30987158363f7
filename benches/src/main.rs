//! `chesscore-bench`: side-by-side benchmarks of chesscore against peer crates.
//!
//! Every benchmark group lives in its own module and is registered in
//! [`GROUPS`]; `main` only parses the command line and dispatches.
//!
//! Usage: `cargo run --release -- [GROUP...] [--group GROUP] [--reps N]
//!         [--only bulk|leaf] [--engine NAME] [--quick] [--list] [--help]`
//!
//! Without a group every group runs.

mod binfen;
mod binpack;
mod book;
mod cabi;
mod fen;
mod harness;
mod perft;
mod pgn;
mod san;
mod search;
mod syzygy;
mod variant;

use std::process::exit;

use harness::Config;

/// A benchmark group: a name for the command line and its entry point.
pub struct Group {
    pub name: &'static str,
    pub about: &'static str,
    pub run: fn(&Config),
}

/// All groups, in the order they run by default, one module each.
const GROUPS: &[Group] = &[
    Group { name: "perft", about: "perft with bulk counting and with every leaf move made", run: perft::run },
    Group {
        name: "variant",
        about: "perft of the lichess variants, bulk and every leaf, vs shakmaty's variant feature",
        run: variant::run,
    },
    Group { name: "cabi", about: "perft through the C ABI (examples/perft.c, chess_perft) vs Rust", run: cabi::run },
    Group {
        name: "san",
        about: "SAN write (with suffix) + read back, every legal move of the dev vectors",
        run: san::run,
    },
    Group {
        name: "search",
        about: "search-shaped walk: staged moves, SEE order, gives-check, copy-make (dev vectors, depth 3)",
        run: search::run,
    },
    Group { name: "fen", about: "FEN read, syntax only and into a checked position, the dev vectors", run: fen::run },
    Group {
        name: "binfen",
        about: "binary FEN pack from a position and unpack into a checked one, the dev vectors",
        run: binfen::run,
    },
    Group {
        name: "binpack",
        about: "training data read: .binpack vs the .plain text of the same entries",
        run: binpack::run,
    },
    Group { name: "pgn", about: "PGN full replay with legality checks (--only replay|rss)", run: pgn::run },
    Group {
        name: "book",
        about: "Polyglot lookups vs python-chess, book make vs replay (--only lookup|make|rss)",
        run: book::run,
    },
    Group {
        name: "syzygy",
        about: "Syzygy WDL and DTZ probes vs shakmaty-syzygy (pread, mmap) and python-chess",
        run: syzygy::run,
    },
];

fn usage() -> String {
    let mut s = String::from(
        "usage: chesscore-bench [GROUP...] [options]\n\n\
         options:\n  \
           --group GROUP   run only this group (repeatable; same as a bare GROUP)\n  \
           --reps N        repetitions per measurement, best time kept (default 3)\n  \
           --only KIND     run only one kind within a group (perft, cabi: bulk|leaf; variant: bulk|leaf|VARIANT; pgn: replay|rss; book: lookup|make|rss)\n  \
           --engine NAME   run only this engine (repeatable; for profiling)\n  \
           --quick         lower depths / smaller inputs\n  \
           --list          list the groups and exit\n  \
           -h, --help      this message\n\ngroups:\n",
    );
    for g in GROUPS {
        s.push_str(&format!("  {:<14}{}\n", g.name, g.about));
    }
    s
}

fn fail(msg: &str) -> ! {
    eprintln!("chesscore-bench: {msg}\n\n{}", usage());
    exit(2)
}

fn main() {
    let mut cfg = Config::default();
    let mut selected: Vec<&'static Group> = Vec::new();
    let select = |name: &str, selected: &mut Vec<&'static Group>| match GROUPS.iter().find(|g| g.name == name) {
        Some(g) if !selected.iter().any(|s| s.name == g.name) => selected.push(g),
        Some(_) => {}
        None => fail(&format!("unknown group `{name}`")),
    };

    let mut args = std::env::args().skip(1);
    // The pgn group measures peak memory in a child process of its own.
    let all: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, mode, path] = all.as_slice() {
        if flag == pgn::RSS_CHILD_FLAG {
            pgn::rss_child(mode, std::path::Path::new(path));
            return;
        }
    }
    if let [flag, path] = all.as_slice() {
        if flag == book::RSS_CHILD_FLAG {
            book::rss_child(std::path::Path::new(path));
            return;
        }
    }
    while let Some(arg) = args.next() {
        // Accept both `--flag value` and `--flag=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |flag: &str| -> String {
            inline.clone().or_else(|| args.next()).unwrap_or_else(|| fail(&format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "-h" | "--help" => {
                print!("{}", usage());
                return;
            }
            "--list" => {
                for g in GROUPS {
                    println!("{:<14}{}", g.name, g.about);
                }
                return;
            }
            "--reps" => {
                let v = value("--reps");
                cfg.reps = match v.parse::<u32>() {
                    Ok(n) if n >= 1 => n,
                    _ => fail(&format!("--reps expects a positive integer, got `{v}`")),
                };
            }
            "--only" => cfg.only = Some(value("--only")),
            "--engine" => cfg.engines.push(value("--engine")),
            "--quick" => cfg.quick = true,
            "--group" => {
                let v = value("--group");
                select(&v, &mut selected);
            }
            s if s.starts_with('-') => fail(&format!("unknown option `{s}`")),
            name => select(name, &mut selected),
        }
    }

    if selected.is_empty() {
        selected = GROUPS.iter().collect();
    }

    println!("chesscore-bench: reps={} quick={} only={}", cfg.reps, cfg.quick, cfg.only.as_deref().unwrap_or("all"),);
    for g in selected {
        (g.run)(&cfg);
    }
}
