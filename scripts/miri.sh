#!/usr/bin/env bash
# Runs the tests that exercise unsafe code under Miri: the C ABI layer called from Rust
# (handles, buffers, games' positions, EPD records, threads) and the core's unit tests that
# reach its few `unsafe` blocks (enum conversions). Needs the nightly toolchain with Miri;
# installs it when absent.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! cargo +nightly miri --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal --component miri --component rust-src
fi
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-strict-provenance}"
cargo +nightly miri test -p chesscore --lib
cargo +nightly miri test -p chesscore-core --lib -- square:: bitboard:: castling:: board::moves:: piece:: color:: zobrist
cargo +nightly miri test -p chesscore --test ffi_miri --test ffi_threads
