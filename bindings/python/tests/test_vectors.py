"""The binding against python-chess on vectors/dev.jsonl and dev960.jsonl: legal moves, SAN,
the FEN and Zobrist key after each move, and the status flags, both as recorded in the vectors
(python-chess 1.11.2's answers) and as the installed python-chess computes them now.

python-chess accepts checks no single move could have given (two pawns checking); the binding
reads FENs strictly and refuses them with FEN_IMPOSSIBLE_CHECK unless told to allow them, which
these tests do after checking the refusal."""

import chess
import chess.polyglot
import pytest

import chesscore

from conftest import data_dir, read_jsonl


def check_vector(v, chess960):
    pos = chesscore.Position.from_fen(v["fen"], chess960=chess960, allow_impossible_check=True)
    castling = "shredder" if chess960 else "auto"
    assert pos.fen(castling=castling) == v["fen_canonical"]
    assert f"{pos.zobrist():016x}" == v["zobrist"]
    assert str(pos) == v["board"]
    for flag in ("is_check", "is_checkmate", "is_stalemate", "is_insufficient_material", "is_fifty_moves", "can_claim_fifty_moves"):
        assert getattr(pos, flag)() == v[flag], flag
    moves = sorted(pos.legal_moves(), key=lambda m: m.uci())
    assert [m.uci() for m in moves] == v["legal"]
    assert [str(m) for m in moves] == v["legal"]
    for move, (uci, san, fen_after, zobrist_after) in zip(moves, v["moves"]):
        assert pos.san(move) == san
        assert pos.parse_san(san) == move
        assert pos.parse_uci(uci) == move
        after = pos.copy()
        after.push(move)
        assert after.fen(castling=castling) == fen_after
        assert f"{after.zobrist():016x}" == zobrist_after
    assert pos.fen(castling=castling) == v["fen_canonical"]  # pushing on copies left it alone


def check_against_python_chess(v, chess960):
    """The same questions put to python-chess as installed."""
    pos = chesscore.Position.from_fen(v["fen"], chess960=chess960, allow_impossible_check=True)
    board = chess.Board(v["fen"], chess960=chess960)
    assert pos.zobrist() == chess.polyglot.zobrist_hash(board)
    assert pos.is_check() == board.is_check()
    assert pos.is_checkmate() == board.is_checkmate()
    assert pos.is_stalemate() == board.is_stalemate()
    assert pos.is_insufficient_material() == board.is_insufficient_material()
    assert pos.turn == board.turn
    assert pos.ep_square == board.ep_square
    assert {sq: p.symbol() for sq, p in pos.piece_map().items()} == {sq: p.symbol() for sq, p in board.piece_map().items()}
    ours = {m.uci(): m for m in pos.legal_moves()}
    theirs = {m.uci(): m for m in board.legal_moves}
    assert sorted(ours) == sorted(theirs)
    castling = "shredder" if chess960 else "auto"
    for uci, move in ours.items():
        assert pos.san(move) == board.san(theirs[uci])
        board.push(theirs[uci])
        after = pos.copy()
        after.push(move)
        assert after.fen(castling=castling) == (board.shredder_fen() if chess960 else board.fen())
        board.pop()


def readable(name, chess960):
    """The vectors of a file, after checking that the strict reading refuses some only for an
    impossible check."""
    vectors = read_jsonl(data_dir() / "vectors" / name)
    assert len(vectors) >= 300
    for v in vectors:
        try:
            chesscore.Position.from_fen(v["fen"], chess960=chess960)
        except chesscore.FenError as e:
            assert e.code == chesscore.ErrorCode.FEN_IMPOSSIBLE_CHECK, v["fen"]
    return vectors


@pytest.mark.parametrize("name, chess960", [("dev.jsonl", False), ("dev960.jsonl", True)])
def test_vectors_as_recorded(name, chess960):
    for v in readable(name, chess960):
        try:
            check_vector(v, chess960)
        except AssertionError as e:
            raise AssertionError(f"{v['fen']}: {e}") from e


@pytest.mark.parametrize("name, chess960", [("dev.jsonl", False), ("dev960.jsonl", True)])
def test_vectors_against_python_chess(name, chess960):
    for v in readable(name, chess960):
        try:
            check_against_python_chess(v, chess960)
        except AssertionError as e:
            raise AssertionError(f"{v['fen']}: {e}") from e
