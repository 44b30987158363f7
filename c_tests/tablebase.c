/* Syzygy tablebases through the C API: probes against python-chess's values of the dev
 * positions (and every move after them), the ranking of a game's moves, errors, NULL arguments
 * and threads probing one tablebase.
 *
 * usage: tablebase WORK_DIR [SHARED_TESTDATA] */

#include "common.h"

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

static char tables[2048];

static chess_position parse_fen(const char *fen) {
    chess_position pos;
    CHECK_ERR(chess_fen_parse_into(fen, &pos), CHESS_OK);
    return pos;
}

/* Reads an integer or null at `*text`, skipping spaces and commas; 0 for null. */
static int read_value(char **text, int *value) {
    while (**text == ' ' || **text == ',') {
        (*text)++;
    }
    if (strncmp(*text, "null", 4) == 0) {
        *text += 4;
        return 0;
    }
    *value = (int)strtol(*text, text, 10);
    return 1;
}

static void check_value(chess_error err, int got, int has, int expected, const char *what, const char *fen) {
    checks++;
    if (has ? (err != CHESS_OK || got != expected) : err == CHESS_OK) {
        fprintf(stderr, "%s of %s: got %d (code %u), expected %d%s\n", what, fen, got, (unsigned)err, expected,
                has ? "" : " or an error");
        failures++;
    }
}

/* Probes `pos` and compares with the expected values (has_* 0: python-chess raised). */
static void compare(const chess_tablebase *tb, const chess_position *pos, int has_wdl, int wdl, int has_dtz, int dtz,
                    const char *fen) {
    int32_t got_wdl = 99, got_dtz = 9999;
    chess_error e = chess_tablebase_probe_wdl(tb, pos, &got_wdl);
    check_value(e, got_wdl, has_wdl, wdl, "wdl", fen);
    e = chess_tablebase_probe_dtz(tb, pos, &got_dtz);
    check_value(e, got_dtz, has_dtz, dtz, "dtz", fen);
}

/* Every `every`-th dev position and every move after it, as python-chess gives them. */
static long test_dev_positions(const chess_tablebase *tb, const char *jsonl, int every) {
    static char line[16384];
    long compared = 0;
    int skip = 0;
    FILE *file = fopen(jsonl, "r");
    CHECK(file != NULL);
    if (file == NULL) {
        return 0;
    }
    while (fgets(line, sizeof line, file) != NULL) {
        char fen[128], *at, *end;
        int wdl = 0, dtz = 0, has_wdl, has_dtz;
        chess_position pos;
        if (skip++ % every != 0) {
            continue;
        }
        at = strstr(line, "\"fen\":\"") + 7;
        end = strchr(at, '"');
        snprintf(fen, sizeof fen, "%.*s", (int)(end - at), at);
        pos = parse_fen(fen);
        at = strstr(line, "\"wdl\":") + 6;
        has_wdl = read_value(&at, &wdl);
        at = strstr(line, "\"dtz\":") + 6;
        has_dtz = read_value(&at, &dtz);
        compare(tb, &pos, has_wdl, wdl, has_dtz, dtz, fen);
        compared++;
        at = strstr(line, "\"moves\":[") + 9;
        while ((at = strstr(at, "[\"")) != NULL) {
            char uci[8];
            chess_move mv;
            chess_position after = pos;
            at += 2;
            end = strchr(at, '"');
            snprintf(uci, sizeof uci, "%.*s", (int)(end - at), at);
            at = end + 1;
            has_wdl = read_value(&at, &wdl);
            has_dtz = read_value(&at, &dtz);
            CHECK_ERR(chess_move_from_uci(&pos, uci, &mv), CHESS_OK);
            CHECK_ERR(chess_position_play(&after, mv), CHESS_OK);
            compare(tb, &after, has_wdl, wdl, has_dtz, dtz, fen);
            compared++;
        }
    }
    fclose(file);
    return compared;
}

