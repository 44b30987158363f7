#!/usr/bin/env sh
# Regenerates the board pictures of docs/svg.md, in docs/: the start position, and Kiwipete with
# arrows, drawn by `chesscore svg` and turned into PNG by headless Chromium (Debian's
# `chromium`). The pictures are committed; run this after a change to the drawing.
set -eu
cd "$(dirname "$0")/.."
cargo build --release --quiet -p chesscore-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
size=400
draw() { # NAME chesscore-svg-arguments...
  name=$1
  shift
  target/release/chesscore svg "$@" --size "$size" -o "$work/$name.svg"
  # No sandbox: it cannot start as root. A profile of its own, so nothing is shared with a
  # running browser.
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --user-data-dir="$work/profile" --window-size="$size,$size" --screenshot="$PWD/docs/$name.png" \
    "$work/$name.svg" >/dev/null 2>&1
  echo "docs/$name.png: $(wc -c <"$work/$name.svg") bytes of SVG"
}
mkdir -p docs
draw start-position startpos
draw kiwipete-arrows "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" \
  --lastmove h4h3 --arrow e5f7:red --arrow e5d7 --arrow d5e6:blue --arrow a2a3:yellow
