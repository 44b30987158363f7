"""Polyglot oracle (python-chess) for core/tests/polyglot.rs.

    polyglot_oracle.py lookup BOOK
        stdin: one JSON object per line, {"fen": FEN, "chess960": bool}; stdout: one per line,
        {"default": [[uci, weight, learn], ...], "all": [...]}: python-chess's
        MemoryMappedReader.find_all of the position, with its default minimum weight (1) and
        with minimum_weight=0.

    polyglot_oracle.py make OUT [--max-ply N] [--min-games N] [--min-score P]
                               [--only-white | --only-black] [--uniform] [--chess960] PGN...
        Writes to OUT the book the README's building rules define, computed here from
        python-chess's reading of the games (chess.pgn, chess.polyglot.zobrist_hash).
"""
import argparse
import json
import struct
import sys

import chess
import chess.pgn
import chess.polyglot


def lookup(book):
    with chess.polyglot.open_reader(book) as reader:
        for line in sys.stdin:
            query = json.loads(line)
            board = chess.Board(query["fen"], chess960=query["chess960"])

            def entries(minimum):
                return [[board.uci(e.move), e.weight, e.learn] for e in reader.find_all(board, minimum_weight=minimum)]

            print(json.dumps({"default": entries(1), "all": entries(0)}))
            sys.stdout.flush()


def stored_move(board, move):
    """The 16 bits a book stores: castling as the king taking its own rook."""
    if board.is_castling(move):
        move = board._to_chess960(move)
    promotion = move.promotion - 1 if move.promotion else 0
    return move.to_square | move.from_square << 6 | promotion << 12


def make(args):
    scores = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1)}
    only = chess.WHITE if args.only_white else chess.BLACK if args.only_black else None
    tallies = {}  # (key, move) -> [games, score]
    for path in args.pgn:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                result = game.headers.get("Result", "*")
                board = game.board()
                if result not in scores or (board.chess960 and not args.chess960):
                    continue
                pairs = {}
                for ply, move in enumerate(game.mainline_moves()):
                    if ply >= args.max_ply:
                        break
                    mover = board.turn
                    if move and (only is None or only == mover):
                        score = scores[result][0 if mover == chess.WHITE else 1]
                        pairs[(chess.polyglot.zobrist_hash(board), stored_move(board, move))] = score
                    board.push(move)
                for pair, score in pairs.items():
                    tally = tallies.setdefault(pair, [0, 0])
                    tally[0] += 1
                    tally[1] += score
    by_key = {}
    for (key, move), (games, score) in tallies.items():
        if games >= args.min_games and score * 100 >= args.min_score * 2 * games:
            by_key.setdefault(key, []).append((move, 1 if args.uniform else score))
    entries = []
    for key, moves in by_key.items():
        largest = max(weight for _, weight in moves)
        for move, weight in moves:
            if largest > 65535:
                weight = max(1, weight * 65535 // largest)
            entries.append((key, move, weight))
    entries.sort(key=lambda e: (e[0], -e[2], e[1]))
    with open(args.out, "wb") as out:
        for key, move, weight in entries:
            out.write(struct.pack(">QHHI", key, move, weight, 0))


def main():
    if sys.argv[1:2] == ["lookup"]:
        lookup(sys.argv[2])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["make"])
    parser.add_argument("out")
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--max-ply", type=int, default=40)
    parser.add_argument("--min-games", type=int, default=1)
    parser.add_argument("--min-score", type=int, default=0)
    parser.add_argument("--only-white", action="store_true")
    parser.add_argument("--only-black", action="store_true")
    parser.add_argument("--uniform", action="store_true")
    parser.add_argument("--chess960", action="store_true")
    make(parser.parse_args())


main()
