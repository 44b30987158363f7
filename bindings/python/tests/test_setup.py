"""chesscore.Setup against python-chess's Board on boards that need not be positions: random
placements (no, two or three kings, pawns on back ranks, random castling rights and en passant
squares), boards in check by one to three pieces, the FEN vectors of the test data, and games
played on from them: status flags, king, checkers, attackers, attacks, pins, clean castling
rights, pseudo-legal and legal moves, and push then fen, compared one by one. Also garbage
written into the structure, which must give errors, never a crash."""

import ctypes
import random

import chess
import pytest

import chesscore
from chesscore import _native

from conftest import data_dir, read_jsonl, shared_dir

SEED = 20261205


def symbol_piece(symbol):
    return chesscore.Piece.from_symbol(symbol)


def to_setup(board):
    """The Setup of a python-chess board, built field by field (not through a FEN)."""
    setup = chesscore.Setup()
    for sq, piece in board.piece_map().items():
        setup.set_piece_at(sq, symbol_piece(piece.symbol()))
    setup.turn = board.turn
    setup.castling_rooks = board.castling_rights
    setup.en_passant = board.ep_square
    setup.halfmove_clock = board.halfmove_clock
    setup.fullmove_number = board.fullmove_number
    setup.chess960 = board.chess960
    return setup


def random_board(rng):
    """A board python-chess accepts as a Board, whatever its status."""
    board = chess.Board.empty(chess960=rng.random() < 0.3)
    kings = rng.choice([0, 1, 2, 2, 2, 2, 2, 3, 4])
    squares = rng.sample(range(64), 64)
    pieces = [chess.Piece(chess.KING, rng.random() < 0.5) for _ in range(kings)]
    if kings == 2 and rng.random() < 0.8:
        pieces = [chess.Piece(chess.KING, chess.WHITE), chess.Piece(chess.KING, chess.BLACK)]
    others = rng.choice([0, 2, 5, 10, 20, 30, 40])
    for _ in range(others):
        kind = rng.choice([chess.PAWN] * 4 + [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.ROOK, chess.QUEEN])
        pieces.append(chess.Piece(kind, rng.random() < 0.5))
    for sq, piece in zip(squares, pieces):
        board.set_piece_at(sq, piece)
    # Back ranks often hold kings and rooks at home, for castling.
    if rng.random() < 0.5:
        for color, rank in ((chess.WHITE, 0), (chess.BLACK, 7)):
            if rng.random() < 0.7:
                files = rng.sample(range(8), 3)
                if not board.chess960:
                    files = [4, 0, 7]
                board.set_piece_at(chess.square(files[0], rank), chess.Piece(chess.KING, color))
                for f in files[1:]:
                    if rng.random() < 0.8:
                        board.set_piece_at(chess.square(f, rank), chess.Piece(chess.ROOK, color))
    board.turn = rng.random() < 0.5
    rights = 0
    for sq in chess.SquareSet(chess.BB_BACKRANKS):
        if rng.random() < 0.25:
            rights |= chess.BB_SQUARES[sq]
    if rng.random() < 0.1:
        rights |= rng.getrandbits(64)
    board.castling_rights = rights
    if rng.random() < 0.4:
        # Often a plausible one: behind a pawn of the side not to move.
        if rng.random() < 0.6:
            rank = 5 if board.turn else 2
            board.ep_square = chess.square(rng.randrange(8), rank)
            pushed = board.ep_square + (-8 if board.turn else 8)
            board.set_piece_at(pushed, chess.Piece(chess.PAWN, not board.turn))
            if rng.random() < 0.8:
                board.remove_piece_at(board.ep_square)
                board.remove_piece_at(board.ep_square + (8 if board.turn else -8))
        else:
            board.ep_square = rng.randrange(64)
    board.halfmove_clock = rng.randrange(120)
    board.fullmove_number = rng.randrange(1, 90)
    return board


