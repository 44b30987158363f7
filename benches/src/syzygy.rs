//! Syzygy group: WDL and DTZ probes per second on the dev positions of
//! `../shared/testdata/syzygy` (each position and the position after each of its legal moves,
//! where python-chess has values), against shakmaty-syzygy with the same I/O mode (positioned
//! reads, then memory maps), and from Python against python-chess (`$CHESSCORE_PYTHON`, else
//! `python3`; the binding needs `$CHESSCORE_LIB` or a built `target/*/libchesscore.so`).
//! Every run probes every position once after a first warming run; our values must be
//! python-chess's.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use chesscore_core::syzygy::{Tablebase, TablebaseOptions};
use chesscore_core::Position;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::harness::{abort, print_table, time, Config, Row, CHESSCORE};

const SHAKMATY: &str = "shakmaty-syzygy";

/// Positions python-chess probes for WDL and for DTZ (it manages about 12 k and 1 k a second).
const PYTHON_WDL: usize = 20_000;
const PYTHON_DTZ: usize = 2_000;

struct Sample {
    fen: String,
    ours: Position,
    theirs: Chess,
    wdl: i32,
    dtz: i32,
}

fn tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata/syzygy")
}

fn samples(dir: &Path) -> Vec<Sample> {
    let text = std::fs::read_to_string(dir.join("dev_positions.jsonl"))
        .unwrap_or_else(|e| abort(&format!("{}: {e}", dir.display())));
    let mut out = Vec::new();
    let mut add = |fen: String, wdl: Option<i64>, dtz: Option<i64>| {
        let (Some(wdl), Some(dtz)) = (wdl, dtz) else { return };
        let ours = Position::from_fen(&fen).unwrap_or_else(|e| abort(&format!("{fen}: {e}")));
        let theirs = Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| abort(&format!("shakmaty refuses {fen}")));
        out.push(Sample { fen, ours, theirs, wdl: wdl as i32, dtz: dtz as i32 });
    };
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| abort(&e.to_string()));
        let fen = record["fen"].as_str().unwrap_or_default().to_string();
        add(fen.clone(), record["wdl"].as_i64(), record["dtz"].as_i64());
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| abort(&format!("{fen}: {e}")));
        for m in record["moves"].as_array().into_iter().flatten() {
            let mv =
                m[0].as_str().and_then(|u| u.parse::<chesscore_core::Uci>().ok()).and_then(|u| u.to_move(&pos).ok());
            let after = pos.make_move(mv.unwrap_or_else(|| abort(&format!("a bad move in {fen}"))));
            add(after.to_fen(), m[1].as_i64(), m[2].as_i64());
        }
    }
    out
}

/// The best of `reps` timed runs of `f` after one warming run.
fn best(cfg: &Config, mut f: impl FnMut() -> i64) -> Duration {
    let expected = f();
    (0..cfg.reps)
        .map(|_| {
            let (sum, t) = time(&mut f);
            if sum != expected {
                abort("syzygy: a run gave other values");
            }
            t
        })
        .min()
        .unwrap_or(Duration::MAX)
}

pub fn run(cfg: &Config) {
    let dir = tables();
    if !dir.is_dir() {
        println!("\n== Syzygy probes ==\nnot run: no tables at {}", dir.display());
        return;
    }
    let samples = samples(&dir);
    let n = samples.len() as u64;
    let mut rows = Vec::new();
    for mmap in [false, true] {
        let mut ours = Tablebase::with_options(TablebaseOptions { mmap, ..TablebaseOptions::default() });
        ours.add_directory(&dir).unwrap_or_else(|e| abort(&e.to_string()));
        for s in &samples {
            if ours.probe_wdl(&s.ours).ok() != Some(s.wdl) || ours.probe_dtz(&s.ours).ok() != Some(s.dtz) {
                abort(&format!("syzygy: our values of {} are not python-chess's", s.fen));
            }
        }
        let mut theirs = if mmap {
            // SAFETY: the shared tables are not changed while the benchmark runs.
            unsafe { shakmaty_syzygy::Tablebase::<Chess>::with_mmap_filesystem() }
        } else {
            shakmaty_syzygy::Tablebase::<Chess>::new()
        };
        theirs.add_directory(&dir).unwrap_or_else(|e| abort(&e.to_string()));
        let mode = if mmap { "mmap" } else { "pread" };
        if cfg.wants(CHESSCORE) {
            let t = best(cfg, || samples.iter().map(|s| i64::from(ours.probe_wdl(&s.ours).unwrap_or(9))).sum());
            rows.push(Row { bench: format!("wdl {mode}"), engine: CHESSCORE, count: n, best: t });
        }
        if cfg.wants(SHAKMATY) {
            let t = best(cfg, || {
                samples
                    .iter()
                    .map(|s| theirs.probe_wdl_after_zeroing(&s.theirs).map_or(9, |w| i64::from(i32::from(w))))
                    .sum()
            });
            rows.push(Row { bench: format!("wdl {mode}"), engine: SHAKMATY, count: n, best: t });
        }
        if cfg.wants(CHESSCORE) {
            let t = best(cfg, || samples.iter().map(|s| i64::from(ours.probe_dtz(&s.ours).unwrap_or(9999))).sum());
            rows.push(Row { bench: format!("dtz {mode}"), engine: CHESSCORE, count: n, best: t });
        }
        if cfg.wants(SHAKMATY) {
            let t = best(cfg, || {
                samples
                    .iter()
                    .map(|s| theirs.probe_dtz(&s.theirs).map_or(9999, |d| i64::from(i32::from(d.ignore_rounding()))))
                    .sum()
            });
            rows.push(Row { bench: format!("dtz {mode}"), engine: SHAKMATY, count: n, best: t });
        }
    }
    print_table(&format!("Syzygy probes, {n} dev positions"), "probes", &rows);
    python(cfg, &dir, &samples);
}

