//! Files as the library and its command line open, read and write them: opening without
//! blocking (a FIFO would hold the open until a writer comes), lines read with a bound (a
//! device such as `/dev/zero` is one endless line), and outputs that replace their file whole,
//! by a rename, and never the file they are made from.

use std::ffi::OsString;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Opens `path` for reading, without waiting on a FIFO, and gives its metadata (after symbolic
/// links), for the caller to refuse what is not a regular file. (The file keeps `O_NONBLOCK`,
/// which reads of a regular file ignore.)
pub fn open_for_reading(path: impl AsRef<Path>) -> io::Result<(File, Metadata)> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    Ok((file, metadata))
}

/// Opens the regular file at `path` for reading; anything else (a FIFO, a device, a directory)
/// is an `InvalidInput` error, returned at once.
pub fn open_regular(path: impl AsRef<Path>) -> io::Result<File> {
    let (file, metadata) = open_for_reading(path)?;
    if !metadata.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
    }
    Ok(file)
}

/// Reads one line into `line` (cleared first), without its `\n`; gives the bytes taken from
/// `input` (the `\n` counted), 0 at the end. A line longer than `max` bytes is an
/// `InvalidData` error, read no further than its first `max` + 1 bytes.
pub fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<usize> {
    line.clear();
    let read = Read::take(&mut *input, max as u64 + 1).read_until(b'\n', line)?;
    if line.last() == Some(&b'\n') {
        line.pop();
    } else if line.len() > max {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("line longer than {max} bytes")));
    }
    Ok(read)
}

/// True when `a` and `b` name the same file (the same device and inode, through links); false
/// when either is missing.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(a), Ok(b)) => {
            use std::os::unix::fs::MetadataExt;
            (a.dev(), a.ino()) == (b.dev(), b.ino())
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => fs::canonicalize(a).ok().is_some_and(|a| fs::canonicalize(b).ok() == Some(a)),
        _ => false,
    }
}

/// An output file written through a temporary file in the same directory, renamed over the
/// file by [`Replacement::commit`]: readers of the old file are never disturbed, and an output
/// dropped without `commit` (a failed run) is removed, leaving the old file as it was. A path
/// through a symbolic link replaces the file the link names, keeping its permissions. A path
/// that names something other than a regular file (`/dev/null`, a FIFO) is written in place.
/// (A process killed before `commit` or drop leaves its `.NAME.PID.N.tmp` file behind.)
pub struct Replacement {
    file: io::BufWriter<File>,
    /// The temporary file and the file it replaces; `None` when written in place.
    rename: Option<(PathBuf, PathBuf)>,
}

impl Replacement {
    /// Starts the file replacing `path`. `inputs` are the files it is made from: `path` naming
    /// one of them (through any link) is an `InvalidInput` error, as writing it would destroy
    /// the input before it is read.
    pub fn create(path: &Path, inputs: &[&Path]) -> io::Result<Replacement> {
        if let Some(input) = inputs.iter().find(|input| same_file(path, input)) {
            let message = format!("the same file as the input {} (write the output elsewhere)", input.display());
            return Err(io::Error::new(io::ErrorKind::InvalidInput, message));
        }
        let (target, permissions) = match fs::metadata(path) {
            Ok(metadata) if !metadata.is_file() => {
                let file = OpenOptions::new().write(true).open(path)?;
                return Ok(Replacement { file: io::BufWriter::new(file), rename: None });
            }
            Ok(metadata) => (fs::canonicalize(path)?, Some(metadata.permissions())),
            Err(_) => (path.to_path_buf(), None),
        };
        let (file, temp) = temporary_beside(&target)?;
        let replacement = Replacement { file: io::BufWriter::new(file), rename: Some((temp, target)) };
        // The new file keeps the old one's permissions (dropped, the replacement is removed).
        if let (Some(permissions), Some((temp, _))) = (permissions, &replacement.rename) {
            fs::set_permissions(temp, permissions)?;
        }
        Ok(replacement)
    }

    /// Writes what is buffered and puts the file in place.
    pub fn commit(mut self) -> io::Result<()> {
        self.file.flush()?;
        if let Some((temp, target)) = self.rename.take() {
            if let Err(e) = fs::rename(&temp, &target) {
                let _ = fs::remove_file(&temp);
                return Err(e);
            }
        }
        Ok(())
    }
}

impl Write for Replacement {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if let Some((temp, _)) = &self.rename {
            let _ = fs::remove_file(temp);
        }
    }
}

/// A new file `.NAME.PID.N.tmp` beside `target`, made exclusively (never one already there).
fn temporary_beside(target: &Path) -> io::Result<(File, PathBuf)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = target.file_name().unwrap_or(target.as_os_str());
    loop {
        let mut temp = OsString::from(".");
        temp.push(name);
        temp.push(format!(".{}.{}.tmp", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)));
        let temp = dir.join(temp);
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded() {
        let mut input = io::Cursor::new(b"ab\r\nlonger line\nend".to_vec());
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line, 4).unwrap(), 4);
        assert_eq!(line, b"ab\r");
        let error = read_line(&mut input, &mut line, 4).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert_eq!(error.to_string(), "line longer than 4 bytes");
        let mut input = io::Cursor::new(b"four\nend".to_vec());
        assert_eq!(read_line(&mut input, &mut line, 4).unwrap(), 5);
        assert_eq!(read_line(&mut input, &mut line, 4).unwrap(), 3);
        assert_eq!(line, b"end");
        assert_eq!(read_line(&mut input, &mut line, 4).unwrap(), 0);
        assert!(line.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn replacements_are_renamed_into_place() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("chesscore-files-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let (path, link) = (dir.join("out.txt"), dir.join("link.txt"));
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let mut old = File::open(&path).unwrap();
        // Dropped without commit: the old file stays, the temporary one goes.
        let mut file = Replacement::create(&link, &[]).unwrap();
        file.write_all(b"half").unwrap();
        drop(file);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        let mut file = Replacement::create(&link, &[]).unwrap();
        file.write_all(b"new").unwrap();
        file.commit().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
        let mut was = String::new();
        old.read_to_string(&mut was).unwrap();
        assert_eq!(was, "old");
        let error = Replacement::create(&path, &[Path::new("/dev/null"), &link]).err().unwrap();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        let mut names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        assert_eq!(names, ["link.txt", "out.txt"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
