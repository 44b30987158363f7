"""Polyglot books through the binding (chesscore.polyglot) against python-chess's
chess.polyglot: the entries of every position of the PGN test games in the test book and in the
third-party one, raw entries in file order, choices, building, merging, and malformed books."""

import doctest
import random

import chess
import chess.polyglot
import pytest

import chesscore
import chesscore.polyglot as polyglot

from conftest import ROOT, data_dir, shared_dir

BOOK = data_dir() / "polyglot" / "dev.bin"
PGN = [data_dir() / "pgn" / "dev_generated.pgn", data_dir() / "pgn" / "dev_edge_cases.pgn"]


def positions(paths):
    """Every position of the main lines of the games in ``paths``, as (ours, python-chess's)."""
    for path in paths:
        for game in chesscore.read_pgn(path):
            pos = game.start()
            for move in [None] + game.moves:
                if move is not None:
                    pos.push(move)
                fen = pos.fen(en_passant="as_recorded")
                yield pos.copy(), chess.Board(fen, chess960=pos.chess960)


def compare_with_python_chess(book, paths):
    """Our find_all of every position equals python-chess's; returns the positions with entries."""
    found = 0
    with polyglot.open_reader(book) as ours, chess.polyglot.open_reader(book) as theirs:
        for pos, board in positions(paths):
            for minimum in (0, 1):
                mine = [(e.move.uci(), e.weight, e.learn) for e in ours.find_all(pos, minimum_weight=minimum)]
                expected = [(board.uci(e.move), e.weight, e.learn) for e in theirs.find_all(board, minimum_weight=minimum)]
                assert mine == expected, board.fen()
            found += bool(mine)
            assert all(e.key == chess.polyglot.zobrist_hash(board) for e in ours.find_all(pos))
    return found


def test_find_all_equals_python_chess_on_the_test_book():
    assert compare_with_python_chess(BOOK, PGN) > 100


def test_find_all_equals_python_chess_on_a_third_party_book():
    shared = shared_dir("python polyglot: performance.bin")
    games = PGN + [shared / "pgn" / "lichess_db_100k.pgn", shared / "pgn" / "twic1599_100k.pgn"]
    assert compare_with_python_chess(shared / "polyglot" / "performance.bin", games) > 300


def test_raw_entries_in_file_order_as_python_chess_reads_them():
    reader = polyglot.open_reader(BOOK)
    with chess.polyglot.open_reader(BOOK) as theirs:
        expected = [(e.key, e.raw_move, e.weight, e.learn, e.move.uci()) for e in theirs]
    entries = list(reader)
    assert len(reader) == len(entries) == len(expected) == 727
    assert [(e.key, e.raw_move, e.weight, e.learn, e.move.uci()) for e in entries] == expected
    assert reader[-1] == entries[-1] and reader[0].move.uci() == "b8a6"
    with pytest.raises(chesscore.BookEntryNotFoundError):
        reader[727]
    reader.close()
    reader.close()
    with pytest.raises(chesscore.InvalidArgumentError):
        len(reader)


def test_find_get_and_choices():
    start = chesscore.Position()
    with polyglot.open_reader(BOOK) as reader:
        best = reader.find(start)
        assert (best.move.uci(), best.weight, best.raw_move) == ("c2c3", 5, 10 << 6 | 18)
        assert reader.find(start, exclude_moves=[best.move]).move.uci() == "e2e4"
        assert reader.find(start, minimum_weight=5) == best
        empty = chesscore.Position.from_fen("8/8/8/8/8/8/8/K6k w - - 0 1")
        assert reader.get(empty) is None and reader.get(empty, best) is best
        with pytest.raises(chesscore.BookEntryNotFoundError):
            reader.find(empty)
        with pytest.raises(IndexError):
            reader.weighted_choice(empty)
        picks = [reader.weighted_choice(start, random=random.Random(seed)).move for seed in range(300)]
        assert picks == [reader.weighted_choice(start, random=random.Random(seed)).move for seed in range(300)]
        weights = {e.move: e.weight for e in reader.find_all(start)}
        assert set(picks) <= set(weights) and len(set(picks)) > 6
        # c2c3 has 5 of the 30 points: about 50 of 300 picks.
        assert 25 < picks.count(best.move) < 80
        uniform = {reader.choice(start, random=random.Random(seed)).move for seed in range(300)}
        assert uniform == set(weights)
        assert reader.choice(start, minimum_weight=5).move == best.move
        with pytest.raises(chesscore.ArgumentTypeError):
            reader.find("startpos")


