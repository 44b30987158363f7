//! A position's index in a sub-table: the pieces grouped and ordered as the table lists
//! them, and each group's squares encoded as a combination.

use super::{corrupt, kind_of, Fault, Result};
use crate::syzygy::encoding::{
    flip_diagonal, off_diagonal, BINOMIAL, FLAP, KK_INDEX, KK_SIZE, LEAD_INDEX, LEAD_SIZE, LOWER, PTWIST, TRIANGLE,
    UNIQUE3_SIZE,
};
use crate::Material;
use crate::PieceKind;

/// The piece order and index factors of one sub-table.
pub(super) struct Layout {
    /// Piece codes (kind 1..6 pawn..king, 8 for black), in the table's order.
    pub(super) pieces: [u8; 7],
    /// Group sizes: `norm[i]` pieces from `i` on are encoded together.
    pub(super) norm: [u8; 7],
    pub(super) factor: [u64; 7],
    pub(super) size: u64,
}

/// Groups of identical pieces after the first `lead` pieces: `norm[i]` is the size of the
/// group starting at `i`; each piece code must form one group.
pub(super) fn group(pieces: &[u8; 7], num: usize, norm: &mut [u8; 7], lead: usize) -> Result<()> {
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

pub(super) fn piece_layout(pieces: [u8; 7], num: usize, order: u8) -> Result<Layout> {
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

pub(super) fn pawn_layout(
    pieces: [u8; 7],
    num: usize,
    pawns: [u8; 2],
    order: u8,
    order2: u8,
    file: usize,
) -> Result<Layout> {
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
pub(super) fn factors(
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
pub(super) fn combination(squares: &mut [usize], before: &[usize], shift: usize) -> Result<u64> {
    squares.sort_unstable();
    let mut s = 0u64;
    for (m, &p) in squares.iter().enumerate() {
        let taken = before.iter().filter(|&&q| p > q).count();
        let n = p.checked_sub(taken + shift).ok_or(Fault::Corrupt("a square outside the encoding"))?;
        s += BINOMIAL[m + 1][n];
    }
    Ok(s)
}

pub(super) fn encode_rest(squares: &mut [usize], layout: &Layout, mut i: usize, mut index: u64) -> Result<u64> {
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

pub(super) fn encode_pieces(sq: &mut [usize], layout: &Layout) -> Result<u64> {
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

pub(super) fn encode_pawns(sq: &mut [usize], layout: &Layout, pawns: [u8; 2]) -> Result<u64> {
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
