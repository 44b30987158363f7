"""Syzygy tablebases from Python: chesscore.tablebase and chesscore.compat.syzygy against
python-chess 1.11.2 (the oracle) on the shared tables, errors, the context manager,
add_directory, threads."""

import json
import threading

import chess
import chess.syzygy
import chess.variant
import pytest

import chesscore
import chesscore.compat as compat
import chesscore.compat.syzygy as compat_syzygy
import chesscore.tablebase
from conftest import shared_dir


def tables(suite):
    return shared_dir(suite) / "syzygy"


def dev_records(directory):
    with open(directory / "dev_positions.jsonl") as f:
        return [json.loads(line) for line in f]


def oracle_value(tablebase, probe, board):
    try:
        return getattr(tablebase, probe)(board)
    except KeyError:
        return None


def test_dev_positions_match_python_chess():
    directory = tables("python tablebase: dev positions")
    records = dev_records(directory)
    compared = 0
    with chesscore.tablebase.open_tablebase(directory) as tb, compat_syzygy.open_tablebase(directory) as ctb:
        assert tb.max_pieces() == 5
        for record in records:
            pos = chesscore.Position.from_fen(record["fen"])
            board = compat.Board(record["fen"])
            assert tb.get_wdl(pos) == record["wdl"] == ctb.get_wdl(board), record["fen"]
            assert tb.get_dtz(pos) == record["dtz"] == ctb.get_dtz(board), record["fen"]
            for uci, wdl, dtz in record["moves"]:
                board.push_uci(uci)
                assert ctb.get_wdl(board) == wdl and ctb.get_dtz(board) == dtz, (record["fen"], uci)
                board.pop()
                compared += 1
            compared += 1
    assert compared > 20000


def test_python_chess_agrees_on_a_sample():
    # The oracle itself, on a slice: the data file and python-chess say the same.
    directory = tables("python tablebase: the oracle")
    with chess.syzygy.open_tablebase(str(directory)) as oracle, compat_syzygy.open_tablebase(directory) as ctb:
        for record in dev_records(directory)[::50]:
            board = chess.Board(record["fen"])
            assert oracle_value(oracle, "probe_wdl", board) == ctb.get_wdl(compat.Board(record["fen"]))
            assert oracle_value(oracle, "probe_dtz", board) == ctb.get_dtz(compat.Board(record["fen"]))


