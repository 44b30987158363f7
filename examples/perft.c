/* perft.c: count the leaves of the legal move tree in C through the chesscore C API.
 *
 * The recursion is the copy-make loop an engine or test harness writes, with its positions on
 * its own stack: `chess_position` is a complete type, so `chess_position stack[MAX_DEPTH + 1]`
 * needs no allocation. At each ply it lists the legal moves with chess_legal_moves, then for
 * each one writes the child into the next slot with chess_position_play_into. The library's own
 * bulk-counting chess_perft runs after it for comparison.
 *
 * usage: perft [FEN] [DEPTH]       (default: the start position, depth 5)
 * build: cc -std=c99 -O2 examples/perft.c $(pkg-config --cflags --libs chesscore) -o perft */

#include <chesscore.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_DEPTH 32
#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Leaves below stack[0], depth plies deep; stack[1] receives each child position. */
static uint64_t perft(chess_position *stack, unsigned depth) {
    chess_move moves[CHESS_MAX_MOVES];
    uint64_t nodes = 0;
    size_t n;
    size_t i;
    if (depth == 0) {
        return 1;
    }
    n = chess_legal_moves(&stack[0], moves, CHESS_MAX_MOVES);
    for (i = 0; i < n; i++) {
        chess_position_play_into(&stack[0], moves[i], &stack[1]);
        nodes += perft(stack + 1, depth - 1);
    }
    return nodes;
}

/* Leaves of root at depth (at most MAX_DEPTH) counted by the recursion above; 0 when deeper.
 * Not static: the benchmark in benches/ calls it. */
uint64_t example_perft(const chess_position *root, unsigned depth) {
    chess_position stack[MAX_DEPTH + 1];
    if (depth > MAX_DEPTH) {
        return 0;
    }
    stack[0] = *root;
    return perft(stack, depth);
}

static double seconds_since(clock_t start) {
    return (double)(clock() - start) / CLOCKS_PER_SEC;
}

int main(int argc, char **argv) {
    const char *fen = argc > 1 ? argv[1] : START_FEN;
    unsigned depth = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 5;
    chess_position pos;
    chess_fen_info info;
    chess_error err;
    uint64_t nodes;
    clock_t start;
    double seconds;

    if (depth > MAX_DEPTH) {
        fprintf(stderr, "perft: depth at most %d\n", MAX_DEPTH);
        return 2;
    }
    info.size = sizeof info;
    err = chess_fen_parse_with(fen, 0, &pos, &info);
    if (err != CHESS_OK) {
        fprintf(stderr, "perft: invalid FEN at column %lu: %s\n", (unsigned long)info.error_offset + 1,
                chess_error_message(err));
        return 1;
    }

    start = clock();
    nodes = example_perft(&pos, depth);
    seconds = seconds_since(start);
    printf("C recursion: depth %u, %llu nodes in %.3f s, %.0f nodes/s\n", depth, (unsigned long long)nodes, seconds,
           seconds > 0 ? (double)nodes / seconds : 0.0);

    start = clock();
    nodes = chess_perft(&pos, depth);
    seconds = seconds_since(start);
    printf("chess_perft: depth %u, %llu nodes in %.3f s, %.0f nodes/s\n", depth, (unsigned long long)nodes, seconds,
           seconds > 0 ? (double)nodes / seconds : 0.0);
    return 0;
}
