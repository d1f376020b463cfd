//! The checksum of tempo's binary files (weights and networks, endgame
//! tables, training data): FNV-1a, 64 bits, little-endian on the disk.

/// An FNV-1a (64-bit) checksum, fed in parts.
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Adds `bytes` to the sum.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// The sum of everything added.
    pub fn sum(&self) -> u64 {
        self.0
    }
}

/// The FNV-1a (64-bit) checksum of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut sum = Fnv1a::default();
    sum.update(bytes);
    sum.sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_gives_the_published_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        let mut parts = Fnv1a::default();
        parts.update(b"foo");
        parts.update(b"bar");
        assert_eq!(parts.sum(), fnv1a(b"foobar"));
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
