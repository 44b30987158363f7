"""Regenerates game_claims.jsonl: python-chess's repetition, claim and outcome verdicts at every
ply of every mainline in ../shared/testdata/pgn/*.expected.jsonl, plus real games extended into the fifty- and seventy-five-move rules, and hand-made lines.

Run from the repository root: python3 tests/data/gen_game_claims.py > tests/data/game_claims.jsonl
Only plies where something is set are written: [ply, repetitions, claim_threefold,
claim_fifty, termination or null] (repetitions = times the position has occurred).
"""
import glob
import json
import os
import sys

import chess

TESTDATA = os.environ.get("CHESSCORE_TESTDATA", "../shared/testdata")

# Hand-made lines: the en passant subtlety (the pinned e5 pawn cannot take on d6, so the
# position after ...d5 repeats the later ones without an ep square), the same with a legal
# capture (no repetition with the first), and a fifty-move shuffle.
EXTRA = [
    ("ep_pinned", "4r1k1/3p2n1/8/4P3/8/8/8/4K1N1 b - - 0 1",
     "d7d5 g1f3 g7f5 f3g1 f5g7 g1f3 g7f5 f3g1 f5g7 g1f3 g7f5 f3g1 f5g7"),
    ("ep_legal", "6k1/3p2n1/8/4P3/8/8/8/4K1N1 b - - 0 1",
     "d7d5 g1f3 g7f5 f3g1 f5g7 g1f3 g7f5 f3g1 f5g7 g1f3 g7f5 f3g1 f5g7"),
    ("fifty", "8/8/4k3/8/8/4K3/8/R7 w - - 90 60",
     "a1a2 e6f6 a2a1 f6e6 a1a2 e6f6 a2a1 f6e6 a1a2 e6f6 a2a1 f6e6 a1b1"),
]


# Real games that end in quiet endgames, extended with quiet moves (never a capture or pawn
# move; the least repeated position first) until the seventy-five-move rule ends them.
EXTEND = [("twic1599_100k.expected.jsonl", 3), ("twic1599_100k.expected.jsonl", 91)]


def extend(fen, moves):
    board = chess.Board(fen)
    for m in moves:
        board.push(chess.Move.from_uci(m))
    moves = list(moves)
    while not board.is_game_over():
        quiet = [m for m in sorted(board.legal_moves, key=lambda m: m.uci())
                 if not board.is_capture(m) and board.piece_type_at(m.from_square) != chess.PAWN]
        if not quiet:
            break

        def seen(m):
            board.push(m)
            n = max(k for k in range(1, 6) if board.is_repetition(k))
            board.pop()
            return n
        best = min(quiet, key=seen)
        board.push(best)
        moves.append(best.uci())
    return moves


def verdicts(board):
    reps = max(k for k in range(1, 6) if board.is_repetition(k))
    claim3 = board.can_claim_threefold_repetition()
    claim50 = board.can_claim_fifty_moves()
    outcome = board.outcome()
    term = outcome.termination.name.lower() if outcome else None
    if reps > 1 or claim3 or claim50 or term:
        return [reps, claim3, claim50, term]
    return None


def record(name, fen, moves):
    board = chess.Board(fen)
    flags = []
    for ply in range(len(moves) + 1):
        if ply:
            board.push(chess.Move.from_uci(moves[ply - 1]))
        v = verdicts(board)
        if v:
            flags.append([ply] + v)
    return {"game": name, "start_fen": fen, "moves": " ".join(moves), "flags": flags}


out = []
for path in sorted(glob.glob(os.path.join(TESTDATA, "pgn/*.expected.jsonl"))):
    for line in open(path):
        g = json.loads(line)
        if g["chess960"] or "--" in g["mainline_san"]:
            continue
        name = os.path.basename(path)
        moves = g["mainline_uci"]
        if (name, g["index"]) in EXTEND:
            moves = extend(g["start_fen"], moves)
        rec = record(f"{name}#{g['index']}", g["start_fen"], moves)
        if rec["flags"]:
            out.append(rec)
for name, fen, moves in EXTRA:
    out.append(record(name, fen, moves.split()))
for rec in out:
    print(json.dumps(rec))
print(f"{len(out)} games", file=sys.stderr)
