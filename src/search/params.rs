//! The search's parameters: every technique that can be switched or
//! tuned, each a number by name: the one table the engine's parameters,
//! `tempo bench` and `tempo tactics` set them from, so that a technique is
//! measured as it is played.
//! Each has the default the games chose (benches/search.md and
//! benches/search-tuning.md). A technique that lost in games leaves the
//! search: the notebook keeps its measurements and the last commit that
//! had it.

/// The parameters of one search: its techniques, on, off or tuned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Reverse-futility margin per ply, in hundredths of a man: a calm
    /// non-PV node of depth 5 or less whose static score is this much a ply
    /// above beta returns it (0: no reverse futility).
    pub futility_margin: u32,
    /// The deepest calm non-PV node that reverse futility may return from.
    pub futility_depth: u32,
    /// Moves searched at a calm non-PV node of depth 4 or less before the
    /// rest are pruned: 3 plus this percentage of the depth squared.
    pub late_move_scale: u32,
    /// Late-move reduction = base + ln(depth) ln(move index) / divisor:
    /// the divisor in hundredths (0: no late-move reductions).
    pub lmr_divisor: u32,
    /// The base of the late-move reduction above, in hundredths of a ply.
    pub lmr_base: u32,
    /// Half-width of the first aspiration window at the root, in
    /// hundredths of a man (0: a full window).
    pub aspiration: u32,
    /// A move that is the only legal one searched a ply deeper (1: a
    /// forced reply costs no depth; 0: it costs a ply like any other).
    pub forced_extension: u32,
}

/// One search parameter: its name, its range, its default and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParam {
    /// The name, as a Hub parameter and in `NAME=VALUE`.
    pub name: &'static str,
    /// The largest value accepted (the smallest is 0, off).
    pub max: u32,
    /// The value a search has unless told otherwise.
    pub default: u32,
    /// One line of help.
    pub help: &'static str,
}

/// Every search parameter, in the order the engine lists them.
pub const SEARCH_PARAMS: [SearchParam; 7] = [
    SearchParam {
        name: "futility-margin",
        max: 300,
        default: 60,
        help: "reverse-futility margin per ply, hundredths of a man (0 = no reverse futility)",
    },
    SearchParam {
        name: "futility-depth",
        max: 12,
        default: 5,
        help: "the deepest calm node that reverse futility may return from (0 = no reverse futility)",
    },
    SearchParam {
        name: "late-move-scale",
        max: 400,
        default: 100,
        help: "moves a calm node of depth 4 or less searches before it prunes the rest: 3 + this percentage of the depth squared",
    },
    SearchParam {
        name: "lmr-divisor",
        max: 1000,
        default: 150,
        help: "late-move reduction = base + ln(depth) ln(move index) / this, in hundredths (0 = no late-move reductions)",
    },
    SearchParam {
        name: "lmr-base",
        max: 400,
        default: 75,
        help: "the base of the late-move reduction, hundredths of a ply",
    },
    SearchParam {
        name: "aspiration",
        max: 500,
        default: 10,
        help: "half-width of the first aspiration window at the root, hundredths of a man (0 = full window)",
    },
    SearchParam {
        name: "forced-extension",
        max: 1,
        default: 1,
        help: "1 = a move that is the only legal one is searched a ply deeper (0 = no extension)",
    },
];

impl Default for SearchParams {
    /// Every parameter at its default.
    fn default() -> SearchParams {
        let mut t = SearchParams {
            futility_margin: 0,
            futility_depth: 0,
            late_move_scale: 0,
            lmr_divisor: 0,
            lmr_base: 0,
            aspiration: 0,
            forced_extension: 0,
        };
        for technique in SEARCH_PARAMS {
            if let Some(field) = t.field(technique.name) {
                *field = technique.default;
            }
        }
        t
    }
}

impl SearchParams {
    /// The field of the parameter `name`, if there is one.
    fn field(&mut self, name: &str) -> Option<&mut u32> {
        match name {
            "futility-margin" => Some(&mut self.futility_margin),
            "futility-depth" => Some(&mut self.futility_depth),
            "late-move-scale" => Some(&mut self.late_move_scale),
            "lmr-divisor" => Some(&mut self.lmr_divisor),
            "lmr-base" => Some(&mut self.lmr_base),
            "aspiration" => Some(&mut self.aspiration),
            "forced-extension" => Some(&mut self.forced_extension),
            _ => None,
        }
    }

    /// The value of the parameter `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<u32> {
        let mut copy = *self;
        copy.field(name).map(|value| *value)
    }

    /// Sets the parameter `name` to `value`; an unknown name or a value
    /// above its largest is refused, with why.
    pub fn set(&mut self, name: &str, value: u32) -> Result<(), String> {
        let technique = SEARCH_PARAMS
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| format!("unknown search parameter '{name}'"))?;
        if value > technique.max {
            return Err(format!("{name}: {value} is outside 0..{}", technique.max));
        }
        let field = self
            .field(name)
            .ok_or_else(|| format!("unknown search parameter '{name}'"))?;
        *field = value;
        Ok(())
    }

    /// Sets a parameter from `NAME=VALUE` (a command-line option).
    pub fn assign(&mut self, text: &str) -> Result<(), String> {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| format!("'{text}': expected NAME=VALUE"))?;
        let value: u32 = value
            .trim()
            .parse()
            .map_err(|_| format!("'{text}': '{value}' is not a whole number"))?;
        self.set(name.trim(), value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_a_field_that_starts_at_its_default() {
        let mut t = SearchParams::default();
        for technique in SEARCH_PARAMS {
            assert!(technique.default <= technique.max, "{}", technique.name);
            assert_eq!(
                t.get(technique.name),
                Some(technique.default),
                "{}",
                technique.name
            );
            t.set(technique.name, technique.max).unwrap();
            assert_eq!(t.get(technique.name), Some(technique.max));
            t.set(technique.name, 0).unwrap();
            assert_eq!(t.get(technique.name), Some(0));
            assert!(t.set(technique.name, technique.max + 1).is_err());
        }
        assert!(t.set("no-such", 0).is_err());
        assert_eq!(t.get("no-such"), None);
    }

    #[test]
    fn assignments_read_name_and_value() {
        let mut t = SearchParams::default();
        t.assign("aspiration=20").unwrap();
        assert_eq!(t.aspiration, 20);
        assert!(t.assign("aspiration").is_err());
        assert!(t.assign("aspiration=x").is_err());
        assert!(t.assign("aspiration=501").is_err());
    }
}
