"""The search helpers (captures, quiets, gives_check, see, is_pseudo_legal, zobrist_after,
attacks, check_squares) on the dev vectors, against python-chess where it has the same notion."""

import chess
import chess.polyglot
import pytest

import chesscore

from conftest import data_dir, read_jsonl


def positions():
    for name, chess960 in (("dev.jsonl", False), ("dev960.jsonl", True)):
        for v in read_jsonl(data_dir() / "vectors" / name)[::5]:
            yield v["fen"], chess960


@pytest.mark.parametrize("fen,chess960", list(positions())[:200])
def test_stages_gives_check_and_key_after(fen, chess960):
    pos = chesscore.Position.from_fen(fen, chess960=chess960, allow_impossible_check=True)
    board = chess.Board(fen, chess960=chess960)
    legal = pos.legal_moves()
    captures, quiets = pos.captures(), pos.quiets()
    assert not set(captures) & set(quiets)
    assert sorted(captures + quiets, key=lambda m: m.raw) == sorted(legal, key=lambda m: m.raw)
    # Each stage in the order of the legal moves.
    assert [m for m in legal if m in set(captures)] == captures
    expected_captures = {m.uci() for m in board.legal_moves if board.is_capture(m) or m.promotion}
    assert {pos.uci(m) for m in captures} == expected_captures
    assert pos.has_legal_moves() == bool(legal)
    for move in legal:
        theirs = chess.Move.from_uci(pos.uci(move))
        assert pos.gives_check(move) == board.gives_check(theirs), pos.uci(move)
        board.push(theirs)
        assert pos.zobrist_after(move) == chess.polyglot.zobrist_hash(board)
        board.pop()
        assert pos.is_pseudo_legal(move)
        assert pos.see_ge(move, pos.see(move)) and not pos.see_ge(move, pos.see(move) + 1)


def test_pseudo_legal_over_every_value():
    pos = chesscore.Position.from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    pseudo = {m.raw for m in pos.pseudo_legal_moves()}
    assert [raw for raw in range(65536) if pos.is_pseudo_legal(chesscore.Move(raw))] == sorted(pseudo)


def test_pseudo_legal_but_illegal_is_refused():
    # The knight on d2 is pinned: its moves follow the rules but expose the king.
    pos = chesscore.Position.from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
    move = next(m for m in pos.pseudo_legal_moves() if pos.uci(m) == "e2c3")
    assert pos.is_pseudo_legal(move) and not pos.is_legal(move)
    with pytest.raises(chesscore.Error):
        pos.push(move)


@pytest.mark.parametrize(
    "fen,uci,value",
    [
        ("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100),
        ("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", -400),
        ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100),
        ("8/8/8/4k3/3p4/8/3R4/3RK3 w - - 0 1", "d2d4", 100),
        ("4k3/5p2/8/3Pp3/8/8/8/4K3 w - e6 0 1", "d5e6", 0),
        ("2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", -100),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0),
    ],
)
def test_see(fen, uci, value):
    pos = chesscore.Position.from_fen(fen)
    move = pos.parse_uci(uci)
    assert pos.see(move) == value
    assert pos.see_ge(move, value) and not pos.see_ge(move, value + 1)
    with pytest.raises(chesscore.Error):
        pos.see_ge(move, 2**31)


def test_attack_maps():
    pos = chesscore.Position()
    board = chess.Board()
    for color in (chess.WHITE, chess.BLACK):
        expected = [sq for sq in chess.SQUARES if board.is_attacked_by(color, sq)]
        assert pos.attacks(color) == expected
    pos = chesscore.Position.from_fen("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1")
    assert pos.check_squares(chess.KNIGHT) == [chess.D6, chess.F6, chess.C7, chess.G7]
    assert pos.check_squares(chess.KING) == []
