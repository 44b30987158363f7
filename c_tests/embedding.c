/* The engine-embedding functions from plain C99: staged generation, gives-check, SEE,
 * hash-move validation, zobrist-after, attacked and check squares, the cheap has-a-move test and
 * a game's repetition test. Property checks run over the positions of the perft suites and along
 * random games; SEE over hand-made exchanges (the Rust tests compare it with a slow definition on
 * every capture of the vector sets).
 *
 * usage: embedding TESTDATA_DIR */

#include "common.h"

static int is_capture_stage(const chess_position *pos, chess_move mv) {
    chess_move_kind kind = chess_move_kind_of(mv);
    if (kind == CHESS_MOVE_EN_PASSANT || chess_move_promotion(mv) != CHESS_NO_KIND) {
        return 1;
    }
    return kind != CHESS_MOVE_CASTLING && chess_position_piece_at(pos, chess_move_to_square(mv)) != CHESS_NO_PIECE;
}

static int contains(const chess_move *moves, size_t n, chess_move mv) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (moves[i] == mv) {
            return 1;
        }
    }
    return 0;
}

static unsigned long long pseudo_checked, refused;

/* Every 16-bit value: pseudo-legal exactly when chess_pseudo_legal_moves lists it; the ones that
 * are not legal are refused by chess_position_play, which leaves the position unchanged. */
static void check_every_value(const chess_position *pos) {
    static unsigned char listed[65536];
    chess_move pseudo[CHESS_MAX_MOVES];
    size_t n = chess_pseudo_legal_moves(pos, pseudo, CHESS_MAX_MOVES), i;
    uint32_t raw;
    memset(listed, 0, sizeof listed);
    for (i = 0; i < n; i++) {
        listed[pseudo[i]] = 1;
    }
    for (raw = 0; raw <= 0xffff; raw++) {
        CHECK(chess_position_is_pseudo_legal(pos, (chess_move)raw) == (listed[raw] != 0));
    }
    for (i = 0; i < n; i++) {
        if (!chess_position_is_legal(pos, pseudo[i])) {
            chess_position copy = *pos;
            CHECK_ERR(chess_position_play(&copy, pseudo[i]), CHESS_ERR_ILLEGAL_MOVE);
            CHECK(chess_position_zobrist(&copy) == chess_position_zobrist(pos));
            refused++;
        }
    }
    pseudo_checked++;
}

static unsigned long long positions, checking_moves;

static void check_position(const chess_position *pos) {
    chess_move legal[CHESS_MAX_MOVES], captures[CHESS_MAX_MOVES], quiets[CHESS_MAX_MOVES];
    size_t n = chess_legal_moves(pos, legal, CHESS_MAX_MOVES);
    size_t nc = chess_legal_captures(pos, captures, CHESS_MAX_MOVES);
    size_t nq = chess_legal_quiets(pos, quiets, CHESS_MAX_MOVES);
    size_t i, ci = 0, qi = 0;
    CHECK(nc + nq == n);
    CHECK(chess_legal_captures(pos, NULL, 0) == nc);
    CHECK(chess_legal_quiets(pos, NULL, 0) == nq);
    CHECK(chess_position_has_legal_moves(pos) == (n > 0));
    /* Each stage keeps the order of the legal moves: walking them splits them into the two. */
    for (i = 0; i < n; i++) {
        chess_position after;
        chess_move mv = legal[i];
        if (is_capture_stage(pos, mv)) {
            CHECK(ci < nc && captures[ci] == mv);
            ci++;
        } else {
            CHECK(qi < nq && quiets[qi] == mv);
            qi++;
        }
        CHECK(!contains(captures, nc, mv) || !contains(quiets, nq, mv));
        chess_position_play_into(pos, mv, &after);
        CHECK(chess_position_gives_check(pos, mv) == chess_position_in_check(&after));
        CHECK(chess_position_zobrist_after(pos, mv) == chess_position_zobrist(&after));
        CHECK(chess_position_see_ge(pos, mv, chess_position_see(pos, mv)));
        CHECK(!chess_position_see_ge(pos, mv, chess_position_see(pos, mv) + 1));
        checking_moves += chess_position_in_check(&after);
    }
    CHECK(ci == nc && qi == nq);
    if (positions % 16 == 0) {
        check_every_value(pos);
    }
    positions++;
}

