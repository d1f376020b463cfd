//! Files written whole or not at all: the bytes go to a temporary file
//! beside the target (its name with `.tmp` added), which is renamed over
//! the target once complete, so that a reader, a crash or a Ctrl-C never
//! meets half a file. Books, weights, networks, endgame tables, tuning
//! states and analysis outputs are all written so.

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
}
