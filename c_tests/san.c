/* SAN through the C API: writing, lenient and strict reading, lines of moves, every SAN error
 * code, short buffers and NULL arguments, and a write-read round trip over every legal move of
 * the perft suites' positions.
 *
 * usage: san TESTDATA_DIR [THIRD_PARTY_TESTDATA_DIR] */

#include "common.h"

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
/* Knights on a2, e2 and e4 all reach c3. */
#define KNIGHTS "4k3/8/8/8/4N3/8/N3N3/4K3 w - - 0 1"

static const char *testdata;
/* The third-party test files, or NULL when they are not given. */
static const char *shared_testdata;

/* The SAN of the move `uci_text` names in `pos`. */
static int san_is(const chess_position *pos, const char *uci_text, const char *expected) {
    char buf[CHESS_SAN_MAX];
    size_t len = 0;
    chess_error err = seen_code(chess_move_to_san(pos, uci(pos, uci_text), buf, sizeof buf, &len));
    if (err != CHESS_OK || strcmp(buf, expected) != 0 || len != strlen(expected)) {
        fprintf(stderr, "%s: SAN %s (%s), expected %s\n", uci_text, err == CHESS_OK ? buf : "-",
                chess_error_message(err), expected);
        return 0;
    }
    return 1;
}

static void test_write(void) {
    chess_position *start = parse(START);
    chess_position *knights = parse(KNIGHTS);
    chess_position *castle = parse("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    chess_position *ep = parse("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    chess_position *promote = parse("3k4/1P6/8/8/8/8/8/4K3 w - - 0 1");
    chess_position *mate = parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    char buf[CHESS_SAN_MAX];
    size_t len = 0;

    CHECK(san_is(start, "e2e4", "e4"));
    CHECK(san_is(start, "g1f3", "Nf3"));
    CHECK(san_is(knights, "a2c3", "Nac3"));
    CHECK(san_is(knights, "e2c3", "Ne2c3"));
    CHECK(san_is(knights, "e4c3", "N4c3"));
    CHECK(san_is(castle, "e8c8", "O-O-O"));
    CHECK(san_is(castle, "e8g8", "O-O"));
    CHECK(san_is(castle, "a8a1", "Rxa1+"));
    CHECK(san_is(ep, "e5d6", "exd6"));
    CHECK(san_is(promote, "b7b8q", "b8=Q+"));
    CHECK(san_is(promote, "b7b8n", "b8=N"));
    CHECK(san_is(mate, "a1a8", "Ra8#"));
    CHECK_ERR(chess_move_to_san(start, CHESS_MOVE_NONE, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, "--") == 0 && len == 2);

    /* Short buffers and size queries: only *out_len changes. */
    strcpy(buf, "same");
    len = 0;
    CHECK_ERR(chess_move_to_san(knights, uci(knights, "e2c3"), buf, 5, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 5 && strcmp(buf, "same") == 0);
    CHECK_ERR(chess_move_to_san(knights, uci(knights, "e2c3"), NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 5);
    CHECK_ERR(chess_move_to_san(knights, uci(knights, "e2c3"), buf, 6, NULL), CHESS_OK);
    CHECK(strcmp(buf, "Ne2c3") == 0);

    /* Moves that are not legal here, values that are not moves, NULLs. */
    strcpy(buf, "same");
    len = 99;
    CHECK_ERR(chess_move_to_san(start, uci(knights, "e2c3"), buf, sizeof buf, &len), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_move_to_san(start, 12 | 36 << 6, buf, sizeof buf, &len), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_move_to_san(start, 0x8000 | 12 | 28 << 6, buf, sizeof buf, &len), CHESS_ERR_INVALID_MOVE);
    CHECK_ERR(chess_move_to_san(NULL, uci(start, "e2e4"), buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_move_to_san(start, uci(start, "e2e4"), NULL, 4, &len), CHESS_ERR_NULL_POINTER);
    CHECK(len == 99 && strcmp(buf, "same") == 0);

    chess_position_free(start);
    chess_position_free(knights);
    chess_position_free(castle);
    chess_position_free(ep);
    chess_position_free(promote);
    chess_position_free(mate);
}

static void test_read(void) {
    static const char *spellings[] = {"Nf3", "Nf3!?", "Nf3?", "Ngf3", "Ng1f3", "Ng1-f3", "Ng1xf3", "Nxf3", "g1f3", "Nf3#"};
    chess_position *start = parse(START);
    chess_position *knights = parse(KNIGHTS);
    chess_position *check = parse("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    chess_position *castle = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    chess_move nf3 = uci(start, "g1f3");
    chess_move mv = 0x1234;
    size_t i;

    for (i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        mv = 0x1234;
        CHECK_ERR(chess_move_from_san(start, spellings[i], &mv), CHESS_OK);
        CHECK(mv == nf3);
        CHECK_ERR(chess_move_from_san_with(start, spellings[i], 0, &mv), CHESS_OK);
        CHECK(mv == nf3);
    }
    CHECK_ERR(chess_move_from_san(castle, "0-0-0", &mv), CHESS_OK);
    CHECK(mv == uci(castle, "e1c1"));
    CHECK_ERR(chess_move_from_san(castle, "O-O+", &mv), CHESS_OK);
    CHECK(mv == uci(castle, "e1g1"));
    CHECK_ERR(chess_move_from_san(knights, "Ne2c3", &mv), CHESS_OK);
    CHECK(mv == uci(knights, "e2c3"));

    /* Strict: only the canonical text, suffix included. */
    CHECK_ERR(chess_move_from_san_with(start, "Nf3", CHESS_SAN_STRICT, &mv), CHESS_OK);
    CHECK(mv == nf3);
    CHECK_ERR(chess_move_from_san_with(start, "Nf3", CHESS_SAN_STRICT, &mv), CHESS_OK);
    mv = 0x1234;
    CHECK_ERR(chess_move_from_san_with(start, "Ngf3", CHESS_SAN_STRICT, &mv), CHESS_ERR_SAN_NOT_CANONICAL);
    CHECK_ERR(chess_move_from_san_with(start, "Nf3+", CHESS_SAN_STRICT, &mv), CHESS_ERR_SAN_NOT_CANONICAL);
    CHECK_ERR(chess_move_from_san_with(castle, "0-0", CHESS_SAN_STRICT, &mv), CHESS_ERR_SAN_NOT_CANONICAL);
    CHECK_ERR(chess_move_from_san_with(start, "g1f3", CHESS_SAN_STRICT, &mv), CHESS_ERR_SAN_NOT_CANONICAL);
    CHECK_ERR(chess_move_from_san_with(start, "Nf4", CHESS_SAN_STRICT, &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_move_from_san_with(start, "nf3", CHESS_SAN_STRICT, &mv), CHESS_ERR_SAN_SYNTAX);
    CHECK(mv == 0x1234);

    /* The three kinds of failure; *out stays. */
    CHECK_ERR(chess_move_from_san(start, "nf3", &mv), CHESS_ERR_SAN_SYNTAX);
    CHECK_ERR(chess_move_from_san(start, "Pe4", &mv), CHESS_ERR_SAN_SYNTAX);
    CHECK_ERR(chess_move_from_san(start, " e4", &mv), CHESS_ERR_SAN_SYNTAX);
    CHECK_ERR(chess_move_from_san(start, "", &mv), CHESS_ERR_SAN_SYNTAX);
    CHECK_ERR(chess_move_from_san(start, "e4!!!", &mv), CHESS_ERR_SAN_SYNTAX);
    CHECK_ERR(chess_move_from_san(start, "e5", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_move_from_san(start, "Kg1", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_move_from_san(start, "O-O", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_move_from_san(knights, "Nc3", &mv), CHESS_ERR_SAN_AMBIGUOUS);
    CHECK_ERR(chess_move_from_san(knights, "Nec3", &mv), CHESS_ERR_SAN_AMBIGUOUS);
    CHECK(mv == 0x1234);

    /* The null move only with CHESS_SAN_ALLOW_NULL, and never in check. */
    CHECK_ERR(chess_move_from_san(start, "--", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_move_from_san_with(start, "--", CHESS_SAN_STRICT, &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK(mv == 0x1234);
    CHECK_ERR(chess_move_from_san_with(start, "--", CHESS_SAN_ALLOW_NULL, &mv), CHESS_OK);
    CHECK(mv == CHESS_MOVE_NONE);
    mv = 0x1234;
    CHECK_ERR(chess_move_from_san_with(start, "Z0", CHESS_SAN_ALLOW_NULL, &mv), CHESS_OK);
    CHECK(mv == CHESS_MOVE_NONE);
    CHECK_ERR(chess_move_from_san_with(start, "--", CHESS_SAN_ALLOW_NULL | CHESS_SAN_STRICT, &mv), CHESS_OK);
    mv = 0x1234;
    CHECK_ERR(chess_move_from_san_with(check, "--", CHESS_SAN_ALLOW_NULL, &mv), CHESS_ERR_ILLEGAL_MOVE);

    /* Arguments. */
    CHECK_ERR(chess_move_from_san_with(start, "Nf3", 4, &mv), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_move_from_san_with(start, "Nf3", 0x80000000u, &mv), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_move_from_san(start, "N\xc3\xa9", &mv), CHESS_ERR_INVALID_TEXT);
    CHECK_ERR(chess_move_from_san(NULL, "Nf3", &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_move_from_san(start, NULL, &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_move_from_san(start, "Nf3", NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_move_from_san_with(NULL, "Nf3", CHESS_SAN_STRICT, &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_move_from_san_with(start, NULL, CHESS_SAN_STRICT, &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_move_from_san_with(start, "Nf3", CHESS_SAN_STRICT, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_move_from_san_with(NULL, "Nf3", 0, &mv), CHESS_ERR_NULL_POINTER);
    CHECK(mv == 0x1234);

    chess_position_free(start);
    chess_position_free(knights);
    chess_position_free(check);
    chess_position_free(castle);
}

static void test_line(void) {
    static const char *expected[4] = {"e2e4", "e7e5", "g1f3", "b8c6"};
    chess_position *start = parse(START);
    chess_position *check = parse("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    chess_move moves[8];
    chess_move all[8];
    char buf[8];
    size_t count = 99;
    size_t index = 99;
    size_t i;

    CHECK_ERR(chess_moves_from_line(start, "e4 e7e5  Nf3\tNc6\n", 0, moves, 8, &count, &index), CHESS_OK);
    CHECK(count == 4 && index == 99);
    for (i = 0; i < 4 && i < count; i++) {
        CHECK_ERR(chess_move_to_uci(moves[i], buf, sizeof buf, NULL), CHESS_OK);
        CHECK(strcmp(buf, expected[i]) == 0);
    }
    CHECK(fen_is(start, START));
    /* A short array gets the first moves; the count is the whole line's. */
    CHECK_ERR(chess_moves_from_line(start, "e4 e5 Nf3 Nc6 Bb5", 0, all, 8, &count, NULL), CHESS_OK);
    CHECK(count == 5);
    moves[2] = 0xbeef;
    CHECK_ERR(chess_moves_from_line(start, "e4 e5 Nf3 Nc6 Bb5", 0, moves, 2, &count, NULL), CHESS_OK);
    CHECK(count == 5 && moves[0] == all[0] && moves[1] == all[1] && moves[2] == 0xbeef);
    CHECK_ERR(chess_moves_from_line(start, "e4 e5 Nf3", 0, NULL, 0, &count, NULL), CHESS_OK);
    CHECK(count == 3);
    CHECK_ERR(chess_moves_from_line(start, "  ", 0, NULL, 0, &count, NULL), CHESS_OK);
    CHECK(count == 0);
    CHECK_ERR(chess_moves_from_line(start, "e4 e5 e1g1", 0, moves, 8, &count, NULL), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_moves_from_line(start, "e4 e5 Nf3 Nf6 Bc4 Bc5 e1g1", 0, moves, 8, &count, NULL), CHESS_OK);
    CHECK(count == 7 && chess_move_kind_of(moves[6]) == CHESS_MOVE_CASTLING);

    /* A bad token: its index and code; nothing else is written. */
    count = 99;
    moves[0] = 0xbeef;
    CHECK_ERR(chess_moves_from_line(start, "e4 e5 Ke3 Nf3", 0, moves, 8, &count, &index), CHESS_ERR_ILLEGAL_MOVE);
    CHECK(index == 2 && count == 99 && moves[0] == 0xbeef);
    CHECK_ERR(chess_moves_from_line(start, "e4 e5 xx", 0, moves, 8, &count, &index), CHESS_ERR_SAN_SYNTAX);
    CHECK(index == 2);
    CHECK_ERR(chess_moves_from_line(start, "e2e2", 0, moves, 8, &count, &index), CHESS_ERR_SAN_SYNTAX);
    CHECK(index == 0);
    CHECK_ERR(chess_moves_from_line(start, "e4 e5 Nc3 Nc6 Ne2", 0, moves, 8, &count, &index), CHESS_ERR_SAN_AMBIGUOUS);
    CHECK(index == 4);
    CHECK_ERR(chess_moves_from_line(start, "e4 e5 Ngf3", CHESS_SAN_STRICT, moves, 8, &count, &index),
              CHESS_ERR_SAN_NOT_CANONICAL);
    CHECK(index == 2);
    CHECK_ERR(chess_moves_from_line(start, "e4 0000 d4", 0, moves, 8, &count, &index), CHESS_ERR_ILLEGAL_MOVE);
    CHECK(index == 1 && count == 99 && moves[0] == 0xbeef);
    CHECK_ERR(chess_moves_from_line(start, "e4 e5", 0, moves, 8, &count, NULL), CHESS_OK);

    /* Null moves with CHESS_SAN_ALLOW_NULL, in SAN or UCI spelling; never in check. */
    CHECK_ERR(chess_moves_from_line(start, "e4 0000 d4 -- Nf3", CHESS_SAN_ALLOW_NULL, moves, 8, &count, NULL),
              CHESS_OK);
    CHECK(count == 5 && moves[1] == CHESS_MOVE_NONE && moves[3] == CHESS_MOVE_NONE);
    CHECK(chess_move_from_square(moves[2]) == 11 && chess_move_to_square(moves[2]) == 27);
    CHECK_ERR(chess_moves_from_line(check, "--", CHESS_SAN_ALLOW_NULL, moves, 8, &count, &index),
              CHESS_ERR_ILLEGAL_MOVE);
    CHECK(index == 0);

    /* Arguments: nothing is written. */
    count = 99;
    index = 99;
    moves[0] = 0xbeef;
    CHECK_ERR(chess_moves_from_line(start, "e4", 8, moves, 8, &count, &index), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_moves_from_line(start, "e4 \xc3\xa9", 0, moves, 8, &count, &index), CHESS_ERR_INVALID_TEXT);
    CHECK_ERR(chess_moves_from_line(NULL, "e4", 0, moves, 8, &count, &index), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_moves_from_line(start, NULL, 0, moves, 8, &count, &index), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_moves_from_line(start, "e4", 0, NULL, 8, &count, &index), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_moves_from_line(start, "e4", 0, moves, 8, NULL, &index), CHESS_ERR_NULL_POINTER);
    CHECK(count == 99 && index == 99 && moves[0] == 0xbeef);

    chess_position_free(start);
    chess_position_free(check);
}

/* SAN of every legal move of `pos` read back, leniently and strictly; returns the move count. */
static size_t round_trip(const chess_position *pos, const char *fen) {
    chess_move moves[CHESS_MAX_MOVES];
    size_t n = chess_legal_moves(pos, moves, CHESS_MAX_MOVES);
    size_t i;
    for (i = 0; i < n; i++) {
        char san[CHESS_SAN_MAX];
        size_t len = 0;
        chess_move lenient = 0;
        chess_move strict = 0;
        chess_move line[2];
        size_t count = 0;
        int ok = chess_move_to_san(pos, moves[i], san, sizeof san, &len) == CHESS_OK && len < CHESS_SAN_MAX &&
                 chess_move_from_san(pos, san, &lenient) == CHESS_OK && lenient == moves[i] &&
                 chess_move_from_san_with(pos, san, CHESS_SAN_STRICT, &strict) == CHESS_OK && strict == moves[i] &&
                 chess_moves_from_line(pos, san, CHESS_SAN_STRICT, line, 2, &count, NULL) == CHESS_OK &&
                 count == 1 && line[0] == moves[i];
        checks++;
        if (!ok) {
            failures++;
            fprintf(stderr, "%s: move %u (SAN %s) does not round-trip\n", fen, moves[i], san);
        }
    }
    return n;
}

/* Every position of a perft file (its FEN is the text before " ;"). */
static int round_trip_file(const char *dir, const char *name) {
    char line[512];
    int positions = 0;
    FILE *file = open_testdata(dir, name);
    if (file == NULL) {
        return 0;
    }
    while (fgets(line, sizeof line, file) != NULL) {
        char *end = strstr(line, " ;");
        chess_position *pos = NULL;
        chess_error err;
        if (end == NULL) {
            continue;
        }
        *end = '\0';
        /* The random placements include checks no move could give, which FEN reading refuses. */
        err = parse_new(line, 0, &pos);
        CHECK(err == CHESS_OK || err == CHESS_ERR_FEN_IMPOSSIBLE_CHECK);
        if (err == CHESS_OK) {
            round_trip(pos, line);
            positions++;
            chess_position_free(pos);
        }
    }
    fclose(file);
    return positions;
}

static void test_round_trip(void) {
    if (shared_testdata != NULL) {
        CHECK(round_trip_file(shared_testdata, "perft/perftsuite.epd") >= 100);
    }
    CHECK(round_trip_file(testdata, "perft/cpw6.epd") >= 6);
    CHECK(round_trip_file(testdata, "perft/dev_random.epd") >= 40);
}

int main(int argc, char **argv) {
    static const chess_error owned[] = {CHESS_ERR_SAN_SYNTAX, CHESS_ERR_SAN_AMBIGUOUS, CHESS_ERR_SAN_NOT_CANONICAL};
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s TESTDATA_DIR [THIRD_PARTY_TESTDATA_DIR]\n", argv[0]);
        return 2;
    }
    testdata = argv[1];
    shared_testdata = argc == 3 ? argv[2] : NULL;
    test_write();
    test_read();
    test_line();
    test_round_trip();
    check_codes_seen(owned, sizeof owned / sizeof owned[0]);
    return report("c san");
}
