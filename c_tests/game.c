/* Games through the C API: push and pop, SAN and UCI input, the positions a game hands out and
 * how long they live, move history, repetition (with the en passant subtlety), every outcome,
 * NULL arguments and short buffers.
 *
 * usage: game */

#include "common.h"

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Pushes each SAN of a space-separated line. */
static void push_all(chess_game *game, const char *line) {
    char copy[512];
    char *token;
    strcpy(copy, line);
    for (token = strtok(copy, " "); token != NULL; token = strtok(NULL, " ")) {
        CHECK_ERR(chess_game_push_san(game, token, NULL), CHESS_OK);
    }
}

static int outcome_is(const chess_game *game, chess_result result, chess_termination termination) {
    chess_outcome outcome = chess_game_outcome(game);
    if (outcome.result != result || outcome.termination != termination) {
        fprintf(stderr, "outcome %d/%d, expected %d/%d\n", outcome.result, outcome.termination, result, termination);
        return 0;
    }
    return 1;
}

static void test_lifecycle(void) {
    chess_position *pos = parse("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    chess_game *standard = chess_game_new(NULL);
    chess_game *game = chess_game_new(pos);
    CHECK(standard != NULL && game != NULL);
    CHECK(fen_is(chess_game_position(standard), START) && fen_is(chess_game_start(standard), START));
    /* The game holds a copy: changing the position afterwards does not reach it. */
    CHECK_ERR(chess_position_play(pos, uci(pos, "e2e4")), CHESS_OK);
    CHECK(fen_is(chess_game_position(game), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
    CHECK(chess_game_position(game) != pos && chess_game_start(game) != pos);
    CHECK(chess_game_ply_count(game) == 0 && !chess_game_allows_null_moves(game));
    /* A clone is a game of its own: moves pushed on one do not reach the other. */
    {
        chess_game *copy;
        CHECK_ERR(chess_game_push_uci(game, "e2e4", NULL), CHESS_OK);
        copy = chess_game_clone(game);
        CHECK(copy != NULL && chess_game_ply_count(copy) == 1 && chess_game_position(copy) != chess_game_position(game));
        CHECK_ERR(chess_game_push_uci(copy, "e8d8", NULL), CHESS_OK);
        CHECK(chess_game_ply_count(copy) == 2 && chess_game_ply_count(game) == 1);
        CHECK(chess_game_clone(NULL) == NULL);
        chess_game_free(copy);
    }
    chess_game_free(NULL);
    chess_game_free(standard);
    chess_game_free(game);
    chess_position_free(pos);
}

static void test_push_pop(void) {
    chess_game *game = chess_game_new(NULL);
    chess_move mv = 0x1234;
    const chess_position *pos = chess_game_position(game);
    chess_move e4 = uci(pos, "e2e4");

    CHECK_ERR(chess_game_push(game, e4), CHESS_OK);
    CHECK(chess_game_ply_count(game) == 1);
    /* Failures leave the game as it was. */
    CHECK_ERR(chess_game_push(game, e4), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_game_push(game, CHESS_MOVE_NONE), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_game_push(game, 0x8000 | 52 | 36 << 6), CHESS_ERR_INVALID_MOVE);
    CHECK_ERR(chess_game_push(game, 52 | 52 << 6), CHESS_ERR_INVALID_MOVE);
    CHECK_ERR(chess_game_push(NULL, e4), CHESS_ERR_NULL_POINTER);
    CHECK(chess_game_ply_count(game) == 1);
    CHECK(fen_is(chess_game_position(game), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));

    /* SAN and UCI input, with and without the played move coming back. */
    CHECK_ERR(chess_game_push_san(game, "e5", &mv), CHESS_OK);
    CHECK(chess_move_from_square(mv) == 52 && chess_move_to_square(mv) == 36);
    CHECK_ERR(chess_game_push_uci(game, "b1c3", &mv), CHESS_OK);
    CHECK(chess_move_from_square(mv) == 1 && chess_move_to_square(mv) == 18);
    CHECK_ERR(chess_game_push_uci(game, "b8c6", NULL), CHESS_OK);
    mv = 0x1234;
    CHECK_ERR(chess_game_push_san(game, "Nf9", &mv), CHESS_ERR_SAN_SYNTAX);
    CHECK_ERR(chess_game_push_san(game, "Ke3", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_game_push_san(game, "--", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_game_push_san(game, "Ne2", &mv), CHESS_ERR_SAN_AMBIGUOUS);
    CHECK_ERR(chess_game_push_uci(game, "c3e5x", &mv), CHESS_ERR_UCI_SYNTAX);
    CHECK_ERR(chess_game_push_uci(game, "c3c5", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_game_push_uci(game, "0000", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_game_push_san(game, "N\xc3\xa9", &mv), CHESS_ERR_INVALID_TEXT);
    CHECK_ERR(chess_game_push_uci(game, "\xc3\xa9", &mv), CHESS_ERR_INVALID_TEXT);
    CHECK_ERR(chess_game_push_san(NULL, "a3", &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_push_san(game, NULL, &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_push_uci(NULL, "a2a3", &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_push_uci(game, NULL, &mv), CHESS_ERR_NULL_POINTER);
    CHECK(mv == 0x1234 && chess_game_ply_count(game) == 4);

    /* Null moves once allowed, in every spelling, never in check. */
    chess_game_set_allow_null_moves(game, true);
    CHECK(chess_game_allows_null_moves(game));
    CHECK_ERR(chess_game_push(game, CHESS_MOVE_NONE), CHESS_OK);
    CHECK_ERR(chess_game_push_san(game, "--", &mv), CHESS_OK);
    CHECK(mv == CHESS_MOVE_NONE);
    mv = 0x1234;
    CHECK_ERR(chess_game_push_uci(game, "0000", &mv), CHESS_OK);
    CHECK(mv == CHESS_MOVE_NONE && chess_game_ply_count(game) == 7);
    CHECK_ERR(chess_game_push_san(game, "Nd4", NULL), CHESS_OK);
    CHECK_ERR(chess_game_push_san(game, "a3", NULL), CHESS_OK);
    CHECK_ERR(chess_game_push_san(game, "Nf3+", NULL), CHESS_OK);
    CHECK_ERR(chess_game_push(game, CHESS_MOVE_NONE), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_game_push_san(game, "--", NULL), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_game_push_uci(game, "0000", NULL), CHESS_ERR_ILLEGAL_MOVE);
    chess_game_set_allow_null_moves(game, false);
    chess_game_set_allow_null_moves(NULL, true);
    CHECK(!chess_game_allows_null_moves(game) && !chess_game_allows_null_moves(NULL));

    /* Undo, all the way back; then there is nothing to take back. */
    mv = 0x1234;
    CHECK_ERR(chess_game_pop(game, &mv), CHESS_OK);
    CHECK(chess_move_from_square(mv) == 27 && chess_move_to_square(mv) == 21);
    CHECK(fen_is(chess_game_position(game), "r1bqkbnr/pppp1ppp/8/4p3/3nP3/P1N5/1PPP1PPP/R1BQKBNR b KQkq - 0 5"));
    while (chess_game_ply_count(game) > 1) {
        CHECK_ERR(chess_game_pop(game, NULL), CHESS_OK);
    }
    CHECK_ERR(chess_game_pop(game, &mv), CHESS_OK);
    CHECK(mv == e4 && fen_is(chess_game_position(game), START));
    mv = 0x1234;
    CHECK_ERR(chess_game_pop(game, &mv), CHESS_ERR_EMPTY_HISTORY);
    CHECK_ERR(chess_game_pop(game, NULL), CHESS_ERR_EMPTY_HISTORY);
    CHECK_ERR(chess_game_pop(NULL, &mv), CHESS_ERR_NULL_POINTER);
    CHECK(mv == 0x1234);
    chess_game_free(game);
}

static void test_history(void) {
    static const char *line = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3";
    chess_game *game = chess_game_new(NULL);
    const chess_position *start = chess_game_start(game);
    chess_move moves[32];
    chess_move reread[32];
    char buf[256];
    size_t len = 0;
    size_t count = 0;
    size_t i;

    CHECK_ERR(chess_game_san_moves(game, buf, sizeof buf, &len), CHESS_OK);
    CHECK(len == 0 && buf[0] == '\0');
    CHECK(chess_game_position_at(game, 0) == chess_game_position(game));
    push_all(game, line);
    CHECK(chess_game_ply_count(game) == 17);
    CHECK(chess_game_moves(game, moves, 32) == 17);
    CHECK(chess_game_moves(game, NULL, 0) == 17);
    CHECK(chess_game_moves(game, NULL, 3) == 0);
    CHECK(chess_game_moves(NULL, moves, 32) == 0);
    moves[20] = 0xbeef;
    CHECK(chess_game_moves(game, moves + 17, 3) == 17);
    CHECK(moves[17] == moves[0] && moves[19] == moves[2] && moves[20] == 0xbeef);

    /* The history as SAN reads back into the same moves from the start position. */
    CHECK_ERR(chess_game_san_moves(game, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, line) == 0 && len == strlen(line));
    CHECK_ERR(chess_moves_from_line(chess_game_start(game), buf, CHESS_SAN_STRICT, reread, 32, &count, NULL),
              CHESS_OK);
    CHECK(count == 17 && memcmp(reread, moves, 17 * sizeof moves[0]) == 0);
    strcpy(buf, "same");
    CHECK_ERR(chess_game_san_moves(game, buf, strlen(line), &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == strlen(line) && strcmp(buf, "same") == 0);
    CHECK_ERR(chess_game_san_moves(game, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_game_san_moves(game, NULL, 5, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_san_moves(NULL, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);

    /* Every position on the way: the start, then one per move. */
    for (i = 0; i < 17; i++) {
        chess_position *replay = chess_position_clone(chess_game_position_at(game, i));
        CHECK_ERR(chess_position_play(replay, moves[i]), CHESS_OK);
        CHECK(chess_position_zobrist(replay) == chess_position_zobrist(chess_game_position_at(game, i + 1)));
        chess_position_free(replay);
    }
    CHECK(chess_game_position_at(game, 17) == chess_game_position(game));
    CHECK(chess_game_position_at(game, 18) == NULL && chess_game_position_at(game, (size_t)-1) == NULL);
    CHECK(chess_game_position_at(NULL, 0) == NULL);
    CHECK(chess_game_position(NULL) == NULL && chess_game_start(NULL) == NULL);
    CHECK(chess_game_ply_count(NULL) == 0);

    /* The start position stays put however long the game grows (AddressSanitizer watches). */
    for (i = 0; i < 50; i++) {
        push_all(game, "Bb7 Na3 Bc8 Nb1");
    }
    CHECK(start == chess_game_start(game) && fen_is(start, START));
    chess_game_free(game);
}

static void test_repetition(void) {
    chess_game *game = chess_game_new(NULL);
    chess_position *pawns = parse("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    chess_game *ep = chess_game_new(pawns);
    int round;

    CHECK(chess_game_repetition_count(game) == 1);
    push_all(game, "Nf3 Nf6 Ng1 Ng8");
    CHECK(chess_game_repetition_count(game) == 2);
    CHECK(!chess_game_is_threefold_repetition(game) && !chess_game_can_claim_threefold_repetition(game));
    /* One move before the third occurrence, the claim may be made by announcing that move. */
    push_all(game, "Nf3 Nf6 Ng1");
    CHECK(chess_game_can_claim_threefold_repetition(game) && !chess_game_is_threefold_repetition(game));
    CHECK(chess_game_claimable_draw(game) == CHESS_TERMINATION_THREEFOLD_REPETITION);
    push_all(game, "Ng8");
    CHECK(chess_game_repetition_count(game) == 3 && chess_game_is_threefold_repetition(game));
    CHECK(chess_game_claimable_draw(game) == CHESS_TERMINATION_THREEFOLD_REPETITION);
    CHECK(outcome_is(game, CHESS_RESULT_ONGOING, CHESS_TERMINATION_NONE));
    for (round = 0; round < 2; round++) {
        push_all(game, "Nf3 Nf6 Ng1 Ng8");
    }
    CHECK(chess_game_repetition_count(game) == 5 && chess_game_is_fivefold_repetition(game));
    CHECK(outcome_is(game, CHESS_RESULT_DRAW, CHESS_TERMINATION_FIVEFOLD_REPETITION));
    CHECK(chess_game_claimable_draw(game) == CHESS_TERMINATION_NONE);
    CHECK_ERR(chess_game_pop(game, NULL), CHESS_OK);
    CHECK(chess_game_repetition_count(game) == 4 && !chess_game_is_fivefold_repetition(game));
    CHECK(outcome_is(game, CHESS_RESULT_ONGOING, CHESS_TERMINATION_NONE));

    /* An en passant square without a possible capture does not make a position different... */
    chess_game_free(game);
    game = chess_game_new(NULL);
    push_all(game, "e4 Nf6 Nf3 Ng8 Ng1");
    CHECK(chess_game_repetition_count(game) == 2);
    /* ...but one with a legal capture does. */
    push_all(ep, "e4 Kd8 Kd1 Ke8 Ke1");
    CHECK(chess_game_repetition_count(ep) == 1);
    push_all(ep, "Kd8 Kd1 Ke8 Ke1");
    CHECK(chess_game_repetition_count(ep) == 2);

    CHECK(chess_game_repetition_count(NULL) == 0 && !chess_game_is_threefold_repetition(NULL));
    CHECK(!chess_game_is_fivefold_repetition(NULL) && !chess_game_can_claim_threefold_repetition(NULL));
    CHECK(chess_game_claimable_draw(NULL) == CHESS_TERMINATION_NONE);
    chess_game_free(game);
    chess_game_free(ep);
    chess_position_free(pawns);
}

/* A game from `fen` after the moves of `line`. */
static chess_game *game_after(const char *fen, const char *line) {
    chess_position *pos = parse(fen);
    chess_game *game = chess_game_new(pos);
    chess_position_free(pos);
    push_all(game, line);
    return game;
}

static void test_outcomes(void) {
    chess_game *mate = game_after(START, "f3 e5 g4 Qh4#");
    chess_game *white = game_after("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#");
    chess_game *stale = game_after("7k/8/8/6K1/8/8/8/5Q2 w - - 0 1", "Qf7");
    chess_game *dead = game_after("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", "Kxd2");
    chess_game *slow = game_after("8/8/8/4k3/8/8/8/4K2R w - - 149 80", "Kd1");
    chess_game *fifty = game_after("8/8/8/4k3/8/8/8/4K2R w - - 99 80", "");
    chess_outcome none = chess_game_outcome(NULL);

    CHECK(outcome_is(mate, CHESS_RESULT_BLACK_WINS, CHESS_TERMINATION_CHECKMATE));
    CHECK(outcome_is(white, CHESS_RESULT_WHITE_WINS, CHESS_TERMINATION_CHECKMATE));
    CHECK(outcome_is(stale, CHESS_RESULT_DRAW, CHESS_TERMINATION_STALEMATE));
    CHECK(outcome_is(dead, CHESS_RESULT_DRAW, CHESS_TERMINATION_INSUFFICIENT_MATERIAL));
    CHECK(outcome_is(slow, CHESS_RESULT_DRAW, CHESS_TERMINATION_SEVENTY_FIVE_MOVES));
    CHECK(chess_game_claimable_draw(slow) == CHESS_TERMINATION_NONE);
    /* The fifty-move draw may be claimed by announcing the move that completes it. */
    CHECK(outcome_is(fifty, CHESS_RESULT_ONGOING, CHESS_TERMINATION_NONE));
    CHECK(chess_game_claimable_draw(fifty) == CHESS_TERMINATION_FIFTY_MOVES);
    push_all(fifty, "Kd1");
    CHECK(chess_game_claimable_draw(fifty) == CHESS_TERMINATION_FIFTY_MOVES);
    CHECK(outcome_is(fifty, CHESS_RESULT_ONGOING, CHESS_TERMINATION_NONE));
    push_all(fifty, "Kd5 Rh5+");
    CHECK(outcome_is(fifty, CHESS_RESULT_ONGOING, CHESS_TERMINATION_NONE));
    CHECK(none.result == CHESS_RESULT_ONGOING && none.termination == CHESS_TERMINATION_NONE);

    chess_game_free(mate);
    chess_game_free(white);
    chess_game_free(stale);
    chess_game_free(dead);
    chess_game_free(slow);
    chess_game_free(fifty);
}

int main(void) {
    static const chess_error owned[] = {CHESS_ERR_EMPTY_HISTORY};
    test_lifecycle();
    test_push_pop();
    test_history();
    test_repetition();
    test_outcomes();
    check_codes_seen(owned, sizeof owned / sizeof owned[0]);
    return report("c game");
}
