"""Random legal positions of every table in a directory, with python-chess's probe_wdl and
probe_dtz (the oracle), checked through chesscore.compat.syzygy (the Python binding).

usage: tablebase_positions.py TABLE_DIR COUNT SEED OUT.jsonl

Kinds: random placements with either side to move and half-move clocks near 0 and near 100,
and en passant positions (a pawn's double step just played beside an enemy pawn). Writes one
JSON object per position (`fen`, `wdl`, `dtz`, null where python-chess raises) and prints
`N positions, M en passant, K mismatches`; exits 1 on any mismatch."""

import json
import os
import random
import sys

import chess
import chess.syzygy

import chesscore.compat as compat
import chesscore.compat.syzygy as compat_syzygy


def placements(name, rng):
    """A board with the table's material (white the left side, or mirrored) or None."""
    white, black = name.split("v")
    if rng.random() < 0.5:
        white, black = black, white
    board = chess.Board(None)
    free = list(range(64))
    rng.shuffle(free)
    for color, side in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in side:
            piece = chess.Piece.from_symbol(letter if color == chess.WHITE else letter.lower())
            for i, square in enumerate(free):
                if piece.piece_type != chess.PAWN or 8 <= square < 56:
                    board.set_piece_at(square, piece)
                    free.pop(i)
                    break
    return board


def readable(board):
    """Valid for python-chess and for chesscore (which refuses checks no move could give)."""
    if not board.is_valid():
        return False
    try:
        compat.Board(board.fen())
    except ValueError:
        return False
    return True


def random_position(name, rng):
    while True:
        board = placements(name, rng)
        board.turn = rng.random() < 0.5
        board.halfmove_clock = rng.choice([0, 1, 7, 95, 98, 99, 100, 101])
        if readable(board):
            return board


def en_passant_position(name, rng):
    """A position right after a double step beside an enemy pawn, or None."""
    for _ in range(200):
        board = random_position(name, rng)
        for move in board.legal_moves:
            if board.piece_type_at(move.from_square) == chess.PAWN and abs(move.to_square - move.from_square) == 16:
                after = board.copy(stack=False)
                after.push(move)
                if after.has_legal_en_passant():
                    after.halfmove_clock = rng.choice([0, 0, 99])
                    if readable(after):
                        return after
    return None


def oracle(tablebase, probe, board):
    try:
        return getattr(tablebase, probe)(board)
    except KeyError:
        return None


def main():
    directory, count, seed, out_path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rng = random.Random(seed)
    names = sorted(f[:-5] for f in os.listdir(directory) if f.endswith(".rtbw"))
    per_table = -(-count // len(names))
    written = en_passant = mismatches = 0
    with chess.syzygy.open_tablebase(directory) as tb, compat_syzygy.open_tablebase(directory) as ours, open(out_path, "w") as out:
        for name in names:
            pawns_both = "P" in name.split("v")[0] and "P" in name.split("v")[1]
            # Only tables with pawns on both sides have en passant: they get more positions.
            for i in range(per_table * (10 if pawns_both else 1)):
                board = en_passant_position(name, rng) if pawns_both and i % 2 == 0 else None
                if board is None:
                    board = random_position(name, rng)
                else:
                    en_passant += 1
                wdl, dtz = oracle(tb, "probe_wdl", board), oracle(tb, "probe_dtz", board)
                fen = board.fen()
                mine = compat.Board(fen)
                got = (ours.get_wdl(mine), ours.get_dtz(mine))
                if got != (wdl, dtz):
                    mismatches += 1
                    print(f"mismatch {fen}: python-chess {wdl} {dtz}, chesscore {got}", file=sys.stderr)
                out.write(json.dumps({"fen": fen, "wdl": wdl, "dtz": dtz}) + "\n")
                written += 1
    print(f"{written} positions, {en_passant} en passant, {mismatches} mismatches")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
