//! PGN group: full replay of a generated corpus, every move parsed and played with its
//! legality checked.
//!
//! Two corpora (written to the temporary directory once, with fixed seeds) of random legal games
//! of realistic length: `mixed` (20 MB) has tags, lichess-style clock comments in some games,
//! comments, NAGs and variations in others, a few games from a FEN, and results; `lichess`
//! (21 MB) is what lichess's database exports hold, a `[%clk]` on every move and, in most
//! games, an `[%eval]` too. Engines:
//! * `chesscore`: a [`Visitor`](chesscore_core::pgn::Visitor) that counts the main-line moves the
//!   reader replays (variations skipped, as pgn-reader's default does) and parses the commands
//!   of every comment it is given ([`Annotations`](chesscore_core::pgn::Annotations));
//! * `chesscore-records`: `PgnReader::next_game`, a whole `Game` per game (tags, game,
//!   variations, comments): informative;
//! * `pgn-reader`: pgn-reader's tokenizer with each SAN parsed and played on a shakmaty `Chess`;
//! * `pgn-reader, comments`: the same, its visitor also reading each comment's commands with
//!   chesscore's `Annotations::parse` (text checked as UTF-8 and trimmed first, as chesscore's
//!   reader hands it over): the same work on both sides, informative;
//! * `chesscore 2 threads`: `ParallelReader::visiting` with two threads (each reading a batch of
//!   games from where a line of the input looks like a game's first tag), the same visitor per
//!   thread;
//! * `chesscore .zst`, `chesscore .gz`: `chesscore` on the corpus compressed with zstd (level 3)
//!   and gzip (level 6), written beside it once; the cost of decompressing as the reader reads;
//! * `chesscore CLI`: `chesscore pgn --threads 1 FILE` run as a new user runs it, a process of its
//!   own (its start and its summary included), timed from outside; the command line is
//!   `target/release/chesscore` of the workspace (`cargo build --release`), or `CHESSCORE_CLI`,
//!   and the row is left out when it is not built.
//!
//! `--only rss` instead reads a 20 MB and a 200 MB corpus with chesscore in child processes
//! and reports their peak resident memory (VmHWM). `CHESSCORE_BENCH_PGN=FILE` replays that file
//! instead of the generated corpora.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::harness::{abort, time, Config, CHESSCORE};

/// Bumped whenever the generator changes, so that a stale corpus is not reused.
const CORPUS_VERSION: u32 = 1;
const SEED: u64 = 0x05ee_d0f9_a3e5;

/// What the games of a generated corpus carry besides their moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Clock comments in some games, comments, NAGs and variations in others.
    Mixed,
    /// A clock on every move, and an evaluation too in most games, as lichess exports them.
    Lichess,
}

impl Style {
    fn name(self) -> &'static str {
        match self {
            Style::Mixed => "mixed",
            Style::Lichess => "lichess",
        }
    }
}

pub fn run(cfg: &Config) {
    match cfg.only.as_deref() {
        None | Some("replay") => replay(cfg),
        Some("rss") => rss(),
        Some(other) => abort(&format!("pgn: --only expects `replay` or `rss`, got `{other}`")),
    }
}

/// Games, main-line plies and broken games an engine found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    pub games: u64,
    pub plies: u64,
    pub errors: u64,
}

struct Engine {
    name: &'static str,
    run: fn(&Path) -> Counts,
}

const ENGINES: &[Engine] = &[
    Engine { name: CHESSCORE, run: chesscore_impl::replay },
    Engine { name: "chesscore-records", run: chesscore_impl::records },
    Engine { name: "pgn-reader+shakmaty", run: pgn_reader_impl::replay::<false> },
    Engine { name: "pgn-reader, comments", run: pgn_reader_impl::replay::<true> },
    Engine { name: "chesscore 2 threads", run: |path| chesscore_impl::parallel(path, 2) },
    Engine { name: "chesscore .zst", run: |path| chesscore_impl::replay(&compressed(path, "zst")) },
    Engine { name: "chesscore .gz", run: |path| chesscore_impl::replay(&compressed(path, "gz")) },
    Engine { name: CLI, run: cli_replay },
];

