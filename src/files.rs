//! Files written whole or not at all: the bytes go to a temporary file
//! beside the target (its name with `.tmp` added), which is renamed over
//! the target once complete, so that a reader, a crash or a Ctrl-C never
//! meets half a file. Books, weights, networks, endgame tables, tuning
//! states and analysis outputs are all written so.
//!
//! One rule holds for every command that writes: no output is one of its
//! inputs or another of its outputs ([`check_outputs`]), so that no command
//! destroys what it reads or writes two things into one file.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The temporary file beside `path`: `path` with `.tmp` added.
fn temporary(path: &Path) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(".tmp");
    PathBuf::from(name)
}

/// Replaces `path` by what `write` writes, flushed to the disk first; on
/// any error the temporary file is removed and `path` is as it was.
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> io::Result<()> {
    replace_or(path, write, |e| e)
}

/// [`replace_with`] for a writer with errors of its own: `write`'s error
/// comes back as it is, an error of the file itself (creating, flushing,
/// renaming it) as `file_error` makes it.
pub fn replace_or<E>(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<(), E>,
    file_error: impl Fn(io::Error) -> E,
) -> Result<(), E> {
    let tmp = temporary(path);
    let written = File::create(&tmp).map_err(&file_error).and_then(|file| {
        let mut out = BufWriter::new(file);
        write(&mut out)?;
        let file = out
            .into_inner()
            .map_err(|e| file_error(io::IntoInnerError::into_error(e)))?;
        file.sync_all().map_err(&file_error)?;
        std::fs::rename(&tmp, path).map_err(&file_error)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Replaces `path` by `bytes` (see [`replace_with`]).
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace_with(path, |out| out.write_all(bytes))
}

/// What tells two paths to one file apart from other files: the full path
/// with links resolved, for a file that does not exist yet its folder's
/// resolved and its name (`None` if even that cannot be resolved).
pub fn identity(path: &Path) -> Option<PathBuf> {
    if let Ok(full) = path.canonicalize() {
        return Some(full);
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(parent.canonicalize().ok()?.join(path.file_name()?))
}

/// Refuses a command's outputs when one of them is one of its inputs or
/// another of its outputs; each path comes with the flag that named it
/// (`--annotate`, `--out`, `input`) for the message. On success, gives the
/// outputs that exist already, which the command will replace (and should
/// say so).
pub fn check_outputs(
    inputs: &[(&str, &Path)],
    outputs: &[(&str, &Path)],
) -> Result<Vec<PathBuf>, String> {
    let mut seen: Vec<(&str, &Path, PathBuf)> = Vec::new();
    for &(flag, path) in outputs {
        let Some(id) = identity(path) else { continue };
        if let Some(&(input_flag, _)) = inputs
            .iter()
            .find(|(_, input)| identity(input).as_ref() == Some(&id))
        {
            return Err(format!(
                "{flag} {}: is also the {input_flag} and would be destroyed; write to another file",
                path.display()
            ));
        }
        if let Some((other, _, _)) = seen.iter().find(|(_, _, other)| *other == id) {
            return Err(format!(
                "{flag} {}: is also the {other} file; each output needs a file of its own",
                path.display()
            ));
        }
        seen.push((flag, path, id));
    }
    Ok(outputs
        .iter()
        .filter(|(_, path)| path.is_file())
        .map(|(_, path)| path.to_path_buf())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_a_failed_write_changes_nothing() {
        let dir = std::env::temp_dir().join(format!("tempo-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        replace(&path, b"first").unwrap();
        replace(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let failed = replace_with(&path, |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert!(!temporary(&path).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_output_may_be_neither_an_input_nor_another_output() {
        let dir = std::env::temp_dir().join(format!("tempo-outputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("in.pdn");
        replace(&input, b"1. 32-28 *").unwrap();
        let same_input = dir.join(".").join("in.pdn");
        let new = dir.join("new.pdn");
        let err = check_outputs(&[("--pdn", &input)], &[("--annotate", &same_input)]).unwrap_err();
        assert!(err.contains("--annotate") && err.contains("--pdn"), "{err}");
        let err = check_outputs(&[], &[("--annotate", &new), ("--report", &new)]).unwrap_err();
        assert!(
            err.contains("--report") && err.contains("--annotate"),
            "{err}"
        );
        let existing = check_outputs(&[("--pdn", &new)], &[("--annotate", &input)]).unwrap();
        assert_eq!(existing, vec![input.clone()]);
        assert!(check_outputs(&[("--pdn", &input)], &[("--annotate", &new)])
            .unwrap()
            .is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
