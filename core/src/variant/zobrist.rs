//! Zobrist keys of variant positions, as shakmaty's 64-bit keys compute them: the Polyglot key of
//! the board, castling rights, en passant file and side to move (the chess key,
//! [`Position::zobrist`](crate::Position::zobrist)), then for crazyhouse one key per promoted
//! piece's square and, for each side and kind, the keys of the set bits of its pocket count, and
//! for three-check the keys of the set bits of the number of checks each side has given. Lichess
//! (scalachess) hashes the same way with the upper halves of these constants, but for three-check,
//! where it hashes the checks each side has received with that side's keys. The variant itself is
//! not hashed: the start positions of chess, crazyhouse and three-check share a key.
//!
//! The extra constants are the first 64 bits of the 128-bit ones of scalachess's
//! `src/main/scala/Hash.scala` (commit df6b6526, "Copyright (c) 2012-2014 Thibault Duplessis",
//! MIT licence), laid out in the order scalachess's later 32-bit tables (their upper halves)
//! read them.

use crate::board::color::Color;

use super::VariantPosition;

/// Three-check: per side (White, Black), the keys of bits 0 and 1 of the checks given.
const THREE_CHECK: [[u64; 2]; 2] =
    [[0x803f_5fb0_d2f9_7fae, 0xb183_ccc9_e73d_f9ed], [0x1d6d_c0ee_61ce_803e, 0xc628_4b65_3d38_e96a]];
/// Crazyhouse: the key of a promoted piece on each square, a1 to h8.
const PROMOTED: [u64; 64] = [
    0x2f99_00cc_2b7a_19ca,
    0xf752_35be_b018_86d3,
    0x8ae7_e298_89ac_9964,
    0xad30_091c_e7cb_4204,
    0xaae1_1877_3ddd_4e4d,
    0x8ec5_14ce_4736_aa07,
    0x26a4_12bd_8cef_4f15,
    0x1bdc_e26b_d9af_059f,
    0xea5f_4ade_5acc_0516,
    0x69ab_7ebc_0765_0565,
    0x3e65_5f89_5a18_8a1c,
    0xf394_f688_2a11_4d65,
    0x3173_cfa2_be5b_d4d3,
    0x434d_20d2_ca00_ae71,
    0x3ba2_97f7_3d33_8c93,
    0x099b_a1b0_205a_5ea5,
    0xc49f_050b_5e1c_5653,
    0xe14e_ec50_a9c6_90e8,
    0x2571_cc79_f4ce_0169,
    0xde0f_98d6_002f_4323,
    0x0682_220b_02e5_c3e8,
    0xcb90_0d3a_6b38_c39d,
    0x2462_0fbf_09d5_0d66,
    0x0f40_a9b2_781a_119d,
    0x83c6_980d_f0d0_4932,
    0xab6f_9af7_20cb_5df4,
    0x1c90_6974_166e_e8d4,
    0x9c1b_a3db_0784_ebda,
    0x81a1_9098_d16a_a929,
    0xfce5_6173_c63c_cefd,
    0x43cb_7aa2_0c62_09c2,
    0x7e96_e2ae_8692_4bab,
    0x0186_0725_034b_0fef,
    0xf74d_3690_66ec_4e96,
    0x1ae9_962c_6e0d_1232,
    0x5d66_fa46_5ccf_c560,
    0xe9c1_3ae1_fc36_afaa,
    0xcaec_4035_fb84_0be4,
    0x839d_28ad_afad_0f8f,
    0xe470_3b6e_3042_2003,
    0x1e2f_d5b2_827d_5e43,
    0x96f1_e8d8_b94b_d960,
    0x90f2_075c_3f43_960c,
    0xc48e_0774_c4f9_134f,
    0xf17e_5f6a_2cb0_00c7,
    0x6248_409b_f55a_4925,
    0x967b_d94e_b305_05cc,
    0xe91e_8985_3f9e_844f,
    0xb841_038e_2419_3f08,
    0x46f3_b25c_ae82_a6cc,
    0x3e97_e042_449e_3ed5,
    0x868a_166a_f46d_cbd2,
    0xf71b_e788_b3fd_1a7a,
    0xcb6d_6541_0533_cc37,
    0x7e30_d705_59ef_aedc,
    0x32db_0f5c_a181_59ce,
    0x97a9_116e_8742_28c5,
    0x85ee_68ee_3a17_5297,
    0x076a_1417_0b40_9e2a,
    0xbad4_9d47_dc95_855b,
    0x6361_87d9_4ded_991e,
    0x962e_5097_1f09_cfab,
    0x8f16_c910_d677_6589,
    0x7e3d_e4bf_bef5_566f,
];