/* The positions of a perft suite file (`FEN ;D1 n ...`) and a random game from each. */
static void check_suite(const char *testdata, const char *name, uint64_t *seed) {
    char line[1024];
    FILE *file = open_testdata(testdata, name);
    if (file == NULL) {
        return;
    }
    while (fgets(line, sizeof line, file) != NULL) {
        chess_position pos;
        char *end = strchr(line, ';');
        int ply;
        if (end == NULL) {
            continue;
        }
        *end = '\0';
        if (chess_fen_parse_into(line, &pos) != CHESS_OK) {
            /* A Chess960 start. */
            CHECK_ERR(chess_fen_parse_with(line, CHESS_FEN_CHESS960, &pos, NULL), CHESS_OK);
        }
        for (ply = 0; ply < 60; ply++) {
            chess_move moves[CHESS_MAX_MOVES];
            size_t n;
            check_position(&pos);
            n = chess_legal_moves(&pos, moves, CHESS_MAX_MOVES);
            if (n == 0) {
                break;
            }
            *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
            chess_position_play_into(&pos, moves[(*seed >> 33) % n], &pos);
        }
    }
    fclose(file);
}

static int32_t see_of(const char *fen, const char *text) {
    chess_position *pos = parse(fen);
    int32_t see = chess_position_see(pos, uci(pos, text));
    chess_position_free(pos);
    return see;
}

