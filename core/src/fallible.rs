//! Allocation that reports failure instead of aborting: a program embedding the library (the C
//! library's callers among them) must never be killed by it when memory runs out. The `try_`
//! constructors of the core build on these.

use std::collections::TryReserveError;
use std::fmt::{self, Write};

/// `Box::new`, or an error when memory runs out (`Box::try_new` is not stable yet).
pub fn try_box<T>(value: T) -> Result<Box<T>, TryReserveError> {
    let mut one = Vec::new();
    one.try_reserve_exact(1)?;
    one.push(value);
    // Length and capacity are 1, so no reallocation; `[T; 1]` and `T` have one layout.
    let slice: Box<[T]> = one.into_boxed_slice();
    // SAFETY: the pointer owns one initialised `T`, allocated as `Box<T>` would be.
    Ok(unsafe { Box::from_raw(Box::into_raw(slice).cast::<T>()) })
}

/// `vec.push(value)`, or an error (and `vec` unchanged) when memory runs out.
#[inline]
pub fn try_push<T>(vec: &mut Vec<T>, value: T) -> Result<(), TryReserveError> {
    try_room(vec, 1)?;
    vec.push(value);
    Ok(())
}

/// `vec.try_reserve(n)` with its check that there is room already made in line (the standard
/// library's is a call), for the paths that reserve before each thing they add.
#[inline(always)]
pub(crate) fn try_room<T>(vec: &mut Vec<T>, n: usize) -> Result<(), TryReserveError> {
    if vec.capacity() - vec.len() >= n {
        Ok(())
    } else {
        grow(vec, n)
    }
}

/// [`try_room`] for a string.
#[inline(always)]
pub(crate) fn try_room_str(text: &mut String, n: usize) -> Result<(), TryReserveError> {
    if text.capacity() - text.len() >= n {
        Ok(())
    } else {
        grow_str(text, n)
    }
}

#[cold]
#[inline(never)]
fn grow<T>(vec: &mut Vec<T>, n: usize) -> Result<(), TryReserveError> {
    vec.try_reserve(n)
}

#[cold]
#[inline(never)]
fn grow_str(text: &mut String, n: usize) -> Result<(), TryReserveError> {
    text.try_reserve(n)
}

/// A copy of `items`, or an error when memory runs out.
pub fn try_to_vec<T: Clone>(items: &[T]) -> Result<Vec<T>, TryReserveError> {
    let mut copy = Vec::new();
    copy.try_reserve_exact(items.len())?;
    copy.extend_from_slice(items);
    Ok(copy)
}

/// `text.to_string()`, or an error when memory runs out.
pub fn try_string(text: &str) -> Result<String, TryReserveError> {
    let mut copy = String::new();
    copy.try_reserve_exact(text.len())?;
    copy.push_str(text);
    Ok(copy)
}

/// `value.to_string()`, or an error when memory runs out: the text is measured first, so the
/// one allocation is exact and writing never grows it.
pub fn try_to_string(value: &impl fmt::Display) -> Result<String, TryReserveError> {
    let mut length = Length(0);
    // A `Display` that fails leaves the text short, as `to_string` would panic; never here.
    let _ = write!(length, "{value}");
    let mut text = String::new();
    text.try_reserve_exact(length.0)?;
    let _ = write!(text, "{value}");
    Ok(text)
}

/// A `fmt::Write` that only counts bytes.
pub(crate) struct Length(pub(crate) usize);

impl Write for Length {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallible_copies_equal_the_usual_ones() {
        assert_eq!(*try_box(7u64).unwrap(), 7);
        assert_eq!(*try_box(()).unwrap(), ());
        assert_eq!(try_to_vec(&[1, 2, 3]).unwrap(), [1, 2, 3]);
        assert_eq!(try_string("é!").unwrap(), "é!");
        let text = try_to_string(&format_args!("{} {:?}", 12, "x")).unwrap();
        assert_eq!((text.as_str(), text.capacity()), ("12 \"x\"", 6));
        let mut v = vec![1];
        try_push(&mut v, 2).unwrap();
        assert_eq!(v, [1, 2]);
    }
}
