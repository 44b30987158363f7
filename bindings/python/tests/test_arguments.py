"""Arguments of every public function and method: a wrong type raises a TypeError (a bool is no
int, a float no depth, None no text), any other bad value the chesscore.Error of its family."""

import pytest

import chesscore
from chesscore import BLACK, PAWN, WHITE, Game, Outcome, Piece, Position, Termination

START = chesscore.STARTING_FEN
NAMES = {name: getattr(chesscore, name) for name in chesscore.__all__}


def run(call):
    """Evaluates ``call`` with the package's names, a start position ``pos`` and a new ``game``."""
    pos, game = Position(), Game()
    return eval(call, {**NAMES, "pos": pos, "game": game, "e4": pos.parse_uci("e2e4"), "START": START})


WRONG_TYPES = [
    "pos.perft(True)",
    "pos.perft(2.0)",
    "pos.perft(None)",
    "pos.perft('2')",
    "pos.perft_divide(False)",
    "pos.piece_at(True)",
    "pos.piece_at(None)",
    "pos.piece_at(1.5)",
    "pos.legal_moves_from(False)",
    "pos.attackers(WHITE, True)",
    "pos.attackers(1, 0)",
    "pos.king(None)",
    "pos.king(0)",
    "pos.pieces(PAWN, 'white')",
    "pos.pieces(True, WHITE)",
    "pos.pieces(1.0, WHITE)",
    "pos.has_castling_rights(None)",
    "pos.has_kingside_castling_rights(1)",
    "pos.has_queenside_castling_rights('w')",
    "Position.from_fen(None)",
    "Position.from_fen(START.encode())",
    "Position.from_fen(START, chess960=1)",
    "Position.from_fen(START, allow_impossible_check=None)",
    "Position.from_chess960(True)",
    "Position.from_chess960(518.0)",
    "Position.from_components('8/8/8/8/8/8/8/K6k', 'w', '-', '-', True)",
    "Position.from_components('8/8/8/8/8/8/8/K6k', 'w', '-', '-', 0, 1.0)",
    "Position.from_components(None, 'w', '-', '-')",
    "pos.fen(castling=None)",
    "pos.fen(en_passant=0)",
    "pos.push('e2e4')",
    "pos.push(None)",
    "pos.is_legal('e2e4')",
    "pos.san(0x170C)",
    "pos.uci(None)",
    "pos.parse_uci(None)",
    "pos.parse_uci(b'e2e4')",
    "pos.parse_san(None)",
    "pos.parse_san('e4', strict=1)",
    "pos.parse_san('e4', allow_null='yes')",
    "pos.parse_line(None)",
    "pos.push_san(1)",
    "pos.push_uci(None)",
    "Move(True)",
    "Move('e2e4')",
    "Move(0.0)",
    "Move(0x170C, 1)",
    "Piece(True, WHITE)",
    "Piece(1.0, WHITE)",
    "Piece(PAWN, 1)",
    "Piece(PAWN, None)",
    "Piece.from_symbol(None)",
    "parse_square(True)",
    "parse_square(None)",
    "square_name(2.0)",
    "Game(START)",
    "Game(Game())",
    "game.push('e4')",
    "game.push_san(None)",
    "game.push_uci(b'e2e4')",
    "game.position_at(True)",
    "game.position_at(0.0)",
    "game.is_repetition(True)",
    "game.is_repetition(3.0)",
    "game.outcome(claim_draw=1)",
    "game.result(claim_draw=None)",
    "game.is_game_over(claim_draw='no')",
    "setattr(game, 'allow_null_moves', 1)",
    "Outcome(1, None)",
    "Outcome(Termination.CHECKMATE, 1)",
    "Epd(None)",
    "Epd('4k3/8/8/8/8/8/8/4K3 w - -', chess960=0)",
    "list(read_pgn(42))",  # read_pgn is a generator: list() makes it read
    "list(read_pgn(None))",
]


