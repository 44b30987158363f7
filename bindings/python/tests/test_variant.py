"""chesscore.variant against python-chess's chess.variant boards: start perft per variant, and
random games in which every position's legal moves, SAN (both ways), UCI, FEN (both ways),
outcome, checks, pockets and remaining checks agree."""

import copy
import doctest
import random

import chess
import chess.variant
import pytest

import chesscore
from chesscore import ErrorCode, FenError, IllegalMoveError, InvalidArgumentError, Termination
from chesscore.variant import Variant, VariantPosition

# python-chess's board for each variant.
BOARDS = {
    Variant.CHESS: chess.Board,
    Variant.CHESS960: lambda fen=chess.STARTING_FEN: chess.Board(fen, chess960=True),
    Variant.ATOMIC: chess.variant.AtomicBoard,
    Variant.ANTICHESS: chess.variant.AntichessBoard,
    Variant.CRAZYHOUSE: chess.variant.CrazyhouseBoard,
    Variant.KING_OF_THE_HILL: chess.variant.KingOfTheHillBoard,
    Variant.THREE_CHECK: chess.variant.ThreeCheckBoard,
    Variant.HORDE: chess.variant.HordeBoard,
    Variant.RACING_KINGS: chess.variant.RacingKingsBoard,
}

START_PERFT_3 = {
    Variant.CHESS: 8902,
    Variant.CHESS960: 8902,
    Variant.ATOMIC: 8902,
    Variant.ANTICHESS: 8067,
    Variant.CRAZYHOUSE: 8902,
    Variant.KING_OF_THE_HILL: 8902,
    Variant.THREE_CHECK: 8902,
    Variant.HORDE: 1274,
    Variant.RACING_KINGS: 11264,
}


@pytest.mark.parametrize("variant", list(Variant), ids=str)
def test_start_perft(variant):
    pos = VariantPosition(variant)
    assert pos.variant == variant
    assert pos.perft(0) == 1
    assert pos.perft(3) == START_PERFT_3[variant]
    board = BOARDS[variant]()
    assert pos.fen() == board.fen()
    assert pos.legal_move_count() == board.legal_moves.count()


def python_chess_outcome(board):
    """python-chess's outcome of the position alone (repetitions need a game's history)."""
    outcome = board.outcome()
    if outcome is None or outcome.termination == chess.Termination.FIVEFOLD_REPETITION:
        return None
    return (outcome.termination.name, outcome.winner)


def assert_same(pos, board):
    assert pos.fen() == board.fen()
    assert VariantPosition.from_fen(pos.variant, board.fen()).fen() == board.fen()
    assert pos.turn == board.turn
    moves = pos.legal_moves()
    assert sorted(pos.uci(m) for m in moves) == sorted(board.uci(m) for m in board.legal_moves)
    for move in moves:
        san = pos.san(move)
        expected = board.san(chess.Move.from_uci(pos.uci(move)))
        assert san == expected, (board.fen(), pos.uci(move))
        assert pos.parse_san(san) == move
        assert pos.parse_uci(pos.uci(move)) == move
    outcome = pos.outcome()
    assert (None if outcome is None else (outcome.termination.name, outcome.winner)) == python_chess_outcome(board)
    assert pos.is_check() == board.is_check()
    assert pos.is_checkmate() == board.is_checkmate()
    assert pos.is_variant_end() == board.is_variant_end()
    for color in chess.COLORS:
        assert pos.has_insufficient_material(color) == board.has_insufficient_material(color)
    if pos.variant == Variant.CRAZYHOUSE:
        for color in chess.COLORS:
            expected = {kind: board.pockets[color].count(kind) for kind in range(chess.PAWN, chess.KING)}
            assert pos.pocket(color) == {kind: n for kind, n in expected.items() if n}
            assert pos.pockets()[color] == pos.pocket(color)
        assert pos.promoted() == list(chess.SquareSet(board.promoted))
    if pos.variant == Variant.THREE_CHECK:
        for color in chess.COLORS:
            assert pos.remaining_checks(color) == board.remaining_checks[color]


@pytest.mark.parametrize("variant", list(Variant), ids=str)
def test_random_games_agree_with_python_chess(variant):
    rng = random.Random(f"variant {variant.value}")
    for game in range(3):
        pos = VariantPosition(variant)
        board = BOARDS[variant]()
        for ply in range(150):
            assert_same(pos, board)
            if board.is_game_over():
                break
            move = rng.choice(sorted(board.legal_moves, key=chess.Move.uci))
            # Alternately by SAN and by UCI.
            if ply % 2:
                played = pos.push_san(board.san(move))
            else:
                played = pos.push_uci(move.uci())
            assert pos.uci(played) == board.uci(move)
            board.push(move)
        assert_same(pos, board)


