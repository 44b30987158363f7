/* Polyglot books through the C API: opening a file or a buffer, lookups with and without options,
 * choosing a move, raw entries, malformed books with their error details, building a book from
 * PGN files and from games, merging and writing, NULL arguments.
 *
 * A FIFO is refused at once (under an alarm, so that a hang fails), and a book is not disturbed
 * by its file changing.
 *
 * usage: book DATA_DIR WORK_DIR [SHARED_TESTDATA] */

#define _POSIX_C_SOURCE 200809L

#include "common.h"

#include <sys/stat.h>
#include <unistd.h>

#define START_KEY 0x463b96181691fc9cULL

static char data_dir[2048];
static char work_dir[2048];


static void write_bytes(const char *path, const unsigned char *bytes, size_t len) {
    FILE *file = fopen(path, "wb");
    CHECK(file != NULL && fwrite(bytes, 1, len, file) == len);
    fclose(file);
}

static chess_book *open_book(const char *path) {
    chess_book *book = NULL;
    CHECK_ERR(chess_book_open(path, &book), CHESS_OK);
    return book;
}

static int uci_is(chess_move mv, const char *expected) {
    char buf[8];
    if (chess_move_to_uci(mv, buf, sizeof buf, NULL) != CHESS_OK || strcmp(buf, expected) != 0) {
        fprintf(stderr, "move %s, expected %s\n", buf, expected);
        return 0;
    }
    return 1;
}

/* True when two books hold the same entries. */
static int same_entries(const chess_book *a, const chess_book *b) {
    size_t i, n = chess_book_entry_count(a);
    if (n != chess_book_entry_count(b)) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        chess_book_raw_entry x, y;
        if (chess_book_entry_at(a, i, &x) != CHESS_OK || chess_book_entry_at(b, i, &y) != CHESS_OK ||
            x.key != y.key || x.raw_move != y.raw_move || x.weight != y.weight || x.learn != y.learn) {
            return 0;
        }
    }
    return 1;
}

