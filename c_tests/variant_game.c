/* Variant games through the C API: a PGN database mixing chess and variant games read with
 * CHESS_PGN_VARIANTS (and refused without it), a variant game's moves, positions, outcome,
 * repetitions, tags, tree and PGN, games built from a variant position, the chess-only calls
 * refusing a variant game, NULL arguments and garbage PGN; a database of every variant read
 * with threads, the same games as one reader gives. Expected texts and FENs come from
 * python-chess 1.11.2.
 *
 * usage: variant_game [ROUNDS [PGN]]   (ROUNDS of garbage, 2000 by default; PGN: more games
 * for the threads, such as python-chess's of scripts/python_chess_variant_pgn.py) */

#include "common.h"

static const char MIXED[] =
    "[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. @d5 { a drop } (4. d4 e5) 4... "
    "@e6 *\n\n"
    "[Event \"plain\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
    "[Event \"koth\"]\n[Variant \"King of the Hill\"]\n\n1. d4 e5 2. dxe5 Ke7 3. Kd2 Ke6 4. Kd3 Kxe5# 0-1\n\n"
    "[Event \"broken\"]\n[Variant \"Horde\"]\n\n1. e5 Kxe5 *\n\n"
    "[Event \"atomic\"]\n[Variant \"Atomic\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O *\n";

static chess_pgn_reader *reader_of(const char *text, uint32_t flags) {
    chess_pgn_reader *reader = NULL;
    chess_pgn_options options;
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    options.flags = flags;
    CHECK_ERR(chess_pgn_reader_from_buffer((const uint8_t *)text, strlen(text), &reader), CHESS_OK);
    CHECK_ERR(chess_pgn_reader_set_options(reader, &options), CHESS_OK);
    return reader;
}

static const char *text_of(chess_error (*f)(const chess_game *, char *, size_t, size_t *), const chess_game *game) {
    static char buf[4096];
    buf[0] = 0;
    CHECK_ERR(f(game, buf, sizeof buf, NULL), CHESS_OK);
    return buf;
}

static const char *node_fen(const chess_game *game, chess_node node) {
    static char buf[256];
    chess_variant_position *pos = NULL;
    buf[0] = 0;
    CHECK_ERR(chess_variant_position_new(CHESS_VARIANT_CHESS, NULL, &pos), CHESS_OK);
    CHECK_ERR(chess_node_variant_position(game, node, pos), CHESS_OK);
    CHECK_ERR(chess_variant_position_fen(pos, buf, sizeof buf, NULL), CHESS_OK);
    chess_variant_position_free(pos);
    return buf;
}

static chess_node last_mainline_node(const chess_game *game) {
    chess_node nodes[64];
    size_t n = chess_game_mainline_nodes(game, nodes, 64);
    CHECK(n > 0 && n <= 64);
    return n > 0 ? nodes[n - 1] : 0;
}

