"""compat's Board against python-chess's, as programs written against python-chess's
documentation use it: the move generators with square masks, move predicates, XBoard and EPD
notation, Chess960 numbering, castling fields and resets, on the vector positions and the
positions of random games, comparing results and the types of the exceptions raised."""

import copy
import random

import chess
import pytest

import chesscore
from chesscore import compat

from conftest import data_dir, read_jsonl

GENERATORS = [
    "generate_legal_moves",
    "generate_pseudo_legal_moves",
    "generate_legal_captures",
    "generate_pseudo_legal_captures",
    "generate_castling_moves",
    "generate_legal_ep",
    "generate_pseudo_legal_ep",
]


def answer(call):
    """What a call gives: its value, or the name of the ValueError it raised (a FenError, the
    package's ValueError for a bad FEN, reads as python-chess's plain ValueError)."""
    try:
        return ("ok", call())
    except ValueError as e:
        return ("raises", "ValueError" if isinstance(e, chesscore.FenError) else type(e).__name__)


def ucis(moves):
    return sorted(move.uci() for move in moves)


def positions(rng, count=12, plies=60):
    """FENs (with their mode) of the vector sets and of positions along random games, so that
    castling, en passant and promotions come up."""
    found = []
    for name, chess960 in (("dev.jsonl", False), ("dev960.jsonl", True)):
        for v in read_jsonl(data_dir() / "vectors" / name)[::15]:
            board = chess.Board(v["fen"], chess960=chess960)
            if board.is_valid() and answer(lambda: compat.Board(v["fen"], chess960=chess960))[0] == "ok":
                found.append((board.fen(), chess960))  # (compat refuses some checks python-chess takes)
    for chess960 in (False, True):
        for _ in range(count):
            board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
            for _ in range(rng.randrange(plies)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            found.append((board.fen(), chess960))
    return found


def masks(rng, theirs):
    """Square masks as programs pass them: all, one square, a rank, the pieces of a side, the
    empty squares, random sets."""
    yield chess.BB_ALL
    yield chess.BB_SQUARES[rng.randrange(64)]
    yield chess.BB_RANKS[rng.randrange(8)]
    yield theirs.occupied_co[theirs.turn]
    yield theirs.occupied_co[not theirs.turn]
    yield ~theirs.occupied & chess.BB_ALL
    yield rng.getrandbits(64)
    yield chess.BB_EMPTY


def test_move_generators_with_masks_as_python_chess():
    rng = random.Random(35)
    for fen, chess960 in positions(rng):
        ours, theirs = compat.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)
        for from_mask in masks(rng, theirs):
            for to_mask in masks(rng, theirs):
                for name in GENERATORS:
                    expected = ucis(getattr(theirs, name)(from_mask, to_mask))
                    assert ucis(getattr(ours, name)(from_mask, to_mask)) == expected, (fen, name, from_mask, to_mask)
        for name in GENERATORS:
            assert ucis(getattr(ours, name)()) == ucis(getattr(theirs, name)()), (fen, name)
        # a castling move is masked by its rook's square, as python-chess masks it
        for move in theirs.generate_castling_moves():
            rook = move.to_square if chess960 else (move.from_square + (3 if move.to_square > move.from_square else -4))
            kept = ucis(ours.generate_castling_moves(chess.BB_ALL, chess.BB_SQUARES[rook]))
            assert kept == ucis(theirs.generate_castling_moves(chess.BB_ALL, chess.BB_SQUARES[rook])) and kept


def some_moves(theirs, rng):
    """Legal, pseudo-legal and arbitrary moves (castling both ways of writing it)."""
    moves = list(theirs.pseudo_legal_moves)
    moves += [chess.Move(rng.randrange(64), rng.randrange(64)) for _ in range(8)]
    moves += [chess.Move.from_uci(uci) for uci in ("e1g1", "e1h1", "e1c1", "e1a1", "e8g8", "e8h8", "e8c8", "e8a8")]
    return [move for move in moves if move.from_square != move.to_square]


def test_move_predicates_and_notations_as_python_chess():
    rng = random.Random(3)
    for fen, chess960 in positions(rng):
        ours, theirs = compat.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)
        assert ours.was_into_check() == theirs.was_into_check()
        legal = set(theirs.legal_moves)
        for move in some_moves(theirs, rng):
            mine = compat.Move.from_uci(move.uci())
            assert ours.is_irreversible(mine) == theirs.is_irreversible(move), (fen, move)
            assert ours.is_zeroing(mine) == theirs.is_zeroing(move), (fen, move)
            for flag in (None, False, True):
                assert ours.uci(mine, chess960=flag) == theirs.uci(move, chess960=flag), (fen, move, flag)
            if move in legal:
                for flag in (None, False, True):
                    assert ours.xboard(mine, flag) == theirs.xboard(move, flag), (fen, move)
                xboard = theirs.xboard(move)
                assert ours.parse_xboard(xboard) == mine
                copy_ours, copy_theirs = ours.copy(), theirs.copy()
                assert copy_ours.push_xboard(xboard).uci() == copy_theirs.push_xboard(xboard).uci()
                assert copy_ours.fen() == copy_theirs.fen() and copy_ours.was_into_check() is False
                copy_ours, copy_theirs = ours.copy(), theirs.copy()
                assert copy_ours.san_and_push(mine) == copy_theirs.san_and_push(move)
                assert copy_ours.move_stack[-1] == mine and copy_ours.fen() == copy_theirs.fen()


