//! Syzygy probing against python-chess 1.11.2's values (`../shared/testdata/syzygy`), damaged
//! tables, and probing from several threads.

use chesscore_test_support as common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chesscore_core::syzygy::{SyzygyError, Tablebase, TablebaseOptions};
use chesscore_core::{Game, Outcome, Position, Uci};
use serde_json::Value;

fn tables(suite: &str) -> Option<PathBuf> {
    Some(common::shared_testdata(suite)?.join("syzygy"))
}

fn dev_positions(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("dev_positions.jsonl"))
        .expect("read dev_positions.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn expected(v: &Value) -> Option<i32> {
    v.as_i64().map(|n| n as i32)
}

/// Every dev position and the position after each legal move: WDL and DTZ as python-chess.
fn check_dev_positions(options: TablebaseOptions) {
    let Some(dir) = tables("syzygy: dev positions") else { return };
    let mut tb = Tablebase::with_options(options);
    assert_eq!(tb.add_directory(&dir).unwrap(), 90);
    assert_eq!(tb.max_pieces(), 5);
    let mut compared = 0;
    for record in dev_positions(&dir) {
        let fen = record["fen"].as_str().unwrap();
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(tb.probe_wdl(&pos).ok(), expected(&record["wdl"]), "wdl {fen}");
        assert_eq!(tb.probe_dtz(&pos).ok(), expected(&record["dtz"]), "dtz {fen}");
        let moves = record["moves"].as_array().unwrap();
        assert_eq!(moves.len(), pos.legal_moves().len(), "{fen}");
        for m in moves {
            let mv = m[0].as_str().unwrap().parse::<Uci>().unwrap().to_move(&pos).unwrap();
            let after = pos.make_move(mv);
            assert_eq!(tb.probe_wdl(&after).ok(), expected(&m[1]), "wdl {fen} {}", m[0]);
            assert_eq!(tb.probe_dtz(&after).ok(), expected(&m[2]), "dtz {fen} {}", m[0]);
            compared += 1;
        }
        compared += 1;
    }
    assert!(compared > 20_000, "{compared} positions");
}

#[test]
fn dev_positions_pread() {
    check_dev_positions(TablebaseOptions::default());
}

#[test]
fn dev_positions_mmap_few_files_open() {
    check_dev_positions(TablebaseOptions { mmap: true, max_open: 3 });
}

/// A limit on open files far above the number of tables reserves nothing for it.
#[test]
fn dev_positions_without_a_limit_on_open_files() {
    check_dev_positions(TablebaseOptions { mmap: false, max_open: usize::MAX });
}

