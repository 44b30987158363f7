#!/usr/bin/env bash
# Runs the tablebase's eight-thread probing test under ThreadSanitizer for 10 s (both I/O
# modes, files opened and closed as the threads go). TSan needs the standard library built with
# it too (-Zbuild-std), so this takes the nightly toolchain with rust-src (scripts/miri.sh
# installs it) and a few minutes the first time; its own target directory keeps later runs short.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup component list --toolchain nightly --installed 2>/dev/null | grep -q '^rust-src'; then
  rustup toolchain install nightly --profile minimal --component rust-src
fi
target="$(rustc -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Zsanitizer=thread"
export TSAN_OPTIONS="halt_on_error=1"
export CHESSCORE_THREADS_SECONDS="${CHESSCORE_THREADS_SECONDS:-10}"
cargo +nightly test -Zbuild-std --target "$target" --target-dir "${CARGO_TARGET_DIR:-target}/tsan" \
  -p chesscore-core --test syzygy -- --exact eight_threads_probe_the_same_tables
