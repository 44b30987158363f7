"""Times reading a ~20 MB PGN file, all in one run on the same file: ``chesscore.read_pgn``
(every move replayed; on one thread, then with ``threads=2``) against python-chess's
``chess.pgn.read_game`` loop, headers only
(``read_pgn(..., headers_only=True)``) against ``chess.pgn.read_headers``, and the MB/s of
``read_pgn`` against the native command line on one thread (``chesscore pgn --threads 1``).
Each figure is the best of three runs, but python-chess's ``read_game`` loop, which takes half a
minute, runs once.

Each side does what a user reading the games would: chesscore takes every game's headers and
its moves (``game.moves``, a list of Move objects), python-chess walks every game's main line;
headers only, both take the headers of every game. Against the command line, which counts games,
plies and broken games, ``read_pgn`` is also timed counting the same (``len(game)``,
``game.error``), so that the binding's cost per game shows apart from that of making Python
objects for every header and move (the command line also tallies the results, which Python reads
from the headers).

Headers only, the script also times building every game's headers dict from its tag text
(NUL-separated, as the library hands it over), with nothing read: the least a reader that
returns a dict per game pays in Python, and so the most such a reader can be faster than
python-chess.

The file is built in a temporary directory by repeating the shared test data's real games
(../shared/testdata/pgn, or CHESSCORE_TESTDATA) and removed afterwards. The command line is
target/release/chesscore (``cargo build --release`` builds it with the library), or CHESSCORE_CLI.

usage: CHESSCORE_LIB=target/release/libchesscore.so PYTHONPATH=bindings/python \\
       python3 bindings/python/bench_pgn.py [SIZE_MB]
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess.pgn

import chesscore

ROOT = Path(__file__).resolve().parents[2]
RUNS = 3


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


def timed(function, runs=RUNS):
    """The result of ``function`` and its best time over ``runs`` runs (a run under a second
    loses a good part of itself to one burst of the machine's other work)."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return result, best


def ours_full(path, threads=1):
    games = plies = broken = 0
    for game in chesscore.read_pgn(path, threads=threads):
        games += 1
        plies += len(game.moves)
        broken += game.error is not None
        game.headers  # noqa: B018 - read like a user would
    return games, plies, broken


def ours_counting(path):
    """What the command line counts but the results: games, plies, broken games."""
    games = plies = broken = 0
    for game in chesscore.read_pgn(path):
        games += 1
        plies += len(game)
        broken += game.error is not None
    return games, plies, broken


def theirs_full(path):
    games = plies = 0
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games += 1
            plies += sum(1 for _ in game.mainline_moves())
    return games, plies


def ours_headers(path):
    games = 0
    for game in chesscore.read_pgn(path, headers_only=True):
        games += 1
        game.headers  # noqa: B018
    return games


def tag_texts(path):
    """Every game's tags as NUL-separated UTF-8, names and values in turn."""
    return [
        "\0".join(field for pair in game.headers.items() for field in pair).encode("utf-8")
        for game in chesscore.read_pgn(path, headers_only=True)
    ]


def dicts_alone(texts):
    for text in texts:
        fields = iter(text.decode("utf-8").split("\0"))
        dict(zip(fields, fields))
    return len(texts)


def theirs_headers(path):
    games = 0
    with open(path, encoding="utf-8") as f:
        while chess.pgn.read_headers(f) is not None:
            games += 1
    return games


def cli(path):
    """The native command line on one thread, or None when it is not built."""
    command = Path(os.environ.get("CHESSCORE_CLI", ROOT / "target" / "release" / "chesscore"))
    if not command.is_file():
        return None
    return subprocess.run([command, "pgn", "--threads", "1", path], check=True, capture_output=True, text=True).stdout


def main():
    size = int(float(sys.argv[1]) * 1e6) if len(sys.argv) > 1 else 20_000_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.pgn"
        mb = build(path, size) / 1e6
        print(f"{mb:.1f} MB, library {chesscore.library_path}")

        (games, plies, broken), ours = timed(lambda: ours_full(path))
        print(f"chesscore.read_pgn          : {games} games ({broken} broken), {plies} plies in {ours:.2f} s: "
              f"{mb / ours:.1f} MB/s, {games / ours:,.0f} games/s")
        counted, ours_c = timed(lambda: ours_counting(path))
        assert counted == (games, plies, broken), counted
        print(f"read_pgn, counting          : games, plies and broken games in {ours_c:.2f} s: {mb / ours_c:.1f} MB/s "
              "(what the command line counts)")
        (games_2, _, _), ours_2 = timed(lambda: ours_full(path, threads=2))
        print(f"chesscore.read_pgn threads=2: {games_2} games in {ours_2:.2f} s: {mb / ours_2:.1f} MB/s "
              "(the library's reading in two threads of its own, the Python side in this one)")
        (their_games, their_plies), theirs = timed(lambda: theirs_full(path), runs=1)
        print(f"chess.pgn.read_game         : {their_games} games, {their_plies} plies in {theirs:.2f} s: "
              f"{mb / theirs:.1f} MB/s, {their_games / theirs:,.0f} games/s")

        header_games, ours_h = timed(lambda: ours_headers(path))
        print(f"read_pgn(headers_only=True) : {header_games} games in {ours_h:.3f} s: {mb / ours_h:.1f} MB/s")
        their_header_games, theirs_h = timed(lambda: theirs_headers(path))
        print(f"chess.pgn.read_headers      : {their_header_games} games in {theirs_h:.3f} s: {mb / theirs_h:.1f} MB/s")
        texts = tag_texts(path)
        dict_games, dicts = timed(lambda: dicts_alone(texts))
        print(f"headers dicts alone         : {dict_games} dicts from tag text in {dicts:.3f} s (nothing read)")

        summary, native = timed(lambda: cli(path))
        print(f"full replay : chesscore is {theirs / ours:.1f}x faster than python-chess")
        print(f"full replay : with threads=2, {theirs / ours_2:.1f}x")
        print(f"headers only: chesscore is {theirs_h / ours_h:.1f}x faster than python-chess; "
              f"the dicts alone, {theirs_h / dicts:.1f}x")
        if summary is None:
            print("native CLI  : not built (cargo build --release, or set CHESSCORE_CLI)")
        else:
            print(f"native CLI  : {summary.strip()} in {native:.2f} s: {mb / native:.1f} MB/s on one thread; "
                  f"read_pgn reaches {100 * native / ours_c:.0f}% of it counting what it counts, "
                  f"{100 * native / ours:.0f}% taking every game's headers and moves, "
                  f"{100 * native / ours_2:.0f}% with threads=2")


if __name__ == "__main__":
    main()
