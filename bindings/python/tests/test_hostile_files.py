"""Hostile files and arguments: a FIFO or a device where a book, a PGN file to split or training
data is wanted, a book closed while other threads look positions up or rewritten while open,
thread counts up to 2**32 - 1. Each runs in a Python of its own with a time limit, so that a hang or a crash fails
its test instead of holding or killing the suite."""

import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import chesscore

PACKAGE = Path(chesscore.__file__).resolve().parent


def bounded(code, *args, timeout=60):
    """Runs ``code`` in a Python of its own, with ``args`` in sys.argv[1:]; its output, after
    checking that it ended well within ``timeout`` seconds."""
    env = dict(os.environ, PYTHONPATH=str(PACKAGE.parent))
    try:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code), *map(str, args)],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(f"ran past {timeout} s:\n{code}") from None
    assert done.returncode == 0, f"exit status {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_a_fifo_or_a_device_is_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = bounded(
        """
        import sys
        import chesscore, chesscore.polyglot
        for path in sys.argv[1:]:
            try:
                chesscore.polyglot.open_reader(path)
                print("opened", path)
            except chesscore.ReadError as e:
                print("book:", e.__cause__)
            for call in (chesscore.split_pgn, ):
                try:
                    call(path, 2)
                    print("split", path)
                except chesscore.ReadError as e:
                    print("split: refused")
        """,
        fifo,
        "/dev/zero",
        "/dev/urandom",
        timeout=30,
    )
    assert out.splitlines() == ["book: not a regular file (a directory, a FIFO or a device?)", "split: refused"] * 3


def test_training_data_of_one_endless_line_is_an_error():
    out = bounded(
        """
        import chesscore, chesscore.binpack
        try:
            next(chesscore.binpack.read("/dev/zero", plain=True))
        except chesscore.TrainingDataError as e:
            print(e.code == chesscore.ErrorCode.BINPACK_PLAIN_SYNTAX, e)
        """
    )
    assert out.startswith("True plain training data"), out


def test_huge_thread_counts_read_at_once():
    out = bounded(
        """
        import sys
        import chesscore
        for threads in (10**6, 2**32 - 1):
            print(sum(1 for _ in chesscore.read_pgn(sys.argv[1], threads=threads)))
        """,
        Path(os.environ.get("CHESSCORE_DATA", PACKAGE.parents[2] / "tests" / "data")) / "pgn" / "dev_generated.pgn",
        timeout=30,
    )
    games = len(out.split())
    assert games == 2 and out.split()[0] == out.split()[1] and int(out.split()[0]) > 10, out


def test_split_pgn_allocates_nothing_per_part_asked_for():
    out = bounded(
        """
        import sys
        import chesscore
        print(len(chesscore.split_pgn(sys.argv[1], 2**32 - 1)))
        """,
        Path(os.environ.get("CHESSCORE_DATA", PACKAGE.parents[2] / "tests" / "data")) / "pgn" / "dev_generated.pgn",
        timeout=30,
    )
    assert int(out) > 10, out


def test_closing_a_book_while_other_threads_look_up_never_crashes(tmp_path):
    # 200,000 entries of the start position, all 1. e4 (3.2 MB, which the allocator maps and
    # unmaps when freed): each lookup a long call, freeing the book under it a crash.
    book = tmp_path / "big.bin"
    book.write_bytes(struct.pack(">QHHI", 0x463B96181691FC9C, 0x31C, 1, 0) * 200_000)
    out = bounded(
        """
        import sys, threading, time
        import chesscore, chesscore.polyglot

        board = chesscore.Position()
        closed_errors = 0
        for round in range(150):
            reader = chesscore.polyglot.open_reader(sys.argv[1])
            started = threading.Barrier(5)

            def look_up():
                global closed_errors
                started.wait()
                try:
                    while True:
                        reader.find(board)
                        reader[len(reader) - 1]
                except chesscore.InvalidArgumentError:
                    closed_errors += 1

            threads = [threading.Thread(target=look_up) for _ in range(4)]
            for thread in threads:
                thread.start()
            started.wait()
            time.sleep(0.002)
            reader.close()
            for thread in threads:
                thread.join()
        print(closed_errors)
        """,
        book,
        timeout=120,
    )
    assert out.split() == [str(150 * 4)], out


def test_a_book_rewritten_while_open_is_not_disturbed(tmp_path):
    data = Path(os.environ.get("CHESSCORE_DATA", PACKAGE.parents[2] / "tests" / "data"))
    out = bounded(
        """
        import sys
        import chesscore, chesscore.polyglot as polyglot

        pgn, path = sys.argv[1:]
        polyglot.make_book(pgn, path).close()
        board = chesscore.Position()
        with polyglot.open_reader(path) as reader:
            before = (len(reader), [(e.move, e.weight) for e in reader.find_all(board)])
            # Rewritten by this process (a temporary file renamed over it), then cut short.
            polyglot.make_book(pgn, path, max_ply=2).close()
            print(before[0] > len(polyglot.open_reader(path)))
            with open(path, "r+b") as f:
                f.truncate(16)
            print((len(reader), [(e.move, e.weight) for e in reader.find_all(board)]) == before)
            print(reader[before[0] - 1].key >= reader[0].key)
        """,
        data / "pgn" / "dev_generated.pgn",
        tmp_path / "book.bin",
    )
    assert out.split() == ["True"] * 3, out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.bin"]
