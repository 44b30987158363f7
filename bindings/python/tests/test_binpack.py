"""Stockfish training data: the binpack fixture read entry by entry and in batches, written back
byte for byte, through the plain text, with numpy viewing the records; malformed data and refused
entries."""

import array
import doctest

import numpy
import pytest

import chesscore
import chesscore.binpack as binpack


@pytest.fixture
def fixture(testdata):
    return testdata / "binpack" / "generated.binpack"


def test_read_write_and_plain_round_trip(fixture, tmp_path):
    entries = list(binpack.read(fixture))
    assert len(entries) == 4113
    first = entries[0]
    assert first.position == chesscore.Position() and first.ply == 0 and first.result in (-1, 0, 1)
    assert first.move in first.position.legal_moves()
    # Each entry of a game is the position after the move of the one before.
    after = first.position.copy()
    after.push(first.move)
    assert entries[1].position == after and entries[1].ply == 1 and entries[1].result == -first.result

    copy = tmp_path / "copy.binpack"
    assert binpack.write(copy, entries) == 4113
    assert copy.read_bytes() == fixture.read_bytes()
    text = tmp_path / "copy.plain"
    binpack.write(text, entries, plain=True)
    assert text.read_text().startswith("fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove ")
    assert [(e.position.fen(), e.move, e.score, e.ply, e.result) for e in binpack.read(text, plain=True)] == [
        (e.position.fen(), e.move, e.score, e.ply, e.result) for e in entries
    ]
    assert len(list(binpack.read(memoryview(fixture.read_bytes())))) == 4113


def test_batches_as_arrays_and_numpy(fixture):
    entries = list(binpack.read(fixture))
    batches = list(binpack.read_batches(fixture, 1000))
    assert [len(b) for b in batches] == [1000, 1000, 1000, 1000, 113]
    scores = array.array("h")
    for batch in batches:
        scores.extend(batch.scores)
    assert list(scores) == [e.score for e in entries]
    batch = batches[1]
    records = numpy.frombuffer(batch.records, dtype=binpack.record_dtype())
    assert records.shape == (1000,) and records.dtype.itemsize == binpack.RECORD_SIZE == 34
    assert list(records["score"]) == list(batch.scores) == [e.score for e in entries[1000:2000]]
    assert list(records["move"]) == [e.move.raw for e in entries[1000:2000]]
    assert list(records["result"]) == list(batch.results) and list(records["ply"]) == list(batch.plies)
    for i in (0, 17, 999):
        assert batch.position(i) == entries[1000 + i].position
        assert bytes(records["board"][i]) == batch.boards[24 * i : 24 * i + 24]
        assert chesscore.Position.from_binary_fen(bytes(records["board"][i])).fen().split()[:4] == (
            entries[1000 + i].position.fen().split()[:4]
        )


def test_malformed_data_and_refused_entries(fixture, tmp_path):
    data = fixture.read_bytes()
    with pytest.raises(chesscore.TrainingDataError) as e:
        list(binpack.read(memoryview(data[:100])))
    assert e.value.code == chesscore.ErrorCode.BINPACK_TRUNCATED and e.value.offset == 100
    assert isinstance(e.value, ValueError)
    bad = bytearray(data)
    bad[0] = ord("X")
    with pytest.raises(chesscore.TrainingDataError) as e:
        next(binpack.read_batches(bad))
    assert e.value.code == chesscore.ErrorCode.BINPACK_CHUNK and e.value.offset == 0
    with pytest.raises(chesscore.TrainingDataError) as e:
        list(binpack.read(memoryview(b"fen 8/8/8/8/8/8/8/8 w - - 0 1\ne\n"), plain=True))
    assert e.value.code == chesscore.ErrorCode.FEN_MISSING_KING and e.value.offset == 4
    with pytest.raises(chesscore.NoSuchFileError):
        list(binpack.read(tmp_path / "missing.binpack"))

    entry = next(binpack.read(fixture))
    with pytest.raises(chesscore.TrainingDataError) as e:
        binpack.write(tmp_path / "bad.binpack", [entry, entry._replace(result=2)])
    assert e.value.code == chesscore.ErrorCode.BINPACK_RESULT and "entry 1" in str(e.value)
    fischer = chesscore.Position.from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", chess960=True)
    with pytest.raises(chesscore.TrainingDataError) as e:
        binpack.write(tmp_path / "bad.binpack", [binpack.TrainingEntry(fischer, fischer.legal_moves()[0], 0, 0, 0)])
    assert e.value.code == chesscore.ErrorCode.BINPACK_UNREPRESENTABLE
    with pytest.raises(chesscore.ArgumentTypeError):
        binpack.write(tmp_path / "bad.binpack", [(entry.position, "e2e4", 0, 0, 0)])


def test_the_module_doc_example(testdata, monkeypatch):
    monkeypatch.setenv("CHESSCORE_DATA", str(testdata))
    assert doctest.testmod(binpack).failed == 0
