#!/usr/bin/env bash
# The test command. Installs what the suites need where it can (the Python tools into a virtual
# environment under target/venv; Debian packages when run as root), runs every suite of the
# workspace with the `testing` profile, then (without arguments) the benchmark crate's tests and
# `cargo package` of the workspace's crates, and ends with one line per suite that did not run,
# and why.
#
# Usage: scripts/test.sh [arguments for cargo test, e.g. --test perft]
# Environment:
#   CHESSCORE_REQUIRE=all or a list such as python,haxe: a missing tool then fails its suites
#     instead of leaving them out (tools: testdata, python, pkg-config, haxe, hxcpp, chromium,
#     rsvg-convert, nm, stockfish, cmake)
#   CHESSCORE_NO_INSTALL=1: install nothing, use what is there
#   CHESSCORE_TESTDATA=DIR: the third-party test files (default ../shared/testdata)
set -uo pipefail
cd "$(dirname "$0")/.."

target=${CARGO_TARGET_DIR:-target}
# Absolute, so that a CARGO_TARGET_DIR given as an absolute path is not put under the checkout.
case $target in /*) ;; *) target="$PWD/$target" ;; esac
venv="$target/venv"
not_run="$target/tmp/not-run"

say() { printf 'test.sh: %s\n' "$*" >&2; }

# The Python tools: reinstalled when scripts/test-requirements.txt changes.
python_tools() {
  local stamp="$venv/requirements.txt"
  if cmp -s scripts/test-requirements.txt "$stamp"; then
    return
  fi
  say "installing the Python test tools into $venv"
  if python3 -m venv "$venv" >/dev/null &&
    "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check -r scripts/test-requirements.txt; then
    cp scripts/test-requirements.txt "$stamp"
  else
    say "could not install the Python test tools; the suites that need them will say so"
  fi
}

# Debian packages for the suites that need a system tool, when this runs as root.
system_tools() {
  local missing=()
  command -v haxe >/dev/null || missing+=(haxe)
  command -v pkg-config >/dev/null || [ -x "$venv/bin/pkg-config" ] || missing+=(pkg-config)
  command -v chromium >/dev/null || missing+=(chromium)
  command -v rsvg-convert >/dev/null || missing+=(librsvg2-bin)
  command -v stockfish >/dev/null || [ -x /usr/games/stockfish ] || missing+=(stockfish)
  command -v cmake >/dev/null || missing+=(cmake)
  [ ${#missing[@]} -gt 0 ] || return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    say "not installing ${missing[*]} (needs apt-get as root); the suites that need them will say so"
    return
  fi
  say "installing ${missing[*]} with apt-get"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/dev/null ||
    say "apt-get could not install ${missing[*]}"
}

if [ -z "${CHESSCORE_NO_INSTALL:-}" ]; then
  python_tools
  system_tools
fi
if [ -x "$venv/bin/python3" ]; then
  export PATH="$venv/bin:$PATH" CHESSCORE_PYTHON="$venv/bin/python3"
fi

rm -rf "$not_run"
cargo test --profile testing --workspace "$@"
status=$?
# The comparisons with peer crates live in the benchmark crate, which has those crates: its tests
# run with the full suite, not with a selection. It has its own lock file, so it builds the
# library in a target directory of its own: built into the workspace's, its copy of the library
# would replace the one the workspace's tests link against at the next run.
if [ $# = 0 ]; then
  cargo test --profile testing --manifest-path benches/Cargo.toml --target-dir "$target/benches" --tests || status=$?
  # The crates as the package registry would get them: each package builds from what it holds
  # alone (the core's from its own files, the library and the command line against the packaged
  # core).
  say "cargo package --workspace"
  # Packaged crates keep their version, and cargo takes what it once unpacked from a temporary
  # registry at a given path (under $CARGO_HOME/registry/src) as final: an earlier packaging of
  # the same version would be verified instead of this one. A target directory of this run's
  # own gives the registry a new path (and another checkout's run is left alone).
  packaged="$target/packaged.$$"
  cargo package --workspace --allow-dirty --quiet --target-dir "$packaged" 2>&1 |
    grep -v "^warning: ignoring \(test\|example\|benchmark\)" >&2
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  rm -rf "$packaged"
  # The API documentation as docs.rs builds it: a broken link or example fails.
  say "cargo doc (warnings as errors)"
  RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet -p chesscore-core -p chesscore -p chesscore-cli || status=1
fi

echo
if compgen -G "$not_run/*" >/dev/null; then
  echo "Suites that did not run (CHESSCORE_REQUIRE=all makes them fail instead):"
  sort "$not_run"/* | sed 's/^/  /'
else
  echo "Every suite ran."
fi
[ $status = 0 ] && echo "test.sh: all tests passed" || echo "test.sh: tests failed (cargo test exit status $status)"
exit $status
