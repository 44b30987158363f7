"""chesscore.compat against python-chess: the same operations through both, on the vector sets
(tests/data/vectors) and random games, comparing the results
and the types of the exceptions raised; and the modules' doc examples as doctests."""

import doctest
import io
import itertools
import operator
import random

import chess
import chess.polyglot
import pytest

import chesscore
import chesscore.compat
import chesscore.compat.engine
import chesscore.compat.pgn
import chesscore.compat.polyglot
from chesscore import compat

from conftest import data_dir, read_jsonl

VECTOR_SETS = [("dev.jsonl", False), ("dev960.jsonl", True)]


def outcome_of(board):
    """An outcome as plain values, to compare the two libraries'."""
    outcome = board.outcome()
    claimed = board.outcome(claim_draw=True)
    return [None if o is None else (o.termination.name, o.winner, o.result()) for o in (outcome, claimed)]


def answer(call):
    """What a call gives: its value, or the name of the exception it raised (each of which
    must be a ValueError, as python-chess's are)."""
    try:
        return ("ok", call())
    except ValueError as e:
        return ("raises", type(e).__name__)


def boards(fen, chess960):
    return compat.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)


def same_position(ours, theirs):
    assert ours.fen() == theirs.fen()
    assert ours.fen(shredder=True) == theirs.fen(shredder=True)
    assert ours.fen(en_passant="fen") == theirs.fen(en_passant="fen")
    assert ours.fen(en_passant="xfen") == theirs.fen(en_passant="xfen")
    assert ours.board_fen() == theirs.board_fen()
    assert ours.epd() == theirs.epd()
    assert str(ours) == str(theirs)
    assert ours.unicode() == theirs.unicode()
    assert ours.unicode(invert_color=True, borders=True) == theirs.unicode(invert_color=True, borders=True)
    assert repr(ours) == repr(theirs)
    for name in ("turn", "castling_rights", "ep_square", "halfmove_clock", "fullmove_number", "occupied"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours.occupied_co == theirs.occupied_co
    for color in chess.COLORS:
        for name in ("has_castling_rights", "has_kingside_castling_rights", "has_queenside_castling_rights", "king"):
            assert getattr(ours, name)(color) == getattr(theirs, name)(color), name
        for piece_type in chess.PIECE_TYPES:
            assert ours.pieces(piece_type, color) == theirs.pieces(piece_type, color)
    for name in ("has_legal_en_passant", "has_pseudo_legal_en_passant", "is_check", "is_checkmate", "is_stalemate",
                 "is_insufficient_material", "is_seventyfive_moves", "is_fifty_moves", "can_claim_fifty_moves",
                 "is_game_over", "ply", "is_valid", "has_chess960_castling_rights"):  # fmt: skip
        assert getattr(ours, name)() == getattr(theirs, name)(), name
    assert ours.status() == theirs.status() == compat.STATUS_VALID
    assert ours.checkers() == theirs.checkers()
    assert {sq: p.symbol() for sq, p in ours.piece_map().items()} == {sq: p.symbol() for sq, p in theirs.piece_map().items()}


def same_squares(ours, theirs):
    for sq in chess.SQUARES:
        ours_piece, theirs_piece = ours.piece_at(sq), theirs.piece_at(sq)
        assert (ours_piece and ours_piece.symbol()) == (theirs_piece and theirs_piece.symbol())
        assert ours.piece_type_at(sq) == theirs.piece_type_at(sq) and ours.color_at(sq) == theirs.color_at(sq)
        assert ours.attacks(sq) == theirs.attacks(sq), chess.square_name(sq)
        for color in chess.COLORS:
            assert ours.attackers(color, sq) == theirs.attackers(color, sq)
            assert ours.is_attacked_by(color, sq) == theirs.is_attacked_by(color, sq)
            if theirs.color_at(sq) == color:
                assert ours.pin(color, sq) == theirs.pin(color, sq), chess.square_name(sq)
                assert ours.is_pinned(color, sq) == theirs.is_pinned(color, sq)


def same_moves(ours, theirs):
    legal = sorted(m.uci() for m in theirs.legal_moves)
    assert sorted(m.uci() for m in ours.legal_moves) == legal
    assert len(ours.legal_moves) == ours.legal_moves.count() == len(legal)
    assert bool(ours.legal_moves) == bool(theirs.legal_moves)
    assert sorted(m.uci() for m in ours.pseudo_legal_moves) == sorted(m.uci() for m in theirs.pseudo_legal_moves)
    fen = theirs.fen()
    for move in theirs.legal_moves:
        mine = compat.Move.from_uci(move.uci())
        assert mine == move.__class__.from_uci(move.uci()) or mine.uci() == move.uci()
        assert mine in ours.legal_moves and mine in ours.pseudo_legal_moves
        for name in ("san", "lan", "is_capture", "is_en_passant", "is_castling", "is_kingside_castling",
                     "is_queenside_castling", "is_zeroing", "gives_check", "is_into_check"):  # fmt: skip
            assert getattr(ours, name)(mine) == getattr(theirs, name)(move), (name, move.uci())
        san = theirs.san(move)
        assert ours.parse_san(san) == mine and ours.parse_uci(move.uci()) == mine
        ours.push(mine)
        theirs.push(move)
        assert ours.fen() == theirs.fen() and ours.peek() == mine
        assert outcome_of(ours) == outcome_of(theirs)
        assert ours.pop() == mine
        theirs.pop()
    assert ours.fen() == fen


def same_errors(ours, theirs):
    """SAN and UCI texts, good and bad, read by both: the move, or the exception's class."""
    sans = [theirs.san(m) for m in theirs.legal_moves]
    texts = sans + [san.rstrip("+#") for san in sans] + [san[0] + san[-2:] for san in sans if len(san) > 3]
    texts += ["Ke2", "Kg8", "O-O", "O-O-O", "e4", "exd5", "Nf3", "Qh4#", "Qz9", "xyz", "e9", "", "--", "Rd1", "N@e4"]
    for text in texts:
        assert answer(lambda: ours.parse_san(text).uci()) == answer(lambda: theirs.parse_san(text).uci()), text
    ucis = [m.uci() for m in theirs.legal_moves] + ["e2e4", "e7e5", "e1g1", "a1a8", "a7a8q", "zzzz", "e2e2", "e2e4k"]
    for text in ucis:
        assert answer(lambda: ours.parse_uci(text).uci()) == answer(lambda: theirs.parse_uci(text).uci()), text
        assert answer(lambda: compat.Move.from_uci(text).uci()) == answer(lambda: chess.Move.from_uci(text).uci()), text


def vectors(name, chess960):
    """The vectors the library reads: python-chess also takes checks no single move could give,
    which Board refuses (a ValueError)."""
    readable = []
    for v in read_jsonl(data_dir() / "vectors" / name):
        try:
            compat.Board(v["fen"], chess960=chess960)
        except ValueError as e:
            assert e.code == chesscore.ErrorCode.FEN_IMPOSSIBLE_CHECK, v["fen"]
            continue
        readable.append(v)
    assert len(readable) >= 300
    return readable


@pytest.mark.parametrize("name, chess960", VECTOR_SETS)
def test_vector_positions_as_python_chess_answers(name, chess960):
    for v in vectors(name, chess960)[::5]:
        ours, theirs = boards(v["fen"], chess960)
        try:
            same_position(ours, theirs)
            same_squares(ours, theirs)
            same_moves(ours, theirs)
            assert ours.mirror().fen() == theirs.mirror().fen()
            assert ours.copy() == ours and ours.copy(stack=False).fen() == ours.fen()
        except AssertionError as e:
            raise AssertionError(f"{v['fen']}: {e}") from e


@pytest.mark.parametrize("name, chess960", VECTOR_SETS)
def test_vector_positions_raise_as_python_chess_does(name, chess960):
    for v in vectors(name, chess960)[::4]:
        try:
            same_errors(*boards(v["fen"], chess960))
        except AssertionError as e:
            raise AssertionError(f"{v['fen']}: {e}") from e


def play_random_game(rng, ours, theirs, plies):
    """Random moves, half of them undoing the mover's previous move when it can, so that
    positions repeat; now and then a move taken back."""
    for _ in range(plies):
        assert sorted(m.uci() for m in ours.legal_moves) == sorted(m.uci() for m in theirs.legal_moves)
        assert outcome_of(ours) == outcome_of(theirs)
        for name in ("is_game_over", "can_claim_draw", "can_claim_threefold_repetition", "is_fivefold_repetition",
                     "is_seventyfive_moves", "is_repetition", "result"):  # fmt: skip
            assert getattr(ours, name)() == getattr(theirs, name)(), name
        assert ours.is_repetition(2) == theirs.is_repetition(2)
        if theirs.is_game_over():
            break
        moves = list(theirs.legal_moves)
        move = rng.choice(moves)
        if len(theirs.move_stack) >= 2 and rng.random() < 0.5:
            back = theirs.move_stack[-2]
            undo = chess.Move(back.to_square, back.from_square)
            move = undo if undo in moves else move
        ours.push(compat.Move.from_uci(move.uci()))
        theirs.push(move)
        if rng.random() < 0.05:
            assert ours.pop().uci() == theirs.pop().uci()
        assert ours.fen() == theirs.fen()
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]


