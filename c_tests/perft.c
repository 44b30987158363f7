/* Perft from C: chess_perft, chess_perft_divide, and a recursion written in C over
 * chess_legal_moves + chess_position_copy + chess_position_play_unchecked, on the
 * chessprogramming.org positions of perft/cpw6.epd, at every depth up to NODE_LIMIT leaves.
 *
 * usage: perft TESTDATA_DIR NODE_LIMIT */

#include <chesscore.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 16

/* Leaves below stack[ply], depth plies deep, every move made on the next handle of the stack. */
static uint64_t leaves(chess_position **stack, unsigned ply, unsigned depth) {
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
        nodes += leaves(stack, ply + 1, depth - 1);
    }
    return nodes;
}

int main(int argc, char **argv) {
    chess_position *stack[MAX_DEPTH + 1];
    char path[4096];
    char line[1024];
    unsigned long long limit;
    FILE *file;
    int failures = 0;
    int runs = 0;
    unsigned long long total = 0;
    size_t i;

    if (argc != 3) {
        fprintf(stderr, "usage: %s TESTDATA_DIR NODE_LIMIT\n", argv[0]);
        return 2;
    }
    limit = strtoull(argv[2], NULL, 10);
    sprintf(path, "%.4000s/perft/cpw6.epd", argv[1]);
    file = fopen(path, "r");
    if (file == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        return 2;
    }
    for (i = 0; i <= MAX_DEPTH; i++) {
        stack[i] = chess_position_new();
    }
    while (fgets(line, sizeof line, file) != NULL) {
        char *field = strchr(line, ';');
        chess_error err;
        if (field == NULL) {
            continue;
        }
        *field = '\0';
        if (stack[0] == NULL) {
            stack[0] = chess_position_new();
        }
        err = chess_fen_parse_into(line, stack[0]);
        if (err != CHESS_OK) {
            fprintf(stderr, "%s: %s\n", line, chess_error_message(err));
            return 1;
        }
        /* Fields look like "D3 8902". */
        for (field++; field != NULL; field = strchr(field, ';') ? strchr(field, ';') + 1 : NULL) {
            unsigned depth;
            unsigned long long expected;
            uint64_t bulk;
            uint64_t recursion;
            chess_move moves[CHESS_MAX_MOVES];
            uint64_t counts[CHESS_MAX_MOVES];
            uint64_t divided = 0;
            size_t n;
            size_t k;
            if (sscanf(field, " D%u %llu", &depth, &expected) != 2 || expected > limit || depth > MAX_DEPTH) {
                continue;
            }
            bulk = chess_perft(stack[0], depth);
            recursion = leaves(stack, 0, depth);
            n = chess_perft_divide(stack[0], depth, moves, counts, CHESS_MAX_MOVES);
            for (k = 0; k < n; k++) {
                divided += counts[k];
            }
            if (bulk != expected || recursion != expected || divided != expected ||
                n != chess_legal_moves(stack[0], NULL, 0)) {
                fprintf(stderr, "%s depth %u: chess_perft %llu, C recursion %llu, divide %llu, expected %llu\n",
                        line, depth, (unsigned long long)bulk, (unsigned long long)recursion,
                        (unsigned long long)divided, expected);
                failures++;
            }
            runs++;
            total += expected;
        }
    }
    fclose(file);
    for (i = 0; i <= MAX_DEPTH; i++) {
        chess_position_free(stack[i]);
    }
    printf("c perft: %d runs, %llu nodes, %d failed\n", runs, total, failures);
    return failures == 0 && runs >= 20 ? 0 : 1;
}
