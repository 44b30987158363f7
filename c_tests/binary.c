/* Binary position formats through the C API: binary FEN written and read back over every position
 * of a perft suite and its children, the start position's bytes, buffers too small, malformed
 * bytes with their codes and offsets, Chess960 castling, NULL arguments.
 *
 * usage: binary DATA_DIR */

#include "common.h"

static char data_dir[2048];

static const unsigned char START[24] = {0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0x2d, 0x84, 0x4a, 0xd2,
                                        0x00, 0x00, 0x00, 0x00, 0x11, 0x11, 0x11, 0x11, 0x3e, 0x95, 0x5b, 0xe3};

/* Same FEN: binary FEN, like FEN, keeps the en passant square only when the capture is legal. */
static int same_position(const chess_position *a, const chess_position *b) {
    char fa[CHESS_FEN_MAX], fb[CHESS_FEN_MAX];
    return chess_fen_write(a, fa, sizeof fa, NULL) == CHESS_OK && chess_fen_write(b, fb, sizeof fb, NULL) == CHESS_OK &&
           strcmp(fa, fb) == 0;
}

/* Writes and reads back `pos`, by handle and by value; returns the length. */
static size_t round_trip(const chess_position *pos, uint32_t flags) {
    uint8_t bytes[CHESS_BINARY_FEN_MAX];
    size_t len = 0;
    chess_position back, *handle = NULL;
    CHECK_ERR(chess_position_to_binary_fen(pos, bytes, sizeof bytes, &len), CHESS_OK);
    CHECK(len > 0 && len <= CHESS_BINARY_FEN_MAX);
    CHECK_ERR(chess_binary_fen_parse_with(bytes, len, flags, &back, NULL), CHESS_OK);
    CHECK(same_position(pos, &back));
    if (flags == 0) {
        CHECK_ERR(chess_binary_fen_parse(bytes, len, &handle), CHESS_OK);
        CHECK(handle != NULL && same_position(pos, handle));
        chess_position_free(handle);
    }
    return len;
}

static void test_perft_suite(void) {
    char path[2200], line[512];
    FILE *file;
    int positions = 0;
    sprintf(path, "%s/perft/cpw6.epd", data_dir);
    file = fopen(path, "r");
    CHECK(file != NULL);
    if (file == NULL) {
        return;
    }
    while (fgets(line, sizeof line, file)) {
        chess_position pos, child;
        chess_move moves[CHESS_MAX_MOVES];
        size_t n, i;
        char *semicolon = strchr(line, ';');
        if (semicolon == NULL) {
            continue;
        }
        *semicolon = '\0';
        CHECK_ERR(chess_fen_parse_into(line, &pos), CHESS_OK);
        round_trip(&pos, 0);
        n = chess_legal_moves(&pos, moves, CHESS_MAX_MOVES);
        for (i = 0; i < n; i++) {
            chess_position_play_into(&pos, moves[i], &child);
            round_trip(&child, 0);
            positions++;
        }
    }
    fclose(file);
    CHECK(positions > 100);
}