def test_drops_are_refused_as_python_chess_refuses_them_in_standard_chess():
    ours, theirs = compat.Board(), chess.Board()
    for piece_type in chess.PIECE_TYPES:
        mine, move = compat.Move(chess.E4, chess.E4, drop=piece_type), chess.Move(chess.E4, chess.E4, drop=piece_type)
        assert ours.is_legal(mine) == theirs.is_legal(move) is False
        assert ours.is_pseudo_legal(mine) == theirs.is_pseudo_legal(move) is False
        assert (mine in ours.legal_moves) == (move in theirs.legal_moves) is False
        assert ours.is_zeroing(mine) == theirs.is_zeroing(move)
    for text in ("P@e4", "N@f3", "q@d5", "K@e4"):
        ours_answer = answer(lambda: ours.parse_uci(text))
        assert ours_answer[0] == "raises"
        if answer(lambda: compat.Move.from_uci(text))[0] == "ok":  # once Move reads drops, as python-chess's
            assert ours_answer == answer(lambda: theirs.parse_uci(text))


EPD_LINES = [
    '4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id "test";',
    '4k3/8/8/8/8/8/8/4K3 w - - bm Kd2 Ke2; am Kf1; id "te\\"st"; hmvc 5; fmvn 7; ce 1.5; noop;',
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - pv e4 e5 Nf3; sm d4; acd 12;",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e5;",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 e4;",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c1 x4;",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm;",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a 1 2;",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 3",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - e4",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq -",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm O-O O-O-O; fmvn 40; hmvc 12; c7 \"say \\\"so\\\"\";",
    "8/8/8/8/8/8/8/8 w - - id \"x\";",
    "not an epd",
]


def epd_answer(board, line):
    def call():
        operations = board.set_epd(line)
        values = {}
        for opcode, value in operations.items():
            if isinstance(value, list):
                value = [move.uci() for move in value]
            elif value is not None and hasattr(value, "uci"):
                value = value.uci()
            values[opcode] = value
        return values, board.fen(), board.move_stack

    return answer(call)


def test_epd_lines_read_as_python_chess_reads_them():
    rng = random.Random(7)
    lines = list(EPD_LINES)
    for fen, chess960 in positions(rng, count=4)[::3]:
        theirs = chess.Board(fen, chess960=chess960)
        if chess960:
            continue
        moves = list(theirs.legal_moves)
        if moves:
            lines.append(theirs.epd(bm=moves[0], am=moves[-1:], id="from python-chess", acd=7, ce=-0.5, hmvc=3, fmvn=9))
    for line in lines:
        ours, theirs = compat.Board(), chess.Board()
        ours.push_san("e4")
        theirs.push_san("e4")
        expected = epd_answer(theirs, line)
        if expected[0] == "ok" and not theirs.is_valid():
            continue  # an invalid board
        assert epd_answer(ours, line) == expected, line
        ours_answer = answer(lambda: [b.fen() for b in compat.Board.from_epd(line)[:1]])
        assert ours_answer == answer(lambda: [b.fen() for b in chess.Board.from_epd(line)[:1]]), line


def test_chess960_numbers_as_python_chess():
    for number in range(960):
        ours, theirs = compat.Board.from_chess960_pos(number), chess.Board.from_chess960_pos(number)
        assert ours.fen() == theirs.fen() and ours.chess960 and ours.chess960_pos() == number
        board = compat.Board()
        board.set_chess960_pos(number)
        assert board.fen() == theirs.fen() and board.chess960 and board.chess960_pos() == number
    rng = random.Random(960)
    for number in rng.sample(range(960), 40):
        ours, theirs = compat.Board.from_chess960_pos(number), chess.Board.from_chess960_pos(number)
        for san in ("e4", "e5", "d4", "d5")[: rng.randrange(5)]:
            ours.push_san(san)
            theirs.push_san(san)
        for fields in (" b", " w - -", " w - - 3 1", " w - - 0 2"):
            fen = theirs.board_fen() + fields if rng.random() < 0.5 else theirs.fen()
            ours_board, theirs_board = compat.Board(theirs.fen(), chess960=True), theirs.copy()
            if answer(lambda: compat.Board(fen, chess960=True))[0] == "ok":
                ours_board, theirs_board = compat.Board(fen, chess960=True), chess.Board(fen, chess960=True)
            for flags in ({}, {"ignore_turn": True}, {"ignore_castling": True}, {"ignore_counters": False}):
                assert ours_board.chess960_pos(**flags) == theirs_board.chess960_pos(**flags), (fen, flags)
    assert answer(lambda: compat.Board.from_chess960_pos(960))[0] == "raises"


CASTLING_FIELDS = ["KQkq", "Kq", "-", "", "K", "q", "HAha", "Ah", "AHah", "kq", "KQ", "QK", "KQkqq", "X", "KQkq ", "kK", "Hk"]


def test_castling_fields_as_python_chess():
    rng = random.Random(12)
    fens = [(chess.STARTING_FEN, False), ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", False)]
    fens += [(chess.Board.from_chess960_pos(n).fen(), True) for n in rng.sample(range(960), 6)]
    fens += positions(rng, count=3)[::4]
    for fen, chess960 in fens:
        ours, theirs = compat.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)
        for name in ("clean_castling_rights", "castling_shredder_fen", "castling_xfen", "shredder_fen"):
            assert getattr(ours, name)() == getattr(theirs, name)(), (fen, name)
        for field in CASTLING_FIELDS + [theirs.castling_shredder_fen(), theirs.castling_xfen()]:
            mine, expected = ours.copy(), theirs.copy()
            result = answer(lambda: expected.set_castling_fen(field))
            assert answer(lambda: mine.set_castling_fen(field)) == result, (fen, field)
            assert mine.fen() == expected.fen() and mine.castling_rights == expected.castling_rights, (fen, field)
            assert mine.status() == expected.status() and not mine.move_stack, (fen, field)


