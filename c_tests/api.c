/* The core functions of the C API from plain C99: results, error codes, NULL arguments, short
 * buffers, and the rule that a failed call leaves its outputs and the position untouched. The
 * other programs test the other parts (san.c, game.c, epd.c, chess960.c); the message of every
 * code is tested here.
 *
 * usage: api TESTDATA_DIR WORK_DIR   (WORK_DIR: a writable directory for temporary files) */

#include "common.h"

static const char *testdata;
static const char *workdir;

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

static int popcount(uint64_t bits) {
    int n = 0;
    for (; bits; bits &= bits - 1) {
        n++;
    }
    return n;
}

static uint64_t bit(int square) {
    return (uint64_t)1 << square;
}

static void test_version(void) {
    char expected[64];
    CHECK(strcmp(chess_version(), CHESS_VERSION_STRING) == 0);
    sprintf(expected, "%d.%d.%d", CHESS_VERSION_MAJOR, CHESS_VERSION_MINOR, CHESS_VERSION_PATCH);
    CHECK(strcmp(expected, CHESS_VERSION_STRING) == 0);
    CHECK(CHESS_VERSION_NUMBER == CHESS_VERSION_MAJOR * 10000 + CHESS_VERSION_MINOR * 100 + CHESS_VERSION_PATCH);
    CHECK(chess_version_number() == CHESS_VERSION_NUMBER);
}

/* Positions by value: a complete type of fixed size and alignment, copied with `=`, in arrays, on
 * the stack; every function takes them as it takes heap handles. */
struct align_probe {
    char c;
    chess_position pos;
};

static uint64_t stack_perft(chess_position *stack, unsigned depth) {
    chess_move moves[CHESS_MAX_MOVES];
    uint64_t nodes = 0;
    size_t n, i;
    if (depth == 0) {
        return 1;
    }
    n = chess_legal_moves(&stack[0], moves, CHESS_MAX_MOVES);
    for (i = 0; i < n; i++) {
        chess_position_play_into(&stack[0], moves[i], &stack[1]);
        nodes += stack_perft(stack + 1, depth - 1);
    }
    return nodes;
}

