/* What the C test programs share: CHECK and CHECK_ERR, a record of the codes calls returned (so
 * a program can show that it produced every code it covers), and small helpers. Each program is
 * one translation unit, so the state here is per program. */

#ifndef CHESSCORE_C_TESTS_COMMON_H
#define CHESSCORE_C_TESTS_COMMON_H

#include <chesscore.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static int checks;
static int seen[1000];

#define CHECK(cond)                                                                   \
    do {                                                                              \
        checks++;                                                                     \
        if (!(cond)) {                                                                \
            failures++;                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                             \
    } while (0)

static inline chess_error seen_code(chess_error err) {
    if (err < 1000) {
        seen[err] = 1;
    }
    return err;
}

#define CHECK_ERR(call, expected)                                                                    \
    do {                                                                                             \
        chess_error got_ = seen_code(call);                                                          \
        checks++;                                                                                    \
        if (got_ != (expected)) {                                                                    \
            failures++;                                                                              \
            fprintf(stderr, "%s:%d: %s gave %u (%s), expected %s\n", __FILE__, __LINE__, #call,      \
                    (unsigned)got_, chess_error_message(got_), #expected);                           \
        }                                                                                            \
    } while (0)

/* Counts a failure for each of `codes` that no call returned. */
static inline void check_codes_seen(const chess_error *codes, size_t count) {
    size_t i;
    for (i = 0; i < count; i++) {
        if (!seen[codes[i]]) {
            fprintf(stderr, "code %d (%s) never returned\n", codes[i], chess_error_message(codes[i]));
            failures++;
        }
    }
}

/* `dir/name`, in one of two buffers used in turn (so two paths can be passed to one call). */
static inline const char *path_in(const char *dir, const char *name) {
    static char path[2][4200];
    static int which;
    which ^= 1;
    sprintf(path[which], "%s/%s", dir, name);
    return path[which];
}

/* The bytes of a file (the caller frees them), with its length; a file that cannot be read ends
 * the program. */
static inline unsigned char *file_bytes(const char *path, size_t *len) {
    FILE *file = fopen(path, "rb");
    unsigned char *bytes;
    long size;
    if (file == NULL || fseek(file, 0, SEEK_END) != 0 || (size = ftell(file)) < 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    rewind(file);
    bytes = malloc((size_t)size + 1);
    *len = fread(bytes, 1, (size_t)size, file);
    fclose(file);
    return bytes;
}

/* Prints the tally; the exit status of the program. */
static inline int report(const char *name) {
    printf("%s: %d checks, %d failed\n", name, checks, failures);
    return failures == 0 ? 0 : 1;
}

/* Reads `fen` with `flags` into a new position (`*out`, freed with chess_position_free), as the
 * deprecated chess_fen_parse and chess_fen_parse_chess960 did; `*out` is untouched on error. */
static inline chess_error parse_new(const char *fen, uint32_t flags, chess_position **out) {
    chess_position *pos = chess_position_new();
    chess_error err = pos == NULL ? CHESS_ERR_OUT_OF_MEMORY : chess_fen_parse_with(fen, flags, pos, NULL);
    if (err == CHESS_OK && out != NULL) {
        *out = pos;
        return CHESS_OK;
    }
    chess_position_free(pos);
    return err != CHESS_OK ? err : CHESS_ERR_NULL_POINTER;
}

static inline chess_position *parse(const char *fen) {
    chess_position *pos = NULL;
    chess_error err = parse_new(fen, 0, &pos);
    if (err != CHESS_OK) {
        fprintf(stderr, "cannot parse %s: %s\n", fen, chess_error_message(err));
        exit(2);
    }
    return pos;
}

static inline int fen_is(const chess_position *pos, const char *expected) {
    char buf[CHESS_FEN_MAX];
    if (chess_fen_write(pos, buf, sizeof buf, NULL) != CHESS_OK) {
        return 0;
    }
    if (strcmp(buf, expected) != 0) {
        fprintf(stderr, "FEN %s, expected %s\n", buf, expected);
        return 0;
    }
    return 1;
}

static inline chess_move uci(const chess_position *pos, const char *text) {
    chess_move mv = 0xffff;
    CHECK_ERR(chess_move_from_uci(pos, text, &mv), CHESS_OK);
    return mv;
}

/* Opens TESTDATA/name, counting a failure when it cannot. */
static inline FILE *open_testdata(const char *testdata, const char *name) {
    char path[4096];
    FILE *file;
    sprintf(path, "%.3000s/%.1000s", testdata, name);
    file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        failures++;
    }
    return file;
}

#endif
