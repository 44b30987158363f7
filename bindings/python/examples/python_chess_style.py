"""A python-chess script, run on chesscore by its import line alone: a game played from SAN, its
outcome, the board's queries, a PGN read back and a perft in Python."""

import io

import chesscore.compat as chess
import chesscore.compat.pgn


def perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def main() -> None:
    board = chess.Board()
    for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]:
        board.push_san(san)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == chess.WHITE
    print(board.fen(), outcome.termination.name, outcome.result())
    print(board.unicode(borders=True))
    print(chess.square_name(board.peek().to_square), board.attackers(chess.WHITE, chess.E8), board.checkers())
    print(chess.Board().variation_san(board.move_stack))

    kiwipete = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    print(perft(kiwipete, 2), [kiwipete.san(move) for move in kiwipete.legal_moves if kiwipete.is_castling(move)])
    try:
        kiwipete.push_san("Ke3")
    except chess.IllegalMoveError as e:
        print(e)

    game = chesscore.compat.pgn.read_game(io.StringIO('[White "Morphy"]\n\n1. e4 {best} e5 2. Nf3 *\n'))
    assert game is not None
    print(game.headers["White"], [move.uci() for move in game.mainline_moves()], game.end().board().fen())


if __name__ == "__main__":
    main()