/// The row of the command line.
const CLI: &str = "chesscore CLI";

/// The command line of the workspace, if it is built.
fn cli_path() -> Option<PathBuf> {
    let path = std::env::var_os("CHESSCORE_CLI")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/chesscore"));
    path.is_file().then_some(path)
}

/// `chesscore pgn --threads 1 FILE` in a process of its own; the counts are read off its summary
/// (`FILE: N games, B broken, P plies; ...`).
fn cli_replay(path: &Path) -> Counts {
    let cli = cli_path().unwrap_or_else(|| abort("pgn: the command line is not built"));
    let out = std::process::Command::new(&cli)
        .args(["pgn", "--threads", "1"])
        .arg(path)
        .output()
        .unwrap_or_else(|e| abort(&format!("pgn: cannot run {}: {e}", cli.display())));
    let summary = String::from_utf8_lossy(&out.stdout);
    let number = |label: &str| -> u64 {
        let before = summary.split(label).next().unwrap_or_default();
        before.rsplit(' ').find(|word| !word.is_empty()).and_then(|n| n.parse().ok()).unwrap_or_else(|| {
            abort(&format!("pgn: no {label} in the summary {summary:?} ({})", String::from_utf8_lossy(&out.stderr)))
        })
    };
    Counts { games: number(" games,"), plies: number(" plies;"), errors: number(" broken,") }
}

/// The compressed copy of `path` beside it (`FILE.zst` or `FILE.gz`).
fn compressed(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{suffix}"));
    PathBuf::from(name)
}

/// Writes the compressed copies of `path` that are missing or older than it.
fn compress_beside(path: &Path) {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    for suffix in ["zst", "gz"] {
        let target = compressed(path, suffix);
        if modified(&target) >= modified(path) {
            continue;
        }
        let text = std::fs::read(path).unwrap_or_else(|e| abort(&format!("{}: {e}", path.display())));
        let packed = match suffix {
            "zst" => zstd::encode_all(text.as_slice(), 3),
            _ => {
                let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                gz.write_all(&text).and_then(|()| gz.finish())
            }
        };
        packed
            .and_then(|bytes| std::fs::write(&target, bytes))
            .unwrap_or_else(|e| abort(&format!("{}: {e}", target.display())));
    }
}

fn replay(cfg: &Config) {
    let paths = match std::env::var_os("CHESSCORE_BENCH_PGN") {
        Some(path) => vec![PathBuf::from(path)],
        None if cfg.quick => vec![corpus(Style::Mixed, 4), corpus(Style::Lichess, 4)],
        None => vec![corpus(Style::Mixed, 20), corpus(Style::Lichess, 21)],
    };
    for path in paths {
        replay_file(cfg, &path);
    }
}

