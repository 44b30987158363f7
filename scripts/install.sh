#!/usr/bin/env sh
# Installs the C library the way packagers lay it out:
#   $PREFIX/lib/libchesscore.so.X.Y.Z, libchesscore.so.X (the soname), libchesscore.so,
#   $PREFIX/lib/libchesscore.a, $PREFIX/include/chesscore.h (and chesscore.hpp when present),
#   $PREFIX/lib/pkgconfig/chesscore.pc.
#
# Usage: scripts/install.sh [--prefix DIR] [--libdir DIR] [--from DIR] [--no-build]
#   --prefix   install prefix (default: $PREFIX or /usr/local)
#   --libdir   library directory (default: PREFIX/lib)
#   --from     directory holding the built libchesscore.so and .a (default: target/release)
#   --no-build do not run `cargo build --release` first
# DESTDIR is honoured for staged installs; the .pc file names the final PREFIX.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-/usr/local}
libdir=
from="$root/target/release"
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --libdir) libdir=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
libdir=${libdir:-$prefix/lib}
destdir=${DESTDIR:-}

version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)
major=${version%%.*}

if [ "$build" = 1 ]; then
  (cd "$root" && cargo build --release --lib)
fi
for file in libchesscore.so libchesscore.a; do
  [ -f "$from/$file" ] || { echo "install.sh: $from/$file not found (build first)" >&2; exit 1; }
done

install -d "$destdir$libdir/pkgconfig" "$destdir$prefix/include"
install -m 755 "$from/libchesscore.so" "$destdir$libdir/libchesscore.so.$version"
ln -sf "libchesscore.so.$version" "$destdir$libdir/libchesscore.so.$major"
ln -sf "libchesscore.so.$major" "$destdir$libdir/libchesscore.so"
install -m 644 "$from/libchesscore.a" "$destdir$libdir/libchesscore.a"
for header in chesscore.h chesscore.hpp; do
  if [ -f "$root/include/$header" ]; then
    install -m 644 "$root/include/$header" "$destdir$prefix/include/$header"
  fi
done
sed -e "s|@PREFIX@|$prefix|" -e "s|@LIBDIR@|$libdir|" -e "s|@VERSION@|$version|" \
  "$root/scripts/chesscore.pc.in" > "$destdir$libdir/pkgconfig/chesscore.pc"
chmod 644 "$destdir$libdir/pkgconfig/chesscore.pc"
echo "installed chesscore $version into $destdir$prefix"
