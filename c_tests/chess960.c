/* Chess960 through the C API: reading X-FEN and Shredder-FEN, writing either, start positions by
 * Scharnagl number, castling in UCI (king takes rook) and SAN, the mode query, and perft of every
 * position of perft/dev_chess960.epd.
 *
 * usage: chess960 TESTDATA_DIR NODE_LIMIT   (depth 4 only where it has at most NODE_LIMIT
 * leaves; depths 1 to 3 always) */

#include "common.h"

#define STANDARD_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

static const char *testdata;
static unsigned long long node_limit;

static chess_position *parse960(const char *fen) {
    chess_position *pos = NULL;
    chess_error err = parse_new(fen, CHESS_FEN_CHESS960, &pos);
    if (err != CHESS_OK) {
        fprintf(stderr, "cannot parse %s: %s\n", fen, chess_error_message(err));
        exit(2);
    }
    return pos;
}

static int fen_as(const chess_position *pos, uint32_t flags, const char *expected) {
    char buf[CHESS_FEN_MAX];
    if (seen_code(chess_fen_write_with(pos, flags, buf, sizeof buf, NULL)) != CHESS_OK) {
        return 0;
    }
    if (strcmp(buf, expected) != 0) {
        fprintf(stderr, "FEN %s, expected %s\n", buf, expected);
        return 0;
    }
    return 1;
}

/* UCI in the position's convention: king-takes-rook castling in Chess960. */
static int uci_in_is(const chess_position *pos, chess_move mv, const char *expected) {
    char buf[8];
    size_t len = 0;
    uint32_t flags = chess_position_is_chess960(pos) ? CHESS_UCI_KING_TAKES_ROOK : 0;
    return seen_code(chess_move_to_uci_with(mv, flags, buf, sizeof buf, &len)) == CHESS_OK &&
           strcmp(buf, expected) == 0 && len == strlen(expected);
}

static int san_is(const chess_position *pos, chess_move mv, const char *expected) {
    char buf[CHESS_SAN_MAX];
    return seen_code(chess_move_to_san(pos, mv, buf, sizeof buf, NULL)) == CHESS_OK && strcmp(buf, expected) == 0;
}

