//! The draw rules as engine parameters: the Hub name, range and one-line
//! help of each draw-rule setting, the parameters they make, and setting
//! one by its name. The rules core knows the settings only as the typed
//! fields of [`DrawSettings`].

use super::vocabulary::{Param, ParamKind};
use crate::rules::draw::DrawSettings;

/// Which field of [`DrawSettings`] a parameter sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Repetitions,
    KingMoves,
    ShortEndgame,
    LongEndgame,
}

impl Field {
    fn get(self, settings: &DrawSettings) -> u32 {
        match self {
            Field::Repetitions => settings.repetitions,
            Field::KingMoves => settings.king_moves,
            Field::ShortEndgame => settings.short_endgame_moves,
            Field::LongEndgame => settings.long_endgame_moves,
        }
    }

    fn get_mut(self, settings: &mut DrawSettings) -> &mut u32 {
        match self {
            Field::Repetitions => &mut settings.repetitions,
            Field::KingMoves => &mut settings.king_moves,
            Field::ShortEndgame => &mut settings.short_endgame_moves,
            Field::LongEndgame => &mut settings.long_endgame_moves,
        }
    }
}

/// The declaration of one parameter.
struct Spec {
    name: &'static str,
    field: Field,
    min: u32,
    max: u32,
    description: &'static str,
}

/// Every draw parameter, in the order they are declared.
const SPECS: [Spec; 4] = [
    Spec {
        name: "draw-repetitions",
        field: Field::Repetitions,
        min: DrawSettings::MIN_REPETITIONS,
        max: DrawSettings::MAX_MOVES,
        description: "occurrences of a position (same side to move) that draw the game",
    },
    Spec {
        name: "draw-king-moves",
        field: Field::KingMoves,
        min: 0,
        max: DrawSettings::MAX_MOVES,
        description: "moves of each side with kings only, no capture or man move, that draw (0 = off)",
    },
    Spec {
        name: "draw-short-endgame",
        field: Field::ShortEndgame,
        min: 0,
        max: DrawSettings::MAX_MOVES,
        description: "moves of each side before a short endgame (e.g. 2 kings v king) is drawn (0 = off)",
    },
    Spec {
        name: "draw-long-endgame",
        field: Field::LongEndgame,
        min: 0,
        max: DrawSettings::MAX_MOVES,
        description: "moves of each side before a long endgame (3 pieces with a king v king) is drawn (0 = off)",
    },
];

/// Every draw parameter with its value in `settings`, its range and its
/// help, as the engine declares its parameters (the Hub `param` lines).
pub fn params(settings: &DrawSettings) -> Vec<Param> {
    SPECS
        .iter()
        .map(|spec| Param {
            name: spec.name.to_string(),
            kind: ParamKind::Int {
                min: i64::from(spec.min),
                max: i64::from(spec.max),
            },
            value: spec.field.get(settings).to_string(),
            help: spec.description.to_string(),
        })
        .collect()
}

/// Sets the parameter `name` (a Hub parameter name, see [`params`]) of
/// `settings` to the whole number `value`, within the parameter's range.
/// On error the settings are unchanged and the text says why.
pub fn set(settings: &mut DrawSettings, name: &str, value: &str) -> Result<(), String> {
    let name = name.trim();
    let spec = SPECS
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let known: Vec<&str> = SPECS.iter().map(|spec| spec.name).collect();
            format!(
                "unknown draw parameter '{name}' (known: {})",
                known.join(", ")
            )
        })?;
    let number: u32 = value
        .trim()
        .parse()
        .map_err(|_| format!("{}: '{}' is not a whole number", spec.name, value.trim()))?;
    if number < spec.min || number > spec.max {
        return Err(format!(
            "{}: {number} is outside {}..={}",
            spec.name, spec.min, spec.max
        ));
    }
    *spec.field.get_mut(settings) = number;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::VariantKind;

    #[test]
    fn settings_are_set_by_hub_name_and_checked() {
        let mut s = DrawSettings::for_variant(VariantKind::International);
        assert_eq!(s.long_endgame_moves, 10);
        assert_eq!(set(&mut s, "draw-long-endgame", "16"), Ok(()));
        assert_eq!(s.long_endgame_moves, 16);
        let before = s.clone();
        assert!(set(&mut s, "draw-long-endgame", "x").is_err());
        assert!(set(&mut s, "draw-repetitions", "1").is_err());
        assert!(set(&mut s, "draw-king-moves", "1001").is_err());
        let err = set(&mut s, "draw-nothing", "3").unwrap_err();
        assert!(err.contains("draw-king-moves"), "{err}");
        assert_eq!(s, before);
        let params = params(&s);
        assert_eq!(params.len(), 4);
        assert!(params
            .iter()
            .any(|p| p.name == "draw-long-endgame" && p.value == "16"));
    }
}