static void test_mixed_database(void) {
    chess_pgn_reader *reader = reader_of(MIXED, CHESS_PGN_VARIANTS);
    chess_game *game = NULL;
    chess_position *scratch = NULL;
    chess_outcome outcome;
    char buf[256];

    /* Crazyhouse: drops as SAN, the variation and comment kept, the positions as variant FENs. */
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK(chess_game_variant(game) == CHESS_VARIANT_CRAZYHOUSE);
    CHECK(strcmp(text_of(chess_game_san_moves, game), "e4 d5 exd5 Qxd5 Nc3 Qa5 @d5 @e6") == 0);
    CHECK(strcmp(node_fen(game, last_mainline_node(game)),
                 "rnb1kbnr/ppp1pppp/4p3/q2P4/8/2N5/PPPP1PPP/R1BQKBNR[] w KQkq - 4 5") == 0);
    CHECK(strcmp(node_fen(game, 0), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1") == 0);
    CHECK(chess_game_ply_count(game) == 8);
    CHECK(chess_node_count(game) == 11);
    CHECK_ERR(chess_game_tag(game, "Variant", buf, sizeof buf, NULL), CHESS_OK);
    CHECK(strcmp(buf, "Crazyhouse") == 0);
    /* The chess-only calls refuse it. */
    CHECK(chess_game_position(game) == NULL);
    CHECK(chess_game_start(game) == NULL);
    CHECK(chess_game_position_at(game, 0) == NULL);
    scratch = chess_position_new();
    CHECK_ERR(chess_node_position(game, 0, scratch), CHESS_ERR_VARIANT_GAME);
    chess_position_free(scratch);
    /* Written back with its variant tag, read back the same. */
    {
        const char *pgn = text_of(chess_game_to_pgn, game);
        chess_pgn_reader *again = reader_of(pgn, CHESS_PGN_VARIANTS);
        chess_game *back = NULL;
        CHECK(strstr(pgn, "[Variant \"Crazyhouse\"]\n") != NULL);
        CHECK(strstr(pgn, "4. @d5 { a drop } ( 4. d4 e5 ) 4... @e6 *") != NULL);
        CHECK(strstr(pgn, "[FEN") == NULL);
        CHECK_ERR(chess_pgn_reader_next(again, &back), CHESS_OK);
        CHECK(strcmp(text_of(chess_game_san_moves, back), text_of(chess_game_san_moves, game)) == 0);
        chess_game_free(back);
        chess_pgn_reader_free(again);
    }
    /* Taken back and played again: the drop as UCI, a null move and an empty pocket refused. */
    {
        chess_move mv = 0, again = 0;
        CHECK_ERR(chess_game_pop(game, &mv), CHESS_OK);
        CHECK(mv == (chess_move)(0x8000 | 44 << 6 | 44));
        CHECK_ERR(chess_game_push(game, 0), CHESS_ERR_ILLEGAL_MOVE);
        CHECK_ERR(chess_game_push_san(game, "--", NULL), CHESS_ERR_ILLEGAL_MOVE);
        CHECK_ERR(chess_game_push_san(game, "N@e6", NULL), CHESS_ERR_ILLEGAL_MOVE);
        CHECK_ERR(chess_game_push_uci(game, "P@e6", &again), CHESS_OK);
        CHECK(again == mv);
        CHECK_ERR(chess_game_push_uci(game, "P@e4", NULL), CHESS_ERR_ILLEGAL_MOVE);
        CHECK(chess_game_ply_count(game) == 8);
    }
    chess_game_free(game);

    /* A chess game between them keeps every chess call. */
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK(chess_game_variant(game) == CHESS_VARIANT_CHESS);
    CHECK(chess_game_position(game) != NULL && chess_game_start(game) != NULL);
    outcome = chess_game_outcome(game);
    CHECK(outcome.result == CHESS_RESULT_WHITE_WINS && outcome.termination == CHESS_TERMINATION_CHECKMATE);
    chess_game_free(game);

    /* King of the hill: the king on the hill wins, written with `#`. */
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK(chess_game_variant(game) == CHESS_VARIANT_KING_OF_THE_HILL);
    outcome = chess_game_outcome(game);
    CHECK(outcome.result == CHESS_RESULT_BLACK_WINS && outcome.termination == CHESS_TERMINATION_VARIANT_LOSS);
    CHECK(strcmp(text_of(chess_game_mainline_san, game), "d4 e5 dxe5 Ke7 Kd2 Ke6 Kd3 Kxe5#") == 0);
    chess_game_free(game);

    /* A broken variant game: its error, what was read of it as a variant game, and the next game
     * read. */
    game = NULL;
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_ILLEGAL_MOVE);
    CHECK(game == NULL);
    CHECK_ERR(chess_pgn_reader_partial_game(reader, &game), CHESS_OK);
    CHECK(chess_game_variant(game) == CHESS_VARIANT_HORDE);
    CHECK(strcmp(text_of(chess_game_san_moves, game), "e5") == 0);
    CHECK_ERR(chess_game_tag(game, "Event", buf, sizeof buf, NULL), CHESS_OK);
    CHECK(strcmp(buf, "broken") == 0);
    chess_game_free(game);

    /* Atomic from a FEN: castling, the FEN tag written back. */
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK(chess_game_variant(game) == CHESS_VARIANT_ATOMIC);
    CHECK(strstr(text_of(chess_game_to_pgn, game), "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]") != NULL);
    chess_game_free(game);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_END);
    chess_pgn_reader_free(reader);

    /* Without the flag, the variant games are refused as before and the chess one read. */
    reader = reader_of(MIXED, 0);
    game = NULL;
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_ERR_PGN_VARIANT);
    CHECK(game == NULL);
    CHECK_ERR(chess_pgn_reader_next(reader, &game), CHESS_OK);
    CHECK(chess_game_variant(game) == CHESS_VARIANT_CHESS);
    chess_game_free(game);
    chess_pgn_reader_free(reader);
}