/// Crazyhouse: per side (White, Black) and kind (pawn to queen), the keys of bits 0 to 6 of the
/// number of pieces in the pocket.
const POCKET: [[[u64; 7]; 5]; 2] = [
    [
        [
            0x9b25_3f89_247c_4c1d,
            0x1e70_1e2a_73f9_dc4b,
            0xcdf3_51b2_89aa_5a84,
            0x2e4e_118f_c45f_dc0d,
            0x8024_7d70_885a_d5ce,
            0x0a99_dccf_ce31_6ca0,
            0xb555_3435_dae7_6840,
        ],
        [
            0xee56_2004_d5d1_4158,
            0x551b_5fa3_ec71_66a2,
            0x2dbb_493c_6e9f_ec06,
            0xf06b_4c65_f4bb_14a1,
            0x5f0b_44d9_8013_acb9,
            0xce7d_bafa_734b_ba8a,
            0xe009_c0e3_55a7_7913,
        ],
        [
            0x2191_8f47_3cb6_decf,
            0xdcf1_1e80_dc14_763f,
            0x7ac2_1357_500f_b0c6,
            0x28ab_e0a3_761e_326c,
            0x30b8_e3da_17d3_4c6e,
            0xd999_d38f_fa5d_771e,
            0x8a7e_0d13_67d7_0b28,
        ],
        [
            0x9157_bfe7_ac07_1796,
            0xadda_94b2_1edd_779a,
            0x6f55_5cf7_856f_0d63,
            0x5b2a_5b27_88ad_c947,
            0x500c_782c_8c56_2a42,
            0x20f8_b3f7_059d_8884,
            0x79c8_90ed_3e95_f3f4,
        ],
        [
            0xe64d_bd47_4ddc_f8ca,
            0xa949_66fb_f7f2_70d5,
            0x2473_b4e6_ad9f_aa9a,
            0x98ab_df9f_a4b4_87e6,
            0x75fa_1ecb_0717_029a,
            0xf605_3757_646a_08ba,
            0x060e_2788_d998_13aa,
        ],
    ],
    [
        [
            0xb262_e9f9_d612_3320,
            0x9153_3947_cdaa_8bec,
            0xa13b_56b4_5723_a3d4,
            0x9a35_cce2_9ca3_ac75,
            0x2716_940e_1d4f_28d7,
            0x7447_209c_fb79_3066,
            0x5cf9_1d8a_e640_2e1a,
        ],
        [
            0x4625_588d_3848_7ac5,
            0xe42e_c619_1353_e3bd,
            0x478e_6cc8_f6b2_dada,
            0x1726_fc94_8b99_4b87,
            0xfb9d_2e5a_66b4_6741,
            0x7f66_8e40_1ffe_9e6f,
            0xee4d_6fe1_1c46_a236,
        ],
        [
            0x006c_b700_6425_9959,
            0x3353_5a7c_4def_1b24,
            0x479e_792f_8171_fc29,
            0x656a_6e71_de97_0975,
            0xcada_3e48_618a_1c2b,
            0xb37a_d726_2db9_c99e,
            0x85ae_2540_2a31_1d5d,
        ],
        [
            0x3de4_e82d_52db_b44c,
            0xb1c8_4996_7446_4c21,
            0xf1c1_853c_c682_7b84,
            0x51f9_7ed3_ba00_4fb0,
            0x00da_9ede_878e_3e98,
            0x3cd0_fd65_8e1c_db12,
            0xac29_40b6_88a1_d0f9,
        ],
        [
            0xe51a_cb5b_336d_b0df,
            0xcf75_17fb_dcb1_6174,
            0xdfe9_01ab_a4a2_ced3,
            0x24bf_d4b7_2c88_52eb,
            0xf085_bcd9_7118_83d4,
            0x41b7_1908_a3d8_6274,
            0x6d60_4cc0_a2df_1a69,
        ],
    ],
];

impl VariantPosition {
    /// The Zobrist key: the chess key of the board ([`Position::zobrist`]) with crazyhouse's
    /// pockets and promoted pieces and three-check's counts of checks given hashed in (see
    /// the module documentation), as scalachess and shakmaty's 64-bit keys compute it. For
    /// chess and Chess960 it is the chess key, kept move by move; the other variants compute
    /// it here from the pieces (no move of theirs pays for a key it may never be asked).
    ///
    /// [`Position::zobrist`]: crate::Position::zobrist
    ///
    /// ```
    /// use chesscore_core::variant::{Variant, VariantPosition};
    /// use chesscore_core::Position;
    ///
    /// let chess = Position::startpos().zobrist();
    /// assert_eq!(VariantPosition::new(Variant::ThreeCheck).zobrist(), chess);
    /// let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3 0 1";
    /// assert_ne!(VariantPosition::from_fen(Variant::ThreeCheck, fen)?.zobrist(), chess);
    /// # Ok::<(), chesscore_core::variant::VariantFenError>(())
    /// ```
    pub fn zobrist(&self) -> u64 {
        let board = if self.variant.is_chess() { self.board.zobrist() } else { self.board.compute_zobrist() };
        board ^ self.extra_key()
    }

    /// What the variant adds to the chess key.
    fn extra_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            let given = 3u8.saturating_sub(self.remaining_checks[color.index()]);
            key ^= bit_keys(&THREE_CHECK[color.index()], given);
            for (kind, keys) in POCKET[color.index()].iter().enumerate() {
                key ^= bit_keys(keys, self.pockets[color.index()].counts[kind]);
            }
        }
        self.promoted.iter().fold(key, |key, sq| key ^ PROMOTED[sq.index()])
    }
}

/// The keys of `keys` whose bit is set in `n`.
fn bit_keys(keys: &[u64], n: u8) -> u64 {
    keys.iter().enumerate().filter(|&(bit, _)| n >> bit & 1 != 0).fold(0, |key, (_, k)| key ^ k)
}
