"""Game: moves, undo, positions, repetition and outcomes, against python-chess on random games."""

import random

import chess
import pytest

import chesscore
from chesscore import Game, Position, Termination


def test_moves_and_positions():
    game = Game()
    assert len(game) == 0 and game.moves == [] and game.san_moves() == [] and game.result() == "*"
    assert game.headers == {} and game.error is None
    e4 = game.push_san("e4")
    game.push_uci("e7e5")
    game.push(game.board().parse_san("Nf3"))
    assert len(game) == 3 and game.moves[0] == e4 and [m.uci() for m in game.moves] == ["e2e4", "e7e5", "g1f3"]
    assert game.san_moves() == ["e4", "e5", "Nf3"]
    assert game.board().fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert game.start() == Position()
    assert game.position_at(1).fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    board = game.board()
    board.push_san("Nc6")
    assert len(game) == 3  # board() is a copy
    assert game.pop().uci() == "g1f3" and len(game) == 2
    with pytest.raises(chesscore.IllegalMoveError):
        game.push_san("Ke3")
    with pytest.raises(chesscore.InvalidArgumentError):
        game.position_at(3)
    assert "2 plies" in repr(game)


def test_pop_empty_and_null_moves():
    game = Game(Position.from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1"))
    with pytest.raises(chesscore.EmptyHistoryError) as e:
        game.pop()
    assert isinstance(e.value, IndexError) and e.value.code == chesscore.ErrorCode.EMPTY_HISTORY
    with pytest.raises(chesscore.IllegalMoveError):
        game.push(chesscore.Move.null())
    game.allow_null_moves = True
    assert game.allow_null_moves
    game.push(chesscore.Move.null())
    assert game.san_moves() == ["--"] and game.board().turn == chesscore.BLACK
    with pytest.raises(chesscore.ArgumentTypeError):
        Game("4k3/8/8/8/8/8/8/4K2R w K - 0 1")


def test_copy_replays():
    game = Game()
    for san in ("d4", "d5", "c4"):
        game.push_san(san)
    game.headers["Event"] = "test"
    other = game.copy()
    assert other.moves == game.moves and other.headers == {"Event": "test"} and other.headers is not game.headers
    other.pop()
    assert len(game) == 3


def test_outcomes():
    mate = Game()
    for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
        mate.push_uci(uci)
    assert mate.outcome() == chesscore.Outcome(Termination.CHECKMATE, chesscore.BLACK)
    assert mate.result() == "0-1" and mate.is_game_over()
    repeat = Game()
    for san in ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"):
        repeat.push_san(san)
    assert repeat.can_claim_threefold_repetition() and not repeat.is_threefold_repetition()
    assert repeat.claimable_draw() == Termination.THREEFOLD_REPETITION and repeat.can_claim_draw()
    assert repeat.outcome() is None and repeat.outcome(claim_draw=True) == chesscore.Outcome(Termination.THREEFOLD_REPETITION, None)
    assert repeat.result(claim_draw=True) == "1/2-1/2"
    repeat.push_san("Ng8")
    assert repeat.repetition_count() == 3 and repeat.is_repetition(3) and not repeat.is_fivefold_repetition()
    for _ in range(2):
        for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
            repeat.push_san(san)
    assert repeat.is_fivefold_repetition()
    assert repeat.outcome() == chesscore.Outcome(Termination.FIVEFOLD_REPETITION, None)
    # Over by the automatic rules: no draw is left to claim (python-chess, and compat with it,
    # still answer can_claim_draw() with True here).
    assert repeat.claimable_draw() is None and not repeat.can_claim_draw()
    dead = Game(Position.from_fen("8/8/4k3/8/8/3BK3/8/8 w - - 0 1"))
    assert dead.outcome().termination == Termination.INSUFFICIENT_MATERIAL
    fifty = Game(Position.from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 100 80"))
    assert fifty.claimable_draw() == Termination.FIFTY_MOVES and fifty.outcome() is None


_TERMINATIONS = {
    chess.Termination.CHECKMATE: Termination.CHECKMATE,
    chess.Termination.STALEMATE: Termination.STALEMATE,
    chess.Termination.INSUFFICIENT_MATERIAL: Termination.INSUFFICIENT_MATERIAL,
    chess.Termination.SEVENTYFIVE_MOVES: Termination.SEVENTYFIVE_MOVES,
    chess.Termination.FIVEFOLD_REPETITION: Termination.FIVEFOLD_REPETITION,
}


def test_random_games_agree_with_python_chess():
    rng = random.Random(6)
    finished = 0
    for _ in range(40):
        game, board = Game(), chess.Board()
        while True:
            outcome = board.outcome()
            ours = game.outcome()
            if outcome is None:
                assert ours is None, board.fen()
            else:
                assert ours == chesscore.Outcome(_TERMINATIONS[outcome.termination], outcome.winner), board.fen()
                finished += 1
                break
            assert game.is_repetition(3) == board.is_repetition(3)
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            # Shuffle knights and kings more often, so that positions repeat.
            quiet = [m for m in moves if board.piece_type_at(m.from_square) in (chess.KNIGHT, chess.KING)]
            move = rng.choice(quiet if quiet and rng.random() < 0.7 else moves)
            san = board.san(move)
            board.push(move)
            assert game.push_san(san).uci() == move.uci()
        assert [m.uci() for m in game.moves] == [m.uci() for m in board.move_stack]
        assert game.board().fen() == board.fen()
    assert finished == 40
