"""Regenerates core_queries.jsonl: python-chess's answers to the position queries of the core,
for every fourth position of tests/data/vectors/dev.jsonl.

Run from the repository root: python3 tests/data/gen_core_queries.py > tests/data/core_queries.jsonl
Each line: fen, pseudo (sorted pseudo-legal UCI), checkers and pinned (squares, side to move),
attackers: [square, white attackers, black attackers] for four squares.
"""
import json
import os

import chess

TESTDATA = "tests/data"

with open(os.path.join(TESTDATA, "vectors/dev.jsonl")) as vectors:
    for i, line in enumerate(vectors):
        if i % 4:
            continue
        fen = json.loads(line)["fen"]
        board = chess.Board(fen)
        pinned = [chess.square_name(s) for s in chess.SQUARES
                  if board.color_at(s) == board.turn and board.is_pinned(board.turn, s)]
        attackers = []
        for name in ["e4", "d5", "f7", "c2"]:
            sq = chess.parse_square(name)
            attackers.append([name,
                              sorted(chess.square_name(s) for s in board.attackers(chess.WHITE, sq)),
                              sorted(chess.square_name(s) for s in board.attackers(chess.BLACK, sq))])
        print(json.dumps({
            "fen": fen,
            "pseudo": sorted(m.uci() for m in board.generate_pseudo_legal_moves()),
            "checkers": sorted(chess.square_name(s) for s in board.checkers()),
            "pinned": sorted(pinned),
            "attackers": attackers,
        }, separators=(",", ":")))
