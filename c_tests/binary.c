/* Binary position formats through the C API: binary FEN written and read back over every position
 * of a perft suite and its children, the start position's bytes, buffers too small, malformed
 * bytes with their codes and offsets, Chess960 castling, NULL arguments; Stockfish training data
 * read from the binpack fixture (a file and a buffer), written back as binpack (the same bytes)
 * and as plain text, read again, malformed data, refused entries.
 *
 * usage: binary DATA_DIR WORK_DIR */

#include "common.h"

static char data_dir[2048];
static char work_dir[2048];

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
    chess_position back;
    CHECK_ERR(chess_position_to_binary_fen(pos, bytes, sizeof bytes, &len), CHESS_OK);
    CHECK(len > 0 && len <= CHESS_BINARY_FEN_MAX);
    CHECK_ERR(chess_binary_fen_parse_with(bytes, len, flags, &back, NULL), CHESS_OK);
    CHECK(same_position(pos, &back));
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
    CHECK_ERR(parse_new("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", CHESS_FEN_CHESS960, &pos), CHESS_OK);
    round_trip(pos, CHESS_FEN_CHESS960);
    CHECK_ERR(chess_position_to_binary_fen(pos, bytes, sizeof bytes, &len), CHESS_OK);
    CHECK_ERR(chess_binary_fen_parse_into(bytes, len, &dst), CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
    chess_position_free(pos);
}

