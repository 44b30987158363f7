//! One Syzygy table file: its header read into memory, a position's index computed, and the
//! value at that index decompressed from its block.
//!
//! Every number read from the file is checked before it is used as an offset, a length or an
//! index, so a damaged or truncated file is a [`Fault`], never a read out of bounds.
//!
//! The header and the probe are here; a position's index in `index`, the compressed values in
//! `pairs`.

mod index;
mod pairs;

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

use crate::syzygy::encoding::FLAP;
use crate::syzygy::material::MaterialKey;
use crate::Material;
use crate::{Bitboard, Color, PieceKind, Position};
use index::{encode_pawns, encode_pieces, pawn_layout, piece_layout, Layout};
use pairs::{read_pairs, Areas, Pairs};

pub(super) const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
pub(super) const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Index and size tables up to this many bytes are copied into memory when the table is
/// opened for positioned reads, so that a probe costs one read (of its block).
const CACHE_LIMIT: u64 = 1 << 20;

/// What went wrong reading a table; the caller adds the file's name.
#[derive(Debug)]
pub(super) enum Fault {
    Corrupt(&'static str),
    Io(io::Error),
    OutOfMemory,
}

type Result<T> = std::result::Result<T, Fault>;

fn corrupt<T>(what: &'static str) -> Result<T> {
    Err(Fault::Corrupt(what))
}

/// An empty vector with room for `n` items: pushing up to `n` never allocates.
fn room<T>(n: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| Fault::OutOfMemory)?;
    Ok(v)
}

/// `n` copies of `value`.
fn filled<T: Clone>(value: T, n: usize) -> Result<Vec<T>> {
    let mut v = room(n)?;
    v.resize(n, value);
    Ok(v)
}

/// Where a table's bytes come from.
pub(super) enum Source {
    /// Positioned reads (`pread`): a file cut or rewritten meanwhile gives errors, never a signal.
    File(File),
    /// A read-only mapping: faster, but a file cut while mapped raises SIGBUS.
    Map(memmap2::Mmap),
}

impl Source {
    // Inlined so that the small reads of index entries copy a known number of bytes.
    #[inline(always)]
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        match self {
            Source::File(file) => file.read_exact_at(buf, offset).map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => Fault::Corrupt("the file is shorter than its header says"),
                _ => Fault::Io(e),
            }),
            Source::Map(map) => {
                let start = usize::try_from(offset).map_err(|_| Fault::Corrupt("offset out of range"))?;
                let bytes = start
                    .checked_add(buf.len())
                    .and_then(|end| map.get(start..end))
                    .ok_or(Fault::Corrupt("the file is shorter than its header says"))?;
                buf.copy_from_slice(bytes);
                Ok(())
            }
        }
    }

    /// `len` bytes at `offset`, in a new buffer.
    fn bytes(&self, offset: u64, len: u64) -> Result<Vec<u8>> {
        let len = usize::try_from(len).map_err(|_| Fault::OutOfMemory)?;
        let mut buf = Vec::new();
        buf.try_reserve_exact(len).map_err(|_| Fault::OutOfMemory)?;
        buf.resize(len, 0);
        self.read_at(offset, &mut buf)?;
        Ok(buf)
    }
}

/// Whether the table holds win/draw/loss values or distances to zeroing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Wdl,
    Dtz,
}

/// A byte range of the file that is either copied into memory or read when needed.
struct Region {
    offset: u64,
    cached: Option<Vec<u8>>,
}

impl Region {
    #[inline(always)]
    fn read(&self, src: &Source, at: u64, buf: &mut [u8]) -> Result<()> {
        match &self.cached {
            Some(bytes) => {
                let start = at as usize;
                buf.copy_from_slice(bytes.get(start..start + buf.len()).ok_or(Fault::Corrupt("index out of range"))?);
                Ok(())
            }
            None => src.read_at(self.offset + at, buf),
        }
    }

    #[inline(always)]
    fn u16(&self, src: &Source, at: u64) -> Result<u16> {
        let mut b = [0; 2];
        self.read(src, at, &mut b)?;
        Ok(u16::from_le_bytes(b))
    }
}