static void test_see(void) {
    CHECK(see_of("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5") == 100);
    CHECK(see_of("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5") == -400);
    /* x-ray batteries */
    CHECK(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5") == 100);
    CHECK(see_of("3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5") == -400);
    CHECK(see_of("4k3/6p1/5n2/8/3B4/2Q5/8/4K3 w - - 0 1", "d4f6") == 100);
    /* king recaptures only when nothing takes it back */
    CHECK(see_of("8/8/8/4k3/3p4/8/8/3RK3 w - - 0 1", "d1d4") == -400);
    CHECK(see_of("8/8/8/4k3/3p4/8/3R4/3RK3 w - - 0 1", "d2d4") == 100);
    /* en passant, promotions (as the pawn they were), quiet moves, castling */
    CHECK(see_of("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "d5e6") == 100);
    CHECK(see_of("4k3/5p2/8/3Pp3/8/8/8/4K3 w - e6 0 1", "d5e6") == 0);
    CHECK(see_of("3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8q") == 400);
    CHECK(see_of("2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q") == -100);
    CHECK(see_of("4k3/8/4p3/8/8/8/8/3RK3 w - - 0 1", "d1d5") == -500);
    CHECK(see_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1") == 0);
    {
        chess_position *pos = parse("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1");
        chess_move rxd5 = uci(pos, "d1d5");
        CHECK(chess_position_see_ge(pos, rxd5, -400));
        CHECK(!chess_position_see_ge(pos, rxd5, -399));
        CHECK(!chess_position_see_ge(pos, rxd5, 0));
        /* Values that move nothing: 0, and see_ge compares 0. */
        CHECK(chess_position_see(pos, CHESS_MOVE_NONE) == 0);
        CHECK(chess_position_see_ge(pos, CHESS_MOVE_NONE, 0));
        CHECK(!chess_position_see_ge(pos, CHESS_MOVE_NONE, 1));
        CHECK(chess_position_see(NULL, rxd5) == 0);
        CHECK(!chess_position_see_ge(NULL, rxd5, 1));
        chess_position_free(pos);
    }
}

static void test_stages_and_nulls(void) {
    chess_position pos;
    chess_move moves[CHESS_MAX_MOVES];
    char text[8];
    /* In check by the rook on e2: Kxe2 is the only capture, Kf1 the only quiet evasion. */
    CHECK_ERR(chess_fen_parse_into("4k3/8/8/8/8/8/4r3/3NK2R w K - 0 1", &pos), CHESS_OK);
    CHECK(chess_legal_captures(&pos, moves, CHESS_MAX_MOVES) == 1);
    CHECK_ERR(chess_move_to_uci(moves[0], text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "e1e2") == 0);
    CHECK(chess_legal_quiets(&pos, moves, CHESS_MAX_MOVES) == 1);
    CHECK(moves[0] == uci(&pos, "e1f1"));
    /* Short arrays: the count of all, only `cap` written. */
    chess_position_init(&pos);
    moves[1] = 0xbeef;
    CHECK(chess_legal_quiets(&pos, moves, 1) == 20);
    CHECK(moves[1] == 0xbeef);
    CHECK(chess_legal_captures(&pos, moves, CHESS_MAX_MOVES) == 0);
    CHECK(chess_legal_captures(NULL, moves, CHESS_MAX_MOVES) == 0);
    CHECK(chess_legal_quiets(NULL, moves, CHESS_MAX_MOVES) == 0);
    CHECK(chess_legal_quiets(&pos, NULL, 5) == 0);
    CHECK(!chess_position_gives_check(NULL, uci(&pos, "e2e4")));
    CHECK(!chess_position_is_pseudo_legal(NULL, uci(&pos, "e2e4")));
    CHECK(chess_position_zobrist_after(NULL, uci(&pos, "e2e4")) == 0);
    /* A value play_unchecked ignores leaves the key as it is. */
    CHECK(chess_position_zobrist_after(&pos, CHESS_MOVE_NONE) == chess_position_zobrist(&pos));
    CHECK(!chess_position_gives_check(&pos, 0xffff));
    CHECK(!chess_position_has_legal_moves(NULL));
    CHECK(chess_position_has_legal_moves(&pos));
    CHECK_ERR(chess_fen_parse_into("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &pos), CHESS_OK);
    CHECK(!chess_position_has_legal_moves(&pos)); /* stalemate */
}

static void test_attack_maps(void) {
    chess_position pos;
    int sq;
    chess_position_init(&pos);
    for (sq = 0; sq < 64; sq++) {
        uint64_t bit = (uint64_t)1 << sq;
        CHECK(((chess_position_attacks_by(&pos, CHESS_WHITE) & bit) != 0) ==
              (chess_position_attackers_to(&pos, sq, CHESS_WHITE) != 0));
        CHECK(((chess_position_attacks_by(&pos, CHESS_BLACK) & bit) != 0) ==
              (chess_position_attackers_to(&pos, sq, CHESS_BLACK) != 0));
    }
    CHECK(chess_position_attacks_by(&pos, 7) == 0);
    CHECK(chess_position_attacks_by(NULL, CHESS_WHITE) == 0);
    /* Knight checks on e8 come from d6, f6, c7 and g7. */
    CHECK_ERR(chess_fen_parse_into("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", &pos), CHESS_OK);
    CHECK(chess_position_check_squares(&pos, CHESS_KNIGHT) ==
          (((uint64_t)1 << 43) | ((uint64_t)1 << 45) | ((uint64_t)1 << 50) | ((uint64_t)1 << 54)));
    CHECK(chess_position_check_squares(&pos, CHESS_PAWN) == (((uint64_t)1 << 51) | ((uint64_t)1 << 53)));
    CHECK(chess_position_check_squares(&pos, CHESS_KING) == 0);
    CHECK(chess_position_check_squares(&pos, CHESS_NO_KIND) == 0);
    CHECK(chess_position_check_squares(&pos, 9) == 0);
    CHECK(chess_position_check_squares(NULL, CHESS_ROOK) == 0);
}

static void test_repetition(void) {
    chess_game *game = chess_game_new(NULL);
    const char *line[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    int i;
    CHECK(game != NULL);
    CHECK(!chess_game_is_repetition(game));
    for (i = 0; i < 4; i++) {
        CHECK(!chess_game_is_repetition(game));
        CHECK_ERR(chess_game_push_uci(game, line[i], NULL), CHESS_OK);
    }
    CHECK(chess_game_is_repetition(game));
    CHECK_ERR(chess_game_push_uci(game, "e2e4", NULL), CHESS_OK);
    CHECK(!chess_game_is_repetition(game));
    CHECK(!chess_game_is_repetition(NULL));
    chess_game_free(game);
}

int main(int argc, char **argv) {
    uint64_t seed = 0x1234567;
    if (argc < 2) {
        fprintf(stderr, "usage: embedding TESTDATA_DIR\n");
        return 2;
    }
    check_suite(argv[1], "perft/cpw6.epd", &seed);
    check_suite(argv[1], "perft/dev_random.epd", &seed);
    check_suite(argv[1], "perft/dev_chess960.epd", &seed);
    CHECK(positions > 5000 && checking_moves > 1000 && pseudo_checked > 300 && refused > 20);
    printf("%llu positions, %llu checking moves, %llu positions over all 65536 values, %llu refused\n", positions,
           checking_moves, pseudo_checked, refused);
    test_see();
    test_stages_and_nulls();
    test_attack_maps();
    test_repetition();
    return report("embedding");
}
