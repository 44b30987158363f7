"""Position: construction, text, moves, state, status, copying, errors."""

import copy
import re

import chess
import pytest

import chesscore
from chesscore import Position

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_start_position():
    pos = Position()
    assert pos.fen() == chesscore.STARTING_FEN
    assert pos.zobrist() == 0x463B96181691FC9C
    assert pos.turn == chesscore.WHITE
    assert pos.castling_rights == 15 and pos.has_castling_rights(chesscore.BLACK)
    assert pos.ep_square is None and pos.legal_ep_square() is None
    assert (pos.halfmove_clock, pos.fullmove_number) == (0, 1)
    assert not pos.chess960 and pos.chess960_number() == 518
    assert len(pos.legal_moves()) == pos.legal_move_count() == 20
    assert pos.perft(4) == 197281
    assert str(pos) == str(chess.Board())
    assert pos.board_string().split("\n")[2] == " " * 8
    assert "8 r n b q k b n r" in pos.ascii() and "\u265c" in pos.unicode()
    assert repr(pos) == f"Position.from_fen({chesscore.STARTING_FEN!r})"


def test_fixed_names():
    pos = Position.from_fen(KIWIPETE)
    moves = pos.legal_moves()
    assert isinstance(moves, list) and all(isinstance(m, chesscore.Move) for m in moves)
    castle = pos.parse_uci("e1g1")
    assert castle in moves and castle.uci() == "e1g1" and str(castle) == "e1g1"
    assert pos.san(castle) == "O-O"
    pos.push(castle)
    assert pos.push_uci("a6e2").uci() == "a6e2"
    assert pos.push_san("Qxe2").uci() == "f3e2"
    assert isinstance(pos.zobrist(), int)
    assert not pos.is_check() and not pos.is_checkmate() and not pos.is_stalemate()
    assert not pos.is_insufficient_material()
    assert Position.from_fen(KIWIPETE).perft(3) == 97862


def test_moves():
    pos = Position()
    e4 = pos.parse_uci("e2e4")
    assert (e4.from_square, e4.to_square) == (12, 28)
    assert e4.kind == chesscore.MoveKind.DOUBLE_PUSH and e4.promotion is None
    assert e4 and not chesscore.Move.null() and chesscore.Move.null().uci() == "0000"
    assert e4 == pos.parse_san("e4") == pos.parse_san("e2-e4") and e4 != pos.parse_uci("d2d4")
    assert len({m for m in pos.legal_moves()} | {e4}) == 20
    assert repr(e4) == "<Move e2e4 raw=0x170c>"
    assert pos.is_legal(e4) and not pos.is_legal(chesscore.Move(0x0F0F))
    assert [m.uci() for m in pos.legal_moves_from("g1")] == ["g1f3", "g1h3"]
    assert len(pos.pseudo_legal_moves()) == 20
    promotion = Position.from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").parse_san("a8=N")
    assert promotion.promotion == chesscore.KNIGHT and promotion.kind == chesscore.MoveKind.PROMOTE_KNIGHT
    assert pos.parse_line("e4 e7e5 Nf3") == [e4, Position.from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").parse_uci("e7e5"), Position.from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").parse_uci("g1f3")]
    assert pos.parse_line("") == []
    assert pos.fen() == chesscore.STARTING_FEN
    assert pos.parse_san("--", allow_null=True) == chesscore.Move.null()
    with pytest.raises(chesscore.InvalidMoveError) as e:
        pos.parse_san("Ng1f3", strict=True)
    assert e.value.code == chesscore.ErrorCode.SAN_NOT_CANONICAL


def test_push_and_null_move():
    pos = Position()
    pos.push_san("e4")
    assert pos.fen(en_passant="as_recorded") == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    assert pos.fen(en_passant="pseudo_legal").endswith("KQkq - 0 1")
    assert pos.ep_square == 20 and pos.legal_ep_square() is None
    pos.push(chesscore.Move.null())
    assert pos.turn == chesscore.WHITE and pos.ep_square is None
    check = Position.from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1")
    with pytest.raises(chesscore.IllegalMoveError):
        check.push(chesscore.Move.null())