struct Part {
    layout: Layout,
    pairs: Pairs,
}

/// One opened table file.
pub(super) struct Table {
    src: Source,
    kind: Kind,
    /// The material the table is stored for without flipping colours.
    key: MaterialKey,
    symmetric: bool,
    has_pawns: bool,
    /// Pawns of the leading colour and of the other colour.
    pawns: [u8; 2],
    num: usize,
    /// `parts[side][file]`; one side for DTZ tables, one file for pawnless ones.
    parts: Vec<Vec<Part>>,
    /// DTZ value maps (all files) and, per file, where its four maps start.
    map: Vec<u8>,
    map_start: [[u32; 4]; 4],
}

fn kind_of(code: u8) -> Option<(Color, PieceKind)> {
    let kind = PieceKind::from_index(usize::from(code & 7).checked_sub(1)?)?;
    Some((if code & 8 != 0 { Color::Black } else { Color::White }, kind))
}

/// A cursor over the header, reading it through the source.
struct Header<'a> {
    src: &'a Source,
    len: u64,
    pos: u64,
}

impl Header<'_> {
    fn take(&mut self, n: u64) -> Result<Vec<u8>> {
        if self.pos.checked_add(n).is_none_or(|end| end > self.len) {
            return corrupt("the file is shorter than its header says");
        }
        let bytes = self.src.bytes(self.pos, n)?;
        self.pos += n;
        Ok(bytes)
    }

    fn byte(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    fn align(&mut self, to: u64) {
        self.pos = self.pos.div_ceil(to) * to;
    }
}

