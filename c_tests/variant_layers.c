/* Variant positions in EPD records and pictures through the C API: crazyhouse and three-check
 * EPD lines read, lent and written back (drops in bm and pv, pockets, the counter field), what
 * the chess functions say of a variant record, the variant SVG (pockets, check counters, the
 * check glow, the options checked as for chess), NULL, garbage and over-long arguments, and
 * random lines that must either fail or write back to a line that reads the same.
 *
 * usage: variant_layers [ROUNDS]   (of garbage, 20000 by default) */

#include "common.h"

enum { E2 = 12, D4 = 27 };

static const char *const ZH = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] w KQkq -";

static chess_epd *parse_variant(chess_variant variant, const char *line) {
    chess_epd *epd = NULL;
    CHECK_ERR(chess_epd_parse_variant(variant, line, &epd), CHESS_OK);
    CHECK(epd != NULL);
    return epd;
}

static const char *line_of(const chess_epd *epd) {
    static char buf[1024];
    CHECK_ERR(chess_epd_write(epd, buf, sizeof buf, NULL), CHESS_OK);
    return buf;
}

static const char *fen_of(const chess_variant_position *pos) {
    static char buf[1024];
    CHECK_ERR(chess_variant_position_fen(pos, buf, sizeof buf, NULL), CHESS_OK);
    return buf;
}

