"""Variant games (``Game(VariantPosition)``, ``read_pgn(..., variants=True)``) against python-chess
1.11.2: the generated games of every variant played move by move, PGN both ways, repetitions,
hostile uses, and an engine searching a crazyhouse game (the fake engine of c_tests)."""

import io
import json
import os
import random

import chess
import chess.pgn
import chess.variant
import pytest

import chesscore
from chesscore import Game
from chesscore.engine import Limit, SimpleEngine
from chesscore.errors import IllegalMoveError
from chesscore.pgn import read_pgn_string
from chesscore.variant import Variant, VariantPosition

from conftest import not_run, shuffling_move

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "core", "tests", "data", "variant")
NAMES = ["atomic", "antichess", "crazyhouse", "kingofthehill", "threecheck", "horde", "racingkings"]


def generated_games(name):
    with open(os.path.join(DATA, f"{name}.games")) as f:
        return [json.loads(line) for line in f]


def theirs_of(data, name):
    board = chess.variant.find_variant(name)(data["start"])
    for uci, *_ in data["plies"]:
        board.push(chess.Move.from_uci(uci))
    return board


@pytest.mark.parametrize("name", NAMES)
def test_generated_games_play_as_python_chess(name):
    variant = Variant.from_name(name)
    for data in generated_games(name):
        game = Game(VariantPosition.from_fen(variant, data["start"]))
        assert game.variant == variant
        for uci, san, fen, *_ in data["plies"]:
            move = game.push_uci(uci)
            assert move.uci() == uci
            assert game.san_moves()[-1] == san
            assert game.board().fen() == fen
        theirs = theirs_of(data, name)
        outcome = theirs.outcome()
        ours = game.outcome()
        assert (ours is None) == (outcome is None), (name, game.board().fen())
        if outcome is not None:
            assert ours.termination.name == outcome.termination.name and ours.winner == outcome.winner
        assert game.start().fen() == data["start"]
        assert game.position_at(len(game)).fen() == game.board().fen()


@pytest.mark.parametrize("name", NAMES)
def test_pgn_both_ways(name):
    exported = []
    for data in generated_games(name):
        exported.append(str(chess.pgn.Game.from_board(theirs_of(data, name))))
    ours = list(read_pgn_string("\n\n".join(exported), variants=True))
    assert len(ours) == len(exported)
    written = []
    for game, text in zip(ours, exported):
        assert game.error is None
        theirs = chess.pgn.read_game(io.StringIO(text))
        assert [m.uci() for m in game.moves] == [m.uci() for m in theirs.mainline_moves()]
        assert game.board().fen() == theirs.end().board().fen()
        written.append(game.pgn())
    for text, original in zip(written, exported):
        back = chess.pgn.read_game(io.StringIO(text))
        before = chess.pgn.read_game(io.StringIO(original))
        assert type(back.board()) is type(before.board())
        assert [m.uci() for m in back.mainline_moves()] == [m.uci() for m in before.mainline_moves()]
        assert back.headers["Variant"] == before.headers["Variant"]


@pytest.mark.parametrize("name", NAMES)
def test_repetitions_as_python_chess(name):
    rng = random.Random(name)
    cls = chess.variant.find_variant(name)
    variant = Variant.from_name(name)
    plies = repeated = 0
    for start in [cls().fen()] + [theirs_of(d, name).fen() for d in generated_games(name)[:12]]:
        theirs = cls(start)
        game = Game(VariantPosition.from_fen(variant, start))
        for _ in range(50):
            move = shuffling_move(theirs, rng)
            if move is None:
                break
            theirs.push(move)
            game.push_uci(move.uci())
            assert game.is_repetition(2) == theirs.is_repetition(2)
            assert game.is_repetition(3) == theirs.is_repetition(3)
            assert game.can_claim_threefold_repetition() == theirs.can_claim_threefold_repetition()
            assert game.is_game_over(claim_draw=True) == theirs.is_game_over(claim_draw=True)
            plies += 1
            repeated += theirs.is_repetition(2)
    # Antichess and three-check games end soonest (forced captures, checks): about 50 plies.
    assert plies >= 50 and repeated >= 10


def test_hostile_uses():
    game = Game(VariantPosition(Variant.CRAZYHOUSE))
    with pytest.raises(IllegalMoveError, match="P@e4"):
        game.push_uci("P@e4")  # an empty pocket
    with pytest.raises(IllegalMoveError):
        game.push(chesscore.Move.null())
    with pytest.raises(IndexError):
        game.pop()
    for san in ["e4", "d5", "exd5", "Qxd5"]:
        game.push_san(san)
    copy = game.copy()
    assert copy.variant == Variant.CRAZYHOUSE and copy.board() == game.board()
    drop = game.push_san("@e6")
    assert drop.uci() == "P@e6" and game.pop() == drop
    assert len(copy) == 4
    with pytest.raises(ValueError):
        game.position_at(5)
    # Without variants=True a variant game is broken, as before.
    (broken,) = read_pgn_string(game.pgn())
    assert "unsupported variant" in str(broken.error)
    # A chess position in a VariantPosition makes a chess game.
    chess_game = Game(VariantPosition(Variant.CHESS))
    assert chess_game.variant == Variant.CHESS and isinstance(chess_game.board(), chesscore.Position)


def test_engine_searches_a_variant_game():
    path = os.environ.get("CHESSCORE_FAKE_ENGINE") or not_run("fake_engine", "python: variant engine", "no fake engine")
    game = Game(VariantPosition(Variant.CRAZYHOUSE))
    for san in ["e4", "d5", "exd5", "Qxd5"]:
        game.push_san(san)
    with SimpleEngine.popen_uci([path, "variant"], timeout=2.0, cwd="/") as engine:
        result = engine.play(game, Limit(depth=1))
        assert (result.move.uci(), result.ponder.uci()) == ("P@e6", "P@e3")
        info = engine.analyse(game.board(), Limit(depth=1))
        assert [m.uci() for m in info["pv"]] == ["P@e6", "P@e3", "d2e3"]


def test_chess_only_calls_refuse_a_variant_game(tmp_path):
    from chesscore.errors import InvalidArgumentError
    from chesscore.tablebase import open_tablebase

    game = Game(VariantPosition(Variant.ATOMIC))
    game.push_san("e4")
    with open_tablebase(str(tmp_path)) as tablebase, pytest.raises(InvalidArgumentError, match="variant game"):
        tablebase.rank_moves(game)