fn replay_file(cfg: &Config, path: &Path) {
    let path = path.to_path_buf();
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let engines: Vec<&Engine> =
        ENGINES.iter().filter(|e| cfg.wants(e.name) && (e.name != CLI || cli_path().is_some())).collect();
    if cfg.wants(CLI) && cli_path().is_none() {
        eprintln!("pgn: no `{CLI}` row: build the command line first (cargo build --release at the root)");
    }
    compress_beside(&path);
    eprintln!("pgn: replaying {} ({:.1} MB), {} reps", path.display(), bytes as f64 / 1e6, cfg.reps);
    let mut best = vec![Duration::MAX; engines.len()];
    let mut counts = vec![Counts::default(); engines.len()];
    // Engines take turns in each repetition, so that a noisy machine hurts them alike.
    for _ in 0..cfg.reps {
        for (i, engine) in engines.iter().enumerate() {
            let (c, t) = time(|| (engine.run)(&path));
            counts[i] = c;
            best[i] = best[i].min(t);
        }
    }
    for (engine, c) in engines.iter().zip(&counts) {
        if *c != counts[0] {
            abort(&format!("pgn: {} counted {c:?}, {} counted {:?}", engine.name, engines[0].name, counts[0]));
        }
        if c.errors > 0 {
            abort(&format!("pgn: {} found {} broken games in the generated corpus", engine.name, c.errors));
        }
    }
    let c = counts[0];
    println!();
    println!(
        "== pgn (full replay with legality checks: {}, {} games, {} plies, {:.1} MB) ==",
        path.file_name().unwrap_or_default().to_string_lossy(),
        c.games,
        c.plies,
        bytes as f64 / 1e6
    );
    println!(
        "{:<20}  {:>8}  {:>8}  {:>10}  {:>10}  {:>15}",
        "engine", "best s", "MB/s", "games/s", "Mplies/s", "chesscore/peer"
    );
    println!("{}", "-".repeat(80));
    let core = engines.iter().position(|e| e.name == CHESSCORE).map(|i| best[i]);
    for (engine, t) in engines.iter().zip(&best) {
        let s = t.as_secs_f64();
        let ratio = core.map_or("n/a".to_string(), |core| format!("{:.2}", s / core.as_secs_f64()));
        println!(
            "{:<20}  {:>8.3}  {:>8.1}  {:>10.0}  {:>10.2}  {:>15}",
            engine.name,
            s,
            bytes as f64 / 1e6 / s,
            c.games as f64 / s,
            c.plies as f64 / 1e6 / s,
            ratio
        );
    }
}

/// Peak memory of chesscore reading a 20 MB and a 200 MB corpus, each in a fresh process.
fn rss() {
    let small = corpus(Style::Mixed, 20);
    let large = corpus_repeated(&small, 10);
    println!();
    println!("== pgn peak resident memory (VmHWM of a child process reading the file) ==");
    println!("{:<12}  {:<10}  {:>10}  {:>12}  {:>12}", "file", "API", "games", "plies", "peak RSS");
    println!("{}", "-".repeat(64));
    let exe = std::env::current_exe().unwrap_or_else(|e| abort(&format!("pgn: no executable path: {e}")));
    for path in [&small, &large] {
        let megabytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
        for mode in ["visitor", "records"] {
            let out = std::process::Command::new(&exe)
                .args([RSS_CHILD_FLAG, mode])
                .arg(path)
                .output()
                .unwrap_or_else(|e| abort(&format!("pgn: cannot run {}: {e}", exe.display())));
            let text = String::from_utf8_lossy(&out.stdout);
            let fields: Vec<&str> = text.split_whitespace().collect();
            if !out.status.success() || fields.len() != 3 {
                abort(&format!("pgn: child failed: {text} {}", String::from_utf8_lossy(&out.stderr)));
            }
            println!(
                "{:<12}  {:<10}  {:>10}  {:>12}  {:>9} kB",
                format!("{megabytes:.0} MB"),
                mode,
                fields[0],
                fields[1],
                fields[2]
            );
        }
    }
}

/// The hidden command-line flag of the child process [`rss`] starts.
pub const RSS_CHILD_FLAG: &str = "--pgn-rss-child";

/// In the child: reads `path` with chesscore (`mode` is `visitor` or `records`) and prints the
/// games, plies and VmHWM in kB.
pub fn rss_child(mode: &str, path: &Path) {
    let counts = match mode {
        "visitor" => chesscore_impl::replay(path),
        "records" => chesscore_impl::records(path),
        other => abort(&format!("pgn: unknown mode {other}")),
    };
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .unwrap_or_else(|| abort("pgn: no VmHWM in /proc/self/status"));
    println!("{} {} {peak}", counts.games, counts.plies);
}

