"""Paths, wherever a function takes one (Position.from_fen_file, read_pgn): str, bytes and
os.PathLike as for ``open``, names that are not UTF-8 included (read_pgn reads bytes as PGN
data, so there a path is a str or os.PathLike)."""

import errno
import os
import sys

import pytest

import chesscore
from chesscore import Position

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PGN = b'[White "Morphy"]\n\n1. e4 e5 2. Nf3 *\n'


@pytest.fixture
def not_utf8(tmp_path):
    """A directory whose name holds the byte 0xff, which no UTF-8 text encodes."""
    if sys.platform == "win32":
        pytest.skip("file names are bytes on POSIX systems only")
    directory = os.path.join(os.fsencode(tmp_path), b"caf\xe9-\xff")
    os.mkdir(directory)
    return directory


def test_fen_file_paths_as_str_bytes_and_path_like(tmp_path):
    path = tmp_path / "pos.fen"
    path.write_text(KIWIPETE + "\n")
    for name in (path, str(path), os.fsencode(path)):
        assert Position.from_fen_file(name).fen() == KIWIPETE


def test_fen_file_names_that_are_not_utf8(tmp_path, not_utf8):
    raw = os.path.join(not_utf8, b"\xffpos.fen")
    with open(raw, "w") as f:
        f.write(KIWIPETE)
    for name in (raw, os.fsdecode(raw), type(tmp_path)(os.fsdecode(raw))):
        assert Position.from_fen_file(name).fen() == KIWIPETE


def test_pgn_file_names_that_are_not_utf8(tmp_path, not_utf8):
    raw = os.path.join(not_utf8, b"games\xff.pgn")
    with open(raw, "wb") as f:
        f.write(PGN)
    for name in (os.fsdecode(raw), type(tmp_path)(os.fsdecode(raw))):
        [game] = chesscore.read_pgn(name)
        assert game.headers == {"White": "Morphy", "Result": "*"} and len(game) == 3
    # bytes are PGN data, not a path: the one exception to paths as open() takes them.
    [game] = chesscore.read_pgn(PGN)
    assert game.headers == {"White": "Morphy", "Result": "*"}


def test_missing_files_with_names_that_are_not_utf8(not_utf8):
    missing = os.path.join(not_utf8, b"missing\xff")
    for call in (
        lambda: Position.from_fen_file(missing),
        lambda: Position.from_fen_file(os.fsdecode(missing)),
        lambda: list(chesscore.read_pgn(os.fsdecode(missing))),
    ):
        with pytest.raises(chesscore.NoSuchFileError):
            call()


@pytest.mark.parametrize("name", ["bad\0name", b"bad\0name", "lone \ud800 surrogate"])
def test_paths_the_system_cannot_name(name):
    with pytest.raises(chesscore.InvalidArgumentError) as e:
        Position.from_fen_file(name)
    assert e.value.code == chesscore.ErrorCode.INVALID_TEXT
    if isinstance(name, str):
        with pytest.raises(chesscore.InvalidArgumentError):
            list(chesscore.read_pgn(name))


@pytest.mark.parametrize("name", [None, 42, bytearray(b"pos.fen")])
def test_a_path_of_the_wrong_type_raises_type_error(name):
    with pytest.raises(chesscore.ArgumentTypeError, match="path must be str or bytes or PathLike"):
        Position.from_fen_file(name)


def test_a_missing_file_is_named_as_python_names_it(tmp_path):
    missing = tmp_path / "missing.pgn"
    calls = [(Position.from_fen_file, name) for name in (missing, str(missing), os.fsencode(missing))]
    calls += [(lambda name: list(chesscore.read_pgn(name)), name) for name in (missing, str(missing))]
    for call, name in calls:
        with pytest.raises(chesscore.NoSuchFileError) as e:
            call(name)
        with pytest.raises(FileNotFoundError) as python:
            open(name)
        assert e.value.filename == python.value.filename == os.fspath(name)
        assert str(e.value) == e.value.message == f"no such file: {os.fspath(name)!r}"
        assert e.value.errno == errno.ENOENT and e.value.code == chesscore.ErrorCode.FILE_NOT_FOUND


def test_a_file_that_cannot_be_read_is_named(tmp_path):
    with pytest.raises(chesscore.ReadError) as e:
        Position.from_fen_file(tmp_path)  # a directory
    assert isinstance(e.value, OSError) and e.value.filename == str(tmp_path)
    assert str(e.value) == f"cannot read the file: {str(tmp_path)!r}"