static void test_lookup(void) {
    chess_book *book = open_book(path_in(data_dir, "polyglot/dev.bin"));
    chess_position start;
    chess_book_entry entries[64];
    chess_book_entry none = {0x1234, 0, 0};
    chess_book_raw_entry raw;
    chess_book_lookup_options options = {sizeof options, 0, 0, NULL, 0};
    chess_move excluded[1];
    size_t n, all, i;

    chess_position_init(&start);
    CHECK(chess_book_entry_count(book) == 727);
    n = chess_book_lookup(book, &start, entries, 64);
    CHECK(n == 12 && chess_book_lookup(book, &start, NULL, 0) == n);
    CHECK(uci_is(entries[0].move, "c2c3") && entries[0].weight == 5 && entries[0].learn == 0);
    CHECK(uci_is(entries[1].move, "e2e4") && entries[1].weight == 4);
    CHECK(chess_position_is_legal(&start, entries[n - 1].move));
    /* A short array: the total all the same, only `cap` written. */
    entries[2] = none;
    CHECK(chess_book_lookup(book, &start, entries, 2) == n && entries[2].move == 0x1234);

    CHECK(chess_book_lookup_with(book, &start, &options, entries, 64) == n);
    options.flags = CHESS_BOOK_LOOKUP_MIN_WEIGHT;
    all = chess_book_lookup_with(book, &start, &options, entries, 64);
    CHECK(all > n && entries[all - 1].weight == 0);
    options.min_weight = 3;
    CHECK(chess_book_lookup_with(book, &start, &options, entries, 64) == 4);
    excluded[0] = uci(&start, "c2c3");
    options.exclude = excluded;
    options.exclude_count = 1;
    CHECK(chess_book_lookup_with(book, &start, &options, entries, 64) == 3 && uci_is(entries[0].move, "e2e4"));
    options.exclude = NULL;
    CHECK(chess_book_lookup_with(book, &start, &options, entries, 64) == 0);
    options.exclude_count = 0;
    options.flags = 2;
    CHECK(chess_book_lookup_with(book, &start, &options, entries, 64) == 0);
    options.flags = 0;
    options.size = sizeof options - 1;
    CHECK(chess_book_lookup_with(book, &start, &options, entries, 64) == 0);
    CHECK(chess_book_lookup_with(book, &start, NULL, entries, 64) == 0);
    CHECK(chess_book_lookup(NULL, &start, entries, 64) == 0 && chess_book_lookup(book, NULL, entries, 64) == 0);
    CHECK(chess_book_lookup(book, &start, NULL, 5) == 0);

    /* Raw entries, in file order: the keys never decrease. */
    CHECK_ERR(chess_book_entry_at(book, 0, &raw), CHESS_OK);
    for (i = 1; i < chess_book_entry_count(book); i++) {
        chess_book_raw_entry next;
        CHECK_ERR(chess_book_entry_at(book, i, &next), CHESS_OK);
        CHECK(next.key >= raw.key);
        raw = next;
    }
    /* Key ranges: every entry lies in its key's range, and the range holds that key alone. */
    for (i = 0; i < chess_book_entry_count(book); i++) {
        size_t first = 999, count = 999, j;
        chess_book_raw_entry entry, other;
        CHECK_ERR(chess_book_entry_at(book, i, &entry), CHESS_OK);
        CHECK_ERR(chess_book_key_range(book, entry.key, &first, &count), CHESS_OK);
        CHECK(first <= i && i < first + count);
        for (j = first; j < first + count; j++) {
            CHECK_ERR(chess_book_entry_at(book, j, &other), CHESS_OK);
            CHECK(other.key == entry.key);
        }
        if (first > 0) {
            CHECK_ERR(chess_book_entry_at(book, first - 1, &other), CHESS_OK);
            CHECK(other.key < entry.key);
        }
        if (first + count < chess_book_entry_count(book)) {
            CHECK_ERR(chess_book_entry_at(book, first + count, &other), CHESS_OK);
            CHECK(other.key > entry.key);
        }
    }
    {
        size_t first = 999, count = 999;
        CHECK_ERR(chess_book_key_range(book, 0, &first, &count), CHESS_OK);
        CHECK(first == 0 && count == 0); /* before every key */
        CHECK_ERR(chess_book_key_range(book, UINT64_MAX, &first, &count), CHESS_OK);
        CHECK(first == chess_book_entry_count(book) && count == 0); /* after every key */
        CHECK_ERR(chess_book_key_range(NULL, 0, &first, &count), CHESS_ERR_NULL_POINTER);
        CHECK_ERR(chess_book_key_range(book, 0, NULL, &count), CHESS_ERR_NULL_POINTER);
        CHECK_ERR(chess_book_key_range(book, 0, &first, NULL), CHESS_ERR_NULL_POINTER);
    }
    raw.weight = 77;
    CHECK_ERR(chess_book_entry_at(book, 727, &raw), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(raw.weight == 77);
    CHECK_ERR(chess_book_entry_at(NULL, 0, &raw), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_book_entry_at(book, 0, NULL), CHESS_ERR_NULL_POINTER);
    CHECK(chess_book_entry_count(NULL) == 0);
    chess_book_free(book);
    chess_book_free(NULL);
}

static void test_pick(void) {
    chess_book *book = open_book(path_in(data_dir, "polyglot/dev.bin"));
    chess_position start, empty;
    chess_book_entry picked = {0x1234, 0, 0}, again;
    chess_book_lookup_options options = {sizeof options, CHESS_BOOK_LOOKUP_MIN_WEIGHT, 5, NULL, 0};
    uint64_t random = 0x9e3779b97f4a7c15ULL;
    int distinct = 0, i;
    chess_move first = 0;

    chess_position_init(&start);
    CHECK_ERR(chess_fen_parse_into("8/8/8/8/8/8/8/K6k w - - 0 1", &empty), CHESS_OK);
    CHECK_ERR(chess_book_pick(book, &start, CHESS_BOOK_PICK_BEST, 0, &picked), CHESS_OK);
    CHECK(uci_is(picked.move, "c2c3") && picked.weight == 5);
    for (i = 0; i < 50; i++) {
        random = random * 6364136223846793005ULL + 1442695040888963407ULL;
        CHECK_ERR(chess_book_pick(book, &start, CHESS_BOOK_PICK_WEIGHTED, random, &picked), CHESS_OK);
        CHECK_ERR(chess_book_pick(book, &start, CHESS_BOOK_PICK_WEIGHTED, random, &again), CHESS_OK);
        CHECK(picked.move == again.move && picked.weight > 0);
        CHECK_ERR(chess_book_pick(book, &start, CHESS_BOOK_PICK_UNIFORM, random, &again), CHESS_OK);
        if (i == 0) {
            first = picked.move;
        } else if (picked.move != first) {
            distinct = 1;
        }
    }
    CHECK(distinct);
    CHECK_ERR(chess_book_pick_with(book, &start, &options, CHESS_BOOK_PICK_UNIFORM, 123, &picked), CHESS_OK);
    CHECK(uci_is(picked.move, "c2c3"));
    picked.move = 0x1234;
    CHECK_ERR(chess_book_pick(book, &empty, CHESS_BOOK_PICK_BEST, 0, &picked), CHESS_END);
    CHECK_ERR(chess_book_pick(book, &start, 3, 0, &picked), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(picked.move == 0x1234);
    options.flags = 8;
    CHECK_ERR(chess_book_pick_with(book, &start, &options, CHESS_BOOK_PICK_BEST, 0, &picked), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_book_pick_with(book, &start, NULL, CHESS_BOOK_PICK_BEST, 0, &picked), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_book_pick(NULL, &start, CHESS_BOOK_PICK_BEST, 0, &picked), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_book_pick(book, &start, CHESS_BOOK_PICK_BEST, 0, NULL), CHESS_ERR_NULL_POINTER);
    chess_book_free(book);
}

static void test_malformed(void) {
    size_t len;
    unsigned char *good = file_bytes(path_in(data_dir, "polyglot/dev.bin"), &len);
    unsigned char swapped[32];
    chess_book_error_info info;
    chess_book *book = (chess_book *)&info; /* any non-NULL value: outputs stay untouched */
    chess_book *copy = NULL;

    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_ERR(chess_book_from_buffer(good, len, &copy), CHESS_OK);
    CHECK(copy != NULL && chess_book_entry_count(copy) == 727);
    chess_book_free(copy);
    CHECK_ERR(chess_book_from_buffer_with(good, len, &copy, &info), CHESS_OK);
    CHECK(info.code == CHESS_OK && info.message[0] == '\0');
    chess_book_free(copy);

    CHECK_ERR(chess_book_from_buffer_with(good, 0, &book, &info), CHESS_ERR_BOOK_EMPTY);
    CHECK(info.code == CHESS_ERR_BOOK_EMPTY && strstr(info.message, "empty") != NULL);
    CHECK_ERR(chess_book_from_buffer_with(good, 100, &book, &info), CHESS_ERR_BOOK_LENGTH);
    CHECK(info.entry == 6 && strstr(info.message, "100 bytes") != NULL);
    memcpy(swapped, good + 16, 16);
    memcpy(swapped + 16, good, 16);
    CHECK_ERR(chess_book_from_buffer_with(swapped, 32, &book, &info), CHESS_ERR_BOOK_UNSORTED);
    CHECK(info.entry == 1 && strstr(info.message, "entry 1 (at byte offset 16)") != NULL);
    write_bytes(path_in(work_dir, "unsorted.bin"), swapped, 32);
    CHECK_ERR(chess_book_open_with(path_in(work_dir, "unsorted.bin"), &book, &info), CHESS_ERR_BOOK_UNSORTED);
    write_bytes(path_in(work_dir, "truncated.bin"), good, 40);
    CHECK_ERR(chess_book_open(path_in(work_dir, "truncated.bin"), &book), CHESS_ERR_BOOK_LENGTH);
    write_bytes(path_in(work_dir, "empty.bin"), good, 0);
    CHECK_ERR(chess_book_open(path_in(work_dir, "empty.bin"), &book), CHESS_ERR_BOOK_EMPTY);
    CHECK_ERR(chess_book_open_with(work_dir, &book, &info), CHESS_ERR_IO);
    CHECK(strstr(info.message, "not a regular file") != NULL);
    CHECK_ERR(chess_book_open(path_in(work_dir, "missing.bin"), &book), CHESS_ERR_FILE_NOT_FOUND);
    /* A FIFO is refused at once (its open would wait for a writer), as a device is. */
    alarm(30);
    unlink(path_in(work_dir, "fifo.bin"));
    CHECK(mkfifo(path_in(work_dir, "fifo.bin"), 0600) == 0);
    CHECK_ERR(chess_book_open_with(path_in(work_dir, "fifo.bin"), &book, &info), CHESS_ERR_IO);
    CHECK(strstr(info.message, "not a regular file") != NULL);
    CHECK_ERR(chess_book_open("/dev/zero", &book), CHESS_ERR_IO);
    alarm(0);
    CHECK(book == (chess_book *)&info);
    /* An open book is a copy: its file cut short changes nothing (a mapping would SIGBUS). */
    write_bytes(path_in(work_dir, "changing.bin"), good, len);
    copy = open_book(path_in(work_dir, "changing.bin"));
    write_bytes(path_in(work_dir, "changing.bin"), good, 16);
    {
        chess_book_raw_entry last;
        uint64_t key = 0;
        int b;
        for (b = 0; b < 8; b++) {
            key = key << 8 | good[726 * 16 + b];
        }
        CHECK(chess_book_entry_count(copy) == 727);
        CHECK_ERR(chess_book_entry_at(copy, 726, &last), CHESS_OK);
        CHECK(last.key == key);
    }
    chess_book_free(copy);

    info.size = sizeof info - 1;
    CHECK_ERR(chess_book_open_with(path_in(data_dir, "polyglot/dev.bin"), &book, &info), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_book_open(NULL, &book), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_book_open(path_in(data_dir, "polyglot/dev.bin"), NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_book_from_buffer(NULL, 16, &book), CHESS_ERR_NULL_POINTER);
    CHECK(book == (chess_book *)&info);
    free(good);
}

static void test_build_merge_write(void) {
    chess_book_builder *builder = NULL;
    chess_book_builder *bad = (chess_book_builder *)&builder;
    chess_book_build_options options = {sizeof options, CHESS_BOOK_BUILD_CHESS960, 0, 0, 0};
    chess_book *built = NULL, *committed = open_book(path_in(data_dir, "polyglot/dev.bin"));
    chess_book *merged = NULL, *reread = NULL, *empty = NULL;
    chess_book_raw_entry a, b;
    size_t i;

    /* The committed test book is this build of the generated PGN files. */
    CHECK_ERR(chess_book_builder_new(&options, &builder), CHESS_OK);
    CHECK_ERR(chess_book_builder_finish(builder, &empty), CHESS_OK);
    CHECK(chess_book_entry_count(empty) == 0);
    CHECK_ERR(chess_book_builder_add_pgn_file(builder, path_in(data_dir, "pgn/dev_generated.pgn")), CHESS_OK);
    CHECK_ERR(chess_book_builder_add_pgn_file(builder, path_in(data_dir, "pgn/dev_edge_cases.pgn")), CHESS_OK);
    CHECK_ERR(chess_book_builder_add_pgn_file(builder, path_in(data_dir, "pgn/missing.pgn")), CHESS_ERR_FILE_NOT_FOUND);
    CHECK_ERR(chess_book_builder_finish(builder, &built), CHESS_OK);
    CHECK(same_entries(built, committed));

    /* Merged with itself: the same pairs, every weight doubled. */
    CHECK_ERR(chess_book_merge(built, committed, &merged), CHESS_OK);
    CHECK(chess_book_entry_count(merged) == 727);
    for (i = 0; i < 727; i++) {
        CHECK_ERR(chess_book_entry_at(committed, i, &a), CHESS_OK);
        CHECK_ERR(chess_book_entry_at(merged, i, &b), CHESS_OK);
        CHECK(a.key == b.key && a.raw_move == b.raw_move && 2 * a.weight == b.weight);
    }
    CHECK_ERR(chess_book_write_file(merged, path_in(work_dir, "merged.bin")), CHESS_OK);
    CHECK_ERR(chess_book_open(path_in(work_dir, "merged.bin"), &reread), CHESS_OK);
    CHECK(same_entries(merged, reread));
    CHECK_ERR(chess_book_write_file(merged, path_in(work_dir, "no/such/dir.bin")), CHESS_ERR_FILE_NOT_FOUND);
    CHECK_ERR(chess_book_write_file(NULL, path_in(work_dir, "x.bin")), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_book_merge(built, NULL, &merged), CHESS_ERR_NULL_POINTER);

    /* Options refused. */
    options.flags = CHESS_BOOK_BUILD_ONLY_WHITE | CHESS_BOOK_BUILD_ONLY_BLACK;
    CHECK_ERR(chess_book_builder_new(&options, &bad), CHESS_ERR_INVALID_ARGUMENT);
    options.flags = 16;
    CHECK_ERR(chess_book_builder_new(&options, &bad), CHESS_ERR_INVALID_ARGUMENT);
    options.flags = 0;
    options.min_score = 101;
    CHECK_ERR(chess_book_builder_new(&options, &bad), CHESS_ERR_INVALID_ARGUMENT);
    options.min_score = 0;
    options.size = 8;
    CHECK_ERR(chess_book_builder_new(&options, &bad), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(bad == (chess_book_builder *)&builder);
    CHECK_ERR(chess_book_builder_new(NULL, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_book_builder_add_pgn_file(NULL, "x.pgn"), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_book_builder_finish(NULL, &built), CHESS_ERR_NULL_POINTER);

    chess_book_builder_free(builder);
    chess_book_builder_free(NULL);
    chess_book_free(built);
    chess_book_free(committed);
    chess_book_free(merged);
    chess_book_free(reread);
    chess_book_free(empty);
}

/* Castling from a game: stored as the king taking its rook, looked up as the library's move. */
static void test_games_and_castling(void) {
    chess_book_builder *builder = NULL;
    chess_book_build_options options = {sizeof options, CHESS_BOOK_BUILD_ONLY_WHITE, 7, 0, 0};
    chess_game *game = chess_game_new(NULL);
    chess_book *book = NULL;
    chess_book_entry entry;
    chess_book_raw_entry raw;
    const char *moves[] = {"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6"};
    const chess_position *before;
    size_t i, n;

    for (i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        CHECK_ERR(chess_game_push_san(game, moves[i], NULL), CHESS_OK);
    }
    CHECK_ERR(chess_book_builder_new(&options, &builder), CHESS_OK);
    CHECK_ERR(chess_book_builder_add_game(builder, game, CHESS_RESULT_WHITE_WINS), CHESS_OK);
    CHECK_ERR(chess_book_builder_add_game(builder, game, CHESS_RESULT_DRAW), CHESS_OK);
    CHECK_ERR(chess_book_builder_add_game(builder, game, CHESS_RESULT_ONGOING), CHESS_OK);
    CHECK_ERR(chess_book_builder_add_game(builder, game, 4), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_book_builder_add_game(builder, NULL, CHESS_RESULT_DRAW), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_book_builder_finish(builder, &book), CHESS_OK);
    /* White's four moves among the first seven plies, each 2 + 1. */
    CHECK(chess_book_entry_count(book) == 4);
    before = chess_game_position_at(game, 6);
    n = chess_book_lookup(book, before, &entry, 1);
    CHECK(n == 1 && uci_is(entry.move, "e1g1") && entry.weight == 3);
    CHECK(entry.move == uci(before, "e1h1"));
    for (i = 0; i < 4; i++) {
        CHECK_ERR(chess_book_entry_at(book, i, &raw), CHESS_OK);
        if (raw.key == chess_position_zobrist(before)) {
            chess_move found = 0;
            CHECK(raw.raw_move == (7 | 4 << 6)); /* e1h1 */
            CHECK(chess_book_raw_move(entry.move) == raw.raw_move);
            CHECK_ERR(chess_book_move_from_raw(before, raw.raw_move, &found), CHESS_OK);
            CHECK(found == entry.move);
            CHECK_ERR(chess_book_move_from_raw(before, 6 | 4 << 6, &found), CHESS_OK); /* e1g1 */
            CHECK(found == entry.move);
            found = 0x1234;
            CHECK_ERR(chess_book_move_from_raw(before, 20 | 4 << 6, &found), CHESS_ERR_ILLEGAL_MOVE);
            CHECK_ERR(chess_book_move_from_raw(NULL, 0, &found), CHESS_ERR_NULL_POINTER);
            CHECK(found == 0x1234 && chess_book_raw_move(CHESS_MOVE_NONE) == 0);
        }
        if (raw.key == START_KEY) {
            CHECK(raw.raw_move == (28 | 12 << 6)); /* e2e4 */
        }
    }
    chess_book_free(book);
    chess_book_builder_free(builder);
    chess_game_free(game);
}

/* A third-party book: the start position's entries are legal moves. */
static void test_third_party(const char *shared) {
    chess_book *book = open_book(path_in(shared, "polyglot/performance.bin"));
    chess_position start;
    chess_book_entry entries[32];
    size_t n, i;
    chess_position_init(&start);
    n = chess_book_lookup(book, &start, entries, 32);
    CHECK(n >= 3 && n <= 32 && chess_book_entry_count(book) > 90000);
    for (i = 0; i < n && i < 32; i++) {
        CHECK(chess_position_is_legal(&start, entries[i].move));
    }
    chess_book_free(book);
}

int main(int argc, char **argv) {
    static const chess_error owned[] = {CHESS_ERR_BOOK_EMPTY, CHESS_ERR_BOOK_LENGTH, CHESS_ERR_BOOK_UNSORTED};
    if (argc < 3) {
        fprintf(stderr, "usage: book DATA_DIR WORK_DIR [SHARED_TESTDATA]\n");
        return 2;
    }
    sprintf(data_dir, "%.2000s", argv[1]);
    sprintf(work_dir, "%.2000s", argv[2]);
    test_lookup();
    test_pick();
    test_malformed();
    test_build_merge_write();
    test_games_and_castling();
    if (argc > 3) {
        test_third_party(argv[3]);
    }
    check_codes_seen(owned, sizeof owned / sizeof owned[0]);
    return report("c book");
}