@pytest.mark.parametrize("call", WRONG_TYPES)
def test_a_wrong_type_raises_type_error(call):
    with pytest.raises(chesscore.ArgumentTypeError) as e:
        run(call)
    assert isinstance(e.value, TypeError) and e.value.code == chesscore.ErrorCode.INVALID_ARGUMENT


def test_a_header_of_the_wrong_type_raises_type_error_on_export():
    game = Game()
    game.headers["Round"] = 1
    with pytest.raises(chesscore.ArgumentTypeError, match="tag value must be str, not int"):
        game.pgn()


BAD_VALUES = [
    ("pos.perft(-1)", chesscore.InvalidArgumentError),
    ("pos.perft(2**32)", chesscore.InvalidArgumentError),
    ("pos.perft_divide(-1)", chesscore.InvalidArgumentError),
    ("pos.piece_at(64)", chesscore.InvalidSquareError),
    ("pos.piece_at(-1)", chesscore.InvalidSquareError),
    ("pos.piece_at('i9')", chesscore.InvalidSquareError),
    ("pos.attackers(BLACK, 64)", chesscore.InvalidSquareError),
    ("pos.pieces(0, WHITE)", chesscore.InvalidArgumentError),
    ("pos.pieces(7, BLACK)", chesscore.InvalidArgumentError),
    ("Position.from_chess960(-1)", chesscore.InvalidArgumentError),
    ("Position.from_chess960(960)", chesscore.InvalidArgumentError),
    ("pos.fen(castling='fancy')", chesscore.InvalidArgumentError),
    ("pos.fen(en_passant='never')", chesscore.InvalidArgumentError),
    ("Position.from_components('8/8/8/8/8/8/8/K6k', 'w', '-', '-', -1)", chesscore.FenError),
    ("Position.from_fen('\\ud800')", chesscore.InvalidArgumentError),
    ("pos.parse_san('e4\\0')", chesscore.InvalidArgumentError),
    ("pos.parse_uci('e2e4\\udcff')", chesscore.InvalidArgumentError),
    ("Move(-1)", chesscore.InvalidMoveError),
    ("Move(0x10000)", chesscore.InvalidMoveError),
    ("Piece(7, WHITE)", chesscore.InvalidArgumentError),
    ("Piece.from_symbol('x')", chesscore.InvalidArgumentError),
    ("game.position_at(-1)", chesscore.InvalidArgumentError),
    ("game.position_at(1)", chesscore.InvalidArgumentError),
    ("game.is_repetition(0)", chesscore.InvalidArgumentError),
    ("Epd('\\ud800')", chesscore.InvalidArgumentError),
]


@pytest.mark.parametrize("call, error", BAD_VALUES)
def test_a_bad_value_raises_a_chesscore_value_error(call, error):
    with pytest.raises(error) as e:
        run(call)
    assert isinstance(e.value, chesscore.Error) and isinstance(e.value, ValueError)


def test_messages_name_the_argument():
    with pytest.raises(TypeError, match="^depth must be int, not bool$"):
        Position().perft(True)
    with pytest.raises(chesscore.InvalidArgumentError, match="^depth must be from 0 to 4294967295, not -1$"):
        Position().perft(-1)
    with pytest.raises(TypeError, match="^start must be Position or VariantPosition or None, not str$"):
        Game(START)
    with pytest.raises(chesscore.InvalidSquareError, match="^square must be from 0 to 63, not 64$"):
        Position().piece_at(64)
    with pytest.raises(chesscore.InvalidArgumentError, match="^castling must be one of 'auto', 'xfen', 'shredder'"):
        Position().fen(castling="fancy")


def test_good_arguments_still_work():
    pos = Position()
    assert pos.perft(1) == 20 and pos.piece_at("e1") == Piece(chesscore.KING, WHITE)
    assert Position.from_components("8/8/8/8/8/8/8/K6k", "w", "-", "-", "3", "7").fen() == "8/8/8/8/8/8/8/K6k w - - 3 7"
    assert pos.has_castling_rights(BLACK) and pos.pieces(PAWN, BLACK) == list(range(48, 56))
    assert Game(None).is_repetition(1) and Outcome(Termination.STALEMATE, None).result() == "1/2-1/2"
