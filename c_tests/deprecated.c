/* The functions the header marks CHESS_DEPRECATED: kept working through 1.x, each the same as
 * the replacement its note names. The only test program that calls them (the others build with
 * CHESS_WARN_DEPRECATED and -Werror). */

#include "common.h"

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define FISCHER "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1"

/* chess_fen_parse: chess_fen_parse_into, into a new position. */
static void test_fen_parse(void) {
    chess_position *pos = NULL, replacement;
    chess_position *const untouched = (chess_position *)&replacement;
    chess_position *kept = untouched;
    CHECK_ERR(chess_fen_parse(START, &pos), CHESS_OK);
    CHECK_ERR(chess_fen_parse_into(START, &replacement), CHESS_OK);
    CHECK(pos != NULL && memcmp(pos, &replacement, sizeof replacement) == 0);
    chess_position_free(pos);
    CHECK_ERR(chess_fen_parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", &kept),
              CHESS_ERR_FEN_SIDE_TO_MOVE);
    CHECK_ERR(chess_fen_parse("4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1", &kept), CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
    CHECK_ERR(chess_fen_parse(NULL, &kept), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_fen_parse(START, NULL), CHESS_ERR_NULL_POINTER);
    CHECK(kept == untouched);
}

/* chess_fen_parse_chess960: chess_fen_parse_with with CHESS_FEN_CHESS960. */
static void test_fen_parse_chess960(void) {
    chess_position *pos = NULL, replacement;
    chess_position *const untouched = (chess_position *)&replacement;
    chess_position *kept = untouched;
    CHECK_ERR(chess_fen_parse_chess960(FISCHER, &pos), CHESS_OK);
    CHECK_ERR(chess_fen_parse_with(FISCHER, CHESS_FEN_CHESS960, &replacement, NULL), CHESS_OK);
    CHECK(pos != NULL && memcmp(pos, &replacement, sizeof replacement) == 0);
    CHECK(chess_position_is_chess960(pos));
    chess_position_free(pos);
    CHECK_ERR(chess_fen_parse_chess960("4k3/8/8/8/8/8/8/4K3 x - - 0 1", &kept), CHESS_ERR_FEN_SIDE_TO_MOVE);
    CHECK_ERR(chess_fen_parse_chess960(NULL, &kept), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_fen_parse_chess960(START, NULL), CHESS_ERR_NULL_POINTER);
    CHECK(kept == untouched);
}

/* chess_binary_fen_parse: chess_binary_fen_parse_into, into a new position. */
static void test_binary_fen_parse(void) {
    unsigned char bytes[CHESS_BINARY_FEN_MAX];
    size_t len = 0;
    chess_position start, replacement, *pos = NULL;
    chess_position *const untouched = (chess_position *)&replacement;
    chess_position *kept = untouched;
    chess_position_init(&start);
    CHECK_ERR(chess_position_to_binary_fen(&start, bytes, sizeof bytes, &len), CHESS_OK);
    CHECK_ERR(chess_binary_fen_parse(bytes, len, &pos), CHESS_OK);
    CHECK_ERR(chess_binary_fen_parse_into(bytes, len, &replacement), CHESS_OK);
    CHECK(pos != NULL && memcmp(pos, &replacement, sizeof replacement) == 0 && fen_is(pos, START));
    chess_position_free(pos);
    {
        chess_error expected = chess_binary_fen_parse_into(bytes, 1, &replacement);
        CHECK(expected != CHESS_OK);
        CHECK_ERR(chess_binary_fen_parse(bytes, 1, &kept), expected);
    }
    CHECK_ERR(chess_binary_fen_parse(bytes, len, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_binary_fen_parse(NULL, 5, &kept), CHESS_ERR_NULL_POINTER);
    CHECK(kept == untouched);
}

int main(void) {
    test_fen_parse();
    test_fen_parse_chess960();
    test_binary_fen_parse();
    return report("deprecated");
}
