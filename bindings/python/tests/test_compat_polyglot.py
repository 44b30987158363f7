"""chesscore.compat.polyglot against python-chess's chess.polyglot: every public name, every
entry of the two third-party books and of the project's (indexing, iteration, ``in``, lookups
by key), lookups by board along games with python-chess's seeded draws, Zobrist keys of the
vector positions with Polyglot's constants and with others, and the errors of bad files."""

import os
import random

import chess
import chess.polyglot
import pytest

import chesscore.compat.polyglot
from chesscore import compat

from conftest import data_dir, read_jsonl, shared_dir

ours_polyglot = chesscore.compat.polyglot
IMPORTED = {
    "annotations", "chess", "mmap", "os", "random", "struct", "typing",
    "Callable", "Container", "Iterator", "List", "NamedTuple", "Optional", "TracebackType", "Type", "Union",
}  # fmt: skip


def answer(call):
    try:
        return ("ok", plain(call()))
    except Exception as error:  # noqa: BLE001 - the type is what is compared
        return ("raises", error)


def same(call_ours, call_theirs):
    """The same value, or exceptions of python-chess's type (ours may be a subclass)."""
    ours, theirs = answer(call_ours), answer(call_theirs)
    if theirs[0] == "raises":
        assert ours[0] == "raises" and isinstance(ours[1], type(theirs[1])), (ours, theirs)
    else:
        assert ours == theirs


def plain(value):
    """Entries and moves as text, to compare the two libraries'."""
    if isinstance(value, (chess.polyglot.Entry, ours_polyglot.Entry)):
        return (value.key, value.raw_move, value.weight, value.learn, repr(value.move))
    if isinstance(value, (chess.Move, compat.Move)):
        return repr(value)
    if isinstance(value, (list, tuple)) or hasattr(value, "__next__"):
        return [plain(v) for v in value]
    return value


def books():
    shared = shared_dir("compat polyglot") / "polyglot"
    return [shared / "performance.bin", shared / "lasker-trap.bin", data_dir() / "polyglot" / "dev.bin"]


def test_every_public_name_of_chess_polyglot_is_here():
    names = sorted(n for n in dir(chess.polyglot) if not n.startswith("_") and n not in IMPORTED)
    assert sorted(ours_polyglot.__all__) == names
    assert ours_polyglot.POLYGLOT_RANDOM_ARRAY == chess.polyglot.POLYGLOT_RANDOM_ARRAY
    assert ours_polyglot.ENTRY_STRUCT.format == chess.polyglot.ENTRY_STRUCT.format
    assert ours_polyglot.Entry._fields == chess.polyglot.Entry._fields