static void test_null_arguments(void) {
    chess_position pos;
    uint8_t bytes[CHESS_BINARY_FEN_MAX];
    size_t len = 0;
    chess_position_init(&pos);
    CHECK_ERR(chess_position_to_binary_fen(NULL, bytes, sizeof bytes, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_position_to_binary_fen(&pos, NULL, 10, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_binary_fen_parse_into(START, sizeof START, NULL), CHESS_ERR_NULL_POINTER);
}

/* Reads every entry of `reader` and frees it; writes them to `writer` when it is not NULL.
 * Returns the number read. */
static size_t copy_entries(chess_binpack_reader *reader, chess_binpack_writer *writer) {
    chess_training_entry entry;
    size_t count = 0;
    chess_error err;
    while ((err = chess_binpack_reader_next(reader, &entry)) == CHESS_OK) {
        CHECK(entry.result >= -1 && entry.result <= 1);
        if (writer != NULL) {
            CHECK_ERR(chess_binpack_writer_write(writer, &entry), CHESS_OK);
        }
        count++;
    }
    CHECK_ERR(err, CHESS_END);
    CHECK_ERR(chess_binpack_reader_next(reader, &entry), CHESS_END);
    chess_binpack_reader_free(reader);
    return count;
}

static void test_binpack(void) {
    char fixture[4200];
    chess_binpack_reader *reader = NULL;
    chess_binpack_writer *binpack = NULL, *plain = NULL;
    unsigned char *original, *copy;
    size_t original_len, copy_len;
    char binpack_path[4200], plain_path[4200];
    snprintf(fixture, sizeof fixture, "%s", path_in(data_dir, "binpack/generated.binpack"));
    snprintf(binpack_path, sizeof binpack_path, "%s", path_in(work_dir, "copy.binpack"));
    snprintf(plain_path, sizeof plain_path, "%s", path_in(work_dir, "copy.plain"));

    CHECK_ERR(chess_binpack_reader_open(fixture, &reader), CHESS_OK);
    CHECK_ERR(chess_binpack_writer_open(binpack_path, &binpack), CHESS_OK);
    CHECK(copy_entries(reader, binpack) == 4113);
    CHECK_ERR(chess_binpack_writer_finish(binpack), CHESS_OK);
    CHECK_ERR(chess_binpack_writer_finish(binpack), CHESS_OK);
    chess_binpack_writer_free(binpack);
    original = file_bytes(fixture, &original_len);
    copy = file_bytes(binpack_path, &copy_len);
    CHECK(copy_len == original_len && memcmp(copy, original, copy_len) == 0);
    free(copy);

    /* Through the plain text and back from a buffer. */
    CHECK_ERR(chess_binpack_reader_from_buffer_with(original, original_len, 0, &reader), CHESS_OK);
    CHECK_ERR(chess_binpack_writer_open_with(plain_path, CHESS_BINPACK_PLAIN, &plain), CHESS_OK);
    CHECK(copy_entries(reader, plain) == 4113);
    chess_binpack_writer_free(plain); /* finishes it */
    CHECK_ERR(chess_binpack_reader_open_with(plain_path, CHESS_BINPACK_PLAIN, &reader), CHESS_OK);
    CHECK(copy_entries(reader, NULL) == 4113);

    /* In records, 1000 at a time. */
    {
        static chess_training_record records[1000];
        size_t count = 0, total = 0, i;
        chess_error err;
        chess_position pos;
        CHECK(sizeof(chess_training_record) == 34);
        CHECK_ERR(chess_binpack_reader_from_buffer_with(original, original_len, 0, &reader), CHESS_OK);
        while ((err = chess_binpack_reader_next_records(reader, records, 1000, &count)) == CHESS_OK) {
            if (total == 0) {
                CHECK(memcmp(records[0].board, START, 24) == 0 && records[0].ply == 0);
            }
            for (i = 0; i < count; i++) {
                CHECK_ERR(chess_binary_fen_parse_into(records[i].board, 24, &pos), CHESS_OK);
            }
            total += count;
        }
        CHECK_ERR(err, CHESS_END);
        CHECK(total == 4113 && count == 0);
        CHECK_ERR(chess_binpack_reader_next_records(reader, NULL, 0, &count), CHESS_OK);
        CHECK_ERR(chess_binpack_reader_next_records(reader, NULL, 5, &count), CHESS_ERR_NULL_POINTER);
        chess_binpack_reader_free(reader);
        CHECK_ERR(chess_binpack_reader_from_buffer_with(original, 100, 0, &reader), CHESS_OK);
        CHECK_ERR(chess_binpack_reader_next_records(reader, records, 1000, &count), CHESS_ERR_BINPACK_TRUNCATED);
        CHECK(count == 0);
        chess_binpack_reader_free(reader);
    }

    /* Malformed: cut short, then a bad header. */
    CHECK_ERR(chess_binpack_reader_from_buffer_with(original, 100, 0, &reader), CHESS_OK);
    {
        chess_training_entry entry;
        CHECK_ERR(chess_binpack_reader_next(reader, &entry), CHESS_ERR_BINPACK_TRUNCATED);
        CHECK(chess_binpack_reader_error_offset(reader) == 100);
        CHECK_ERR(chess_binpack_reader_next(reader, &entry), CHESS_END);
        chess_binpack_reader_free(reader);
        original[3] = 'Q';
        CHECK_ERR(chess_binpack_reader_from_buffer_with(original, original_len, 0, &reader), CHESS_OK);
        CHECK_ERR(chess_binpack_reader_next(reader, &entry), CHESS_ERR_BINPACK_CHUNK);
        CHECK(chess_binpack_reader_error_offset(reader) == 0);
        chess_binpack_reader_free(reader);
        CHECK_ERR(chess_binpack_reader_from_buffer_with((const uint8_t *)"fen 8/8 w - - 0 1\n", 18, CHESS_BINPACK_PLAIN,
                                                        &reader),
                  CHESS_OK);
        CHECK_ERR(chess_binpack_reader_next(reader, &entry), CHESS_ERR_FEN_RANK_COUNT);
        CHECK(chess_binpack_reader_error_offset(reader) == 4);
        chess_binpack_reader_free(reader);
        CHECK_ERR(chess_binpack_reader_from_buffer_with((const uint8_t *)"ply 1\nsize 3\n", 13, CHESS_BINPACK_PLAIN,
                                                        &reader),
                  CHESS_OK);
        CHECK_ERR(chess_binpack_reader_next(reader, &entry), CHESS_ERR_BINPACK_PLAIN_SYNTAX);
        CHECK(chess_binpack_reader_error_offset(reader) == 6);
        chess_binpack_reader_free(reader);
    }
    free(original);

    /* Refused entries, and NULL arguments. */
    {
        chess_training_entry entry;
        chess_position *fischer = NULL;
        chess_move moves[CHESS_MAX_MOVES];
        memset(&entry, 0, sizeof entry);
        chess_position_init(&entry.position);
        CHECK_ERR(chess_binpack_writer_open(binpack_path, &binpack), CHESS_OK);
        CHECK_ERR(chess_move_from_uci(&entry.position, "e2e5", &entry.move), CHESS_ERR_ILLEGAL_MOVE);
        entry.move = 0xffff; /* kind 15: no move */
        CHECK_ERR(chess_binpack_writer_write(binpack, &entry), CHESS_ERR_INVALID_MOVE);
        entry.move = 0; /* the null move */
        CHECK_ERR(chess_binpack_writer_write(binpack, &entry), CHESS_ERR_ILLEGAL_MOVE);
        CHECK_ERR(chess_move_from_uci(&entry.position, "e2e4", &entry.move), CHESS_OK);
        entry.result = 2;
        CHECK_ERR(chess_binpack_writer_write(binpack, &entry), CHESS_ERR_BINPACK_RESULT);
        entry.result = 0;
        entry.ply = 20000;
        CHECK_ERR(chess_binpack_writer_write(binpack, &entry), CHESS_ERR_BINPACK_UNREPRESENTABLE);
        CHECK_ERR(parse_new("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", CHESS_FEN_CHESS960, &fischer), CHESS_OK);
        chess_position_copy(&entry.position, fischer);
        chess_legal_moves(fischer, moves, CHESS_MAX_MOVES);
        entry.move = moves[0];
        entry.ply = 0;
        CHECK_ERR(chess_binpack_writer_write(binpack, &entry), CHESS_ERR_BINPACK_UNREPRESENTABLE);
        chess_position_free(fischer);
        CHECK_ERR(chess_binpack_writer_finish(binpack), CHESS_OK);
        CHECK_ERR(chess_binpack_writer_write(binpack, &entry), CHESS_ERR_INVALID_ARGUMENT);
        chess_binpack_writer_free(binpack);
        CHECK_ERR(chess_binpack_writer_write(NULL, &entry), CHESS_ERR_NULL_POINTER);
        CHECK_ERR(chess_binpack_reader_next(NULL, &entry), CHESS_ERR_NULL_POINTER);
        CHECK_ERR(chess_binpack_reader_open(path_in(work_dir, "missing.binpack"), &reader), CHESS_ERR_FILE_NOT_FOUND);
        CHECK_ERR(chess_binpack_reader_open_with(fixture, 2, &reader), CHESS_ERR_INVALID_ARGUMENT);
        CHECK(chess_binpack_reader_error_offset(NULL) == 0);
        chess_binpack_reader_free(NULL);
        chess_binpack_writer_free(NULL);
    }
}

int main(int argc, char **argv) {
    static const chess_error owned[] = {
        CHESS_ERR_BINARY_FEN_COUNTER, CHESS_ERR_BINARY_FEN_VARIANT,   CHESS_ERR_BINARY_FEN_TRAILING_BYTES,
        CHESS_ERR_BINARY_FEN_EN_PASSANT_PAWN, CHESS_ERR_BINPACK_CHUNK, CHESS_ERR_BINPACK_TRUNCATED,
        CHESS_ERR_BINPACK_RESULT,     CHESS_ERR_BINPACK_PLAIN_SYNTAX, CHESS_ERR_BINPACK_UNREPRESENTABLE};
    if (argc != 3) {
        fprintf(stderr, "usage: %s DATA_DIR WORK_DIR\n", argv[0]);
        return 2;
    }
    snprintf(data_dir, sizeof data_dir, "%s", argv[1]);
    snprintf(work_dir, sizeof work_dir, "%s", argv[2]);
    test_binpack();
    test_perft_suite();
    test_start_position();
    test_malformed();
    test_chess960();
    test_null_arguments();
    check_codes_seen(owned, sizeof owned / sizeof owned[0]);
    return report("c binary");
}
