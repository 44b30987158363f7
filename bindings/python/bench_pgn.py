"""Times reading a ~20 MB PGN through chesscore.read_pgn and python-chess's chess.pgn.read_game.

The file is built in a temporary directory by repeating the shared test data's real games
(../shared/testdata/pgn, or CHESSCORE_TESTDATA) and removed afterwards.

usage: CHESSCORE_LIB=target/release/libchesscore.so PYTHONPATH=bindings/python \\
       python3 bindings/python/bench_pgn.py [SIZE_MB]
"""

import os
import sys
import tempfile
import time
from pathlib import Path

import chess.pgn

import chesscore

ROOT = Path(__file__).resolve().parents[2]


def build(path, size):
    testdata = Path(os.environ.get("CHESSCORE_TESTDATA", ROOT.parent / "shared" / "testdata"))
    sources = [testdata / "pgn" / name for name in ("lichess_db_100k.pgn", "twic1599_100k.pgn")]
    chunk = b"".join(p.read_bytes().rstrip() + b"\n\n" for p in sources)
    with open(path, "wb") as f:
        written = 0
        while written < size:
            f.write(chunk)
            written += len(chunk)
    return written


def main():
    size = int(float(sys.argv[1]) * 1e6) if len(sys.argv) > 1 else 20_000_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.pgn"
        total = build(path, size)
        mb = total / 1e6

        start = time.perf_counter()
        games = plies = broken = 0
        for game in chesscore.read_pgn(path):
            games += 1
            plies += len(game.moves)
            broken += game.error is not None
            game.headers  # noqa: B018 - read like a user would
        ours = time.perf_counter() - start
        print(f"chesscore.read_pgn : {games} games ({broken} broken), {plies} plies, {mb:.1f} MB in {ours:.2f} s: "
              f"{mb / ours:.1f} MB/s, {games / ours:,.0f} games/s")

        start = time.perf_counter()
        theirs_games = theirs_plies = 0
        with open(path, encoding="utf-8") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                theirs_games += 1
                theirs_plies += sum(1 for _ in game.mainline_moves())
        theirs = time.perf_counter() - start
        print(f"chess.pgn.read_game: {theirs_games} games, {theirs_plies} plies, {mb:.1f} MB in {theirs:.2f} s: "
              f"{mb / theirs:.1f} MB/s, {theirs_games / theirs:,.0f} games/s")
        print(f"ratio: chesscore is {theirs / ours:.1f}x faster")


if __name__ == "__main__":
    main()