def test_queries_agree_with_python_chess():
    pos = Position.from_fen(KIWIPETE)
    board = chess.Board(KIWIPETE)
    assert pos.piece_at("e1") == chesscore.Piece(chesscore.KING, chesscore.WHITE)
    assert pos.piece_at(0).symbol() == "R" and pos.piece_at("e4") is not None and pos.piece_at("c3").symbol() == "N"
    assert pos.piece_at(35) is None or pos.piece_at(35).symbol() == board.piece_at(35).symbol()
    for sq in chesscore.SQUARES:
        ours, theirs = pos.piece_at(sq), board.piece_at(sq)
        assert (ours and ours.symbol()) == (theirs and theirs.symbol())
    for color in chesscore.COLORS:
        assert pos.king(color) == board.king(color)
        for piece_type in chesscore.PIECE_TYPES:
            assert pos.pieces(piece_type, color) == list(board.pieces(piece_type, color))
        for sq in (0, 27, 44, 63):
            assert pos.attackers(color, sq) == list(board.attackers(color, sq))
    pinned = Position.from_fen("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1")
    assert pinned.pinned() == [12]
    checked = Position.from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1")
    assert checked.checkers() == [7] and checked.is_check()
    assert chesscore.Piece.from_symbol("q") == chesscore.Piece(chesscore.QUEEN, chesscore.BLACK)
    assert repr(chesscore.Piece.from_symbol("q")) == "Piece.from_symbol('q')" and str(pos.piece_at(4)) == "K"


def test_status():
    assert Position.from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").is_stalemate()
    assert Position.from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").is_checkmate()
    assert Position.from_fen("8/8/4k3/8/8/3BK3/8/8 w - - 0 1").is_insufficient_material()
    assert not Position.from_fen("8/8/4k3/4n3/8/3NK3/8/8 w - - 0 1").is_insufficient_material()
    assert Position.from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 100 80").is_fifty_moves()
    assert Position.from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 99 80").can_claim_fifty_moves()
    assert Position.from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 150 80").is_seventy_five_moves()


def test_copy_and_compare():
    pos = Position.from_fen(KIWIPETE)
    for other in (pos.copy(), copy.copy(pos), copy.deepcopy(pos)):
        assert other == pos and other is not pos
        other.push_uci("e1g1")
        assert other != pos and pos.fen() == KIWIPETE
    assert pos != KIWIPETE
    with pytest.raises(TypeError):
        hash(pos)
    assert Position.from_fen(KIWIPETE) == pos
    assert Position.from_chess960(518) != Position()  # same board, other rules


def test_constructors(tmp_path):
    built = Position.from_components("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R", "b", "KQkq", "-", 1, 2)
    assert built.fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    path = tmp_path / "pos.fen"
    path.write_text(f"\n{KIWIPETE}\n")
    assert Position.from_fen_file(path).fen() == KIWIPETE
    with pytest.raises(chesscore.NoSuchFileError) as e:
        Position.from_fen_file(tmp_path / "missing.fen")
    assert isinstance(e.value, FileNotFoundError) and e.value.code == chesscore.ErrorCode.FILE_NOT_FOUND
    assert Position.from_fen("8/8/8/8/8/8/8/K6k w - -").fen() == "8/8/8/8/8/8/8/K6k w - - 0 1"


def test_chess960():
    pos = Position.from_chess960(0)
    assert pos.chess960 and pos.chess960_number() == 0
    assert pos.fen() == chess.Board.from_chess960_pos(0).fen()
    assert Position.from_chess960(959).fen(castling="shredder") == chess.Board.from_chess960_pos(959).shredder_fen()
    pos = Position.from_fen("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", chess960=True)
    castle = pos.parse_uci("b1h1")
    assert castle.kind == chesscore.MoveKind.CASTLING and castle.uci() == "b1h1" and pos.uci(castle) == "b1h1"
    assert pos.san(castle) == "O-O" and castle in pos.legal_moves()
    assert repr(pos) == "Position.from_fen('rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1', chess960=True)"
    pos.push(castle)
    assert pos.fen(castling="shredder") == "rk5r/8/8/8/8/8/8/R4RK1 b ha - 1 1"
    standard = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert standard.parse_uci("e1h1") == standard.parse_uci("e1g1") and standard.parse_uci("e1h1").uci() == "e1g1"
    with pytest.raises(chesscore.InvalidArgumentError):
        Position.from_chess960(960)


