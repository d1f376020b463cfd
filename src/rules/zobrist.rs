//! Zobrist keys: one random 64-bit number per (piece, bit) and one for the
//! side to move, built at compile time from a fixed seed so keys are the same
//! in every run (the book and tests rely on that).

use super::random::SplitMix64;

/// Piece kinds as indices into the key table.
pub const WHITE_MAN: usize = 0;
/// Black man index.
pub const BLACK_MAN: usize = 1;
/// White king index.
pub const WHITE_KING: usize = 2;
/// Black king index.
pub const BLACK_KING: usize = 3;

const fn build() -> ([[u64; 64]; 4], u64) {
    let mut table = [[0u64; 64]; 4];
    let mut random = SplitMix64(0x7E3B_0D1A_C0FF_EE00);
    let mut kind = 0;
    while kind < 4 {
        let mut bit = 0;
        while bit < 64 {
            table[kind][bit] = random.next();
            bit += 1;
        }
        kind += 1;
    }
    (table, random.next())
}

const KEYS: ([[u64; 64]; 4], u64) = build();

/// The key of one piece kind on one bit.
pub static PIECE: [[u64; 64]; 4] = KEYS.0;

/// Xored into the key when Black is to move.
pub const BLACK_TO_MOVE: u64 = KEYS.1;

/// The xor of the keys of every bit set in `bb` for piece kind `kind`.
#[inline]
pub fn of_set(kind: usize, mut bb: u64) -> u64 {
    let mut key = 0;
    while bb != 0 {
        key ^= PIECE[kind][bb.trailing_zeros() as usize];
        bb &= bb - 1;
    }
    key
}

/// The keys of the Frisian king runs: one per side and run code (see
/// `Position::king_run`), code 0 (no run) keyed 0. Drawn from their own
/// seed, so the piece keys above are unchanged.
static KING_RUN: [[u64; 256]; 2] = {
    let mut table = [[0u64; 256]; 2];
    let mut random = SplitMix64(0x51A7_E0F0_4B1D_6E55);
    let mut side = 0;
    while side < 2 {
        let mut code = 1;
        while code < 256 {
            table[side][code] = random.next();
            code += 1;
        }
        side += 1;
    }
    table
};

/// The key of a side's king run code (0 for no run).
#[inline(always)]
pub fn king_run(side: usize, code: u8) -> u64 {
    KING_RUN[side][code as usize]
}
