"""chesscore.compat against python-chess, the same python-chess-style code run on both in one
run: each operation as the best of several runs, in microseconds per call, and the ratio.

usage: CHESSCORE_LIB=target/release/libchesscore.so PYTHONPATH=bindings/python \\
       python3 benches/python/bench.py          (python-chess 1.11.2 installed)

The bench games are the first 40 plies of the games of tests/data/pgn/dev_generated.pgn that
have as many and start from the standard position.
"""

import io
import sys
import time
import timeit
from pathlib import Path

import chess
import chess.pgn

import chesscore
import chesscore.compat

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
GAMES = Path(__file__).resolve().parents[2] / "tests" / "data" / "pgn" / "dev_generated.pgn"


def bench_games(plies=40, count=20):
    """SAN lines of ``plies`` moves from the test games."""
    lines = []
    handle = io.StringIO(GAMES.read_text(encoding="utf-8"))
    while len(lines) < count:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        if "FEN" in game.headers:
            continue
        board = game.board()
        sans = []
        for move in game.mainline_moves():
            sans.append(board.san(move))
            board.push(move)
        if len(sans) >= plies:
            lines.append(sans[:plies])
    return lines


def perft(board, depth):
    """python-chess's own perft (its test suite's): the moves pushed and popped, the leaves
    counted."""
    if depth > 1:
        count = 0
        for move in board.legal_moves:
            board.push(move)
            count += perft(board, depth - 1)
            board.pop()
        return count
    return board.legal_moves.count()


def legal_sans(lib, fen):
    board = lib.Board(fen)
    return [board.san(move) for move in board.legal_moves]


def push_sans(lib, lines):
    for sans in lines:
        board = lib.Board()
        for san in sans:
            board.push_san(san)


def boards_after_each_move(lib, games):
    """A board (with its move stack) after each move of the games."""
    boards = []
    for moves in games:
        board = lib.Board()
        for move in moves:
            board.push(move)
            boards.append(board.copy())
    return boards


def status_time(lib, games, repeat=5):
    """Microseconds per position of is_checkmate() and outcome(), the best of ``repeat`` runs,
    each over boards made afresh (a compat board keeps what the library said until it
    changes)."""
    runs = []
    for _ in range(repeat):
        boards = boards_after_each_move(lib, games)
        start = time.perf_counter()
        for board in boards:
            board.is_checkmate()
            board.outcome()
        runs.append((time.perf_counter() - start) / len(boards))
    return min(runs) * 1e6


