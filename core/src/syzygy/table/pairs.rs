//! The pair-encoded values of a sub-table: the Huffman-like code read from the header, and a
//! value decoded from its block.

use super::{corrupt, filled, room, Fault, Header, Kind, Region, Result, Source};

/// Bits of a code read at once when skipping the symbols before a value: a byte (wider tables
/// were slower, by cache misses).
const WINDOW: u32 = 8;

/// The whole symbols that one value of a code's top [`WINDOW`] bits begins with.
#[derive(Clone, Copy)]
pub(super) struct Skip {
    /// The values they stand for; `u32::MAX` when no symbol fits in the window.
    values: u32,
    /// Their code bits.
    bits: u8,
}

impl Skip {
    /// No symbol whole in the window: the walk reads one symbol.
    const NONE: Skip = Skip { values: u32::MAX, bits: 0 };
}

/// The Huffman-like code of one sub-table and where its blocks are.
pub(super) struct Pairs {
    /// The flags byte (for DTZ tables: side to move, value map, plies or moves).
    pub(super) flags: u8,
    /// Every position has this value.
    pub(super) single: Option<u16>,
    pub(super) block_bits: u32,
    pub(super) index_bits: u32,
    pub(super) min_len: u32,
    /// Symbols of each code length from `min_len` on.
    pub(super) offsets: Vec<u16>,
    /// The smallest left-aligned code of each length.
    pub(super) base: Vec<u64>,
    /// For each top byte of a code, the first length whose codes can start with it: where the
    /// search for a code's length begins.
    pub(super) first: [u8; 256],
    /// For each value of a code's top [`WINDOW`] bits, the symbols it holds whole: a block is
    /// walked a window at a time until the wanted value's symbol is in it (most codes are a
    /// bit or two long).
    pub(super) skip: [Skip; 1 << WINDOW],
    /// How many values each symbol stands for, less one.
    pub(super) symlen: Vec<u32>,
    /// Three bytes per symbol: two 12-bit halves, a leaf when the second is 0xfff.
    pub(super) sympat: Vec<u8>,
    pub(super) num_indices: u64,
    pub(super) num_blocks: u64,
    pub(super) real_blocks: u64,
    pub(super) index: Region,
    pub(super) sizes: Region,
    pub(super) data: u64,
}

/// Sizes of the three areas a [`Pairs`] points into: index, block sizes, blocks.
#[derive(Default, Clone, Copy)]
pub(super) struct Areas {
    pub(super) index: u64,
    pub(super) sizes: u64,
    pub(super) data: u64,
}

/// Reads a code description at the cursor; returns it with the sizes of its three areas.
pub(super) fn read_pairs(h: &mut Header, size: u64, kind: Kind) -> Result<(Pairs, Areas)> {
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
            skip: [Skip::NONE; 1 << WINDOW],
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
    let mut pairs = Pairs {
        flags,
        single: None,
        block_bits,
        index_bits,
        min_len,
        offsets,
        base,
        first,
        skip: [Skip::NONE; 1 << WINDOW],
        symlen,
        sympat,
        num_indices: size.div_ceil(1 << index_bits),
        num_blocks,
        real_blocks,
        index: empty(),
        sizes: empty(),
        data: 0,
    };
    for top in 0..1 << WINDOW {
        pairs.skip[top] = pairs.whole_symbols((top as u64) << (64 - WINDOW));
    }
    let areas = Areas {
        index: 6 * pairs.num_indices,
        sizes: 2 * num_blocks,
        data: real_blocks
            .checked_shl(block_bits)
            .filter(|d| d >> block_bits == real_blocks)
            .ok_or(Fault::Corrupt("too many blocks"))?,
    };
    Ok((pairs, areas))
}

pub(super) fn halves(sympat: &[u8], sym: usize) -> (usize, usize) {
    let w = &sympat[3 * sym..3 * sym + 3];
    (usize::from(w[0]) | usize::from(w[1] & 15) << 8, usize::from(w[1] >> 4) | usize::from(w[2]) << 4)
}

/// How many values each symbol expands to, less one; a symbol that refers to itself or out of
/// range is a corrupt file.
pub(super) fn symbol_lengths(sympat: &[u8], n: usize) -> Result<Vec<u32>> {
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
pub(super) fn word(block: &[u8], pos: usize) -> u64 {
    match block.get(pos..pos + 4) {
        Some(b) => u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]])),
        None => (0..4).fold(0, |v, k| v << 8 | u64::from(block.get(pos + k).copied().unwrap_or(0))),
    }
}