static void test_ranking(const chess_tablebase *tb) {
    /* KQ v K: the queen mates at once. */
    chess_position pos = parse_fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1");
    chess_game *game = chess_game_new(&pos);
    chess_tablebase_move moves[CHESS_MAX_MOVES], one[1];
    size_t count = 0, i;
    char uci[8];
    CHECK(game != NULL);
    CHECK_ERR(chess_tablebase_rank_moves(tb, game, moves, CHESS_MAX_MOVES, &count), CHESS_OK);
    CHECK(count == chess_legal_moves(&pos, NULL, 0));
    CHECK_ERR(chess_move_to_uci(moves[0].move, uci, sizeof uci, NULL), CHESS_OK);
    CHECK(strcmp(uci, "b1b8") == 0 && moves[0].wdl == 2 && moves[0].rank == (1 << 18) - 1);
    for (i = 1; i < count; i++) {
        CHECK(moves[i - 1].rank >= moves[i].rank);
        CHECK(moves[i].wdl >= -2 && moves[i].wdl <= 2);
    }
    CHECK_ERR(chess_tablebase_rank_moves(tb, game, one, 1, &count), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(count > 1 && one[0].move == moves[0].move);
    CHECK_ERR(chess_tablebase_rank_moves(tb, game, NULL, 0, &count), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_tablebase_rank_moves(tb, game, NULL, 3, &count), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_tablebase_rank_moves(NULL, game, moves, CHESS_MAX_MOVES, &count), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_tablebase_rank_moves(tb, NULL, moves, CHESS_MAX_MOVES, &count), CHESS_ERR_NULL_POINTER);
    chess_game_free(game);

    /* Castling rights: no table. */
    pos = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    game = chess_game_new(&pos);
    CHECK_ERR(chess_tablebase_rank_moves(tb, game, moves, CHESS_MAX_MOVES, &count), CHESS_ERR_TABLEBASE_CASTLING);
    chess_game_free(game);
}

struct worker {
    const chess_tablebase *tb;
    int mismatches;
};

/* Probes a few positions many times; their values are known. */
static void *probe_loop(void *arg) {
    struct worker *w = arg;
    static const char *fens[] = {"8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1", "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
                                 "8/8/8/8/8/4k3/8/R3K1r1 w - - 0 1"};
    int32_t first[3][2];
    int i, round;
    for (round = 0; round < 300; round++) {
        for (i = 0; i < 3; i++) {
            chess_position pos;
            int32_t wdl = 0, dtz = 0;
            if (chess_fen_parse_into(fens[i], &pos) != CHESS_OK ||
                chess_tablebase_probe_wdl(w->tb, &pos, &wdl) != CHESS_OK ||
                chess_tablebase_probe_dtz(w->tb, &pos, &dtz) != CHESS_OK) {
                w->mismatches++;
                continue;
            }
            if (round == 0) {
                first[i][0] = wdl;
                first[i][1] = dtz;
            } else if (first[i][0] != wdl || first[i][1] != dtz) {
                w->mismatches++;
            }
        }
    }
    return NULL;
}

static void test_threads(const chess_tablebase *tb) {
    pthread_t threads[8];
    struct worker workers[8];
    int i;
    for (i = 0; i < 8; i++) {
        workers[i].tb = tb;
        workers[i].mismatches = 0;
        CHECK(pthread_create(&threads[i], NULL, probe_loop, &workers[i]) == 0);
    }
    for (i = 0; i < 8; i++) {
        CHECK(pthread_join(threads[i], NULL) == 0);
        CHECK(workers[i].mismatches == 0);
    }
}

static void test_without_tables(const char *work_dir) {
    chess_tablebase *tb = NULL;
    chess_position pos = parse_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1");
    int32_t wdl = 7;
    CHECK_ERR(chess_tablebase_open("", &tb), CHESS_OK);
    CHECK(chess_tablebase_max_pieces(tb) == 0);
    /* KvK needs no table. */
    CHECK_ERR(chess_tablebase_probe_wdl(tb, &pos, &wdl), CHESS_OK);
    CHECK(wdl == 0);
    pos = parse_fen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
    wdl = 7;
    CHECK_ERR(chess_tablebase_probe_wdl(tb, &pos, &wdl), CHESS_ERR_TABLEBASE_MISSING_TABLE);
    CHECK(wdl == 7);
    pos = parse_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    CHECK_ERR(chess_tablebase_probe_dtz(tb, &pos, &wdl), CHESS_ERR_TABLEBASE_TOO_MANY_PIECES);
    pos = parse_fen("r3k3/8/8/8/8/8/8/4K3 b q - 0 1");
    CHECK_ERR(chess_tablebase_probe_wdl(tb, &pos, &wdl), CHESS_ERR_TABLEBASE_CASTLING);
    CHECK_ERR(chess_tablebase_probe_wdl(NULL, &pos, &wdl), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_tablebase_probe_wdl(tb, NULL, &wdl), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_tablebase_probe_dtz(tb, &pos, NULL), CHESS_ERR_NULL_POINTER);
    chess_tablebase_free(tb);
    chess_tablebase_free(NULL);
    CHECK(chess_tablebase_max_pieces(NULL) == 0);
    CHECK_ERR(chess_tablebase_open(NULL, &tb), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_tablebase_open("", NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_tablebase_open(path_in(work_dir, "no-such-directory"), &tb), CHESS_ERR_FILE_NOT_FOUND);
}

/* chess_tablebase_open_with: NULL options, sizes, flags, and the options each give the same
 * values (one file open at a time, memory-mapped), probed over many tables. */
static void test_options(const char *jsonl) {
    chess_tablebase *tb = NULL;
    chess_tablebase_options o = {sizeof o, 0, 0};
    struct {
        chess_tablebase_options o;
        uint64_t later_field;
    } newer = {{sizeof newer, 0, 0}, 0};
    chess_position pos = parse_fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1");
    int32_t wdl = 7;
    CHECK_ERR(chess_tablebase_open_with(tables, NULL, &tb), CHESS_OK);
    CHECK_ERR(chess_tablebase_probe_wdl(tb, &pos, &wdl), CHESS_OK);
    CHECK(wdl == 2);
    chess_tablebase_free(tb);
    tb = NULL;
    o.size = sizeof(size_t);
    CHECK_ERR(chess_tablebase_open_with(tables, &o, &tb), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(tb == NULL);
    o.size = sizeof o;
    o.flags = CHESS_TABLEBASE_MMAP << 1;
    CHECK_ERR(chess_tablebase_open_with(tables, &o, &tb), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(tb == NULL);
    CHECK_ERR(chess_tablebase_open_with(NULL, NULL, &tb), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_tablebase_open_with(tables, NULL, NULL), CHESS_ERR_NULL_POINTER);
    /* No limit to speak of. */
    o.flags = 0;
    o.max_open_files = UINT32_MAX;
    CHECK_ERR(chess_tablebase_open_with(tables, &o, &tb), CHESS_OK);
    CHECK_ERR(chess_tablebase_probe_wdl(tb, &pos, &wdl), CHESS_OK);
    chess_tablebase_free(tb);
    /* A caller built against a later version, with a larger struct. */
    CHECK_ERR(chess_tablebase_open_with(tables, &newer.o, &tb), CHESS_OK);
    chess_tablebase_free(tb);

    o.max_open_files = 1;
    CHECK_ERR(chess_tablebase_open_with(tables, &o, &tb), CHESS_OK);
    /* Some of the positions: valgrind runs these too, and each probe may reopen two files. */
    CHECK(test_dev_positions(tb, jsonl, 40) > 500);
    chess_tablebase_free(tb);

    o.flags = CHESS_TABLEBASE_MMAP;
    o.max_open_files = 0;
    CHECK_ERR(chess_tablebase_open_with(tables, &o, &tb), CHESS_OK);
    CHECK(test_dev_positions(tb, jsonl, 10) > 2000);
    test_ranking(tb);
    chess_tablebase_free(tb);
}

/* The last error of `tb` on this thread. */
static chess_tablebase_error_info last_error(const chess_tablebase *tb) {
    chess_tablebase_error_info info;
    memset(&info, 0x55, sizeof info);
    info.size = sizeof info;
    CHECK_ERR(chess_tablebase_last_error(tb, &info), CHESS_OK);
    CHECK(memchr(info.message, 0, sizeof info.message) != NULL);
    return info;
}

struct corrupt_probe {
    const chess_tablebase *tb;
    chess_error probe, last;
    chess_tablebase_error_info info;
};

/* Probes the cut table from another thread (no CHECK here: the tally is not shared). */
static void *probe_corrupt(void *arg) {
    struct corrupt_probe *p = arg;
    chess_position pos;
    int32_t wdl;
    chess_fen_parse_into("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", &pos);
    p->probe = chess_tablebase_probe_wdl(p->tb, &pos, &wdl);
    p->info.size = sizeof p->info;
    p->last = chess_tablebase_last_error(p->tb, &p->info);
    return NULL;
}

/* A table cut short: the code, and chess_tablebase_last_error naming the file. */
static void test_error_details(const char *work_dir) {
    char dir[4200];
    size_t len;
    unsigned char *bytes = file_bytes(path_in(tables, "KQvK.rtbw"), &len);
    FILE *cut;
    chess_tablebase *tb = NULL, *other = NULL;
    chess_position kqk = parse_fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1");
    chess_position krk = parse_fen("7k/8/6K1/8/8/8/8/1R6 w - - 0 1");
    chess_position kk = parse_fen("7k/8/6K1/8/8/8/8/8 w - - 0 1");
    chess_tablebase_error_info info;
    struct corrupt_probe other_thread;
    pthread_t thread;
    int32_t wdl = 7;
    snprintf(dir, sizeof dir, "%s", path_in(work_dir, "syzygy-cut"));
    mkdir(dir, 0777);
    cut = fopen(path_in(dir, "KQvK.rtbw"), "wb");
    CHECK(cut != NULL && fwrite(bytes, 1, len / 2, cut) == len / 2);
    fclose(cut);
    free(bytes);
    CHECK_ERR(chess_tablebase_open(dir, &tb), CHESS_OK);
    CHECK_ERR(chess_tablebase_open(dir, &other), CHESS_OK);

    info = last_error(tb);
    CHECK(info.code == CHESS_OK && info.message[0] == 0);
    CHECK_ERR(chess_tablebase_probe_wdl(tb, &kqk, &wdl), CHESS_ERR_TABLEBASE_CORRUPT);
    CHECK(wdl == 7);
    info = last_error(tb);
    CHECK(info.code == CHESS_ERR_TABLEBASE_CORRUPT);
    CHECK(strstr(info.message, dir) != NULL && strstr(info.message, "KQvK.rtbw") != NULL);
    CHECK(strstr(info.message, "truncated") != NULL);
    printf("cut table: %s\n", info.message);
    /* Each tablebase has its own. */
    CHECK(last_error(other).code == CHESS_OK);
    CHECK_ERR(chess_tablebase_probe_dtz(tb, &krk, &wdl), CHESS_ERR_TABLEBASE_MISSING_TABLE);
    info = last_error(tb);
    CHECK(info.code == CHESS_ERR_TABLEBASE_MISSING_TABLE && strstr(info.message, "missing table KRvK.rtbw") != NULL);
    /* A probe that succeeds clears it. */
    CHECK_ERR(chess_tablebase_probe_wdl(tb, &kk, &wdl), CHESS_OK);
    CHECK(last_error(tb).code == CHESS_OK);
    /* Each thread has its own. */
    other_thread.tb = tb;
    CHECK(pthread_create(&thread, NULL, probe_corrupt, &other_thread) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(other_thread.probe == CHESS_ERR_TABLEBASE_CORRUPT && other_thread.last == CHESS_OK);
    CHECK(other_thread.info.code == CHESS_ERR_TABLEBASE_CORRUPT && strstr(other_thread.info.message, "KQvK") != NULL);
    CHECK(last_error(tb).code == CHESS_OK);

    info.size = sizeof(size_t);
    CHECK_ERR(chess_tablebase_last_error(tb, &info), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_tablebase_last_error(NULL, &info), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_tablebase_last_error(tb, NULL), CHESS_ERR_NULL_POINTER);
    chess_tablebase_free(tb);
    chess_tablebase_free(other);
    remove(path_in(dir, "KQvK.rtbw"));
    rmdir(dir);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s WORK_DIR [SHARED_TESTDATA]\n", argv[0]);
        return 2;
    }
    test_without_tables(argv[1]);
    if (argc > 2) {
        chess_tablebase *tb = NULL;
        long compared;
        snprintf(tables, sizeof tables, "%s/syzygy", argv[2]);
        /* Empty parts and a second copy of the same directory are fine. */
        {
            char paths[4200];
            snprintf(paths, sizeof paths, ":%s::%s", tables, tables);
            CHECK_ERR(chess_tablebase_open(paths, &tb), CHESS_OK);
        }
        CHECK(chess_tablebase_max_pieces(tb) == 5);
        compared = test_dev_positions(tb, path_in(tables, "dev_positions.jsonl"), 1);
        CHECK(compared > 20000);
        printf("%ld positions compared\n", compared);
        test_ranking(tb);
        test_threads(tb);
        chess_tablebase_free(tb);
        test_options(path_in(tables, "dev_positions.jsonl"));
        test_error_details(argv[1]);
    }
    return report("c tablebase");
}