def best(call, number, repeat=5):
    """Microseconds per call: the best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(call, number=number, repeat=repeat)) / number * 1e6


def edited(lib, edits, query=None):
    """A call that edits a Kiwipete board (made once) and then, when given, asks it ``query``."""
    board = lib.Board(KIWIPETE)
    knight = lib.Piece(lib.KNIGHT, lib.WHITE)
    return lambda: (edits(lib, board, knight), query and query(board))


def set_and_remove(lib, board, knight):
    board.set_piece_at(lib.A3, knight)
    board.remove_piece_at(lib.A3)


def turn_twice(lib, board, knight):
    board.turn = not board.turn
    board.turn = not board.turn


def four_pieces(lib):
    board = lib.Board.empty()
    for square, symbol in ((lib.E1, "K"), (lib.E8, "k"), (lib.D1, "Q"), (lib.A7, "p")):
        board.set_piece_at(square, lib.Piece.from_symbol(symbol))
    return board.is_valid()


# (name, lib -> call): editing and the other operations beyond playing moves, in python-chess's code.
EDITS = [
    ("set_piece_at + remove_piece_at", lambda lib: edited(lib, set_and_remove)),
    ("the same, then is_check()", lambda lib: edited(lib, set_and_remove, lambda b: b.is_check())),
    ("turn assigned twice", lambda lib: edited(lib, turn_twice)),
    ("the same, then is_check()", lambda lib: edited(lib, turn_twice, lambda b: b.is_check())),
    ("Board.empty(), 4 pieces set, is_valid()", lambda lib: lambda: four_pieces(lib)),
    ("transform(flip_horizontal)", lambda lib: (lambda b: lambda: b.transform(lib.flip_horizontal))(lib.Board(KIWIPETE))),
    ("status(), two white kings", lambda lib: (lambda b: b.status)(lib.Board("4k3/8/8/8/8/8/8/K3K3 w - - 0 1"))),
    ("generate_legal_moves(from_mask=knights)", lambda lib: (lambda b: lambda: list(b.generate_legal_moves(b.knights)))(lib.Board(KIWIPETE))),
    ("generate_legal_captures()", lambda lib: (lambda b: lambda: list(b.generate_legal_captures()))(lib.Board(KIWIPETE))),
    ("pieces(KNIGHT, WHITE) | attacks(E5)", lambda lib: (lambda b: lambda: b.pieces(lib.KNIGHT, lib.WHITE) | b.attacks(lib.E5))(lib.Board(KIWIPETE))),
    ("SquareSet |, &, in, len", lambda lib: (lambda a, s: lambda: (len(a | s), lib.E4 in (a & s)))(lib.SquareSet(lib.BB_RANK_4 | lib.BB_FILE_E), lib.SquareSet(lib.BB_DARK_SQUARES))),
    ("iterating a 32-square SquareSet", lambda lib: (lambda s: lambda: list(s))(lib.SquareSet(lib.BB_DARK_SQUARES))),
]


def main():
    lines = bench_games()
    moves = {lib: [] for lib in (chess, chesscore.compat)}
    for lib in moves:
        for sans in lines:
            board = lib.Board()
            moves[lib].append([board.push_san(san) for san in sans])
    cases = [
        ("Board(start) + SAN of legal moves", lambda lib: lambda: legal_sans(lib, chess.STARTING_FEN), 2000, 1),
        ("Board(Kiwipete) + SAN of legal moves", lambda lib: lambda: legal_sans(lib, KIWIPETE), 500, 1),
        ("push_san, 40-ply game", lambda lib: lambda: push_sans(lib, lines), 5, len(lines)),
        ("perft(4) of the start, Python loop", lambda lib: lambda: perft(lib.Board(), 4), 1, 1),
    ]
    print(f"chesscore {chesscore.library_version()} ({chesscore.library_path}), python-chess {chess.__version__}")
    print(f"{'':42}{'python-chess':>14}{'compat':>12}{'ratio':>8}")
    for name, make, number, per in cases:
        theirs = best(make(chess), number, repeat=3 if number == 1 else 5) / per
        ours = best(make(chesscore.compat), number, repeat=3 if number == 1 else 5) / per
        print(f"{name:42}{theirs:12.1f}us{ours:10.1f}us{theirs / ours:7.1f}x")
        if name.startswith("push_san"):
            theirs, ours = status_time(chess, moves[chess]), status_time(chesscore.compat, moves[chesscore.compat])
            print(f"{'is_checkmate + outcome after each move':42}{theirs:12.1f}us{ours:10.1f}us{theirs / ours:7.1f}x")
    print()
    print("editing, masks, boards that are no position, square sets (best of 5 x 2,000 calls)")
    for name, make in EDITS:
        theirs, ours = best(make(chess), 2000), best(make(chesscore.compat), 2000)
        print(f"{name:42}{theirs:12.2f}us{ours:10.2f}us{theirs / ours:7.2f}x")
    # The cost of crossing into the library: one C call that does next to nothing, through
    # ctypes, and the smallest compat query (one call plus the Python method).
    lib = chesscore._native.lib
    pos = chesscore._native.Position()
    lib.chess_position_init(pos)
    board, theirs_board = chesscore.compat.Board(), chess.Board()
    print(f"per-call overhead: a ctypes call {best(lambda: lib.chess_position_turn(pos), 200_000):.2f} us, "
          f"Board.is_check() {best(board.is_check, 200_000):.2f} us (python-chess {best(theirs_board.is_check, 200_000):.2f} us), "
          f"Board.push + pop {best(lambda: (board.push(moves[chesscore.compat][0][0]), board.pop()), 100_000):.2f} us "
          f"(python-chess {best(lambda: (theirs_board.push(moves[chess][0][0]), theirs_board.pop()), 100_000):.2f} us)")


if __name__ == "__main__":
    sys.exit(main())
