//! Boundary helpers: panic catching, pointer checks, output writing. Nothing here knows chess.

use std::cell::Cell;
use std::ffi::{c_char, CStr};
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

use super::error::*;

/// Runs the body of an exported function; a panic becomes `fallback` instead of unwinding into C,
/// and prints nothing.
#[inline(always)]
pub(crate) fn guard<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    SILENT_PANICS.call_once(silence_library_panics);
    // A count, not a flag: a guard may run inside another (a `_free` called by the library), and
    // nothing stays live in a register across `body`.
    GUARD_DEPTH.with(|depth| depth.set(depth.get() + 1));
    let result = panic::catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback);
    GUARD_DEPTH.with(|depth| depth.set(depth.get() - 1));
    result
}

thread_local! {
    /// How many [`guard`]s this thread runs inside; they catch whatever panics there, so the
    /// panic hook stays silent exactly while it is not 0. (`const`: no lazy initialisation, no
    /// destructor, no allocation: an increment and a decrement of a thread-local per call.)
    static GUARD_DEPTH: Cell<u32> = const { Cell::new(0) };
}

static SILENT_PANICS: Once = Once::new();

type PanicHook = Box<dyn Fn(&panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

static PREVIOUS_HOOK: OnceLock<PanicHook> = OnceLock::new();

/// A panic inside [`guard`] is caught at the boundary and reported as an error code, so its
/// message must not reach the host program's standard error. A panic anywhere else (in a Rust
/// program calling in, on another thread, say) still goes to the hook that was there before.
/// Allocates nothing (the new hook captures nothing), so it works when memory has run out.
fn silence_library_panics() {
    // The first call sets it; a later `take_hook` would only hand back this hook.
    let _ = PREVIOUS_HOOK.set(panic::take_hook());
    panic::set_hook(Box::new(|info| {
        // A thread being torn down has no flag left: it is outside any guard.
        if GUARD_DEPTH.try_with(Cell::get).unwrap_or(0) == 0 {
            if let Some(previous) = PREVIOUS_HOOK.get() {
                previous(info);
            }
        }
    }));
}

/// The prologue of the functions writing text about one handle, checked once: a NULL handle
/// gives `CHESS_ERR_NULL_POINTER`, then the text output `(buf, cap, out_len)`; `body` writes
/// through it. All inside [`guard_code`] (making `handle` cannot panic). `body` comes from
/// outside the caller's `unsafe` block, so that it stays safe code.
///
/// # Safety
/// `buf` is NULL or valid for `cap` bytes of writes, and `out_len` NULL or valid for a write.
pub(crate) unsafe fn text_of<'a, H: ?Sized>(
    handle: Option<&'a H>,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
    body: impl FnOnce(&'a H, TextOut) -> Result<(), chess_error>,
) -> chess_error {
    guard_code(|| {
        let handle = handle.ok_or(CHESS_ERR_NULL_POINTER)?;
        // SAFETY: this function's contract.
        let out = unsafe { TextOut::new(buf, cap, out_len) }?;
        body(handle, out)
    })
}

/// [`guard`] for functions returning an error code: the body reports failures with `Err` (so it
/// can use `?`) and a panic becomes [`CHESS_ERR_INTERNAL`].
#[inline(always)]
pub(crate) fn guard_code(body: impl FnOnce() -> Result<(), chess_error>) -> chess_error {
    guard(CHESS_ERR_INTERNAL, || body().err().unwrap_or(CHESS_OK))
}

/// Moves `value` to the heap as `Box` would, but returns NULL when memory runs out instead of
/// aborting: handles are freed with `Box::from_raw`.
pub(crate) fn try_box<T>(value: T) -> *mut T {
    chesscore_core::fallible::try_box(value).map_or(std::ptr::null_mut(), Box::into_raw)
}

/// The body of every `_free`: drops the handle `ptr` (NULL: nothing), catching any panic of its
/// destructor.
///
/// # Safety
/// `ptr` is NULL or a handle of this library's made by [`try_box`] (or `Box`), handed back once
/// and used by no one else.
pub(crate) unsafe fn free_handle<T>(ptr: *mut T) {
    guard((), || {
        if !ptr.is_null() {
            // SAFETY: this function's contract: `try_box` allocates as `Box` does.
            drop(unsafe { Box::from_raw(ptr) });
        }
    })
}

/// [`try_box`] with a failed allocation as `CHESS_ERR_OUT_OF_MEMORY`.
pub(crate) fn box_or_oom<T>(value: T) -> Result<*mut T, chess_error> {
    let ptr = try_box(value);
    if ptr.is_null() {
        Err(CHESS_ERR_OUT_OF_MEMORY)
    } else {
        Ok(ptr)
    }
}

/// The code of a failed reservation (`map_err(oom)`).
pub(crate) fn oom(_: std::collections::TryReserveError) -> chess_error {
    CHESS_ERR_OUT_OF_MEMORY
}

/// The bytes of a NUL-terminated string, without the NUL.
///
/// # Safety
/// `s` is NULL or points to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn c_bytes<'a>(s: *const c_char) -> Result<&'a [u8], chess_error> {
    if s.is_null() {
        return Err(CHESS_ERR_NULL_POINTER);
    }
    // SAFETY: `s` is not NULL, so it points to a NUL-terminated string outliving `'a` (this
    // function's contract).
    Ok(unsafe { CStr::from_ptr(s) }.to_bytes())
}