@pytest.mark.parametrize("index", [0, 1, 2])
def test_every_entry_reads_as_python_chess_reads_it(index):
    path = books()[index]
    with ours_polyglot.open_reader(path) as ours, chess.polyglot.open_reader(path) as theirs:
        size = len(theirs)
        assert len(ours) == size
        entries = list(ours)
        assert [plain(e) for e in entries] == [plain(e) for e in theirs]
        # (python-chess reads index -size - 1 as the last entry: a negative offset in the file.)
        for i in list(range(-3, 3)) + [size - 1, size, -size, size + 1]:
            same(lambda: ours[i], lambda: theirs[i])
        # Every entry is in the book; one with another weight, learn value or move is not.
        assert all(entry in ours for entry in entries)
        for entry in entries[:: max(1, size // 2000)]:
            for changed in (entry._replace(weight=entry.weight + 1), entry._replace(learn=entry.learn ^ 1),
                            entry._replace(move=compat.Move.null()), entry._replace(key=entry.key ^ 1)):  # fmt: skip
                theirs_changed = chess.polyglot.Entry(*changed[:4], chess.Move.from_uci(changed.move.uci()))
                assert (changed in ours) == (theirs_changed in theirs)
        keys = sorted({e.key for e in entries})
        rng = random.Random(index)
        for key in keys[:: max(1, len(keys) // 3000)] + [0, 2**64 - 1, -5, 2**64, 2**70] + [rng.getrandbits(64) for _ in range(200)]:
            assert ours.bisect_key_left(key) == theirs.bisect_key_left(key)
            for weight in (0, 1, 5):
                assert plain(ours.find_all(key, minimum_weight=weight)) == plain(theirs.find_all(key, minimum_weight=weight))
            same(lambda: ours.find(key), lambda: theirs.find(key))


def boards_along_games(limit):
    """Boards (ours, python-chess's) of the positions of the vector sets and of random games."""
    rng = random.Random(35)
    for name, chess960 in (("dev.jsonl", False), ("dev960.jsonl", True)):
        for v in read_jsonl(data_dir() / "vectors" / name)[:limit]:
            yield compat.Board(v["fen"], chess960=chess960), chess.Board(v["fen"], chess960=chess960)
    for _ in range(limit // 10):
        ours, theirs = compat.Board(), chess.Board()
        for _ in range(16):
            moves = list(theirs.legal_moves)
            if not moves:
                break
            yield ours.copy(), theirs.copy()
            move = rng.choice(moves)
            ours.push_uci(move.uci())
            theirs.push(move)


def test_zobrist_keys_as_python_chess_computes_them():
    array = [random.Random(7).getrandbits(64) for _ in range(781)]
    ours_hasher, theirs_hasher = ours_polyglot.ZobristHasher(array), chess.polyglot.ZobristHasher(array)
    for ours, theirs in boards_along_games(400):
        assert ours_polyglot.zobrist_hash(ours) == chess.polyglot.zobrist_hash(theirs), theirs.fen()
        for part in ("hash_board", "hash_castling", "hash_ep_square", "hash_turn", "__call__"):
            assert getattr(ours_hasher, part)(ours) == getattr(theirs_hasher, part)(theirs), (part, theirs.fen())
    same(lambda: ours_polyglot.ZobristHasher(array[:780]), lambda: chess.polyglot.ZobristHasher(array[:780]))


def test_lookups_by_board_draw_as_python_chess_s():
    found = 0
    with ours_polyglot.open_reader(books()[0]) as ours_book, chess.polyglot.open_reader(books()[0]) as theirs_book:
        for ours, theirs in boards_along_games(60):
            entries = list(theirs_book.find_all(theirs))
            found += bool(entries)
            assert plain(ours_book.find_all(ours)) == plain(entries)
            for weight in (0, 2, 70000, -1):
                assert plain(ours_book.find_all(ours, minimum_weight=weight)) == plain(theirs_book.find_all(theirs, minimum_weight=weight))
            excluded = [e.move for e in entries[::2]]
            ours_excluded = [compat.Move.from_uci(m.uci()) for m in excluded]
            assert plain(ours_book.find_all(ours, exclude_moves=ours_excluded)) == plain(theirs_book.find_all(theirs, exclude_moves=excluded))
            for method in ("find", "get"):
                same(lambda: getattr(ours_book, method)(ours), lambda: getattr(theirs_book, method)(theirs))
                same(
                    lambda: getattr(ours_book, method)(ours, exclude_moves=ours_excluded),
                    lambda: getattr(theirs_book, method)(theirs, exclude_moves=excluded),
                )
            for seed in range(4):
                ours_rng, theirs_rng = random.Random(seed), random.Random(seed)
                for method in ("choice", "weighted_choice"):
                    same(
                        lambda: getattr(ours_book, method)(ours, random=ours_rng),
                        lambda: getattr(theirs_book, method)(theirs, random=theirs_rng),
                    )
                assert ours_rng.random() == theirs_rng.random()  # as many draws
            random.seed(3)
            expected = answer(lambda: theirs_book.weighted_choice(theirs))
            random.seed(3)
            got = answer(lambda: ours_book.weighted_choice(ours))
            assert got[0] == expected[0] and (got[0] == "raises" or got == expected)
            assert ours_book.get(ours, "none") == "none" or entries
    assert found >= 10


def test_bad_files_and_closed_books_raise_as_python_chess_s(tmp_path):
    empty, short, missing = tmp_path / "empty.bin", tmp_path / "short.bin", tmp_path / "missing.bin"
    empty.write_bytes(b"")
    short.write_bytes(bytes(17))
    # What python-chess cannot map, a device or a directory, it reads as an empty book.
    for path in (empty, short, missing, os.devnull, tmp_path):
        same(lambda: len(ours_polyglot.open_reader(path)), lambda: len(chess.polyglot.open_reader(path)))
    with ours_polyglot.open_reader(empty) as ours, chess.polyglot.open_reader(empty) as theirs:
        assert list(ours) == list(theirs) == [] and ours.get(compat.Board()) is None
        same(lambda: ours[0], lambda: theirs[0])
        same(lambda: ours.find(compat.Board()), lambda: theirs.find(chess.Board()))
    ours, theirs = ours_polyglot.open_reader(books()[1]), chess.polyglot.open_reader(books()[1])
    ours.close(), theirs.close()
    for call in (len, lambda book: book[0], list):
        same(lambda: call(ours), lambda: call(theirs))
    ours.close()


def documented_program(chess, polyglot, path):
    """A book read as python-chess's documentation reads one: what it prints."""
    out = []
    board = chess.Board()
    with polyglot.open_reader(path) as reader:
        for entry in reader.find_all(board):
            out.append(f"{entry.move} {entry.weight} {entry.learn}")
        out.append(str(reader.find(board).move))
        out.append(reader.get(chess.Board("8/8/8/8/8/8/8/K6k w - - 0 1")) is None)
        out.append(str(reader.weighted_choice(board, random=random.Random(1)).move))
        board.push(reader.choice(board, random=random.Random(2)).move)
        out.append(board.fen())
        out.append(hex(polyglot.zobrist_hash(board)))
        out.append([str(e.move) for e in reader.find_all(board, minimum_weight=2, exclude_moves=[chess.Move.from_uci("e7e5")])])
        out.append((len(reader), reader[0].key, reader[-1].raw_move, reader[0] in reader))
    return out


def test_documentation_program_prints_the_same():
    path = books()[0]
    assert documented_program(compat, ours_polyglot, path) == documented_program(chess, chess.polyglot, path)
