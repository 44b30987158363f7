/* search.c: a tiny engine over the chesscore C API: alpha-beta with quiescence, material only,
 * solving the positions of EPD files whose best move (`bm`) mates.
 *
 * It uses the calls an engine's search makes at every node: the moves in stages
 * (chess_legal_captures, ordered by chess_position_see, then chess_legal_quiets with the
 * checking ones first, by chess_position_gives_check), copy-make into its own stack of positions
 * (chess_position_play_into), and in quiescence captures only, the losing ones (see < 0) skipped,
 * or every evasion when in check. There is no hash table: chess_position_zobrist_after and
 * chess_position_is_pseudo_legal are where one would plug in.
 *
 * usage: search [--depth PLIES] FILE.epd...   (default depth 3: mates in two)
 * Prints one line per position with a `bm`, then "N solved of M". Exit status 0 when all are.
 * build: cc -std=c99 -O2 examples/search.c $(pkg-config --cflags --libs chesscore) -o search */

#include <chesscore.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MATE 100000
#define MAX_PLY 64

/* Indexed by chess_piece_kind (CHESS_PAWN = 1 .. CHESS_KING = 6); the king is never traded. */
static const int piece_value[7] = {0, 100, 300, 300, 500, 900, 0};

static unsigned long long nodes;

static int popcount(uint64_t bits) {
    int n = 0;
    for (; bits; bits &= bits - 1) {
        n++;
    }
    return n;
}

/* Material balance from the side to move's point of view. */
static int evaluate(const chess_position *pos) {
    chess_color us = chess_position_turn(pos);
    int score = 0;
    chess_piece_kind kind;
    for (kind = CHESS_PAWN; kind <= CHESS_QUEEN; kind++) {
        score += piece_value[kind] * (popcount(chess_position_pieces(pos, us, kind)) -
                                      popcount(chess_position_pieces(pos, (chess_color)(1 - us), kind)));
    }
    return score;
}

/* Sorts moves by a score, highest first (insertion sort: move lists are short). */
static void sort_moves(chess_move *moves, int *scores, size_t n) {
    size_t i, j;
    for (i = 1; i < n; i++) {
        chess_move mv = moves[i];
        int score = scores[i];
        for (j = i; j > 0 && scores[j - 1] < score; j--) {
            moves[j] = moves[j - 1];
            scores[j] = scores[j - 1];
        }
        moves[j] = mv;
        scores[j] = score;
    }
}

/* Captures by exchange value; quiet moves that check before the others. */
static size_t ordered_moves(const chess_position *pos, chess_move *moves, int captures_only) {
    int scores[CHESS_MAX_MOVES];
    size_t n = chess_legal_captures(pos, moves, CHESS_MAX_MOVES), i;
    for (i = 0; i < n; i++) {
        scores[i] = chess_position_see(pos, moves[i]);
    }
    sort_moves(moves, scores, n);
    if (!captures_only) {
        size_t quiets = chess_legal_quiets(pos, moves + n, CHESS_MAX_MOVES - n);
        for (i = 0; i < quiets; i++) {
            scores[n + i] = chess_position_gives_check(pos, moves[n + i]) ? 1 : 0;
        }
        sort_moves(moves + n, scores + n, quiets);
        n += quiets;
    }
    return n;
}

/* stack[ply] is the position searched; children go into stack[ply + 1]. */
static int quiescence(chess_position *stack, int ply, int alpha, int beta) {
    const chess_position *pos = &stack[ply];
    chess_move moves[CHESS_MAX_MOVES];
    int in_check = chess_position_in_check(pos);
    size_t n, i;
    nodes++;
    if (!in_check) {
        int stand_pat = evaluate(pos);
        if (stand_pat >= beta || ply >= MAX_PLY - 1) {
            return stand_pat;
        }
        if (stand_pat > alpha) {
            alpha = stand_pat;
        }
    } else if (!chess_position_has_legal_moves(pos)) {
        return -MATE + ply;
    } else if (ply >= MAX_PLY - 1) {
        return evaluate(pos);
    }
    /* In check every evasion is tried, or a mate would look like a quiet position. */
    n = ordered_moves(pos, moves, !in_check);
    for (i = 0; i < n; i++) {
        int score;
        if (!in_check && !chess_position_see_ge(pos, moves[i], 0)) {
            continue;
        }
        chess_position_play_into(pos, moves[i], &stack[ply + 1]);
        score = -quiescence(stack, ply + 1, -beta, -alpha);
        if (score >= beta) {
            return score;
        }
        if (score > alpha) {
            alpha = score;
        }
    }
    return alpha;
}

