"""Positions, moves and games with chesscore's own API: the legal moves of a position in SAN,
a game played from SAN to its outcome, and a FEN error caught."""

import chesscore


def main() -> None:
    pos = chesscore.Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    moves = pos.legal_moves()
    print(len(moves), " ".join(pos.san(move) for move in moves))
    castle: chesscore.Move = pos.push_san("O-O")
    print(castle.uci(), pos.fen(), hex(pos.zobrist()), pos.is_check())

    game = chesscore.Game()
    for san in ["f3", "e5", "g4", "Qh4"]:
        game.push_san(san)
    outcome = game.outcome()
    assert outcome is not None
    print(game.result(), outcome.termination.name, outcome.winner)

    try:
        chesscore.Position.from_fen("8/8/8/8/8/8/8/8 x - - 0 1")
    except chesscore.FenError as e:
        print(e.code, e.offset)


if __name__ == "__main__":
    main()