impl Table {
    /// Reads the header of `src`, a table of `material` (its file name) holding `kind`.
    pub(super) fn open(src: Source, len: u64, kind: Kind, material: Material) -> Result<Table> {
        // Every table ends with a 16-byte checksum after 64-byte aligned data.
        if len % 64 != 16 {
            return corrupt("the file size is not that of a table (truncated?)");
        }
        let mut h = Header { src: &src, len, pos: 0 };
        let magic = h.take(4)?;
        let expected = if kind == Kind::Wdl { WDL_MAGIC } else { DTZ_MAGIC };
        if magic != expected {
            return corrupt("wrong magic number (not a table of this kind)");
        }
        let flags = h.byte()?;
        let has_pawns = material.has_pawns();
        if (flags & 2 != 0) != has_pawns {
            return corrupt("the header's pawn flag does not match the file name");
        }
        let symmetric = material == material.flipped();
        let split = kind == Kind::Wdl && flags & 1 != 0;
        let sides = if split { 2 } else { 1 };
        let num = material.count() as usize;

        let pawns = if has_pawns {
            let (w, b) =
                (material.count_of(Color::White, PieceKind::Pawn), material.count_of(Color::Black, PieceKind::Pawn));
            if b > 0 && (w == 0 || b < w) {
                [b, w]
            } else {
                [w, b]
            }
        } else {
            [0, 0]
        };
        let files = if has_pawns { 4 } else { 1 };

        // Piece orders, per file and side.
        let mut layouts: Vec<Vec<Layout>> = room(sides)?;
        for _ in 0..sides {
            layouts.push(room(files)?);
        }
        let mut key = material;
        for f in 0..files {
            let order_bytes = if has_pawns && pawns[1] > 0 { 2 } else { 1 };
            let orders = h.take(order_bytes)?;
            let codes = h.take(num as u64)?;
            for (side, list) in layouts.iter_mut().enumerate() {
                let nibble = |b: u8| if side == 0 { b & 15 } else { b >> 4 };
                let mut pieces = [0u8; 7];
                for (p, &c) in pieces.iter_mut().zip(&codes) {
                    *p = nibble(c);
                }
                let pieces_material =
                    Material::from_codes(&pieces[..num]).ok_or(Fault::Corrupt("invalid piece code"))?;
                if has_pawns {
                    if pieces_material != material {
                        return corrupt("the header's pieces do not match the file name");
                    }
                } else if side == 0 && f == 0 {
                    // Pawnless tables may store the colours the other way round.
                    if pieces_material != material && pieces_material != material.flipped() {
                        return corrupt("the header's pieces do not match the file name");
                    }
                    key = pieces_material;
                } else if pieces_material != key {
                    return corrupt("the header's pieces do not match the file name");
                }
                let order = nibble(orders[0]);
                let order2 = if order_bytes == 2 { nibble(orders[1]) } else { 15 };
                let layout = if has_pawns {
                    pawn_layout(pieces, num, pawns, order, order2, f)?
                } else {
                    piece_layout(pieces, num, order)?
                };
                list.push(layout);
            }
        }
        h.align(2);

        // Code descriptions, per file and side.
        let mut pairs_list: Vec<Vec<(Pairs, Areas)>> = room(sides)?;
        for _ in 0..sides {
            pairs_list.push(room(files)?);
        }
        for f in 0..files {
            for (list, side_layouts) in pairs_list.iter_mut().zip(&layouts) {
                list.push(read_pairs(&mut h, side_layouts[f].size, kind)?);
            }
        }

        // DTZ value maps.
        let mut map = Vec::new();
        let mut map_start = [[0u32; 4]; 4];
        if kind == Kind::Dtz {
            let map_offset = h.pos;
            for f in 0..files {
                let flags = pairs_list[0][f].0.flags;
                if flags & 2 == 0 {
                    continue;
                }
                let wide = flags & 16 != 0;
                if wide && has_pawns {
                    h.align(2);
                }
                for start in &mut map_start[f] {
                    if wide {
                        *start = ((h.pos + 2 - map_offset) / 2) as u32;
                        let n = u16::from_le_bytes(h.take(2)?.try_into().map_err(|_| Fault::Corrupt("map"))?);
                        h.take(2 * u64::from(n))?;
                    } else {
                        *start = (h.pos + 1 - map_offset) as u32;
                        let n = h.byte()?;
                        h.take(u64::from(n))?;
                    }
                }
            }
            map = src.bytes(map_offset, h.pos - map_offset)?;
            h.align(2);
        }

        // Index tables, size tables, then 64-byte aligned blocks.
        let cache = matches!(src, Source::File(_));
        let place = |h: &mut Header, size: u64| -> Result<Region> {
            let offset = h.pos;
            if offset.checked_add(size).is_none_or(|end| end > h.len) {
                return corrupt("the file is shorter than its header says");
            }
            h.pos += size;
            let cached = if cache && size <= CACHE_LIMIT { Some(h.src.bytes(offset, size)?) } else { None };
            Ok(Region { offset, cached })
        };
        for f in 0..files {
            for list in pairs_list.iter_mut() {
                let size = list[f].1.index;
                list[f].0.index = place(&mut h, size)?;
            }
        }
        for f in 0..files {
            for list in pairs_list.iter_mut() {
                let size = list[f].1.sizes;
                list[f].0.sizes = place(&mut h, size)?;
            }
        }
        for f in 0..files {
            for list in pairs_list.iter_mut() {
                h.align(64);
                list[f].0.data = h.pos;
                h.pos = h.pos.checked_add(list[f].1.data).ok_or(Fault::Corrupt("block area too large"))?;
                if h.pos > len {
                    return corrupt("the file is shorter than its header says");
                }
            }
        }

        let mut parts = room(sides)?;
        for (side_layouts, side_pairs) in layouts.into_iter().zip(pairs_list) {
            let mut list = room(files)?;
            for (layout, (pairs, _)) in side_layouts.into_iter().zip(side_pairs) {
                list.push(Part { layout, pairs });
            }
            parts.push(list);
        }
        let key = MaterialKey::of(&key);
        Ok(Table { src, kind, key, symmetric, has_pawns, pawns, num, parts, map, map_start })
    }