def test_random_games_as_python_chess_plays_them():
    rng = random.Random(19)
    for game in range(30):
        ours, theirs = compat.Board(), chess.Board()
        play_random_game(rng, ours, theirs, 160)
        root = theirs.root()
        assert ours.root().fen() == root.fen()
        assert ours.root().variation_san(ours.move_stack) == root.variation_san(theirs.move_stack)
        assert ours.copy(stack=3).move_stack == [compat.Move.from_uci(m.uci()) for m in theirs.copy(stack=3).move_stack]


def test_random_games_from_the_vectors_and_in_chess960():
    rng = random.Random(960)
    for name, chess960 in VECTOR_SETS:
        for v in vectors(name, chess960)[::20]:
            ours, theirs = boards(v["fen"], chess960)
            play_random_game(rng, ours, theirs, 40)
            if ours.move_stack:
                assert ours.root().variation_san(ours.move_stack) == theirs.root().variation_san(theirs.move_stack)


def test_moves_and_square_sets_behave_as_python_chess_ones():
    for text in ["e2e4", "e7e8q", "a7a8n", "0000", "h1a8"]:
        ours, theirs = compat.Move.from_uci(text), chess.Move.from_uci(text)
        assert (ours.from_square, ours.to_square, ours.promotion, ours.drop) == (
            theirs.from_square, theirs.to_square, theirs.promotion, theirs.drop
        )  # fmt: skip
        assert repr(ours) == repr(theirs) and str(ours) == str(theirs) and bool(ours) == bool(theirs)
        assert hash(ours) == hash(compat.Move.from_uci(text)) and ours == compat.Move.from_uci(text)
    # A move from a position equals the same move built by hand, and hashes the same.
    board = compat.Board()
    generated = {move: move.uci() for move in board.legal_moves}
    assert generated[compat.Move(chess.G1, chess.F3)] == "g1f3"
    assert compat.Move.null() == compat.Move(0, 0) and compat.Move.null() not in board.legal_moves
    masks = [0, 1, chess.BB_RANK_1, chess.BB_LIGHT_SQUARES, 0x8000_0000_0000_0001, chess.BB_ALL]
    for a in masks:
        ours, theirs = compat.SquareSet(a), chess.SquareSet(a)
        assert (repr(ours), str(ours), len(ours), list(ours), list(reversed(ours)), int(ours), bool(ours)) == (
            repr(theirs), str(theirs), len(theirs), list(theirs), list(reversed(theirs)), int(theirs), bool(theirs)
        )  # fmt: skip
        assert ours.mirror() == theirs.mirror() and ~ours == ~theirs and ours.tolist() == theirs.tolist()
        for b in masks:
            for op in ("__or__", "__and__", "__xor__", "__sub__", "issubset", "issuperset", "isdisjoint"):
                assert getattr(ours, op)(b) == getattr(theirs, op)(b), op
    for name in ["A1", "E4", "H8", "BB_E4", "BB_FILE_C", "BB_RANK_8", "BB_ALL", "BB_CORNERS", "STARTING_FEN"]:
        assert getattr(compat, name) == getattr(chess, name), name
    for sq in chess.SQUARES:
        assert (compat.square_name(sq), compat.square_file(sq), compat.square_rank(sq), compat.square_mirror(sq)) == (
            chess.square_name(sq), chess.square_file(sq), chess.square_rank(sq), chess.square_mirror(sq)
        )  # fmt: skip
        assert compat.parse_square(chess.square_name(sq)) == sq
        assert compat.square_distance(sq, chess.E4) == chess.square_distance(sq, chess.E4)
    assert answer(lambda: compat.parse_square("e9")) == answer(lambda: chess.parse_square("e9"))
    for symbol in "PNBRQKpnbrqk":
        ours, theirs = compat.Piece.from_symbol(symbol), chess.Piece.from_symbol(symbol)
        assert (repr(ours), str(ours), ours.unicode_symbol(), ours.piece_type, ours.color) == (
            repr(theirs), str(theirs), theirs.unicode_symbol(), theirs.piece_type, theirs.color
        )  # fmt: skip


