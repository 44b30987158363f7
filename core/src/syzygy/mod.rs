//! Syzygy endgame tablebases: win/draw/loss (WDL) and distance-to-zeroing (DTZ) values of
//! positions with few pieces, read from the `.rtbw` and `.rtbz` files of Ronald de Man's
//! tables.
//!
//! A [`Tablebase`] is a plain value: no global state and no initialisation call. It is
//! `Send + Sync`; any number of threads probe it at once through `&self`. Table files are
//! opened when a probe first needs them, and at most [`TablebaseOptions::max_open`] are kept
//! open (the least recently used is closed first, once the probes reading it end). Files are read with positioned reads
//! (`pread`) by default, so a file cut or changed while open gives an error, never a signal;
//! [`TablebaseOptions::mmap`] maps them instead (faster; a file cut while mapped then raises
//! SIGBUS, as with any mapping).
//!
//! The values are those of python-chess 1.11.2's `probe_wdl` and `probe_dtz`, including how
//! en passant captures and captures are resolved and how DTZ is rounded; see
//! [`Tablebase::probe_wdl`], [`Tablebase::probe_dtz`] and `docs/tablebases.md`.
//!
//! ```no_run
//! use chesscore_core::syzygy::Tablebase;
//! use chesscore_core::Position;
//!
//! let tb = Tablebase::open(["/path/to/syzygy"])?;
//! let pos = Position::from_fen("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1")?;
//! assert_eq!(tb.probe_wdl(&pos)?, -2);
//! assert_eq!(tb.probe_dtz(&pos)?, -53);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod encoding;
mod material;
mod probe;
mod table;

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError, RwLock};

use crate::Material;
use material::{KeyHasher, MaterialKey};
use table::{Fault, Kind, Source, Table};

pub use probe::RankedMove;

/// The most pieces a Syzygy table holds (python-chess's `TBPIECES`).
pub const MAX_TABLE_PIECES: u32 = 7;

/// Why a probe or an open failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SyzygyError {
    /// The table the position needs is not among the directories added.
    #[error("missing table {name}.{ext}")]
    MissingTable {
        /// The table's name, such as `KQvKR`.
        name: String,
        /// `rtbw` or `rtbz`.
        ext: &'static str,
    },
    /// Tables hold no positions with castling rights.
    #[error("tables hold no positions with castling rights")]
    CastlingRights,
    /// More pieces than any table holds.
    #[error("{0} pieces: tables hold at most 7")]
    TooManyPieces(u32),
    /// A table file is damaged or cut short.
    #[error("corrupt table {path}: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A table file or a directory could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// Memory ran out while reading a table.
    #[error("out of memory reading a table")]
    OutOfMemory,
}

/// How a [`Tablebase`] reads its files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TablebaseOptions {
    /// Table files kept open at most (at least 1).
    pub max_open: usize,
    /// Map files into memory instead of reading them with `pread`.
    pub mmap: bool,
}

impl Default for TablebaseOptions {
    fn default() -> TablebaseOptions {
        TablebaseOptions { max_open: 128, mmap: false }
    }
}

/// One table file, opened when first probed.
struct Slot {
    path: PathBuf,
    kind: Kind,
    material: Material,
    /// The opened file; probes read it under the read lock, closing takes the write lock.
    open: RwLock<Option<Table>>,
    last_use: AtomicU64,
}

/// A set of Syzygy tables; see the [module documentation](self).
pub struct Tablebase {
    options: TablebaseOptions,
    slots: Vec<Slot>,
    /// Material (as white v black, both orientations) to its WDL and DTZ slots.
    index: HashMap<MaterialKey, [Option<usize>; 2], BuildHasherDefault<KeyHasher>>,
    /// Slots with an open file.
    open: Mutex<Vec<usize>>,
    clock: AtomicU64,
    max_pieces: u32,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase").field("tables", &self.slots.len()).field("options", &self.options).finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A probe never panics while holding a lock; should one have, the data is still whole.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Tablebase {
    /// A tablebase with no tables and the default options.
    pub fn new() -> Tablebase {
        Tablebase::with_options(TablebaseOptions::default())
    }

    /// A tablebase with no tables.
    pub fn with_options(options: TablebaseOptions) -> Tablebase {
        Tablebase {
            options: TablebaseOptions { max_open: options.max_open.max(1), ..options },
            slots: Vec::new(),
            index: HashMap::default(),
            // Room is made as tables are added (a limit may be far above their number).
            open: Mutex::new(Vec::new()),
            clock: AtomicU64::new(0),
            max_pieces: 0,
        }
    }

    /// A tablebase with the tables of each directory.
    pub fn open<P: AsRef<Path>>(dirs: impl IntoIterator<Item = P>) -> Result<Tablebase, SyzygyError> {
        let mut tb = Tablebase::new();
        for dir in dirs {
            tb.add_directory(dir)?;
        }
        Ok(tb)
    }