static void test_positions_by_value(void) {
    chess_position stack[8];
    chess_position a, b, c960;
    chess_move e4 = 0;
    CHECK(sizeof(chess_position) == 128 && offsetof(struct align_probe, pos) == 8);
    chess_position_init(&a);
    CHECK(fen_is(&a, START));
    b = a;
    CHECK(chess_position_zobrist(&b) == chess_position_zobrist(&a) && chess_legal_moves(&b, NULL, 0) == 20);
    CHECK_ERR(chess_move_from_uci(&a, "e2e4", &e4), CHESS_OK);
    CHECK_ERR(chess_position_play(&b, e4), CHESS_OK);
    CHECK(fen_is(&a, START) && fen_is(&b, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    /* Copy-make: into another position, into itself, and into one never initialised. */
    chess_position_play_into(&a, e4, &c960);
    CHECK(chess_position_zobrist(&c960) == chess_position_zobrist(&b));
    chess_position_play_into(&a, e4, &a);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    chess_position_play_into(&a, 0xffff, &c960);
    CHECK(memcmp(&c960, &a, sizeof a) == 0);
    chess_position_play_into(NULL, e4, &c960);
    chess_position_play_into(&a, e4, NULL);
    chess_position_init(NULL);
    /* A search stack of positions on the C stack. */
    CHECK_ERR(chess_fen_parse_into(KIWIPETE, &stack[0]), CHESS_OK);
    CHECK(stack_perft(stack, 3) == 97862 && chess_perft(&stack[0], 3) == 97862);
    /* Chess960 start positions by number. */
    CHECK_ERR(chess_position_init_chess960(&c960, 0), CHESS_OK);
    CHECK(chess_position_is_chess960(&c960) && chess_position_chess960_number(&c960) == 0);
    CHECK(fen_is(&c960, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"));
    b = c960;
    CHECK_ERR(chess_position_init_chess960(&c960, 960), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(&b, &c960, sizeof b) == 0);
    CHECK_ERR(chess_position_init_chess960(NULL, 518), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_position_init_chess960(&c960, 518), CHESS_OK);
    CHECK(chess_position_chess960_number(&c960) == 518);
}

/* Every code the header defines (CHESS_OK, CHESS_END, CHESS_ERR_...), read from the header itself,
 * beside this file, so that no copy of the list goes stale. */
static chess_error all_codes[512];
static size_t code_count;

static void read_codes_from_header(void) {
    char path[4200], line[512], name[128];
    const char *slash = strrchr(__FILE__, '/');
    long value;
    FILE *header;
    sprintf(path, "%.*s../include/chesscore.h", slash == NULL ? 0 : (int)(slash - __FILE__ + 1), __FILE__);
    header = fopen(path, "r");
    if (header == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    while (fgets(line, sizeof line, header) != NULL && code_count < sizeof all_codes / sizeof all_codes[0]) {
        if (sscanf(line, "#define %127s %ld", name, &value) == 2 &&
            (strncmp(name, "CHESS_ERR_", 10) == 0 || strcmp(name, "CHESS_OK") == 0 || strcmp(name, "CHESS_END") == 0)) {
            all_codes[code_count++] = (chess_error)value;
        }
    }
    fclose(header);
    /* The first and the last code of the list as this program was compiled. */
    CHECK(code_count > 80 && all_codes[0] == CHESS_OK && all_codes[code_count - 1] == CHESS_ERR_VARIANT_GAME);
}
#define CODE_COUNT code_count

static void test_error_messages(void) {
    size_t i, j;
    static const int unknown[] = {-1, 8, 99, 122, 199, 205, 303, 416, 502, 606, 1004, 1104, 2147483647};
    for (i = 0; i < CODE_COUNT; i++) {
        const char *message = chess_error_message(all_codes[i]);
        CHECK(message != NULL && message[0] != '\0');
        CHECK(strcmp(message, "unknown error code") != 0);
        for (j = 0; j < i; j++) {
            CHECK(strcmp(message, chess_error_message(all_codes[j])) != 0);
            CHECK(all_codes[i] != all_codes[j]);
        }
    }
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        CHECK(strcmp(chess_error_message((chess_error)unknown[i]), "unknown error code") == 0);
    }
    /* The families. */
    CHECK(CHESS_OK == 0 && CHESS_ERR_INTERNAL < 100);
    CHECK(CHESS_ERR_FEN_EMPTY == 100 && CHESS_ERR_FEN_BAD_CASTLING_RIGHTS < 200);
    CHECK(CHESS_ERR_ILLEGAL_MOVE == 200 && CHESS_ERR_INVALID_SQUARE < 300);
    CHECK(CHESS_ERR_SAN_SYNTAX == 300 && CHESS_ERR_SAN_NOT_CANONICAL < 400);
    CHECK(CHESS_ERR_FILE_NOT_FOUND == 500 && CHESS_ERR_IO < 600);
    CHECK(CHESS_ERR_EPD_MISSING_FIELDS == 600 && CHESS_ERR_EPD_WRONG_TYPE < 700);
    CHECK(CHESS_ERR_TABLEBASE_MISSING_TABLE == 1000 && CHESS_ERR_TABLEBASE_CORRUPT < 1100);
}

static void test_lifecycle(void) {
    chess_position *pos = chess_position_new();
    chess_position *copy;
    chess_position *other = parse(KIWIPETE);
    CHECK(pos != NULL);
    CHECK(fen_is(pos, START));
    copy = chess_position_clone(pos);
    CHECK(copy != NULL && copy != pos);
    CHECK(fen_is(copy, START));
    chess_position_copy(copy, other);
    CHECK(fen_is(copy, KIWIPETE));
    CHECK(fen_is(pos, START));
    chess_position_copy(copy, copy);
    CHECK(fen_is(copy, KIWIPETE));
    CHECK(chess_position_clone(NULL) == NULL);
    chess_position_copy(NULL, pos);
    chess_position_copy(pos, NULL);
    chess_position_copy(NULL, NULL);
    CHECK(fen_is(pos, START));
    chess_position_free(NULL);
    chess_position_free(pos);
    chess_position_free(copy);
    chess_position_free(other);
}

/* A chess_fen_info with every field set to a value no call writes, so that writes show. */
static chess_fen_info fresh_info(void) {
    chess_fen_info info;
    info.size = sizeof info;
    info.error_offset = 777;
    info.dropped_castling = 99;
    info.dropped_en_passant = 99;
    return info;
}

static void test_fen_parse_options(void) {
    chess_position pos;
    chess_position before;
    chess_fen_info info = fresh_info();

    /* Drop flags remove what is wrong and say what; the position is written only on success. */
    chess_position_init(&pos);
    before = pos;
    CHECK_ERR(chess_fen_parse_with("4k3/8/8/8/8/8/8/4K2R w KQk e6 0 1", 0, &pos, &info),
              CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
    CHECK(memcmp(&pos, &before, sizeof pos) == 0 && info.dropped_castling == 99 && info.error_offset == 24);
    CHECK_ERR(chess_fen_parse_with("4k3/8/8/8/8/8/8/4K2R w KQk e6 0 1",
                                   CHESS_FEN_DROP_BAD_CASTLING | CHESS_FEN_DROP_BAD_EN_PASSANT, &pos, &info),
              CHESS_OK);
    CHECK(fen_is(&pos, "4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
    CHECK(info.dropped_castling == (2 | 4) && info.dropped_en_passant == 44);

    /* Two pawns giving check: rejected unless allowed; the position still has legal moves. */
    CHECK_ERR(chess_fen_parse_with("4k3/8/8/8/8/8/3p1p2/4K3 w - - 0 1", 0, &pos, NULL),
              CHESS_ERR_FEN_IMPOSSIBLE_CHECK);
    CHECK_ERR(chess_fen_parse_with("4k3/8/8/8/8/8/3p1p2/4K3 w - - 0 1", CHESS_FEN_ALLOW_IMPOSSIBLE_CHECK, &pos, &info),
              CHESS_OK);
    CHECK(info.dropped_castling == 0 && info.dropped_en_passant == CHESS_NO_SQUARE);
    CHECK(chess_position_in_check(&pos) && chess_legal_moves(&pos, NULL, 0) > 0);

    /* Chess960 reading through the flag. */
    CHECK_ERR(chess_fen_parse_with("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", CHESS_FEN_CHESS960, &pos, NULL), CHESS_OK);
    CHECK(chess_position_is_chess960(&pos));

    before = pos;
    CHECK_ERR(chess_fen_parse_with(START, 16, &pos, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_fen_parse_with(NULL, 0, &pos, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_fen_parse_with(START, 0, NULL, NULL), CHESS_ERR_NULL_POINTER);
    /* A report of a size smaller than this version's is refused before anything is read. */
    info.size = sizeof info - 1;
    CHECK_ERR(chess_fen_parse_with(START, 0, &pos, &info), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(&pos, &before, sizeof pos) == 0);
}

static void test_fen_read_write(void) {
    chess_position *pos;
    char buf[CHESS_FEN_MAX];
    size_t len = 12345;
    const char *long_fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4294967295 4294967295";

    pos = chess_position_new();
    CHECK_ERR(chess_fen_parse_into(START, pos), CHESS_OK);
    /* Writing: exact fit, short buffers, size query, NULLs. */
    CHECK_ERR(chess_fen_write(pos, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, START) == 0 && len == strlen(START));
    CHECK_ERR(chess_fen_write(pos, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == strlen(START));
    strcpy(buf, "unchanged");
    len = 0;
    CHECK_ERR(chess_fen_write(pos, buf, strlen(START), &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == strlen(START) && strcmp(buf, "unchanged") == 0);
    CHECK_ERR(chess_fen_write(pos, buf, strlen(START) + 1, NULL), CHESS_OK);
    CHECK(strcmp(buf, START) == 0);
    CHECK_ERR(chess_fen_write(pos, NULL, 10, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_fen_write(NULL, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    chess_position_free(pos);

    /* The longest clocks fit CHESS_FEN_MAX. */
    pos = parse(long_fen);
    CHECK_ERR(chess_fen_write(pos, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, long_fen) == 0 && len < CHESS_FEN_MAX);
    chess_position_free(pos);

    /* Missing clocks, extra whitespace, fullmove 0. */
    pos = parse("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw KQkq -  \n");
    CHECK(fen_is(pos, START));
    chess_position_free(pos);
    pos = parse("4k3/8/8/8/8/8/8/4K3 b - - 3 0");
    CHECK(fen_is(pos, "4k3/8/8/8/8/8/8/4K3 b - - 3 1"));
    chess_position_free(pos);

    /* Failures leave the outputs untouched; the offset is written only on a FEN error. */
    {
        chess_fen_info info = fresh_info();
        chess_position value;
        chess_position_init(&value);
        CHECK_ERR(chess_fen_parse_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", 0, &value, &info),
                  CHESS_ERR_FEN_SIDE_TO_MOVE);
        CHECK(info.error_offset == 44 && fen_is(&value, START));
        CHECK_ERR(chess_fen_parse_into("4k3/8/8/8/8/8/8/4K2R w Kq - 0 1", &value), CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
        CHECK(fen_is(&value, START));
        info = fresh_info();
        CHECK_ERR(chess_fen_parse_with(NULL, 0, &value, &info), CHESS_ERR_NULL_POINTER);
        CHECK(info.error_offset == 777);
        CHECK_ERR(chess_fen_parse_into(NULL, &value), CHESS_ERR_NULL_POINTER);
        CHECK_ERR(chess_fen_parse_into(START, NULL), CHESS_ERR_NULL_POINTER);
        CHECK_ERR(chess_fen_parse_with(KIWIPETE, 0, &value, &info), CHESS_OK);
        CHECK(info.error_offset == 777 && fen_is(&value, KIWIPETE));
        /* Into a position never initialised: it is only written. */
        {
            chess_position fresh;
            CHECK_ERR(chess_fen_parse_into(KIWIPETE, &fresh), CHESS_OK);
            CHECK(fen_is(&fresh, KIWIPETE) && chess_perft(&fresh, 2) == 2039);
        }
    }

    /* En passant modes and castling notations when writing: e3 is recorded but no black pawn
     * can take. */
    pos = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    CHECK(fen_is(pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    CHECK_ERR(chess_fen_write_with(pos, CHESS_FEN_WRITE_EP_AS_RECORDED, buf, sizeof buf, NULL), CHESS_OK);
    CHECK(strcmp(buf, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") == 0);
    CHECK_ERR(chess_fen_write_with(pos, CHESS_FEN_WRITE_EP_PSEUDO_LEGAL, buf, sizeof buf, NULL), CHESS_OK);
    CHECK(strstr(buf, " KQkq - ") != NULL);
    CHECK_ERR(chess_fen_write_with(pos, CHESS_FEN_WRITE_SHREDDER | CHESS_FEN_WRITE_EP_AS_RECORDED, buf, sizeof buf, NULL),
              CHESS_OK);
    CHECK(strstr(buf, " HAha e3 ") != NULL);
    CHECK_ERR(chess_fen_write_with(pos, CHESS_FEN_WRITE_XFEN, buf, sizeof buf, NULL), CHESS_OK);
    CHECK(strstr(buf, " KQkq - ") != NULL);
    strcpy(buf, "unchanged");
    CHECK_ERR(chess_fen_write_with(pos, 16, buf, sizeof buf, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_fen_write_with(pos, CHESS_FEN_WRITE_EP_AS_RECORDED | CHESS_FEN_WRITE_EP_PSEUDO_LEGAL, buf, sizeof buf,
                                   NULL),
              CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_fen_write_with(pos, CHESS_FEN_WRITE_XFEN | CHESS_FEN_WRITE_SHREDDER, buf, sizeof buf, NULL),
              CHESS_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(buf, "unchanged") == 0);
    CHECK_ERR(chess_fen_write_with(NULL, 0, buf, sizeof buf, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_fen_write_with(pos, 0, NULL, 1, NULL), CHESS_ERR_NULL_POINTER);
    chess_position_free(pos);
}

/* The codes a bad.txt reason may produce (the same rules as the Rust test fen_files.rs). */
static int reason_allows(const char *reason, chess_error err) {
    static const struct {
        const char *reason;
        chess_error codes[3];
    } table[] = {
        {"empty", {CHESS_ERR_FEN_EMPTY, CHESS_ERR_FEN_EMPTY, CHESS_ERR_FEN_EMPTY}},
        {"fields", {CHESS_ERR_FEN_FIELD_COUNT, CHESS_ERR_FEN_SIDE_TO_MOVE, CHESS_ERR_FEN_PIECE_LETTER}},
        {"ranks", {CHESS_ERR_FEN_RANK_COUNT, CHESS_ERR_FEN_RANK_WIDTH, CHESS_ERR_FEN_RANK_WIDTH}},
        {"width", {CHESS_ERR_FEN_RANK_WIDTH, CHESS_ERR_FEN_EMPTY_SQUARE_COUNT, CHESS_ERR_FEN_RANK_WIDTH}},
        {"digits", {CHESS_ERR_FEN_EMPTY_SQUARE_COUNT, CHESS_ERR_FEN_EMPTY_SQUARE_COUNT, CHESS_ERR_FEN_EMPTY_SQUARE_COUNT}},
        {"piece", {CHESS_ERR_FEN_PIECE_LETTER, CHESS_ERR_FEN_PIECE_LETTER, CHESS_ERR_FEN_PIECE_LETTER}},
        {"side", {CHESS_ERR_FEN_SIDE_TO_MOVE, CHESS_ERR_FEN_SIDE_TO_MOVE, CHESS_ERR_FEN_SIDE_TO_MOVE}},
        {"castling", {CHESS_ERR_FEN_CASTLING, CHESS_ERR_FEN_BAD_CASTLING_RIGHTS, CHESS_ERR_FEN_CASTLING}},
        {"enpassant", {CHESS_ERR_FEN_EN_PASSANT, CHESS_ERR_FEN_INVALID_EN_PASSANT, CHESS_ERR_FEN_EN_PASSANT}},
        {"clock", {CHESS_ERR_FEN_HALFMOVE_CLOCK, CHESS_ERR_FEN_FULLMOVE_NUMBER, CHESS_ERR_FEN_HALFMOVE_CLOCK}},
        {"overflow", {CHESS_ERR_FEN_HALFMOVE_CLOCK, CHESS_ERR_FEN_FULLMOVE_NUMBER, CHESS_ERR_FEN_HALFMOVE_CLOCK}},
        {"kings", {CHESS_ERR_FEN_MISSING_KING, CHESS_ERR_FEN_TOO_MANY_KINGS, CHESS_ERR_FEN_MISSING_KING}},
        {"toomany", {CHESS_ERR_FEN_TOO_MANY_PIECES, CHESS_ERR_FEN_TOO_MANY_PAWNS, CHESS_ERR_FEN_TOO_MANY_PIECES}},
        {"pawns", {CHESS_ERR_FEN_PAWN_ON_BACK_RANK, CHESS_ERR_FEN_PAWN_ON_BACK_RANK, CHESS_ERR_FEN_PAWN_ON_BACK_RANK}},
        {"check", {CHESS_ERR_FEN_OPPOSITE_CHECK, CHESS_ERR_FEN_IMPOSSIBLE_CHECK, CHESS_ERR_FEN_OPPOSITE_CHECK}},
        {"long", {CHESS_ERR_FEN_TOO_LONG, CHESS_ERR_FEN_TOO_LONG, CHESS_ERR_FEN_TOO_LONG}},
        {"nonascii", {CHESS_ERR_FEN_INVALID_CHARACTER, CHESS_ERR_FEN_INVALID_CHARACTER, CHESS_ERR_FEN_INVALID_CHARACTER}},
        {"control", {CHESS_ERR_FEN_INVALID_CHARACTER, CHESS_ERR_FEN_INVALID_CHARACTER, CHESS_ERR_FEN_INVALID_CHARACTER}},
        {"separator", {CHESS_ERR_FEN_RANK_COUNT, CHESS_ERR_FEN_RANK_COUNT, CHESS_ERR_FEN_RANK_COUNT}},
    };
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].reason, reason) == 0) {
            return err == table[i].codes[0] || err == table[i].codes[1] || err == table[i].codes[2];
        }
    }
    fprintf(stderr, "unknown reason %s\n", reason);
    return 0;
}

/* A byte the FEN reader rejects wherever it stands (the ends trimmed of whitespace). */
static int has_bad_byte(const char *fen) {
    size_t start = 0;
    size_t end = strlen(fen);
    size_t i;
    while (start < end && strchr(" \t\r\n", fen[start]) != NULL) {
        start++;
    }
    while (end > start && strchr(" \t\r\n", fen[end - 1]) != NULL) {
        end--;
    }
    for (i = start; i < end; i++) {
        unsigned char c = (unsigned char)fen[i];
        if (!((c > 0x20 && c < 0x7f) || c == ' ' || c == '\t')) {
            return 1;
        }
    }
    return 0;
}

static void test_bad_fens(void) {
    char path[4096];
    char line[4096];
    FILE *file;
    int count = 0;
    sprintf(path, "%.4000s/fen/bad.txt", testdata);
    file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        failures++;
        return;
    }
    while (fgets(line, sizeof line, file) != NULL) {
        char *tab = strchr(line, '\t');
        chess_position value;
        chess_fen_info info = fresh_info();
        size_t len;
        chess_error err;
        int allowed;
        if (line[0] == '#' || tab == NULL) {
            continue;
        }
        *tab = '\0';
        len = strlen(tab + 1);
        if (len > 0 && tab[len] == '\n') {
            tab[len] = '\0';
            len--;
        }
        chess_position_init(&value);
        err = seen_code(chess_fen_parse_with(tab + 1, 0, &value, &info));
        CHECK(chess_fen_parse_into(tab + 1, &value) == err);
        if (len > 256) {
            allowed = err == CHESS_ERR_FEN_TOO_LONG;
        } else if (has_bad_byte(tab + 1)) {
            allowed = err == CHESS_ERR_FEN_INVALID_CHARACTER;
        } else {
            allowed = reason_allows(line, err);
        }
        checks++;
        if (!allowed || !fen_is(&value, START) || info.error_offset > (len > 256 ? len : 256)) {
            failures++;
            fprintf(stderr, "bad.txt %s: \"%s\" gave %u (%s) at %lu\n", line, tab + 1, (unsigned)err,
                    chess_error_message(err), (unsigned long)info.error_offset);
        }
        count++;
    }
    fclose(file);
    CHECK(count >= 40);
}

/* One FEN for each FEN error code, with the offset of the problem. */
static void test_fen_error_codes(void) {
    static const struct {
        const char *fen;
        chess_error code;
        size_t offset;
    } cases[] = {
        {" \t", CHESS_ERR_FEN_EMPTY, 0},
        {"8/8/8/8/8/8/8/K6k w - - 0 1 \x01", CHESS_ERR_FEN_INVALID_CHARACTER, 28},
        {"8/8/8/8/8/8/8/K6k w", CHESS_ERR_FEN_FIELD_COUNT, 19},
        {"8/8/8/8/8/8/K6k w - - 0 1", CHESS_ERR_FEN_RANK_COUNT, 0},
        {"8/8/8/8/8/8/8/K5k w - - 0 1", CHESS_ERR_FEN_RANK_WIDTH, 14},
        {"8/8/8/8/8/8/8/K33k w - - 0 1", CHESS_ERR_FEN_EMPTY_SQUARE_COUNT, 16},
        {"8/8/8/8/8/8/8/K5xk w - - 0 1", CHESS_ERR_FEN_PIECE_LETTER, 16},
        {"8/8/8/8/8/8/8/K6k W - - 0 1", CHESS_ERR_FEN_SIDE_TO_MOVE, 18},
        {"8/8/8/8/8/8/8/K6k w KK - 0 1", CHESS_ERR_FEN_CASTLING, 21},
        {"8/8/8/8/8/8/8/K6k w - e9 0 1", CHESS_ERR_FEN_EN_PASSANT, 22},
        {"8/8/8/8/8/8/8/K6k w - - x 1", CHESS_ERR_FEN_HALFMOVE_CLOCK, 24},
        {"8/8/8/8/8/8/8/K6k w - - 0 4294967296", CHESS_ERR_FEN_FULLMOVE_NUMBER, 26},
        {"8/8/8/8/8/8/8/K7 w - - 0 1", CHESS_ERR_FEN_MISSING_KING, 0},
        {"8/8/8/8/8/8/8/K5kk w - - 0 1", CHESS_ERR_FEN_TOO_MANY_KINGS, 17},
        {"QQQQQQQQ/QQQQQQQQ/8/8/8/8/k7/K7 w - - 0 1", CHESS_ERR_FEN_TOO_MANY_PIECES, 0},
        {"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_TOO_MANY_PAWNS, 0},
        {"4k3/8/8/8/8/8/8/p3K3 w - - 0 1", CHESS_ERR_FEN_PAWN_ON_BACK_RANK, 16},
        {"4k3/8/8/8/8/8/8/4RK2 w - - 0 1", CHESS_ERR_FEN_OPPOSITE_CHECK, 0},
        {"4k3/8/8/8/8/8/3p1p2/4K3 w - - 0 1", CHESS_ERR_FEN_IMPOSSIBLE_CHECK, 0},
        {"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", CHESS_ERR_FEN_INVALID_EN_PASSANT, 24},
        {"4k3/8/8/8/8/8/8/4K2R w Kq - 0 1", CHESS_ERR_FEN_BAD_CASTLING_RIGHTS, 24},
    };
    char long_fen[400];
    chess_position pos;
    chess_position before;
    chess_fen_info info = fresh_info();
    size_t i;
    chess_position_init(&pos);
    before = pos;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        info.error_offset = (size_t)-1;
        CHECK_ERR(chess_fen_parse_with(cases[i].fen, 0, &pos, &info), cases[i].code);
        if (info.error_offset != cases[i].offset) {
            fprintf(stderr, "%s: offset %lu, expected %lu\n", cases[i].fen, (unsigned long)info.error_offset,
                    (unsigned long)cases[i].offset);
            failures++;
        }
        CHECK(memcmp(&pos, &before, sizeof pos) == 0);
    }
    memset(long_fen, ' ', sizeof long_fen - 1);
    long_fen[sizeof long_fen - 1] = '\0';
    memcpy(long_fen, START, strlen(START));
    CHECK_ERR(chess_fen_parse_with(long_fen, 0, &pos, &info), CHESS_ERR_FEN_TOO_LONG);
    CHECK(info.error_offset == 256 && memcmp(&pos, &before, sizeof pos) == 0);
    CHECK_ERR(chess_fen_parse_into("8/8/8/8/8/8/8/K6k w - - 0 1\xff", &pos), CHESS_ERR_FEN_INVALID_CHARACTER);
}

static void test_fen_components(void) {
    chess_position pos;
    chess_position before;
    chess_fen_info info = fresh_info();
    CHECK_ERR(chess_fen_from_components("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "KQkq", "-", "0", "1", &pos,
                                        &info),
              CHESS_OK);
    CHECK(fen_is(&pos, START) && info.error_offset == 777);
    before = pos;
    CHECK_ERR(chess_fen_from_components("4k3/8/8/8/8/8/8/4K3", "w", "", "-", "0", "1", &pos, &info),
              CHESS_ERR_FEN_CASTLING);
    CHECK(info.error_offset == 22 && memcmp(&pos, &before, sizeof pos) == 0);
    CHECK_ERR(chess_fen_from_components("4k3/8/8/8/8/8/8/4K3", "w", "-", "-", "0", "1\xff", &pos, &info),
              CHESS_ERR_FEN_INVALID_CHARACTER);
    CHECK(info.error_offset == 29 && memcmp(&pos, &before, sizeof pos) == 0);
    CHECK_ERR(chess_fen_from_components("4k3/8/8/8/8/8/8/4K3", "w", "-", "-", "0", "1", &pos, NULL), CHESS_OK);
    CHECK(fen_is(&pos, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    CHECK_ERR(chess_fen_from_components("4k3/8/8/8/8/8/8/4K3", NULL, "-", "-", "0", "1", &pos, NULL),
              CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_fen_from_components("4k3/8/8/8/8/8/8/4K3", "w", "-", "-", "0", "1", NULL, NULL),
              CHESS_ERR_NULL_POINTER);
}

static void test_fen_split(void) {
    static const char *expected[6] = {"8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "1"};
    const char *fields[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    char buf[128];
    size_t len = 0;
    chess_fen_info info = fresh_info();
    size_t needed = 0;
    size_t i;
    CHECK_ERR(chess_fen_split("8/8/8/8/8/8/8/K6k  w - -\n", buf, sizeof buf, &len, fields, &info), CHESS_OK);
    for (i = 0; i < 6; i++) {
        CHECK(fields[i] != NULL && strcmp(fields[i], expected[i]) == 0);
        needed += strlen(expected[i]) + 1;
    }
    CHECK(len == needed - 1);
    CHECK(fields[0] == buf);
    /* Short buffer: only the length comes back. */
    fields[0] = NULL;
    strcpy(buf, "unchanged");
    CHECK_ERR(chess_fen_split(START, buf, 20, &len, fields, &info), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == strlen(START) && fields[0] == NULL && strcmp(buf, "unchanged") == 0);
    CHECK_ERR(chess_fen_split(START, NULL, 0, &len, fields, &info), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == strlen(START));
    /* Syntax only: a position without kings splits fine; a syntax error reports its offset. */
    CHECK_ERR(chess_fen_split("8/8/8/8/8/8/8/8 b - - 5 9", buf, sizeof buf, NULL, fields, NULL), CHESS_OK);
    CHECK(strcmp(fields[5], "9") == 0);
    CHECK_ERR(chess_fen_split("8/8/8/8/8/8/8/8 x - -", buf, sizeof buf, &len, fields, &info),
              CHESS_ERR_FEN_SIDE_TO_MOVE);
    CHECK(info.error_offset == 16);
    CHECK_ERR(chess_fen_split("8/8/8/8/8/8/8/8 w - - \xc3\xa9", buf, sizeof buf, &len, fields, &info),
              CHESS_ERR_FEN_INVALID_CHARACTER);
    CHECK(info.error_offset == 22);
    CHECK_ERR(chess_fen_split(NULL, buf, sizeof buf, &len, fields, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_fen_split(START, buf, sizeof buf, &len, NULL, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_fen_split(START, NULL, 5, &len, fields, NULL), CHESS_ERR_NULL_POINTER);
}

static int write_file(const char *path, const char *text) {
    FILE *file = fopen(path, "wb");
    if (file == NULL) {
        return 0;
    }
    fputs(text, file);
    return fclose(file) == 0;
}

static void test_fen_file(void) {
    char path[4200];
    chess_position pos;
    chess_position before;
    chess_fen_info info = fresh_info();
    sprintf(path, "%.4000s/c_api_good.fen", workdir);
    CHECK(write_file(path, "\n   \n" KIWIPETE "\nignored\n"));
    CHECK_ERR(chess_fen_read_file(path, &pos, &info), CHESS_OK);
    CHECK(fen_is(&pos, KIWIPETE));
    before = pos;
    sprintf(path, "%.4000s/c_api_bad.fen", workdir);
    CHECK(write_file(path, "8/8/8/8/8/8/8/K6k w - - 0 1 x\n"));
    CHECK_ERR(chess_fen_read_file(path, &pos, &info), CHESS_ERR_FEN_FIELD_COUNT);
    CHECK(info.error_offset == 28);
    sprintf(path, "%.4000s/c_api_missing.fen", workdir);
    remove(path);
    CHECK_ERR(chess_fen_read_file(path, &pos, &info), CHESS_ERR_FILE_NOT_FOUND);
    CHECK_ERR(chess_fen_read_file(workdir, &pos, NULL), CHESS_ERR_IO);
    /* Only the first line is read: an endless device gives an error at once. */
    {
        FILE *zero = fopen("/dev/zero", "rb");
        if (zero != NULL) {
            fclose(zero);
            CHECK_ERR(chess_fen_read_file("/dev/zero", &pos, &info), CHESS_ERR_FEN_TOO_LONG);
        }
    }
    CHECK_ERR(chess_fen_read_file(NULL, &pos, &info), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_fen_read_file(path, NULL, &info), CHESS_ERR_NULL_POINTER);
    CHECK(memcmp(&pos, &before, sizeof pos) == 0);
}

static void test_move_lists(void) {
    chess_position *pos = chess_position_new();
    chess_position *pinned = parse("k7/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
    chess_move moves[CHESS_MAX_MOVES];
    chess_move few[6];
    size_t i;
    CHECK(chess_legal_moves(pos, moves, CHESS_MAX_MOVES) == 20);
    CHECK(chess_legal_moves(pos, NULL, 0) == 20);
    CHECK(chess_legal_moves(NULL, moves, CHESS_MAX_MOVES) == 0);
    CHECK(chess_legal_moves(pos, NULL, 5) == 0);
    for (i = 0; i < 6; i++) {
        few[i] = 0xbeef;
    }
    CHECK(chess_legal_moves(pos, few, 5) == 20);
    CHECK(few[4] == moves[4] && few[5] == 0xbeef);
    for (i = 0; i < 20; i++) {
        CHECK(chess_position_is_legal(pos, moves[i]));
    }
    CHECK(!chess_position_is_legal(pos, CHESS_MOVE_NONE));
    CHECK(!chess_position_is_legal(NULL, moves[0]));
    CHECK(!chess_position_is_legal(pos, 0xf000 | 12 | 28 << 6));
    /* The rook on e2 is pinned to the e-file; pseudo-legal moves ignore the pin. */
    CHECK(chess_legal_moves(pinned, moves, CHESS_MAX_MOVES) == 5 + 4);
    CHECK(chess_pseudo_legal_moves(pinned, moves, CHESS_MAX_MOVES) == 12 + 4);
    CHECK(chess_pseudo_legal_moves(pinned, NULL, 0) == 16);
    CHECK(chess_pseudo_legal_moves(NULL, moves, CHESS_MAX_MOVES) == 0);
    CHECK(chess_pseudo_legal_moves(pinned, NULL, 3) == 0);
    CHECK(chess_legal_moves_from(pinned, 12, moves, CHESS_MAX_MOVES) == 5);
    for (i = 0; i < 5; i++) {
        CHECK(chess_move_from_square(moves[i]) == 12 && chess_move_to_square(moves[i]) % 8 == 4);
    }
    CHECK(chess_legal_moves_from(pos, 6, moves, CHESS_MAX_MOVES) == 2);
    CHECK(chess_legal_moves_from(pos, 6, NULL, 0) == 2);
    CHECK(chess_legal_moves_from(pos, 28, moves, CHESS_MAX_MOVES) == 0);
    CHECK(chess_legal_moves_from(pos, 64, moves, CHESS_MAX_MOVES) == 0);
    CHECK(chess_legal_moves_from(pos, -1, moves, CHESS_MAX_MOVES) == 0);
    CHECK(chess_legal_moves_from(NULL, 6, moves, CHESS_MAX_MOVES) == 0);
    chess_position_free(pos);
    chess_position_free(pinned);
}

static void test_play(void) {
    chess_position *pos = chess_position_new();
    chess_position *check = parse("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    chess_move mv = 0x1234;
    CHECK_ERR(chess_move_from_uci(pos, "e2e4", &mv), CHESS_OK);
    CHECK(chess_move_kind_of(mv) == CHESS_MOVE_DOUBLE_PUSH);
    CHECK_ERR(chess_position_play(pos, mv), CHESS_OK);
    CHECK(fen_is(pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    CHECK(chess_position_en_passant(pos, CHESS_EP_AS_RECORDED) == 20);
    /* Failures: the position and *out stay as they were. */
    mv = 0x1234;
    CHECK_ERR(chess_move_from_uci(pos, "e2e4", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_move_from_uci(pos, "e7e4", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_move_from_uci(pos, "e7e5x", &mv), CHESS_ERR_UCI_SYNTAX);
    CHECK_ERR(chess_move_from_uci(pos, "E7E5", &mv), CHESS_ERR_UCI_SYNTAX);
    CHECK_ERR(chess_move_from_uci(pos, "e7e7", &mv), CHESS_ERR_UCI_SYNTAX);
    CHECK_ERR(chess_move_from_uci(pos, "", &mv), CHESS_ERR_UCI_SYNTAX);
    CHECK_ERR(chess_move_from_uci(pos, "e7\xc3\xa9", &mv), CHESS_ERR_INVALID_TEXT);
    CHECK_ERR(chess_move_from_uci(NULL, "e7e5", &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_move_from_uci(pos, NULL, &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_move_from_uci(pos, "e7e5", NULL), CHESS_ERR_NULL_POINTER);
    CHECK(mv == 0x1234);
    CHECK_ERR(chess_move_from_uci(pos, "0000", &mv), CHESS_OK);
    CHECK(mv == CHESS_MOVE_NONE);
    CHECK_ERR(chess_position_play(pos, CHESS_MOVE_NONE), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_position_play(pos, uci(pos, "e7e5") ^ 0x0040), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_position_play(pos, 0x8000 | 52 | 36 << 6), CHESS_ERR_INVALID_MOVE);
    CHECK_ERR(chess_position_play(pos, 52 | 52 << 6), CHESS_ERR_INVALID_MOVE);
    CHECK_ERR(chess_position_play(NULL, uci(pos, "e7e5")), CHESS_ERR_NULL_POINTER);
    CHECK(fen_is(pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    /* Unchecked play of a legal move, and the null move. */
    chess_position_play_unchecked(pos, uci(pos, "g8f6"));
    CHECK(fen_is(pos, "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"));
    chess_position_play_unchecked(pos, 0xf000 | 12 | 28 << 6);
    chess_position_play_unchecked(pos, CHESS_MOVE_NONE);
    chess_position_play_unchecked(NULL, uci(pos, "e4e5"));
    CHECK(fen_is(pos, "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"));
    CHECK_ERR(chess_position_play_null(pos), CHESS_OK);
    CHECK(fen_is(pos, "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 2 2"));
    CHECK_ERR(chess_position_play_null(check), CHESS_ERR_ILLEGAL_MOVE);
    CHECK(fen_is(check, "4k3/8/8/8/8/8/8/4K2r w - - 0 1"));
    CHECK_ERR(chess_position_play_null(NULL), CHESS_ERR_NULL_POINTER);
    chess_position_free(pos);
    chess_position_free(check);
}

static void test_move_notation(void) {
    chess_position *castle = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    chess_position *promote = parse("1r5k/P7/8/8/8/8/8/K7 w - - 0 1");
    chess_position *ep = parse("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    chess_move mv;
    char buf[8];
    size_t len = 0;

    /* Castling: e1g1 and e1h1 name the same move, the king taking its rook. */
    mv = uci(castle, "e1g1");
    CHECK(mv == uci(castle, "e1h1"));
    CHECK(chess_move_kind_of(mv) == CHESS_MOVE_CASTLING);
    CHECK(chess_move_from_square(mv) == 4 && chess_move_to_square(mv) == 7);
    CHECK_ERR(chess_move_to_uci(mv, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, "e1g1") == 0 && len == 4);
    CHECK_ERR(chess_move_to_uci(uci(castle, "e1c1"), buf, sizeof buf, NULL), CHESS_OK);
    CHECK(strcmp(buf, "e1c1") == 0);

    /* Promotion, with and without capture. */
    mv = uci(promote, "a7a8q");
    CHECK(chess_move_promotion(mv) == CHESS_QUEEN && chess_move_kind_of(mv) == CHESS_MOVE_PROMOTE_QUEEN);
    CHECK(chess_move_promotion(uci(promote, "a7b8n")) == CHESS_KNIGHT);
    CHECK(chess_move_kind_of(uci(promote, "a7b8r")) == CHESS_MOVE_PROMOTE_ROOK);
    CHECK(chess_move_kind_of(uci(promote, "a7a8b")) == CHESS_MOVE_PROMOTE_BISHOP);
    CHECK_ERR(chess_move_from_uci(promote, "a7a8", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_move_from_uci(promote, "a7a8Q", &mv), CHESS_ERR_UCI_SYNTAX);
    CHECK_ERR(chess_move_to_uci(uci(promote, "a7b8n"), buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, "a7b8n") == 0 && len == 5);
    CHECK(chess_move_promotion(uci(promote, "a1a2")) == CHESS_NO_KIND);
    CHECK(chess_move_kind_of(uci(promote, "a1a2")) == CHESS_MOVE_NORMAL);

    /* En passant. */
    mv = uci(ep, "e5d6");
    CHECK(chess_move_kind_of(mv) == CHESS_MOVE_EN_PASSANT);
    CHECK_ERR(chess_position_play(ep, mv), CHESS_OK);
    CHECK(fen_is(ep, "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2"));

    /* The null move, invalid encodings, short buffers. */
    CHECK_ERR(chess_move_to_uci(CHESS_MOVE_NONE, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, "0000") == 0);
    CHECK(chess_move_from_square(CHESS_MOVE_NONE) == CHESS_NO_SQUARE);
    CHECK(chess_move_to_square(CHESS_MOVE_NONE) == CHESS_NO_SQUARE);
    CHECK(chess_move_promotion(CHESS_MOVE_NONE) == CHESS_NO_KIND);
    CHECK(chess_move_kind_of(CHESS_MOVE_NONE) == CHESS_MOVE_NORMAL);
    CHECK(chess_move_from_square(0x8000 | 12 | 28 << 6) == CHESS_NO_SQUARE);
    CHECK(chess_move_to_square(12 | 12 << 6) == CHESS_NO_SQUARE);
    CHECK(chess_move_promotion(0xf000 | 12 | 28 << 6) == CHESS_NO_KIND);
    CHECK(chess_move_kind_of(0x9000 | 12 | 28 << 6) == CHESS_MOVE_NORMAL);
    strcpy(buf, "same");
    CHECK_ERR(chess_move_to_uci(0x8000 | 12 | 28 << 6, buf, sizeof buf, &len), CHESS_ERR_INVALID_MOVE);
    CHECK_ERR(chess_move_to_uci(12 | 12 << 6, buf, sizeof buf, &len), CHESS_ERR_INVALID_MOVE);
    len = 0;
    CHECK_ERR(chess_move_to_uci(12 | 28 << 6, buf, 4, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 4 && strcmp(buf, "same") == 0);
    CHECK_ERR(chess_move_to_uci(12 | 28 << 6, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_move_to_uci(12 | 28 << 6, NULL, 8, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_move_to_uci(12 | 28 << 6, buf, 5, NULL), CHESS_OK);
    CHECK(strcmp(buf, "e2e4") == 0);

    chess_position_free(castle);
    chess_position_free(promote);
    chess_position_free(ep);
}

static void test_squares(void) {
    char buf[3];
    size_t len = 0;
    int square = 99;
    int i;
    for (i = 0; i < 64; i++) {
        CHECK_ERR(chess_square_name(i, buf, sizeof buf, &len), CHESS_OK);
        CHECK(len == 2 && buf[0] == 'a' + i % 8 && buf[1] == '1' + i / 8 && buf[2] == '\0');
        CHECK_ERR(chess_square_parse(buf, &square), CHESS_OK);
        CHECK(square == i);
    }
    square = 99;
    CHECK_ERR(chess_square_name(64, buf, sizeof buf, &len), CHESS_ERR_INVALID_SQUARE);
    CHECK_ERR(chess_square_name(CHESS_NO_SQUARE, buf, sizeof buf, &len), CHESS_ERR_INVALID_SQUARE);
    CHECK_ERR(chess_square_name(28, buf, 2, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 2);
    CHECK_ERR(chess_square_name(28, NULL, 3, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_square_parse("E4", &square), CHESS_ERR_INVALID_SQUARE);
    CHECK_ERR(chess_square_parse("e9", &square), CHESS_ERR_INVALID_SQUARE);
    CHECK_ERR(chess_square_parse("e44", &square), CHESS_ERR_INVALID_SQUARE);
    CHECK_ERR(chess_square_parse("", &square), CHESS_ERR_INVALID_SQUARE);
    CHECK_ERR(chess_square_parse("\xc3\xa9" "4", &square), CHESS_ERR_INVALID_TEXT);
    CHECK_ERR(chess_square_parse(NULL, &square), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_square_parse("e4", NULL), CHESS_ERR_NULL_POINTER);
    CHECK(square == 99);
}

static void test_queries(void) {
    chess_position *start = chess_position_new();
    chess_position *kiwi = parse(KIWIPETE);
    chess_position *pin = parse("4k3/7r/8/b7/8/8/3P4/4K3 w - - 3 40");
    chess_position *ep = parse("4k2b/8/8/3pP3/8/8/1K6/8 w - d6 0 2");
    const chess_color bad_color = (chess_color)2;
    const chess_piece_kind bad_kind = (chess_piece_kind)7;

    /* Side, castling, clocks. */
    CHECK(chess_position_turn(start) == CHESS_WHITE);
    CHECK(chess_position_castling_rights(start) ==
          (CHESS_CASTLING_WHITE_KINGSIDE | CHESS_CASTLING_WHITE_QUEENSIDE | CHESS_CASTLING_BLACK_KINGSIDE |
           CHESS_CASTLING_BLACK_QUEENSIDE));
    chess_position_play_unchecked(kiwi, uci(kiwi, "a1b1"));
    CHECK(chess_position_turn(kiwi) == CHESS_BLACK);
    CHECK(chess_position_castling_rights(kiwi) ==
          (CHESS_CASTLING_WHITE_KINGSIDE | CHESS_CASTLING_BLACK_KINGSIDE | CHESS_CASTLING_BLACK_QUEENSIDE));
    CHECK(chess_position_halfmove_clock(pin) == 3 && chess_position_fullmove_number(pin) == 40);
    CHECK(chess_position_halfmove_clock(kiwi) == 1 && chess_position_fullmove_number(kiwi) == 1);

    /* En passant under each mode: the capturer on e5 is pinned by the bishop on h8. */
    CHECK(chess_position_en_passant(ep, CHESS_EP_AS_RECORDED) == 43);
    CHECK(chess_position_en_passant(ep, CHESS_EP_PSEUDO_LEGAL) == 43);
    CHECK(chess_position_en_passant(ep, CHESS_EP_LEGAL) == CHESS_NO_SQUARE);
    CHECK(chess_position_en_passant(ep, (chess_ep_mode)3) == CHESS_NO_SQUARE);
    CHECK(chess_position_en_passant(start, CHESS_EP_AS_RECORDED) == CHESS_NO_SQUARE);

    /* Pieces and square sets. */
    CHECK(chess_position_piece_at(start, 4) == CHESS_WHITE_KING);
    CHECK(chess_position_piece_at(start, 59) == CHESS_BLACK_QUEEN);
    CHECK(chess_position_piece_at(start, 28) == CHESS_NO_PIECE);
    CHECK(chess_position_piece_at(start, 64) == CHESS_NO_PIECE);
    CHECK(chess_position_piece_at(start, -1) == CHESS_NO_PIECE);
    CHECK((chess_position_piece_at(start, 57) & 7) == CHESS_KNIGHT);
    CHECK((chess_position_piece_at(start, 57) >> 3) == CHESS_BLACK);
    CHECK(chess_position_pieces(start, CHESS_WHITE, CHESS_PAWN) == 0xff00);
    CHECK(chess_position_pieces(start, CHESS_BLACK, CHESS_ROOK) == (bit(56) | bit(63)));
    CHECK(chess_position_pieces(start, CHESS_WHITE, CHESS_NO_KIND) == 0);
    CHECK(chess_position_pieces(start, CHESS_WHITE, bad_kind) == 0);
    CHECK(chess_position_pieces(start, bad_color, CHESS_PAWN) == 0);
    CHECK(chess_position_occupancy(start) == 0xffff00000000ffffULL);
    CHECK(chess_position_color_occupancy(start, CHESS_BLACK) == 0xffff000000000000ULL);
    CHECK(chess_position_color_occupancy(start, bad_color) == 0);
    CHECK(chess_position_king_square(start, CHESS_WHITE) == 4);
    CHECK(chess_position_king_square(start, CHESS_BLACK) == 60);
    CHECK(chess_position_king_square(start, bad_color) == CHESS_NO_SQUARE);

    /* Attacks, checks, pins. */
    CHECK(chess_position_attackers_to(start, 21, CHESS_WHITE) == (bit(6) | bit(12) | bit(14)));
    CHECK(popcount(chess_position_attackers_to(start, 45, CHESS_BLACK)) == 3);
    CHECK(chess_position_attackers_to(start, 64, CHESS_WHITE) == 0);
    CHECK(chess_position_attackers_to(start, 21, bad_color) == 0);
    CHECK(chess_position_checkers(start) == 0);
    CHECK(!chess_position_in_check(start));
    CHECK(chess_position_pinned(pin) == bit(11));
    CHECK(chess_position_pinned(start) == 0);
    chess_position_play_unchecked(pin, uci(pin, "e1d1"));
    chess_position_play_unchecked(pin, uci(pin, "h7h1"));
    CHECK(chess_position_in_check(pin));
    CHECK(chess_position_checkers(pin) == bit(7));

    CHECK(chess_position_zobrist(start) == 0x463b96181691fc9cULL);
    CHECK(chess_position_zobrist(NULL) == 0);

    /* A NULL position gives the neutral values. */
    CHECK(chess_position_turn(NULL) == CHESS_WHITE);
    CHECK(chess_position_castling_rights(NULL) == 0);
    CHECK(chess_position_en_passant(NULL, CHESS_EP_AS_RECORDED) == CHESS_NO_SQUARE);
    CHECK(chess_position_halfmove_clock(NULL) == 0 && chess_position_fullmove_number(NULL) == 0);
    CHECK(chess_position_piece_at(NULL, 4) == CHESS_NO_PIECE);
    CHECK(chess_position_pieces(NULL, CHESS_WHITE, CHESS_PAWN) == 0);
    CHECK(chess_position_occupancy(NULL) == 0 && chess_position_color_occupancy(NULL, CHESS_WHITE) == 0);
    CHECK(chess_position_king_square(NULL, CHESS_WHITE) == CHESS_NO_SQUARE);
    CHECK(chess_position_attackers_to(NULL, 21, CHESS_WHITE) == 0);
    CHECK(chess_position_checkers(NULL) == 0 && chess_position_pinned(NULL) == 0);

    chess_position_free(start);
    chess_position_free(kiwi);
    chess_position_free(pin);
    chess_position_free(ep);
}

/* One piece's attacks, pin lines, castling rooks, and the mirror of a position. */
static void test_board_queries(void) {
    chess_position *start = parse(START);
    /* The d2 pawn is pinned by the bishop on a5 along the a5-e1 diagonal. */
    chess_position *pin = parse("4k3/7r/8/b7/8/8/3P4/4K3 w - - 3 40");
    CHECK(chess_position_attacks(start, 6) == (bit(12) | bit(21) | bit(23))); /* Ng1: e2 f3 h3 */
    CHECK(chess_position_attacks(start, 11) == (bit(18) | bit(20)));          /* d2 pawn: c3 e3 */
    CHECK(chess_position_attacks(start, 3) == (bit(2) | bit(4) | bit(10) | bit(11) | bit(12)));
    CHECK(chess_position_attacks(start, 28) == 0 && chess_position_attacks(start, 64) == 0);
    CHECK(chess_position_attacks(NULL, 6) == 0);
    CHECK(chess_position_pin(pin, CHESS_WHITE, 11) == (bit(4) | bit(11) | bit(18) | bit(25) | bit(32)));
    CHECK(chess_position_pin(pin, CHESS_WHITE, 4) == 0 && chess_position_pin(pin, CHESS_BLACK, 32) == 0);
    CHECK(chess_position_pin(pin, 7, 11) == 0 && chess_position_pin(pin, CHESS_WHITE, -1) == 0);
    CHECK(chess_position_pin(NULL, CHESS_WHITE, 11) == 0);
    CHECK(chess_position_castling_rooks(start) == (bit(0) | bit(7) | bit(56) | bit(63)));
    CHECK(chess_position_castling_rooks(pin) == 0 && chess_position_castling_rooks(NULL) == 0);

    chess_position mirrored;
    char fen[CHESS_FEN_MAX];
    size_t len;
    chess_position_mirror(pin, &mirrored);
    CHECK_ERR(chess_fen_write(&mirrored, fen, sizeof fen, &len), CHESS_OK);
    CHECK(strcmp(fen, "4k3/3p4/8/8/B7/8/7R/4K3 b - - 3 40") == 0);
    chess_position_mirror(&mirrored, &mirrored); /* in place */
    CHECK_ERR(chess_fen_write(&mirrored, fen, sizeof fen, &len), CHESS_OK);
    CHECK(strcmp(fen, "4k3/7r/8/b7/8/8/3P4/4K3 w - - 3 40") == 0);
    chess_position_mirror(NULL, &mirrored);
    chess_position_mirror(start, NULL);

    /* Every legal move's SAN, in chess_legal_moves' order. */
    char sans[CHESS_MAX_MOVES * CHESS_SAN_MAX];
    CHECK_ERR(chess_legal_moves_san(pin, sans, sizeof sans, &len), CHESS_OK);
    CHECK(strcmp(sans, "Kd1 Kf1 Ke2 Kf2") == 0 && len == strlen(sans));
    chess_move moves[CHESS_MAX_MOVES];
    size_t n = chess_legal_moves(pin, moves, CHESS_MAX_MOVES);
    char san[CHESS_SAN_MAX];
    CHECK_ERR(chess_move_to_san(pin, moves[n - 1], san, sizeof san, &len), CHESS_OK);
    CHECK(strcmp(san, "Kf2") == 0);
    CHECK_ERR(chess_legal_moves_san(pin, sans, 3, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == strlen("Kd1 Kf1 Ke2 Kf2") && strcmp(sans, "Kd1 Kf1 Ke2 Kf2") == 0); /* untouched */
    CHECK_ERR(chess_legal_moves_san(NULL, sans, sizeof sans, &len), CHESS_ERR_NULL_POINTER);

    chess_position_free(start);
    chess_position_free(pin);
}

/* The geometry functions against positions' own answers, and the Zobrist key with the
 * Polyglot constants or with others. */
static void test_bitboards(void) {
    chess_position *start = parse(START);
    chess_position *kiwi = parse(KIWIPETE);
    int sq;
    for (sq = 0; sq < 64; sq++) {
        chess_piece piece = chess_position_piece_at(kiwi, sq);
        if (piece != CHESS_NO_PIECE) {
            CHECK(chess_bitboard_attacks(piece, sq, chess_position_occupancy(kiwi)) == chess_position_attacks(kiwi, sq));
        }
    }
    CHECK(chess_bitboard_attacks(CHESS_WHITE_ROOK, 0, 0) == ((0xFFull | 0x0101010101010101ull) & ~1ull));
    CHECK(chess_bitboard_attacks(CHESS_WHITE_ROOK, 0, bit(2) | bit(16)) == (bit(1) | bit(2) | bit(8) | bit(16)));
    CHECK(chess_bitboard_attacks(CHESS_BLACK_PAWN, 28, 0) == (bit(19) | bit(21)));
    CHECK(chess_bitboard_attacks(CHESS_WHITE_PAWN, 31, 0) == bit(38));
    CHECK(chess_bitboard_attacks(CHESS_WHITE_KNIGHT, 0, ~0ull) == (bit(10) | bit(17)));
    CHECK(chess_bitboard_attacks(CHESS_NO_PIECE, 0, 0) == 0 && chess_bitboard_attacks(7, 0, 0) == 0);
    CHECK(chess_bitboard_attacks(CHESS_WHITE_KING, 64, 0) == 0 && chess_bitboard_attacks(17, 0, 0) == 0);
    CHECK(chess_bitboard_between(0, 63) == 0x0040201008040200ull && chess_bitboard_between(0, 9) == 0);
    CHECK(chess_bitboard_between(0, 10) == 0 && chess_bitboard_between(4, 4) == 0 && chess_bitboard_between(-1, 4) == 0);
    CHECK(chess_bitboard_line(9, 18) == 0x8040201008040201ull && chess_bitboard_line(1, 6) == 0xFFull);
    CHECK(chess_bitboard_line(0, 10) == 0 && chess_bitboard_line(5, 5) == 0 && chess_bitboard_line(0, 64) == 0);

    const uint64_t *polyglot = chess_book_polyglot_random();
    CHECK(polyglot[0] == 0x9D39247E33776D41ull && polyglot[780] == 0xF8D626AAAF278509ull);
    CHECK(chess_position_zobrist_with(start, polyglot) == chess_position_zobrist(start));
    CHECK(chess_position_zobrist_with(kiwi, polyglot) == chess_position_zobrist(kiwi));
    uint64_t keys[781] = {0};
    keys[780] = 1;                     /* White to move */
    keys[768] = 2;                     /* White may castle king side */
    keys[64 * (2 * 5 + 1) + 4] = 4;    /* the white king on e1 */
    keys[64 * (2 * 5 + 0) + 60] = 8;   /* the black king on e8 */
    CHECK(chess_position_zobrist_with(start, keys) == 15);
    CHECK(chess_position_zobrist_with(NULL, keys) == 0 && chess_position_zobrist_with(start, NULL) == 0);
    chess_position_free(start);
    chess_position_free(kiwi);
}

static void test_status(void) {
    chess_position *mate = parse("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    chess_position *stale = parse("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    chess_position *bare = parse("8/8/8/4k3/8/8/8/4KN2 w - - 0 1");
    chess_position *knights = parse("1n6/8/8/4k3/8/8/8/4KN2 w - - 0 1");
    chess_position *claim = parse("8/8/8/4k3/8/8/8/4K2R w - - 99 80");
    chess_position *fifty = parse("8/8/8/4k3/8/8/8/4K2R w - - 150 80");
    CHECK(chess_position_is_checkmate(mate) && chess_position_in_check(mate));
    CHECK(!chess_position_is_stalemate(mate));
    CHECK(chess_position_is_stalemate(stale) && !chess_position_is_checkmate(stale));
    CHECK(chess_position_is_insufficient_material(bare));
    CHECK(!chess_position_is_insufficient_material(knights));
    /* Each side alone: a knight cannot mate a bare king, but can mate one a knight hems in. */
    CHECK(chess_position_has_insufficient_material(bare, CHESS_WHITE));
    CHECK(chess_position_has_insufficient_material(bare, CHESS_BLACK));
    CHECK(!chess_position_has_insufficient_material(knights, CHESS_WHITE));
    CHECK(!chess_position_has_insufficient_material(claim, CHESS_WHITE));
    CHECK(chess_position_has_insufficient_material(claim, CHESS_BLACK));
    CHECK(!chess_position_has_insufficient_material(bare, 7) && !chess_position_has_insufficient_material(NULL, CHESS_WHITE));
    CHECK(!chess_position_is_fifty_moves(claim) && chess_position_can_claim_fifty_moves(claim));
    CHECK(!chess_position_is_seventy_five_moves(claim));
    CHECK(chess_position_is_fifty_moves(fifty) && chess_position_can_claim_fifty_moves(fifty));
    CHECK(chess_position_is_seventy_five_moves(fifty));
    CHECK(!chess_position_in_check(NULL) && !chess_position_is_checkmate(NULL));
    CHECK(!chess_position_is_stalemate(NULL) && !chess_position_is_insufficient_material(NULL));
    CHECK(!chess_position_is_fifty_moves(NULL) && !chess_position_can_claim_fifty_moves(NULL));
    CHECK(!chess_position_is_seventy_five_moves(NULL));
    chess_position_free(mate);
    chess_position_free(stale);
    chess_position_free(bare);
    chess_position_free(knights);
    chess_position_free(claim);
    chess_position_free(fifty);
}

static void test_perft(void) {
    chess_position *pos = chess_position_new();
    chess_move moves[CHESS_MAX_MOVES];
    uint64_t counts[CHESS_MAX_MOVES];
    uint64_t total = 0;
    size_t n;
    size_t i;
    CHECK(chess_perft(pos, 0) == 1);
    CHECK(chess_perft(pos, 1) == 20);
    CHECK(chess_perft(pos, 3) == 8902);
    CHECK(chess_perft(NULL, 3) == 0);
    n = chess_perft_divide(pos, 3, moves, counts, CHESS_MAX_MOVES);
    CHECK(n == 20);
    for (i = 0; i < n; i++) {
        total += counts[i];
        CHECK(chess_position_is_legal(pos, moves[i]));
    }
    CHECK(total == 8902);
    counts[2] = 12345;
    CHECK(chess_perft_divide(pos, 2, moves, counts, 2) == 20);
    CHECK(counts[0] == 20 && counts[1] == 20 && counts[2] == 12345);
    CHECK(chess_perft_divide(pos, 2, NULL, NULL, 0) == 20);
    CHECK(chess_perft_divide(pos, 2, moves, NULL, 5) == 0);
    CHECK(chess_perft_divide(pos, 2, NULL, counts, 5) == 0);
    CHECK(chess_perft_divide(pos, 0, moves, counts, CHESS_MAX_MOVES) == 0);
    CHECK(chess_perft_divide(NULL, 2, moves, counts, CHESS_MAX_MOVES) == 0);
    chess_position_free(pos);
}

static void test_render(void) {
    chess_position *pos = chess_position_new();
    char buf[400];
    char small[10];
    size_t len = 0;
    CHECK_ERR(chess_position_to_text(pos, CHESS_TEXT_BOARD, buf, sizeof buf, &len), CHESS_OK);
    CHECK(len == 71 && strncmp(buf, "rnbqkbnr\npppppppp\n        \n", 27) == 0);
    CHECK(strcmp(buf + 63, "RNBQKBNR") == 0);
    CHECK_ERR(chess_position_to_text(pos, CHESS_TEXT_ASCII, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strncmp(buf, "8 r n b q k b n r\n", 18) == 0 && len == strlen(buf));
    CHECK(strcmp(buf + len - 18, "  a b c d e f g h\n") == 0);
    CHECK_ERR(chess_position_to_text(pos, CHESS_TEXT_UNICODE, buf, sizeof buf, &len), CHESS_OK);
    /* U+265C BLACK CHESS ROOK in UTF-8. */
    CHECK(strncmp(buf, "8 \xe2\x99\x9c ", 6) == 0 && len == strlen(buf));
    strcpy(small, "same");
    CHECK_ERR(chess_position_to_text(pos, CHESS_TEXT_BOARD, small, sizeof small, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 71 && strcmp(small, "same") == 0);
    CHECK_ERR(chess_position_to_text(pos, CHESS_TEXT_ASCII, small, sizeof small, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 162);
    CHECK_ERR(chess_position_to_text(pos, CHESS_TEXT_UNICODE, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len > 162);
    CHECK_ERR(chess_position_to_text(NULL, CHESS_TEXT_BOARD, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_position_to_text(NULL, CHESS_TEXT_ASCII, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_position_to_text(NULL, CHESS_TEXT_UNICODE, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_position_to_text(pos, CHESS_TEXT_UNICODE, NULL, 8, &len), CHESS_ERR_NULL_POINTER);
    strcpy(small, "same");
    CHECK_ERR(chess_position_to_text(pos, 3, small, sizeof small, &len), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(small, "same") == 0);
    chess_position_free(pos);
}

/* Every code is produced by some call above, but for these: CHESS_END is for readers (pgn.c
 * produces it), CHESS_ERR_OUT_OF_MEMORY and CHESS_ERR_INTERNAL need a failing allocator or a
 * bug (the Rust tests produce them), and the other programs produce the codes of their
 * families. */
static void test_every_code_was_seen(void) {
    size_t i;
    for (i = 0; i < CODE_COUNT; i++) {
        chess_error code = all_codes[i];
        int elsewhere = code == CHESS_ERR_EMPTY_HISTORY ||
                        (code >= CHESS_ERR_SAN_SYNTAX && code <= CHESS_ERR_SAN_NOT_CANONICAL) ||
                        (code >= CHESS_ERR_PGN_TAG && code <= CHESS_ERR_PGN_NON_STANDARD) ||
                        code >= CHESS_ERR_EPD_MISSING_FIELDS;
        if (code == CHESS_END || code == CHESS_ERR_OUT_OF_MEMORY || code == CHESS_ERR_INTERNAL || elsewhere) {
            continue;
        }
        check_codes_seen(&code, 1);
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s TESTDATA_DIR WORK_DIR\n", argv[0]);
        return 2;
    }
    testdata = argv[1];
    workdir = argv[2];
    read_codes_from_header();
    test_version();
    test_positions_by_value();
    test_error_messages();
    test_lifecycle();
    test_fen_read_write();
    test_fen_parse_options();
    test_bad_fens();
    test_fen_error_codes();
    test_fen_components();
    test_fen_split();
    test_fen_file();
    test_move_lists();
    test_play();
    test_move_notation();
    test_squares();
    test_queries();
    test_board_queries();
    test_bitboards();
    test_status();
    test_perft();
    test_render();
    test_every_code_was_seen();
    return report("c api");
}