/// The bytes of a `(data, len)` input: `data` may be NULL only when `len` is 0.
///
/// # Safety
/// `data` is NULL or valid for `len` bytes of reads during `'a`.
pub(crate) unsafe fn c_slice<'a>(data: *const u8, len: usize) -> Result<&'a [u8], chess_error> {
    match (data.is_null(), len) {
        (_, 0) => Ok(&[]),
        (true, _) => Err(CHESS_ERR_NULL_POINTER),
        // SAFETY: `data` is not NULL, so it is valid for `len` bytes of reads (this function's
        // contract).
        (false, _) => Ok(unsafe { std::slice::from_raw_parts(data, len) }),
    }
}

/// A NUL-terminated string that must be UTF-8.
///
/// # Safety
/// As for [`c_bytes`].
pub(crate) unsafe fn c_utf8<'a>(s: *const c_char) -> Result<&'a str, chess_error> {
    // SAFETY: this function's contract is `c_bytes`'s.
    std::str::from_utf8(unsafe { c_bytes(s) }?).map_err(|_| CHESS_ERR_INVALID_TEXT)
}

/// A NUL-terminated string that must be ASCII.
///
/// # Safety
/// As for [`c_bytes`].
pub(crate) unsafe fn c_ascii<'a>(s: *const c_char) -> Result<&'a str, chess_error> {
    // SAFETY: this function's contract is `c_utf8`'s.
    let text = unsafe { c_utf8(s) }?;
    if !text.is_ascii() {
        return Err(CHESS_ERR_INVALID_TEXT);
    }
    Ok(text)
}

/// A checked, non-NULL output pointer, written once the call has succeeded. The caller vouches
/// for the pointer once, to [`Out::new`]; writing it is then safe.
pub(crate) struct Out<T>(*mut T);

impl<T> Out<T> {
    /// # Safety
    /// `ptr` is NULL or valid for a write of `T` as long as the `Out` lives.
    pub(crate) unsafe fn new(ptr: *mut T) -> Result<Out<T>, chess_error> {
        if ptr.is_null() {
            Err(CHESS_ERR_NULL_POINTER)
        } else {
            Ok(Out(ptr))
        }
    }

    pub(crate) fn write(self, value: T) {
        // SAFETY: `new` checked that the pointer is not NULL, and its contract makes it valid.
        unsafe { self.0.write(value) };
    }
}

/// Writes `value` through `ptr` when it is not NULL (optional outputs).
///
/// # Safety
/// `ptr` is NULL or valid for a write of `T`.
pub(crate) unsafe fn write_optional<T>(ptr: *mut T, value: T) {
    if !ptr.is_null() {
        // SAFETY: `ptr` is not NULL, so it is valid for a write (this function's contract).
        unsafe { ptr.write(value) };
    }
}

/// A C struct that can grow: its first field, `size: usize`, states how many bytes the caller's
/// copy has, and fields added by later versions are read only when it covers them.
///
/// # Safety
/// The type is `#[repr(C)]` and its first field is `size: usize`.
pub(crate) unsafe trait Versioned {}

/// Whether the struct at `ptr` states a size that covers this version's: a smaller one must not
/// be read whole (`CHESS_ERR_INVALID_ARGUMENT`).
///
/// # Safety
/// `ptr` is not NULL and points to a `T` of at least the size its first field states.
unsafe fn check_size<T: Versioned>(ptr: *const T) -> Result<(), chess_error> {
    // SAFETY: a `Versioned` struct starts with its `size` (the trait's contract), readable on its
    // own whatever the caller's version (this function's contract).
    if unsafe { ptr.cast::<usize>().read() } < size_of::<T>() {
        return Err(CHESS_ERR_INVALID_ARGUMENT);
    }
    Ok(())
}

