//! Where a command writes: standard output, files written through a temporary file, and the
//! failure that ends a command.

use std::fmt;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use chesscore_core::files::Replacement;

/// Why a command failed.
pub(crate) enum Failure {
    /// Bad input, an unreadable file, an illegal move: the message for standard error.
    Message(String),
    /// Standard output could not be written.
    Output(io::Error),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Message(message)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Message(message) => f.write_str(message),
            Failure::Output(e) => write!(f, "cannot write output: {}", io_text(e)),
        }
    }
}

/// An I/O error's text without the ` (os error N)` that its `Display` appends.
pub(crate) fn io_text(e: &io::Error) -> String {
    let text = e.to_string();
    match e.raw_os_error() {
        Some(code) => text.strip_suffix(&format!(" (os error {code})")).unwrap_or(&text).to_string(),
        None => text,
    }
}

/// Starts the output file `path`, written through a temporary file beside it that
/// [`finish_output`] renames into place (a failed run leaves the old file as it was); refused
/// when `path` is one of `inputs` (through any link), which writing would destroy.
pub(crate) fn create_output(path: &Path, inputs: &[&Path]) -> Result<Replacement, String> {
    Replacement::create(path, inputs).map_err(|e| format!("cannot write {}: {}", path.display(), io_text(&e)))
}

/// Puts an output file of [`create_output`] in place.
pub(crate) fn finish_output(file: Replacement, path: &Path) -> Result<(), String> {
    file.commit().map_err(|e| format!("cannot write {}: {}", path.display(), io_text(&e)))
}

pub(crate) fn write_file(path: &Path, text: &str) -> Result<(), String> {
    let mut file = create_output(path, &[])?;
    file.write_all(text.as_bytes()).map_err(|e| format!("cannot write {}: {}", path.display(), io_text(&e)))?;
    finish_output(file, path)
}

/// Standard output, where every command writes with `write!`/`writeln!`: a failed write is a
/// [`Failure`] that ends the command. Buffered, except on a terminal, where each line shows as
/// it is written.
pub(crate) struct Output {
    stdout: Box<dyn Write>,
}

impl Output {
    pub(crate) fn new() -> Output {
        let stdout = io::stdout();
        let stdout: Box<dyn Write> =
            if stdout.is_terminal() { Box::new(stdout.lock()) } else { Box::new(BufWriter::new(stdout.lock())) };
        Output { stdout }
    }

    /// Standard output, for writers of their own.
    pub(crate) fn raw(&mut self) -> &mut dyn Write {
        &mut *self.stdout
    }

    /// What `write!` and `writeln!` call.
    pub(crate) fn write_fmt(&mut self, args: fmt::Arguments) -> Result<(), Failure> {
        self.stdout.write_fmt(args).map_err(Failure::Output)
    }

    pub(crate) fn flush(&mut self) -> Result<(), Failure> {
        self.stdout.flush().map_err(Failure::Output)
    }

    /// Writes a line to standard error after the output so far, so that the two keep their
    /// order when they go to the same place. A failure to write standard error is ignored, as
    /// Unix tools do: there is nowhere to report it.
    pub(crate) fn note(&mut self, line: fmt::Arguments) -> Result<(), Failure> {
        self.flush()?;
        let _ = writeln!(io::stderr(), "{line}");
        Ok(())
    }
}

/// `count` with the noun for it: `1 game`, `2 games`.
pub(crate) fn counted(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}