static void test_start_positions(void) {
    chess_position *standard = chess_position_new();
    chess_position *moved = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    char fen[CHESS_FEN_MAX];
    uint32_t n;

    for (n = 0; n < 960; n++) {
        chess_position pos;
        chess_position reread;
        checks++;
        if (chess_position_init_chess960(&pos, n) != CHESS_OK || !chess_position_is_chess960(&pos) ||
            chess_position_chess960_number(&pos) != (int32_t)n || chess_fen_write(&pos, fen, sizeof fen, NULL) != CHESS_OK ||
            chess_fen_parse_with(fen, CHESS_FEN_CHESS960, &reread, NULL) != CHESS_OK ||
            chess_position_zobrist(&reread) != chess_position_zobrist(&pos) ||
            chess_position_chess960_number(&reread) != (int32_t)n || chess_perft(&pos, 2) != chess_perft(&reread, 2)) {
            failures++;
            fprintf(stderr, "start position %u\n", (unsigned)n);
        }
    }
    {
        chess_position first, last, usual, kept;
        CHECK_ERR(chess_position_init_chess960(&first, 0), CHESS_OK);
        CHECK_ERR(chess_position_init_chess960(&last, 959), CHESS_OK);
        CHECK_ERR(chess_position_init_chess960(&usual, 518), CHESS_OK);
        CHECK(fen_is(&first, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"));
        CHECK(fen_is(&last, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"));
        CHECK(fen_as(&last, CHESS_FEN_WRITE_SHREDDER, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1"));
        CHECK(fen_is(&usual, STANDARD_START) && chess_perft(&usual, 3) == 8902);
        kept = usual;
        CHECK_ERR(chess_position_init_chess960(&usual, 960), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_ERR(chess_position_init_chess960(&usual, 4294967295u), CHESS_ERR_INVALID_ARGUMENT);
        CHECK(memcmp(&kept, &usual, sizeof kept) == 0);
    }
    /* Numbers tell the arrangement, whatever the mode; -1 where there is none. */
    CHECK(chess_position_chess960_number(standard) == 518 && !chess_position_is_chess960(standard));
    CHECK(chess_position_chess960_number(moved) == -1);
    CHECK(chess_position_chess960_number(NULL) == -1 && !chess_position_is_chess960(NULL));
    chess_position_free(standard);
    chess_position_free(moved);
}

static void test_fen(void) {
    /* An inner rook needs its file letter in X-FEN; Shredder-FEN always names files. */
    chess_position *inner = parse960("4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1");
    chess_position *standard = parse(STANDARD_START);
    char buf[CHESS_FEN_MAX];
    size_t len = 0;

    CHECK(chess_position_is_chess960(inner));
    CHECK(fen_is(inner, "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1"));
    CHECK(fen_as(inner, CHESS_FEN_WRITE_XFEN, "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1"));
    CHECK(fen_as(inner, CHESS_FEN_WRITE_SHREDDER, "4k3/8/8/8/8/8/8/RR2K2R w HB - 0 1"));
    CHECK(fen_as(inner, 0, "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1"));
    /* A standard position in each dialect. */
    CHECK(fen_as(standard, 0, STANDARD_START));
    CHECK(fen_as(standard, CHESS_FEN_WRITE_XFEN, STANDARD_START));
    CHECK(fen_as(standard, CHESS_FEN_WRITE_EP_AS_RECORDED | CHESS_FEN_WRITE_SHREDDER,
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"));

    /* chess_fen_write_with arguments. */
    strcpy(buf, "same");
    CHECK_ERR(chess_fen_write_with(standard, CHESS_FEN_WRITE_XFEN | CHESS_FEN_WRITE_SHREDDER, buf, sizeof buf, &len),
              CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_fen_write_with(standard, 32, buf, sizeof buf, &len), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_fen_write_with(standard, CHESS_FEN_WRITE_SHREDDER, buf, 10, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == strlen(STANDARD_START) && strcmp(buf, "same") == 0);
    CHECK_ERR(chess_fen_write_with(standard, CHESS_FEN_WRITE_SHREDDER, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_fen_write_with(standard, 0, NULL, 5, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_fen_write_with(NULL, 0, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK(strcmp(buf, "same") == 0);

    /* Reading: castling rights must name a rook on the king's rank; errors carry offsets. */
    {
        chess_position value;
        chess_fen_info info;
        info.size = sizeof info;
        info.error_offset = 99;
        CHECK_ERR(chess_fen_parse_with("4k3/8/8/8/8/8/8/RR2K2R w KC - 0 1", CHESS_FEN_CHESS960, &value, &info),
                  CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
        CHECK(info.error_offset == 26);
        CHECK_ERR(chess_fen_parse_with("4k3/8/8/8/8/8/8/RR2K2R w KX - 0 1", CHESS_FEN_CHESS960, &value, &info),
                  CHESS_ERR_FEN_CASTLING);
        CHECK_ERR(chess_fen_parse_with("4k3/8/8/8/8/8/8/RR2K2R w KB - 0", CHESS_FEN_CHESS960, &value, NULL), CHESS_OK);
        CHECK(fen_is(&value, "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1") && chess_position_is_chess960(&value));
    }
    /* Standard reading refuses rights it cannot express. */
    {
        chess_position value;
        chess_position_init(&value);
        CHECK_ERR(chess_fen_parse_into("4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1", &value), CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
        CHECK(fen_is(&value, STANDARD_START));
    }
    chess_position_free(inner);
    chess_position_free(standard);
}

static void test_castling(void) {
    /* King on b1 between its rooks; king on g1 already on its king-side destination. */
    chess_position *pos = parse960("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1");
    chess_position *edge = parse960("4k3/8/8/8/8/8/8/R5KR w KQ - 0 1");
    chess_position *line_start = chess_position_clone(pos);
    chess_game *game = chess_game_new(pos);
    chess_move long_castle = uci(pos, "b1a1");
    chess_move short_castle = uci(pos, "b1h1");
    chess_move moves[4];
    size_t count = 0;
    char buf[8];

    CHECK(chess_move_kind_of(long_castle) == CHESS_MOVE_CASTLING);
    CHECK(chess_move_kind_of(short_castle) == CHESS_MOVE_CASTLING);
    CHECK(uci_in_is(pos, long_castle, "b1a1") && uci_in_is(pos, short_castle, "b1h1"));
    CHECK(san_is(pos, long_castle, "O-O-O") && san_is(pos, short_castle, "O-O"));
    /* The standard convention names the king's destination, and there "b1c1" is a king move. */
    CHECK_ERR(chess_move_to_uci(long_castle, buf, sizeof buf, NULL), CHESS_OK);
    CHECK(strcmp(buf, "b1c1") == 0);
    CHECK(chess_move_kind_of(uci(pos, "b1c1")) == CHESS_MOVE_NORMAL);
    CHECK_ERR(chess_position_play(pos, long_castle), CHESS_OK);
    CHECK(fen_is(pos, "rk5r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1"));
    CHECK(uci_in_is(pos, uci(pos, "b8h8"), "b8h8"));

    /* The king stays on g1 for O-O; only the rook moves. */
    CHECK(uci_in_is(edge, uci(edge, "g1h1"), "g1h1") && san_is(edge, uci(edge, "g1h1"), "O-O"));
    CHECK(uci_in_is(edge, uci(edge, "g1a1"), "g1a1") && san_is(edge, uci(edge, "g1a1"), "O-O-O"));
    CHECK_ERR(chess_position_play(edge, uci(edge, "g1h1")), CHESS_OK);
    CHECK(fen_is(edge, "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"));

    /* Lines and games read both notations. */
    CHECK_ERR(chess_moves_from_line(line_start, "b1h1 O-O-O", 0, moves, 4, &count, NULL), CHESS_OK);
    CHECK(count == 2 && moves[0] == short_castle && chess_move_kind_of(moves[1]) == CHESS_MOVE_CASTLING);
    CHECK_ERR(chess_game_push_san(game, "O-O-O", NULL), CHESS_OK);
    CHECK_ERR(chess_game_push_uci(game, "b8h8", NULL), CHESS_OK);
    CHECK(fen_is(chess_game_position(game), "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/2KR3R w - - 2 2"));
    CHECK(chess_position_is_chess960(chess_game_position(game)));

    /* UCI in standard chess, and the arguments of chess_move_to_uci_with. */
    {
        chess_position *standard = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        size_t len = 0;
        CHECK(uci_in_is(standard, uci(standard, "e1h1"), "e1g1"));
        CHECK(uci_in_is(standard, CHESS_MOVE_NONE, "0000"));
        strcpy(buf, "same");
        CHECK_ERR(chess_move_to_uci_with(0x8000 | 12 | 28 << 6, 0, buf, sizeof buf, &len), CHESS_ERR_INVALID_MOVE);
        CHECK_ERR(chess_move_to_uci_with(long_castle, 2, buf, sizeof buf, &len), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_ERR(chess_move_to_uci_with(long_castle, CHESS_UCI_KING_TAKES_ROOK, buf, 4, &len),
                  CHESS_ERR_BUFFER_TOO_SMALL);
        CHECK(len == 4 && strcmp(buf, "same") == 0);
        CHECK_ERR(chess_move_to_uci_with(long_castle, 0, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
        CHECK_ERR(chess_move_to_uci_with(long_castle, 0, NULL, 5, &len), CHESS_ERR_NULL_POINTER);
        CHECK(strcmp(buf, "same") == 0);
        chess_position_free(standard);
    }
    chess_game_free(game);
    chess_position_free(pos);
    chess_position_free(edge);
    chess_position_free(line_start);
}

static void test_epd(void) {
    static const char *line = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - bm O-O-O;";
    chess_epd *epd = NULL;
    chess_move moves[2];
    char buf[128];
    CHECK_ERR(chess_epd_parse_with(line, CHESS_FEN_CHESS960, &epd), CHESS_OK);
    CHECK(chess_position_is_chess960(chess_epd_position(epd)));
    CHECK(chess_epd_moves(epd, "bm", moves, 2) == 1 && chess_move_kind_of(moves[0]) == CHESS_MOVE_CASTLING);
    CHECK(uci_in_is(chess_epd_position(epd), moves[0], "b1a1"));
    CHECK_ERR(chess_epd_write(epd, buf, sizeof buf, NULL), CHESS_OK);
    CHECK(strcmp(buf, "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - bm O-O-O;") == 0);
    chess_epd_free(epd);
    epd = NULL;
    CHECK_ERR(chess_epd_parse(line, &epd), CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
    CHECK(epd == NULL);
}

/* Every position of dev_chess960.epd: read, written back in its own dialect, and counted. */
static void test_perft(void) {
    char line[512];
    int positions = 0;
    int depth4 = 0;
    FILE *file = open_testdata(testdata, "perft/dev_chess960.epd");
    if (file == NULL) {
        return;
    }
    while (fgets(line, sizeof line, file) != NULL) {
        char *field = strstr(line, " ;");
        chess_position *pos = NULL;
        if (field == NULL) {
            continue;
        }
        *field = '\0';
        CHECK_ERR(parse_new(line, CHESS_FEN_CHESS960, &pos), CHESS_OK);
        if (pos == NULL) {
            continue;
        }
        positions++;
        CHECK(chess_position_is_chess960(pos));
        CHECK(fen_as(pos, CHESS_FEN_WRITE_EP_AS_RECORDED | CHESS_FEN_WRITE_SHREDDER, line));
        for (field = strchr(field + 1, ';'); field != NULL; field = strchr(field + 1, ';')) {
            unsigned depth;
            unsigned long long expected;
            uint64_t nodes;
            if (sscanf(field, ";D%u %llu", &depth, &expected) != 2 || depth > 4 || (depth == 4 && expected > node_limit)) {
                continue;
            }
            depth4 += depth == 4;
            nodes = chess_perft(pos, depth);
            checks++;
            if (nodes != expected) {
                failures++;
                fprintf(stderr, "%s depth %u: %llu, expected %llu\n", line, depth, (unsigned long long)nodes, expected);
            }
        }
        chess_position_free(pos);
    }
    fclose(file);
    CHECK(positions == 40);
    printf("dev_chess960.epd: %d positions to depth 3, %d of them to depth 4\n", positions, depth4);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s TESTDATA_DIR NODE_LIMIT\n", argv[0]);
        return 2;
    }
    testdata = argv[1];
    node_limit = strtoull(argv[2], NULL, 10);
    test_start_positions();
    test_fen();
    test_castling();
    test_epd();
    test_perft();
    return report("c chess960");
}