def test_resets_and_stacks_as_python_chess():
    rng = random.Random(5)
    for fen, chess960 in positions(rng, count=4):
        ours, theirs = compat.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)
        for _ in range(3):
            moves = list(theirs.legal_moves)
            if moves:
                move = rng.choice(moves)
                theirs.push(move)
                ours.push(compat.Move.from_uci(move.uci()))
        for depth in (False, True, 0, 1, 2, 5):
            assert ucis(ours.copy(stack=depth).move_stack) == ucis(theirs.copy(stack=depth).move_stack)
            assert ours.copy(stack=depth).root().fen() == theirs.copy(stack=depth).root().fen()
        cleared, expected = ours.copy(), theirs.copy()
        cleared.clear_stack()
        expected.clear_stack()
        assert cleared.fen() == expected.fen() and not cleared.move_stack and cleared.root().fen() == expected.fen()
        reset, expected = ours.copy(), theirs.copy()
        reset.reset()
        expected.reset()
        assert reset.fen() == expected.fen() and reset.chess960 == expected.chess960 and not reset.move_stack
        board, expected = ours.copy(), theirs.copy()
        expected.reset_board()
        board.reset_board()
        assert board.fen(en_passant="fen") == expected.fen(en_passant="fen") and not board.move_stack
        assert board.status() == expected.status()


def test_variant_description_as_python_chess():
    for name in ("aliases", "uci_variant", "xboard_variant", "starting_fen", "tbw_suffix", "tbz_suffix", "tbw_magic",
                 "tbz_magic", "pawnless_tbw_suffix", "pawnless_tbz_suffix", "pawnless_tbw_magic",
                 "pawnless_tbz_magic", "connected_kings", "one_king", "captures_compulsory"):  # fmt: skip
        assert getattr(compat.Board, name) == getattr(chess.Board, name), name
        assert getattr(compat.Board(), name) == getattr(chess.Board(), name), name
    for fen in (chess.STARTING_FEN, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "k7/8/8/8/8/8/8/K7 w - - 0 1"):
        ours, theirs = compat.Board(fen), chess.Board(fen)
        for name in ("is_variant_end", "is_variant_win", "is_variant_loss", "is_variant_draw"):
            assert getattr(ours, name)() == getattr(theirs, name)() is False


def test_python_chess_documentation_examples():
    """The examples of python-chess's documentation for Board, run through compat."""
    chess_ = compat
    board = chess_.Board()
    assert sorted(m.uci() for m in board.generate_legal_moves(chess_.BB_SQUARES[chess_.G1])) == ["g1f3", "g1h3"]
    assert board.san_and_push(chess_.Move.from_uci("e2e4")) == "e4" and board.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3")
    assert board.push_xboard("e5") == chess_.Move.from_uci("e7e5")
    assert board.parse_xboard("Nf3") == chess_.Move.from_uci("g1f3") and board.xboard(chess_.Move.from_uci("g1f3")) == "g1f3"
    assert board.is_irreversible(chess_.Move.from_uci("d2d4")) and not board.is_irreversible(chess_.Move.from_uci("g1f3"))
    assert board.is_irreversible(chess_.Move.from_uci("e1e2"))
    board.clear_stack()
    assert board.move_stack == [] and board.root().fen() == board.fen()

    board, operations = chess_.Board.from_epd("4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id \"test\";")
    assert board.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert operations == {"bm": [chess_.Move.from_uci("e1d2")], "id": "test"}

    board = chess_.Board.from_chess960_pos(706)
    assert board.fen() == chess.Board.from_chess960_pos(706).fen() == "brkqnbnr/pppppppp/8/8/8/8/PPPPPPPP/BRKQNBNR w KQkq - 0 1"
    assert board.chess960_pos() == 706 and board.castling_shredder_fen() == "HBhb"
    board.set_castling_fen("Hb")
    assert board.castling_xfen() == "Kq" and board.has_kingside_castling_rights(chess_.WHITE)
    assert not board.has_queenside_castling_rights(chess_.WHITE) and board.castling_rights == chess_.BB_H1 | chess_.BB_B8
    board.reset()
    assert board.fen() == chess_.STARTING_FEN and board.chess960

    board = chess_.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert [m.uci() for m in board.generate_castling_moves()] and all(
        board.is_castling(m) for m in board.generate_castling_moves()
    )
    assert board.uci(chess_.Move.from_uci("e1g1"), chess960=True) == "e1h1"
    assert board.uci(chess_.Move.from_uci("e1a1")) == "e1c1"
    assert sorted(m.uci() for m in board.generate_legal_captures()) == ["a1a8", "h1h8"]
    assert sorted(m.uci() for m in board.generate_legal_captures(to_mask=chess_.BB_RANK_1)) == []
    assert not board.was_into_check()


@pytest.mark.parametrize("name", GENERATORS)
def test_generators_are_iterators(name):
    board = compat.Board()
    moves = getattr(board, name)()
    assert iter(moves) is moves


