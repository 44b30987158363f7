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
from chesscore.pgn import read_pgn, read_pgn_string
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


# Hand-written games of every kind: a chess game with a tag line inside a comment (where a thread
# guesses a game starts), a crazyhouse game broken mid-movetext, an unknown variant, a bad variant
# FEN, Chess960.
HOSTILE = (
    '[Event "chess"]\n\n1. e4 e5 2. Nf3 {[Event "fake"]\n\n} Nc6 (2... d6) 3. Bb5 *\n\n'
    '[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d5 {drop} Qxa2 5. Q@e9 *\n\n'
    '[Variant "Bughouse"]\n\n1. e4 *\n\n'
    '[Variant "Racing Kings"]\n[FEN "not a fen"]\n\n1. Kh3 *\n\n'
    '[Variant "Chess960"]\n[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]\n\n1. g3 *\n\n'
)


def shown(game):
    """What tells two games read apart: their variant, PGN, moves and error."""
    return (game.variant, game.pgn(), [m.uci() for m in game.moves], str(game.error) if game.error else None)


def test_threads_read_a_mixed_database_as_one_reader(tmp_path):
    # python-chess's PGN of the generated games of every variant, and of random chess games.
    rng = random.Random(38)
    texts = []
    for name in NAMES:
        texts += [str(chess.pgn.Game.from_board(theirs_of(data, name))) for data in generated_games(name)[:15]]
    for _ in range(20):
        board = chess.Board()
        while not board.is_game_over() and len(board.move_stack) < 80:
            board.push(rng.choice(list(board.legal_moves)))
        texts.append(str(chess.pgn.Game.from_board(board)))
    rng.shuffle(texts)
    unit = HOSTILE + "\n\n".join(texts) + "\n\n"
    path = tmp_path / "mixed.pgn"
    # Large enough for several batches of 256 KiB per thread.
    path.write_text(unit * max(2, (4 << 20) // len(unit) + 1))
    one = [shown(game) for game in read_pgn(str(path), variants=True)]
    assert {game[0] for game in one} >= {Variant.from_name(name) for name in NAMES} | {Variant.CHESS, Variant.CHESS960}
    assert sum(game[3] is not None for game in one) >= 3 * 4
    for threads in (2, 4):
        many = [shown(game) for game in read_pgn(str(path), threads=threads, variants=True)]
        assert len(many) == len(one)
        assert many == one, threads


def test_a_broken_variant_game_keeps_its_moves():
    zh, unknown, fen = list(read_pgn_string(HOSTILE, variants=True))[1:4]
    assert "Q@e9" in str(zh.error) and zh.variant == Variant.CRAZYHOUSE
    board = chess.variant.CrazyhouseBoard()
    for san in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "P@d5", "Qxa2"]:
        board.push_san(san)
    assert [m.uci() for m in zh.moves] == [m.uci() for m in board.move_stack]
    assert zh.board().fen() == board.fen()
    assert zh.headers["Variant"] == "Crazyhouse"
    # An unknown variant, a bad variant FEN: broken games with their headers.
    assert "unsupported variant" in str(unknown.error) and unknown.headers["Variant"] == "Bughouse"
    assert fen.error is not None and fen.headers["FEN"] == "not a fen"
