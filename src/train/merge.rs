//! Merging data files: the shards of one self-play run (`--shard I/N`,
//! played on several machines or by several processes) become one data
//! file with every batch once, in batch order.
//!
//! Every input is read and checked whole first (its variant, whole chunks,
//! checksums); a batch found in two inputs is kept once when the two chunks
//! are the same and refused when they differ (two different runs, of other
//! seeds or options, mixed). The output is written as every file tempo
//! writes is ([`files::replace_or`]): to a temporary file beside it, flushed
//! to the disk and renamed into place, so it is never seen half written.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::data::{file_start, is_sound_chunk, read_spans, DataError};
use super::recipe::Recipe;
use crate::files;
use crate::rules::VariantKind;

/// What a merge wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Batches in the output.
    pub batches: u64,
    /// Games in the output.
    pub games: u64,
    /// Positions in the output.
    pub positions: u64,
    /// Each batch dropped as a copy of one already kept: (batch, the input
    /// it was dropped from, the input it was kept from), indices into the
    /// inputs.
    pub duplicates: Vec<(u32, usize, usize)>,
}

/// Why a merge was refused.
#[derive(Debug)]
pub enum MergeError {
    /// An input cannot be used, or the output cannot be written.
    Data(DataError),
    /// Two inputs hold different chunks of one batch.
    Conflict {
        /// The batch.
        batch: u32,
        /// The input read first.
        first: PathBuf,
        /// The input read second (the same file when it holds the batch
        /// twice).
        second: PathBuf,
    },
    /// The output is one of the inputs.
    OutputIsInput(PathBuf),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Data(e) => write!(f, "{e}"),
            MergeError::Conflict {
                batch,
                first,
                second,
            } => write!(
                f,
                "batch {batch} differs between {} and {}: these files come from different \
                 runs (other seeds or options), which cannot be merged",
                first.display(),
                second.display()
            ),
            MergeError::OutputIsInput(path) => write!(
                f,
                "{}: the output is also an input; write the merge to a new file",
                path.display()
            ),
        }
    }
}

impl std::error::Error for MergeError {}

impl From<DataError> for MergeError {
    fn from(e: DataError) -> Self {
        MergeError::Data(e)
    }
}

/// One batch to copy: the input holding it and the bytes of its chunk.
struct Source {
    input: usize,
    span: Range<u64>,
    games: u32,
    records: u64,
}

/// Merges the data files `inputs`, all of `kind`, into `out` (replaced if
/// it exists): every batch once, in batch order.
pub fn merge(inputs: &[PathBuf], out: &Path, kind: VariantKind) -> Result<Merged, MergeError> {
    let out_id = crate::files::identity(out);
    for input in inputs {
        if out_id.is_some() && crate::files::identity(input) == out_id {
            return Err(MergeError::OutputIsInput(out.to_path_buf()));
        }
    }
    let mut files = Vec::with_capacity(inputs.len());
    for input in inputs {
        files.push(File::open(input).map_err(|e| DataError::Io(input.clone(), e))?);
    }
    let mut batches: BTreeMap<u32, Source> = BTreeMap::new();
    let mut duplicates = Vec::new();
    // The inputs' recipe, kept when they all have the same one.
    let mut recipes = Vec::with_capacity(inputs.len());
    for (input, path) in inputs.iter().enumerate() {
        let (recipe, spans) = read_spans(path, kind)?;
        recipes.push(recipe);
        for (chunk, span) in spans {
            let source = Source {
                input,
                span,
                games: chunk.games,
                records: chunk.records.len() as u64,
            };
            match batches.get(&chunk.batch) {
                None => {
                    batches.insert(chunk.batch, source);
                }
                Some(kept) => {
                    let same = kept.span.end - kept.span.start
                        == source.span.end - source.span.start
                        && read_at(&mut files, inputs, kept)?
                            == read_at(&mut files, inputs, &source)?;
                    if !same {
                        return Err(MergeError::Conflict {
                            batch: chunk.batch,
                            first: inputs[kept.input].clone(),
                            second: path.clone(),
                        });
                    }
                    duplicates.push((chunk.batch, input, kept.input));
                }
            }
        }
    }
    let recipe = match recipes.split_first() {
        Some((first, rest)) if rest.iter().all(|r| r == first) => first.clone(),
        _ => None,
    };
    files::replace_or(
        out,
        |writer| {
            write_merge(
                writer,
                out,
                (kind, recipe.as_ref()),
                &batches,
                &mut files,
                inputs,
            )
        },
        |e| MergeError::Data(DataError::Io(out.to_path_buf(), e)),
    )?;
    Ok(Merged {
        batches: batches.len() as u64,
        games: batches.values().map(|s| s.games as u64).sum(),
        positions: batches.values().map(|s| s.records).sum(),
        duplicates,
    })
}

/// Writes the header of `kind` and `recipe`, then the chunks of
/// `batches`, in batch order, to `writer` (the file that becomes `path`),
/// each one checked again as it is copied.
fn write_merge(
    writer: &mut impl Write,
    path: &Path,
    (kind, recipe): (VariantKind, Option<&Recipe>),
    batches: &BTreeMap<u32, Source>,
    files: &mut [File],
    inputs: &[PathBuf],
) -> Result<(), MergeError> {
    let io = |e| MergeError::Data(DataError::Io(path.to_path_buf(), e));
    writer.write_all(&file_start(kind, recipe)).map_err(io)?;
    for (&batch, source) in batches {
        let bytes = read_at(files, inputs, source)?;
        if !is_sound_chunk(&bytes, batch) {
            let path = inputs[source.input].clone();
            return Err(DataError::Foreign(
                path,
                format!("batch {batch} changed while the files were merged"),
            )
            .into());
        }
        writer.write_all(&bytes).map_err(io)?;
    }
    Ok(())
}

/// The bytes of the chunk `source` names.
fn read_at(files: &mut [File], inputs: &[PathBuf], source: &Source) -> Result<Vec<u8>, MergeError> {
    let io = |e| MergeError::Data(DataError::Io(inputs[source.input].clone(), e));
    let file = &mut files[source.input];
    let mut bytes = vec![0; (source.span.end - source.span.start) as usize];
    file.seek(SeekFrom::Start(source.span.start)).map_err(io)?;
    file.read_exact(&mut bytes).map_err(io)?;
    Ok(bytes)
}