def test_exceptions_derive_and_read_as_python_chess_ones():
    board = compat.Board()
    for error in (compat.IllegalMoveError, compat.InvalidMoveError, compat.AmbiguousMoveError):
        assert issubclass(error, ValueError)
    fen = board.fen()
    with pytest.raises(compat.IllegalMoveError, match=f"illegal san: 'e5' in {fen}"):
        board.push_san("e5")
    with pytest.raises(compat.IllegalMoveError, match=f"illegal uci: 'e2e5' in {fen}"):
        board.push_uci("e2e5")
    with pytest.raises(compat.InvalidMoveError, match="invalid san: 'K@e4'"):
        board.parse_san("K@e4")
    # push plays any move with a piece on its origin, as python-chess's: none there, it raises.
    with pytest.raises(compat.IllegalMoveError, match=f"'e3e4' in {fen}"):
        board.push(compat.Move.from_uci("e3e4"))
    assert board.fen() == fen and not board.move_stack
    ambiguous = compat.Board("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    with pytest.raises(compat.AmbiguousMoveError, match="ambiguous san: 'Rd1' in 4k3/8/8/8/8/8/4K3/R6R w - - 0 1"):
        ambiguous.parse_san("Rd1")
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(ValueError):
        compat.Board("not a fen")


@pytest.mark.parametrize(
    "module", [chesscore.compat, chesscore.compat.pgn, chesscore.compat.polyglot, chesscore.compat.engine]
)
def test_doc_examples(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_moves_from_elsewhere_are_resolved_in_the_board_they_are_pushed_on():
    # The same from and to squares: a normal capture on one board, en passant on the other.
    capture = compat.Board("4k3/8/3p4/4P3/8/8/8/4K3 w - - 0 1").parse_uci("e5d6")
    en_passant = compat.Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert en_passant.is_en_passant(capture) and en_passant.is_capture(capture)
    en_passant.push(capture)
    assert en_passant.fen() == "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1"
    # A null move passes the turn, and comes back off the stack.
    board = compat.Board()
    board.push(compat.Move.null())
    assert board.turn == chess.BLACK and board.peek() == compat.Move.null() and board.san(board.pop()) == "--"
    board.set_fen(chess.STARTING_FEN)
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        board.push_uci(uci)
    assert board.is_repetition(3) and board.can_claim_threefold_repetition() and not board.is_fivefold_repetition()
    assert board.outcome(claim_draw=True).termination == compat.Termination.THREEFOLD_REPETITION
    # A fivefold repetition ends the game, and python-chess still counts the draw as claimable.
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        board.push_uci(uci)
    assert board.is_fivefold_repetition() and board.can_claim_draw()
    assert board.outcome(claim_draw=True).termination == compat.Termination.FIVEFOLD_REPETITION


def test_the_examples_run(capsys):
    import runpy

    from conftest import ROOT

    for example in sorted((ROOT / "bindings" / "python" / "examples").glob("*.py")):
        runpy.run_path(str(example), run_name="__main__")
        assert capsys.readouterr().out, example.name


def test_simple_engine_takes_boards_and_gives_compat_moves():
    from test_engine import engine_path

    path = engine_path("CHESSCORE_FAKE_ENGINE", "fake_engine", "python: engine faults")
    with chesscore.compat.engine.SimpleEngine.popen_uci([path, "good"], timeout=2.0, cwd="/") as engine:
        board = compat.Board()
        info = engine.analyse(board, chesscore.compat.engine.Limit(depth=1))
        assert info["pv"] == [compat.Move.from_uci("e2e4"), compat.Move.from_uci("e7e5")]
        assert info["score"].white() == chesscore.compat.engine.Cp(31)
        board.push_san("Nf3")
        result = engine.play(board, chesscore.compat.engine.Limit(time=0.05))
        assert isinstance(result.move, compat.Move) and result.move in board.legal_moves
        assert (result.move.uci(), result.ponder.uci()) == ("e7e5", "b1c3")
        with engine.analysis(board, chesscore.compat.engine.Limit(depth=1)) as analysis:
            infos = list(analysis)
        assert infos and analysis.wait().move == compat.Move.from_uci("e7e5")
        # python-chess's keywords and ways of reading an analysis.
        info = engine.analyse(board, chesscore.compat.engine.Limit(depth=1), info=chesscore.compat.engine.INFO_SCORE)
        assert "score" in info
        assert engine.play(board, chesscore.compat.engine.Limit(depth=1), info=chesscore.compat.engine.INFO_ALL).move
        with engine.analysis(board, chesscore.compat.engine.Limit(depth=1), info=chesscore.compat.engine.INFO_ALL) as analysis:
            first = analysis.get()
            while analysis.next() is not None:
                pass
            with pytest.raises(chesscore.compat.engine.AnalysisComplete):
                analysis.get()
        assert first


def test_scores_order_negate_and_print_as_python_chess():
    """python-chess's Score values: the total order (programs sort and compare scores),
    negation (``-Mate(0)`` is ``MateGiven``), ``abs``, ``+``, text and mate scores."""
    import chess.engine

    ours, theirs = chesscore.compat.engine, chess.engine
    make = lambda lib: [lib.Mate(0), lib.Mate(-1), lib.Mate(-7), lib.Cp(-50), lib.Cp(0), lib.Cp(200), lib.Mate(4), lib.Mate(1), lib.MateGiven]  # noqa: E731
    mine, expected = make(ours), make(theirs)
    views = (repr, str, lambda s: repr(-s), lambda s: repr(+s), lambda s: repr(abs(s)), lambda s: s.score(),
             lambda s: s.score(mate_score=1000), lambda s: s.mate(), lambda s: s.is_mate())  # fmt: skip
    for a, b in zip(mine, expected):
        assert [view(a) for view in views] == [view(b) for view in views], repr(b)
        assert isinstance(a, ours.Score)
    for i, j in itertools.product(range(len(mine)), repeat=2):
        for compare in (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne):
            assert compare(mine[i], mine[j]) == compare(expected[i], expected[j]), (expected[i], expected[j], compare)
    assert [repr(s) for s in sorted(reversed(mine))] == [repr(s) for s in sorted(reversed(expected))]
    assert ours.INFO_ALL == theirs.INFO_ALL and ours.INFO_SCORE | ours.INFO_PV == theirs.INFO_SCORE | theirs.INFO_PV


def test_polyglot_entries_of_boards_as_python_chess_finds_them():
    book = data_dir() / "polyglot" / "dev.bin"
    found = 0
    with chesscore.compat.polyglot.open_reader(book) as ours, chess.polyglot.open_reader(book) as theirs:
        for game in chesscore.read_pgn(data_dir() / "pgn" / "dev_generated.pgn"):
            if "FEN" in game.headers or game.error:
                continue
            mine, other = compat.Board(), chess.Board()
            for move in game.moves[:12]:
                entries = [(e.move, e.weight, e.learn, e.key) for e in ours.find_all(mine)]
                expected = [(compat.Move.from_uci(e.move.uci()), e.weight, e.learn, e.key) for e in theirs.find_all(other)]
                assert entries == expected, other.fen()
                if expected:
                    found += 1
                    assert ours.find(mine).move == compat.Move.from_uci(theirs.find(other).move.uci())
                    excluded = [entry[0] for entry in entries[:1]]
                    assert [e.move for e in ours.find_all(mine, exclude_moves=excluded)] == [e[0] for e in entries[1:]]
                mine.push_uci(move.uci())
                other.push_uci(move.uci())
        assert ours.get(compat.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")) is None
        assert len(ours) == len(theirs) and [e.raw_move for e in ours][:20] == [e.raw_move for e in theirs][:20]
    assert found > 10