impl Pairs {
    /// The value at `index` of a sub-table of `size` positions.
    pub(super) fn value(&self, src: &Source, index: u64, size: u64) -> Result<u16> {
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

    /// The length and the symbol of the code at the top of `code`. The length depends on the
    /// code's own bits alone (each length's smallest code is left-aligned), so a code whose
    /// length fits in a window is read right whatever follows it.
    #[inline(always)]
    fn symbol(&self, code: u64) -> (u32, usize) {
        let last = self.base.len() - 1;
        let mut k = usize::from(self.first[(code >> 56) as usize]);
        while k < last && code < self.base[k] {
            k += 1;
        }
        let len = self.min_len + k as u32;
        (len, usize::from(self.offsets[k]) + ((code - self.base[k]) >> (64 - len)) as usize)
    }

    /// The symbols that `window` (a code's top [`WINDOW`] bits, zeros below) holds whole.
    fn whole_symbols(&self, mut window: u64) -> Skip {
        let (mut values, mut bits) = (0u64, 0u32);
        loop {
            let (len, sym) = self.symbol(window);
            let Some(&n) = self.symlen.get(sym) else { break };
            if bits + len > WINDOW {
                break;
            }
            values += u64::from(n) + 1;
            bits += len;
            window <<= len;
        }
        if bits == 0 {
            return Skip::NONE;
        }
        Skip { values: values.min(u64::from(u32::MAX - 1)) as u32, bits: bits as u8 }
    }

    /// The `lit`-th value of a block. Each step passes at least one value, so a damaged block
    /// ends the loop too (reading zeros past its end).
    fn decode(&self, block: &[u8], mut lit: u64) -> Result<u16> {
        let mut code = word(block, 0) << 32 | word(block, 4);
        let mut pos = 8;
        let mut spent = 0u32;
        let mut sym;
        loop {
            let skip = self.skip[(code >> (64 - WINDOW)) as usize];
            let len = if lit >= u64::from(skip.values) {
                lit -= u64::from(skip.values);
                u32::from(skip.bits)
            } else {
                let len;
                (len, sym) = self.symbol(code);
                let n = u64::from(*self.symlen.get(sym).ok_or(Fault::Corrupt("a code outside the symbols"))?) + 1;
                if lit < n {
                    break;
                }
                lit -= n;
                len
            };
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

#[cfg(test)]
mod tests {
    use super::super::{Kind, Source, Table};
    use super::{Skip, WINDOW};
    use crate::Material;
    use chesscore_test_support as common;

    /// Values of a sample of each block's positions: every value of small blocks, about 300
    /// spread over large ones (a value costs a walk from the block's start).
    fn sampled_values(table: &Table) -> Vec<u16> {
        let mut values = Vec::new();
        for part in table.parts.iter().flatten() {
            let pairs = &part.pairs;
            if pairs.single.is_some() {
                continue;
            }
            for block in 0..pairs.real_blocks.min(40) {
                let bytes = table.src.bytes(pairs.data + (block << pairs.block_bits), 1 << pairs.block_bits).unwrap();
                let count = u64::from(pairs.sizes.u16(&table.src, 2 * block).unwrap()) + 1;
                for lit in (0..count).step_by((count / 300).max(1) as usize).chain([count - 1]) {
                    values.push(pairs.decode(&bytes, lit).unwrap());
                }
            }
        }
        values
    }

    #[test]
    fn skipping_whole_symbols_reads_the_values_read_one_symbol_at_a_time() {
        let Some(dir) = common::shared_testdata("syzygy: the block walk") else { return };
        for (name, ext, kind) in
            [("KRPvKR", "rtbw", Kind::Wdl), ("KRPvKR", "rtbz", Kind::Dtz), ("KPvKP", "rtbw", Kind::Wdl)]
        {
            let file = std::fs::File::open(dir.join(format!("syzygy/{name}.{ext}"))).unwrap();
            let len = file.metadata().unwrap().len();
            let material: Material = name.parse().unwrap();
            let mut table = Table::open(Source::File(file), len, kind, material).unwrap();
            let skipping = sampled_values(&table);
            // Every window then holds no whole symbol: the walk reads one symbol at a time.
            for part in table.parts.iter_mut().flatten() {
                part.pairs.skip = [Skip::NONE; 1 << WINDOW];
            }
            let one_by_one = sampled_values(&table);
            assert!(skipping.len() > 1000, "{name}.{ext}: {} values", skipping.len());
            assert_eq!(skipping, one_by_one, "{name}.{ext}");
        }
    }
}
