"""Times reading a ~20 MB PGN file, all in one run on the same file: ``chesscore.read_pgn``
(every move replayed; on one thread, then with ``threads=2``) against python-chess's
``chess.pgn.read_game`` loop, headers only
(``read_pgn(..., headers_only=True)``) against ``chess.pgn.read_headers``, and the MB/s of
``read_pgn`` against the native command line on one thread (``chesscore pgn --threads 1``).
The readings take turns, one of each per round over five rounds, and each figure is the best of
its five, so that a spell of the machine's other work hurts them alike; python-chess's
``read_game`` loop, which takes half a minute, runs once, before the rounds.

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
       python3 benches/python/bench_pgn.py [SIZE_MB]
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
ROUNDS = 5


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


def timed(function):
    """The result of ``function`` and the time it took."""
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def in_turns(functions):
    """The result of each of ``functions`` (a dict, name to function) and its best time over
    ``ROUNDS`` rounds in which they take turns."""
    results, best = {}, dict.fromkeys(functions, float("inf"))
    for _ in range(ROUNDS):
        for name, function in functions.items():
            results[name], seconds = timed(function)
            best[name] = min(best[name], seconds)
    return results, best


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


def cli_command():
    """The native command line, or None when it is not built."""
    command = Path(os.environ.get("CHESSCORE_CLI", ROOT / "target" / "release" / "chesscore"))
    return command if command.is_file() else None


def cli(command, path):
    """The summary of the command line reading ``path`` on one thread."""
    return subprocess.run([command, "pgn", "--threads", "1", path], check=True, capture_output=True, text=True).stdout


def main():
    size = int(float(sys.argv[1]) * 1e6) if len(sys.argv) > 1 else 20_000_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.pgn"
        mb = build(path, size) / 1e6
        print(f"{mb:.1f} MB, library {chesscore.library_path}")

        (their_games, their_plies), theirs = timed(lambda: theirs_full(path))
        texts = tag_texts(path)
        readings = {
            "full": lambda: ours_full(path),
            "counting": lambda: ours_counting(path),
            "threads": lambda: ours_full(path, threads=2),
            "headers": lambda: ours_headers(path),
            "their headers": lambda: theirs_headers(path),
            "dicts": lambda: dicts_alone(texts),
        }
        command = cli_command()
        if command is not None:
            readings["cli"] = lambda: cli(command, path)
        results, best = in_turns(readings)
        ours, ours_c, ours_2, ours_h, theirs_h, dicts = (
            best[name] for name in ("full", "counting", "threads", "headers", "their headers", "dicts")
        )
        games, plies, broken = results["full"]
        assert results["counting"] == results["full"] and results["threads"] == results["full"], results
        assert (their_games, their_plies) == (games, plies), (their_games, their_plies)
        assert results["headers"] == results["their headers"] == results["dicts"] == games, results
        print(f"chesscore.read_pgn          : {games} games ({broken} broken), {plies} plies in {ours:.2f} s: "
              f"{mb / ours:.1f} MB/s, {games / ours:,.0f} games/s")
        print(f"read_pgn, counting          : games, plies and broken games in {ours_c:.2f} s: {mb / ours_c:.1f} MB/s "
              "(what the command line counts)")
        print(f"chesscore.read_pgn threads=2: {games} games in {ours_2:.2f} s: {mb / ours_2:.1f} MB/s "
              "(the library's reading in two threads of its own, the Python side in this one)")
        print(f"chess.pgn.read_game         : {their_games} games, {their_plies} plies in {theirs:.2f} s: "
              f"{mb / theirs:.1f} MB/s, {their_games / theirs:,.0f} games/s")
        print(f"read_pgn(headers_only=True) : {results['headers']} games in {ours_h:.3f} s: {mb / ours_h:.1f} MB/s")
        print(f"chess.pgn.read_headers      : {results['their headers']} games in {theirs_h:.3f} s: "
              f"{mb / theirs_h:.1f} MB/s")
        print(f"headers dicts alone         : {results['dicts']} dicts from tag text in {dicts:.3f} s (nothing read)")
        print(f"full replay : chesscore is {theirs / ours:.1f}x faster than python-chess")
        print(f"full replay : with threads=2, {theirs / ours_2:.1f}x")
        print(f"headers only: chesscore is {theirs_h / ours_h:.1f}x faster than python-chess; "
              f"the dicts alone, {theirs_h / dicts:.1f}x")
        if "cli" not in results:
            print("native CLI  : not built (cargo build --release, or set CHESSCORE_CLI)")
        else:
            native = best["cli"]
            print(f"native CLI  : {results['cli'].strip()} in {native:.2f} s: {mb / native:.1f} MB/s on one thread; "
                  f"read_pgn reaches {100 * native / ours_c:.0f}% of it counting what it counts, "
                  f"{100 * native / ours:.0f}% taking every game's headers and moves, "
                  f"{100 * native / ours_2:.0f}% with threads=2")


if __name__ == "__main__":
    main()