def test_castling_is_converted_to_the_position_convention(tmp_path):
    game = chesscore.Game()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]:
        game.push_san(san)
    game.headers["Result"] = "1-0"
    reader = polyglot.make_book([], tmp_path / "castle.bin", games=[game], only_white=True)
    before = game.start()
    for move in game.moves[:6]:
        before.push(move)
    entry = reader.find(before)
    assert (entry.move.uci(), entry.weight, entry.raw_move) == ("e1g1", 2, 4 << 6 | 7)
    board = chess.Board(before.fen())
    with chess.polyglot.open_reader(tmp_path / "castle.bin") as theirs:
        assert board.uci(theirs.find(board).move) == "e1g1"
    assert [e.move.uci() for e in reader if e.key == before.zobrist()] == ["e1h1"]


def test_make_book_builds_the_test_book_and_merge_adds_up(tmp_path):
    built = polyglot.make_book(PGN, tmp_path / "made.bin", chess960=True)
    assert (tmp_path / "made.bin").read_bytes() == BOOK.read_bytes()
    assert list(built) == list(polyglot.open_reader(BOOK))
    white = polyglot.make_book(PGN[0], only_white=True, max_ply=10, min_score=50, uniform=True)
    assert len(white) > 10 and all(e.weight == 1 for e in white)
    merged = polyglot.merge(BOOK, BOOK, tmp_path / "merged.bin")
    assert [e.weight for e in merged] == [2 * e.weight for e in built]
    assert len(polyglot.open_reader(tmp_path / "merged.bin")) == 727
    with pytest.raises(chesscore.InvalidArgumentError):
        polyglot.make_book(PGN, only_white=True, only_black=True)
    with pytest.raises(chesscore.InvalidArgumentError):
        polyglot.make_book(PGN, min_score=101)
    with pytest.raises(chesscore.NoSuchFileError):
        polyglot.make_book(tmp_path / "missing.pgn")


def test_malformed_books_raise_clear_errors(tmp_path):
    good = BOOK.read_bytes()
    cases = {
        "empty.bin": (b"", chesscore.ErrorCode.BOOK_EMPTY, 0, "empty"),
        "truncated.bin": (good[:100], chesscore.ErrorCode.BOOK_LENGTH, 6, "entry 6 (at byte offset 96) is cut short"),
        "unsorted.bin": (good[16:32] + good[:16], chesscore.ErrorCode.BOOK_UNSORTED, 1, "entry 1 (at byte offset 16)"),
        "garbage.bin": (random.Random(7).randbytes(1600), chesscore.ErrorCode.BOOK_UNSORTED, None, "not sorted by key"),
    }
    for name, (data, code, entry, text) in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(chesscore.BookError) as caught:
            polyglot.open_reader(tmp_path / name)
        error = caught.value
        assert isinstance(error, ValueError) and error.code == code and text in str(error), str(error)
        assert name in str(error) and (entry is None or error.entry == entry)
    with pytest.raises(chesscore.NoSuchFileError):
        polyglot.open_reader(tmp_path / "missing.bin")
    with pytest.raises(chesscore.ReadError) as caught:
        polyglot.open_reader(tmp_path)
    assert "not a regular file" in str(caught.value.__cause__)


def test_module_docstring(monkeypatch):
    monkeypatch.setenv("CHESSCORE_DATA", str(data_dir()))
    assert doctest.testmod(polyglot).failed == 0
    assert chesscore.polyglot is polyglot and ROOT.is_dir()