def test_crazyhouse_drops():
    pos = VariantPosition(Variant.CRAZYHOUSE)
    for san in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qxg2", "Bxg2"]:
        pos.push_san(san)
    drop = pos.parse_uci("P@e3")
    assert pos.parse_san("@e3") == drop == pos.parse_san("P@e3")
    assert (drop.from_square, drop.to_square, drop.promotion, drop.uci()) == (20, 20, None, "P@e3")
    assert pos.san(drop) == "@e3"
    before = pos.copy()
    pos.push(drop)
    assert pos.piece_at("e3") == chesscore.Piece(chess.PAWN, chess.BLACK)
    assert before != pos and before.pocket(chess.BLACK) == {chess.PAWN: 2} and pos.pocket(chess.BLACK) == {chess.PAWN: 1}
    assert copy.deepcopy(pos) == pos
    with pytest.raises(IllegalMoveError, match=r"illegal move: 'P@e3' in rnb1kbnr/"):
        pos.push(drop)
    # The chess position refuses the drop.
    assert not chesscore.Position().is_legal(drop)
    with pytest.raises(IllegalMoveError):
        chesscore.Position().push(drop)


def test_fens_and_names():
    lichess = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +1+0"
    pos = VariantPosition.from_fen(Variant.THREE_CHECK, lichess)
    assert pos.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+3 0 2"
    assert (pos.remaining_checks(chess.WHITE), pos.remaining_checks(chess.BLACK)) == (2, 3)
    assert eval(repr(pos), {"VariantPosition": VariantPosition, "Variant": Variant}) == pos
    setup = VariantPosition(Variant.HORDE).setup()
    assert setup.fen() == chess.variant.HordeBoard().fen()
    assert Variant.from_name("King of the Hill") == Variant.KING_OF_THE_HILL
    assert Variant.from_name("giveaway") == Variant.ANTICHESS
    assert [str(v) for v in Variant] == [
        "standard", "chess960", "atomic", "antichess", "crazyhouse",
        "kingofthehill", "threecheck", "horde", "racingkings",
    ]  # fmt: skip
    with pytest.raises(InvalidArgumentError):
        Variant.from_name("shogi")
    with pytest.raises(InvalidArgumentError):
        VariantPosition(9)
    for variant, fen, code in [
        (Variant.CRAZYHOUSE, "8/8/8/8/8/8/8/K6k[X] w - - 0 1", ErrorCode.VARIANT_POCKET),
        (Variant.THREE_CHECK, "8/8/8/8/8/8/8/K6k w - - 5+0 0 1", ErrorCode.VARIANT_CHECKS),
        (Variant.HORDE, chess.STARTING_FEN, ErrorCode.VARIANT_KINGS),
        (Variant.ATOMIC, "8/8/8/8 w - - 0 1", ErrorCode.FEN_RANK_COUNT),
    ]:
        with pytest.raises(FenError) as raised:
            VariantPosition.from_fen(variant, fen)
        assert raised.value.code == code


def test_outcomes():
    koth = VariantPosition.from_fen(Variant.KING_OF_THE_HILL, "4k3/8/8/8/4K3/8/8/8 b - - 0 1")
    outcome = koth.outcome()
    assert (outcome.termination, outcome.winner, outcome.result()) == (Termination.VARIANT_LOSS, chess.WHITE, "1-0")
    racing = VariantPosition.from_fen(Variant.RACING_KINGS, "k6K/8/8/8/8/8/8/8 w - - 0 1")
    assert racing.outcome().termination == Termination.VARIANT_DRAW and racing.outcome().winner is None
    anti = VariantPosition.from_fen(Variant.ANTICHESS, "8/4P3/8/8/8/8/8/k7 w - - 0 1")
    promotion = anti.parse_uci("e7e8k")
    assert promotion.promotion == chesscore.KING and anti.san(promotion) == "e8=K"
    assert VariantPosition.from_fen(Variant.ANTICHESS, "8/8/8/8/8/8/8/k7 w - - 0 1").outcome().termination == (
        Termination.VARIANT_WIN
    )
    assert VariantPosition().outcome() is None


def test_doc_examples():
    assert doctest.testmod(chesscore.variant).failed == 0


