"""python-chess's PGN of the generated variant games (`core/tests/data/variant/NAME.games`), with
a variation and comments on the games that have two moves or more: what the tests read as PGN
written by python-chess.

    python scripts/python_chess_variant_pgn.py [--limit N] NAME...   prints the games, one blank line apart
"""

import json
import os
import sys

import chess
import chess.pgn
import chess.variant

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "tests", "data", "variant")


def games(name, limit=None):
    """The PGN texts of the first `limit` games of `name` (all by default)."""
    cls = chess.variant.find_variant(name)
    with open(os.path.join(DATA, f"{name}.games")) as f:
        lines = list(f)[:limit]
    for line in lines:
        data = json.loads(line)
        board = cls(data["start"])
        for uci, *_ in data["plies"]:
            board.push(chess.Move.from_uci(uci))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"{name} game"
        node = game.next()
        if node is not None and node.next() is not None:
            alternatives = [m for m in node.board().legal_moves if m != node.next().move]
            if alternatives:
                node.add_variation(alternatives[0]).comment = "another try"
            node.comment = "first move"
        yield str(game)


if __name__ == "__main__":
    args = sys.argv[1:]
    limit = None
    if args[:1] == ["--limit"]:
        limit, args = int(args[1]), args[2:]
    for name in args:
        for text in games(name, limit):
            print(text, end="\n\n")