fn library() -> Option<PathBuf> {
    if let Some(lib) = std::env::var_os("CHESSCORE_LIB") {
        return Some(PathBuf::from(lib));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    ["target/release/libchesscore.so", "target/testing/libchesscore.so"]
        .iter()
        .map(|p| root.join(p))
        .find(|p| p.is_file())
}

/// probe_wdl and probe_dtz through python-chess, `chesscore.tablebase` (with positioned reads,
/// then memory-mapped as python-chess's files always are) and `chesscore.compat.syzygy`, the
/// same positions in one process: CPU time per probe (the machine is shared), the rounds taking
/// turns, each figure the best of `reps` rounds. Then where our time goes: the probe call alone
/// with its arguments made beforehand (both I/O modes), which bounds the ratio any binding
/// could reach, and a trivial call with one pointer (`chess_tablebase_max_pieces`), the cost
/// of calling through ctypes at all.
fn python(cfg: &Config, dir: &Path, samples: &[Sample]) {
    const SCRIPT: &str = r#"
import ctypes, sys, time
import chess, chess.syzygy
import chesscore, chesscore.compat, chesscore.compat.syzygy, chesscore.tablebase
from chesscore import _native
directory, wdl_count, dtz_count, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
fens = [line.rstrip("\n") for line in sys.stdin]
position = chesscore.Position.from_fen
ours = chesscore.tablebase.open_tablebase(directory)
mapped = chesscore.tablebase.open_tablebase(directory, mmap=True)
libraries = {
    "python-chess 1.11.2": (chess.syzygy.open_tablebase(directory), chess.Board),
    "chesscore.tablebase": (ours, position),
    "chesscore.tablebase, mmap=True": (mapped, position),
    "chesscore.compat.syzygy": (chesscore.compat.syzygy.open_tablebase(directory), chesscore.compat.Board),
}
refs = [ctypes.byref(position(fen)._pos) for fen in fens[:wdl_count]]
value = ctypes.c_int32()
out, handle = ctypes.byref(value), ours._handle
trivial = ctypes.CDLL(_native.path).chess_tablebase_max_pieces
trivial.restype = ctypes.c_uint32
TRIVIAL = "(only a trivial call)"
def only_the_call(function, tb):
    """The least a probe method can do: the call, its arguments made beforehand."""
    handle = tb._handle
    return lambda ref: function(handle, ref, out) or value.value
def cpu(run):
    start = time.process_time()
    result = run()
    return time.process_time() - start, result
for probe, count in (("probe_wdl", wdl_count), ("probe_dtz", dtz_count)):
    runs = {name: (getattr(tb, probe), [board(fen) for fen in fens[:count]]) for name, (tb, board) in libraries.items()}
    bare = getattr(_native.per_probe, "chess_tablebase_" + probe)
    runs["(only the probe call)"] = (only_the_call(bare, ours), refs[:count])
    runs["(only the probe call, mmap)"] = (only_the_call(bare, mapped), refs[:count])
    runs[TRIVIAL] = (lambda ref: trivial(handle), refs[:count])
    best, totals = {}, {}
    for name, (f, boards) in runs.items():
        sum(f(board) for board in boards[:200])
    for _ in range(reps):
        for name, (f, boards) in runs.items():
            t, totals[name] = cpu(lambda: sum(f(board) for board in boards))
            best[name] = min(best.get(name, t), t)
    theirs = best["python-chess 1.11.2"]
    assert len({v for k, v in totals.items() if k != TRIVIAL}) == 1, (probe, totals)
    print(f"python {probe}, {count:,} positions, CPU time, best of {reps}:")
    for name, t in best.items():
        print(f"  {name:32s} {t / count * 1e6:8.3f} us {count / t:11,.0f}/s {theirs / t:7.1f}x")
"#;
    let Some(lib) = library() else {
        println!("python: not run (no libchesscore.so: set CHESSCORE_LIB)");
        return;
    };
    let python = std::env::var_os("CHESSCORE_PYTHON").unwrap_or_else(|| "python3".into());
    let fens: String = samples.iter().map(|s| s.fen.clone() + "\n").collect();
    let input = std::env::temp_dir().join(format!("chesscore-bench-syzygy-{}.txt", std::process::id()));
    std::fs::write(&input, fens).unwrap_or_else(|e| abort(&e.to_string()));
    let out = Command::new(&python)
        .args(["-c", SCRIPT])
        .arg(dir)
        .args([PYTHON_WDL.to_string(), PYTHON_DTZ.to_string(), cfg.reps.to_string()])
        .stdin(std::fs::File::open(&input).unwrap_or_else(|e| abort(&e.to_string())))
        .env("CHESSCORE_LIB", &lib)
        .env("PYTHONPATH", Path::new(env!("CARGO_MANIFEST_DIR")).join("../bindings/python"))
        .output();
    let _ = std::fs::remove_file(&input);
    match out {
        Ok(out) if out.status.success() => print!("{}", String::from_utf8_lossy(&out.stdout)),
        Ok(out) => println!("python: not run ({})", String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")),
        Err(e) => println!("python: not run (cannot run {}: {e})", python.to_string_lossy()),
    }
}
