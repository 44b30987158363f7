//! The tag pairs of a game, in their order, in one text buffer.

use std::collections::{HashMap, TryReserveError};
use std::fmt;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher, RandomState};

use crate::fallible::{try_string, try_to_vec};

/// The Seven Tag Roster, in the order PGN export writes it.
pub const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The value export writes for a Seven Tag Roster tag the game does not have (`None` for other
/// names): `????.??.??` for `Date`, `*` for `Result`, `?` for the rest.
pub fn roster_default(name: &str) -> Option<&'static str> {
    match name {
        "Date" => Some("????.??.??"),
        "Result" => Some("*"),
        _ if SEVEN_TAG_ROSTER.contains(&name) => Some("?"),
        _ => None,
    }
}

/// `[A-Za-z0-9_+#=:-]`: what a tag name is made of (it starts with a letter or digit).
#[inline]
pub(crate) fn is_tag_name_byte(b: u8) -> bool {
    // A table: every tag line's name is read with it.
    const NAME_BYTES: [bool; 256] = {
        let mut table = [false; 256];
        let mut b = 0u8;
        while b < 128 {
            table[b as usize] = b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-');
            b += 1;
        }
        table
    };
    NAME_BYTES[b as usize]
}

/// True when `name` is a tag name the reader reads back: a letter or digit, then letters,
/// digits and `_+#=:-`.
pub fn is_tag_name(name: &str) -> bool {
    name.as_bytes().first().is_some_and(u8::is_ascii_alphanumeric) && name.bytes().all(is_tag_name_byte)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    name: (usize, usize),
    value: (usize, usize),
    /// The next entry whose name has the same hash, or `NONE` (for the index).
    same_hash: u32,
}

const NONE: u32 = u32::MAX;

/// From this many tags on, names are found through a hash index (built then), so that reading a
/// game with any number of tags takes time linear in them; below it a scan is quicker. Above the
/// 17 to 20 tags of a lichess game: hashing their names was a tenth of reading headers only.
const INDEXED_FROM: usize = 32;

/// The hasher of a map whose keys are hashes already: it spreads the `u32` it is given over 64
/// bits (the map takes its bucket from the low bits and a tag from the high ones).
#[derive(Default)]
struct AlreadyHashed(u64);