/// `ptr` as a reference (`None` for NULL), or `CHESS_ERR_INVALID_ARGUMENT` when it states a size
/// smaller than this version's struct.
///
/// # Safety
/// `ptr` is NULL or valid for reads and writes of the size its first field states, and nothing
/// else uses it meanwhile.
pub(crate) unsafe fn versioned<'a, T: Versioned>(ptr: *mut T) -> Result<Option<&'a mut T>, chess_error> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: not NULL, and valid for the size it states (this function's contract).
    unsafe { check_size(ptr) }?;
    // SAFETY: valid for the size it states, which covers all of `T` (checked just above).
    Ok(Some(unsafe { &mut *ptr }))
}

/// [`versioned`] for a struct the library only reads.
///
/// # Safety
/// `ptr` is NULL or valid for reads of the size its first field states.
pub(crate) unsafe fn versioned_ref<'a, T: Versioned>(ptr: *const T) -> Result<Option<&'a T>, chess_error> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: not NULL, and valid for the size it states (this function's contract).
    unsafe { check_size(ptr) }?;
    // SAFETY: valid for reads of the size it states, which covers all of `T` (checked just above).
    Ok(Some(unsafe { &*ptr }))
}

/// Copies the first `cap` of `items` to `out` (which may be NULL only when `cap` is 0) and
/// returns how many there are; 0 when `out` is NULL with `cap` > 0.
///
/// # Safety
/// `out` is NULL or valid for `cap` writes.
pub(crate) unsafe fn fill_array<T>(items: impl IntoIterator<Item = T>, out: *mut T, cap: usize) -> usize {
    if out.is_null() && cap > 0 {
        return 0;
    }
    let mut items = items.into_iter();
    let mut count = 0;
    for item in items.by_ref().take(cap) {
        // SAFETY: `count < cap`, so `out` is not NULL and valid for this write (this function's
        // contract).
        unsafe { out.add(count).write(item) };
        count += 1;
    }
    count + items.count()
}

/// A text output `(buf, cap, out_len)`: `buf` may be NULL only when `cap` is 0, `out_len` may be
/// NULL. On success the text and a NUL are copied; when they do not fit, only `*out_len` is set.
/// The caller vouches for the pointers once, to [`TextOut::new`]; writing them is then safe.
pub(crate) struct TextOut {
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
}

impl TextOut {
    /// # Safety
    /// As long as the `TextOut` lives, `buf` is NULL or valid for `cap` bytes of writes, and
    /// `out_len` is NULL or valid for a write.
    pub(crate) unsafe fn new(buf: *mut c_char, cap: usize, out_len: *mut usize) -> Result<TextOut, chess_error> {
        if buf.is_null() && cap > 0 {
            return Err(CHESS_ERR_NULL_POINTER);
        }
        Ok(TextOut { buf, cap, out_len })
    }

    /// Copies `text` (which holds no NUL) and a terminating NUL; returns `buf`.
    pub(crate) fn write(self, text: &[u8]) -> Result<*mut c_char, chess_error> {
        self.write_with(|sink| {
            sink.write_bytes(text);
            Ok(())
        })
    }

    /// Writes the text `text` formats (holding no NUL) straight into `buf`, without building it
    /// anywhere else: `text` runs once to measure it and, when it fits, again to copy it, so
    /// that a buffer too small stays untouched as the API rules say. `text` runs the same both
    /// times; if it allocates, it does so before its first write, so that its error (such as
    /// `CHESS_ERR_OUT_OF_MEMORY`) also leaves the outputs untouched.
    pub(crate) fn write_with(
        self,
        mut text: impl FnMut(&mut Sink) -> Result<(), chess_error>,
    ) -> Result<*mut c_char, chess_error> {
        let mut measure = Sink { buf: std::ptr::null_mut(), room: 0, len: 0 };
        text(&mut measure)?;
        let len = measure.len;
        if len >= self.cap {
            // SAFETY: `out_len` is NULL or valid for a write (`new`'s contract).
            unsafe { write_optional(self.out_len, len) };
            return Err(CHESS_ERR_BUFFER_TOO_SMALL);
        }
        // `len < cap`: `buf` is not NULL (`new` checked it) and has room for the text and a NUL.
        let mut copy = Sink { buf: self.buf.cast::<u8>(), room: len, len: 0 };
        text(&mut copy)?;
        // SAFETY: `copy.len.min(len) < cap`, and `buf` is valid for `cap` bytes (`new`'s contract).
        unsafe { self.buf.add(copy.len.min(len)).write(0) };
        // SAFETY: `out_len` is NULL or valid for a write (`new`'s contract).
        unsafe { write_optional(self.out_len, len) };
        Ok(self.buf)
    }
}

/// Where [`TextOut::write_with`] formats: it counts the bytes, and copies those that fit in its
/// room (none while measuring).
pub(crate) struct Sink {
    buf: *mut u8,
    room: usize,
    len: usize,
}

