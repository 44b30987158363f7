#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) on its seed corpus and fails on any
# finding. Needs the nightly toolchain and cargo-fuzz (cargo install cargo-fuzz).
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
python3 seed_corpus.py corpus
mkdir -p logs
for target in "${targets[@]}"; do
  echo "== $target: ${seconds}s"
  cargo +nightly fuzz run "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    2>&1 | tee "logs/$target.log" | grep -E "^(Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" || true
  if [ "${PIPESTATUS[0]}" -ne 0 ]; then
    echo "fuzz target $target found a problem: see fuzz/logs/$target.log and fuzz/artifacts/$target" >&2
    exit 1
  fi
done
