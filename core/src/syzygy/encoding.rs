//! The square tables of the Syzygy index encoding, computed from the geometry they describe
//! rather than written out: symmetry reductions of the board for pawnless tables, the order of
//! leading pawns for tables with pawns, and binomial coefficients.

/// `BINOMIAL[k][n]` = n choose k, for up to 7 pieces on 64 squares.
pub(super) static BINOMIAL: [[u64; 64]; 8] = binomials();

/// Squares of the a1-d1-d4 triangle numbered 0..10: the six below the diagonal in square
/// order, then the four on it; any other square gets the number of its image in the triangle.
pub(super) static TRIANGLE: [u8; 64] = triangle();

/// Squares below the a1-h8 diagonal numbered 0..28 in square order, the diagonal 28..36; a
/// square above it gets its mirror image's number.
pub(super) static LOWER: [u8; 64] = lower();

/// The 462 placements of two kings with the first in the a1-d1-d4 triangle (by its
/// [`TRIANGLE`] number) and the second anywhere not adjacent (and not above the diagonal when
/// the first is on it): those with both on the diagonal come last. `u16::MAX` marks a
/// placement that cannot occur.
pub(super) static KK_INDEX: [[u16; 64]; 10] = kk_index();

/// For a pawn square on files a-d (ranks 2-7): file * 6 + rank - 1, mirrored for files e-h.
pub(super) static FLAP: [u8; 64] = flap();

/// The order of pawn squares: the leading pawn is the one with the greatest value (nearest
/// the edge, then lowest rank, the queen side first); 0..48 over ranks 2-7.
pub(super) static PTWIST: [u8; 64] = ptwist();

/// `LEAD_INDEX[k][j]`: where the placements with the leading pawn on the square of [`FLAP`]
/// number `j` start when `k` more pawns share the leading group; `LEAD_SIZE[k][file]` the
/// count of placements per file of the leading pawn.
pub(super) static LEAD_INDEX: [[u64; 24]; 6] = lead_tables().0;
pub(super) static LEAD_SIZE: [[u64; 4]; 6] = lead_tables().1;

/// The number of placements of the leading group of pawnless tables: three unique pieces, or
/// two kings.
pub(super) const UNIQUE3_SIZE: u64 = 31332;
pub(super) const KK_SIZE: u64 = 462;

const fn rank(sq: usize) -> usize {
    sq >> 3
}

const fn file(sq: usize) -> usize {
    sq & 7
}

/// Rank minus file: negative below the a1-h8 diagonal, 0 on it, positive above.
pub(super) const fn off_diagonal(sq: usize) -> i32 {
    rank(sq) as i32 - file(sq) as i32
}

/// The square mirrored in the a1-h8 diagonal.
pub(super) const fn flip_diagonal(sq: usize) -> usize {
    ((sq >> 3) | (sq << 3)) & 63
}

const fn binomials() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut n = 0;
    while n < 64 {
        table[0][n] = 1;
        let mut k = 1;
        while k < 8 {
            table[k][n] = if n == 0 { 0 } else { table[k - 1][n - 1] + table[k][n - 1] };
            k += 1;
        }
        n += 1;
    }
    table
}

const fn triangle() -> [u8; 64] {
    let mut table = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (mut f, mut r) = (file(sq), rank(sq));
        if f > 3 {
            f = 7 - f;
        }
        if r > 3 {
            r = 7 - r;
        }
        if r > f {
            let t = r;
            r = f;
            f = t;
        }
        // Below the diagonal in square order: b1 c1 d1 (rank 0), c2 d2 (rank 1), d3 (rank 2).
        table[sq] = if r == f {
            6 + f as u8
        } else {
            let row_start = [0, 3, 5][r];
            (row_start + f - r - 1) as u8
        };
        sq += 1;
    }
    table
}

const fn lower() -> [u8; 64] {
    let mut table = [0u8; 64];
    let mut next = 0u8;
    let mut sq = 0;
    while sq < 64 {
        if off_diagonal(sq) < 0 {
            table[sq] = next;
            table[flip_diagonal(sq)] = next;
            next += 1;
        } else if off_diagonal(sq) == 0 {
            table[sq] = 28 + file(sq) as u8;
        }
        sq += 1;
    }
    table
}