/// The corpus of `style` of at least `megabytes` MB, generated on first use.
pub fn corpus(style: Style, megabytes: u64) -> PathBuf {
    let name = match style {
        Style::Mixed => format!("chesscore-bench-v{CORPUS_VERSION}-{megabytes}mb.pgn"),
        style => format!("chesscore-bench-{}-v{CORPUS_VERSION}-{megabytes}mb.pgn", style.name()),
    };
    let path = std::env::temp_dir().join(name);
    if !path.exists() {
        eprintln!("pgn: generating {} ...", path.display());
        let partial = path.with_extension("partial");
        let written = generator::write_corpus(&partial, style, megabytes * 1_000_000, SEED)
            .unwrap_or_else(|e| abort(&format!("pgn: cannot write {}: {e}", partial.display())));
        std::fs::rename(&partial, &path).unwrap_or_else(|e| abort(&format!("pgn: {e}")));
        eprintln!("pgn: {written} games");
    }
    path
}

/// `times` copies of `source` in one file.
pub fn corpus_repeated(source: &Path, times: u32) -> PathBuf {
    let name = format!("{}-x{times}.pgn", source.file_stem().unwrap_or_default().to_string_lossy());
    let path = source.with_file_name(name);
    if !path.exists() {
        let partial = path.with_extension("partial");
        let copy = || -> std::io::Result<()> {
            let mut out = BufWriter::new(File::create(&partial)?);
            for _ in 0..times {
                std::io::copy(&mut File::open(source)?, &mut out)?;
            }
            out.flush()
        };
        copy().unwrap_or_else(|e| abort(&format!("pgn: cannot write {}: {e}", partial.display())));
        std::fs::rename(&partial, &path).unwrap_or_else(|e| abort(&format!("pgn: {e}")));
    }
    path
}

mod generator {
    //! Random legal games written as PGN with chesscore's own writer.

    use std::fs::File;
    use std::io::{self, BufWriter, Write};
    use std::path::Path;

    use chesscore_core::pgn::WriteOptions;
    use chesscore_core::{Color, Game, Move, Outcome, Position};

    use super::Style;