def test_base_boards_as_python_chess():
    assert isinstance(compat.Board(), compat.BaseBoard) and issubclass(compat.Board, compat.BaseBoard)
    rng = random.Random(1)
    fens = [chess.STARTING_BOARD_FEN, "8/8/8/8/8/8/8/8", "PPPPPPPP/8/8/8/8/8/8/kkkkkkkk"]
    fens += [fen.split(" ")[0] for fen, _ in positions(rng, count=3)[::5]] + [random_fen(rng).split(" ")[0] for _ in range(30)]
    for board_fen in fens:
        ours, theirs = compat.BaseBoard(board_fen), chess.BaseBoard(board_fen)
        assert ours.board_fen() == theirs.board_fen() and repr(ours) == repr(theirs) and str(ours) == str(theirs)
        assert ours.unicode(borders=True) == theirs.unicode(borders=True) and ours.chess960_pos() == theirs.chess960_pos()
        assert ours == compat.BaseBoard(board_fen) and ours.copy() == ours and ours.copy() is not ours
        assert ours.occupied == theirs.occupied and ours.occupied_co == theirs.occupied_co
        for sq in chess.SQUARES:
            assert str(ours.piece_at(sq)) == str(theirs.piece_at(sq)) and ours.attacks(sq) == theirs.attacks(sq)
            for color in chess.COLORS:
                assert ours.attackers(color, sq) == theirs.attackers(color, sq)
                if theirs.color_at(sq) == color:  # (python-chess also pins the other side's pieces)
                    assert ours.is_pinned(color, sq) == theirs.is_pinned(color, sq)
        for color in chess.COLORS:
            assert ours.king(color) == theirs.king(color)
        for name in ("pawns", "knights", "bishops", "rooks", "queens", "kings"):
            assert getattr(ours, name) == getattr(theirs, name), name
        for flip in (chess.flip_vertical, chess.shift_down, chess.flip_anti_diagonal):
            assert ours.transform(flip).board_fen() == theirs.transform(flip).board_fen()
        assert ours.mirror().board_fen() == theirs.mirror().board_fen()
        edited, expected = ours.copy(), theirs.copy()
        edited.set_piece_at(chess.D4, compat.Piece.from_symbol("q"))
        expected.set_piece_at(chess.D4, chess.Piece.from_symbol("q"))
        assert str(edited.remove_piece_at(chess.A1)) == str(expected.remove_piece_at(chess.A1))
        assert edited.board_fen() == expected.board_fen() and ours.board_fen() == theirs.board_fen()
    for board_fen in ("x", "8/8/8", "9/8/8/8/8/8/8/8"):
        assert answer(lambda: compat.BaseBoard(board_fen).board_fen()) == answer(lambda: chess.BaseBoard(board_fen).board_fen())
    board = compat.BaseBoard.empty()
    board.set_chess960_pos(7)
    assert board.board_fen() == chess.BaseBoard.from_chess960_pos(7).board_fen() == compat.BaseBoard.from_chess960_pos(7).board_fen()
    board.clear_board()
    assert board.board_fen() == "8/8/8/8/8/8/8/8" and board == compat.BaseBoard(None)
    board.reset_board()
    board.set_piece_map({chess.E4: compat.Piece.from_symbol("K")})
    board.set_board_fen(board.board_fen())
    assert board.piece_map() == {chess.E4: compat.Piece.from_symbol("K")}


def piece_pair(symbol):
    return compat.Piece.from_symbol(symbol), chess.Piece.from_symbol(symbol)


def edits(rng, theirs):
    """Edits as python-chess programs make them, each as (name, call on compat's board, call
    on python-chess's)."""
    sq = rng.randrange(64)
    symbol = rng.choice("PNBRQKpnbrqk")
    ours_piece, theirs_piece = piece_pair(symbol)
    rights = theirs.castling_rights & rng.getrandbits(64) if rng.random() < 0.7 else rng.choice([chess.BB_CORNERS, chess.BB_H1 | chess.BB_A8, 0])
    ep = rng.choice([None, rng.randrange(64)] + [sq for sq in range(16, 48) if theirs.ep_square is None])
    other = chess.Board()
    for _ in range(rng.randrange(30)):
        moves = list(other.legal_moves)
        if moves:
            other.push(rng.choice(moves))
    flip = rng.choice([chess.flip_vertical, chess.flip_horizontal, chess.flip_diagonal, chess.flip_anti_diagonal,
                       chess.shift_down, chess.shift_up, chess.shift_left, chess.shift_right])  # fmt: skip
    pieces = {sq: piece for sq, piece in other.piece_map().items() if rng.random() < 0.9}
    return [
        ("set_piece_at", lambda b: b.set_piece_at(sq, ours_piece), lambda b: b.set_piece_at(sq, theirs_piece)),
        ("set_piece_at None", lambda b: b.set_piece_at(sq, None), lambda b: b.set_piece_at(sq, None)),
        ("remove_piece_at", lambda b: str(b.remove_piece_at(sq)), lambda b: str(b.remove_piece_at(sq))),
        ("turn", lambda b: setattr(b, "turn", not b.turn), lambda b: setattr(b, "turn", not b.turn)),
        ("castling_rights", lambda b: set_rights(b, rights), lambda b: set_rights(b, rights)),
        ("ep_square", lambda b: setattr(b, "ep_square", ep), lambda b: setattr(b, "ep_square", ep)),
        ("halfmove_clock", lambda b: setattr(b, "halfmove_clock", 17), lambda b: setattr(b, "halfmove_clock", 17)),
        ("fullmove_number", lambda b: setattr(b, "fullmove_number", 33), lambda b: setattr(b, "fullmove_number", 33)),
        ("set_board_fen", lambda b: b.set_board_fen(other.board_fen()), lambda b: b.set_board_fen(other.board_fen())),
        ("set_piece_map", lambda b: b.set_piece_map({s: compat.Piece.from_symbol(p.symbol()) for s, p in pieces.items()}),
         lambda b: b.set_piece_map(pieces)),
        ("apply_transform", lambda b: b.apply_transform(flip), lambda b: b.apply_transform(flip)),
        ("transform", lambda b: b.transform(flip).fen(), lambda b: b.transform(flip).fen()),
        ("apply_mirror", lambda b: b.apply_mirror(), lambda b: b.apply_mirror()),
        ("mirror", lambda b: b.mirror().fen(), lambda b: b.mirror().fen()),
        ("reset_board", lambda b: b.reset_board(), lambda b: b.reset_board()),
        ("clear_stack", lambda b: b.clear_stack(), lambda b: b.clear_stack()),
        ("clear", lambda b: b.clear(), lambda b: b.clear()),
        ("clear_board", lambda b: b.clear_board(), lambda b: b.clear_board()),
        ("set_chess960_pos", lambda b: b.set_chess960_pos(sq * 15), lambda b: b.set_chess960_pos(sq * 15)),
        # (with a move stack python-chess takes any castling rights as clean: none for these)
        ("chess960", lambda b: toggle_chess960(b), lambda b: toggle_chess960(b)),
    ]


def toggle_chess960(board):
    board.clear_stack()
    board.chess960 = not board.chess960


def set_rights(board, rights):
    board.clear_stack()
    board.castling_rights = rights


def same_board_after(step, ours, theirs):
    """``same_board``, naming the step and the board in a failure."""
    try:
        same_board(ours, theirs)
    except AssertionError as e:
        raise AssertionError(f"after {step}: {theirs.fen()} {[m.uci() for m in theirs.move_stack]}: {e}") from e


