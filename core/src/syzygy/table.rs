//! One Syzygy table file: its header read into memory, a position's index computed, and the
//! value at that index decompressed from its block.
//!
//! Every number read from the file is checked before it is used as an offset, a length or an
//! index, so a damaged or truncated file is a [`Fault`], never a read out of bounds.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

use super::encoding::{
    flip_diagonal, off_diagonal, BINOMIAL, FLAP, KK_INDEX, KK_SIZE, LEAD_INDEX, LEAD_SIZE, LOWER, PTWIST, TRIANGLE,
    UNIQUE3_SIZE,
};
use super::material::Material;
use crate::{Bitboard, Color, PieceKind, Position};

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

    fn u16(&self, src: &Source, at: u64) -> Result<u16> {
        let mut b = [0; 2];
        self.read(src, at, &mut b)?;
        Ok(u16::from_le_bytes(b))
    }
}

/// The Huffman-like code of one sub-table and where its blocks are.
struct Pairs {
    /// The flags byte (for DTZ tables: side to move, value map, plies or moves).
    flags: u8,
    /// Every position has this value.
    single: Option<u16>,
    block_bits: u32,
    index_bits: u32,
    min_len: u32,
    /// Symbols of each code length from `min_len` on.
    offsets: Vec<u16>,
    /// The smallest left-aligned code of each length.
    base: Vec<u64>,
    /// For each top byte of a code, the first length whose codes can start with it: where the
    /// search for a code's length begins.
    first: [u8; 256],
    /// How many values each symbol stands for, less one.
    symlen: Vec<u32>,
    /// Three bytes per symbol: two 12-bit halves, a leaf when the second is 0xfff.
    sympat: Vec<u8>,
    num_indices: u64,
    num_blocks: u64,
    real_blocks: u64,
    index: Region,
    sizes: Region,
    data: u64,
}

/// Sizes of the three areas a [`Pairs`] points into: index, block sizes, blocks.
#[derive(Default, Clone, Copy)]
struct Areas {
    index: u64,
    sizes: u64,
    data: u64,
}

