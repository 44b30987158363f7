"""Times the Position operations whose cost is the binding's own (making, copying and changing
positions) rather than the library's: each as the best of several runs, in microseconds per call.

usage: CHESSCORE_LIB=target/release/libchesscore.so PYTHONPATH=bindings/python \\
       python3 benches/python/bench_position.py
"""

import timeit

import chesscore

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def leaves(pos, depth):
    """Perft written in Python over the binding: legal_moves, copy, push."""
    if depth == 0:
        return 1
    total = 0
    for move in pos.legal_moves():
        child = pos.copy()
        child.push(move)
        total += leaves(child, depth - 1)
    return total


def best(statement, number, repeat=7):
    """Microseconds per call of ``statement``: the best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(statement, number=number, repeat=repeat)) / number * 1e6


def main():
    pos = chesscore.Position.from_fen(KIWIPETE)
    move = pos.parse_uci("e1g1")
    timings = [
        ("Position()", best(chesscore.Position, 100_000)),
        ("Position.from_fen", best(lambda: chesscore.Position.from_fen(KIWIPETE), 50_000)),
        ("copy()", best(pos.copy, 100_000)),
        ("copy() + push(move)", best(lambda: pos.copy().push(move), 100_000)),
        ("legal_moves()", best(pos.legal_moves, 20_000)),
    ]
    for name, micros in timings:
        print(f"{name:22} {micros:8.2f} us")
    seconds = best(lambda: leaves(chesscore.Position(), 4), 1, repeat=3) / 1e6
    print(f"{'Python perft(4), start':22} {seconds:8.3f} s")


if __name__ == "__main__":
    main()
