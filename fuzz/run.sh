#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) on its seed corpus and fails on any
# finding (the input is kept in fuzz/artifacts/TARGET/). CI runs it for a few seconds a target.
#
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
#   FUZZ_SANITIZER=address (default) or none: AddressSanitizer (and its leak checker), or plain
#   coverage-guided fuzzing at several times the speed, for the long runs.
#   FUZZ_RUNS=N: stop each target after N executions instead of SECONDS.
#   FUZZ_MAX_LEN=N: longest input tried (default 65536).
#
# The targets are built the way cargo-fuzz builds them (libFuzzer via libfuzzer-sys, sancov
# instrumentation) with plain cargo and the nightly toolchain, so cargo-fuzz need not be
# installed; `cargo +nightly fuzz run TARGET` works as well.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
sanitizer=${FUZZ_SANITIZER:-address}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(fen san uci epd pgn cabi book binary_fen binpack tablebase variant)
fi

host=$(rustc +nightly -vV | sed -n 's/^host: //p')
flags=(-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table
  -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks)
if [ "$sanitizer" = address ]; then
  flags+=(-Zsanitizer=address)
fi
target_dir="target/$sanitizer"
RUSTFLAGS="${flags[*]}" cargo +nightly build --quiet --release --target "$host" --target-dir "$target_dir" --bins
bin="$target_dir/$host/release"

python3 seed_corpus.py corpus
mkdir -p logs
limit=(-max_total_time="$seconds")
if [ -n "${FUZZ_RUNS:-}" ]; then
  limit=(-runs="$FUZZ_RUNS")
fi
for target in "${targets[@]}"; do
  echo "== $target ($sanitizer): ${FUZZ_RUNS:-${seconds}s}"
  mkdir -p "artifacts/$target"
  status=0
  "$bin/$target" "corpus/$target" "${limit[@]}" -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-65536}" -timeout=20 \
    -print_final_stats=1 -artifact_prefix="artifacts/$target/" >"logs/$target.log" 2>&1 || status=$?
  grep -E "^(Done|stat::number_of_executed_units|stat::average_exec_per_sec)" "logs/$target.log" || true
  if [ "$status" -ne 0 ]; then
    grep -E "panicked|ERROR|SUMMARY" -A3 "logs/$target.log" | head -20 >&2 || true
    echo "fuzz target $target found a problem: see fuzz/logs/$target.log and fuzz/artifacts/$target" >&2
    exit 1
  fi
done