/// The piece order and index factors of one sub-table.
struct Layout {
    /// Piece codes (kind 1..6 pawn..king, 8 for black), in the table's order.
    pieces: [u8; 7],
    /// Group sizes: `norm[i]` pieces from `i` on are encoded together.
    norm: [u8; 7],
    factor: [u64; 7],
    size: u64,
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
    pub(super) key: Material,
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
        Ok(Table { src, kind, key, symmetric, has_pawns, pawns, num, parts, map, map_start })
    }

    /// The table's value for `pos`, whose `material` is this table's in either colour: for a
    /// WDL table -2..=2 from the side to move; for a DTZ table the distance in plies (given
    /// the position's WDL value `wdl`), or `None` when the table is stored for the other side
    /// to move.
    pub(super) fn probe(&self, pos: &Position, material: Material, wdl: i32) -> Result<Option<i32>> {
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

/// Groups of identical pieces after the first `lead` pieces: `norm[i]` is the size of the
/// group starting at `i`; each piece code must form one group.
fn group(pieces: &[u8; 7], num: usize, norm: &mut [u8; 7], lead: usize) -> Result<()> {
    let mut i = lead;
    while i < num {
        let mut j = i;
        while j < num && pieces[j] == pieces[i] {
            j += 1;
        }
        if pieces[..i].contains(&pieces[i]) && i >= lead {
            return corrupt("a piece kind is split between groups");
        }
        norm[i] = (j - i) as u8;
        i = j;
    }
    Ok(())
}

fn piece_layout(pieces: [u8; 7], num: usize, order: u8) -> Result<Layout> {
    let material = Material::from_codes(&pieces[..num]).ok_or(Fault::Corrupt("invalid piece code"))?;
    // Three unique pieces lead when there are three; otherwise the two kings.
    let lead = if material.unique_pieces() >= 3 { 3 } else { 2 };
    if num < lead {
        return corrupt("too few pieces");
    }
    let mut norm = [0u8; 7];
    norm[0] = lead as u8;
    group(&pieces, num, &mut norm, lead)?;
    let lead_size = if lead == 3 { UNIQUE3_SIZE } else { KK_SIZE };
    let (factor, size) = factors(&norm, num, lead, order, 15, lead_size, 0, 64 - lead as u64)?;
    Ok(Layout { pieces, norm, factor, size })
}

fn pawn_layout(pieces: [u8; 7], num: usize, pawns: [u8; 2], order: u8, order2: u8, file: usize) -> Result<Layout> {
    let (p0, p1) = (usize::from(pawns[0]), usize::from(pawns[1]));
    if p0 == 0 || p0 + p1 > num || kind_of(pieces[0]).map(|k| k.1) != Some(PieceKind::Pawn) {
        return corrupt("the leading pawns are not first");
    }
    if pieces[1..p0].iter().any(|&c| c != pieces[0]) || pieces[p0..p0 + p1].iter().any(|&c| c != (pieces[0] ^ 8)) {
        return corrupt("the pawns are not first");
    }
    let mut norm = [0u8; 7];
    norm[0] = p0 as u8;
    if p1 > 0 {
        norm[p0] = p1 as u8;
    }
    group(&pieces, num, &mut norm, p0 + p1)?;
    let second = if p1 > 0 { BINOMIAL[p1][48 - p0] } else { 0 };
    let lead_size = LEAD_SIZE[p0 - 1][file];
    let (factor, size) = factors(
        &norm,
        num,
        p0 + p1,
        order,
        if p1 > 0 { order2 } else { 15 },
        lead_size,
        second,
        64 - (p0 + p1) as u64,
    )?;
    Ok(Layout { pieces, norm, factor, size })
}

/// The factor of each group and the table size: the groups are weighted in the order the
/// header gives (`order` places the leading group, `order2` the second pawn group).
#[allow(clippy::too_many_arguments)]
fn factors(
    norm: &[u8; 7],
    num: usize,
    start: usize,
    order: u8,
    order2: u8,
    lead_size: u64,
    second_size: u64,
    mut free: u64,
) -> Result<([u64; 7], u64)> {
    let mut factor = [0u64; 7];
    let mut f: u64 = 1;
    let mut i = start;
    let mut k = 0u8;
    let mut placed = (false, order2 == 15);
    while i < num || k == order || k == order2 {
        let n = if k == order {
            factor[0] = f;
            placed.0 = true;
            lead_size
        } else if k == order2 {
            factor[usize::from(norm[0])] = f;
            placed.1 = true;
            second_size
        } else {
            factor[i] = f;
            let g = usize::from(norm[i]);
            let n = BINOMIAL[g][free as usize];
            free -= g as u64;
            i += g;
            n
        };
        f = f.checked_mul(n).ok_or(Fault::Corrupt("table size overflows"))?;
        k += 1;
    }
    if !(placed.0 && placed.1) {
        return corrupt("the group order is out of range");
    }
    Ok((factor, f))
}

/// Sorts `squares` and returns the rank of the set among sets of its size, counting only
/// squares not taken by `before`, less `shift`.
fn combination(squares: &mut [usize], before: &[usize], shift: usize) -> Result<u64> {
    squares.sort_unstable();
    let mut s = 0u64;
    for (m, &p) in squares.iter().enumerate() {
        let taken = before.iter().filter(|&&q| p > q).count();
        let n = p.checked_sub(taken + shift).ok_or(Fault::Corrupt("a square outside the encoding"))?;
        s += BINOMIAL[m + 1][n];
    }
    Ok(s)
}

fn encode_rest(squares: &mut [usize], layout: &Layout, mut i: usize, mut index: u64) -> Result<u64> {
    while i < squares.len() {
        let t = usize::from(layout.norm[i]);
        if t == 0 {
            return corrupt("an empty piece group");
        }
        let (before, rest) = squares.split_at_mut(i);
        let s = combination(&mut rest[..t], before, 0)?;
        index = s.checked_mul(layout.factor[i]).and_then(|v| v.checked_add(index)).ok_or(Fault::Corrupt("index"))?;
        i += t;
    }
    Ok(index)
}

fn encode_pieces(sq: &mut [usize], layout: &Layout) -> Result<u64> {
    if sq[0] & 4 != 0 {
        sq.iter_mut().for_each(|s| *s ^= 7);
    }
    if sq[0] & 32 != 0 {
        sq.iter_mut().for_each(|s| *s ^= 56);
    }
    let lead = usize::from(layout.norm[0]);
    // The first leading piece off the diagonal goes below it.
    if let Some(i) = (0..lead).find(|&i| off_diagonal(sq[i]) != 0) {
        if off_diagonal(sq[i]) > 0 {
            sq.iter_mut().for_each(|s| *s = flip_diagonal(*s));
        }
    }
    let index = if lead == 3 {
        let a1 = usize::from(sq[1] > sq[0]);
        let a2 = usize::from(sq[2] > sq[0]) + usize::from(sq[2] > sq[1]);
        let rank = |s: usize| s >> 3;
        (if off_diagonal(sq[0]) != 0 {
            (usize::from(TRIANGLE[sq[0]]) * 63 + sq[1] - a1) * 62 + sq[2] - a2
        } else if off_diagonal(sq[1]) != 0 {
            (6 * 63 + rank(sq[0]) * 28 + usize::from(LOWER[sq[1]])) * 62 + sq[2] - a2
        } else if off_diagonal(sq[2]) != 0 {
            6 * 63 * 62 + 4 * 28 * 62 + rank(sq[0]) * 7 * 28 + (rank(sq[1]) - a1) * 28 + usize::from(LOWER[sq[2]])
        } else {
            6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + rank(sq[0]) * 7 * 6 + (rank(sq[1]) - a1) * 6 + rank(sq[2]) - a2
        }) as u64
    } else {
        let v = KK_INDEX[usize::from(TRIANGLE[sq[0]])][sq[1]];
        if v == u16::MAX {
            return corrupt("the leading pieces cannot stand there");
        }
        u64::from(v)
    };
    encode_rest(sq, layout, lead, index.checked_mul(layout.factor[0]).ok_or(Fault::Corrupt("index"))?)
}

fn encode_pawns(sq: &mut [usize], layout: &Layout, pawns: [u8; 2]) -> Result<u64> {
    if sq[0] & 4 != 0 {
        sq.iter_mut().for_each(|s| *s ^= 7);
    }
    let p0 = usize::from(pawns[0]);
    // The other leading pawns by decreasing twist.
    sq[1..p0].sort_unstable_by(|a, b| PTWIST[*b].cmp(&PTWIST[*a]));
    let t = p0 - 1;
    let mut index = LEAD_INDEX[t][usize::from(FLAP[sq[0]])];
    for i in 1..p0 {
        index += BINOMIAL[t - i + 1][usize::from(PTWIST[sq[i]])];
    }
    index = index.checked_mul(layout.factor[0]).ok_or(Fault::Corrupt("index"))?;
    let mut i = p0;
    let p1 = usize::from(pawns[1]);
    if p1 > 0 {
        let (before, rest) = sq.split_at_mut(i);
        let s = combination(&mut rest[..p1], before, 8)?;
        index = s.checked_mul(layout.factor[i]).and_then(|v| v.checked_add(index)).ok_or(Fault::Corrupt("index"))?;
        i += p1;
    }
    encode_rest(sq, layout, i, index)
}

/// Reads a code description at the cursor; returns it with the sizes of its three areas.
fn read_pairs(h: &mut Header, size: u64, kind: Kind) -> Result<(Pairs, Areas)> {
    let flags = h.byte()?;
    let empty = || Region { offset: 0, cached: None };
    if flags & 0x80 != 0 {
        let v = h.byte()?;
        let single = if kind == Kind::Wdl { u16::from(v) } else { 0 };
        let pairs = Pairs {
            flags,
            single: Some(single),
            block_bits: 0,
            index_bits: 0,
            min_len: 0,
            offsets: Vec::new(),
            base: Vec::new(),
            first: [0; 256],
            symlen: Vec::new(),
            sympat: Vec::new(),
            num_indices: 0,
            num_blocks: 0,
            real_blocks: 0,
            index: empty(),
            sizes: empty(),
            data: 0,
        };
        return Ok((pairs, Areas::default()));
    }
    let head = h.take(9)?;
    let block_bits = u32::from(head[0]);
    let index_bits = u32::from(head[1]);
    let real_blocks = u64::from(u32::from_le_bytes([head[3], head[4], head[5], head[6]]));
    let num_blocks = real_blocks + u64::from(head[2]);
    let (max_len, min_len) = (u32::from(head[7]), u32::from(head[8]));
    if !(1..=32).contains(&index_bits) || block_bits > 30 || min_len == 0 || max_len < min_len || max_len > 32 {
        return corrupt("invalid code parameters");
    }
    let h_len = (max_len - min_len + 1) as usize;
    let raw = h.take(2 * h_len as u64 + 2)?;
    let mut offsets = room(h_len)?;
    offsets.extend(raw[..2 * h_len].chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])));
    let num_syms = usize::from(u16::from_le_bytes([raw[2 * h_len], raw[2 * h_len + 1]]));
    if num_syms == 0 || num_syms > 4096 {
        return corrupt("invalid symbol count");
    }
    let sympat = h.take(3 * num_syms as u64)?;
    h.pos += (num_syms & 1) as u64;

    let symlen = symbol_lengths(&sympat, num_syms)?;
    let mut base = filled(0u64, h_len)?;
    for i in (0..h_len - 1).rev() {
        base[i] = base[i + 1].wrapping_add(u64::from(offsets[i])).wrapping_sub(u64::from(offsets[i + 1])) / 2;
    }
    for (i, b) in base.iter_mut().enumerate() {
        *b = b.checked_shl(64 - (min_len + i as u32)).unwrap_or(0);
    }
    let mut first = [0u8; 256];
    for (top, k) in first.iter_mut().enumerate() {
        // Lengths before this one have their smallest code above every code with this top byte.
        let highest = (top as u64) << 56 | ((1 << 56) - 1);
        *k = base.iter().position(|&b| b <= highest).unwrap_or(h_len - 1) as u8;
    }
    let num_indices = size.div_ceil(1 << index_bits);
    let areas = Areas {
        index: 6 * num_indices,
        sizes: 2 * num_blocks,
        data: real_blocks
            .checked_shl(block_bits)
            .filter(|d| d >> block_bits == real_blocks)
            .ok_or(Fault::Corrupt("too many blocks"))?,
    };
    let pairs = Pairs {
        flags,
        single: None,
        block_bits,
        index_bits,
        min_len,
        offsets,
        base,
        first,
        symlen,
        sympat,
        num_indices,
        num_blocks,
        real_blocks,
        index: empty(),
        sizes: empty(),
        data: 0,
    };
    Ok((pairs, areas))
}

