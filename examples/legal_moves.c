/* legal_moves.c: print the legal moves of a position in UCI, one per line.
 *
 * usage: legal_moves [FEN]         (default: the start position)
 * build: cc -std=c99 -O2 examples/legal_moves.c $(pkg-config --cflags --libs chesscore) -o legal_moves */

#include <chesscore.h>

#include <stdio.h>

int main(int argc, char **argv) {
    const char *fen = argc > 1 ? argv[1] : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    chess_position pos;
    chess_fen_info info;
    chess_move moves[CHESS_MAX_MOVES];
    size_t count;
    size_t i;
    chess_error err;
    info.size = sizeof info;
    err = chess_fen_parse_with(fen, 0, &pos, &info);
    if (err != CHESS_OK) {
        /* The offset counts bytes from 0; people count columns from 1. */
        fprintf(stderr, "legal_moves: error at column %lu: %s\n", (unsigned long)info.error_offset + 1,
                chess_error_message(err));
        return 1;
    }
    count = chess_legal_moves(&pos, moves, CHESS_MAX_MOVES);
    for (i = 0; i < count; i++) {
        char uci[8];
        if (chess_move_to_uci(moves[i], uci, sizeof uci, NULL) == CHESS_OK) {
            puts(uci);
        }
    }
    return 0;
}