def test_errors_and_lifetime(tmp_path):
    with compat_syzygy.open_tablebase(tmp_path) as ctb:
        assert ctb.max_pieces() == 0
        assert ctb.probe_wdl(compat.Board("8/8/8/4k3/8/8/8/4K3 w - - 0 1")) == 0
        with pytest.raises(compat_syzygy.MissingTableError):
            ctb.probe_wdl(compat.Board("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"))
        with pytest.raises(KeyError) as castling:
            ctb.probe_dtz(compat.Board())
        assert "castling" in str(castling.value)
        with pytest.raises(chesscore.TablebaseError):
            ctb.probe_wdl(compat.Board("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"))
        assert ctb.get_dtz(compat.Board("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"), default=-7) == -7
        with pytest.raises(TypeError):
            ctb.probe_wdl("8/8/8/4k3/8/8/8/4K3 w - - 0 1")
    with pytest.raises(ValueError):
        ctb.probe_wdl(compat.Board("8/8/8/4k3/8/8/8/4K3 w - - 0 1"))
    with pytest.raises(FileNotFoundError):
        chesscore.tablebase.open_tablebase(tmp_path / "missing")
    (tmp_path / "KQvK.rtbw").write_bytes(b"not a table")
    with chesscore.tablebase.open_tablebase(tmp_path) as tb:
        with pytest.raises(chesscore.CorruptTableError) as corrupt:
            tb.probe_wdl(chesscore.Position.from_fen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"))
        assert str(corrupt.value).startswith(f"corrupt table {tmp_path / 'KQvK.rtbw'}: ")


def test_wrong_arguments_and_closed_tablebases(tmp_path):
    # The probes pass positions to the library unchecked by ctypes: anything but a position of
    # the kind each API takes is a TypeError, and a closed tablebase a ValueError.
    kings = "8/8/8/4k3/8/8/8/4K3 w - - 0 1"
    tb = chesscore.tablebase.open_tablebase(tmp_path)
    ctb = compat_syzygy.open_tablebase(tmp_path)
    wrong = [kings, None, 7, compat.Board(kings), chesscore.Game(), chesscore.VariantPosition(chesscore.Variant.ATOMIC)]
    for probe in (tb.probe_wdl, tb.probe_dtz):
        assert probe(chesscore.Position.from_fen(kings)) == 0
        for value in wrong:
            with pytest.raises(TypeError):
                probe(value)
    for probe in (ctb.probe_wdl, ctb.probe_dtz):
        assert probe(compat.Board(kings)) == probe(chesscore.Position.from_fen(kings)) == 0
        for value in wrong[:3] + wrong[4:]:
            with pytest.raises(TypeError):
                probe(value)
        # A board that is no position, also one probed before its edit (the probe reads the
        # position's address the board keeps): ValueError.
        with pytest.raises(ValueError):
            probe(compat.Board.empty())
        board = compat.Board(kings)
        assert probe(board) == 0
        board.remove_piece_at(compat.E1)
        with pytest.raises(ValueError):
            probe(board)
        board.set_piece_at(compat.E1, compat.Piece.from_symbol("K"))
        board.set_piece_at(compat.D1, compat.Piece.from_symbol("Q"))
        with pytest.raises(compat_syzygy.MissingTableError):
            probe(board)
    tb.close()
    ctb.close()
    for probe in (tb.probe_wdl, tb.probe_dtz, ctb.probe_wdl, ctb.probe_dtz):
        with pytest.raises(ValueError, match="closed"):
            probe(chesscore.Position.from_fen(kings))
    for probe in (ctb.probe_wdl, ctb.probe_dtz):
        with pytest.raises(ValueError, match="closed"):
            probe(compat.Board(kings))
    # help() shows the made methods as written ones.
    assert [m.__qualname__ for m in (tb.probe_wdl, ctb.probe_dtz)] == ["Tablebase.probe_wdl", "Tablebase.probe_dtz"]
    assert "zeroing" in ctb.probe_dtz.__doc__ and "cursed" in tb.probe_wdl.__doc__


def test_errors_name_the_table_file(tmp_path):
    # A copy of a real table cut in half: the message names the file and says what is wrong,
    # through both packages and from a thread of its own.
    shared = tables("python tablebase: a cut table")
    whole = (shared / "KQvK.rtbw").read_bytes()
    (tmp_path / "KQvK.rtbw").write_bytes(whole[: len(whole) // 2])
    cut = str(tmp_path / "KQvK.rtbw")
    fen = "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"
    with chesscore.tablebase.open_tablebase(tmp_path) as tb, compat_syzygy.open_tablebase(tmp_path) as ctb:
        with pytest.raises(chesscore.CorruptTableError) as corrupt:
            tb.probe_wdl(chesscore.Position.from_fen(fen))
        assert str(corrupt.value) == f"corrupt table {cut}: the file size is not that of a table (truncated?)"
        assert corrupt.value.code == chesscore.ErrorCode.TABLEBASE_CORRUPT
        with pytest.raises(OSError, match="KQvK.rtbw"):
            ctb.probe_dtz(compat.Board(fen))
        with pytest.raises(compat_syzygy.MissingTableError, match="missing table KRvK.rtbw"):
            ctb.probe_wdl(compat.Board("7k/8/6K1/8/8/8/8/1R6 w - - 0 1"))
        with pytest.raises(chesscore.CorruptTableError, match="KQvK.rtbw"):
            tb.rank_moves(chesscore.Game(chesscore.Position.from_fen(fen)))
        messages = []

        def probe():
            try:
                ctb.probe_wdl(compat.Board(fen))
            except OSError as e:
                messages.append(str(e))

        threads = [threading.Thread(target=probe) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert messages == [str(corrupt.value)] * 4


def test_options_give_the_same_values():
    directory = tables("python tablebase: options")
    records = dev_records(directory)[::20]
    with pytest.raises(ValueError):
        chesscore.tablebase.Tablebase([directory], max_open_files=0)
    with pytest.raises(ValueError):
        compat_syzygy.open_tablebase(directory, VariantBoard=chess.variant.AtomicBoard)
    with pytest.raises(ValueError):
        compat_syzygy.Tablebase(max_fds=0)
    opened = [
        chesscore.tablebase.Tablebase([directory], mmap=True),
        chesscore.tablebase.open_tablebase(directory, max_open_files=1),
        compat_syzygy.open_tablebase(directory, max_fds=1, VariantBoard=chess.Board),
        compat_syzygy.open_tablebase(directory, max_fds=None, load_dtz=False),
    ]
    opened.append(compat_syzygy.Tablebase(max_fds=2, VariantBoard=compat.Board))
    assert opened[-1].add_directory(directory, load_wdl=True, load_dtz=True) == 90
    for tb in opened:
        with tb:
            for record in records:
                pos = chesscore.Position.from_fen(record["fen"])
                assert (tb.get_wdl(pos), tb.get_dtz(pos)) == (record["wdl"], record["dtz"]), record["fen"]


def test_add_directory_and_threads(tmp_path):
    directory = tables("python tablebase: add_directory and threads")
    records = [r for r in dev_records(directory) if r["wdl"] is not None][:300]
    tb = compat_syzygy.Tablebase()
    assert tb.add_directory(tmp_path) == 0
    assert tb.get_wdl(compat.Board(records[0]["fen"])) is None
    assert tb.add_directory(directory) == 90
    failures = []

    def probe():
        for record in records:
            board = compat.Board(record["fen"])
            if tb.probe_wdl(board) != record["wdl"] or tb.probe_dtz(board) != record["dtz"]:
                failures.append(record["fen"])

    threads = [threading.Thread(target=probe) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    tb.close()
    assert failures == []


def test_rank_moves_puts_the_win_first():
    directory = tables("python tablebase: ranking")
    with chesscore.tablebase.open_tablebase(directory) as tb:
        game = chesscore.Game(chesscore.Position.from_fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"))
        ranked = tb.rank_moves(game)
        assert ranked[0].move.uci() == "b1b8" and ranked[0].wdl == 2
        assert [m.rank for m in ranked] == sorted((m.rank for m in ranked), reverse=True)
        assert len(ranked) == len(game.board().legal_moves())
