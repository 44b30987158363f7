#!/usr/bin/env sh
# Installs chesscore the way packagers lay a C library out:
#   LIBDIR/libchesscore.so.X.Y.Z (stripped), libchesscore.so.X (the soname), libchesscore.so,
#   LIBDIR/libchesscore.a, LIBDIR/pkgconfig/chesscore.pc,
#   LIBDIR/cmake/chesscore/chesscoreConfig.cmake and chesscoreConfigVersion.cmake (the CMake
#   package: targets chesscore::chesscore and chesscore::chesscore_static, relocatable),
#   PREFIX/include/chesscore.h and chesscore.hpp, PREFIX/bin/chesscore (the command line),
#   PREFIX/share/chesscore/install-manifest.txt (every file installed, for --uninstall).
# Into a system library directory as root it runs ldconfig; for any other prefix it prints the
# one line that makes compilers, pkg-config, the run-time linker and the shell find the install.
#
# Usage: scripts/install.sh [--prefix DIR] [--libdir DIR] [--from DIR] [--no-build] [--no-cli]
#        scripts/install.sh --uninstall [--prefix DIR]
#   --prefix     install prefix (default: $PREFIX or /usr/local)
#   --libdir     library directory (default: PREFIX/lib)
#   --from       directory holding the built libchesscore.so, .a and chesscore (default: target/release)
#   --no-build   do not run `cargo build --release` first
#   --no-cli     leave out the chesscore command
#   --uninstall  remove every file the manifest under PREFIX lists
# DESTDIR is honoured for staged installs; the .pc file and the manifest name the final paths.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-/usr/local}
libdir=
from="$root/target/release"
build=1
cli=1
uninstall=0
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --libdir) libdir=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --no-cli) cli=0; shift ;;
    --uninstall) uninstall=1; shift ;;
    *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
libdir=${libdir:-$prefix/lib}
destdir=${DESTDIR:-}
manifest="$prefix/share/chesscore/install-manifest.txt"

# Whether LIBDIR is one the run-time linker searches (its cache is then to be refreshed).
system_libdir() {
  real=$(realpath -m "$libdir")
  for dir in /lib /usr/lib /lib64 /usr/lib64 $(ldconfig -N -v 2>/dev/null | sed -n 's|^\(/[^:]*\):.*|\1|p'); do
    [ "$(realpath -m "$dir")" = "$real" ] && return 0
  done
  return 1
}

refresh_linker_cache() {
  if [ -z "$destdir" ] && [ "$(id -u)" = 0 ] && system_libdir && command -v ldconfig >/dev/null; then
    ldconfig
  fi
}

if [ "$uninstall" = 1 ]; then
  [ -f "$destdir$manifest" ] || { echo "install.sh: no manifest at $destdir$manifest" >&2; exit 1; }
  while IFS= read -r file; do
    rm -f "$destdir$file"
    case "$file" in */cmake/chesscore/*) rmdir "$destdir${file%/*}" 2>/dev/null || true ;; esac
  done < "$destdir$manifest"
  rm -f "$destdir$manifest"
  rmdir "$destdir$prefix/share/chesscore" 2>/dev/null || true
  refresh_linker_cache
  echo "uninstalled chesscore from $destdir$prefix"
  exit 0
fi

version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)
major=${version%%.*}

if [ "$build" = 1 ]; then
  packages="-p chesscore"
  [ "$cli" = 1 ] && packages="$packages -p chesscore-cli"
  # shellcheck disable=SC2086 # one word per package option
  (cd "$root" && cargo build --release $packages)
fi
needed="libchesscore.so libchesscore.a"
[ "$cli" = 1 ] && needed="$needed chesscore"
for file in $needed; do
  [ -f "$from/$file" ] || { echo "install.sh: $from/$file not found (build first)" >&2; exit 1; }
done

installed=""
put() { # mode source destination
  install -m "$1" "$2" "$destdir$3"
  installed="$installed$3
"
}
link() { # target name
  ln -sf "$1" "$destdir$2"
  installed="$installed$2
"
}
strip_binary() {
  if command -v strip >/dev/null; then
    strip --strip-unneeded "$destdir$1"
  fi
}

cmakedir="$libdir/cmake/chesscore"
install -d "$destdir$libdir/pkgconfig" "$destdir$cmakedir" "$destdir$prefix/include" "$destdir$prefix/share/chesscore"
put 755 "$from/libchesscore.so" "$libdir/libchesscore.so.$version"
strip_binary "$libdir/libchesscore.so.$version"
link "libchesscore.so.$version" "$libdir/libchesscore.so.$major"
link "libchesscore.so.$major" "$libdir/libchesscore.so"
put 644 "$from/libchesscore.a" "$libdir/libchesscore.a"
for header in chesscore.h chesscore.hpp; do
  put 644 "$root/include/$header" "$prefix/include/$header"
done
if [ "$cli" = 1 ]; then
  install -d "$destdir$prefix/bin"
  put 755 "$from/chesscore" "$prefix/bin/chesscore"
  strip_binary "$prefix/bin/chesscore"
fi
generated=$(mktemp)
sed -e "s|@PREFIX@|$prefix|" -e "s|@LIBDIR@|$libdir|" -e "s|@VERSION@|$version|" \
  "$root/scripts/chesscore.pc.in" > "$generated"
put 644 "$generated" "$libdir/pkgconfig/chesscore.pc"
# The CMake package finds the prefix from its own directory (relocatable); the static target's
# system libraries are the .pc file's Libs.private, without their -l.
config_to_prefix=$(realpath -m --relative-to="$cmakedir" "$prefix")
static_libs=$(sed -n 's/^Libs.private: *//p' "$root/scripts/chesscore.pc.in" | sed -e 's/-l//g' -e 's/ /;/g')
for file in chesscoreConfig.cmake chesscoreConfigVersion.cmake; do
  sed -e "s|@CONFIG_TO_PREFIX@|$config_to_prefix|" -e "s|@VERSION@|$version|" -e "s|@MAJOR@|$major|" \
    -e "s|@STATIC_LIBS@|$static_libs|" "$root/scripts/$file.in" > "$generated"
  put 644 "$generated" "$cmakedir/$file"
done
rm -f "$generated"
printf '%s' "$installed" > "$destdir$manifest"
echo "$manifest" >> "$destdir$manifest"
chmod 644 "$destdir$manifest"

echo "installed chesscore $version into $destdir$prefix ($(wc -c < "$destdir$libdir/libchesscore.so.$version") bytes of shared library)"
refresh_linker_cache
if [ -z "$destdir" ] && ! system_libdir; then
  echo "to use it from this shell (compilers, pkg-config, the run-time linker, the chesscore command):"
  echo "export PKG_CONFIG_PATH=\"$libdir/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\" CMAKE_PREFIX_PATH=\"$prefix\${CMAKE_PREFIX_PATH:+:\$CMAKE_PREFIX_PATH}\" LD_LIBRARY_PATH=\"$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\" PATH=\"$prefix/bin:\$PATH\""
  echo "(or link with -Wl,-rpath,$libdir instead of setting LD_LIBRARY_PATH)"
fi
