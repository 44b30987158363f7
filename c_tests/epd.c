/* EPD through the C API: reading, opcode and operand lookup of every type, canonical writing,
 * every EPD error code, short buffers and NULL arguments, and every line of the EPD files
 * against python-chess's verdict and position.
 *
 * usage: epd TESTDATA_DIR [THIRD_PARTY_TESTDATA_DIR] */

#include "common.h"

#define START_FIELDS "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"

static const char *testdata;
/* The third-party test files, or NULL when they are not given. */
static const char *shared_testdata;

static chess_epd *read_epd(const char *line) {
    chess_epd *epd = NULL;
    CHECK_ERR(chess_epd_parse(line, &epd), CHESS_OK);
    if (epd == NULL) {
        fprintf(stderr, "cannot read %s\n", line);
        exit(2);
    }
    return epd;
}

static int string_is(const chess_epd *epd, const char *opcode, size_t index, const char *expected) {
    char buf[256];
    size_t len = 0;
    if (seen_code(chess_epd_operand_string(epd, opcode, index, buf, sizeof buf, &len)) != CHESS_OK) {
        return 0;
    }
    return strcmp(buf, expected) == 0 && len == strlen(expected);
}

static int move_is(const chess_epd *epd, chess_move mv, const char *expected) {
    const chess_position *pos = chess_epd_position(epd);
    chess_move wanted = 0;
    return chess_move_from_uci(pos, expected, &wanted) == CHESS_OK && wanted == mv;
}

