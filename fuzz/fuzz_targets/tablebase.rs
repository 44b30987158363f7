//! Syzygy tables: any bytes as a table file give values in range or a clear error, never a
//! panic, in both reading modes. The first byte chooses the table's name and kind (see
//! `TABLES`); the rest is the file.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use chesscore_core::syzygy::{SyzygyError, Tablebase, TablebaseOptions};
use chesscore_core::Position;
use libfuzzer_sys::fuzz_target;

/// Table names with positions of their material (either colour, either side to move).
const TABLES: [(&str, &[&str]); 5] = [
    ("KQvK", &["8/8/8/4k3/8/8/8/3QK3 w - - 0 1", "8/8/8/4k3/8/8/8/3QK3 b - - 0 1", "3qk3/8/8/8/8/8/8/4K3 w - - 0 1"]),
    ("KRvKR", &["3rk3/8/8/8/8/8/8/3RK3 w - - 0 1", "r3k3/8/8/8/8/8/8/4K2R b - - 0 1"]),
    ("KPvKP", &["4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/1p6/8/8/8/8/6P1/4K3 b - - 0 1"]),
    ("KBNvK", &["4k3/8/8/8/8/8/8/2BNK3 w - - 0 1", "2bnk3/8/8/8/8/8/8/4K3 b - - 0 1"]),
    ("KRPvKR", &["4k3/r7/8/8/8/8/4P3/4K2R w - - 0 1", "4k2r/4p3/8/8/8/8/R7/4K3 b - - 0 1"]),
];

fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("chesscore-fuzz-tablebase-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, bytes)) = data.split_first() else { return };
    let (name, fens) = TABLES[usize::from(choice >> 1) % TABLES.len()];
    let ext = if choice & 1 == 0 { "rtbw" } else { "rtbz" };
    let dir = scratch();
    for old in std::fs::read_dir(dir).expect("the scratch directory") {
        let _ = std::fs::remove_file(old.expect("an entry").path());
    }
    std::fs::write(dir.join(format!("{name}.{ext}")), bytes).expect("write the table");
    for mmap in [false, true] {
        let mut tb = Tablebase::with_options(TablebaseOptions { mmap, ..TablebaseOptions::default() });
        assert_eq!(tb.add_directory(dir).expect("list the directory"), 1);
        for fen in fens {
            let pos = Position::from_fen(fen).expect("a valid FEN");
            for result in [tb.probe_wdl(&pos), tb.probe_dtz(&pos)] {
                match result {
                    Ok(v) => assert!((-10_000..=10_000).contains(&v)),
                    Err(SyzygyError::Corrupt { .. } | SyzygyError::MissingTable { .. } | SyzygyError::OutOfMemory) => {}
                    Err(other) => panic!("unexpected {other}"),
                }
            }
        }
    }
});