def test_perft_divide():
    divide = Position.from_fen(KIWIPETE).perft_divide(2)
    assert len(divide) == 48 and sum(divide.values()) == 2039
    assert Position().perft(0) == 1
    with pytest.raises(chesscore.InvalidArgumentError):
        Position().perft(-1)


@pytest.mark.parametrize(
    "fen, code, offset",
    [
        ("8/8/8/8/8/8/8/8 x - - 0 1", chesscore.ErrorCode.FEN_SIDE_TO_MOVE, 16),
        ("", chesscore.ErrorCode.FEN_EMPTY, 0),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", chesscore.ErrorCode.FEN_MISSING_KING, 0),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", chesscore.ErrorCode.FEN_RANK_WIDTH, 35),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 é", chesscore.ErrorCode.FEN_INVALID_CHARACTER, 30),
    ],
)
def test_fen_errors(fen, code, offset):
    with pytest.raises(chesscore.FenError) as e:
        Position.from_fen(fen)
    assert e.value.code == code and e.value.offset == offset
    assert isinstance(e.value, ValueError) and isinstance(e.value, chesscore.Error)
    assert e.value.message.startswith(str(e.value).split(" (at offset")[0])


def test_argument_errors():
    pos = Position()
    with pytest.raises(chesscore.ArgumentTypeError):
        Position.from_fen(None)
    with pytest.raises(chesscore.InvalidArgumentError) as e:
        Position.from_fen(chesscore.STARTING_FEN + "\0")
    assert e.value.code == chesscore.ErrorCode.INVALID_TEXT
    with pytest.raises(chesscore.ArgumentTypeError):
        pos.push("e2e4")
    with pytest.raises(chesscore.IllegalMoveError) as e:
        pos.push_uci("e2e5")
    assert e.value.code == chesscore.ErrorCode.ILLEGAL_MOVE and isinstance(e.value, ValueError)
    with pytest.raises(chesscore.InvalidMoveError):
        pos.push_uci("e9")
    with pytest.raises(chesscore.InvalidMoveError):
        pos.push_san("K@e4")
    with pytest.raises(chesscore.InvalidMoveError) as e:
        pos.push(chesscore.Move(0xFFFF))
    assert e.value.code == chesscore.ErrorCode.INVALID_MOVE
    with pytest.raises(chesscore.AmbiguousMoveError):
        Position.from_fen("k7/8/8/8/8/8/4K3/1R5R w - - 0 1").parse_san("Rd1")
    with pytest.raises(chesscore.IllegalMoveError) as e:
        pos.parse_line("e4 e5 Ke3")
    assert e.value.index == 2 and "move 3 of the line" in str(e.value)
    with pytest.raises(chesscore.InvalidSquareError):
        pos.piece_at("i9")
    with pytest.raises(chesscore.InvalidSquareError):
        pos.piece_at(64)
    with pytest.raises(chesscore.ArgumentTypeError):
        pos.piece_at(1.5)
    with pytest.raises(chesscore.InvalidArgumentError):
        pos.fen(castling="fancy")
    with pytest.raises(chesscore.InvalidMoveError):
        chesscore.Move(-1)
    with pytest.raises(chesscore.ArgumentTypeError):
        chesscore.Move("e2e4")
    assert pos.fen() == chesscore.STARTING_FEN


AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


@pytest.mark.parametrize(
    "fen, method, text, error",
    [
        (AFTER_E4, "push_san", "e4", chesscore.IllegalMoveError),
        (AFTER_E4, "parse_san", "O-O", chesscore.IllegalMoveError),
        (AFTER_E4, "parse_san", "Qxz9", chesscore.InvalidMoveError),
        (AFTER_E4, "push_san", "K@e4", chesscore.InvalidMoveError),
        ("k7/8/8/8/8/8/4K3/1R5R w - - 0 1", "parse_san", "Rd1", chesscore.AmbiguousMoveError),
        ("k7/8/8/8/8/8/4K3/1R5R w - - 0 1", "push_san", "Rd1", chesscore.AmbiguousMoveError),
        (AFTER_E4, "push_uci", "e2e4", chesscore.IllegalMoveError),
        (AFTER_E4, "parse_uci", "e7e4", chesscore.IllegalMoveError),
        (AFTER_E4, "parse_uci", "e9e9", chesscore.InvalidMoveError),
        (AFTER_E4, "push_uci", "z1a1", chesscore.InvalidMoveError),
    ],
)
def test_move_errors_are_worded_as_python_chess_words_them(fen, method, text, error):
    board = chess.Board(fen)
    with pytest.raises(ValueError) as theirs:
        getattr(board, method)(text)
    for ours in (Position.from_fen(fen), chesscore.Game(Position.from_fen(fen))):
        if not hasattr(ours, method):
            continue  # a Game has push_san and push_uci only
        with pytest.raises(error) as e:
            getattr(ours, method)(text)
        assert type(e.value).__name__ == type(theirs.value).__name__
        assert str(e.value) == e.value.message == str(theirs.value)
    assert Position.from_fen(fen).fen() == fen