def same_board(ours, theirs):
    """The same board by every query, valid position or not. (On a board whose en passant
    square cannot stand, python-chess still takes there; the library does not: those captures
    are left out.)"""
    bad_ep = bool(theirs.status() & chess.STATUS_INVALID_EP_SQUARE)
    # With several kings of a side the library's X-FEN names rights otherwise: left out.
    kings = bool(theirs.status() & chess.STATUS_TOO_MANY_KINGS)
    ep_fens = ["fen"] if bad_ep else ["fen", "legal", "xfen"]
    for ep in ep_fens:
        for shredder in (False, True):
            fields = ours.fen(en_passant=ep, shredder=shredder).split(), theirs.fen(en_passant=ep, shredder=shredder).split()
            if kings and not shredder:
                fields = [f[:2] + f[3:] for f in fields]
            assert fields[0] == fields[1], (ep, shredder)
    assert ours.board_fen() == theirs.board_fen()
    assert str(ours) == str(theirs) and (bad_ep or kings or repr(ours) == repr(theirs))
    for name in ("turn", "castling_rights", "ep_square", "halfmove_clock", "fullmove_number", "occupied", "occupied_co",
                 "chess960", "pawns", "knights", "bishops", "rooks", "queens", "kings"):  # fmt: skip
        assert getattr(ours, name) == getattr(theirs, name), name
    for name in ("status", "is_valid", "clean_castling_rights", "is_check", "is_checkmate", "is_stalemate",
                 "was_into_check",
                 "castling_shredder_fen", "is_seventyfive_moves", "is_fifty_moves", "ply", "has_chess960_castling_rights",
                 "chess960_pos"):  # fmt: skip
        assert getattr(ours, name)() == getattr(theirs, name)(), name
    assert kings or ours.castling_xfen() == theirs.castling_xfen()
    assert ours.checkers() == theirs.checkers()
    for color in chess.COLORS:
        for name in ("king", "has_castling_rights", "has_kingside_castling_rights", "has_queenside_castling_rights"):
            assert getattr(ours, name)(color) == getattr(theirs, name)(color), (name, color)
        for piece_type in chess.PIECE_TYPES:
            assert ours.pieces(piece_type, color) == theirs.pieces(piece_type, color)
    for sq in range(0, 64, 3):
        assert str(ours.piece_at(sq)) == str(theirs.piece_at(sq)) and ours.attacks(sq) == theirs.attacks(sq), sq
        for color in chess.COLORS:
            assert ours.attackers(color, sq) == theirs.attackers(color, sq), sq
    if not bad_ep:
        for name in ("has_legal_en_passant", "has_pseudo_legal_en_passant"):
            assert getattr(ours, name)() == getattr(theirs, name)(), name
    taken = set(theirs.generate_pseudo_legal_ep()) if bad_ep else set()
    assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
    assert ucis(ours.legal_moves) == ucis(set(theirs.legal_moves) - taken)
    assert len(ours.legal_moves) == len(set(theirs.legal_moves) - taken)
    assert ucis(ours.pseudo_legal_moves) == ucis(set(theirs.pseudo_legal_moves) - taken)
    for name in GENERATORS:
        if kings and name == "generate_castling_moves":
            continue  # (python-chess's generator castles a king its legal moves do not)
        assert ucis(getattr(ours, name)()) == ucis(set(getattr(theirs, name)()) - taken), name
    for move in [m for m in theirs.pseudo_legal_moves if m not in taken][:12]:
        mine = compat.Move.from_uci(move.uci())
        for name in ("is_legal", "is_pseudo_legal", "is_into_check", "is_capture", "is_zeroing") + ("is_irreversible",) * (not bad_ep):
            assert getattr(ours, name)(mine) == getattr(theirs, name)(move), (name, move)
        if theirs.is_legal(move):  # (python-chess reads these off any move's geometry)
            for name in ("is_en_passant", "is_castling", "gives_check"):
                assert getattr(ours, name)(mine) == getattr(theirs, name)(move), (name, move)


def test_edited_boards_as_python_chess():
    """Random edits between random moves and take-backs, valid positions or not: compat's board
    is python-chess's by every query, and take-backs restore the same boards."""
    rng = random.Random(2)
    valid = invalid = 0
    for game in range(60):
        chess960 = game % 4 == 3
        start = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        ours, theirs = compat.Board(start.fen(), chess960=chess960), start
        for step in range(25):
            name = "move"
            moves = list(theirs.legal_moves) if theirs.is_valid() else list(theirs.pseudo_legal_moves)
            if rng.random() < 0.4 and moves and theirs.king(theirs.turn) is not None:
                move = rng.choice(moves)
                ours.push(compat.Move.from_uci(move.uci()))
                theirs.push(move)
            elif rng.random() < 0.2 and theirs.move_stack:
                name = "pop"
                assert ours.pop().uci() == theirs.pop().uci()
            else:
                name, ours_call, theirs_call = rng.choice(edits(rng, theirs))
                expected = answer(lambda: theirs_call(theirs))
                assert answer(lambda: ours_call(ours)) == expected, (name, theirs.fen())
            valid, invalid = valid + theirs.is_valid(), invalid + (not theirs.is_valid())
            same_board_after(name, ours, theirs)
        while theirs.move_stack:
            assert ours.pop().uci() == theirs.pop().uci()
            assert ours.fen(en_passant="fen") == theirs.fen(en_passant="fen") and ours.status() == theirs.status()
    assert valid > 300 and invalid > 300