def checked_board(rng):
    """A board whose side to move is in check by one to three pieces."""
    board = chess.Board.empty()
    king = rng.randrange(64)
    board.set_piece_at(king, chess.Piece(chess.KING, chess.WHITE))
    other = rng.choice([sq for sq in range(64) if chess.square_distance(sq, king) > 1])
    board.set_piece_at(other, chess.Piece(chess.KING, chess.BLACK))
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice([chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
        free = [sq for sq in range(64) if board.piece_at(sq) is None]
        rng.shuffle(free)
        for sq in free:
            board.set_piece_at(sq, chess.Piece(kind, chess.BLACK))
            if board.attackers_mask(chess.BLACK, king) & chess.BB_SQUARES[sq]:
                break
            board.remove_piece_at(sq)
    for _ in range(rng.randint(0, 8)):
        free = [sq for sq in range(64) if board.piece_at(sq) is None]
        kind = rng.choice([chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
        board.set_piece_at(rng.choice(free), chess.Piece(kind, rng.random() < 0.6))
    return board


def uci_set(moves, chess960):
    return sorted(m.uci() for m in moves)


def their_moves(board, legal):
    """python-chess's moves as UCI, less its en passant captures onto a square that is no valid
    en passant square (we take en passant only on a valid one)."""
    moves = board.legal_moves if legal else board.pseudo_legal_moves
    valid = board._valid_ep_square()
    return sorted(m.uci() for m in moves if not (board.is_en_passant(m) and m.to_square != valid))


def compare(board, setup, rng):
    assert int(setup.status()) == int(board.status()), board.fen()
    assert setup.is_valid() == board.is_valid()
    for color in chess.COLORS:
        assert setup.king(color) == board.king(color)
    assert setup.checkers() == board.checkers_mask(), board.fen()
    assert setup.clean_castling_rooks() == board.clean_castling_rights(), board.fen()
    assert setup.valid_en_passant() == board._valid_ep_square()
    for sq in rng.sample(range(64), 8):
        assert setup.attacks(sq) == board.attacks_mask(sq)
        for color in chess.COLORS:
            assert setup.attackers(color, sq) == board.attackers_mask(color, sq), (board.fen(), sq)
            assert setup.pin(color, sq) == board.pin_mask(color, sq), (board.fen(), sq)
    chess960 = board.chess960
    assert uci_set(setup.pseudo_legal_moves(), chess960) == their_moves(board, False), board.fen()
    legal = setup.legal_moves()
    assert uci_set(legal, chess960) == their_moves(board, True), board.fen()
    if board.is_valid():
        assert setup.position(allow_impossible_check=True).fen() == board.fen()
    return legal


def play_on(board, setup, rng, plies):
    """Plays random legal moves (pseudo-legal ones when there are none) through both and
    compares the boards after each."""
    for _ in range(plies):
        moves = setup.legal_moves() or setup.pseudo_legal_moves()
        if not moves:
            return
        move = rng.choice(moves)
        # A setup has no history: python-chess cleans the castling rights before a move only
        # on a board without one.
        board.clear_stack()
        board.push(chess.Move.from_uci(move.uci()))
        setup.play(move)
        assert setup.fen(castling="shredder") == board.fen(shredder=True), move.uci()
        if all(chess.popcount(board.pieces_mask(chess.KING, color)) <= 1 for color in chess.COLORS):
            assert setup.fen() == board.fen(), move.uci()
        assert int(setup.status()) == int(board.copy(stack=False).status())


def test_random_boards():
    rng = random.Random(SEED)
    for _ in range(3000):
        board = random_board(rng)
        setup = to_setup(board)
        compare(board, setup, rng)
        play_on(board, setup, rng, 3)


def test_boards_in_check():
    rng = random.Random(SEED + 1)
    for _ in range(3000):
        board = checked_board(rng)
        board.turn = chess.WHITE
        setup = to_setup(board)
        compare(board, setup, rng)
        play_on(board, setup, rng, 2)


def vector_fens():
    fens = []
    for directory in (data_dir(), shared_dir("setup vectors")):
        for name in ("good.jsonl", "bad.jsonl"):
            path = directory / "fen" / name
            if path.exists():
                fens += [(record["fen"], False, True) for record in read_jsonl(path)]
    for name, chess960 in (("dev.jsonl", False), ("dev960.jsonl", True)):
        for record in read_jsonl(data_dir() / "vectors" / name)[:300]:
            fens.append((record["fen"], chess960, False))
    return fens


def test_vectors():
    rng = random.Random(SEED + 2)
    count = 0
    for fen, chess960, lenient in vector_fens():
        try:
            board = chess.Board(fen, chess960=chess960)
        except ValueError:
            continue
        try:
            setup = chesscore.Setup.from_fen(fen, chess960)
        except chesscore.FenError:
            # Syntax python-chess lets pass and the strict reader does not (FENs of fewer than
            # four fields, a `~` after a piece: the FEN vectors test those verdicts).
            assert lenient, fen
            continue
        if setup.castling_rooks != board.castling_rights:
            # python-chess reads a `Q` with no rook on the king's a-side as no right at all (a
            # `K` as the corner); ours reads both as the corner, which status() then flags.
            assert setup.castling_rooks & ~board.castling_rights & chess.BB_CORNERS, fen
            setup.castling_rooks = board.castling_rights
        compare(board, setup, rng)
        play_on(board, setup, rng, 4)
        count += 1
    assert count > 300


def test_position_exactly_when_valid():
    """Setup.position() (the strict reader) succeeds exactly on python-chess's valid boards, but
    for checks by two pieces neither of which slides, which no move can give: python-chess
    takes them, the reader refuses them unless told to allow impossible checks."""
    rng = random.Random(SEED + 3)
    for n in range(4000):
        board = random_board(rng) if n % 2 else checked_board(rng)
        setup = to_setup(board)
        checkers = board.checkers_mask()
        sliders = board.bishops | board.rooks | board.queens
        leapers_only = chess.popcount(checkers) == 2 and not checkers & sliders
        try:
            setup.position()
            built = True
        except chesscore.FenError:
            built = False
        assert built == (board.is_valid() and not leapers_only), board.fen()
        if board.is_valid():
            assert setup.position(allow_impossible_check=True).fen() == board.fen()


def test_editing():
    setup = chesscore.Setup()
    assert setup.status() == chesscore.SetupStatus.EMPTY | 3
    setup.set_piece_at("e1", chesscore.Piece(chesscore.KING, chesscore.WHITE))
    setup.set_piece_at("e8", chesscore.Piece(chesscore.KING, chesscore.BLACK))
    setup.set_piece_at("h1", chesscore.Piece(chesscore.ROOK, chesscore.WHITE))
    setup.castling_rooks = 1 << chess.H1
    assert setup.is_valid()
    assert setup.fen() == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert setup.pieces_mask(chesscore.ROOK, chesscore.WHITE) == 1 << chess.H1
    assert setup.occupied == setup.occupied_co(True) | setup.occupied_co(False)
    copy = setup.copy()
    assert copy == setup
    copy.set_piece_at("h1", None)
    assert copy != setup
    assert copy.status() == chesscore.SetupStatus.BAD_CASTLING_RIGHTS
    with pytest.raises(chesscore.FenError):
        copy.position()
    pos = setup.position()
    assert chesscore.Setup.from_position(pos) == setup
    with pytest.raises(chesscore.IllegalMoveError):
        setup.play(chesscore.Move(chess.A2 | chess.A3 << 6))


def test_garbage_in_the_structure():
    """Random bytes written over the structure: every call answers (an error, an empty
    answer), none crashes."""
    rng = random.Random(SEED + 4)
    size = ctypes.sizeof(_native.Setup)
    readable = 0
    for _ in range(3000):
        setup = chesscore.Setup.from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
        raw = (ctypes.c_uint8 * size).from_buffer(setup._s)
        for _ in range(rng.choice([1, 2, 8, size])):
            raw[rng.randrange(size)] = rng.getrandbits(8)
        try:
            setup.status()
            readable += 1
        except chesscore.InvalidArgumentError:
            assert setup.legal_moves() == [] and setup.checkers() == 0 and setup.king(True) is None
            with pytest.raises(chesscore.InvalidArgumentError):
                setup.fen()
            with pytest.raises(chesscore.InvalidArgumentError):
                setup.position()
            continue
        setup.legal_moves()
        setup.pseudo_legal_moves()
        setup.fen(en_passant="as_recorded", castling="shredder")
        for sq in (0, 63):
            setup.attackers(True, sq)
            setup.pin(False, sq)
    assert 0 < readable < 3000
