"""Differential oracle: replays games with python-chess and prints its view of every ply.

Input (stdin), one JSON object per line: {"fen": FEN, "chess960": bool, "moves": [UCI, ...]}.
Output (stdout), one JSON object per input line: {"plies": [PLY, ...], "error": null or text},
with PLY = {"legal": sorted UCI, "san": SAN of each legal move in that order, "fen", "key",
"flags": [check, checkmate, stalemate, insufficient material, fifty-move, can claim fifty,
threefold, can claim threefold, fivefold, seventy-five]} for the position before each move and
after the last one.
"""
import json
import sys

import chess
import chess.polyglot


def view(board):
    legal = sorted(board.legal_moves, key=lambda m: m.uci())
    return {
        "legal": [m.uci() for m in legal],
        "san": [board.san(m) for m in legal],
        "fen": board.fen(),
        "key": "%016x" % chess.polyglot.zobrist_hash(board),
        "flags": [
            board.is_check(),
            board.is_checkmate(),
            board.is_stalemate(),
            board.is_insufficient_material(),
            board.is_fifty_moves(),
            board.can_claim_fifty_moves(),
            board.is_repetition(3),
            board.can_claim_threefold_repetition(),
            board.is_fivefold_repetition(),
            board.is_seventyfive_moves(),
        ],
    }


for line in sys.stdin:
    game = json.loads(line)
    board = chess.Board(game["fen"], chess960=game["chess960"])
    plies, error = [], None
    for uci in game["moves"]:
        plies.append(view(board))
        move = chess.Move.from_uci(uci)
        if move not in board.legal_moves:
            error = "illegal move %s in %s" % (uci, board.fen())
            break
        board.push(move)
    if error is None:
        plies.append(view(board))
    print(json.dumps({"plies": plies, "error": error}, separators=(",", ":")))
    sys.stdout.flush()