    /// xorshift64*: the same games on every machine.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        fn chance(&mut self, percent: u64) -> bool {
            self.below(100) < percent
        }

        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.below(items.len() as u64) as usize]
        }
    }

    const NAMES: &[&str] = &[
        "Carlsen, Magnus",
        "Nakamura, Hikaru",
        "Caruana, Fabiano",
        "Nepomniachtchi, Ian",
        "Firouzja, Alireza",
        "Gukesh D",
        "Praggnanandhaa R",
        "Ding, Liren",
        "So, Wesley",
        "Giri, Anish",
        "Müller, Jürgen",
        "alanbrito4",
        "Meridyan",
        "chessfan_1987",
    ];
    const COMMENTS: &[&str] = &[
        "The main line.",
        "A novelty.",
        "Better was the quiet developing move.",
        "White has a clear advantage.",
        "Black is fine after this.",
        "Time trouble.",
        "[%eval 0.34]",
        "[%eval -1.2] [%clk 0:00:41]",
    ];

    /// A random move: captures are preferred a third of the time, as material comes off in
    /// real games.
    fn random_move(rng: &mut Rng, pos: &Position) -> Option<Move> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        if rng.chance(33) {
            let captures: Vec<Move> = moves.iter().copied().filter(|m| pos.kind_at(m.to()).is_some()).collect();
            if !captures.is_empty() {
                return Some(captures[rng.below(captures.len() as u64) as usize]);
            }
        }
        Some(moves[rng.below(moves.len() as u64) as usize])
    }

    fn clock(rng: &mut Rng) -> String {
        format!("[%clk 0:{:02}:{:02}]", rng.below(10), rng.below(60))
    }

    /// An engine evaluation as lichess writes it: pawns with two decimals, or a mate distance.
    fn eval(rng: &mut Rng) -> String {
        if rng.chance(4) {
            let moves = 1 + rng.below(12) as i64;
            format!("[%eval #{}]", if rng.chance(50) { moves } else { -moves })
        } else {
            let centipawns = rng.below(601) as i64 - 300;
            let sign = if centipawns < 0 { "-" } else { "" };
            format!("[%eval {sign}{}.{:02}]", centipawns.abs() / 100, centipawns.abs() % 100)
        }
    }

    fn game(rng: &mut Rng, style: Style, index: u64) -> Game {
        let mut start = Position::startpos();
        let from_fen = rng.chance(2);
        if from_fen {
            for _ in 0..10 + rng.below(20) {
                match random_move(rng, &start) {
                    Some(mv) => start.play_unchecked(mv),
                    None => break,
                }
            }
        }
        let mut game = Game::new(start);
        // Lengths spread like real games: from a handful of plies to about 160, mostly 60-100.
        let plies = 8 + rng.below(51) + rng.below(51) + rng.below(51);
        for _ in 0..plies {
            let Some(mv) = random_move(rng, game.position()) else { break };
            game.push(mv).expect("legal move");
        }
        let mated = game.position().is_checkmate();
        let loser = game.position().turn();
        let mut record = game;

        let lichess = style == Style::Lichess || rng.chance(30);
        let evaluated = style == Style::Lichess && rng.chance(70);
        let annotated = !lichess && rng.chance(15);
        let nodes: Vec<_> = record.tree().mainline().collect();
        for (i, &node) in nodes.iter().enumerate() {
            if lichess {
                let text = if evaluated { format!("{} {}", eval(rng), clock(rng)) } else { clock(rng) };
                record.tree_mut().add_comment(node, &text);
            } else if annotated && rng.chance(8) {
                let text = rng.pick(COMMENTS);
                record.tree_mut().add_comment(node, text);
            }
            if rng.chance(if annotated { 6 } else { 1 }) {
                let nag = [1, 2, 3, 4, 5, 6, 10, 14, 16, 18][rng.below(10) as usize];
                record.tree_mut().add_nag(node, nag);
            }
            if annotated && rng.chance(4) {
                let parent = if i == 0 { record.tree().root() } else { nodes[i - 1] };
                let mut pos = record.node_position(parent);
                let mut line = Vec::new();
                for _ in 0..2 + rng.below(7) {
                    let Some(mv) = random_move(rng, &pos) else { break };
                    if line.is_empty() && Some(mv) == record.tree().mv(node) {
                        break;
                    }
                    line.push(mv);
                    pos.play_unchecked(mv);
                }
                if !line.is_empty() {
                    let first = record.add_variation(node, &line).expect("legal variation");
                    if rng.chance(30) {
                        let text = rng.pick(COMMENTS);
                        record.tree_mut().add_comment(first, text);
                    }
                }
            }
        }

        let result = if mated {
            if loser == Color::White {
                Outcome::BlackWins
            } else {
                Outcome::WhiteWins
            }
        } else {
            [Outcome::WhiteWins, Outcome::WhiteWins, Outcome::BlackWins, Outcome::BlackWins, Outcome::Draw]
                [rng.below(5) as usize]
        };
        let result = if rng.chance(3) { Outcome::Ongoing } else { result };
        record.set_result(Some(result));
        let tags = record.tags_mut();
        if lichess {
            tags.insert("Event", "Rated Blitz game");
            tags.insert("Site", &format!("https://lichess.org/{:08x}", rng.next() as u32));
        } else {
            tags.insert("Event", &format!("Generated Open {}", 2000 + index % 25));
            tags.insert("Site", "Somewhere");
        }
        tags.insert("Date", &format!("{}.{:02}.{:02}", 2000 + rng.below(25), 1 + rng.below(12), 1 + rng.below(28)));
        tags.insert("Round", &format!("{}", 1 + rng.below(11)));
        let (white, black) = (rng.pick(NAMES), rng.pick(NAMES));
        tags.insert("White", white);
        tags.insert("Black", black);
        tags.insert("Result", result.as_pgn());
        tags.insert("WhiteElo", &format!("{}", 1200 + rng.below(1600)));
        tags.insert("BlackElo", &format!("{}", 1200 + rng.below(1600)));
        tags.insert("ECO", &format!("{}{:02}", ["A", "B", "C", "D", "E"][rng.below(5) as usize], rng.below(100)));
        if lichess {
            tags.insert("TimeControl", "300+3");
            tags.insert("Termination", "Normal");
        }
        if from_fen {
            tags.insert("SetUp", "1");
            let fen = record.start().to_fen();
            record.tags_mut().insert("FEN", &fen);
        }
        record
    }

    /// Writes games of `style` to `path` until it holds `bytes` bytes; returns how many.
    pub fn write_corpus(path: &Path, style: Style, bytes: u64, seed: u64) -> io::Result<u64> {
        let mut rng = Rng(seed);
        let mut out = BufWriter::new(File::create(path)?);
        let (mut written, mut games) = (0, 0);
        let mut text = String::new();
        while written < bytes {
            text.clear();
            game(&mut rng, style, games).write_pgn(&mut text, &WriteOptions::default()).map_err(io::Error::other)?;
            text.push('\n');
            out.write_all(text.as_bytes())?;
            written += text.len() as u64;
            games += 1;
        }
        out.flush()?;
        Ok(games)
    }
}