def test_runs_of_edits_as_python_chess():
    """Edits in runs with nothing asked between them (compat leaves such a board unchecked
    until it is next asked something): then every query, take-backs and moves as python-chess."""
    rng = random.Random(5)
    cheap = {"set_piece_at", "set_piece_at None", "remove_piece_at", "turn", "castling_rights", "ep_square", "halfmove_clock", "fullmove_number"}
    settled = 0
    for game in range(150):
        start = chess.Board()
        for _ in range(rng.randrange(12)):
            if start.is_game_over():
                break
            start.push(rng.choice(list(start.legal_moves)))
        ours, theirs = compat.Board(), chess.Board()
        for move in start.move_stack:
            ours.push(compat.Move.from_uci(move.uci()))
            theirs.push(move)
        for run in range(4):
            for _ in range(rng.randrange(1, 7)):
                name, ours_call, theirs_call = rng.choice([e for e in edits(rng, theirs) if e[0] in cheap])
                assert answer(lambda: ours_call(ours)) == answer(lambda: theirs_call(theirs)), name
            assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
            # The first question settles the board; each kind of question comes first somewhere.
            first = rng.choice(["same", "pop", "push", "copy", "eq", "str", "repr", "is_valid", "legal_moves", "method taken first"])
            if first == "method taken first" and theirs.is_valid() and any(theirs.legal_moves):
                # The method is the edited board's; its argument settles the board before it runs.
                move = rng.choice(list(theirs.legal_moves))
                assert ours.is_irreversible(ours.parse_uci(move.uci())) == theirs.is_irreversible(theirs.parse_uci(move.uci()))
            elif first == "pop" and theirs.move_stack:
                assert ours.pop().uci() == theirs.pop().uci()
            elif first == "push" and theirs.is_valid() and any(theirs.legal_moves):
                move = rng.choice(list(theirs.legal_moves))
                ours.push(compat.Move.from_uci(move.uci()))
                theirs.push(move)
            elif first == "copy":
                ours = ours.copy()
                theirs = theirs.copy()
            elif first == "eq":
                assert ours == compat.Board(theirs.fen()) and ours != compat.Board(chess.Board().fen()) or theirs.fen() == chess.STARTING_FEN
            elif first == "str":
                assert str(ours) == str(theirs)
            elif first == "repr":
                assert repr(ours) == repr(theirs)
            elif first == "is_valid":
                assert ours.is_valid() == theirs.is_valid()
            elif first == "legal_moves":
                assert sorted(m.uci() for m in ours.legal_moves) == sorted(m.uci() for m in theirs.legal_moves)
            settled += 1
            same_board_after(first, ours, theirs)
        while theirs.move_stack:
            assert ours.pop().uci() == theirs.pop().uci()
            same_board(ours, theirs)
        del ours  # (an edited board is freed unasked)
    assert settled == 600


def random_fen(rng):
    """A FEN python-chess reads, of any board: random pieces (kings or not, pawns anywhere),
    castling rights, en passant square, side to move and clocks."""
    board = chess.Board.empty()
    for _ in range(rng.randrange(2, 14)):
        board.set_piece_at(rng.randrange(64), chess.Piece.from_symbol(rng.choice("PNBRQKpnbrqkKk")))
    board.turn = rng.random() < 0.5
    board.castling_rights = rng.choice([0, chess.BB_CORNERS, rng.getrandbits(64) & chess.BB_BACKRANKS])
    board.ep_square = rng.choice([None, None, rng.randrange(64), rng.choice([chess.C3, chess.E6, chess.H3])])
    board.halfmove_clock, board.fullmove_number = rng.randrange(120), rng.randrange(1, 90)
    return board.fen(en_passant="fen")


def test_boards_of_any_fen_as_python_chess():
    rng = random.Random(11)
    statuses, compared = set(), 0
    for i in range(400):
        fen, chess960 = random_fen(rng), i % 5 == 4
        if i % 3 == 0:  # rights named by letters whatever the pieces
            fields = fen.split(" ")
            fields[2] = rng.choice(["KQkq", "Kq", "q", "K", "HAha", "Ah", "Bg", "kq", "QK"])
            fen = " ".join(fields)
        ours, theirs = compat.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)
        statuses.add(int(theirs.status()))
        try:
            same_board(ours, theirs)
            # the outcome, where the board is a position but for its castling rights, en passant
            # square or a check python-chess takes (the library's insufficient material needs one)
            if not theirs.status() & ~(chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE | chess.STATUS_IMPOSSIBLE_CHECK):
                assert outcome_of(ours) == outcome_of(theirs)
                compared += 1
            mirrored = ours.mirror()
            assert mirrored.fen(en_passant="fen") == theirs.mirror().fen(en_passant="fen")
            assert mirrored.status() == theirs.mirror().status()
            assert ours.copy().fen(en_passant="fen") == theirs.fen(en_passant="fen") == ours.root().fen(en_passant="fen")
        except AssertionError as e:
            raise AssertionError(f"{fen}: {e}") from e
    assert len(statuses) > 20 and compared > 20
    for fen in ("8/8/8/8/8/8/8/8 w - - 0 1", "x", "8/8/8 w - - 0 1", "8/8/8/8/8/8/8/9 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 z - - 0 1"):
        assert answer(lambda: compat.Board(fen).fen()) == answer(lambda: chess.Board(fen).fen()), fen


def outcome_of(board):
    outcome = board.outcome()
    return None if outcome is None else (outcome.termination.name, outcome.winner)


