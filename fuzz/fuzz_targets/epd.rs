//! EPD reading: never panics; what is accepted writes a canonical line that reads back to
//! itself.
#![no_main]

use chesscore_core::Epd;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(epd) = Epd::parse(text) {
        let written = epd.to_string();
        let again = Epd::parse(&written).unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
        assert_eq!(again.to_string(), written);
    }
});