fn halves(sympat: &[u8], sym: usize) -> (usize, usize) {
    let w = &sympat[3 * sym..3 * sym + 3];
    (usize::from(w[0]) | usize::from(w[1] & 15) << 8, usize::from(w[1] >> 4) | usize::from(w[2]) << 4)
}

/// How many values each symbol expands to, less one; a symbol that refers to itself or out of
/// range is a corrupt file.
fn symbol_lengths(sympat: &[u8], n: usize) -> Result<Vec<u32>> {
    const TODO: u8 = 0;
    const BUSY: u8 = 1;
    const DONE: u8 = 2;
    let mut len = filled(0u32, n)?;
    let mut state = filled(TODO, n)?;
    // Each symbol pushes its two halves at most once, and each is a root once.
    let mut stack = room(3 * n)?;
    for root in 0..n {
        if state[root] == DONE {
            continue;
        }
        stack.push(root);
        while let Some(&s) = stack.last() {
            let (left, right) = halves(sympat, s);
            if right == 0xfff {
                len[s] = 0;
                state[s] = DONE;
                stack.pop();
                continue;
            }
            if left >= n || right >= n {
                return corrupt("a symbol refers to no symbol");
            }
            state[s] = BUSY;
            let mut pending = false;
            for child in [left, right] {
                match state[child] {
                    DONE => {}
                    BUSY => return corrupt("a symbol contains itself"),
                    _ if stack.len() == stack.capacity() => return corrupt("symbols nested too deep"),
                    _ => {
                        stack.push(child);
                        pending = true;
                    }
                }
            }
            if !pending {
                len[s] = len[left]
                    .checked_add(len[right])
                    .and_then(|v| v.checked_add(1))
                    .ok_or(Fault::Corrupt("a symbol too long"))?;
                state[s] = DONE;
                stack.pop();
            }
        }
    }
    Ok(len)
}