static void test_start_position(void) {
    chess_position pos, out;
    uint8_t bytes[CHESS_BINARY_FEN_MAX], padded[40];
    size_t len = 0;
    chess_position_init(&pos);
    CHECK_ERR(chess_position_to_binary_fen(&pos, bytes, sizeof bytes, &len), CHESS_OK);
    CHECK(len == 24 && memcmp(bytes, START, 24) == 0);
    /* Too small: only the length is written. */
    memset(bytes, 0xaa, sizeof bytes);
    len = 0;
    CHECK_ERR(chess_position_to_binary_fen(&pos, bytes, 23, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 24 && bytes[0] == 0xaa);
    CHECK_ERR(chess_position_to_binary_fen(&pos, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_position_to_binary_fen(&pos, bytes, 24, NULL), CHESS_OK);
    /* Zero padding reads as the same position. */
    memset(padded, 0, sizeof padded);
    memcpy(padded, START, 24);
    CHECK_ERR(chess_binary_fen_parse_into(padded, sizeof padded, &out), CHESS_OK);
    CHECK(same_position(&pos, &out));
}

static void test_malformed(void) {
    chess_position pos, dst;
    chess_fen_info info;
    uint8_t bytes[64];
    size_t len = 0;
    static const uint8_t too_big_clock[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_ERR(chess_fen_parse_into("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &pos), CHESS_OK);
    CHECK_ERR(chess_position_to_binary_fen(&pos, bytes, sizeof bytes, &len), CHESS_OK);
    CHECK(len == 9);

    memcpy(bytes + len, too_big_clock, sizeof too_big_clock);
    chess_position_init(&dst);
    CHECK_ERR(chess_binary_fen_parse_with(bytes, len + sizeof too_big_clock, 0, &dst, &info),
              CHESS_ERR_BINARY_FEN_COUNTER);
    CHECK(info.error_offset == 9);
    bytes[9] = 0;
    bytes[10] = 0;
    bytes[11] = 9;
    CHECK_ERR(chess_binary_fen_parse_with(bytes, 12, 0, &dst, &info), CHESS_ERR_BINARY_FEN_VARIANT);
    CHECK(info.error_offset == 11);
    bytes[11] = 0;
    bytes[12] = 1;
    CHECK_ERR(chess_binary_fen_parse_with(bytes, 13, 0, &dst, &info), CHESS_ERR_BINARY_FEN_TRAILING_BYTES);
    CHECK(info.error_offset == 12);
    /* The e1 king's code made an en passant pawn. */
    bytes[8] = (uint8_t)((bytes[8] & 0xf0) | 12);
    CHECK_ERR(chess_binary_fen_parse_with(bytes, 9, 0, &dst, &info), CHESS_ERR_BINARY_FEN_EN_PASSANT_PAWN);
    CHECK(info.error_offset == 8);
    /* The e1 king made a queen: a FEN code for the position. */
    bytes[8] = (uint8_t)((bytes[8] & 0xf0) | 8);
    CHECK_ERR(chess_binary_fen_parse_with(bytes, 9, 0, &dst, &info), CHESS_ERR_FEN_MISSING_KING);
    CHECK(info.error_offset == 0);
    /* `dst` untouched by all of these. */
    chess_position_init(&pos);
    CHECK(same_position(&pos, &dst));
    CHECK_ERR(chess_binary_fen_parse_with(bytes, 9, 1u << 30, &dst, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_binary_fen_parse_into(NULL, 0, &dst), CHESS_ERR_FEN_MISSING_KING);
}

static void test_chess960(void) {
    chess_position *pos = NULL, dst;
    uint8_t bytes[CHESS_BINARY_FEN_MAX];
    size_t len = 0;
    CHECK_ERR(chess_fen_parse_chess960("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", &pos), CHESS_OK);
    round_trip(pos, CHESS_FEN_CHESS960);
    CHECK_ERR(chess_position_to_binary_fen(pos, bytes, sizeof bytes, &len), CHESS_OK);
    CHECK_ERR(chess_binary_fen_parse_into(bytes, len, &dst), CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
    chess_position_free(pos);
}

static void test_null_arguments(void) {
    chess_position pos, *handle = NULL;
    uint8_t bytes[CHESS_BINARY_FEN_MAX];
    size_t len = 0;
    chess_position_init(&pos);
    CHECK_ERR(chess_position_to_binary_fen(NULL, bytes, sizeof bytes, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_position_to_binary_fen(&pos, NULL, 10, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_binary_fen_parse(START, sizeof START, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_binary_fen_parse(NULL, 5, &handle), CHESS_ERR_NULL_POINTER);
    CHECK(handle == NULL);
    CHECK_ERR(chess_binary_fen_parse_into(START, sizeof START, NULL), CHESS_ERR_NULL_POINTER);
}

int main(int argc, char **argv) {
    static const chess_error owned[] = {CHESS_ERR_BINARY_FEN_COUNTER, CHESS_ERR_BINARY_FEN_VARIANT,
                                        CHESS_ERR_BINARY_FEN_TRAILING_BYTES, CHESS_ERR_BINARY_FEN_EN_PASSANT_PAWN};
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    snprintf(data_dir, sizeof data_dir, "%s", argv[1]);
    test_perft_suite();
    test_start_position();
    test_malformed();
    test_chess960();
    test_null_arguments();
    check_codes_seen(owned, sizeof owned / sizeof owned[0]);
    return report("c binary");
}