def python_chess_epd(board, ops):
    """python-chess's EPD line of ``board`` with ``ops`` (its crazyhouse board writes no
    operations: they are written by its own operation writer after the position fields)."""
    return board.epd() + " " + board._epd_operations(ops)


@pytest.mark.parametrize("variant", list(Variant), ids=str)
def test_epd_agrees_with_python_chess(variant):
    """EPD lines python-chess writes of random games' positions (bm, pv with drops, clocks, a
    string) read to python-chess's position and moves and write back to the same line."""
    rng = random.Random(f"variant epd {variant.value}")
    lines = 0
    for game in range(3):
        board = BOARDS[variant]()
        for ply in range(80):
            if board.is_game_over():
                break
            moves = sorted(board.legal_moves, key=chess.Move.uci)
            line = [rng.choice(moves)]
            after = board.copy(stack=False)
            for _ in range(2):
                after.push(line[-1])
                if after.is_game_over():
                    break
                line.append(rng.choice(sorted(after.legal_moves, key=chess.Move.uci)))
            ops = {"bm": line[0], "pv": line, "hmvc": board.halfmove_clock, "fmvn": board.fullmove_number, "id": f"ply {ply}"}
            text = python_chess_epd(board, ops)
            epd = chesscore.Epd(text, variant=variant)
            again, read = BOARDS[variant]().from_epd(text, chess960=variant == Variant.CHESS960)
            pos = epd.position()
            assert isinstance(pos, VariantPosition) and pos.variant == variant
            assert pos.fen() == again.fen(), text
            assert [pos.uci(m) for m in epd["bm"]] == [again.uci(m) for m in read["bm"]]
            # As each side writes the moves of the line in turn (python-chess reads a Chess960
            # line's moves in a chess board: its own UCI of them says which they are).
            at, theirs = pos.copy(), again.copy()
            ours, expected = [], []
            for move, their in zip(epd["pv"], read["pv"]):
                ours.append(at.uci(move))
                expected.append(theirs.uci(their))
                at.push(move)
                theirs.push(their)
            assert ours == expected and len(epd["pv"]) == len(read["pv"])
            assert epd["id"] == [read["id"]] and epd["hmvc"] == [read["hmvc"]]
            assert str(epd) == text
            lines += 1
            board.push(rng.choice(moves))
    assert lines >= 30


def test_epd_of_variants_forms_and_errors():
    zh = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] w KQkq -"
    # lichess's ninth row, written back in brackets; a pawn drop read as P@ is written @.
    epd = chesscore.Epd(zh.replace("[Qp]", "/Qp").replace(" w ", " b ") + " bm P@d4;", variant=Variant.CRAZYHOUSE)
    assert str(epd) == zh.replace(" w ", " b ") + " bm @d4;"
    assert epd.position().pocket(chess.BLACK) == {chess.PAWN: 1}
    # python-chess's three-check board needs the counter before operations; here it may be
    # left out (3 each) and is written.
    tc = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"
    assert str(chesscore.Epd(tc + " bm Bc4;", variant=Variant.THREE_CHECK)) == tc + " 3+3 bm Bc4;"
    with pytest.raises(ValueError):
        chess.variant.ThreeCheckBoard.from_epd(tc + " bm Bc4;")
    with pytest.raises(FenError) as error:
        chesscore.Epd(tc + " 4+1 bm Bc4;", variant=Variant.THREE_CHECK)
    assert error.value.code == ErrorCode.VARIANT_CHECKS
    with pytest.raises(FenError) as error:
        chesscore.Epd(zh, variant=Variant.ATOMIC)
    assert error.value.code == ErrorCode.VARIANT_POCKET
    with pytest.raises(IllegalMoveError):
        chesscore.Epd(zh + " bm N@e2;", variant=Variant.CRAZYHOUSE)
    with pytest.raises(InvalidArgumentError):
        chesscore.Epd(zh, variant=9)
    with pytest.raises(InvalidArgumentError):
        chesscore.Epd(zh, variant=Variant.CRAZYHOUSE, chess960=True)
    # Without a variant the line is chess: the pocket is no FEN.
    with pytest.raises(FenError):
        chesscore.Epd(zh)
    # Chess through the variant reader: a VariantPosition of chess.
    chess_epd = chesscore.Epd("4k3/8/8/8/8/8/8/R3K3 w Q - bm O-O-O+;", variant=Variant.CHESS)
    assert chess_epd.position() == VariantPosition.from_fen(Variant.CHESS, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