def test_python_chess_documentation_examples_of_editing_and_status():
    """python-chess's documentation on building boards and judging them, through compat."""
    chess_ = compat
    board = chess_.Board.empty()
    assert board.status() == chess_.STATUS_NO_WHITE_KING | chess_.STATUS_NO_BLACK_KING | chess_.STATUS_EMPTY
    assert not board.is_valid() and board.fen() == "8/8/8/8/8/8/8/8 w - - 0 1" and not board.legal_moves
    board.set_piece_at(chess_.E1, chess_.Piece(chess_.KING, chess_.WHITE))
    assert board.status() == chess_.STATUS_NO_BLACK_KING and board.king(chess_.WHITE) == chess_.E1
    board.set_piece_at(chess_.E8, chess_.Piece.from_symbol("k"))
    board.set_piece_at(chess_.A1, chess_.Piece.from_symbol("R"))
    assert board.is_valid() and board.status() == chess_.STATUS_VALID
    board.castling_rights = chess_.BB_A1
    assert board.fen() == "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1" and board.has_queenside_castling_rights(chess_.WHITE)
    assert "e1c1" in [m.uci() for m in board.legal_moves]
    board.castling_rights |= chess_.BB_H1
    assert board.status() == chess_.STATUS_BAD_CASTLING_RIGHTS and board.clean_castling_rights() == chess_.BB_A1
    board.push(chess_.Move.from_uci("e1c1"))
    assert board.fen() == "4k3/8/8/8/8/8/8/2KR4 b - - 1 1" and board.is_valid()
    assert board.pop() == chess_.Move.from_uci("e1c1") and board.castling_rights == chess_.BB_A1 | chess_.BB_H1
    board.remove_piece_at(chess_.E8)
    assert board.status() == chess_.STATUS_NO_BLACK_KING | chess_.STATUS_BAD_CASTLING_RIGHTS
    # no SAN without a position (python-chess writes "Ra8"): a ValueError naming the board
    assert answer(lambda: board.san(chess_.Move.from_uci("a1a8"))) == ("raises", "ValueError")
    board.push(chess_.Move.from_uci("a1a8"))
    assert board.fen() == "R7/8/8/8/8/8/8/4K3 b - - 1 1" and board.pop().uci() == "a1a8"

    board = chess_.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    board.set_piece_map({chess_.E1: chess_.Piece.from_symbol("K"), chess_.E8: chess_.Piece.from_symbol("k"), chess_.D7: chess_.Piece.from_symbol("P")})
    assert board.board_fen() == "4k3/3P4/8/8/8/8/8/4K3" and board.fen() == "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1"
    assert board.status() == chess_.STATUS_BAD_CASTLING_RIGHTS | chess_.STATUS_OPPOSITE_CHECK
    board.turn = chess_.BLACK
    assert board.status() == chess_.STATUS_BAD_CASTLING_RIGHTS and board.is_check()
    assert [board.san(m) for m in board.legal_moves] == [chess.Board(board.fen()).san(chess.Move.from_uci(m.uci())) for m in board.legal_moves]
    board.clear()
    assert board.fen() == "8/8/8/8/8/8/8/8 w - - 0 1" and board.status() & chess_.STATUS_EMPTY

    board = chess_.Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    flipped = board.transform(chess.flip_vertical)
    expected = chess.Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1").transform(chess.flip_vertical)
    assert flipped.fen() == expected.fen() and flipped.castling_rights == expected.castling_rights == chess_.BB_H8
    assert flipped.status() == expected.status() == chess_.STATUS_BAD_CASTLING_RIGHTS
    board.apply_mirror()
    assert board.fen() == "4k2r/8/8/8/8/8/8/4K3 b k - 0 1" and board.is_valid()
    assert isinstance(board, chess_.BaseBoard) and isinstance(chess_.Board.empty(), chess_.Board)
    base = chess_.BaseBoard.empty()
    base.set_piece_at(chess_.A2, chess_.Piece.from_symbol("P"))
    assert base.board_fen() == "8/8/8/8/8/8/P7/8" and base.attacks(chess_.A2) == chess_.SquareSet(chess_.BB_B3)


def test_assignments_keep_the_move_stack_as_python_chess():
    ours, theirs = compat.Board(), chess.Board()
    for san in ("Nf3", "Nf6", "g3"):
        ours.push_san(san)
        theirs.push_san(san)
    for board in (ours, theirs):
        board.turn = not board.turn
        board.halfmove_clock = 40
        board.castling_rights &= ~chess.BB_A1
    assert ours.fen() == theirs.fen() and [m.uci() for m in ours.move_stack] == ["g1f3", "g8f6", "g2g3"]
    assert ours.root().fen() == theirs.root().fen() == chess.STARTING_FEN
    assert ours.copy(stack=2).root().fen() == theirs.copy(stack=2).root().fen()
    ours.push_san("e4")
    theirs.push_san("e4")
    while theirs.move_stack:
        assert ours.pop() == compat.Move.from_uci(theirs.pop().uci()) and ours.fen() == theirs.fen()


def test_subclasses_keep_their_class_on_any_board():
    class MyBoard(compat.Board):
        def hello(self):
            return "hello " + self.board_fen()

    board = MyBoard(None)
    assert isinstance(board, MyBoard) and type(board).__name__ == "MyBoard" and board.hello() == "hello 8/8/8/8/8/8/8/8"
    board.set_fen(chess.STARTING_FEN)
    assert type(board) is MyBoard and board.hello().endswith("RNBQKBNR") and board.is_valid()
    board.remove_piece_at(chess.E1)
    assert isinstance(board, MyBoard) and board.status() == compat.STATUS_NO_WHITE_KING | compat.STATUS_BAD_CASTLING_RIGHTS
    board.set_piece_at(chess.E1, compat.Piece.from_symbol("K"))
    # Until an edited board is next asked something, its class is a twin of its own, which
    # makes boards of its own class.
    assert isinstance(board, MyBoard) and type(board).__name__ == "MyBoard"
    assert type(type(board)()) is MyBoard and type(type(board).empty()).__name__ == "MyBoard"
    assert board.fen() == chess.STARTING_FEN and type(board) is MyBoard


def test_pieces_no_board_holds_are_placed_as_python_chess_places_them():
    """python-chess's Piece takes any piece type, and its boards place none for a type outside
    PAWN..KING (the square is emptied): on valid, invalid and just edited boards alike."""
    for piece_type in (0, 7, -1, 2**70, "x", None, True):
        for start in (chess.STARTING_FEN, "4k3/8/8/8/8/8/8/K3K3 w - - 0 1"):
            ours, theirs = compat.Board(start), chess.Board(start)
            for edited in (False, True):
                if edited:
                    ours.turn, theirs.turn = not ours.turn, not theirs.turn
                for sq, color in ((chess.E1, chess.WHITE), (chess.D5, chess.BLACK)):
                    ours.set_piece_at(sq, compat.Piece(piece_type, color))
                    theirs.set_piece_at(sq, chess.Piece(piece_type, color))
                same_board_after(f"piece type {piece_type!r}", ours, theirs)