pub mod chesscore_impl {
    use std::path::Path;

    use chesscore_core::pgn::{
        Annotations, Decompressed, Flow, IoSource, ParallelReader, PgnReader, ReaderOptions, Score, Visitor,
    };
    use chesscore_core::{Move, Outcome, Position};

    use super::Counts;

    /// Counts the main-line moves the reader replays, and parses the commands of each comment.
    struct Replay {
        plies: u64,
        /// What the comments' commands say, added up: each value is used, as a program reading
        /// them uses them (unused, the compiler would leave their arithmetic out).
        annotations: f64,
    }

    /// The values of `text`'s commands, added up.
    pub fn annotation_sum(text: &str) -> f64 {
        let annotations = Annotations::parse(text);
        let eval = annotations.eval.map_or(0, |eval| match eval.score {
            Score::Centipawns(cp) => cp,
            Score::Mate(moves) => 100_000 * moves,
        });
        annotations.clock.unwrap_or(0.0)
            + annotations.elapsed.unwrap_or(0.0)
            + f64::from(eval)
            + (annotations.highlights.len() + annotations.arrows.len()) as f64
    }

    impl Visitor for Replay {
        type Output = ();

        fn san(&mut self, _: &str, _: Move, _: &Position, _: &Position) -> Flow {
            self.plies += 1;
            Flow::Continue
        }

        fn comment(&mut self, text: &str) {
            self.annotations += annotation_sum(text);
        }

        fn end_game(&mut self, _: Option<Outcome>) {}
    }

    fn open(path: &Path) -> PgnReader<IoSource<Decompressed<std::fs::File>>> {
        PgnReader::open(path).unwrap_or_else(|e| crate::harness::abort(&format!("{}: {e}", path.display())))
    }

    pub fn replay(path: &Path) -> Counts {
        let mut reader = open(path);
        let mut visitor = Replay { plies: 0, annotations: 0.0 };
        let mut counts = Counts::default();
        loop {
            match reader.read_game(&mut visitor) {
                Ok(Some(())) => counts.games += 1,
                Ok(None) => break,
                Err(_) => counts.errors += 1,
            }
        }
        counts.plies = visitor.plies;
        std::hint::black_box(visitor.annotations);
        counts
    }

    /// Counts each game's main-line moves, and parses the commands of each comment.
    struct GamePlies(u64);

    impl Visitor for GamePlies {
        type Output = u64;

        fn begin_game(&mut self) {
            self.0 = 0;
        }

        fn san(&mut self, _: &str, _: Move, _: &Position, _: &Position) -> Flow {
            self.0 += 1;
            Flow::Continue
        }

