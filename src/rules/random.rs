//! splitmix64: the one generator of the crate's reproducible random
//! numbers (Zobrist keys at compile time, self-play's random plies, the
//! shuffles of a fit, SPSA's signs, the engine's choice among book moves)
//! and its finaliser, which mixes every input bit into about half of the
//! output bits (the keys of self-play positions).

/// The step splitmix64 adds to its state.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's finaliser.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A splitmix64 sequence from a seed: the same numbers on every machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next number of the sequence.
    pub const fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_splitmix64s() {
        // The first outputs of splitmix64 from seed 0 (Vigna's reference).
        let mut random = SplitMix64(0);
        assert_eq!(random.next(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(random.next(), 0x6e78_9e6a_a1b9_65f4);
    }
}