def test_boards_made_from_a_subclass_board_are_of_the_subclass():
    """copy, mirror, transform, root and repr keep a program's Board subclass, as python-chess's."""
    for lib in (chess, compat):

        class MyBoard(lib.Board):
            pass

        valid = MyBoard()
        valid.push_san("e4")
        invalid = MyBoard("4k3/8/8/8/8/8/8/K3K3 w - - 0 1")
        invalid.push(lib.Move.from_uci("a1a2"))
        edited = MyBoard()
        edited.turn = lib.BLACK
        for board in (valid, invalid, edited):
            made = [board.copy(), board.copy(stack=False), board.copy(stack=1), copy.copy(board), copy.deepcopy(board),
                    board.mirror(), board.transform(lib.flip_vertical), board.root()]  # fmt: skip
            assert all(isinstance(b, MyBoard) and type(b).__name__ == "MyBoard" for b in made), (lib, board.fen())
            assert repr(board).startswith("MyBoard("), lib


def test_copies_of_any_board():
    import copy

    for board in (compat.Board(), compat.Board(None), compat.Board("4k3/8/8/8/8/8/8/4KK2 w - - 0 1"), compat.BaseBoard(None)):
        board_fen = board.board_fen()
        for other in (copy.copy(board), copy.deepcopy(board), board.copy()):
            assert other == board and other is not board and other.board_fen() == board_fen
            other.set_piece_at(chess.A4, compat.Piece.from_symbol("n"))
            assert board.board_fen() == board_fen and other != board
    # the states before the moves are each board's own
    board = compat.Board("4k3/8/8/8/8/8/8/4KK2 w - - 0 1")
    board.push(compat.Move.from_uci("e1d1"))
    board.push(compat.Move.from_uci("e8d8"))
    other = board.copy()
    other.pop()
    other.set_piece_at(chess.H8, compat.Piece.from_symbol("q"))
    root = board.root()
    root.set_piece_at(chess.H1, compat.Piece.from_symbol("q"))
    assert board.pop().uci() == "e8d8" and board.fen() == "4k3/8/8/8/8/8/8/3K1K2 b - - 1 1"
    assert board.pop().uci() == "e1d1" and board.fen() == "4k3/8/8/8/8/8/8/4KK2 w - - 0 1"


def test_insufficient_material_of_each_side_as_python_chess():
    """Few pieces at random (where the rule matters: lone minors, bishops on one colour, a
    knight against queens or against a piece that could hem its king in), both sides asked."""
    rng = random.Random(23)
    seen = set()
    for _ in range(3000):
        theirs = chess.Board.empty()
        squares = rng.sample(range(8, 56), 6)
        theirs.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
        theirs.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[: rng.randrange(5)]:
            theirs.set_piece_at(sq, chess.Piece.from_symbol(rng.choice("NBBNQRPnbbnqrp")))
        theirs.turn = rng.random() < 0.5
        if not theirs.is_valid():
            continue
        ours = compat.Board(theirs.fen())
        for color in chess.COLORS:
            expected = theirs.has_insufficient_material(color)
            assert ours.has_insufficient_material(color) == expected, (theirs.fen(), color)
            seen.add(expected)
        assert ours.is_insufficient_material() == theirs.is_insufficient_material(), theirs.fen()
    assert seen == {True, False}


def test_any_move_pushed_as_python_chess_pushes_it():
    """What engines written for python-chess do: push each pseudo-legal move, ask
    was_into_check(), pop; and moves that are not even pseudo-legal (a piece of the side not to
    move, the null move in check), which python-chess plays as given."""
    rng = random.Random(5)
    tried = into_check = 0
    for start, chess960 in positions(rng, count=20, plies=40):
        ours, theirs = compat.Board(start, chess960=chess960), chess.Board(start, chess960=chess960)
        fen = theirs.fen()
        for move in list(theirs.pseudo_legal_moves):
            mine = compat.Move.from_uci(move.uci())
            ours.push(mine)
            theirs.push(move)
            assert ours.was_into_check() == theirs.was_into_check(), (fen, move)
            into_check += theirs.was_into_check()
            assert ours.fen() == theirs.fen() and ours.is_valid() == theirs.is_valid(), (fen, move)
            assert ours.pop() == mine and theirs.pop() == move
            assert ours.fen() == theirs.fen() == fen
            tried += 1
        for square in chess.SquareSet(theirs.occupied_co[not theirs.turn]):
            targets = [sq for sq in chess.SQUARES if not theirs.piece_at(sq) or theirs.color_at(sq) != theirs.color_at(square)]
            move = chess.Move(square, rng.choice(targets))
            if theirs.piece_type_at(square) == chess.PAWN and chess.square_rank(move.to_square) in (0, 7):
                continue  # python-chess would leave a pawn on the last rank: same either way, skipped
            ours.push(compat.Move.from_uci(move.uci()))
            theirs.push(move)
            # (A setup's play cleans the castling rights; python-chess keeps them and may flag
            # them, a difference docs/python.md lists.)
            flags = ours.status() ^ theirs.status()
            assert ours.fen() == theirs.fen() and flags in (0, chess.STATUS_BAD_CASTLING_RIGHTS), (fen, move)
            ours.pop(), theirs.pop()
        if theirs.is_check():
            ours.push(compat.Move.null())
            theirs.push(chess.Move.null())
            assert ours.fen() == theirs.fen() and ours.status() == theirs.status()
            ours.pop(), theirs.pop()
        assert ours.fen() == theirs.fen() == fen
    assert tried > 500 and into_check > 5
