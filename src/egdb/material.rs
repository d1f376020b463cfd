//! Material slices: how many men and kings each side has, the side to move
//! being White (see `index`).

use std::fmt;
use std::str::FromStr;

use super::index::Placement;

/// The material of a slice: men and kings of the side to move (White) and
/// of the other side (Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Men of the side to move.
    pub white_men: u8,
    /// Kings of the side to move.
    pub white_kings: u8,
    /// Men of the other side.
    pub black_men: u8,
    /// Kings of the other side.
    pub black_kings: u8,
}

/// The most pieces of one kind a slice may hold (four bits of its key).
pub const MAX_OF_A_KIND: u8 = 7;

impl Material {
    /// The material of a placement.
    pub fn of(p: &Placement) -> Material {
        Material {
            white_men: p.white_men.count_ones() as u8,
            white_kings: p.white_kings.count_ones() as u8,
            black_men: p.black_men.count_ones() as u8,
            black_kings: p.black_kings.count_ones() as u8,
        }
    }

    /// All pieces.
    pub fn pieces(self) -> u32 {
        self.men() + u32::from(self.white_kings) + u32::from(self.black_kings)
    }

    /// All men.
    pub fn men(self) -> u32 {
        u32::from(self.white_men) + u32::from(self.black_men)
    }

    /// The slice of the same pieces with the other side to move.
    pub fn partner(self) -> Material {
        Material {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
        }
    }

    /// A dense key below [`Material::KEYS`], for tables of slices.
    pub fn key(self) -> usize {
        (usize::from(self.white_men) << 9)
            | (usize::from(self.white_kings) << 6)
            | (usize::from(self.black_men) << 3)
            | usize::from(self.black_kings)
    }

    /// The number of distinct keys.
    pub const KEYS: usize = 1 << 12;

    /// Every slice of 2 to `pieces` pieces with at least one piece a side,
    /// in the order they are built: fewer pieces first, and among as many
    /// pieces fewer men first (a capture leads to fewer pieces, a man
    /// crowned to one man less; a move of another kind stays within the
    /// slice and its partner).
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let top = pieces.min(u32::from(MAX_OF_A_KIND)) as u8;
        let mut all = Vec::new();
        for wm in 0..=top {
            for wk in 0..=top {
                for bm in 0..=top {
                    for bk in 0..=top {
                        let m = Material {
                            white_men: wm,
                            white_kings: wk,
                            black_men: bm,
                            black_kings: bk,
                        };
                        if wm + wk > 0 && bm + bk > 0 && m.pieces() <= pieces {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.men(), *m));
        all
    }
}

impl fmt::Display for Material {
    /// The four counts as digits: White men, White kings, Black men, Black
    /// kings (`2011`: two men against a man and a king).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}{}",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }
}

impl FromStr for Material {
    type Err = String;

    fn from_str(s: &str) -> Result<Material, String> {
        let digits: Vec<u8> = s
            .chars()
            .map(|c| c.to_digit(10).map(|d| d as u8))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("material {s:?}: four digits expected, e.g. 2011"))?;
        match digits[..] {
            [wm, wk, bm, bk] if digits.iter().all(|&d| d <= MAX_OF_A_KIND) => Ok(Material {
                white_men: wm,
                white_kings: wk,
                black_men: bm,
                black_kings: bk,
            }),
            _ => Err(format!(
                "material {s:?}: four digits of at most {MAX_OF_A_KIND} expected (men and kings of the side to move, then of the other side)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_come_smallest_first_and_each_once() {
        let all = Material::all_up_to(4);
        let mut seen = std::collections::HashSet::new();
        for (i, m) in all.iter().enumerate() {
            assert!(seen.insert(m.key()));
            assert!(all.contains(&m.partner()));
            for before in &all[..i] {
                assert!((before.pieces(), before.men()) <= (m.pieces(), m.men()));
            }
        }
        // A side of k pieces has k + 1 mixes of men and kings: two pieces
        // make 2 × 2 slices, three 2 × (2 × 3), four 2 × (2 × 4) + 3 × 3.
        assert_eq!(all.iter().filter(|m| m.pieces() == 2).count(), 4);
        assert_eq!(all.iter().filter(|m| m.pieces() == 3).count(), 12);
        assert_eq!(all.len(), 4 + 12 + 25);
    }

    #[test]
    fn material_reads_back_from_its_digits() {
        let m: Material = "2011".parse().unwrap();
        assert_eq!(m.to_string(), "2011");
        assert_eq!(m.partner().to_string(), "1120");
        assert!("201".parse::<Material>().is_err());
        assert!("20a1".parse::<Material>().is_err());
    }
}
