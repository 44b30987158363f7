/* PGN through the C API: readers from a file, a buffer and a callback reading the same games;
 * tags, moves and final positions; broken games with their line, column, message and partial
 * game, and reading going on after them; CHESS_END repeated; size limits; tag lookup, listing,
 * setting and removal with short buffers; export and reading back; NULL arguments.
 *
 * With a second directory, compressed copies of two files in it (gzip, Zstandard, two gzip
 * members) read as the plain files, a cut one ending in CHESS_ERR_IO, and a large file read by
 * 0 to 3 threads as by one.
 *
 * Hostile inputs, each under an alarm so that a hang fails: a FIFO and devices given to
 * chess_pgn_split_file, and thread counts up to UINT32_MAX.
 *
 * usage: pgn PGN_DATA_DIR (tests/data/pgn) [COMPRESSED_DIR] */

#define _POSIX_C_SOURCE 200809L

#include "common.h"

#include <sys/stat.h>
#include <unistd.h>

static const char *datadir;

static void data_path(char *path, size_t cap, const char *name) {
    snprintf(path, cap, "%s/%s", datadir, name);
}

/* The whole of a file, or NULL (a failure counted). */
static unsigned char *slurp(const char *name, size_t *len) {
    char path[4096];
    FILE *file;
    unsigned char *data;
    long size;
    data_path(path, sizeof path, name);
    file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        failures++;
        return NULL;
    }
    fseek(file, 0, SEEK_END);
    size = ftell(file);
    fseek(file, 0, SEEK_SET);
    data = malloc((size_t)size + 1);
    *len = fread(data, 1, (size_t)size, file);
    fclose(file);
    return data;
}

/* A text appended to a growing summary of everything a reader gave. */
typedef struct {
    char *text;
    size_t len, cap;
} summary;

static void append(summary *s, const char *text) {
    size_t n = strlen(text);
    if (s->len + n + 1 > s->cap) {
        s->cap = (s->len + n + 1) * 2;
        s->text = realloc(s->text, s->cap);
    }
    memcpy(s->text + s->len, text, n + 1);
    s->len += n;
}

/* Describes a game: its tags, moves in UCI and final FEN, one line. */
static void describe(summary *s, const chess_game *game) {
    char name[256], value[1024], line[2048];
    size_t i, n, count = chess_game_tag_count(game);
    chess_move moves[512];
    for (i = 0; i < count; i++) {
        CHECK_ERR(chess_game_tag_at(game, i, name, sizeof name, NULL, value, sizeof value, NULL), CHESS_OK);
        snprintf(line, sizeof line, "[%s=%s]", name, value);
        append(s, line);
    }
    n = chess_game_moves(game, moves, 512);
    CHECK(n <= 512 && n == chess_game_ply_count(game));
    for (i = 0; i < n && i < 512; i++) {
        char uci[8];
        CHECK_ERR(chess_move_to_uci(moves[i], uci, sizeof uci, NULL), CHESS_OK);
        append(s, " ");
        append(s, uci);
    }
    CHECK_ERR(chess_fen_write(chess_game_position(game), line, sizeof line, NULL), CHESS_OK);
    append(s, " | ");
    append(s, line);
    append(s, "\n");
}

typedef struct {
    int games, broken;
    size_t plies;
} counts;

/* Reads every game of `reader` into `s` (broken ones as "ERROR line:column code message" and
 * their partial game), frees the reader, and returns the counts. */
/* What went wrong in the reader's last call (a checked chess_pgn_reader_last_error). */
static chess_pgn_error_info last_error(const chess_pgn_reader *reader) {
    chess_pgn_error_info info;
    memset(&info, 0x55, sizeof info);
    info.size = sizeof info;
    CHECK_ERR(chess_pgn_reader_last_error(reader, &info), CHESS_OK);
    CHECK(strlen(info.message) < CHESS_PGN_MESSAGE_MAX);
    return info;
}

static counts read_all(chess_pgn_reader *reader, summary *s) {
    counts c = {0, 0, 0};
    chess_error code;
    chess_game *game = NULL;
    for (;;) {
        game = NULL;
        code = seen_code(chess_pgn_reader_next(reader, &game));
        if (code == CHESS_END) {
            break;
        }
        if (code == CHESS_OK) {
            c.games++;
            c.plies += chess_game_ply_count(game);
            {
                chess_pgn_error_info none = last_error(reader);
                CHECK(none.code == CHESS_OK && none.line == 0 && none.column == 0 && none.message[0] == '\0');
            }
            describe(s, game);
            chess_game_free(game);
        } else {
            char line[800];
            chess_game *partial = NULL;
            chess_pgn_error_info info = last_error(reader);
            c.games++;
            c.broken++;
            CHECK(game == NULL);
            CHECK(info.code == code && info.message[0] != '\0');
            CHECK(info.game == (uint64_t)c.games);
            snprintf(line, sizeof line, "ERROR %llu:%llu %u ply %u %s\n", (unsigned long long)info.line,
                     (unsigned long long)info.column, (unsigned)code, (unsigned)info.ply, info.message);
            append(s, line);
            CHECK_ERR(chess_pgn_reader_partial_game(reader, &partial), CHESS_OK);
            describe(s, partial);
            chess_game_free(partial);
        }
    }
    /* The end repeats, and leaves *out alone. */
    game = (chess_game *)&c;
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_END);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_END);
    CHECK(game == (chess_game *)&c);
    CHECK(last_error(reader).line == 0);
    CHECK_ERR(chess_pgn_reader_partial_game(reader, &game), CHESS_END);
    chess_pgn_reader_free(reader);
    return c;
}

static counts read_file(const char *name, summary *s) {
    char path[4096];
    chess_pgn_reader *reader = NULL;
    data_path(path, sizeof path, name);
    CHECK_ERR(chess_pgn_reader_open_file(path, &reader), CHESS_OK);
    return read_all(reader, s);
}

static counts read_buffer(const char *name, summary *s) {
    size_t len = 0;
    unsigned char *data = slurp(name, &len);
    chess_pgn_reader *reader = NULL;
    CHECK_ERR(chess_pgn_reader_from_buffer(data, len, &reader), CHESS_OK);
    /* The bytes were copied: the buffer may go now. */
    memset(data, '!', len);
    free(data);
    return read_all(reader, s);
}

/* A chess_read_fn over a FILE, handing out at most 1000 bytes at a time. */
static size_t read_file_fn(void *user, uint8_t *buf, size_t cap) {
    FILE *file = user;
    size_t n = fread(buf, 1, cap < 1000 ? cap : 1000, file);
    return n == 0 && ferror(file) ? CHESS_READ_ERROR : n;
}

static counts read_callback(const char *name, summary *s) {
    char path[4096];
    FILE *file;
    counts c;
    chess_pgn_reader *reader = NULL;
    data_path(path, sizeof path, name);
    file = fopen(path, "rb");
    CHECK(file != NULL);
    CHECK_ERR(chess_pgn_reader_from_callback(read_file_fn, file, &reader), CHESS_OK);
    c = read_all(reader, s);
    fclose(file);
    return c;
}

/* File, buffer and callback give the same games. */
static counts read_three_ways(const char *name, summary *s) {
    summary b = {NULL, 0, 0}, cb = {NULL, 0, 0};
    counts c = read_file(name, s), c2 = read_buffer(name, &b), c3 = read_callback(name, &cb);
    CHECK(c.games == c2.games && c.games == c3.games && c.broken == c2.broken && c.broken == c3.broken);
    CHECK(s->len == b.len && s->len == cb.len);
    CHECK(s->text != NULL && b.text != NULL && cb.text != NULL);
    if (s->text != NULL && b.text != NULL && cb.text != NULL) {
        CHECK(strcmp(s->text, b.text) == 0 && strcmp(s->text, cb.text) == 0);
    }
    free(b.text);
    free(cb.text);
    return c;
}

static int contains(const summary *s, const char *needle) {
    if (s->text == NULL || strstr(s->text, needle) == NULL) {
        fprintf(stderr, "missing from the games read: %s\n", needle);
        return 0;
    }
    return 1;
}