static void test_built_games(void) {
    chess_variant_position *start = NULL;
    chess_game *game, *copy;
    static const char *const shuffle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    int i;
    chess_outcome outcome;

    /* Three-check from a FEN: the third check ends it. */
    CHECK_ERR(chess_variant_position_new(CHESS_VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1", &start),
              CHESS_OK);
    game = chess_game_new_variant(start);
    CHECK(game != NULL && chess_game_variant(game) == CHESS_VARIANT_THREE_CHECK);
    CHECK_ERR(chess_game_push_san(game, "Ra8+", NULL), CHESS_OK);
    CHECK_ERR(chess_game_push_san(game, "Kd7", NULL), CHESS_OK);
    CHECK_ERR(chess_game_push_san(game, "Ra7+", NULL), CHESS_OK);
    CHECK_ERR(chess_game_push_san(game, "Kc6", NULL), CHESS_OK);
    CHECK_ERR(chess_game_push_san(game, "Ra6+", NULL), CHESS_OK);
    outcome = chess_game_outcome(game);
    CHECK(outcome.result == CHESS_RESULT_WHITE_WINS && outcome.termination == CHESS_TERMINATION_VARIANT_LOSS);
    CHECK(strcmp(text_of(chess_game_san_moves, game), "Ra8+ Kd7 Ra7+ Kc6 Ra6#") == 0);
    CHECK_ERR(chess_game_push_san(game, "Kb5", NULL), CHESS_ERR_ILLEGAL_MOVE);
    copy = chess_game_clone(game);
    CHECK(copy != NULL && chess_game_variant(copy) == CHESS_VARIANT_THREE_CHECK && chess_game_ply_count(copy) == 5);
    chess_game_free(copy);
    chess_game_free(game);
    chess_variant_position_free(start);

    /* Crazyhouse repetitions: the pockets are part of the position. */
    CHECK_ERR(chess_variant_position_new(CHESS_VARIANT_CRAZYHOUSE, NULL, &start), CHESS_OK);
    game = chess_game_new_variant(start);
    for (i = 0; i < 8; i++) {
        CHECK_ERR(chess_game_push_san(game, shuffle[i % 4], NULL), CHESS_OK);
    }
    CHECK(chess_game_repetition_count(game) == 3);
    CHECK(chess_game_claimable_draw(game) == CHESS_TERMINATION_THREEFOLD_REPETITION);
    CHECK(chess_game_is_repetition(game));
    chess_game_free(game);
    chess_variant_position_free(start);

    /* A chess variant position makes a chess game. */
    CHECK_ERR(chess_variant_position_new(CHESS_VARIANT_CHESS, NULL, &start), CHESS_OK);
    game = chess_game_new_variant(start);
    CHECK(game != NULL && chess_game_variant(game) == CHESS_VARIANT_CHESS && chess_game_position(game) != NULL);
    chess_game_free(game);
    chess_variant_position_free(start);

    CHECK(chess_game_new_variant(NULL) == NULL);
    CHECK(chess_game_variant(NULL) == CHESS_VARIANT_CHESS);
    CHECK_ERR(chess_node_variant_position(NULL, 0, NULL), CHESS_ERR_NULL_POINTER);
    game = chess_game_new(NULL);
    CHECK_ERR(chess_node_variant_position(game, 0, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_new(CHESS_VARIANT_HORDE, NULL, &start), CHESS_OK);
    CHECK_ERR(chess_node_variant_position(game, 5, start), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_node_variant_position(game, 0, start), CHESS_OK);
    CHECK(chess_variant_position_variant(start) == CHESS_VARIANT_CHESS);
    chess_variant_position_free(start);
    chess_game_free(game);
}

/* Random bytes around variant tags and drops: errors or games, never a crash. */
static void test_garbage(int rounds) {
    static const char *const pieces[] = {"[Variant \"Crazyhouse\"]\n", "[Variant \"Atomic\"]\n", "[Variant \"Horde\"]\n",
                                         "\n", "1. ", "e4 ", "P@e4 ", "N@f3 ", "@d5 ", "O-O ", "( ", ") ",
                                         "{ c } ", "$1 ", "* ", "1-0 ", "[FEN \"8/8/8/8/8/8/8/8[Qq] w - - 0 1\"]\n",
                                         "Kxe5 ", "exd5 ", "Qxd5 ", "\xff", "3+3 "};
    unsigned seed = 38;
    int r;
    for (r = 0; r < rounds; r++) {
        char text[512];
        size_t len = 0;
        int k, n;
        chess_pgn_reader *reader;
        chess_game *game;
        chess_error err;
        seed = seed * 1103515245u + 12345u;
        n = 1 + (int)(seed >> 16) % 24;
        for (k = 0; k < n; k++) {
            const char *piece;
            seed = seed * 1103515245u + 12345u;
            piece = pieces[(seed >> 16) % (sizeof pieces / sizeof *pieces)];
            if (len + strlen(piece) >= sizeof text) {
                break;
            }
            memcpy(text + len, piece, strlen(piece));
            len += strlen(piece);
        }
        text[len] = 0;
        reader = reader_of(text, CHESS_PGN_VARIANTS);
        for (k = 0; k < 8; k++) {
            game = NULL;
            err = chess_pgn_reader_next(reader, &game);
            if (err == CHESS_END) {
                break;
            }
            if (err == CHESS_OK) {
                char buf[2048];
                size_t need = 0;
                chess_error written = chess_game_to_pgn(game, buf, sizeof buf, &need);
                CHECK(written == CHESS_OK || written == CHESS_ERR_BUFFER_TOO_SMALL);
                (void)chess_game_outcome(game);
                chess_game_free(game);
            } else {
                CHECK(game == NULL);
            }
        }
        chess_pgn_reader_free(reader);
    }
}

/* Games of chess, Chess960 and every variant, broken ones among them (a crazyhouse game broken
 * mid-movetext, an unknown variant, a bad variant FEN), a tag line inside a comment (where a
 * thread guesses a game starts) and variations. */
static const char EVERY_VARIANT[] =
    "[Event \"chess\"]\n\n1. e4 e5 2. Nf3 {[Event \"fake\"]\n\n} Nc6 (2... d6) 3. Bb5 *\n\n"
    "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d5 {drop} Qxa2 5. Q@e9 *\n\n"
    "[Variant \"Atomic\"]\n\n1. e4 d5 2. exd5 *\n\n"
    "[Variant \"Bughouse\"]\n\n1. e4 *\n\n"
    "[Variant \"Antichess\"]\n\n1. e3 b5 2. Bxb5 *\n\n"
    "[Variant \"King of the Hill\"]\n\n1. e4 e5 2. Ke2 Ke7 3. Ke3 Ke6 4. Kd3 *\n\n"
    "[Variant \"Three-check\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 *\n\n"
    "[Variant \"Horde\"]\n\n1. e5 *\n\n"
    "[Variant \"Racing Kings\"]\n\n1. Kh3 Ka3 *\n\n"
    "[Variant \"Racing Kings\"]\n[FEN \"not a fen\"]\n\n1. Kh3 *\n\n"
    "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. g3 *\n\n";

/* FNV-1a of `text` into `hash`. */
static uint64_t hash_text(uint64_t hash, const char *text) {
    for (; *text; text++) {
        hash = (hash ^ (unsigned char)*text) * 0x100000001b3ULL;
    }
    return hash;
}

/* Reads `data` with CHESS_PGN_VARIANTS and `threads` threads: per game a hash of its code, its
 * variant and PGN (for a broken game, its error's message and its partial game's variant and
 * PGN), into `out` (room for `cap`); returns how many games. */
static size_t read_variants(const unsigned char *data, size_t len, uint32_t threads, uint64_t *out, size_t cap,
                            size_t *broken) {
    chess_pgn_reader *reader = NULL;
    chess_pgn_options options;
    chess_game *game = NULL;
    chess_error code;
    size_t n = 0;
    char number[64];
    static char pgn[1 << 16];
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    options.flags = CHESS_PGN_VARIANTS;
    *broken = 0;
    CHECK_ERR(chess_pgn_reader_from_buffer(data, len, &reader), CHESS_OK);
    CHECK_ERR(chess_pgn_reader_set_options(reader, &options), CHESS_OK);
    CHECK_ERR(chess_pgn_reader_set_threads(reader, threads), CHESS_OK);
    while ((code = chess_pgn_reader_next(reader, &game)) != CHESS_END) {
        uint64_t hash = 0xcbf29ce484222325ULL;
        snprintf(number, sizeof number, "%d ", (int)code);
        hash = hash_text(hash, number);
        if (code != CHESS_OK) {
            chess_pgn_error_info info;
            memset(&info, 0, sizeof info);
            info.size = sizeof info;
            CHECK_ERR(chess_pgn_reader_last_error(reader, &info), CHESS_OK);
            hash = hash_text(hash, info.message);
            CHECK_ERR(chess_pgn_reader_partial_game(reader, &game), CHESS_OK);
            ++*broken;
        }
        snprintf(number, sizeof number, " %d ", (int)chess_game_variant(game));
        CHECK_ERR(chess_game_to_pgn(game, pgn, sizeof pgn, NULL), CHESS_OK);
        hash = hash_text(hash_text(hash, number), pgn);
        chess_game_free(game);
        game = NULL;
        if (n < cap) {
            out[n] = hash;
        }
        n++;
    }
    chess_pgn_reader_free(reader);
    return n;
}

/* The database of every variant, with the games of `extra` (a file, or NULL) between copies, read
 * by 2 and 4 threads (and 0: one per core) as by one: the same games, errors and partial games in
 * the same order. Large enough for several batches per thread. */
static void test_threads(const char *extra) {
    size_t copies = 3000, i, len = 0, extra_len = 0, n1, n, broken1, broken;
    size_t base = strlen(EVERY_VARIANT), cap;
    unsigned char *data, *more = NULL;
    uint64_t *one, *many;
    uint32_t threads[] = {2, 4, 0};
    size_t t;
    if (extra != NULL) {
        FILE *f = fopen(extra, "rb");
        CHECK(f != NULL);
        if (f != NULL) {
            fseek(f, 0, SEEK_END);
            extra_len = (size_t)ftell(f);
            fseek(f, 0, SEEK_SET);
            more = malloc(extra_len + 1);
            CHECK(more != NULL && fread(more, 1, extra_len, f) == extra_len);
            fclose(f);
        }
    }
    data = malloc(copies * base + 4 * extra_len + 1);
    CHECK(data != NULL);
    if (data == NULL) {
        return;
    }
    for (i = 0; i < copies; i++) {
        memcpy(data + len, EVERY_VARIANT, base);
        len += base;
        if (more != NULL && i % 1000 == 500) {
            memcpy(data + len, more, extra_len);
            len += extra_len;
        }
    }
    cap = copies * 11 + 4 * extra_len / 40 + 16;
    one = malloc(cap * sizeof *one);
    many = malloc(cap * sizeof *many);
    CHECK(one != NULL && many != NULL);
    n1 = read_variants(data, len, 1, one, cap, &broken1);
    CHECK(n1 >= copies * 11 && n1 <= cap);
    CHECK(broken1 >= copies * 3);
    for (t = 0; t < sizeof threads / sizeof *threads; t++) {
        n = read_variants(data, len, threads[t], many, cap, &broken);
        CHECK(n == n1 && broken == broken1);
        for (i = 0; i < n && i < n1 && i < cap; i++) {
            if (many[i] != one[i]) {
                fprintf(stderr, "%u threads: game %zu differs\n", (unsigned)threads[t], i + 1);
                CHECK(many[i] == one[i]);
                break;
            }
        }
    }
    free(one);
    free(many);
    free(more);
    free(data);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 2000;
    test_mixed_database();
    test_built_games();
    test_threads(argc > 2 ? argv[2] : NULL);
    test_garbage(rounds > 0 ? rounds : 1);
    return report("c variant games");
}
