/* perft.c: count the leaves of the legal move tree in C through the chesscore C API.
 *
 * The recursion is the copy-make loop an engine or test harness writes: list the legal moves
 * with chess_legal_moves, then for each one copy the position into a preallocated handle with
 * chess_position_copy and play the move with chess_position_play_unchecked. The library's own
 * bulk-counting chess_perft runs after it for comparison.
 *
 * usage: perft [FEN] [DEPTH]       (default: the start position, depth 5)
 * build: cc -std=c99 -O2 -Iinclude examples/perft.c -Ltarget/release -lchesscore \
 *           -Wl,-rpath,"$PWD/target/release" -o perft */

#include <chesscore.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_DEPTH 32
#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Leaves below stack[ply], depth plies deep; stack[ply + 1] receives each child position. */
static uint64_t perft(chess_position **stack, unsigned ply, unsigned depth) {
    chess_move moves[CHESS_MAX_MOVES];
    uint64_t nodes = 0;
    size_t n;
    size_t i;
    if (depth == 0) {
        return 1;
    }
    n = chess_legal_moves(stack[ply], moves, CHESS_MAX_MOVES);
    for (i = 0; i < n; i++) {
        chess_position_copy(stack[ply + 1], stack[ply]);
        chess_position_play_unchecked(stack[ply + 1], moves[i]);
        nodes += perft(stack, ply + 1, depth - 1);
    }
    return nodes;
}

/* Leaves of root at depth (at most MAX_DEPTH) counted by the recursion above; 0 if out of memory.
 * Not static: the benchmark in benches/ calls it. */
uint64_t example_perft(const chess_position *root, unsigned depth) {
    chess_position *stack[MAX_DEPTH + 1];
    uint64_t nodes = 0;
    unsigned i;
    unsigned made = 0;
    for (; made <= depth && made <= MAX_DEPTH; made++) {
        stack[made] = chess_position_clone(root);
        if (stack[made] == NULL) {
            break;
        }
    }
    if (made == depth + 1) {
        nodes = perft(stack, 0, depth);
    }
    for (i = 0; i < made; i++) {
        chess_position_free(stack[i]);
    }
    return nodes;
}

static double seconds_since(clock_t start) {
    return (double)(clock() - start) / CLOCKS_PER_SEC;
}

int main(int argc, char **argv) {
    const char *fen = argc > 1 ? argv[1] : START_FEN;
    unsigned depth = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 5;
    chess_position *pos = NULL;
    size_t offset = 0;
    chess_error err;
    uint64_t nodes;
    clock_t start;
    double seconds;

    if (depth > MAX_DEPTH) {
        fprintf(stderr, "perft: depth at most %d\n", MAX_DEPTH);
        return 2;
    }
    err = chess_fen_parse_ex(fen, &pos, &offset);
    if (err != CHESS_OK) {
        fprintf(stderr, "perft: invalid FEN at column %lu: %s\n", (unsigned long)offset + 1, chess_error_message(err));
        return 1;
    }

    start = clock();
    nodes = example_perft(pos, depth);
    seconds = seconds_since(start);
    printf("C recursion: depth %u, %llu nodes in %.3f s, %.0f nodes/s\n", depth, (unsigned long long)nodes, seconds,
           seconds > 0 ? (double)nodes / seconds : 0.0);

    start = clock();
    nodes = chess_perft(pos, depth);
    seconds = seconds_since(start);
    printf("chess_perft: depth %u, %llu nodes in %.3f s, %.0f nodes/s\n", depth, (unsigned long long)nodes, seconds,
           seconds > 0 ? (double)nodes / seconds : 0.0);

    chess_position_free(pos);
    return 0;
}
