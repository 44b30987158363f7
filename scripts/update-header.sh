#!/usr/bin/env sh
# Regenerates include/chesscore.h from src/, then docs/c-api.md from the header. The build
# generates the header into OUT_DIR only; the header test compares it with the committed one and,
# with CHESSCORE_UPDATE_HEADER set, writes it into include/ first. Review the difference, then
# commit it.
set -eu
cd "$(dirname "$0")/.."
CHESSCORE_UPDATE_HEADER=1 cargo test --profile testing --quiet --test c_api committed_header_matches_a_fresh_generation
python3 scripts/c-api-docs.py
git diff --stat -- include/chesscore.h docs/c-api.md