static int alpha_beta(chess_position *stack, int ply, int depth, int alpha, int beta, chess_move *best) {
    const chess_position *pos = &stack[ply];
    chess_move moves[CHESS_MAX_MOVES];
    size_t n, i;
    if (depth == 0) {
        return quiescence(stack, ply, alpha, beta);
    }
    nodes++;
    n = ordered_moves(pos, moves, 0);
    if (n == 0) {
        return chess_position_in_check(pos) ? -MATE + ply : 0;
    }
    for (i = 0; i < n; i++) {
        int score;
        chess_position_play_into(pos, moves[i], &stack[ply + 1]);
        score = -alpha_beta(stack, ply + 1, depth - 1, -beta, -alpha, NULL);
        if (score > alpha) {
            alpha = score;
            if (best != NULL) {
                *best = moves[i];
            }
            if (score >= beta) {
                break;
            }
        }
    }
    return alpha;
}

/* Searches one EPD line; returns 1 when the move found is one of its `bm`, -1 without a `bm`. */
static int solve(const char *line, int depth, int number) {
    chess_epd *epd = NULL;
    chess_position stack[MAX_PLY];
    chess_move best_moves[8], found = CHESS_MOVE_NONE;
    char id[64] = "", san[CHESS_SAN_MAX] = "?";
    size_t n_best, i;
    int score, solved = 0;
    if (chess_epd_parse(line, &epd) != CHESS_OK) {
        return -1;
    }
    n_best = chess_epd_moves(epd, "bm", best_moves, 8);
    if (n_best == 0) {
        chess_epd_free(epd);
        return -1;
    }
    if (chess_epd_operand_string(epd, "id", 0, id, sizeof id, NULL) != CHESS_OK) {
        sprintf(id, "#%d", number);
    }
    stack[0] = *chess_epd_position(epd);
    score = alpha_beta(stack, 0, depth, -MATE - 1, MATE + 1, &found);
    chess_move_to_san(&stack[0], found, san, sizeof san, NULL);
    for (i = 0; i < n_best && i < 8; i++) {
        solved |= best_moves[i] == found;
    }
    if (score > MATE - MAX_PLY) {
        printf("%s: %s, mate in %d, %s\n", id, san, (MATE - score + 1) / 2, solved ? "solved" : "not the bm");
    } else {
        printf("%s: %s, score %d, %s\n", id, san, score, solved ? "solved" : "not the bm");
    }
    chess_epd_free(epd);
    return solved;
}

int main(int argc, char **argv) {
    int depth = 3, solved = 0, total = 0, arg = 1;
    if (argc > 2 && strcmp(argv[1], "--depth") == 0) {
        depth = atoi(argv[2]);
        arg = 3;
    }
    if (arg >= argc || depth < 1 || depth >= MAX_PLY / 2) {
        fprintf(stderr, "usage: search [--depth PLIES] FILE.epd...\n");
        return 2;
    }
    for (; arg < argc; arg++) {
        char line[4096];
        FILE *file = fopen(argv[arg], "r");
        if (file == NULL) {
            fprintf(stderr, "cannot open %s\n", argv[arg]);
            return 2;
        }
        while (fgets(line, sizeof line, file) != NULL) {
            int result;
            line[strcspn(line, "\r\n")] = '\0';
            result = solve(line, depth, total + 1);
            if (result >= 0) {
                total++;
                solved += result;
            }
        }
        fclose(file);
    }
    printf("%llu nodes\n%d solved of %d\n", nodes, solved, total);
    return solved == total ? 0 : 1;
}
