//! The recipe of a self-play data file: what made it (the command, its
//! options, the seed, the build, the evaluation), kept as the file's first
//! chunk (see `data`) so that a run resuming the file can be checked
//! against it.

use std::fmt;

use crate::checksum::fnv1a;

/// The recipe's magic in the file.
pub(super) const RECIPE_MAGIC: &[u8; 4] = b"RCPE";
/// Bytes before the recipe's text: magic, length, checksum.
pub(super) const RECIPE_HEADER: usize = 16;
/// The longest recipe text read.
pub(super) const MAX_RECIPE: usize = 1 << 16;

/// What made a data file: the command, every option that changes which
/// positions it holds or how they are labelled, and the build. A run that
/// resumes a file must have the file's recipe.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recipe(Vec<(String, String)>);

impl Recipe {
    /// The recipe with `key` set to `value` (added at the end).
    pub fn with(mut self, key: &str, value: impl fmt::Display) -> Recipe {
        self.0.push((key.to_string(), value.to_string()));
        self
    }

    /// Its entries, in order.
    pub fn entries(&self) -> &[(String, String)] {
        &self.0
    }

    /// What differs between this recipe (a file's) and `now` (a run's),
    /// one phrase per key: `nodes 4000 in the file, 200 now`.
    pub fn differences(&self, now: &Recipe) -> Vec<String> {
        let value = |recipe: &Recipe, key: &str| {
            recipe
                .0
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        };
        let mut keys: Vec<&str> = self.0.iter().map(|(k, _)| k.as_str()).collect();
        for (k, _) in &now.0 {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
            }
        }
        keys.into_iter()
            .filter_map(|key| {
                let (was, is) = (value(self, key), value(now, key));
                (was != is).then(|| {
                    let shown = |v: Option<String>| v.unwrap_or_else(|| "none".to_string());
                    format!("{key} {} in the file, {} now", shown(was), shown(is))
                })
            })
            .collect()
    }

    /// The `key=value` lines.
    fn text(&self) -> String {
        self.0.iter().map(|(k, v)| format!("{k}={v}\n")).collect()
    }

    /// The recipe's bytes in the file.
    pub(super) fn encode(&self) -> Vec<u8> {
        let text = self.text();
        let mut out = Vec::with_capacity(RECIPE_HEADER + text.len());
        out.extend_from_slice(RECIPE_MAGIC);
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(text.as_bytes()).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
        out
    }

    /// Reads the text of a recipe.
    pub(super) fn parse(text: &str) -> Option<Recipe> {
        text.lines()
            .map(|line| {
                let (k, v) = line.split_once('=')?;
                Some((k.to_string(), v.to_string()))
            })
            .collect::<Option<Vec<_>>>()
            .map(Recipe)
    }
}

/// A file as a recipe names it: its name (not its folder, which differs
/// from machine to machine) and the FNV-1a checksum of its contents.
pub fn file_entry(path: &std::path::Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(format!("{name} fnv1a {:016x}", fnv1a(&bytes)))
}

impl fmt::Display for Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs: Vec<String> = self.0.iter().map(|(k, v)| format!("{k}={v}")).collect();
        f.write_str(&pairs.join(" "))
    }
}