const fn adjacent_or_same(a: usize, b: usize) -> bool {
    let df = file(a) as i32 - file(b) as i32;
    let dr = rank(a) as i32 - rank(b) as i32;
    df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

const fn kk_index() -> [[u16; 64]; 10] {
    let mut table = [[u16::MAX; 64]; 10];
    // The triangle squares by their number.
    let mut first = [0usize; 10];
    let mut sq = 0;
    while sq < 64 {
        if file(sq) <= 3 && off_diagonal(sq) <= 0 && rank(sq) <= 3 {
            first[TRIANGLE_CONST[sq] as usize] = sq;
        }
        sq += 1;
    }
    let mut code = 0u16;
    let mut t = 0;
    while t < 10 {
        let k1 = first[t];
        let mut k2 = 0;
        while k2 < 64 {
            let skip = adjacent_or_same(k1, k2) || (off_diagonal(k1) == 0 && off_diagonal(k2) >= 0);
            if !skip {
                table[t][k2] = code;
                code += 1;
            }
            k2 += 1;
        }
        t += 1;
    }
    // Both kings on the diagonal, last.
    t = 0;
    while t < 10 {
        let k1 = first[t];
        if off_diagonal(k1) == 0 {
            let mut k2 = 0;
            while k2 < 64 {
                if !adjacent_or_same(k1, k2) && off_diagonal(k2) == 0 {
                    table[t][k2] = code;
                    code += 1;
                }
                k2 += 1;
            }
        }
        t += 1;
    }
    table
}

const TRIANGLE_CONST: [u8; 64] = triangle();

const fn edge_file(sq: usize) -> usize {
    let f = file(sq);
    if f > 3 {
        7 - f
    } else {
        f
    }
}

const fn flap() -> [u8; 64] {
    let mut table = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        table[sq] = (edge_file(sq) * 6 + rank(sq) - 1) as u8;
        sq += 1;
    }
    table
}

const fn ptwist() -> [u8; 64] {
    let mut table = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let queen_side = if file(sq) <= 3 { 1 } else { 0 };
        table[sq] = (12 * (3 - edge_file(sq)) + 2 * (6 - rank(sq)) + queen_side) as u8;
        sq += 1;
    }
    table
}

const fn lead_tables() -> ([[u64; 24]; 6], [[u64; 4]; 6]) {
    let twist = ptwist();
    let binomial = binomials();
    let mut index = [[0u64; 24]; 6];
    let mut size = [[0u64; 4]; 6];
    let mut k = 0;
    while k < 6 {
        let mut f = 0;
        while f < 4 {
            let mut total = 0u64;
            let mut r = 0;
            while r < 6 {
                let j = f * 6 + r;
                let sq = 8 * (r + 1) + f;
                index[k][j] = total;
                total += binomial[k][twist[sq] as usize];
                r += 1;
            }
            size[k][f] = total;
            f += 1;
        }
        k += 1;
    }
    (index, size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_from_the_geometry() {
        let kk = KK_INDEX.iter().flatten().filter(|&&v| v != u16::MAX).count();
        assert_eq!(kk as u64, KK_SIZE);
        let max = KK_INDEX.iter().flatten().filter(|&&v| v != u16::MAX).max();
        assert_eq!(max, Some(&(KK_SIZE as u16 - 1)));
        assert_eq!(TRIANGLE[1], 0); // b1
        assert_eq!(TRIANGLE[0], 6); // a1
        assert_eq!(TRIANGLE[27], 9); // d4
        assert_eq!(TRIANGLE[62], 0); // g8 maps to b1
        assert_eq!((PTWIST[8], PTWIST[15], PTWIST[52]), (47, 46, 0));
        assert_eq!(LOWER[63], 35);
        // One leading pawn: six placements per file.
        assert_eq!(LEAD_SIZE[0], [6, 6, 6, 6]);
    }
}
