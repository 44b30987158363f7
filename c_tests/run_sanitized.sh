#!/usr/bin/env bash
# Runs the C tests, the C++ wrapper's test and the examples under AddressSanitizer (leak
# checking on) and UBSan, linked
# against the release library, which it builds first (nothing to do after `cargo test --release`
# but to copy the library to target/release).
#
# usage: c_tests/run_sanitized.sh
# Test data: $CHESSCORE_TESTDATA, or ../shared/testdata beside the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."

testdata="${CHESSCORE_TESTDATA:-../shared/testdata}"
cc="${CC:-cc}"
cxx="${CXX:-c++}"
if [ ! -d "$testdata" ]; then
    echo "run_sanitized: test data not found at $testdata (set CHESSCORE_TESTDATA)" >&2
    exit 1
fi
cargo build --release --lib --quiet
lib_dir="$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

flags=(-std=c99 -Wall -Wextra -Werror -pedantic -g -O1 -fno-omit-frame-pointer
       -fsanitize=address,undefined -fno-sanitize-recover=all -Iinclude)
link=(-L"$lib_dir" -lchesscore -Wl,-rpath,"$lib_dir")

# The sanitizer runtimes come with gcc's libraries; install them when the compiler lacks them.
probe() { echo 'int main(void) { return 0; }' | "$cc" -fsanitize=address,undefined -x c - -o "$work/probe" 2>/dev/null; }
if ! probe; then
    echo "run_sanitized: installing the sanitizer runtimes" >&2
    apt-get update -qq && apt-get install -y -qq gcc libasan8 libubsan1 >/dev/null
    probe
fi

export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

passed=0
run() {
    echo "run_sanitized: $*"
    "$@"
    passed=$((passed + 1))
}

for name in api perft san game epd chess960; do
    "$cc" "${flags[@]}" "c_tests/$name.c" -o "$work/$name" "${link[@]}"
done
for name in perft legal_moves; do
    "$cc" "${flags[@]}" "examples/$name.c" -o "$work/example_$name" "${link[@]}"
done
"$cxx" "${flags[@]/-std=c99/-std=c++17}" c_tests/cxx_wrapper.cpp -o "$work/cxx_wrapper" "${link[@]}"

run "$work/api" "$testdata" "$work"
run "$work/perft" "$testdata" 1000000
run "$work/san" "$testdata"
run "$work/game"
run "$work/epd" "$testdata"
run "$work/chess960" "$testdata" 5000000
run "$work/cxx_wrapper" "$testdata" "$work" 1000000
run "$work/example_perft" "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 3
run "$work/example_legal_moves" >/dev/null
if "$work/example_legal_moves" "not a fen" 2>/dev/null; then
    echo "run_sanitized: legal_moves accepted a bad FEN" >&2
    exit 1
fi
passed=$((passed + 1))
echo "sanitized C tests: $passed passed, 0 failed"