    /// The table's value for `pos`, whose `material` is this table's in either colour: for a
    /// WDL table -2..=2 from the side to move; for a DTZ table the distance in plies (given
    /// the position's WDL value `wdl`), or `None` when the table is stored for the other side
    /// to move.
    pub(super) fn probe(&self, pos: &Position, material: MaterialKey, wdl: i32) -> Result<Option<i32>> {
        let flip = if self.symmetric { pos.turn() == Color::Black } else { material != self.key };
        let stm_side = usize::from((pos.turn() == Color::Black) != flip);
        let color_flip = if flip { 8 } else { 0 };
        // Pawnless encodings are symmetric in the ranks, so only pawn tables mirror squares.
        let square_flip = if flip && self.has_pawns { 56 } else { 0 };

        let mut squares = [0usize; 7];
        let mut filled = 0;
        let file = if self.has_pawns {
            let lead = self.parts[0][0].layout.pieces[0] ^ color_flip;
            for sq in pieces_of(pos, lead) {
                if filled < usize::from(self.pawns[0]) {
                    squares[filled] = sq as usize ^ square_flip;
                }
                filled += 1;
            }
            if filled != usize::from(self.pawns[0]) {
                return corrupt("the leading pawns do not match");
            }
            // The leading pawn: nearest the edge, then lowest rank; the first found on a tie.
            for i in 1..filled {
                if FLAP[squares[0]] > FLAP[squares[i]] {
                    squares.swap(0, i);
                }
            }
            let f = squares[0] & 7;
            f.min(7 - f)
        } else {
            0
        };

        let side = match self.kind {
            Kind::Wdl => {
                if stm_side >= self.parts.len() {
                    return corrupt("the table has one side only but the position needs the other");
                }
                stm_side
            }
            Kind::Dtz => {
                let flags = self.parts[0][file].pairs.flags;
                if usize::from(flags & 1) != stm_side && (self.has_pawns || !self.symmetric) {
                    return Ok(None);
                }
                0
            }
        };
        let part = &self.parts[side][file];
        let layout = &part.layout;

        while filled < self.num {
            let code = layout.pieces[filled] ^ color_flip;
            let start = filled;
            for sq in pieces_of(pos, code) {
                if filled >= self.num {
                    return corrupt("the piece list does not match the position");
                }
                squares[filled] = sq as usize ^ square_flip;
                filled += 1;
            }
            if filled == start {
                return corrupt("the piece list does not match the position");
            }
        }

        let index = if self.has_pawns {
            encode_pawns(&mut squares[..self.num], layout, self.pawns)
        } else {
            encode_pieces(&mut squares[..self.num], layout)
        }?;
        let raw = part.pairs.value(&self.src, index, layout.size)?;

        match self.kind {
            Kind::Wdl => {
                let v = i32::from(raw & 0xff) - 2;
                if !(-2..=2).contains(&v) {
                    return corrupt("a WDL value out of range");
                }
                Ok(Some(v))
            }
            Kind::Dtz => Ok(Some(self.dtz_value(part.pairs.flags, file, raw, wdl)?)),
        }
    }

    fn dtz_value(&self, flags: u8, file: usize, raw: u16, wdl: i32) -> Result<i32> {
        let mut value = u32::from(raw);
        if flags & 2 != 0 {
            // Map slots by WDL -2, -1, 0, 1, 2.
            let slot = [1, 3, 0, 2, 0][(wdl + 2) as usize];
            let at = self.map_start[file][slot] as usize + value as usize;
            value = if flags & 16 == 0 {
                u32::from(*self.map.get(at).ok_or(Fault::Corrupt("a DTZ value outside its map"))?)
            } else {
                let bytes = self.map.get(2 * at..2 * at + 2).ok_or(Fault::Corrupt("a DTZ value outside its map"))?;
                u32::from(u16::from_le_bytes([bytes[0], bytes[1]]))
            };
        }
        let plies = match wdl {
            2 => flags & 4 != 0,
            -2 => flags & 8 != 0,
            _ => false,
        };
        Ok(if plies { value as i32 } else { 2 * value as i32 })
    }
}

/// The squares of the pieces with table code `code`.
fn pieces_of(pos: &Position, code: u8) -> Bitboard {
    match kind_of(code) {
        Some((color, kind)) => pos.pieces_of(color, kind),
        None => Bitboard::EMPTY,
    }
}
