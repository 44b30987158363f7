#!/bin/sh
# Copies the opening table of a lichess chess-openings checkout (a.tsv to e.tsv, CC0) into
# core/data/openings and records the commit in its NOTICE. Usage: update-openings.sh CHECKOUT
set -eu
src=${1:?usage: update-openings.sh PATH-TO-chess-openings-CHECKOUT}
dest=$(dirname "$0")/../core/data/openings
commit=$(git -C "$src" rev-parse HEAD)
date=$(git -C "$src" log -1 --format=%cs HEAD)
for f in a b c d e; do
    git -C "$src" show "HEAD:$f.tsv" >"$dest/$f.tsv"
done
git -C "$src" show HEAD:COPYING.txt >"$dest/COPYING.txt"
sed -i "s/^  Commit:  .*/  Commit:  $commit ($date)/" "$dest/NOTICE"
echo "core/data/openings: $commit; run cargo test -p chesscore-core eco"