/// The messages name the table file and what is wrong: a real table cut in half, a table
/// missing, a file that is not a table.
#[test]
fn error_messages_name_the_file() {
    let Some(shared) = tables("syzygy: error messages") else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("syzygy-messages-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let whole = std::fs::read(shared.join("KQvK.rtbw")).unwrap();
    std::fs::write(dir.join("KQvK.rtbw"), &whole[..whole.len() / 2]).unwrap();
    std::fs::write(dir.join("KRvK.rtbw"), b"not a table").unwrap();
    for mmap in [false, true] {
        let mut tb = Tablebase::with_options(TablebaseOptions { mmap, max_open: 1 });
        tb.add_directory(&dir).unwrap();
        let probe = |fen: &str| tb.probe_wdl(&Position::from_fen(fen).unwrap()).unwrap_err().to_string();
        let cut = dir.join("KQvK.rtbw");
        assert_eq!(
            probe("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"),
            format!("corrupt table {}: the file size is not that of a table (truncated?)", cut.display())
        );
        let not_a_table = probe("7k/8/6K1/8/8/8/8/1R6 w - - 0 1");
        assert!(
            not_a_table.starts_with(&format!("corrupt table {}: ", dir.join("KRvK.rtbw").display())),
            "{not_a_table}"
        );
        assert_eq!(probe("7k/8/6K1/8/8/8/8/1B6 w - - 0 1"), "missing table KBvK.rtbw");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The material of a FEN as a table name would spell it, white first.
fn material(fen: &str) -> String {
    let board = fen.split(' ').next().unwrap();
    let side = |white: bool| {
        let mut s: Vec<char> =
            board.chars().filter(|c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() == white).collect();
        s.sort_by_key(|c| "KQRBNP".find(c.to_ascii_uppercase()).unwrap());
        s.into_iter().map(|c| c.to_ascii_uppercase()).collect::<String>()
    };
    format!("{}v{}", side(true), side(false))
}

/// Dev positions (before and after each move) with the material of `table`, either colour.
fn positions_of(dir: &Path, table: &str) -> Vec<Position> {
    let (w, b) = table.split_once('v').unwrap();
    let mirrored = format!("{b}v{w}");
    let mut out = Vec::new();
    for record in dev_positions(dir) {
        let pos = Position::from_fen(record["fen"].as_str().unwrap()).unwrap();
        for p in std::iter::once(pos).chain(pos.legal_moves().into_iter().map(|mv| pos.make_move(mv))) {
            let m = material(&p.to_fen());
            if m == table || m == mirrored {
                out.push(p);
            }
        }
    }
    out
}

/// A directory holding links to every shared table but the one a test damages.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(shared: &Path, name: &str, leave_out: &[&str]) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("syzygy-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(shared).unwrap() {
            let entry = entry.unwrap();
            let file = entry.file_name().into_string().unwrap();
            if file.starts_with('K') && !leave_out.contains(&file.as_str()) {
                std::os::unix::fs::symlink(entry.path(), dir.join(&file)).unwrap();
            }
        }
        Scratch { dir }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Probes every position with the damaged file in place: each probe gives the intact
/// tables' value or a corrupt-file error naming the file (any value when `any_value`), never a
/// panic. Returns how many probes failed as corrupt.
fn probe_damaged(
    tb: &Tablebase,
    dir: &Path,
    positions: &[(Position, [Result<i32, String>; 2])],
    any_value: bool,
) -> usize {
    // The damaged file is read afresh.
    tb.close_files();
    let mut corrupt = 0;
    for (pos, intact) in positions {
        for (result, intact) in [tb.probe_wdl(pos), tb.probe_dtz(pos)].into_iter().zip(intact) {
            match result {
                Ok(v) if any_value => assert!((-1000..=1000).contains(&v)),
                Ok(v) => assert_eq!(Ok(v), *intact),
                Err(SyzygyError::Corrupt { path, .. }) => {
                    assert!(path.starts_with(dir));
                    corrupt += 1;
                }
                Err(e) => assert_eq!(Err(e.to_string()), *intact),
            }
        }
    }
    corrupt
}

#[test]
fn damaged_tables_give_errors() {
    let Some(shared) = tables("syzygy: damaged tables") else { return };
    let mut cases = 0;
    for (table, ext, stride) in
        [("KQvK", "rtbw", 1), ("KRvKR", "rtbz", 7), ("KPvKP", "rtbw", 401), ("KRPvKR", "rtbz", 65_537)]
    {
        let file = format!("{table}.{ext}");
        let scratch = Scratch::new(&shared, &file.replace('.', "_"), &[&file]);
        let bytes = std::fs::read(shared.join(&file)).unwrap();
        let intact_tb = Tablebase::open([&shared]).unwrap();
        let mut positions: Vec<(Position, [Result<i32, String>; 2])> = positions_of(&shared, table)
            .into_iter()
            .map(|p| (p, [intact_tb.probe_wdl(&p), intact_tb.probe_dtz(&p)].map(|r| r.map_err(|e| e.to_string()))))
            .collect();
        // Decisive positions first: their DTZ probes read the DTZ table.
        positions.sort_by_key(|(_, [wdl, _])| wdl.clone().map_or(1, |v| i32::from(v == 0)));
        positions.truncate(24);
        assert!(positions.iter().any(|(_, [wdl, _])| wdl.clone().is_ok_and(|v| v != 0)), "{table}");
        let target = scratch.dir.join(&file);
        std::fs::write(&target, &bytes).unwrap();
        let pread = Tablebase::open([&scratch.dir]).unwrap();
        let mut mmap = Tablebase::with_options(TablebaseOptions { mmap: true, ..TablebaseOptions::default() });
        mmap.add_directory(&scratch.dir).unwrap();

        // Cut short anywhere: always reported as corrupt. (The 5-piece table's neighbours are
        // reopened for every case, so it gets fewer.)
        let head = if bytes.len() > 1 << 20 { 120 } else { 400 };
        let header: Vec<usize> = (0..bytes.len().min(head)).collect();
        for cut in header.into_iter().chain((head..bytes.len()).step_by(stride)) {
            std::fs::write(&target, &bytes[..cut]).unwrap();
            assert!(probe_damaged(&pread, &scratch.dir, &positions, false) > 0, "{file} cut at {cut}");
            cases += 1;
        }
        // One bit flipped: a value or an error, never a crash.
        let mut flips: Vec<usize> = (0..bytes.len().min(head)).collect();
        flips.extend((head..bytes.len()).step_by(stride.max(3)));
        for (i, at) in flips.into_iter().enumerate() {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1 << (i % 8);
            std::fs::write(&target, &damaged).unwrap();
            probe_damaged(if i % 2 == 0 { &mmap } else { &pread }, &scratch.dir, &positions, true);
            cases += 1;
        }
        // A wrong magic number, and the other kind of table under this name.
        let mut wrong = bytes.clone();
        wrong[0] ^= 0xff;
        std::fs::write(&target, &wrong).unwrap();
        assert!(probe_damaged(&pread, &scratch.dir, &positions, false) > 0);
        let other = shared.join(format!("{table}.{}", if ext == "rtbw" { "rtbz" } else { "rtbw" }));
        std::fs::copy(other, &target).unwrap();
        assert!(probe_damaged(&pread, &scratch.dir, &positions, false) > 0);
        // Empty.
        std::fs::write(&target, b"").unwrap();
        assert!(probe_damaged(&pread, &scratch.dir, &positions, false) > 0);
        cases += 3;
    }
    assert!(cases > 2000, "{cases} cases");
}

#[test]
fn a_directory_named_like_a_table_is_no_table() {
    let Some(shared) = tables("syzygy: directory named like a table") else { return };
    let scratch = Scratch::new(&shared, "dir", &["KQvK.rtbw"]);
    std::fs::create_dir(scratch.dir.join("KQvK.rtbw")).unwrap();
    let tb = Tablebase::open([&scratch.dir]).unwrap();
    let pos = Position::from_fen("7k/8/8/8/8/8/8/KQ6 w - - 0 1").unwrap();
    match tb.probe_wdl(&pos) {
        Err(SyzygyError::MissingTable { name, ext }) => assert_eq!((name.as_str(), ext), ("KQvK", "rtbw")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_file_cut_while_open_gives_errors() {
    let Some(shared) = tables("syzygy: file cut while open") else { return };
    let file = "KRPvKR.rtbw";
    let scratch = Scratch::new(&shared, "cut", &[file]);
    let target = scratch.dir.join(file);
    std::fs::copy(shared.join(file), &target).unwrap();
    let positions = positions_of(&shared, "KRPvKR");
    let tb = Tablebase::open([&scratch.dir]).unwrap();
    let before: Vec<_> = positions.iter().map(|p| tb.probe_wdl(p).unwrap()).collect();
    assert!(tb.open_files() > 0);
    let len = std::fs::metadata(&target).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(&target).unwrap().set_len(len / 3).unwrap();
    let mut failed = 0;
    for (pos, v) in positions.iter().zip(before) {
        match tb.probe_wdl(pos) {
            Ok(now) => assert_eq!(now, v),
            Err(SyzygyError::Corrupt { .. }) => failed += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert!(failed > 0);
}

/// Eight threads probe one tablebase that keeps fewer files open than they need, read and
/// memory-mapped, each thread going round the dev positions from its own start. One round
/// each; `CHESSCORE_THREADS_SECONDS` keeps them going that long (scripts/tsan.sh: 10 s under
/// ThreadSanitizer).
#[test]
fn eight_threads_probe_the_same_tables() {
    let Some(dir) = tables("syzygy: eight threads") else { return };
    let seconds = std::env::var("CHESSCORE_THREADS_SECONDS").map_or(0, |s| s.parse::<u64>().unwrap());
    let records = Arc::new(dev_positions(&dir));
    for mmap in [false, true] {
        let mut tb = Tablebase::with_options(TablebaseOptions { max_open: 5, mmap });
        tb.add_directory(&dir).unwrap();
        let tb = Arc::new(tb);
        let end = std::time::Instant::now() + std::time::Duration::from_secs(seconds / 2);
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let (tb, records) = (Arc::clone(&tb), Arc::clone(&records));
                std::thread::spawn(move || {
                    let mut rounds = 0;
                    while rounds == 0 || std::time::Instant::now() < end {
                        for record in records.iter().skip(t * 37).chain(records.iter().take(t * 37)) {
                            let pos = Position::from_fen(record["fen"].as_str().unwrap()).unwrap();
                            assert_eq!(tb.probe_wdl(&pos).ok(), expected(&record["wdl"]));
                            assert_eq!(tb.probe_dtz(&pos).ok(), expected(&record["dtz"]));
                        }
                        rounds += 1;
                    }
                    rounds
                })
            })
            .collect();
        let rounds: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
        assert!(rounds >= 8);
        assert!(tb.open_files() <= 5);
    }
}

#[test]
fn errors_are_distinct() {
    let Some(dir) = tables("syzygy: errors") else { return };
    let tb = Tablebase::open([&dir]).unwrap();
    let castling = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    assert!(matches!(tb.probe_wdl(&castling), Err(SyzygyError::CastlingRights)));
    assert!(matches!(tb.probe_wdl(&Position::startpos()), Err(SyzygyError::CastlingRights)));
    let many = Position::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1").unwrap();
    assert!(matches!(tb.probe_dtz(&many), Err(SyzygyError::TooManyPieces(18))));
    let six = Position::from_fen("3qk3/3r4/8/8/8/8/8/1QR1K3 w - - 0 1").unwrap();
    match tb.probe_wdl(&six) {
        Err(SyzygyError::MissingTable { name, ext: "rtbw" }) => assert_eq!(name.len(), 7),
        other => panic!("{other:?}"),
    }
    let empty = Tablebase::new();
    assert_eq!(empty.max_pieces(), 0);
    let kk = Position::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(empty.probe_wdl(&kk).unwrap(), 0);
    match empty.probe_dtz(&Position::from_fen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1").unwrap()) {
        Err(SyzygyError::MissingTable { name, ext }) => assert_eq!((name.as_str(), ext), ("KQvK", "rtbw")),
        other => panic!("{other:?}"),
    }
}

/// Stockfish's rank of a winning move within the 50-move rule is above 2^17.
const SURE_WIN: i32 = 1 << 17;

#[test]
fn root_ranking_puts_a_winning_move_first() {
    let Some(dir) = tables("syzygy: root ranking") else { return };
    let tb = Tablebase::open([&dir]).unwrap();
    let mut wins = 0;
    for record in dev_positions(&dir) {
        let pos = Position::from_fen(record["fen"].as_str().unwrap()).unwrap();
        let ranked = tb.rank_root_moves(&Game::new(pos)).unwrap();
        assert_eq!(ranked.len(), pos.legal_moves().len());
        assert!(ranked.windows(2).all(|w| w[0].rank >= w[1].rank));
        let best_wdl = ranked.iter().map(|m| m.wdl).max();
        if let (Some(best), 0) = (ranked.first(), pos.halfmove_clock()) {
            assert_eq!(Some(best.wdl), best_wdl, "{}", record["fen"]);
        }
        let dtz = tb.probe_dtz(&pos).unwrap();
        if tb.probe_wdl(&pos).unwrap() == 2 && dtz + pos.halfmove_clock() as i32 <= 99 {
            // The first move keeps the win under the 50-move rule: it zeroes, or it leads to a
            // position whose DTZ leaves room for the rest.
            let best = ranked[0];
            assert!(best.rank > SURE_WIN, "{}", record["fen"]);
            let after = pos.make_move(best.mv);
            assert!(
                after.halfmove_clock() == 0 || best.dtz + 1 + pos.halfmove_clock() as i32 <= 100,
                "{}",
                record["fen"]
            );
            wins += 1;
        }
    }
    assert!(wins > 100);
}

#[test]
fn the_fifty_move_counter_and_repetitions_change_the_ranking() {
    let Some(dir) = tables("syzygy: root ranking with history") else { return };
    let tb = Tablebase::open([&dir]).unwrap();
    let mut repetitions = 0;
    let mut fifty = 0;
    for record in dev_positions(&dir) {
        let fen = record["fen"].as_str().unwrap();
        if !fen.contains(" w ") || material(fen) != "KQvK" {
            continue;
        }
        let fresh = Position::from_fen(&fen.replace(|_: char| false, "")).unwrap();
        let ranked = tb.rank_root_moves(&Game::new(fresh)).unwrap();
        let best = ranked[0];
        if fresh.make_move(best.mv).halfmove_clock() == 0 || best.rank <= SURE_WIN {
            continue;
        }
        // At 99 half-moves every quiet move that does not mate draws.
        let parts: Vec<&str> = fen.split(' ').collect();
        let late = Position::from_fen(&format!("{} w - - 99 {}", parts[0], parts[5])).unwrap();
        let late_ranked = tb.rank_root_moves(&Game::new(late)).unwrap();
        for m in &late_ranked {
            let after = late.make_move(m.mv);
            if after.halfmove_clock() != 0 && !after.is_checkmate() {
                assert_eq!(m.rank, 0, "{fen} {:?}", m.mv);
            }
        }
        if late_ranked[0].rank != best.rank || late_ranked[0].mv != best.mv {
            fifty += 1;
        }
        // Play the best move, a king step there and back and the queen back, twice: the
        // best move would then repeat a position for the third time and draw.
        let mut game = Game::new(fresh);
        let after = fresh.make_move(best.mv);
        let Some(step) = after.legal_moves().into_iter().find(|&k| {
            let p = after.make_move(k);
            let back = p.legal_moves().into_iter().any(|q| q.from() == best.mv.to() && q.to() == best.mv.from());
            back && p.halfmove_clock() != 0
        }) else {
            continue;
        };
        let mut ok = true;
        for _ in 0..2 {
            let queen_back = |g: &Game| {
                g.position().legal_moves().into_iter().find(|q| q.from() == best.mv.to() && q.to() == best.mv.from())
            };
            let king_back = |g: &Game| {
                g.position().legal_moves().into_iter().find(|k| k.from() == step.to() && k.to() == step.from())
            };
            ok &= game.push(best.mv).is_ok() && game.push(step).is_ok();
            match queen_back(&game) {
                Some(q) => ok &= game.push(q).is_ok(),
                None => ok = false,
            }
            match king_back(&game) {
                Some(k) => ok &= game.push(k).is_ok(),
                None => ok = false,
            }
            if !ok {
                break;
            }
        }
        if !ok || game.repetition_count() != 3 {
            continue;
        }
        let with_history = tb.rank_root_moves(&game).unwrap();
        let repeated = with_history.iter().find(|m| m.mv == best.mv).unwrap();
        assert_eq!(repeated.rank, 0, "{fen}");
        assert_ne!(with_history[0].mv, best.mv, "{fen}");
        assert!(with_history[0].rank > 0 && with_history[0].wdl == 2, "{fen}");
        repetitions += 1;
    }
    assert!(repetitions > 0 && fifty > 0, "{repetitions} {fifty}");
}

/// A game's result as the tables decide it, the half-move clock counted: what `match --tb`
/// adjudicates with.
#[test]
fn adjudication_counts_the_fifty_move_rule() {
    let Some(dir) = tables("syzygy: adjudication") else { return };
    let tb = Tablebase::open([&dir]).unwrap();
    let at = |fen: &str| tb.adjudicate(&Position::from_fen(fen).unwrap()).unwrap();
    assert_eq!(at("8/8/8/8/8/8/4KQ2/k7 w - - 0 1"), Some(Outcome::WhiteWins));
    assert_eq!(at("8/8/8/8/8/8/4KQ2/k7 b - - 0 1"), Some(Outcome::WhiteWins));
    assert_eq!(at("8/8/8/8/8/8/4kq2/K7 w - - 0 1"), Some(Outcome::BlackWins));
    // The same win with the counter at 99: the 50-move rule comes first.
    let kqk = Position::from_fen("8/8/8/8/8/8/4KQ2/k7 b - - 99 80").unwrap();
    assert!(tb.probe_dtz(&kqk).unwrap().abs() > 1);
    assert_eq!(tb.adjudicate(&kqk).unwrap(), Some(Outcome::Draw));
    assert_eq!(at("8/8/8/4k3/8/8/8/4K3 w - - 0 1"), Some(Outcome::Draw));
    assert_eq!(at("8/8/8/4k3/8/8/8/3NK3 w - - 0 1"), Some(Outcome::Draw));
    // Positions the tables do not hold are not adjudicated.
    assert_eq!(at("r3k3/8/8/8/8/8/8/4K3 w q - 0 1"), None);
    assert_eq!(tb.adjudicate(&Position::startpos()).unwrap(), None);
    assert_eq!(
        Tablebase::new().adjudicate(&Position::from_fen("8/8/8/8/8/8/4KQ2/k7 w - - 0 1").unwrap()).unwrap(),
        None
    );
}

/// A table replaced by a FIFO after the directory was listed is an error at once, not a probe
/// that waits for a writer for ever.
#[test]
fn a_table_replaced_by_a_fifo_is_refused_at_once() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("syzygy_fifo");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("KQvK.rtbw");
    std::fs::write(&table, b"").unwrap();
    let tb = Tablebase::open([&dir]).unwrap();
    std::fs::remove_file(&table).unwrap();
    assert!(std::process::Command::new("mkfifo").arg(&table).status().unwrap().success());
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let pos = Position::from_fen("8/8/8/8/8/8/4KQ2/k7 w - - 0 1").unwrap();
        let _ = sender.send(tb.probe_wdl(&pos).is_err());
    });
    let refused = receiver.recv_timeout(std::time::Duration::from_secs(10)).expect("the probe waited on the FIFO");
    assert!(refused);
}