def test_move_errors_without_a_python_chess_counterpart():
    pos = Position.from_fen(AFTER_E4)
    with pytest.raises(chesscore.IllegalMoveError, match=f"^illegal move: 'e2e4' in {re.escape(AFTER_E4)}$") as e:
        pos.push(Position().parse_uci("e2e4"))
    assert e.value.code == chesscore.ErrorCode.ILLEGAL_MOVE
    with pytest.raises(chesscore.IllegalMoveError, match=f"^illegal move: 'e2e4' in {re.escape(AFTER_E4)}$"):
        pos.san(Position().parse_uci("e2e4"))
    game = chesscore.Game(pos)
    with pytest.raises(chesscore.IllegalMoveError, match=f"^illegal move: '0000' in {re.escape(AFTER_E4)}$"):
        game.push(chesscore.Move.null())  # null moves not allowed
    with pytest.raises(chesscore.InvalidMoveError, match="^invalid move encoding: 0xffff$") as e:
        pos.push(chesscore.Move(0xFFFF))
    assert e.value.code == chesscore.ErrorCode.INVALID_MOVE
    with pytest.raises(chesscore.InvalidMoveError, match=f"^non-canonical san: 'e7e5' in {re.escape(AFTER_E4)}$") as e:
        pos.parse_san("e7e5", strict=True)
    assert e.value.code == chesscore.ErrorCode.SAN_NOT_CANONICAL
    # python-chess reads "--" as the null move; here it is illegal unless allowed.
    with pytest.raises(chesscore.IllegalMoveError, match=f"^illegal san: '--' in {re.escape(AFTER_E4)}$"):
        game.push_san("--")
    assert pos.fen() == game.board().fen() == AFTER_E4 and len(game) == 0


def test_binary_fen_round_trips_and_start_bytes():
    start = Position()
    data = start.to_binary_fen()
    assert data.hex() == "ffff00000000ffff2d844ad200000000111111113e955be3"
    assert Position.from_binary_fen(data) == start
    assert Position.from_binary_fen(bytearray(data) + bytes(8)) == start  # zero padding
    pos = Position.from_fen(KIWIPETE)
    for move in pos.legal_moves():
        child = pos.copy()
        child.push(move)
        assert Position.from_binary_fen(memoryview(child.to_binary_fen())).fen() == child.fen()
    fischer = Position.from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", chess960=True)
    assert Position.from_binary_fen(fischer.to_binary_fen(), chess960=True) == fischer


@pytest.mark.parametrize(
    "tail, code, offset",
    [
        (bytes([0, 0, 7]), chesscore.ErrorCode.BINARY_FEN_VARIANT, 26),
        (bytes([0, 0, 0, 1]), chesscore.ErrorCode.BINARY_FEN_TRAILING_BYTES, 27),
        (bytes([0xFF] * 5 + [0x0F]), chesscore.ErrorCode.BINARY_FEN_COUNTER, 24),
    ],
)
def test_binary_fen_errors(tail, code, offset):
    with pytest.raises(chesscore.FenError) as e:
        Position.from_binary_fen(Position().to_binary_fen() + tail)
    assert e.value.code == code and e.value.offset == offset and isinstance(e.value, ValueError)
    with pytest.raises(chesscore.FenError) as e:
        Position.from_binary_fen(b"")
    assert e.value.code == chesscore.ErrorCode.FEN_MISSING_KING
    with pytest.raises(chesscore.ArgumentTypeError):
        Position.from_binary_fen("ffff")