static void test_crazyhouse_record(void) {
    char line[256];
    chess_epd *epd;
    const chess_variant_position *pos;
    chess_move moves[4], mv = 0;
    int64_t clock = 0;
    sprintf(line, "%s bm Q@e2; pv Q@e2 @d4; hmvc 2; fmvn 3;", ZH);
    epd = parse_variant(CHESS_VARIANT_CRAZYHOUSE, line);
    CHECK(strcmp(line_of(epd), line) == 0);
    pos = chess_epd_variant_position(epd);
    CHECK(pos != NULL && chess_epd_variant_position(epd) == pos);
    CHECK(chess_variant_position_variant(pos) == CHESS_VARIANT_CRAZYHOUSE);
    CHECK(strcmp(fen_of(pos), "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] w KQkq - 2 3") == 0);
    CHECK(chess_variant_position_pocket(pos, CHESS_WHITE, CHESS_QUEEN) == 1);
    /* Not a chess position: the chess accessor has none to lend. */
    CHECK(chess_epd_position(epd) == NULL);
    CHECK(chess_epd_moves(epd, "bm", moves, 4) == 1);
    CHECK(moves[0] == (chess_move)(0x8000 | 4 << 12 | E2 << 6 | E2));
    CHECK_ERR(chess_variant_position_parse_san(pos, "Q@e2", &mv), CHESS_OK);
    CHECK(mv == moves[0]);
    CHECK(chess_epd_moves(epd, "pv", moves, 4) == 2);
    CHECK(moves[1] == (chess_move)(0x8000 | 0 << 12 | D4 << 6 | D4));
    CHECK_ERR(chess_epd_operand_move(epd, "pv", 1, &mv), CHESS_OK);
    CHECK(mv == moves[1]);
    CHECK_ERR(chess_epd_operand_integer(epd, "fmvn", 0, &clock), CHESS_OK);
    CHECK(clock == 3 && chess_epd_operation_count(epd) == 4);
    chess_epd_free(epd);

    /* lichess's ninth row and a promoted piece; a pawn drop named P@ is written @. */
    epd = parse_variant(CHESS_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K2Q~/Np b - - bm P@d2;");
    CHECK(strcmp(line_of(epd), "4k3/8/8/8/8/8/8/4K2Q~[Np] b - - bm @d2+;") == 0);
    chess_epd_free(epd);
}

static void test_three_check_and_chess_records(void) {
    const char *tc = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -";
    char line[256];
    chess_epd *epd;
    sprintf(line, "%s 2+1 bm Bc4; hmvc 4;", tc);
    epd = parse_variant(CHESS_VARIANT_THREE_CHECK, line);
    CHECK(strcmp(line_of(epd), line) == 0);
    CHECK(chess_variant_position_remaining_checks(chess_epd_variant_position(epd), CHESS_WHITE) == 2);
    CHECK(strcmp(fen_of(chess_epd_variant_position(epd)), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+1 4 1") == 0);
    chess_epd_free(epd);
    /* Without the counter: three checks each, written back with it. */
    sprintf(line, "%s id \"x\";", tc);
    epd = parse_variant(CHESS_VARIANT_THREE_CHECK, line);
    sprintf(line, "%s 3+3 id \"x\";", tc);
    CHECK(strcmp(line_of(epd), line) == 0);
    chess_epd_free(epd);

    /* Chess through the variant reader lends both positions; a chess record no variant one. */
    epd = parse_variant(CHESS_VARIANT_CHESS, "4k3/8/8/8/8/8/8/R3K3 w Q - bm O-O-O+;");
    CHECK(chess_epd_position(epd) != NULL && chess_epd_variant_position(epd) != NULL);
    CHECK(fen_is(chess_epd_position(epd), "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"));
    chess_epd_free(epd);
    CHECK_ERR(chess_epd_parse("4k3/8/8/8/8/8/8/R3K3 w Q - bm O-O-O+;", &epd), CHESS_OK);
    CHECK(chess_epd_variant_position(epd) == NULL);
    chess_epd_free(epd);
}

static void test_refused(void) {
    static const struct {
        chess_variant variant;
        const char *line;
        chess_error code;
    } cases[] = {
        {CHESS_VARIANT_ATOMIC, "4k3/8/8/8/8/8/8/4K3[Q] w - -", CHESS_ERR_VARIANT_POCKET},
        {CHESS_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[K] w - -", CHESS_ERR_VARIANT_POCKET},
        {CHESS_VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 4+0 bm Kd1;", CHESS_ERR_VARIANT_CHECKS},
        {CHESS_VARIANT_ATOMIC, "4k3/8/8/8/8/8/8/4K3 w - - 2+2", CHESS_ERR_EPD_OPCODE},
        {CHESS_VARIANT_KING_OF_THE_HILL, "8/8/8/8/8/8/8/4K3 w - -", CHESS_ERR_VARIANT_KINGS},
        {CHESS_VARIANT_HORDE, "4k3/8/8/8/8/8/8/4K2X w - -", CHESS_ERR_FEN_PIECE_LETTER},
        {CHESS_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[] w - - bm N@d4;", CHESS_ERR_ILLEGAL_MOVE},
        {CHESS_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[N] w - - bm N@d9;", CHESS_ERR_SAN_SYNTAX},
        {CHESS_VARIANT_RACING_KINGS, "8/8/8/8/8/8/8/k6K w -", CHESS_OK},
        {CHESS_VARIANT_RACING_KINGS, "8/8/8/8/8/8/8/k6K w", CHESS_ERR_EPD_MISSING_FIELDS},
        {CHESS_VARIANT_ANTICHESS, "8/8/8/8/8/8/8/k6K w - - c0 \"open", CHESS_ERR_EPD_UNTERMINATED_STRING},
        {CHESS_VARIANT_ANTICHESS, "8/8/8/8/8/8/8/k6K w - - hmvc -1;", CHESS_ERR_EPD_INVALID_OPERAND},
        {CHESS_VARIANT_CHESS960, "8/8/8/8/8/8/8/k6K w - - \xff;", CHESS_ERR_INVALID_TEXT},
    };
    size_t i;
    chess_epd *kept = (chess_epd *)&kept;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        chess_epd *epd = kept;
        chess_error err = chess_epd_parse_variant(cases[i].variant, cases[i].line, &epd);
        CHECK_ERR(err, cases[i].code);
        if (err == CHESS_OK) {
            chess_epd_free(epd);
        } else {
            CHECK(epd == kept);
        }
    }
    {
        chess_epd *epd = kept;
        CHECK_ERR(chess_epd_parse_variant(CHESS_VARIANT_CRAZYHOUSE, NULL, &epd), CHESS_ERR_NULL_POINTER);
        CHECK_ERR(chess_epd_parse_variant(CHESS_VARIANT_CRAZYHOUSE, ZH, NULL), CHESS_ERR_NULL_POINTER);
        CHECK_ERR(chess_epd_parse_variant(9, ZH, &epd), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_ERR(chess_epd_parse_variant(255, ZH, &epd), CHESS_ERR_INVALID_ARGUMENT);
        CHECK(epd == kept);
    }
    CHECK(chess_epd_variant_position(NULL) == NULL);
    /* Over-long: a pocket of thousands of pieces, a line of a megabyte. */
    {
        size_t big = 1 << 20;
        char *line = malloc(big + 64);
        chess_epd *epd = kept;
        CHECK(line != NULL);
        strcpy(line, "4k3/8/8/8/8/8/8/4K3[");
        memset(line + strlen(line), 'N', 4000);
        strcpy(line + 20 + 4000, "] w - -");
        CHECK_ERR(chess_epd_parse_variant(CHESS_VARIANT_CRAZYHOUSE, line, &epd), CHESS_ERR_FEN_TOO_LONG);
        sprintf(line, "%s c0 \"", ZH);
        memset(line + strlen(line), 'x', big - 200);
        strcpy(line + strlen(ZH) + 5 + big - 200, "\";");
        CHECK_ERR(chess_epd_parse_variant(CHESS_VARIANT_CRAZYHOUSE, line, &epd), CHESS_OK);
        if (epd != kept) {
            size_t len = 0;
            CHECK_ERR(chess_epd_write(epd, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
            CHECK(len == strlen(line));
            chess_epd_free(epd);
        }
        free(line);
    }
}

static void test_svg(void) {
    static char svg[65536], chess_svg[65536];
    size_t len = 0, needed = 0;
    chess_variant_position *zh = NULL, *three = NULL, *chess = NULL, *anti = NULL;
    chess_position board;
    chess_svg_options options;
    chess_svg_arrow arrow = {E2, D4, 0};
    char fen[256];
    CHECK_ERR(chess_variant_position_new(CHESS_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K2Q~[NNp] w - - 0 1", &zh), CHESS_OK);
    CHECK_ERR(chess_variant_position_to_svg(zh, NULL, svg, sizeof svg, &len), CHESS_OK);
    CHECK(len == strlen(svg) && strncmp(svg, "<svg ", 5) == 0);
    CHECK(strstr(svg, "chess:pocket=\"w\" chess:piece=\"N\" chess:count=\"2\"") != NULL);
    CHECK(strstr(svg, "chess:pocket=\"b\" chess:piece=\"p\" chess:count=\"1\"") != NULL);
    CHECK(strstr(svg, "chess:promoted=\"h1\"") != NULL);
    CHECK(strstr(svg, "4k3/8/8/8/8/8/8/4K2Q~[NNp] w - - 0 1") != NULL);

    /* Three-check in check: the counters, and the glow only when asked for. */
    CHECK_ERR(chess_variant_position_new(CHESS_VARIANT_THREE_CHECK, "4k2R/8/8/8/8/8/8/4K3 b - - 1+3 0 1", &three), CHESS_OK);
    CHECK(chess_variant_position_is_check(three));
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    CHECK_ERR(chess_variant_position_to_svg(three, &options, svg, sizeof svg, NULL), CHESS_OK);
    CHECK(strstr(svg, "chess:checks=\"w\" chess:remaining=\"1\"") != NULL);
    CHECK(strstr(svg, "chess:checks=\"b\" chess:remaining=\"3\"") != NULL);
    {
        size_t plain = strlen(svg);
        options.flags = CHESS_SVG_MARK_CHECK;
        CHECK_ERR(chess_variant_position_to_svg(three, &options, svg, sizeof svg, NULL), CHESS_OK);
        CHECK(strlen(svg) > plain);
    }
    /* Antichess has no check: the flag marks nothing. */
    CHECK_ERR(chess_variant_position_new(CHESS_VARIANT_ANTICHESS, "4k2R/8/8/8/8/8/8/4K3 b - - 0 1", &anti), CHESS_OK);
    {
        size_t marked;
        CHECK_ERR(chess_variant_position_to_svg(anti, &options, svg, sizeof svg, &marked), CHESS_OK);
        options.flags = 0;
        CHECK_ERR(chess_variant_position_to_svg(anti, &options, svg, sizeof svg, &len), CHESS_OK);
        CHECK(marked == len);
    }

    /* A chess variant position draws as the chess position does, options and all. */
    CHECK_ERR(chess_variant_position_new(CHESS_VARIANT_CHESS, NULL, &chess), CHESS_OK);
    chess_position_init(&board);
    options.flags = CHESS_SVG_FLIPPED | CHESS_SVG_NO_COORDINATES;
    options.pixels = 240;
    options.arrows = &arrow;
    options.arrow_count = 1;
    CHECK_ERR(chess_variant_position_to_svg(chess, &options, svg, sizeof svg, NULL), CHESS_OK);
    CHECK_ERR(chess_position_to_svg(&board, &options, chess_svg, sizeof chess_svg, NULL), CHESS_OK);
    CHECK(strcmp(svg, chess_svg) == 0);

    /* Buffers and arguments, as for chess. */
    CHECK_ERR(chess_variant_position_to_svg(zh, NULL, NULL, 0, &needed), CHESS_ERR_BUFFER_TOO_SMALL);
    strcpy(fen, "untouched");
    CHECK_ERR(chess_variant_position_to_svg(zh, NULL, fen, 10, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == needed && strcmp(fen, "untouched") == 0);
    CHECK_ERR(chess_variant_position_to_svg(NULL, NULL, svg, sizeof svg, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_to_svg(zh, NULL, NULL, 10, NULL), CHESS_ERR_NULL_POINTER);
    options.arrows = NULL;
    CHECK_ERR(chess_variant_position_to_svg(zh, &options, svg, sizeof svg, NULL), CHESS_ERR_NULL_POINTER);
    options.arrows = &arrow;
    options.size = sizeof options - 1;
    CHECK_ERR(chess_variant_position_to_svg(zh, &options, svg, sizeof svg, NULL), CHESS_ERR_INVALID_ARGUMENT);
    options.size = sizeof options;
    options.flags = 1u << 20;
    CHECK_ERR(chess_variant_position_to_svg(zh, &options, svg, sizeof svg, NULL), CHESS_ERR_INVALID_ARGUMENT);
    options.flags = 0;
    arrow.to = 64;
    CHECK_ERR(chess_variant_position_to_svg(zh, &options, svg, sizeof svg, NULL), CHESS_ERR_INVALID_ARGUMENT);

    chess_variant_position_free(zh);
    chess_variant_position_free(three);
    chess_variant_position_free(anti);
    chess_variant_position_free(chess);
}

/* Random lines (mutations of good ones and noise) for every variant value: an error, or a
 * record that writes a line reading back to the same line. */
static void test_garbage(int rounds) {
    static const char *const lines[] = {
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] w KQkq - bm Q@e2; pv Q@e2 @d4;",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+1 bm Bc4; id \"x\";",
        "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - bm Kg3; c0 \"race\";",
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - am e5; acd 3;",
    };
    unsigned seed = 4242;
    int round, read = 0;
    char line[256], again[1024];
    for (round = 0; round < rounds; round++) {
        chess_variant variant = (chess_variant)(round % 10);
        chess_epd *epd = NULL;
        size_t len, i;
        strcpy(line, lines[round % 4]);
        len = strlen(line);
        for (i = 0; i < 1 + (size_t)(round % 5); i++) {
            seed = seed * 1103515245u + 12345u;
            if (round % 3) {
                line[(seed >> 8) % len] = " /[]~+;\"0123456789KQRBNPkqrbnp-w@"[(seed >> 16) % 33];
            } else {
                line[(seed >> 8) % len] = (char)((seed >> 16) & 0xff);
            }
        }
        if (chess_epd_parse_variant(variant, line, &epd) == CHESS_OK) {
            chess_epd *back = NULL;
            read++;
            CHECK(chess_epd_variant_position(epd) != NULL);
            CHECK_ERR(chess_epd_write(epd, again, sizeof again, NULL), CHESS_OK);
            CHECK_ERR(chess_epd_parse_variant(variant, again, &back), CHESS_OK);
            CHECK(back != NULL && strcmp(line_of(back), again) == 0);
            chess_epd_free(back);
            chess_epd_free(epd);
        }
    }
    CHECK(read > 0 && read < rounds);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 20000;
    test_crazyhouse_record();
    test_three_check_and_chess_records();
    test_refused();
    test_svg();
    test_garbage(rounds > 0 ? rounds : 1);
    return report("c variant layers");
}
