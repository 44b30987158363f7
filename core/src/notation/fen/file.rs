//! Reading the first FEN of a file, in bounded time and memory whatever the file is.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::{Fen, FenError, FenOptions, FEN_MAX_INPUT};
use crate::position::Position;

impl Position {
    /// Reads the first non-empty line of a `.fen` file, and no more of the file than that:
    /// at most [`FEN_FILE_MAX_BLANK`] bytes of blank lines before it (a file without a FEN
    /// there is `FenError::Empty`) and [`FEN_MAX_INPUT`] + 1 bytes of the line (a longer one is
    /// `FenError::TooLong`). A huge file, a device such as `/dev/zero` or a pipe cost bounded
    /// time and memory.
    pub fn from_fen_file(path: impl AsRef<Path>) -> Result<Position, FenFileError> {
        let path = path.as_ref();
        let file_error = |error: std::io::Error| match error.kind() {
            std::io::ErrorKind::NotFound => FenFileError::NotFound(path.to_path_buf()),
            _ => FenFileError::Io { path: path.to_path_buf(), error },
        };
        let file = std::fs::File::open(path).map_err(file_error)?;
        let mut line = [0; FEN_MAX_INPUT + 1];
        let len = first_fen_line(file, &mut line).map_err(file_error)?;
        let fen = Fen::parse_bytes(&line[..len])?;
        Ok(fen.validate(&FenOptions::default())?.0)
    }
}

/// Errors of [`Position::from_fen_file`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FenFileError {
    /// There is no file at the path.
    #[error("file not found: {}", .0.display())]
    NotFound(PathBuf),
    /// The file could not be opened or read.
    #[error("cannot read {}: {error}", path.display())]
    Io {
        /// The file's path.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file's first line is not a valid FEN.
    #[error(transparent)]
    Fen(#[from] FenError),
}

/// How many bytes of blank lines [`Position::from_fen_file`] reads past before giving up on
/// finding a FEN (1 MiB).
pub const FEN_FILE_MAX_BLANK: u64 = 1 << 20;

/// Copies into `line` the first line of `input` holding more than blanks, from its first
/// non-blank byte, cut where `line` is full (one byte over [`FEN_MAX_INPUT`], enough for the
/// reader to refuse it); returns its length, 0 when blank lines run past [`FEN_FILE_MAX_BLANK`]
/// bytes or to the end. Reads through a buffer on the stack: nothing is allocated.
fn first_fen_line(mut input: impl Read, line: &mut [u8]) -> std::io::Result<usize> {
    let mut chunk = [0; 4096];
    let (mut len, mut blank) = (0, 0);
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => return Ok(len),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for &byte in &chunk[..n] {
            match (len, byte) {
                (0, b' ' | b'\t' | b'\r' | b'\n') => {
                    blank += 1;
                    if blank > FEN_FILE_MAX_BLANK {
                        return Ok(0);
                    }
                }
                (_, b'\n') => return Ok(len),
                _ => {
                    line[len] = byte;
                    len += 1;
                    if len == line.len() {
                        return Ok(len);
                    }
                }
            }
        }
    }
}