static void test_format_file(void) {
    summary s = {NULL, 0, 0};
    counts c = read_three_ways("format.pgn", &s);
    CHECK(c.games == 15 && c.broken == 0 && c.plies == 69);
    /* Escapes undone, unescaped quotes kept, a repeated tag replacing the first in place. */
    CHECK(contains(&s, "[Event=Escapes \"quoted\" and \\ backslash][Site=Two tags on a line][Date=2024.01.02]"
                       "[Round=1][White=A][Black=B][Result=1-0][Annotator=unescaped \"quotes\" kept] e2e4 e7e5"));
    CHECK(contains(&s, "f1e1 b7b5 | r1bqk2r/2ppbppp/p1n2n2/1p2p3/B3P3/5N2/PPPP1PPP/RNBQR1K1 w kq - 0 7\n"));
    /* A missing Result tag is the termination marker's. */
    CHECK(contains(&s, "[Event=Annotations][Result=*] e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 | "
                       "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQR1K1 b kq - 5 6\n"));
    /* Null moves, and castling queenside after them. */
    CHECK(contains(&s, " 0000 c2c4 0000 b1c3 0000 e2e4 0000 e4e5 f7f5 "));
    CHECK(contains(&s, "| rnbq1bnr/pppppk2/5p2/8/2PP4/2NB1Q2/PP1BNP1P/2K4R w - - 1 13\n"));
    CHECK(contains(&s, "| 8/8/8/8/4k3/8/8/4K3 w - - 0 52\n"));
    CHECK(contains(&s, " g1h1 | 2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3R1K b - - 3 2\n"));
    CHECK(contains(&s, "[Event=Empty][Result=*] | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"));
    free(s.text);

    /* The same games with CRLF line ends and a byte order mark. */
    {
        summary crlf = {NULL, 0, 0};
        summary lf = {NULL, 0, 0};
        read_file("format.pgn", &lf);
        c = read_three_ways("format_crlf_bom.pgn", &crlf);
        CHECK(c.games == 15 && c.broken == 0 && c.plies == 69);
        CHECK(crlf.text != NULL && lf.text != NULL && strcmp(crlf.text, lf.text) == 0);
        free(crlf.text);
        free(lf.text);
    }
}

static void test_broken_file(void) {
    summary s = {NULL, 0, 0};
    counts c = read_three_ways("broken.pgn", &s);
    char expected[64];
    int i;
    /* Text that is not UTF-8 is read as Windows-1252 (with a warning): 2 games of the file. */
    CHECK(c.games == 24 && c.broken == 13);
    /* Every good game after a broken one is read. */
    for (i = 1; i <= 9; i++) {
        snprintf(expected, sizeof expected, "[Event=Good %d]", i);
        CHECK(contains(&s, expected));
    }
    CHECK(contains(&s, "ERROR 7:7 406 ply 2 game 2, line 7, column 7: unterminated comment at ply 2\n"
                       "[Event=Unterminated comment] e2e4 |"));
    CHECK(contains(&s, "ERROR 15:24 409 ply 4 "));
    CHECK(contains(&s, "ERROR 23:10 408 ply 3 "));
    CHECK(contains(&s, "ERROR 29:1 400 ply 0 "));
    /* The partial game: the main line up to the illegal move. */
    CHECK(contains(&s, "ERROR 40:47 200 ply 9 game 10, line 40, column 47: illegal move \"Bxe5\" at ply 9\n"
                       "[Event=Illegal move mid-game] e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 | "
                       "r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5\n"));
    CHECK(contains(&s, "ERROR 46:1 300 ply 1 "));
    CHECK(strstr(s.text, " 412 ") == NULL);
    CHECK(contains(&s, "ERROR 67:1 410 ply 1 "));
    CHECK(contains(&s, "ERROR 71:7 405 ply 2 "));
    CHECK(contains(&s, "ERROR 75:7 404 ply 2 "));
    CHECK(contains(&s, "ERROR 80:4 301 ply 1 "));
    CHECK(contains(&s, "ERROR 83:1 113 ply 0 "));
    CHECK(contains(&s, "ERROR 88:1 402 ply 0 "));
    CHECK(contains(&s, "ERROR 98:13 300 ply 3 "));
    free(s.text);
}

/* Reads one game from `text` and returns the code. */
static chess_error first_code(const char *text, size_t len) {
    chess_pgn_reader *reader = NULL;
    chess_game *game = NULL;
    chess_error code;
    CHECK_ERR(chess_pgn_reader_from_buffer((const uint8_t *)text, len, &reader), CHESS_OK);
    code = seen_code(chess_pgn_reader_next(reader, &game));
    chess_game_free(game);
    chess_pgn_reader_free(reader);
    return code;
}

static void test_limits(void) {
    size_t i, n = 0;
    char *text = malloc(2u << 20);
    /* A token over 255 bytes. */
    n = (size_t)sprintf(text, "1. e4 ");
    for (i = 0; i < 300; i++) {
        text[n++] = 'a';
    }
    CHECK(first_code(text, n) == CHESS_ERR_PGN_TOKEN_TOO_LONG);
    /* A tag line over 64 KiB. */
    n = (size_t)sprintf(text, "[Event \"");
    for (i = 0; i < 70000; i++) {
        text[n++] = 'x';
    }
    n += (size_t)sprintf(text + n, "\"]\n\n1. e4 *\n");
    CHECK(first_code(text, n) == CHESS_ERR_PGN_TAG_TOO_LONG);
    /* A comment over 1 MiB. */
    n = (size_t)sprintf(text, "1. e4 {");
    for (i = 0; i < (1u << 20) + 10; i++) {
        text[n++] = 'c';
    }
    n += (size_t)sprintf(text + n, "} *\n");
    CHECK(first_code(text, n) == CHESS_ERR_PGN_COMMENT_TOO_LONG);
    /* Variations nested deeper than 10,000. */
    n = (size_t)sprintf(text, "1. e4 ");
    for (i = 0; i < 10001; i++) {
        n += (size_t)sprintf(text + n, "(1. d4 ");
    }
    CHECK(first_code(text, n) == CHESS_ERR_PGN_TOO_DEEP);
    free(text);
}