/// The big-endian 32-bit word at `pos` of a block, zeros past its end.
#[inline(always)]
fn word(block: &[u8], pos: usize) -> u64 {
    match block.get(pos..pos + 4) {
        Some(b) => u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]])),
        None => (0..4).fold(0, |v, k| v << 8 | u64::from(block.get(pos + k).copied().unwrap_or(0))),
    }
}

impl Pairs {
    /// The value at `index` of a sub-table of `size` positions.
    fn value(&self, src: &Source, index: u64, size: u64) -> Result<u16> {
        if let Some(v) = self.single {
            return Ok(v);
        }
        if index >= size {
            return corrupt("index out of range");
        }
        let main = index >> self.index_bits;
        if main >= self.num_indices {
            return corrupt("index out of range");
        }
        let mut entry = [0u8; 6];
        self.index.read(src, 6 * main, &mut entry)?;
        let mut block = u64::from(u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]));
        let mut lit = (index & ((1 << self.index_bits) - 1)) as i64 - (1i64 << (self.index_bits - 1))
            + i64::from(u16::from_le_bytes([entry[4], entry[5]]));
        if block >= self.num_blocks {
            return corrupt("block out of range");
        }
        if lit < 0 {
            while lit < 0 {
                if block == 0 {
                    return corrupt("block out of range");
                }
                block -= 1;
                lit += i64::from(self.sizes.u16(src, 2 * block)?) + 1;
            }
        } else {
            loop {
                let n = i64::from(self.sizes.u16(src, 2 * block)?);
                if lit <= n {
                    break;
                }
                lit -= n + 1;
                block += 1;
                if block >= self.num_blocks {
                    return corrupt("block out of range");
                }
            }
        }
        if block >= self.real_blocks {
            return corrupt("block out of range");
        }
        let block_len = 1usize << self.block_bits;
        let offset = self.data + (block << self.block_bits);
        match src {
            Source::Map(map) => {
                let bytes = usize::try_from(offset)
                    .ok()
                    .and_then(|start| map.get(start..start + block_len))
                    .ok_or(Fault::Corrupt("the file is shorter than its header says"))?;
                self.decode(bytes, lit as u64)
            }
            Source::File(_) => {
                let mut stack = [0u8; 1024];
                if block_len <= stack.len() {
                    src.read_at(offset, &mut stack[..block_len])?;
                    self.decode(&stack[..block_len], lit as u64)
                } else {
                    let bytes = src.bytes(offset, block_len as u64)?;
                    self.decode(&bytes, lit as u64)
                }
            }
        }
    }

    /// The `lit`-th value of a block. Each step passes at least one value, so a damaged block
    /// ends the loop too (reading zeros past its end).
    fn decode(&self, block: &[u8], mut lit: u64) -> Result<u16> {
        let (base, offsets, symlen) = (&self.base[..], &self.offsets[..], &self.symlen[..]);
        let last = base.len() - 1;
        let mut code = word(block, 0) << 32 | word(block, 4);
        let mut pos = 8;
        let mut spent = 0u32;
        let mut sym;
        loop {
            let mut k = usize::from(self.first[(code >> 56) as usize]);
            while k < last && code < base[k] {
                k += 1;
            }
            let len = self.min_len + k as u32;
            sym = usize::from(offsets[k]) + ((code - base[k]) >> (64 - len)) as usize;
            let n = u64::from(*symlen.get(sym).ok_or(Fault::Corrupt("a code outside the symbols"))?) + 1;
            if lit < n {
                break;
            }
            lit -= n;
            code <<= len;
            spent += len;
            if spent >= 32 {
                spent -= 32;
                code |= word(block, pos) << spent;
                pos += 4;
            }
        }
        while self.symlen[sym] != 0 {
            let (left, right) = halves(&self.sympat, sym);
            let n = u64::from(self.symlen[left]) + 1;
            if lit < n {
                sym = left;
            } else {
                lit -= n;
                sym = right;
            }
        }
        let (value, _) = halves(&self.sympat, sym);
        Ok(value as u16)
    }
}