    /// Adds the tables of `dir`: every regular file named as python-chess names tables
    /// (`KQvKR.rtbw`, `KRPvKR.rtbz`, ...). Files are not read until a probe needs them; a
    /// table already added is replaced. Returns how many files were added.
    pub fn add_directory(&mut self, dir: impl AsRef<Path>) -> Result<usize, SyzygyError> {
        let dir = dir.as_ref();
        let io_err = |source| SyzygyError::Io { path: dir.to_path_buf(), source };
        let mut added = 0;
        let mut entries: Vec<_> = std::fs::read_dir(dir).map_err(io_err)?.collect::<Result<_, _>>().map_err(io_err)?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let Some((name, ext)) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.rsplit_once('.')) else {
                continue;
            };
            let kind = match ext {
                "rtbw" => Kind::Wdl,
                "rtbz" => Kind::Dtz,
                _ => continue,
            };
            let Some(material) = Material::from_table_name(name) else { continue };
            // Directories and other non-files named like tables are not tables.
            if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                continue;
            }
            let slot = self.slots.len();
            self.slots.push(Slot { path, kind, material, open: RwLock::new(None), last_use: AtomicU64::new(0) });
            let k = usize::from(kind == Kind::Dtz);
            self.index.entry(MaterialKey::of(&material)).or_default()[k] = Some(slot);
            self.index.entry(MaterialKey::of(&material.flipped())).or_default()[k] = Some(slot);
            self.max_pieces = self.max_pieces.max(material.count());
            added += 1;
        }
        // Never more files open than one over the limit, nor than tables: a probe pushing one
        // never allocates.
        let room = self.options.max_open.min(self.slots.len()) + 1;
        let open = self.open.get_mut().unwrap_or_else(PoisonError::into_inner);
        open.try_reserve_exact(room.saturating_sub(open.len())).map_err(|_| SyzygyError::OutOfMemory)?;
        Ok(added)
    }

    /// The most pieces of any table added (0 when none): WDL and DTZ files alike.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Closes every open file (they reopen when probed again).
    pub fn close_files(&self) {
        let mut open = lock(&self.open);
        for slot in open.drain(..) {
            *self.slots[slot].open.write().unwrap_or_else(PoisonError::into_inner) = None;
        }
    }

    /// A copy of a slot's file name, `None` when memory runs out.
    fn path_copy(&self, slot: usize) -> Option<PathBuf> {
        let original = &self.slots[slot].path;
        let mut path = PathBuf::new();
        path.try_reserve_exact(original.as_os_str().len()).ok()?;
        path.push(original);
        Some(path)
    }

    fn error(&self, slot: usize, fault: Fault) -> SyzygyError {
        match fault {
            Fault::OutOfMemory => SyzygyError::OutOfMemory,
            Fault::Corrupt(reason) => {
                self.path_copy(slot).map_or(SyzygyError::OutOfMemory, |path| SyzygyError::Corrupt { path, reason })
            }
            Fault::Io(source) => match self.path_copy(slot) {
                Some(path) => SyzygyError::Io { path, source },
                None => SyzygyError::OutOfMemory,
            },
        }
    }

    /// Runs `f` on the table for `material`, opened if needed.
    fn with_table<R>(
        &self,
        key: MaterialKey,
        kind: Kind,
        f: impl FnOnce(&Table) -> Result<R, Fault>,
    ) -> Result<R, SyzygyError> {
        let k = usize::from(kind == Kind::Dtz);
        let Some(slot) = self.index.get(&key).and_then(|s| s[k]) else {
            let material = key.material();
            let count = material.count();
            if count > MAX_TABLE_PIECES {
                return Err(SyzygyError::TooManyPieces(count));
            }
            let (name, ext) = (material.to_string(), if kind == Kind::Wdl { "rtbw" } else { "rtbz" });
            // Name the table as its file is named: the stronger side first.
            let flipped = material.flipped().to_string();
            let name = if Material::from_table_name(&name).is_some() { name } else { flipped };
            return Err(SyzygyError::MissingTable { name, ext });
        };
        let s = &self.slots[slot];
        s.last_use.store(self.clock.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        {
            let guard = s.open.read().unwrap_or_else(PoisonError::into_inner);
            if let Some(table) = guard.as_ref() {
                return f(table).map_err(|fault| self.error(slot, fault));
            }
        }
        let mut guard = s.open.write().unwrap_or_else(PoisonError::into_inner);
        let opened = guard.is_none();
        let table = match guard.take() {
            Some(table) => table,
            None => self.load(s).map_err(|fault| self.error(slot, fault))?,
        };
        // The first probe runs under the write lock: the file cannot be closed meanwhile.
        let result = f(&table).map_err(|fault| self.error(slot, fault));
        *guard = Some(table);
        drop(guard);
        if opened {
            self.opened(slot);
        }
        result
    }

    fn load(&self, s: &Slot) -> Result<Table, Fault> {
        // A table replaced by a FIFO since the listing must not block the probe.
        let file = crate::files::open_regular(&s.path).map_err(Fault::Io)?;
        let len = file.metadata().map_err(Fault::Io)?.len();
        let src = if self.options.mmap {
            // SAFETY: the mapping is read-only and only read through bounds-checked slices;
            // a file cut while mapped raises SIGBUS, which the `mmap` option documents.
            Source::Map(unsafe { memmap2::Mmap::map(&file) }.map_err(Fault::Io)?)
        } else {
            Source::File(file)
        };
        Table::open(src, len, s.kind, s.material)
    }

    /// Records that `slot` is open and closes the least recently used files over the limit.
    fn opened(&self, slot: usize) {
        let mut open = lock(&self.open);
        if open.contains(&slot) {
            return;
        }
        open.push(slot);
        while open.len() > self.options.max_open {
            let Some((at, _)) = open
                .iter()
                .enumerate()
                .filter(|&(_, &s)| s != slot)
                .min_by_key(|&(_, &s)| self.slots[s].last_use.load(Ordering::Relaxed))
            else {
                break;
            };
            let victim = open.swap_remove(at);
            // Waits for the probes under way on that file.
            *self.slots[victim].open.write().unwrap_or_else(PoisonError::into_inner) = None;
        }
    }

    /// Files open now.
    pub fn open_files(&self) -> usize {
        lock(&self.open).len()
    }
}

impl Default for Tablebase {
    fn default() -> Tablebase {
        Tablebase::new()
    }
}