        fn comment(&mut self, text: &str) {
            std::hint::black_box(annotation_sum(text));
        }

        fn end_game(&mut self, _: Option<Outcome>) -> u64 {
            self.0
        }
    }

    pub fn parallel(path: &Path, threads: usize) -> Counts {
        let file =
            std::fs::File::open(path).unwrap_or_else(|e| crate::harness::abort(&format!("{}: {e}", path.display())));
        let reader =
            ParallelReader::visiting(Decompressed::new(file), threads, ReaderOptions::default(), || GamePlies(0));
        let mut counts = Counts::default();
        for game in reader {
            match game {
                Ok(plies) => {
                    counts.games += 1;
                    counts.plies += plies;
                }
                Err(_) => counts.errors += 1,
            }
        }
        counts
    }

    pub fn records(path: &Path) -> Counts {
        let mut counts = Counts::default();
        for game in open(path) {
            match game {
                Ok(record) => {
                    counts.games += 1;
                    counts.plies += record.moves().len() as u64;
                }
                Err(_) => counts.errors += 1,
            }
        }
        counts
    }
}

mod pgn_reader_impl {
    use std::ops::ControlFlow;
    use std::path::Path;

    use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    use super::chesscore_impl::annotation_sum;
    use super::Counts;

    /// Plays every main-line SAN on a shakmaty position, as the chesscore visitor's reader
    /// does; a bad FEN or move makes the game count as broken. With `COMMENTS`, reads each
    /// comment's commands as the chesscore visitor does.
    struct Replay<const COMMENTS: bool> {
        plies: u64,
        annotations: f64,
    }

    impl<const COMMENTS: bool> Visitor for Replay<COMMENTS> {
        type Tags = Option<Chess>;
        type Movetext = Chess;
        type Output = bool;

        fn begin_tags(&mut self) -> ControlFlow<bool, Option<Chess>> {
            ControlFlow::Continue(None)
        }

        fn tag(&mut self, tags: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<bool> {
            if name == b"FEN" {
                let pos =
                    Fen::from_ascii(value.as_bytes()).ok().and_then(|f| f.into_position(CastlingMode::Standard).ok());
                match pos {
                    Some(pos) => *tags = Some(pos),
                    None => return ControlFlow::Break(false),
                }
            }
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<bool, Chess> {
            ControlFlow::Continue(tags.unwrap_or_default())
        }

        fn san(&mut self, pos: &mut Chess, san_plus: SanPlus) -> ControlFlow<bool> {
            match san_plus.san.to_move(pos) {
                Ok(m) => {
                    pos.play_unchecked(m);
                    self.plies += 1;
                    ControlFlow::Continue(())
                }
                Err(_) => ControlFlow::Break(false),
            }
        }

        fn comment(&mut self, _: &mut Chess, comment: RawComment<'_>) -> ControlFlow<bool> {
            if COMMENTS {
                if let Ok(text) = std::str::from_utf8(comment.as_bytes()) {
                    self.annotations += annotation_sum(text.trim());
                }
            }
            ControlFlow::Continue(())
        }

        fn end_game(&mut self, _: Chess) -> bool {
            true
        }
    }

    pub fn replay<const COMMENTS: bool>(path: &Path) -> Counts {
        let file =
            std::fs::File::open(path).unwrap_or_else(|e| crate::harness::abort(&format!("{}: {e}", path.display())));
        let mut reader = Reader::new(file);
        let mut visitor = Replay::<COMMENTS> { plies: 0, annotations: 0.0 };
        let mut counts = Counts::default();
        while let Some(ok) =
            reader.read_game(&mut visitor).unwrap_or_else(|e| crate::harness::abort(&format!("pgn-reader: {e}")))
        {
            if ok {
                counts.games += 1;
            } else {
                counts.errors += 1;
            }
        }
        counts.plies = visitor.plies;
        std::hint::black_box(visitor.annotations);
        counts
    }
}