/* Exports every good game of a file, reads the export back and compares. */
static void test_round_trip(const char *name) {
    chess_pgn_reader *reader = NULL;
    chess_game *game = NULL;
    char path[4096];
    int games = 0;
    data_path(path, sizeof path, name);
    CHECK_ERR(chess_pgn_reader_open_file(path, &reader), CHESS_OK);
    for (;;) {
        chess_error code = chess_pgn_reader_next(reader, &game);
        size_t len = 0, len2 = 0;
        char *pgn, *again;
        chess_pgn_reader *back = NULL;
        chess_game *copy = NULL;
        summary a = {NULL, 0, 0}, b = {NULL, 0, 0};
        if (code == CHESS_END) {
            break;
        }
        if (code != CHESS_OK) {
            continue;
        }
        games++;
        CHECK_ERR(chess_game_to_pgn(game, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
        pgn = malloc(len + 1);
        CHECK_ERR(chess_game_to_pgn(game, pgn, len, &len2), CHESS_ERR_BUFFER_TOO_SMALL);
        CHECK(len2 == len);
        CHECK_ERR(chess_game_to_pgn(game, pgn, len + 1, &len2), CHESS_OK);
        CHECK(len2 == len && strlen(pgn) == len && strncmp(pgn, "[Event ", 7) == 0);
        CHECK_ERR(chess_pgn_reader_from_buffer((const uint8_t *)pgn, len, &back), CHESS_OK);
        CHECK_ERR(chess_pgn_reader_next(back, &copy), CHESS_OK);
        {
            chess_game *none = NULL;
            CHECK_ERR(chess_pgn_reader_next(back, &none), CHESS_END);
            CHECK(none == NULL);
        }
        chess_pgn_reader_free(back);
        again = malloc(len + 1);
        CHECK_ERR(chess_game_to_pgn(copy, again, len + 1, &len2), CHESS_OK);
        CHECK(len2 == len && strcmp(pgn, again) == 0);
        CHECK(chess_game_result(copy) == chess_game_result(game));
        describe(&a, game);
        describe(&b, copy);
        /* The copy has the roster filled in: compare moves and final position. */
        CHECK(strcmp(strrchr(a.text, ']') ? strrchr(a.text, ']') + 1 : a.text,
                     strrchr(b.text, ']') ? strrchr(b.text, ']') + 1 : b.text) == 0);
        free(a.text);
        free(b.text);
        free(pgn);
        free(again);
        chess_game_free(copy);
        chess_game_free(game);
    }
    chess_pgn_reader_free(reader);
    CHECK(games > 0);
}

static void test_tags_and_export(void) {
    static const char text[] = "[Event \"F/S Return Match\"]\n[Site \"Belgrade\"]\n[Result \"1/2-1/2\"]\n"
                               "[WhiteElo \"2650\"]\n\n1. e4 $1 {A comment} e5 (1... c5) 2. Nf3 1/2-1/2\n";
    chess_pgn_reader *reader = NULL;
    chess_game *game = NULL;
    char small[4] = "abc", name[16], value[64];
    size_t len = 99, name_len = 99, value_len = 99;
    CHECK_ERR(chess_pgn_reader_from_buffer((const uint8_t *)text, sizeof text - 1, &reader), CHESS_OK);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    chess_pgn_reader_free(reader);

    CHECK(chess_game_tag_count(game) == 4);
    CHECK(chess_game_result(game) == CHESS_RESULT_DRAW);
    CHECK(chess_game_outcome(game).result == CHESS_RESULT_ONGOING);
    CHECK(chess_game_allows_null_moves(game));
    CHECK_ERR(chess_game_tag(game, "Site", value, sizeof value, &len), CHESS_OK);
    CHECK(strcmp(value, "Belgrade") == 0 && len == 8);
    /* Short buffers: the length needed, the buffer untouched. */
    CHECK_ERR(chess_game_tag(game, "Site", small, sizeof small, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 8 && strcmp(small, "abc") == 0);
    CHECK_ERR(chess_game_tag(game, "Site", NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_game_tag(game, "Site", small, sizeof small, NULL), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_game_tag(game, "site", value, sizeof value, &len), CHESS_ERR_PGN_TAG_NOT_FOUND);
    CHECK_ERR(chess_game_tag(game, "Sit\xc3\xa9", value, sizeof value, &len), CHESS_ERR_INVALID_TEXT);
    CHECK_ERR(chess_game_tag_at(game, 3, name, sizeof name, &name_len, value, sizeof value, &value_len), CHESS_OK);
    CHECK(strcmp(name, "WhiteElo") == 0 && strcmp(value, "2650") == 0 && name_len == 8 && value_len == 4);
    strcpy(name, "same");
    CHECK_ERR(chess_game_tag_at(game, 0, name, sizeof name, &name_len, small, sizeof small, &value_len),
              CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(name_len == 5 && value_len == 16 && strcmp(name, "same") == 0 && strcmp(small, "abc") == 0);
    CHECK_ERR(chess_game_tag_at(game, 4, name, sizeof name, NULL, value, sizeof value, NULL),
              CHESS_ERR_PGN_TAG_NOT_FOUND);

    /* Setting and removing. */
    CHECK_ERR(chess_game_set_tag(game, "Black", "Spassky, Boris V."), CHESS_OK);
    CHECK_ERR(chess_game_set_tag(game, "Site", "Belgrade, Serbia JUG"), CHESS_OK);
    CHECK_ERR(chess_game_set_tag(game, "Annotator", "Jos\xc3\xa9 \"Pepe\""), CHESS_OK);
    CHECK_ERR(chess_game_set_tag(game, "FEN", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_game_set_tag(game, "SetUp", "1"), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_game_set_tag(game, "Variant", "Chess960"), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_game_set_tag(game, "Bad Name", "x"), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_game_set_tag(game, "_x", "x"), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_game_set_tag(game, "Black", "\xff"), CHESS_ERR_INVALID_TEXT);
    CHECK_ERR(chess_game_remove_tag(game, "WhiteElo"), CHESS_OK);
    CHECK_ERR(chess_game_remove_tag(game, "WhiteElo"), CHESS_ERR_PGN_TAG_NOT_FOUND);
    CHECK(chess_game_tag_count(game) == 5);
    CHECK_ERR(chess_game_tag_at(game, 1, name, sizeof name, NULL, value, sizeof value, NULL), CHESS_OK);
    CHECK(strcmp(name, "Site") == 0 && strcmp(value, "Belgrade, Serbia JUG") == 0);

    /* Moves pushed and popped keep the annotations. */
    CHECK_ERR(chess_game_push_san(game, "Nc6", NULL), CHESS_OK);
    {
        char pgn[1024];
        static const char expected[] = "[Event \"F/S Return Match\"]\n[Site \"Belgrade, Serbia JUG\"]\n"
                                       "[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
                                       "[Black \"Spassky, Boris V.\"]\n[Result \"1/2-1/2\"]\n"
                                       "[Annotator \"Jos\xc3\xa9 \\\"Pepe\\\"\"]\n\n"
                                       "1. e4 $1 { A comment } 1... e5 ( 1... c5 ) 2. Nf3 Nc6 1/2-1/2\n";
        CHECK_ERR(chess_game_to_pgn(game, pgn, sizeof pgn, &len), CHESS_OK);
        CHECK(strcmp(pgn, expected) == 0 && len == strlen(expected));
        if (strcmp(pgn, expected) != 0) {
            fprintf(stderr, "exported:\n%s", pgn);
        }
        CHECK_ERR(chess_game_pop(game, NULL), CHESS_OK);
        CHECK_ERR(chess_game_pop(game, NULL), CHESS_OK);
        CHECK_ERR(chess_game_to_pgn(game, pgn, sizeof pgn, &len), CHESS_OK);
        CHECK(strstr(pgn, "\n\n1. e4 $1 { A comment } 1... e5 ( 1... c5 ) 1/2-1/2\n") != NULL);
    }
    chess_game_free(game);

    /* A game made here: no tags; the Result tag sets its result. */
    game = chess_game_new(NULL);
    CHECK(chess_game_tag_count(game) == 0 && chess_game_result(game) == CHESS_RESULT_ONGOING);
    CHECK_ERR(chess_game_tag(game, "Event", value, sizeof value, NULL), CHESS_ERR_PGN_TAG_NOT_FOUND);
    CHECK_ERR(chess_game_set_tag(game, "Result", "0-1"), CHESS_OK);
    CHECK(chess_game_result(game) == CHESS_RESULT_BLACK_WINS);
    {
        char pgn[512];
        CHECK_ERR(chess_game_push_san(game, "f3", NULL), CHESS_OK);
        CHECK_ERR(chess_game_to_pgn(game, pgn, sizeof pgn, NULL), CHESS_OK);
        CHECK(strcmp(pgn, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
                          "[Black \"?\"]\n[Result \"0-1\"]\n\n1. f3 0-1\n") == 0);
    }
    chess_game_free(game);

    /* From a position: SetUp and FEN are written. */
    {
        chess_position *pos = parse("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
        char pgn[512];
        game = chess_game_new(pos);
        chess_position_free(pos);
        CHECK_ERR(chess_game_push_san(game, "Kd7", NULL), CHESS_OK);
        CHECK_ERR(chess_game_to_pgn(game, pgn, sizeof pgn, NULL), CHESS_OK);
        CHECK(strstr(pgn, "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 *\n") != NULL);
        chess_game_free(game);
    }
}

static void test_io_errors_and_nulls(void) {
    char path[4096], buf[256];
    chess_pgn_reader *reader = NULL;
    chess_pgn_reader *untouched = (chess_pgn_reader *)&reader;
    chess_pgn_reader *out = untouched;
    chess_game *game = NULL;
    chess_game *game_out = (chess_game *)&game;
    size_t len = 0;

    data_path(path, sizeof path, "no such file.pgn");
    CHECK_ERR(chess_pgn_reader_open_file(path, &out), CHESS_ERR_FILE_NOT_FOUND);
    CHECK_ERR(chess_pgn_reader_open_file(datadir, &out), CHESS_OK); /* a directory opens... */
    CHECK_ERR(chess_pgn_reader_next(out, &game_out), CHESS_ERR_IO); /* ...but cannot be read */
    {
        chess_pgn_error_info info = last_error(out);
        CHECK(info.code == CHESS_ERR_IO && info.message[0] != '\0' && info.line > 0);
    }
    CHECK_ERR(chess_pgn_reader_next(out, &game_out), CHESS_END);
    CHECK(game_out == (chess_game *)&game);
    chess_pgn_reader_free(out);
    out = untouched;

    CHECK_ERR(chess_pgn_reader_open_file(NULL, &out), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_reader_open_file(path, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_reader_from_buffer(NULL, 5, &out), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_reader_from_buffer((const uint8_t *)"*", 1, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_reader_from_callback(NULL, NULL, &out), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_reader_from_callback(read_file_fn, NULL, NULL), CHESS_ERR_NULL_POINTER);
    CHECK(out == untouched);
    CHECK_ERR(chess_pgn_reader_next(NULL, &game), CHESS_ERR_NULL_POINTER);
    {
        chess_pgn_error_info info;
        info.size = sizeof info;
        CHECK_ERR(chess_pgn_reader_last_error(NULL, &info), CHESS_ERR_NULL_POINTER);
    }
    CHECK_ERR(chess_pgn_reader_partial_game(NULL, &game), CHESS_ERR_NULL_POINTER);
    chess_pgn_reader_free(NULL);

    /* An empty buffer (NULL with length 0) has no game. */
    CHECK_ERR(chess_pgn_reader_from_buffer(NULL, 0, &reader), CHESS_OK);
    CHECK_ERR(chess_pgn_reader_next(reader, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_reader_partial_game(reader, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_END);
    {
        chess_pgn_error_info info = last_error(reader);
        CHECK(info.code == CHESS_OK && info.message[0] == '\0');
        CHECK_ERR(chess_pgn_reader_last_error(reader, NULL), CHESS_ERR_NULL_POINTER);
        /* A struct from a smaller, older header is refused, not overwritten. */
        info.size = sizeof info - 1;
        info.code = 12345;
        CHECK_ERR(chess_pgn_reader_last_error(reader, &info), CHESS_ERR_INVALID_ARGUMENT);
        CHECK(info.code == 12345);
    }
    chess_pgn_reader_free(reader);

    game = chess_game_new(NULL);
    CHECK_ERR(chess_game_tag(NULL, "Event", buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_tag(game, NULL, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_tag(game, "Event", NULL, 4, &len), CHESS_ERR_NULL_POINTER);
    CHECK(chess_game_tag_count(NULL) == 0);
    CHECK_ERR(chess_game_tag_at(NULL, 0, buf, sizeof buf, NULL, buf, sizeof buf, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_tag_at(game, 0, NULL, 4, NULL, buf, sizeof buf, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_set_tag(NULL, "Event", "x"), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_set_tag(game, NULL, "x"), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_set_tag(game, "Event", NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_remove_tag(NULL, "Event"), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_remove_tag(game, NULL), CHESS_ERR_NULL_POINTER);
    CHECK(chess_game_result(NULL) == CHESS_RESULT_ONGOING);
    CHECK_ERR(chess_game_to_pgn(NULL, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_to_pgn(game, NULL, 4, &len), CHESS_ERR_NULL_POINTER);
    chess_game_free(game);
}

/* A callback that fails after handing out a first chunk. */
static size_t failing_fn(void *user, uint8_t *buf, size_t cap) {
    int *calls = user;
    static const char text[] = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 ";
    (void)cap;
    if ((*calls)++ > 0) {
        return CHESS_READ_ERROR;
    }
    memcpy(buf, text, sizeof text - 1);
    return sizeof text - 1;
}

static void test_callback_error(void) {
    int calls = 0;
    chess_pgn_reader *reader = NULL;
    chess_game *game = NULL;
    CHECK_ERR(chess_pgn_reader_from_callback(failing_fn, &calls, &reader), CHESS_OK);
    CHECK(calls == 0);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_IO);
    CHECK(game == NULL && calls == 2);
    CHECK(strstr(last_error(reader).message, "read error") != NULL);
    CHECK_ERR(chess_pgn_reader_partial_game(reader, &game), CHESS_OK);
    chess_game_free(game);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_END);
    chess_pgn_reader_free(reader);
}

/* A NUL byte in a tag value or a comment breaks that game: a C string could not hold the text
 * (it once read as "BA" from "BA\0D", with a length past the NUL). The next game is read. */
static void test_nul_bytes(void) {
    static const char pgn[] = "[White \"BA\0D\"]\n\n1. e4 *\n\n[White \"ok\"]\n\n1. e4 {x\0y} e5 *\n\n"
                              "[White \"last\"]\n\n1. d4 *\n";
    chess_pgn_reader *reader = NULL;
    chess_game *game = NULL;
    char white[16];
    CHECK_ERR(chess_pgn_reader_from_buffer((const uint8_t *)pgn, sizeof pgn - 1, &reader), CHESS_OK);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_PGN_NUL_BYTE);
    {
        chess_pgn_error_info info = last_error(reader);
        CHECK(info.line == 1 && info.game == 1 && info.code == CHESS_ERR_PGN_NUL_BYTE);
    }
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_PGN_NUL_BYTE);
    {
        chess_pgn_error_info info = last_error(reader);
        CHECK(info.line == 7 && info.ply == 2);
    }
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK_ERR(chess_game_tag(game, "White", white, sizeof white, NULL), CHESS_OK);
    CHECK(strcmp(white, "last") == 0);
    chess_game_free(game);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_END);
    chess_pgn_reader_free(reader);
}

/* A reader over `text` with `options`; NULL options keep the defaults. */
static chess_pgn_reader *reader_with(const char *text, const chess_pgn_options *options) {
    chess_pgn_reader *reader = NULL;
    CHECK_ERR(chess_pgn_reader_from_buffer((const uint8_t *)text, strlen(text), &reader), CHESS_OK);
    if (options != NULL) {
        CHECK_ERR(chess_pgn_reader_set_options(reader, options), CHESS_OK);
    }
    return reader;
}

/* Strict SAN, lossy text, headers only and limits, each against the default reading; options
 * set between games apply from the next one; bad options change nothing. */
static void test_options(void) {
    static const char checks_missing[] = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 *\n";
    static const char latin1[] = "[White \"caf\xe9\"]\n\n1. e4 {\xe9t\xe9} *\n";
    static const char two[] = "[White \"a\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n"
                              "1. O-O {castled} (1. Kd1 $2) Kd7 2. Rf7+ Kd6 1-0\n\n"
                              "[White \"b\"]\n\n1. e5 {illegal} 0-1\n";
    chess_pgn_options options = {.size = sizeof options};
    chess_pgn_reader *reader;
    chess_game *game = NULL;
    char text[64];
    chess_position pos, start;

    options.flags = CHESS_PGN_STRICT_SAN;
    reader = reader_with(checks_missing, &options);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_SAN_NOT_CANONICAL);
    CHECK(last_error(reader).ply == 7);
    chess_pgn_reader_free(reader);
    reader = reader_with(checks_missing, NULL);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK(chess_game_ply_count(game) == 7);
    chess_game_free(game);
    chess_pgn_reader_free(reader);

    /* Text that is not UTF-8: Windows-1252 with one warning, or refused when strict. */
    reader = reader_with(latin1, NULL);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK_ERR(chess_game_tag(game, "White", text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "caf\xc3\xa9") == 0);
    CHECK(chess_game_warning_count(game) == 1);
    CHECK_ERR(chess_game_warning(game, 0, text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "line 1, column 1: text that is not UTF-8 read as Windows-1252") == 0);
    CHECK_ERR(chess_game_warning(game, 1, text, sizeof text, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_game_warning(NULL, 0, text, sizeof text, NULL), CHESS_ERR_NULL_POINTER);
    CHECK(chess_game_warning_count(NULL) == 0);
    chess_game_free(game);
    chess_pgn_reader_free(reader);
    options.flags = CHESS_PGN_STRICT;
    reader = reader_with(latin1, &options);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_PGN_INVALID_UTF8);
    chess_pgn_reader_free(reader);
    reader = reader_with("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7++ 1-0\n\n1. e4 e5 \xc2\xbd-\xc2\xbd\n", &options);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_PGN_NON_STANDARD);
    CHECK(strstr(last_error(reader).message, "check sign ++") != NULL);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_PGN_NON_STANDARD);
    chess_pgn_reader_free(reader);
    reader = reader_with("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7++ 1-0\n", NULL);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK(chess_game_result(game) == CHESS_RESULT_WHITE_WINS && chess_game_ply_count(game) == 7);
    chess_game_free(game);
    chess_pgn_reader_free(reader);
    options.flags = CHESS_PGN_LOSSY_TEXT;
    reader = reader_with(latin1, &options);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK_ERR(chess_game_tag(game, "White", text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "caf\xef\xbf\xbd") == 0);
    CHECK_ERR(chess_node_comment(game, chess_node_first_child(game, CHESS_NODE_ROOT), CHESS_COMMENT_AFTER, 0, text,
                                 sizeof text, NULL),
              CHESS_OK);
    CHECK(strcmp(text, "\xef\xbf\xbdt\xef\xbf\xbd") == 0);
    chess_game_free(game);
    chess_pgn_reader_free(reader);

    /* Headers only: tags, start position and result; the illegal move is never read. */
    options.flags = CHESS_PGN_HEADERS_ONLY;
    reader = reader_with(two, &options);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK(chess_node_count(game) == 1 && chess_game_ply_count(game) == 0);
    CHECK(chess_game_result(game) == CHESS_RESULT_WHITE_WINS);
    CHECK_ERR(chess_fen_parse_into("4k3/8/8/8/8/8/8/4K2R w K - 0 1", &start), CHESS_OK);
    CHECK(chess_position_zobrist(chess_game_start(game)) == chess_position_zobrist(&start));
    CHECK(chess_node_comment_count(game, CHESS_NODE_ROOT, CHESS_COMMENT_AFTER) == 0);
    chess_game_free(game);
    /* Options apply from the next game: this one is read whole, and its bad move breaks it. */
    options.flags = 0;
    CHECK_ERR(chess_pgn_reader_set_options(reader, &options), CHESS_OK);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_ILLEGAL_MOVE);
    chess_pgn_reader_free(reader);

    /* Limits: 0 keeps the default, others replace it. */
    options.max_depth = 1;
    reader = reader_with(two, &options);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    chess_game_free(game);
    chess_pgn_reader_free(reader);
    options.max_depth = 0;
    options.max_comment_len = 5;
    reader = reader_with(two, &options);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_PGN_COMMENT_TOO_LONG);
    chess_pgn_reader_free(reader);
    options.max_comment_len = 0;
    options.max_tag_len = 8;
    reader = reader_with(two, &options);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_PGN_TAG_TOO_LONG);
    chess_pgn_reader_free(reader);

    /* Bad options: a short size, an unknown flag, NULLs; the reader keeps what it had. */
    reader = reader_with(two, NULL);
    options.max_tag_len = 0;
    options.flags = 32;
    CHECK_ERR(chess_pgn_reader_set_options(reader, &options), CHESS_ERR_INVALID_ARGUMENT);
    options.flags = CHESS_PGN_HEADERS_ONLY;
    options.size = sizeof options - 1;
    CHECK_ERR(chess_pgn_reader_set_options(reader, &options), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_pgn_reader_set_options(reader, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_reader_set_options(NULL, &options), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK(chess_game_ply_count(game) == 4);
    CHECK_ERR(chess_node_position(game, chess_node_first_child(game, CHESS_NODE_ROOT), &pos), CHESS_OK);
    CHECK(chess_position_king_square(&pos, CHESS_WHITE) == 6 /* g1 */);
    chess_game_free(game);
    chess_pgn_reader_free(reader);
}

/* The node functions on a small tree: navigation, moves, SAN as written and generated, NAGs,
 * comments before and after, positions; short buffers, bad nodes and NULLs. */
static void test_nodes(void) {
    static const char pgn[] = "{start} 1. e2-e4 $1 {good} {really} (1. d4?! {solid} 1... d5) (1. c4) 1... e5 *\n";
    chess_pgn_reader *reader = reader_with(pgn, NULL);
    chess_game *game = NULL;
    chess_node e4, d4, c4, d5, e5, pushed;
    char text[32];
    size_t len = 0;
    uint8_t nags[4] = {0};
    chess_position pos;
    chess_move mv;

    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    chess_pgn_reader_free(reader);
    CHECK(chess_node_count(game) == 6);
    e4 = chess_node_first_child(game, CHESS_NODE_ROOT);
    d4 = chess_node_next_sibling(game, e4);
    c4 = chess_node_next_sibling(game, d4);
    d5 = chess_node_first_child(game, d4);
    e5 = chess_node_first_child(game, e4);
    CHECK(chess_node_next_sibling(game, c4) == CHESS_NODE_NONE && chess_node_first_child(game, c4) == CHESS_NODE_NONE);
    CHECK(chess_node_parent(game, d5) == d4 && chess_node_parent(game, e4) == CHESS_NODE_ROOT);
    CHECK(chess_node_parent(game, CHESS_NODE_ROOT) == CHESS_NODE_NONE);
    CHECK(chess_node_next_sibling(game, CHESS_NODE_ROOT) == CHESS_NODE_NONE);
    CHECK(chess_node_ply(game, d5) == 2 && chess_node_ply(game, CHESS_NODE_ROOT) == 0);
    CHECK_ERR(chess_move_from_uci(chess_game_start(game), "e2e4", &mv), CHESS_OK);
    CHECK(chess_node_move(game, e4) == mv && chess_node_move(game, CHESS_NODE_ROOT) == CHESS_MOVE_NONE);

    CHECK_ERR(chess_node_san(game, e4, text, sizeof text, &len), CHESS_OK);
    CHECK(strcmp(text, "e2-e4") == 0 && len == 5);
    CHECK_ERR(chess_node_san(game, e4, text, 5, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 5 && strcmp(text, "e2-e4") == 0);
    CHECK_ERR(chess_node_san(game, CHESS_NODE_ROOT, text, sizeof text, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_node_san(game, 99, text, sizeof text, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_node_san(NULL, e4, text, sizeof text, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_node_san(game, e4, NULL, 4, NULL), CHESS_ERR_NULL_POINTER);

    CHECK(chess_node_nags(game, e4, nags, sizeof nags) == 1 && nags[0] == 1);
    CHECK(chess_node_nags(game, d4, NULL, 0) == 1);
    CHECK(chess_node_nags(game, d4, NULL, 1) == 0);
    CHECK(chess_node_nags(game, d4, nags, 1) == 1 && nags[0] == 6);
    CHECK(chess_node_nags(game, e5, nags, sizeof nags) == 0);

    CHECK(chess_node_comment_count(game, CHESS_NODE_ROOT, CHESS_COMMENT_AFTER) == 1);
    CHECK(chess_node_comment_count(game, e4, CHESS_COMMENT_AFTER) == 2);
    CHECK(chess_node_comment_count(game, d4, CHESS_COMMENT_BEFORE) == 0);
    CHECK(chess_node_comment_count(game, d4, CHESS_COMMENT_AFTER) == 1);
    CHECK(chess_node_comment_count(game, e4, 2) == 0 && chess_node_comment_count(game, 99, CHESS_COMMENT_AFTER) == 0);
    CHECK_ERR(chess_node_comment(game, e4, CHESS_COMMENT_AFTER, 1, text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "really") == 0);
    CHECK_ERR(chess_node_comment(game, e4, CHESS_COMMENT_AFTER, 2, text, sizeof text, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_node_comment(game, e4, 7, 0, text, sizeof text, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_node_comment(game, CHESS_NODE_ROOT, CHESS_COMMENT_AFTER, 0, text, 5, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 5);
    CHECK_ERR(chess_node_comment(NULL, e4, CHESS_COMMENT_AFTER, 0, text, sizeof text, NULL), CHESS_ERR_NULL_POINTER);

    CHECK_ERR(chess_node_position(game, d5, &pos), CHESS_OK);
    CHECK_ERR(chess_fen_write(&pos, text, sizeof text, NULL), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(chess_position_piece_at(&pos, 35 /* d5 */) == CHESS_BLACK_PAWN);
    CHECK_ERR(chess_node_position(game, 99, &pos), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_node_position(game, d5, NULL), CHESS_ERR_NULL_POINTER);
    CHECK(chess_node_count(NULL) == 0 && chess_node_first_child(NULL, 0) == CHESS_NODE_NONE);

    /* A move pushed has no text as written: its SAN is generated. A null move is "--". Pushing
     * and popping keeps the numbers of the nodes read. */
    CHECK_ERR(chess_game_push_san(game, "Nf3", NULL), CHESS_OK);
    pushed = chess_node_first_child(game, e5);
    CHECK(pushed == 6 && chess_node_count(game) == 7);
    CHECK_ERR(chess_node_san(game, pushed, text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "Nf3") == 0);
    CHECK_ERR(chess_game_push(game, CHESS_MOVE_NONE), CHESS_OK);
    CHECK_ERR(chess_node_san(game, chess_node_first_child(game, pushed), text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "--") == 0);
    CHECK_ERR(chess_game_pop(game, NULL), CHESS_OK);
    CHECK_ERR(chess_game_pop(game, NULL), CHESS_OK);
    CHECK(chess_node_count(game) == 6 && chess_node_first_child(game, e4) == e5);
    chess_game_free(game);
}

/* Bytes handed out a few at a time, then a read error once `left` is spent. */
typedef struct {
    const unsigned char *data;
    size_t len;
    size_t left;
} failing_source;

static size_t failing_after_fn(void *user, uint8_t *buf, size_t cap) {
    failing_source *src = user;
    size_t n = cap < 3 ? cap : 3;
    if (src->left == 0) {
        return CHESS_READ_ERROR;
    }
    n = n < src->left ? n : src->left;
    n = n < src->len ? n : src->len;
    memcpy(buf, src->data, n);
    src->data += n;
    src->len -= n;
    src->left -= n;
    return n;
}

/* A read error after any number of bytes: the games read so far (each the same as in a whole
 * reading), then CHESS_ERR_IO, then CHESS_END on every later call. */
/* Commands in comments, per move: clock, elapsed time, evaluation, highlights, arrows, and the
 * rest of the text. */
static void test_annotations(void) {
    static const char pgn[] = "1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval #-4,22] [%clk 0:02:59.5] }\n"
                              "2. Nf3 { [%csl Ga4,Rb5][%cal Ge2e4] Good [%emt 0:00:05] } *\n";
    chess_pgn_reader *reader = reader_with(pgn, NULL);
    chess_game *game = NULL;
    chess_node e4, e5, nf3;
    chess_eval eval = {0, 0, 0};
    chess_highlight highlights[4];
    chess_arrow arrows[1];
    double seconds = -1;
    char text[32];
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    e4 = chess_node_first_child(game, CHESS_NODE_ROOT);
    e5 = chess_node_first_child(game, e4);
    nf3 = chess_node_first_child(game, e5);
    CHECK_ERR(chess_node_clock(game, e4, &seconds), CHESS_OK);
    CHECK(seconds == 180.0);
    CHECK_ERR(chess_node_clock(game, e5, &seconds), CHESS_OK);
    CHECK(seconds == 179.5);
    CHECK_ERR(chess_node_eval(game, e4, &eval), CHESS_OK);
    CHECK(eval.kind == CHESS_SCORE_CP && eval.value == 17 && eval.depth == CHESS_EVAL_NO_DEPTH);
    CHECK_ERR(chess_node_eval(game, e5, &eval), CHESS_OK);
    CHECK(eval.kind == CHESS_SCORE_MATE && eval.value == -4 && eval.depth == 22);
    /* None: CHESS_END, the output untouched. */
    CHECK_ERR(chess_node_clock(game, nf3, &seconds), CHESS_END);
    CHECK(seconds == 179.5);
    CHECK_ERR(chess_node_eval(game, nf3, &eval), CHESS_END);
    CHECK_ERR(chess_node_elapsed(game, e4, &seconds), CHESS_END);
    CHECK_ERR(chess_node_elapsed(game, nf3, &seconds), CHESS_OK);
    CHECK(seconds == 5.0);
    CHECK(chess_node_highlights(game, nf3, NULL, 0) == 2);
    CHECK(chess_node_highlights(game, nf3, highlights, 4) == 2);
    CHECK(highlights[0].square == 24 && highlights[0].color == CHESS_MARK_GREEN);
    CHECK(highlights[1].square == 33 && highlights[1].color == CHESS_MARK_RED);
    CHECK(chess_node_arrows(game, nf3, arrows, 1) == 1);
    CHECK(arrows[0].from == 12 && arrows[0].to == 28 && arrows[0].color == CHESS_MARK_GREEN);
    CHECK(chess_node_arrows(game, e4, arrows, 1) == 0);
    CHECK_ERR(chess_node_comment_text(game, nf3, text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "Good") == 0);
    CHECK_ERR(chess_node_comment_text(game, e4, text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "") == 0);
    /* Bad arguments. */
    CHECK_ERR(chess_node_clock(NULL, e4, &seconds), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_node_clock(game, e4, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_node_eval(game, 99, &eval), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_node_comment_text(game, 99, text, sizeof text, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(chess_node_highlights(game, 99, highlights, 4) == 0 && chess_node_arrows(NULL, nf3, arrows, 1) == 0);
    chess_game_free(game);
    chess_pgn_reader_free(reader);
}

/* The main line at once: every tag in one text, the nodes, the SAN as written (or made for a
 * move pushed), and the clocks, move times and evaluations in arrays, with their sentinels. */
static void test_mainline_arrays(void) {
    static const char pgn[] = "[Event \"E\"]\n[White \"Jos\xc3\xa9\"]\n\n"
                              "1. e2-e4 { [%eval 0.17] [%clk 0:03:00] } (1. d4) 1... e5 { [%eval #-4,22] }\n"
                              "2. Ng1f3 { [%emt 0:00:05] } *\n";
    static const char tags[] = "Event\0E\0White\0Jos\xc3\xa9\0Result\0*\0";
    chess_pgn_reader *reader = reader_with(pgn, NULL);
    chess_game *game = NULL, *empty = chess_game_new(NULL);
    chess_node nodes[4] = {0, 0, 0, 0};
    double times[4] = {0, 0, 0, 0};
    chess_eval evals[4];
    char text[64], small[8] = "abcdefg";
    size_t len = 0;
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    chess_pgn_reader_free(reader);

    CHECK_ERR(chess_game_tags(game, text, sizeof text, &len), CHESS_OK);
    CHECK(len == sizeof tags - 1 && memcmp(text, tags, sizeof tags) == 0);
    CHECK_ERR(chess_game_tags(game, text, len, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_game_tags(game, small, sizeof small, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == sizeof tags - 1 && strcmp(small, "abcdefg") == 0);
    CHECK_ERR(chess_game_tags(game, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_game_tags(empty, text, sizeof text, &len), CHESS_OK);
    CHECK(len == 0 && text[0] == '\0');
    CHECK_ERR(chess_game_tags(NULL, text, sizeof text, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_tags(game, NULL, 4, &len), CHESS_ERR_NULL_POINTER);

    /* The nodes of the main line, the variation left out. */
    CHECK(chess_game_mainline_nodes(game, NULL, 0) == 3);
    CHECK(chess_game_mainline_nodes(game, nodes, 2) == 3 && nodes[2] == 0);
    CHECK(chess_game_mainline_nodes(game, nodes, 4) == 3);
    CHECK(nodes[0] == chess_node_first_child(game, CHESS_NODE_ROOT) && nodes[1] == chess_node_first_child(game, nodes[0]));
    CHECK(nodes[2] == chess_node_first_child(game, nodes[1]) && nodes[3] == 0);
    CHECK(chess_game_mainline_nodes(game, NULL, 4) == 0 && chess_game_mainline_nodes(NULL, nodes, 4) == 0);
    CHECK(chess_game_mainline_nodes(empty, nodes, 4) == 0);

    /* SAN as written; a move pushed afterwards has its SAN made. */
    CHECK_ERR(chess_game_push_san(game, "Nc6", NULL), CHESS_OK);
    CHECK_ERR(chess_game_mainline_san(game, text, sizeof text, &len), CHESS_OK);
    CHECK(strcmp(text, "e2-e4 e5 Ng1f3 Nc6") == 0 && len == 18);
    CHECK_ERR(chess_game_mainline_san(game, small, sizeof small, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 18 && strcmp(small, "abcdefg") == 0);
    CHECK_ERR(chess_game_mainline_san(empty, text, sizeof text, &len), CHESS_OK);
    CHECK(len == 0 && text[0] == '\0');
    CHECK_ERR(chess_game_mainline_san(NULL, text, sizeof text, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_game_mainline_san(game, NULL, 4, &len), CHESS_ERR_NULL_POINTER);

    /* Clocks and move times: CHESS_NO_TIME where the command is missing. */
    CHECK(chess_game_mainline_clocks(game, times, 4) == 4);
    CHECK(times[0] == 180.0 && times[1] == CHESS_NO_TIME && times[2] == CHESS_NO_TIME && times[3] == CHESS_NO_TIME);
    times[1] = 7;
    CHECK(chess_game_mainline_clocks(game, times, 1) == 4 && times[1] == 7);
    CHECK(chess_game_mainline_elapsed(game, times, 4) == 4);
    CHECK(times[0] == CHESS_NO_TIME && times[1] == CHESS_NO_TIME && times[2] == 5.0 && times[3] == CHESS_NO_TIME);
    CHECK(chess_game_mainline_clocks(NULL, times, 4) == 0 && chess_game_mainline_elapsed(game, NULL, 4) == 0);
    CHECK(chess_game_mainline_clocks(game, NULL, 0) == 4);

    /* Evaluations: CHESS_SCORE_NONE where there is none. */
    CHECK(chess_game_mainline_evals(game, evals, 4) == 4);
    CHECK(evals[0].kind == CHESS_SCORE_CP && evals[0].value == 17 && evals[0].depth == CHESS_EVAL_NO_DEPTH);
    CHECK(evals[1].kind == CHESS_SCORE_MATE && evals[1].value == -4 && evals[1].depth == 22);
    CHECK(evals[2].kind == CHESS_SCORE_NONE && evals[2].value == 0 && evals[2].depth == CHESS_EVAL_NO_DEPTH);
    CHECK(chess_game_mainline_evals(NULL, evals, 4) == 0 && chess_game_mainline_evals(game, NULL, 4) == 0);
    CHECK(chess_game_mainline_evals(empty, evals, 4) == 0);
    chess_game_free(game);
    chess_game_free(empty);
}

static void test_read_error_anywhere(void) {
    size_t len = 0, fail_at;
    unsigned char *data = slurp("format.pgn", &len);
    char whole[32][CHESS_FEN_MAX];
    size_t games = 0;
    chess_pgn_reader *reader = NULL;
    chess_game *game = NULL;
    CHECK_ERR(chess_pgn_reader_from_buffer(data, len, &reader), CHESS_OK);
    while (games < 32 && chess_pgn_reader_next(reader, &game) == CHESS_OK) {
        chess_fen_write(chess_game_position(game), whole[games++], CHESS_FEN_MAX, NULL);
        chess_game_free(game);
    }
    chess_pgn_reader_free(reader);
    for (fail_at = 0; fail_at < len; fail_at += 5) {
        failing_source src = {data, len, fail_at};
        size_t read = 0;
        int i;
        chess_error err;
        CHECK_ERR(chess_pgn_reader_from_callback(failing_after_fn, &src, &reader), CHESS_OK);
        while ((err = chess_pgn_reader_next(reader, &game)) == CHESS_OK) {
            char fen[CHESS_FEN_MAX];
            chess_fen_write(chess_game_position(game), fen, sizeof fen, NULL);
            CHECK(read < games && strcmp(fen, whole[read]) == 0);
            read++;
            chess_game_free(game);
        }
        CHECK_ERR(err, CHESS_ERR_IO);
        for (i = 0; i < 3; i++) {
            CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_END);
        }
        chess_pgn_reader_free(reader);
    }
    free(data);
}

/* Compressed copies (made by the test driver in `dir`), recognised by their first bytes: read
 * three ways, the same games as the plain file's; a cut one gives its whole games, then
 * CHESS_ERR_IO, then the end. */
static void test_compressed(const char *dir) {
    static const char *const names[] = {"format.pgn", "broken.pgn"};
    static const char *const suffixes[] = {".gz", ".zst", ".multi.gz"};
    const char *plain_dir = datadir;
    char path[4096];
    chess_pgn_reader *reader = NULL;
    chess_game *game = NULL;
    chess_error code;
    int whole = 0;
    size_t i, j;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        summary plain = {NULL, 0, 0};
        counts p = read_file(names[i], &plain);
        datadir = dir;
        for (j = 0; j < sizeof suffixes / sizeof suffixes[0]; j++) {
            char name[64];
            summary s = {NULL, 0, 0};
            counts c;
            snprintf(name, sizeof name, "%s%s", names[i], suffixes[j]);
            c = read_three_ways(name, &s);
            CHECK(c.games == p.games && c.broken == p.broken && c.plies == p.plies);
            CHECK(s.text != NULL && plain.text != NULL && strcmp(s.text, plain.text) == 0);
            free(s.text);
        }
        datadir = plain_dir;
        free(plain.text);
    }
    snprintf(path, sizeof path, "%s/format.pgn.cut.gz", dir);
    CHECK_ERR(chess_pgn_reader_open_file(path, &reader), CHESS_OK);
    while ((code = chess_pgn_reader_next(reader, &game)) == CHESS_OK) {
        chess_game_free(game);
        game = NULL;
        whole++;
    }
    CHECK_ERR(code, CHESS_ERR_IO);
    CHECK(whole > 0 && whole < 15);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_END);
    chess_pgn_reader_free(reader);
}

/* A file or buffer reader given threads: the same games, errors and partial games as one. */
static counts read_threaded(const char *name, uint32_t threads, int from_buffer, summary *s) {
    char path[4096];
    chess_pgn_reader *reader = NULL;
    unsigned char *data = NULL;
    size_t len = 0;
    if (from_buffer) {
        data = slurp(name, &len);
        CHECK_ERR(chess_pgn_reader_from_buffer(data, len, &reader), CHESS_OK);
        free(data);
    } else {
        data_path(path, sizeof path, name);
        CHECK_ERR(chess_pgn_reader_open_file(path, &reader), CHESS_OK);
    }
    CHECK_ERR(chess_pgn_reader_set_threads(reader, threads), CHESS_OK);
    return read_all(reader, s);
}

static void test_threads(const char *dir) {
    const char *plain_dir = datadir;
    summary one = {NULL, 0, 0};
    counts c1;
    uint32_t threads;
    int from_buffer;
    chess_pgn_reader *reader = NULL;
    chess_game *game = NULL;
    chess_pgn_options options;
    datadir = dir;
    c1 = read_file("broken_x300.pgn", &one);
    CHECK(c1.games == 24 * 300 && c1.broken == 13 * 300);
    for (threads = 0; threads <= 3; threads++) {
        for (from_buffer = 0; from_buffer < 2; from_buffer++) {
            summary s = {NULL, 0, 0};
            counts c = read_threaded("broken_x300.pgn", threads, from_buffer, &s);
            CHECK(c.games == c1.games && c.broken == c1.broken && c.plies == c1.plies);
            CHECK(s.text != NULL && one.text != NULL && strcmp(s.text, one.text) == 0);
            free(s.text);
        }
    }
    free(one.text);
    /* Threads are set before reading starts, on a file or buffer reader only; options too, once
     * threads read. */
    reader = reader_with("1. e4 *\n\n1. d4 *\n", NULL);
    CHECK_ERR(chess_pgn_reader_set_threads(reader, 2), CHESS_OK);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    chess_game_free(game);
    CHECK_ERR(chess_pgn_reader_set_threads(reader, 2), CHESS_ERR_INVALID_ARGUMENT);
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    CHECK_ERR(chess_pgn_reader_set_options(reader, &options), CHESS_ERR_INVALID_ARGUMENT);
    chess_pgn_reader_free(reader);
    reader = NULL;
    CHECK_ERR(chess_pgn_reader_from_callback(read_file_fn, stdin, &reader), CHESS_OK);
    CHECK_ERR(chess_pgn_reader_set_threads(reader, 2), CHESS_ERR_INVALID_ARGUMENT);
    chess_pgn_reader_free(reader);
    CHECK_ERR(chess_pgn_reader_set_threads(NULL, 2), CHESS_ERR_NULL_POINTER);
    datadir = plain_dir;
}

/* A file cut into pieces of whole games: each piece read apart, they hold the games of the
 * whole file, broken ones included; a compressed file is refused. */
static void test_split_file(const char *dir) {
    const char *plain_dir = datadir;
    char path[4096];
    uint64_t offsets[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    size_t count = 99, len = 0, i;
    unsigned char *data;
    summary whole_text = {NULL, 0, 0};
    counts whole, pieces = {0, 0, 0};
    datadir = dir;
    data_path(path, sizeof path, "broken_x300.pgn");
    whole = read_file("broken_x300.pgn", &whole_text);
    data = slurp("broken_x300.pgn", &len);
    CHECK_ERR(chess_pgn_split_file(path, 5, offsets, &count), CHESS_OK);
    CHECK(count == 5 && offsets[0] == 0 && offsets[5] == 9);
    for (i = 0; i < count; i++) {
        uint64_t end = i + 1 < count ? offsets[i + 1] : (uint64_t)len;
        summary s = {NULL, 0, 0};
        chess_pgn_reader *reader = NULL;
        counts c;
        CHECK(offsets[i] < end && end <= len);
        /* About a fifth of the file each. */
        CHECK(end - offsets[i] > len / 10 && end - offsets[i] < len / 5 * 2);
        CHECK_ERR(chess_pgn_reader_from_buffer(data + offsets[i], (size_t)(end - offsets[i]), &reader), CHESS_OK);
        c = read_all(reader, &s);
        pieces.games += c.games;
        pieces.broken += c.broken;
        pieces.plies += c.plies;
        free(s.text);
    }
    CHECK(pieces.games == whole.games && pieces.broken == whole.broken && pieces.plies == whole.plies);
    /* More parts than games: one piece per game at most. */
    {
        uint64_t many[4096];
        CHECK_ERR(chess_pgn_split_file(path, 4096, many, &count), CHESS_OK);
        CHECK(count > 1 && count <= (size_t)whole.games);
    }
    CHECK_ERR(chess_pgn_split_file(path, 1, offsets, &count), CHESS_OK);
    CHECK(count == 1 && offsets[0] == 0);
    /* Refused: compressed text, no parts, no file, NULLs; the outputs untouched. */
    offsets[0] = 7;
    count = 99;
    data_path(path, sizeof path, "format.pgn.gz");
    CHECK_ERR(chess_pgn_split_file(path, 2, offsets, &count), CHESS_ERR_INVALID_ARGUMENT);
    data_path(path, sizeof path, "format.pgn.zst");
    CHECK_ERR(chess_pgn_split_file(path, 2, offsets, &count), CHESS_ERR_INVALID_ARGUMENT);
    data_path(path, sizeof path, "broken_x300.pgn");
    CHECK_ERR(chess_pgn_split_file(path, 0, offsets, &count), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_pgn_split_file(path, 2, NULL, &count), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_split_file(path, 2, offsets, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_split_file(NULL, 2, offsets, &count), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_pgn_split_file("/no/such/file.pgn", 2, offsets, &count), CHESS_ERR_FILE_NOT_FOUND);
    CHECK(offsets[0] == 7 && count == 99);
    free(data);
    free(whole_text.text);
    datadir = plain_dir;
}

/* What is not a regular file is refused at once by chess_pgn_split_file (a FIFO would block the
 * open, a device never end); huge thread counts read with at most CHESS_PGN_MAX_THREADS
 * threads, as fast as a few. SIGALRM ends the program if any of it hangs. */
static void test_hostile_inputs(void) {
    static const char *devices[] = {"/dev/zero", "/dev/urandom", "/dev/null"};
    static const uint32_t counts_asked[] = {1000000, 4294967295u, 0};
    char dir[] = "/tmp/chesscore_pgn_XXXXXX", fifo[64];
    uint64_t offsets[4];
    size_t count = 99, i;
    CHECK(CHESS_PGN_MAX_THREADS >= 2 && CHESS_PGN_MAX_THREADS <= 1024);
    alarm(60);
    CHECK(mkdtemp(dir) != NULL);
    snprintf(fifo, sizeof fifo, "%s/games.pgn", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK_ERR(chess_pgn_split_file(fifo, 2, offsets, &count), CHESS_ERR_IO);
    CHECK_ERR(chess_pgn_split_file(dir, 2, offsets, &count), CHESS_ERR_IO);
    for (i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        CHECK_ERR(chess_pgn_split_file(devices[i], 2, offsets, &count), CHESS_ERR_IO);
    }
    CHECK(count == 99);
    unlink(fifo);
    rmdir(dir);
    for (i = 0; i < sizeof counts_asked / sizeof counts_asked[0]; i++) {
        chess_pgn_reader *reader = NULL;
        summary s = {NULL, 0, 0};
        counts c;
        const char *text = "1. e4 e5 *\n\n1. d4 *\n";
        CHECK_ERR(chess_pgn_reader_from_buffer((const uint8_t *)text, strlen(text), &reader), CHESS_OK);
        CHECK_ERR(chess_pgn_reader_set_threads(reader, counts_asked[i]), CHESS_OK);
        c = read_all(reader, &s);
        CHECK(c.games == 2 && c.plies == 3);
        free(s.text);
    }
    alarm(0);
}

int main(int argc, char **argv) {
    static const chess_error owned[] = {
        CHESS_ERR_PGN_TAG,
        CHESS_ERR_PGN_TAG_TOO_LONG,
        CHESS_ERR_PGN_VARIANT,
        CHESS_ERR_PGN_TOKEN_TOO_LONG,
        CHESS_ERR_PGN_UNEXPECTED_CHAR,
        CHESS_ERR_PGN_NAG,
        CHESS_ERR_PGN_UNTERMINATED_COMMENT,
        CHESS_ERR_PGN_COMMENT_TOO_LONG,
        CHESS_ERR_PGN_UNMATCHED_PAREN,
        CHESS_ERR_PGN_UNCLOSED_VARIATION,
        CHESS_ERR_PGN_VARIATION_WITHOUT_MOVE,
        CHESS_ERR_PGN_TOO_DEEP,
        CHESS_ERR_PGN_INVALID_UTF8,
        CHESS_ERR_PGN_TAG_NOT_FOUND,
        CHESS_ERR_PGN_NUL_BYTE,
        CHESS_ERR_PGN_NON_STANDARD,
        CHESS_END,
    };
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s PGN_DATA_DIR [COMPRESSED_DIR]\n", argv[0]);
        return 2;
    }
    datadir = argv[1];
    test_format_file();
    test_broken_file();
    test_limits();
    test_round_trip("format.pgn");
    test_round_trip("broken.pgn");
    test_tags_and_export();
    test_io_errors_and_nulls();
    test_callback_error();
    test_read_error_anywhere();
    test_nul_bytes();
    test_options();
    test_nodes();
    test_annotations();
    test_mainline_arrays();
    test_hostile_inputs();
    if (argc == 3) {
        test_compressed(argv[2]);
        test_threads(argv[2]);
        test_split_file(argv[2]);
    }
    check_codes_seen(owned, sizeof owned / sizeof owned[0]);
    return report("c pgn");
}