impl Sink {
    pub(crate) fn write_bytes(&mut self, bytes: &[u8]) {
        let n = bytes.len().min(self.room.saturating_sub(self.len));
        if n > 0 {
            // SAFETY: `buf` has `room` bytes (see `TextOut::write_with`), and `len + n <= room`.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.buf.add(self.len), n) };
        }
        self.len += bytes.len();
    }
}

impl fmt::Write for Sink {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.write_bytes(s.as_bytes());
        Ok(())
    }
}

/// A fixed-capacity text buffer on the stack, so short outputs need no allocation.
pub(crate) struct StackText<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> StackText<N> {
    pub(crate) fn new() -> Self {
        StackText { bytes: [0; N], len: 0 }
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl<const N: usize> fmt::Write for StackText<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    #[test]
    fn a_panic_becomes_the_fallback() {
        assert_eq!(guard(7, || -> i32 { panic!("boom") }), 7);
        assert_eq!(guard_code(|| panic!("boom")), CHESS_ERR_INTERNAL);
        assert_eq!(guard_code(|| Err(CHESS_ERR_INVALID_ARGUMENT)), CHESS_ERR_INVALID_ARGUMENT);
        assert_eq!(guard_code(|| Ok(())), CHESS_OK);
    }

    /// Run by `a_caught_panic_prints_nothing` in a child process, whose standard error it reads.
    #[test]
    fn panic_in_a_child_process() {
        if std::env::var_os("CHESSCORE_PANIC_CHILD").is_some() {
            assert_eq!(guard(1, || -> i32 { panic!("boom") }), 1);
            eprintln!("child done");
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "Miri runs no child process")]
    fn a_caught_panic_prints_nothing() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "util::tests::panic_in_a_child_process", "--nocapture", "--test-threads=1"])
            .env("CHESSCORE_PANIC_CHILD", "1")
            .env("RUST_BACKTRACE", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && stderr.contains("child done"), "{stderr}");
        assert!(!stderr.contains("panicked") && !stderr.contains("boom"), "{stderr}");
    }

    /// Run by `a_panic_outside_the_guard_still_prints` in a child process: the hook is installed
    /// by a first guarded call, then this crate's own code panics outside any guard, as a Rust
    /// caller's code would (the old check by file path took this file for the library's).
    #[test]
    fn outside_panic_in_a_child_process() {
        if std::env::var_os("CHESSCORE_OUTSIDE_PANIC_CHILD").is_some() {
            assert_eq!(guard(1, || -> i32 { panic!("inside") }), 1);
            let caught = panic::catch_unwind(|| panic!("outside the guard"));
            assert!(caught.is_err());
            assert_eq!(guard(2, || 2), 2);
            eprintln!("child done");
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "Miri runs no child process")]
    fn a_panic_outside_the_guard_still_prints() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "util::tests::outside_panic_in_a_child_process", "--nocapture", "--test-threads=1"])
            .env("CHESSCORE_OUTSIDE_PANIC_CHILD", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && stderr.contains("child done"), "{stderr}");
        assert!(stderr.contains("outside the guard") && !stderr.contains("inside"), "{stderr}");
    }

    #[test]
    fn text_out_follows_the_buffer_rule() {
        let mut buf = [b'x' as c_char; 4];
        let mut len = 99;
        // SAFETY: `buf` holds 4 bytes and `len` a `usize`, both outliving the `TextOut`.
        let out = unsafe { TextOut::new(buf.as_mut_ptr(), 4, &mut len) }.unwrap();
        assert_eq!(out.write(b"abcd"), Err(CHESS_ERR_BUFFER_TOO_SMALL));
        assert_eq!((len, buf[0]), (4, b'x' as c_char));
        // SAFETY: as above.
        let out = unsafe { TextOut::new(buf.as_mut_ptr(), 4, &mut len) }.unwrap();
        assert!(out.write(b"abc").is_ok());
        assert_eq!((len, buf[3]), (3, 0));
        // SAFETY: `buf` may be NULL (and is refused with a capacity above 0); `len` is a `usize`.
        assert!(unsafe { TextOut::new(std::ptr::null_mut(), 0, &mut len) }.is_ok());
        // SAFETY: as above.
        assert_eq!(unsafe { TextOut::new(std::ptr::null_mut(), 1, &mut len) }.err(), Some(CHESS_ERR_NULL_POINTER));
    }

    #[test]
    fn stack_text_refuses_overflow() {
        let mut text = StackText::<4>::new();
        assert!(text.write_str("abc").is_ok());
        assert!(text.write_str("de").is_err());
        assert_eq!(text.as_bytes(), b"abc");
    }
}