impl Hasher for AlreadyHashed {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u32` keys are hashed with it; fold anything else in all the same.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u32(&mut self, hash: u32) {
        self.0 = u64::from(hash);
    }
}

/// Tag pairs in the order they were read or inserted; names are case-sensitive and unique.
///
/// All text lives in one buffer, so a game's tags cost two allocations however many there
/// are. Nothing is filled in: a game without a `Date` tag has none here (the writer supplies
/// the Seven Tag Roster defaults, see [`roster_default`]).
#[derive(Clone, Default)]
pub struct Tags {
    text: String,
    entries: Vec<Entry>,
    /// Name hash (32 of its bits: names are compared anyway, and the map stays small enough for
    /// the caches) to the first entry with that hash, once there are [`INDEXED_FROM`] tags.
    index: HashMap<u32, u32, BuildHasherDefault<AlreadyHashed>>,
    /// Keys of the index (random per instance, so no input can make names collide on purpose).
    hasher: RandomState,
}

impl PartialEq for Tags {
    fn eq(&self, other: &Tags) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Tags {}

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags::default()
    }

    /// How many tags there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// How many bytes of text (names and values) the tags hold.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// True when there is no tag.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Reserves room for at least `tags` more tags whose names and values hold `text` bytes, so
    /// that inserting them does not allocate, or fails (changing nothing) when memory runs out:
    /// the `Vec::try_reserve` of [`Tags::insert`]. (Replacing a value needs room for its text
    /// only.)
    pub fn try_reserve(&mut self, tags: usize, text: usize) -> Result<(), TryReserveError> {
        self.text.try_reserve(text)?;
        self.entries.try_reserve(tags)?;
        // The index holds every tag once there are `INDEXED_FROM`; a removal rebuilds it in
        // the room it had.
        let indexed = self.entries.len() + tags;
        if indexed >= INDEXED_FROM {
            self.index.try_reserve(indexed - self.index.len())?;
        }
        Ok(())
    }

    /// A copy of the tags, or an error when memory runs out (`clone` aborts then).
    pub fn try_clone(&self) -> Result<Tags, TryReserveError> {
        let mut index = HashMap::default();
        index.try_reserve(self.index.len())?;
        index.extend(self.index.iter().map(|(&hash, &entry)| (hash, entry)));
        Ok(Tags {
            text: try_string(&self.text)?,
            entries: try_to_vec(&self.entries)?,
            index,
            hasher: self.hasher.clone(),
        })
    }

    fn slice(&self, (start, len): (usize, usize)) -> &str {
        &self.text[start..start + len]
    }

    fn push_text(&mut self, s: &str) -> (usize, usize) {
        let start = self.text.len();
        self.text.push_str(s);
        (start, s.len())
    }

    /// The entry named `name`, and the name's hash when the index is in use.
    fn find(&self, name: &str) -> (Option<usize>, Option<u32>) {
        if self.index.is_empty() {
            // Bytes, lengths first: most names differ in length, and the text is whole tags.
            let text = self.text.as_bytes();
            let same =
                |&(start, len): &(usize, usize)| len == name.len() && &text[start..start + len] == name.as_bytes();
            return (self.entries.iter().position(|e| same(&e.name)), None);
        }
        let hash = self.name_hash(name);
        let mut i = self.index.get(&hash).copied().unwrap_or(NONE);
        while i != NONE {
            let entry = &self.entries[i as usize];
            if self.slice(entry.name) == name {
                return (Some(i as usize), Some(hash));
            }
            i = entry.same_hash;
        }
        (None, Some(hash))
    }

    fn name_hash(&self, name: &str) -> u32 {
        (self.hasher.hash_one(name) >> 32) as u32
    }

    /// Puts entry `i`, whose name has `hash`, into the index.
    fn index_entry(&mut self, i: usize, hash: u32) {
        self.entries[i].same_hash = self.index.insert(hash, i as u32).unwrap_or(NONE);
    }

    /// Builds the index from scratch (when it starts, and after a removal renumbered entries).
    fn rebuild_index(&mut self) {
        self.index.clear();
        if self.entries.len() >= INDEXED_FROM {
            self.index.reserve(self.entries.len());
            // In reverse, so that each chain lists entries in order (names are unique anyway).
            for i in (0..self.entries.len()).rev() {
                let hash = self.name_hash(self.slice(self.entries[i].name));
                self.index_entry(i, hash);
            }
        }
    }

    /// The value of the tag `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.find(name).0.map(|i| self.slice(self.entries[i].value))
    }

    /// The `index`-th tag (in order) as (name, value).
    pub fn get_index(&self, index: usize) -> Option<(&str, &str)> {
        self.entries.get(index).map(|e| (self.slice(e.name), self.slice(e.value)))
    }

    /// Sets the tag `name` to `value`: a tag already present keeps its place, a new one goes
    /// last.
    pub fn insert(&mut self, name: &str, value: &str) {
        if self.index.is_empty() {
            match self.find(name).0 {
                Some(i) => self.entries[i].value = self.push_text(value),
                None => {
                    self.push_entry(name, value);
                    if self.entries.len() == INDEXED_FROM {
                        self.rebuild_index();
                    }
                }
            }
            return;
        }
        // One probe of the index for both the lookup and the insertion: at many thousands of
        // tags each probe is a cache miss.
        let hash = self.name_hash(name);
        let new = self.entries.len() as u32;
        let head = *self.index.entry(hash).or_insert(new);
        let mut i = head;
        while i != new && i != NONE {
            if self.slice(self.entries[i as usize].name) == name {
                self.entries[i as usize].value = self.push_text(value);
                return;
            }
            i = self.entries[i as usize].same_hash;
        }
        self.push_entry(name, value);
        if head != new {
            // A new name whose hash other names share: it heads their chain.
            self.entries[new as usize].same_hash = head;
            self.index.insert(hash, new);
        }
    }

    fn push_entry(&mut self, name: &str, value: &str) {
        let name = self.push_text(name);
        let value = self.push_text(value);
        self.entries.push(Entry { name, value, same_hash: NONE });
    }

    /// Removes the tag `name`, returning whether it was there.
    pub fn remove(&mut self, name: &str) -> bool {
        match self.find(name).0 {
            Some(i) => {
                self.entries.remove(i);
                if !self.index.is_empty() {
                    self.rebuild_index();
                }
                true
            }
            None => false,
        }
    }

    /// Removes every tag.
    pub fn clear(&mut self) {
        self.text.clear();
        self.entries.clear();
        self.index.clear();
    }

    /// The tags as (name, value), in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.entries.iter().map(|e| (self.slice(e.name), self.slice(e.value)))
    }
}

impl fmt::Debug for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'a> FromIterator<(&'a str, &'a str)> for Tags {
    fn from_iter<I: IntoIterator<Item = (&'a str, &'a str)>>(iter: I) -> Tags {
        let mut tags = Tags::new();
        for (name, value) in iter {
            tags.insert(name, value);
        }
        tags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_replaces_in_place() {
        let mut tags: Tags = [("Event", "a"), ("Site", "b"), ("Event", "c")].into_iter().collect();
        assert_eq!(tags.len(), 2);
        assert_eq!(tags.get("Event"), Some("c"));
        assert_eq!(tags.get_index(0), Some(("Event", "c")));
        assert_eq!(tags.get("event"), None);
        assert!(tags.remove("Event"));
        assert!(!tags.remove("Event"));
        assert_eq!(tags.iter().collect::<Vec<_>>(), [("Site", "b")]);
        assert_eq!(roster_default("Date"), Some("????.??.??"));
        assert_eq!(roster_default("WhiteElo"), None);
        assert!(is_tag_name("WhiteElo") && is_tag_name("9_+#=:-x"));
        assert!(!is_tag_name("") && !is_tag_name("_x") && !is_tag_name("a b") && !is_tag_name("Événement"));
    }

    #[test]
    fn the_index_finds_what_a_scan_finds() {
        let mut tags = Tags::new();
        for i in 0..100 {
            tags.insert(&format!("T{i}"), &i.to_string());
            tags.insert("T0", "first");
        }
        assert_eq!(tags.len(), 100);
        assert_eq!((tags.get("T0"), tags.get("T99"), tags.get("T100")), (Some("first"), Some("99"), None));
        assert!(tags.remove("T50") && tags.get("T50").is_none() && tags.get("T51") == Some("51"));
        assert_eq!(tags.get_index(50), Some(("T51", "51")));
        let scanned: Tags = tags.iter().take(10).collect();
        assert_eq!(scanned.get("T9"), Some("9"));
        assert_eq!(tags, tags.iter().collect::<Tags>());
    }
}
