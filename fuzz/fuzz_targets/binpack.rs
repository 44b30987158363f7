//! Training data reading, `.binpack` and `.plain`: never panics, stops at the first error with
//! an offset within the input, and every entry read writes back as it was read (a `.binpack`
//! read whole writes the same entries again).
#![no_main]

use chesscore_core::binpack::{BinpackReader, BinpackWriter, PlainReader, TrainingEntry};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

/// Entries a run reads at most, so that runs stay fast.
const MAX_ENTRIES: usize = 300;

/// The entries read before the first error (at most [`MAX_ENTRIES`]), checking the error's
/// offset.
fn read_all(
    entries: impl Iterator<Item = Result<TrainingEntry, chesscore_core::binpack::BinpackError>>,
    len: usize,
) -> Vec<TrainingEntry> {
    let mut read = Vec::new();
    for entry in entries.take(MAX_ENTRIES) {
        match entry {
            Ok(entry) => {
                entry.check().expect("an entry read is training data");
                common::check_position(&entry.position);
                read.push(entry);
            }
            Err(e) => {
                assert!(e.offset <= len as u64, "{e}");
                break;
            }
        }
    }
    read
}

/// The `.plain` text of entries.
fn plain(entries: &[TrainingEntry]) -> String {
    entries.iter().map(ToString::to_string).collect()
}

fuzz_target!(|data: &[u8]| {
    let entries = read_all(BinpackReader::new(data), data.len());
    let mut writer = BinpackWriter::new(Vec::new());
    for entry in &entries {
        writer.write(entry).expect("an entry read writes");
    }
    let bytes = writer.finish().expect("writing to memory");
    let again = read_all(BinpackReader::new(&bytes[..]), bytes.len());
    assert_eq!(plain(&again), plain(&entries));

    let entries = read_all(PlainReader::new(data), data.len());
    let text = plain(&entries);
    assert_eq!(plain(&read_all(PlainReader::new(text.as_bytes()), text.len())), text);
});