static void test_lookup(void) {
    chess_epd *epd = read_epd(START_FIELDS " bm e4 Nf3; id \"dev.start\";");
    chess_move moves[4];
    chess_move mv = 0x1234;
    int64_t integer = 77;
    double number = 7.5;
    char buf[16];
    size_t len = 0;

    CHECK(fen_is(chess_epd_position(epd), START_FIELDS " 0 1"));
    CHECK(chess_epd_operation_count(epd) == 2);
    CHECK_ERR(chess_epd_opcode(epd, 0, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, "bm") == 0 && len == 2);
    CHECK_ERR(chess_epd_opcode(epd, 1, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, "id") == 0);
    CHECK_ERR(chess_epd_opcode(epd, 2, buf, sizeof buf, &len), CHESS_ERR_EPD_NOT_FOUND);
    CHECK_ERR(chess_epd_opcode(epd, 0, buf, 2, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_epd_opcode(NULL, 0, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_opcode(epd, 0, NULL, 3, &len), CHESS_ERR_NULL_POINTER);
    CHECK(chess_epd_has(epd, "bm") && chess_epd_has(epd, "id"));
    CHECK(!chess_epd_has(epd, "am") && !chess_epd_has(epd, "b") && !chess_epd_has(epd, "\xc3\xa9"));
    CHECK(!chess_epd_has(NULL, "bm") && !chess_epd_has(epd, NULL));

    /* Moves. */
    CHECK(chess_epd_operand_count(epd, "bm") == 2 && chess_epd_operand_count(epd, "id") == 1);
    CHECK(chess_epd_operand_count(epd, "am") == 0 && chess_epd_operand_count(NULL, "bm") == 0);
    CHECK(chess_epd_operand_count(epd, NULL) == 0);
    CHECK(chess_epd_operand_kind(epd, "bm", 0) == CHESS_OPERAND_MOVE);
    CHECK(chess_epd_moves(epd, "bm", moves, 4) == 2);
    CHECK(move_is(epd, moves[0], "e2e4") && move_is(epd, moves[1], "g1f3"));
    moves[1] = 0xbeef;
    CHECK(chess_epd_moves(epd, "bm", moves, 1) == 2 && moves[1] == 0xbeef);
    CHECK(chess_epd_moves(epd, "bm", NULL, 0) == 2);
    CHECK(chess_epd_moves(epd, "bm", NULL, 1) == 0);
    CHECK(chess_epd_moves(epd, "id", moves, 4) == 0 && chess_epd_moves(epd, "am", moves, 4) == 0);
    CHECK(chess_epd_moves(NULL, "bm", moves, 4) == 0 && chess_epd_moves(epd, NULL, moves, 4) == 0);
    CHECK_ERR(chess_epd_operand_move(epd, "bm", 1, &mv), CHESS_OK);
    CHECK(move_is(epd, mv, "g1f3"));

    /* A string; lookups that miss or ask for another type write nothing. */
    CHECK(chess_epd_operand_kind(epd, "id", 0) == CHESS_OPERAND_STRING);
    CHECK(string_is(epd, "id", 0, "dev.start"));
    mv = 0x1234;
    CHECK_ERR(chess_epd_operand_move(epd, "bm", 2, &mv), CHESS_ERR_EPD_NOT_FOUND);
    CHECK_ERR(chess_epd_operand_move(epd, "am", 0, &mv), CHESS_ERR_EPD_NOT_FOUND);
    CHECK_ERR(chess_epd_operand_move(epd, "id", 0, &mv), CHESS_ERR_EPD_WRONG_TYPE);
    CHECK_ERR(chess_epd_operand_integer(epd, "id", 0, &integer), CHESS_ERR_EPD_WRONG_TYPE);
    CHECK_ERR(chess_epd_operand_float(epd, "bm", 0, &number), CHESS_ERR_EPD_WRONG_TYPE);
    CHECK_ERR(chess_epd_operand_string(epd, "bm", 0, buf, sizeof buf, &len), CHESS_ERR_EPD_WRONG_TYPE);
    CHECK_ERR(chess_epd_operand_string(epd, "zz", 0, buf, sizeof buf, &len), CHESS_ERR_EPD_NOT_FOUND);
    CHECK_ERR(chess_epd_operand_string(epd, "id", 0, buf, 9, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 9);
    CHECK_ERR(chess_epd_operand_string(epd, "\xc3\xa9", 0, buf, sizeof buf, &len), CHESS_ERR_INVALID_TEXT);
    CHECK_ERR(chess_epd_operand_string(NULL, "id", 0, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_operand_string(epd, NULL, 0, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_operand_string(epd, "id", 0, NULL, 4, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_operand_move(NULL, "bm", 0, &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_operand_move(epd, NULL, 0, &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_operand_move(epd, "bm", 0, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_operand_integer(NULL, "ce", 0, &integer), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_operand_integer(epd, "ce", 0, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_operand_float(NULL, "ce", 0, &number), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_operand_float(epd, "ce", 0, NULL), CHESS_ERR_NULL_POINTER);
    CHECK(mv == 0x1234 && integer == 77 && number == 7.5);
    CHECK(chess_epd_operand_kind(epd, "id", 1) == CHESS_OPERAND_NONE);
    CHECK(chess_epd_operand_kind(epd, "zz", 0) == CHESS_OPERAND_NONE);
    CHECK(chess_epd_operand_kind(NULL, "id", 0) == CHESS_OPERAND_NONE);
    CHECK(chess_epd_operand_kind(epd, NULL, 0) == CHESS_OPERAND_NONE);
    CHECK(chess_epd_operation_count(NULL) == 0 && chess_epd_position(NULL) == NULL);
    chess_epd_free(epd);
    chess_epd_free(NULL);
}

static void test_operand_types(void) {
    chess_epd *epd = read_epd(START_FIELDS " hmvc 3; fmvn 9; acd 5; ce -12; sv 0.5; noop; x y \"z w\"; "
                                           "c0 \"say \\\"hi\\\" \\\\ ok\" \"R\xc3\xa9ti\"; pv d4 d5 c4;");
    chess_epd *castle = read_epd("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - bm O-O-O;");
    chess_move moves[4];
    int64_t integer = 0;
    double number = 0;

    /* hmvc and fmvn give the clocks and stay operations. */
    CHECK(fen_is(chess_epd_position(epd), START_FIELDS " 3 9"));
    CHECK(chess_epd_operation_count(epd) == 9);
    CHECK_ERR(chess_epd_operand_integer(epd, "hmvc", 0, &integer), CHESS_OK);
    CHECK(integer == 3);
    CHECK_ERR(chess_epd_operand_integer(epd, "ce", 0, &integer), CHESS_OK);
    CHECK(integer == -12 && chess_epd_operand_kind(epd, "ce", 0) == CHESS_OPERAND_INTEGER);
    CHECK_ERR(chess_epd_operand_float(epd, "acd", 0, &number), CHESS_OK);
    CHECK(number == 5.0);
    CHECK_ERR(chess_epd_operand_float(epd, "sv", 0, &number), CHESS_OK);
    CHECK(number == 0.5 && chess_epd_operand_kind(epd, "sv", 0) == CHESS_OPERAND_FLOAT);
    CHECK_ERR(chess_epd_operand_integer(epd, "sv", 0, &integer), CHESS_ERR_EPD_WRONG_TYPE);
    CHECK(chess_epd_has(epd, "noop") && chess_epd_operand_count(epd, "noop") == 0);
    CHECK(chess_epd_operand_kind(epd, "noop", 0) == CHESS_OPERAND_NONE);
    /* Words and strings, escapes undone, UTF-8 kept. */
    CHECK(chess_epd_operand_count(epd, "x") == 2);
    CHECK(chess_epd_operand_kind(epd, "x", 0) == CHESS_OPERAND_WORD && string_is(epd, "x", 0, "y"));
    CHECK(chess_epd_operand_kind(epd, "x", 1) == CHESS_OPERAND_STRING && string_is(epd, "x", 1, "z w"));
    CHECK(string_is(epd, "c0", 0, "say \"hi\" \\ ok") && string_is(epd, "c0", 1, "R\xc3\xa9ti"));
    /* pv: each move in the position the earlier ones reach. */
    CHECK(chess_epd_moves(epd, "pv", moves, 4) == 3);
    CHECK(chess_move_from_square(moves[2]) == 10 && chess_move_to_square(moves[2]) == 26);
    CHECK(chess_epd_moves(castle, "bm", moves, 4) == 1 && chess_move_kind_of(moves[0]) == CHESS_MOVE_CASTLING);
    CHECK(move_is(castle, moves[0], "e8c8"));
    chess_epd_free(epd);
    chess_epd_free(castle);
}

static void test_write(void) {
    static const char *line = START_FIELDS " bm e4 Nf3; id \"dev.start\";";
    chess_epd *epd = read_epd("  " START_FIELDS "   bm e4  Nf3 ;id \"dev.start\"");
    chess_epd *bare = read_epd("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq");
    chess_epd *escaped = read_epd("4k3/8/8/8/8/8/8/4K3 w - - c0 \"a \\\"b\\\" \\\\\"; sv 1e3;");
    char buf[128];
    size_t len = 0;
    CHECK_ERR(chess_epd_write(epd, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, line) == 0 && len == strlen(line));
    CHECK_ERR(chess_epd_write(bare, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, START_FIELDS) == 0);
    CHECK_ERR(chess_epd_write(escaped, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, "4k3/8/8/8/8/8/8/4K3 w - - c0 \"a \\\"b\\\" \\\\\"; sv 1000.0;") == 0);
    strcpy(buf, "same");
    CHECK_ERR(chess_epd_write(epd, buf, strlen(line), &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == strlen(line) && strcmp(buf, "same") == 0);
    CHECK_ERR(chess_epd_write(epd, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_epd_write(epd, NULL, 10, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_write(NULL, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    chess_epd_free(epd);
    chess_epd_free(bare);
    chess_epd_free(escaped);
}

static void test_errors(void) {
    static const struct {
        const char *line;
        chess_error code;
    } cases[] = {
        {"8/8/8/4k3/8/8/8/4K2R w", CHESS_ERR_EPD_MISSING_FIELDS},
        {"", CHESS_ERR_EPD_MISSING_FIELDS},
        {"8/8/8/4k3/8/8/8/4K2R w K - 0 1 bm Rh8;", CHESS_ERR_EPD_OPCODE},
        {"8/8/8/4k3/8/8/8/4K2R w K - b-m Rh8;", CHESS_ERR_EPD_OPCODE},
        {"8/8/8/4k3/8/8/8/4K2R w K - c0 \"open;", CHESS_ERR_EPD_UNTERMINATED_STRING},
        {"8/8/8/4k3/8/8/8/4K2R w K - hmvc -1;", CHESS_ERR_EPD_INVALID_OPERAND},
        {"8/8/8/4k3/8/8/8/4K2R w K - bm \"Rh8\";", CHESS_ERR_EPD_INVALID_OPERAND},
        {"8/8/8/8/8/8/8/8 w - - id \"empty\";", CHESS_ERR_FEN_MISSING_KING},
        {"8/8/8/4k3/8/8/8/4K2R x K - id \"x\";", CHESS_ERR_FEN_SIDE_TO_MOVE},
        {"8/8/8/4k3/8/8/8/4K2R w K - bm Rh9;", CHESS_ERR_SAN_SYNTAX},
        {"8/8/8/4k3/8/8/8/4K2R w K - pv Rh8 Rh1;", CHESS_ERR_ILLEGAL_MOVE},
        {"4k3/8/8/8/4N3/8/N3N3/4K3 w - - bm Nc3;", CHESS_ERR_SAN_AMBIGUOUS},
        {"8/8/8/4k3/8/8/8/4K2R w K - c0 \"\xff\";", CHESS_ERR_INVALID_TEXT},
    };
    chess_epd *epd = (chess_epd *)&testdata;
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_ERR(chess_epd_parse(cases[i].line, &epd), cases[i].code);
    }
    CHECK_ERR(chess_epd_parse(NULL, &epd), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_parse(START_FIELDS, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_parse_with(NULL, CHESS_FEN_CHESS960, &epd), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_epd_parse_with(START_FIELDS, 16, &epd), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(epd == (chess_epd *)&testdata);
}

/* The value of "key":"..." in a JSON line (no escapes in the values read here). */
static int json_string(const char *json, const char *key, char *out, size_t cap) {
    char pattern[32];
    const char *start;
    const char *end;
    sprintf(pattern, "\"%.20s\":\"", key);
    start = strstr(json, pattern);
    if (start == NULL) {
        return 0;
    }
    start += strlen(pattern);
    end = strchr(start, '"');
    if (end == NULL || (size_t)(end - start) >= cap) {
        return 0;
    }
    memcpy(out, start, (size_t)(end - start));
    out[end - start] = '\0';
    return 1;
}

/* Every line of an EPD file: read as python-chess did or failed as it did; the position it
 * gives; bm and am moves it lists; canonical output stable under rereading. */
static int check_file(const char *dir, const char *name) {
    char path[256];
    char line[2048];
    char json[8192];
    char fen[128];
    char canonical[2048];
    char again[2048];
    int lines = 0;
    FILE *epd_file;
    FILE *json_file;
    sprintf(path, "epd/%.100s.epd", name);
    epd_file = open_testdata(dir, path);
    sprintf(path, "epd/%.100s.expected.jsonl", name);
    json_file = open_testdata(dir, path);
    while (epd_file != NULL && json_file != NULL && fgets(line, sizeof line, epd_file) != NULL &&
           fgets(json, sizeof json, json_file) != NULL) {
        chess_epd *epd = NULL;
        chess_epd *reread = NULL;
        chess_error err = seen_code(chess_epd_parse(line, &epd));
        int expected_ok = strstr(json, "\"expected\":\"ok\"") != NULL;
        lines++;
        checks++;
        if ((err == CHESS_OK) != expected_ok) {
            failures++;
            fprintf(stderr, "%s line %d: %s, python-chess %s\n", name, lines, chess_error_message(err),
                    expected_ok ? "reads it" : "does not");
        }
        if (err != CHESS_OK) {
            continue;
        }
        CHECK(json_string(json, "fen", fen, sizeof fen) && fen_is(chess_epd_position(epd), fen));
        {
            static const char *move_ops[] = {"bm", "am"};
            size_t op;
            for (op = 0; op < 2; op++) {
                chess_move moves[16];
                size_t n = chess_epd_moves(epd, move_ops[op], moves, 16);
                size_t i;
                for (i = 0; i < n && i < 16; i++) {
                    char quoted[16];
                    char text[8];
                    CHECK_ERR(chess_move_to_uci(moves[i], text, sizeof text, NULL), CHESS_OK);
                    sprintf(quoted, "\"%s\"", text);
                    CHECK(chess_position_is_legal(chess_epd_position(epd), moves[i]) && strstr(json, quoted) != NULL);
                }
            }
        }
        CHECK_ERR(chess_epd_write(epd, canonical, sizeof canonical, NULL), CHESS_OK);
        CHECK_ERR(chess_epd_parse(canonical, &reread), CHESS_OK);
        CHECK_ERR(chess_epd_write(reread, again, sizeof again, NULL), CHESS_OK);
        CHECK(strcmp(canonical, again) == 0);
        CHECK(chess_epd_operation_count(reread) == chess_epd_operation_count(epd));
        chess_epd_free(reread);
        chess_epd_free(epd);
    }
    if (epd_file != NULL) {
        fclose(epd_file);
    }
    if (json_file != NULL) {
        fclose(json_file);
    }
    return lines;
}

static void test_files(void) {
    CHECK(check_file(testdata, "dev_edge_cases") == 8);
    CHECK(check_file(testdata, "dev_generated") == 150);
    if (shared_testdata != NULL) {
        CHECK(check_file(shared_testdata, "bratko_kopec") == 24);
        CHECK(check_file(shared_testdata, "ccr_one_hour") == 25);
        CHECK(check_file(shared_testdata, "win_at_chess") == 300);
    }
}

int main(int argc, char **argv) {
    static const chess_error owned[] = {
        CHESS_ERR_EPD_MISSING_FIELDS, CHESS_ERR_EPD_OPCODE,    CHESS_ERR_EPD_UNTERMINATED_STRING,
        CHESS_ERR_EPD_INVALID_OPERAND, CHESS_ERR_EPD_NOT_FOUND, CHESS_ERR_EPD_WRONG_TYPE,
    };
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s TESTDATA_DIR [THIRD_PARTY_TESTDATA_DIR]\n", argv[0]);
        return 2;
    }
    testdata = argv[1];
    shared_testdata = argc == 3 ? argv[2] : NULL;
    test_lookup();
    test_operand_types();
    test_write();
    test_errors();
    test_files();
    check_codes_seen(owned, sizeof owned / sizeof owned[0]);
    return report("c epd");
}
