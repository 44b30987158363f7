#!/usr/bin/env bash
# Runs the C tests, the C++ wrapper's test and the examples under AddressSanitizer (leak
# checking on) and UBSan, then under valgrind memcheck (leak checking on), linked against the
# library of the `testing` profile, which it builds first (nothing to do after scripts/test.sh).
#
# usage: c_tests/run_sanitized.sh [asan|valgrind|all]   (default: all)
# Test data: tests/data, and the third-party files in $CHESSCORE_TESTDATA or ../shared/testdata
# when present (CHESSCORE_REQUIRE=testdata or all makes them required).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-all}"
testdata=tests/data
shared="${CHESSCORE_TESTDATA:-../shared/testdata}"
cc="${CC:-cc}"
cxx="${CXX:-c++}"
shared_args=()
if [ -d "$shared" ]; then
    shared_args=("$shared")
elif [[ ",${CHESSCORE_REQUIRE:-}," =~ ,(all|testdata), ]]; then
    echo "run_sanitized: the third-party test files are not at $shared (CHESSCORE_REQUIRE makes them required)" >&2
    exit 1
else
    echo "run_sanitized: not run: the checks on the third-party test files (not at $shared)" >&2
fi
# The engine test drives the fake engines, built plainly (they are the other side of a pipe, not
# the code under test), and Stockfish when it is installed.
stockfish_args=()
stockfish="$(command -v stockfish || { [ -x /usr/games/stockfish ] && echo /usr/games/stockfish; } || true)"
if [ -n "$stockfish" ]; then
    stockfish_args=("$stockfish")
elif [[ ",${CHESSCORE_REQUIRE:-}," =~ ,(all|stockfish), ]]; then
    echo "run_sanitized: stockfish is not installed (CHESSCORE_REQUIRE makes it required)" >&2
    exit 1
else
    echo "run_sanitized: not run: the Stockfish part of the engine test (stockfish is not installed)" >&2
fi
cargo build --profile testing -p chesscore --lib --quiet
lib_dir="$(cd "${CARGO_TARGET_DIR:-target}/testing" && pwd)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Programs ask the run-time linker for the soname.
mkdir "$work/lib"
major=$(sed -n 's/^version = "\([0-9]*\)\..*/\1/p' Cargo.toml | head -n 1)
ln -s "$lib_dir/libchesscore.so" "$work/lib/libchesscore.so.$major"
"${CC:-cc}" -std=c99 -O1 c_tests/fake_engine.c -o "$work/fake_engine"

sanitize=(-fsanitize=address,undefined -fno-sanitize-recover=all)
flags=(-std=c99 -Wall -Wextra -Werror -pedantic -g -O1 -fno-omit-frame-pointer -Iinclude)
link=(-L"$lib_dir" -lchesscore -Wl,-rpath,"$work/lib")

# The sanitizer runtimes come with gcc's libraries; install them when the compiler lacks them.
probe() { echo 'int main(void) { return 0; }' | "$cc" -fsanitize=address,undefined -x c - -o "$work/probe" 2>/dev/null; }

export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

passed=0
run() {
    echo "run_sanitized: $*"
    "${runner[@]}" "$@"
    passed=$((passed + 1))
}

# Builds every program into $work/$1 with the extra compiler flags that follow.
build() {
    local dir="$work/$1"
    shift
    mkdir -p "$dir"
    for name in api perft san game epd chess960 pgn pgn_tree svg engine book binary embedding tablebase setup variant variant_game variant_layers; do
        "$cc" "${flags[@]}" -DCHESS_WARN_DEPRECATED "$@" "c_tests/$name.c" -o "$dir/$name" "${link[@]}"
    done
    # The one program that calls the deprecated functions.
    "$cc" "${flags[@]}" "$@" c_tests/deprecated.c -o "$dir/deprecated" "${link[@]}"
    for name in perft legal_moves search; do
        "$cc" "${flags[@]}" "$@" "examples/$name.c" -o "$dir/example_$name" "${link[@]}"
    done
    "$cxx" "${flags[@]/-std=c99/-std=c++17}" "$@" c_tests/cxx_wrapper.cpp -o "$dir/cxx_wrapper" "${link[@]}"
}

# Runs the programs of $work/$1; $2 divides the perft budgets (valgrind is some 50 times slower).
run_all() {
    local dir="$work/$1" scale=$2
    run "$dir/api" "$testdata" "$work"
    run "$dir/deprecated"
    run "$dir/perft" "$testdata" $((1000000 / scale))
    run "$dir/san" "$testdata" "${shared_args[@]}"
    run "$dir/game"
    run "$dir/epd" "$testdata" "${shared_args[@]}"
    run "$dir/chess960" "$testdata" $((5000000 / scale))
    run "$dir/pgn" "$testdata/pgn"
    run "$dir/pgn_tree" "$testdata"/pgn/*.pgn >/dev/null
    run "$dir/svg" "$work"
    run "$dir/cxx_wrapper" "$testdata" "$work" $((1000000 / scale)) "$work/fake_engine"
    run "$dir/engine" "$work/fake_engine" "${stockfish_args[@]}"
    run "$dir/book" "$testdata" "$work" "${shared_args[@]}"
    run "$dir/binary" "$testdata" "$work"
    run "$dir/setup" $((20000 / scale))
    run "$dir/variant" $((20000 / scale))
    run "$dir/variant_game" $((2000 / scale))
    run "$dir/variant_layers" $((20000 / scale))
    run "$dir/tablebase" "$work" "${shared_args[@]}"
    run "$dir/example_perft" "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 3
    run "$dir/example_search" "$testdata/epd/mate_in_2.epd" >/dev/null
    # Some 32 million checks: under AddressSanitizer only (valgrind would take an hour).
    if [ "$scale" = 1 ]; then
        run "$dir/embedding" "$testdata"
    fi
    run "$dir/example_legal_moves" >/dev/null
    if "${runner[@]}" "$dir/example_legal_moves" "not a fen" 2>/dev/null; then
        echo "run_sanitized: legal_moves accepted a bad FEN" >&2
        exit 1
    fi
    passed=$((passed + 1))
}

if [ "$mode" = all ] || [ "$mode" = asan ]; then
    if ! probe; then
        echo "run_sanitized: installing the sanitizer runtimes" >&2
        apt-get update -qq && apt-get install -y -qq gcc libasan8 libubsan1 >/dev/null
        probe
    fi
    runner=()
    build asan "${sanitize[@]}"
    run_all asan 1
fi
if [ "$mode" = all ] || [ "$mode" = valgrind ]; then
    command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
    runner=(valgrind --quiet --error-exitcode=1 --leak-check=full --show-leak-kinds=definite,indirect
            --errors-for-leak-kinds=definite,indirect)
    build valgrind
    run_all valgrind 10
fi
echo "sanitized C tests ($mode): $passed passed, 0 failed"
