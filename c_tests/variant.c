/* The lichess variants through the C API: variant values and names, start-position perft per
 * variant, a crazyhouse game with drops read as SAN and UCI, FEN round trips (three-check's two
 * counter forms among them), outcomes, pockets and checks, the board as a setup, NULL and
 * garbage arguments, a buffer too small, and variant moves refused by the chess functions.
 * Expected figures come from python-chess 1.11.2.
 *
 * usage: variant [ROUNDS]   (of garbage, 20000 by default) */

#include "common.h"

enum { E1 = 4, F2 = 13, E3 = 20, G3 = 22, E4 = 28, E7 = 52, E8 = 60 };

static chess_variant_position *new_position(chess_variant variant, const char *fen) {
    chess_variant_position *pos = NULL;
    CHECK_ERR(chess_variant_position_new(variant, fen, &pos), CHESS_OK);
    CHECK(pos != NULL);
    return pos;
}

static const char *fen_of(const chess_variant_position *pos) {
    static char buf[256];
    CHECK_ERR(chess_variant_position_fen(pos, buf, sizeof buf, NULL), CHESS_OK);
    return buf;
}

static chess_move drop_of(int kind, int square) {
    return (chess_move)(0x8000 | kind << 12 | square << 6 | square);
}

static void test_names(void) {
    static const char *const names[] = {"standard", "chess960", "atomic", "antichess", "crazyhouse",
                                        "kingofthehill", "threecheck", "horde", "racingkings"};
    chess_variant v = 99;
    int i;
    for (i = 0; i < 9; i++) {
        CHECK(strcmp(chess_variant_name((chess_variant)i), names[i]) == 0);
        CHECK_ERR(chess_variant_from_name(names[i], &v), CHESS_OK);
        CHECK(v == i);
    }
    CHECK(chess_variant_name(9) == NULL && chess_variant_name(255) == NULL);
    CHECK_ERR(chess_variant_from_name("King of the Hill", &v), CHESS_OK);
    CHECK(v == CHESS_VARIANT_KING_OF_THE_HILL);
    CHECK_ERR(chess_variant_from_name("3check", &v), CHESS_OK);
    CHECK(v == CHESS_VARIANT_THREE_CHECK);
    CHECK_ERR(chess_variant_from_name("giveaway", &v), CHESS_OK);
    CHECK(v == CHESS_VARIANT_ANTICHESS);
    CHECK_ERR(chess_variant_from_name("Racing Kings", &v), CHESS_OK);
    CHECK(v == CHESS_VARIANT_RACING_KINGS);
    v = 42;
    CHECK_ERR(chess_variant_from_name("shogi", &v), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_variant_from_name("", &v), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_variant_from_name("atomic\xc3\xa9", &v), CHESS_ERR_INVALID_TEXT);
    CHECK(v == 42);
    CHECK_ERR(chess_variant_from_name(NULL, &v), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_from_name("atomic", NULL), CHESS_ERR_NULL_POINTER);
}

static void test_start_perft(void) {
    static const uint64_t depth3[9] = {8902, 8902, 8902, 8067, 8902, 8902, 8902, 1274, 11264};
    static const uint64_t depth1[9] = {20, 20, 20, 20, 20, 20, 20, 8, 21};
    chess_move moves[CHESS_MAX_VARIANT_MOVES];
    int v;
    for (v = 0; v < 9; v++) {
        chess_variant_position *pos = new_position((chess_variant)v, NULL);
        CHECK(chess_variant_position_variant(pos) == v);
        CHECK(chess_variant_position_turn(pos) == CHESS_WHITE);
        CHECK(chess_variant_position_perft(pos, 0) == 1);
        CHECK(chess_variant_position_perft(pos, 3) == depth3[v]);
        CHECK(chess_variant_position_legal_moves(pos, moves, CHESS_MAX_VARIANT_MOVES) == depth1[v]);
        CHECK(chess_variant_position_legal_moves(pos, NULL, 0) == depth1[v]);
        CHECK(chess_variant_position_legal_moves(pos, NULL, 5) == 0);
        /* A short array takes the first moves and the count says how many there are. */
        CHECK(chess_variant_position_legal_moves(pos, moves, 3) == depth1[v]);
        CHECK(chess_variant_position_outcome(pos).result == CHESS_RESULT_ONGOING);
        CHECK(!chess_variant_position_is_check(pos) && !chess_variant_position_is_variant_end(pos));
        chess_variant_position_free(pos);
    }
}

/* A crazyhouse game read alternately through SAN and UCI, each move written back both ways. */
static void test_crazyhouse_game(void) {
    static const char *const san[] = {"e4", "d5", "exd5", "Qxd5", "Nc3", "Qxg2", "Bxg2",
                                      "@e3", "fxe3", "Nf6", "Q@g3", "@f2+", "Kxf2"};
    static const char *const uci[] = {"e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5g2", "f1g2",
                                      "P@e3", "f2e3", "g8f6", "Q@g3", "P@f2", "e1f2"};
    chess_variant_position *pos = new_position(CHESS_VARIANT_CRAZYHOUSE, NULL);
    chess_move mv, again, moves[CHESS_MAX_VARIANT_MOVES];
    char buf[16];
    size_t i, n, len = 0;
    for (i = 0; i < sizeof san / sizeof *san; i++) {
        CHECK_ERR((i % 2 ? chess_variant_position_parse_uci(pos, uci[i], &mv)
                         : chess_variant_position_parse_san(pos, san[i], &mv)),
                  CHESS_OK);
        CHECK_ERR(chess_variant_position_san(pos, mv, buf, sizeof buf, &len), CHESS_OK);
        CHECK(strcmp(buf, san[i]) == 0 && len == strlen(san[i]));
        CHECK_ERR(chess_variant_position_uci(pos, mv, buf, sizeof buf, &len), CHESS_OK);
        CHECK(strcmp(buf, uci[i]) == 0 && len == strlen(uci[i]));
        CHECK_ERR((i % 2 ? chess_variant_position_parse_san(pos, san[i], &again)
                         : chess_variant_position_parse_uci(pos, uci[i], &again)),
                  CHESS_OK);
        CHECK(again == mv);
        CHECK_ERR(chess_variant_position_play(pos, mv), CHESS_OK);
    }
    CHECK(strcmp(fen_of(pos), "rnb1kb1r/ppp1pppp/5n2/8/8/2N1P1Q1/PPPP1KBP/R1BQ2NR[PPP] b kq - 0 7") == 0);
    CHECK(chess_variant_position_pocket(pos, CHESS_WHITE, CHESS_PAWN) == 3);
    CHECK(chess_variant_position_pocket(pos, CHESS_WHITE, CHESS_QUEEN) == 0);
    CHECK(chess_variant_position_pocket(pos, CHESS_BLACK, CHESS_PAWN) == 0);
    CHECK(chess_variant_position_pocket(pos, CHESS_WHITE, CHESS_KING) == 0);
    CHECK(chess_variant_position_pocket(pos, 2, CHESS_PAWN) == 0);
    CHECK(chess_variant_position_pocket(pos, CHESS_WHITE, 9) == 0);
    CHECK(chess_variant_position_piece_at(pos, G3) == CHESS_WHITE_QUEEN);
    CHECK(chess_variant_position_piece_at(pos, 64) == CHESS_NO_PIECE);
    CHECK(chess_variant_position_turn(pos) == CHESS_BLACK);
    n = chess_variant_position_legal_moves(pos, moves, CHESS_MAX_VARIANT_MOVES);
    CHECK(n == 29 && !chess_variant_position_is_check(pos));
    /* Black's pocket is empty: no drop; White's pawn drop is not Black's to play. */
    CHECK_ERR(chess_variant_position_parse_san(pos, "@e6", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_variant_position_play(pos, drop_of(0, E4)), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_variant_position_parse_uci(pos, "P@e9", &mv), CHESS_ERR_UCI_SYNTAX);
    CHECK_ERR(chess_variant_position_parse_san(pos, "Zz9", &mv), CHESS_ERR_SAN_SYNTAX);
    /* White's drops are there once it is White's turn. */
    CHECK_ERR(chess_variant_position_parse_san(pos, "Nc6", &mv), CHESS_OK);
    CHECK_ERR(chess_variant_position_play(pos, mv), CHESS_OK);
    CHECK_ERR(chess_variant_position_parse_uci(pos, "P@e4", &mv), CHESS_OK);
    CHECK(mv == drop_of(0, E4));
    CHECK_ERR(chess_variant_position_san(pos, mv, buf, sizeof buf, NULL), CHESS_OK);
    CHECK(strcmp(buf, "@e4") == 0);
    CHECK_ERR(chess_variant_position_parse_san(pos, "P@e4", &again), CHESS_OK);
    CHECK(again == mv);
    /* The chess functions refuse a drop. */
    {
        chess_position board;
        chess_position_init(&board);
        CHECK(!chess_position_is_legal(&board, drop_of(0, E3)));
        CHECK(!chess_position_is_pseudo_legal(&board, drop_of(0, E3)));
        CHECK_ERR(chess_position_play(&board, drop_of(0, E3)), CHESS_ERR_ILLEGAL_MOVE);
        chess_position_play_unchecked(&board, drop_of(0, E3));
        CHECK(chess_position_piece_at(&board, E3) == CHESS_NO_PIECE);
    }
    chess_variant_position_free(pos);
}

static void test_fen_round_trips(void) {
    static const struct {
        chess_variant variant;
        const char *in, *out;
    } cases[] = {
        /* lichess's checks given, after the clocks, become python-chess's remaining checks. */
        {CHESS_VARIANT_THREE_CHECK, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +1+0",
         "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+3 0 2"},
        {CHESS_VARIANT_THREE_CHECK, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+1 0 2",
         "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+1 0 2"},
        /* lichess's ninth rank pocket, promoted pieces. */
        {CHESS_VARIANT_CRAZYHOUSE, "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Nq w KQkq - 0 1",
         "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nq] w KQkq - 0 1"},
        {CHESS_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/Q~3K3[] b - - 3 40", "4k3/8/8/8/8/8/8/Q~3K3[] b - - 3 40"},
        {CHESS_VARIANT_ANTICHESS, "8/4P3/8/8/8/8/8/k7 w - - 0 1", "8/4P3/8/8/8/8/8/k7 w - - 0 1"},
        {CHESS_VARIANT_HORDE, "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
         "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"},
        {CHESS_VARIANT_RACING_KINGS, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
         "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"},
        /* An en passant square without a legal capture is not written. */
        {CHESS_VARIANT_ATOMIC, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        chess_variant_position *pos = new_position(cases[i].variant, cases[i].in);
        chess_variant_position *copy;
        CHECK(strcmp(fen_of(pos), cases[i].out) == 0);
        copy = new_position(cases[i].variant, cases[i].out);
        CHECK(strcmp(fen_of(copy), cases[i].out) == 0);
        chess_variant_position_free(copy);
        chess_variant_position_free(pos);
    }
    {
        chess_variant_position *pos = new_position(CHESS_VARIANT_THREE_CHECK, cases[1].in);
        chess_variant_position *crazy = new_position(CHESS_VARIANT_CRAZYHOUSE, cases[2].in);
        chess_variant_position *copy = chess_variant_position_clone(pos);
        CHECK(chess_variant_position_remaining_checks(pos, CHESS_WHITE) == 2);
        CHECK(chess_variant_position_remaining_checks(pos, CHESS_BLACK) == 1);
        CHECK(chess_variant_position_remaining_checks(pos, 7) == 0);
        CHECK(strcmp(fen_of(copy), cases[1].out) == 0);
        /* copy overwrites, variant and pockets included; copying onto itself changes nothing. */
        chess_variant_position_copy(copy, crazy);
        chess_variant_position_copy(copy, copy);
        CHECK(chess_variant_position_variant(copy) == CHESS_VARIANT_CRAZYHOUSE);
        CHECK(chess_variant_position_pocket(copy, CHESS_BLACK, CHESS_QUEEN) == 1);
        CHECK(chess_variant_position_remaining_checks(copy, CHESS_WHITE) == 3);
        chess_variant_position_free(copy);
        chess_variant_position_free(crazy);
        chess_variant_position_free(pos);
    }
    {
        chess_variant_position *pos = new_position(CHESS_VARIANT_CRAZYHOUSE, cases[3].in);
        CHECK(chess_variant_position_promoted(pos) == 1);
        chess_variant_position_free(pos);
    }
}

static void test_refused_fens(void) {
    static const struct {
        chess_variant variant;
        const char *fen;
        chess_error code;
    } cases[] = {
        {CHESS_VARIANT_CRAZYHOUSE, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[K] w KQkq - 0 1",
         CHESS_ERR_VARIANT_POCKET},
        {CHESS_VARIANT_ATOMIC, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w KQkq - 0 1", CHESS_ERR_VARIANT_POCKET},
        {CHESS_VARIANT_THREE_CHECK, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4+9 0 1",
         CHESS_ERR_VARIANT_CHECKS},
        {CHESS_VARIANT_HORDE, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_ERR_VARIANT_KINGS},
        {CHESS_VARIANT_KING_OF_THE_HILL, "8/8/8/8/8/8/8/K7 w - - 0 1", CHESS_ERR_VARIANT_KINGS},
        {CHESS_VARIANT_ATOMIC, "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_ERR_FEN_PAWN_ON_BACK_RANK},
        {CHESS_VARIANT_KING_OF_THE_HILL, "4k3/8/8/8/8/8/8/4K2r b - - 0 1", CHESS_ERR_FEN_OPPOSITE_CHECK},
        {CHESS_VARIANT_CHESS, "4k3/8/8/8/8/8/8/4K3 x - - 0 1", CHESS_ERR_FEN_SIDE_TO_MOVE},
        {CHESS_VARIANT_ANTICHESS, "", CHESS_ERR_FEN_EMPTY},
        {CHESS_VARIANT_ANTICHESS, "8/8/8/8/8/8/8/8\xff w - - 0 1", CHESS_ERR_FEN_INVALID_CHARACTER},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        chess_variant_position *pos = (chess_variant_position *)&cases[i];
        CHECK_ERR(chess_variant_position_new(cases[i].variant, cases[i].fen, &pos), cases[i].code);
        CHECK(pos == (chess_variant_position *)&cases[i]);
    }
    {
        static const chess_error codes[] = {CHESS_ERR_VARIANT_POCKET, CHESS_ERR_VARIANT_CHECKS,
                                            CHESS_ERR_VARIANT_KINGS};
        for (i = 0; i < 3; i++) {
            CHECK(strstr(chess_error_message(codes[i]), "variant") != NULL);
        }
    }
}

static void test_outcomes(void) {
    static const struct {
        chess_variant variant;
        const char *fen;
        chess_result result;
        chess_termination termination;
        int checkmate; /* in check without a move, as python-chess counts it */
    } cases[] = {
        /* Three-check: Black just received the third check. */
        {CHESS_VARIANT_THREE_CHECK, "r1bq1bnr/pppp1k1p/2n3Q1/4p3/4P3/8/PPPP1PPP/RNB1K1NR b KQ - 0+3 0 5",
         CHESS_RESULT_WHITE_WINS, CHESS_TERMINATION_VARIANT_LOSS, 1},
        /* King of the hill: White's king stands on e4. */
        {CHESS_VARIANT_KING_OF_THE_HILL, "4k3/8/8/8/4K3/8/8/8 b - - 0 1", CHESS_RESULT_WHITE_WINS,
         CHESS_TERMINATION_VARIANT_LOSS, 0},
        /* Antichess: White has nothing left and wins. */
        {CHESS_VARIANT_ANTICHESS, "8/8/8/8/8/8/8/k7 w - - 0 1", CHESS_RESULT_WHITE_WINS,
         CHESS_TERMINATION_VARIANT_WIN, 0},
        /* Racing kings: both kings on the eighth rank. */
        {CHESS_VARIANT_RACING_KINGS, "k6K/8/8/8/8/8/8/8 w - - 0 1", CHESS_RESULT_DRAW, CHESS_TERMINATION_VARIANT_DRAW, 0},
        /* Atomic: Black's king is gone. */
        {CHESS_VARIANT_ATOMIC, "8/8/8/8/8/8/8/4K3 b - - 0 1", CHESS_RESULT_WHITE_WINS, CHESS_TERMINATION_VARIANT_LOSS, 0},
        /* Chess rules still hold: fool's mate. */
        {CHESS_VARIANT_CRAZYHOUSE, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR[] w KQkq - 1 3",
         CHESS_RESULT_BLACK_WINS, CHESS_TERMINATION_CHECKMATE, 1},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        chess_variant_position *pos = new_position(cases[i].variant, cases[i].fen);
        chess_outcome outcome = chess_variant_position_outcome(pos);
        CHECK(outcome.result == cases[i].result && outcome.termination == cases[i].termination);
        CHECK(chess_variant_position_legal_moves(pos, NULL, 0) == 0);
        CHECK(chess_variant_position_is_variant_end(pos) == (cases[i].termination >= CHESS_TERMINATION_VARIANT_WIN));
        CHECK(chess_variant_position_is_checkmate(pos) == cases[i].checkmate);
        CHECK(!chess_variant_position_is_stalemate(pos));
        chess_variant_position_free(pos);
    }
    {
        /* Three-check: the mover's third check is written with '#'. */
        chess_variant_position *pos =
            new_position(CHESS_VARIANT_THREE_CHECK, "r1bq1bnr/pppp1k1p/2n3p1/4p2Q/4P3/8/PPPP1PPP/RNB1K1NR w KQ - 1+3 0 5");
        chess_move mv;
        char buf[CHESS_SAN_MAX];
        CHECK_ERR(chess_variant_position_parse_san(pos, "Qxg6", &mv), CHESS_OK);
        CHECK_ERR(chess_variant_position_san(pos, mv, buf, sizeof buf, NULL), CHESS_OK);
        CHECK(strcmp(buf, "Qxg6#") == 0);
        CHECK_ERR(chess_variant_position_play(pos, mv), CHESS_OK);
        CHECK(chess_variant_position_is_check(pos) && chess_variant_position_is_checkmate(pos));
        CHECK(chess_variant_position_remaining_checks(pos, CHESS_WHITE) == 0);
        chess_variant_position_free(pos);
    }
    {
        /* Antichess: a pawn promotes to a king. */
        chess_variant_position *pos = new_position(CHESS_VARIANT_ANTICHESS, "8/4P3/8/8/8/8/8/k7 w - - 0 1");
        chess_move mv;
        char buf[CHESS_SAN_MAX];
        CHECK_ERR(chess_variant_position_parse_uci(pos, "e7e8k", &mv), CHESS_OK);
        CHECK(mv == (chess_move)(0x8000 | 5 << 12 | E8 << 6 | E7));
        CHECK_ERR(chess_variant_position_san(pos, mv, buf, sizeof buf, NULL), CHESS_OK);
        CHECK(strcmp(buf, "e8=K") == 0);
        CHECK(!chess_position_is_legal(NULL, mv));
        CHECK_ERR(chess_variant_position_play(pos, mv), CHESS_OK);
        CHECK(chess_variant_position_piece_at(pos, E8) == CHESS_WHITE_KING);
        CHECK(!chess_variant_position_has_insufficient_material(pos, CHESS_WHITE));
        CHECK(!chess_variant_position_has_insufficient_material(pos, CHESS_BLACK));
        chess_variant_position_free(pos);
    }
    {
        /* Atomic: a lone king cannot win; horde: the side with pieces can. */
        chess_variant_position *pos = new_position(CHESS_VARIANT_ATOMIC, "4k3/8/8/8/8/8/8/4K2Q w - - 0 1");
        CHECK(chess_variant_position_has_insufficient_material(pos, CHESS_BLACK));
        CHECK(!chess_variant_position_has_insufficient_material(pos, CHESS_WHITE));
        CHECK(!chess_variant_position_has_insufficient_material(pos, 2));
        chess_variant_position_free(pos);
    }
}

static void test_setup(void) {
    chess_variant_position *pos = new_position(CHESS_VARIANT_CHESS960, "bqnb1rkr/pppp1ppp/8/4p3/8/8/PPPPPPPP/BQNBNRKR w HFhf e6 0 2");
    chess_variant_position *horde = new_position(CHESS_VARIANT_HORDE, NULL);
    chess_setup s;
    CHECK_ERR(chess_variant_position_setup(pos, &s), CHESS_OK);
    CHECK(s.chess960 == 1 && s.turn == CHESS_WHITE && s.halfmove_clock == 0 && s.fullmove_number == 2);
    CHECK(s.castling_rooks == ((uint64_t)1 << 5 | (uint64_t)1 << 7 | (uint64_t)1 << 61 | (uint64_t)1 << 63));
    CHECK(s.en_passant == 44 && s.board[0] == CHESS_WHITE_BISHOP && s.board[62] == CHESS_BLACK_KING);
    CHECK_ERR(chess_variant_position_setup(horde, &s), CHESS_OK);
    CHECK(s.chess960 == 0 && s.board[E1] == CHESS_WHITE_PAWN && s.castling_rooks == ((uint64_t)1 << 56 | (uint64_t)1 << 63));
    CHECK_ERR(chess_variant_position_setup(NULL, &s), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_setup(pos, NULL), CHESS_ERR_NULL_POINTER);
    chess_variant_position_free(horde);
    chess_variant_position_free(pos);
}

static void test_buffers_and_nulls(void) {
    chess_variant_position *pos = new_position(CHESS_VARIANT_CRAZYHOUSE, NULL);
    const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    char small[8] = "xxxxxxx";
    char buf[CHESS_SAN_MAX];
    size_t len = 0;
    chess_move mv = 77;
    chess_variant_position *out = NULL;
    /* Too small: untouched, with the length needed. */
    CHECK_ERR(chess_variant_position_fen(pos, small, sizeof small, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == strlen(start) && strcmp(small, "xxxxxxx") == 0);
    CHECK_ERR(chess_variant_position_fen(pos, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_variant_position_fen(pos, NULL, 5, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_parse_uci(pos, "e2e4", &mv), CHESS_OK);
    CHECK_ERR(chess_variant_position_san(pos, mv, small, 2, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 2);
    CHECK_ERR(chess_variant_position_uci(pos, mv, small, 4, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 4);
    /* Moves that are no encoding, or not legal here. */
    CHECK_ERR(chess_variant_position_san(pos, 0x8000 | E3, buf, sizeof buf, NULL), CHESS_ERR_INVALID_MOVE);
    CHECK_ERR(chess_variant_position_uci(pos, drop_of(5, E3), buf, sizeof buf, NULL), CHESS_ERR_INVALID_MOVE);
    CHECK_ERR(chess_variant_position_san(pos, drop_of(0, E3), buf, sizeof buf, NULL), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_variant_position_play(pos, drop_of(0, E3)), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_variant_position_play(pos, CHESS_MOVE_NONE), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_variant_position_play(pos, (chess_move)(E4 << 6 | E4)), CHESS_ERR_INVALID_MOVE);
    CHECK_ERR(chess_variant_position_parse_uci(pos, "0000", &mv), CHESS_OK);
    CHECK(mv == CHESS_MOVE_NONE);
    CHECK_ERR(chess_variant_position_parse_san(pos, "e5", &mv), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_variant_position_parse_san(pos, "e4\xc3\xa9", &mv), CHESS_ERR_INVALID_TEXT);
    CHECK(strcmp(fen_of(pos), start) == 0);
    /* Invalid variant values. */
    CHECK_ERR(chess_variant_position_new(9, NULL, &out), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_variant_position_new(255, start, &out), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(out == NULL);
    /* NULL arguments. */
    CHECK_ERR(chess_variant_position_new(CHESS_VARIANT_ATOMIC, NULL, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_fen(NULL, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_play(NULL, mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_san(NULL, mv, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_uci(NULL, mv, buf, sizeof buf, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_parse_san(NULL, "e4", &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_parse_san(pos, NULL, &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_parse_san(pos, "e4", NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_parse_uci(NULL, "e2e4", &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_parse_uci(pos, NULL, &mv), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_parse_uci(pos, "e2e4", NULL), CHESS_ERR_NULL_POINTER);
    CHECK(chess_variant_position_clone(NULL) == NULL);
    chess_variant_position_copy(NULL, pos);
    chess_variant_position_copy(pos, NULL);
    chess_variant_position_free(NULL);
    CHECK(chess_variant_position_legal_moves(NULL, NULL, 0) == 0);
    CHECK(chess_variant_position_perft(NULL, 2) == 0);
    CHECK(chess_variant_position_outcome(NULL).result == CHESS_RESULT_ONGOING);
    CHECK(!chess_variant_position_is_check(NULL) && !chess_variant_position_is_checkmate(NULL));
    CHECK(!chess_variant_position_is_stalemate(NULL) && !chess_variant_position_is_variant_end(NULL));
    CHECK(!chess_variant_position_has_insufficient_material(NULL, CHESS_WHITE));
    CHECK(chess_variant_position_pocket(NULL, CHESS_WHITE, CHESS_PAWN) == 0);
    CHECK(chess_variant_position_promoted(NULL) == 0);
    CHECK(chess_variant_position_remaining_checks(NULL, CHESS_WHITE) == 0);
    CHECK(chess_variant_position_variant(NULL) == CHESS_VARIANT_CHESS);
    CHECK(chess_variant_position_turn(NULL) == CHESS_WHITE);
    CHECK(chess_variant_position_piece_at(NULL, E1) == CHESS_NO_PIECE);
    chess_variant_position_free(pos);
}

/* Random bytes as FENs (mutations of a start position and plain noise), random move values
 * played unchecked through the checked play: errors, never a crash (the sanitizers watch). */
static void test_garbage(int rounds) {
    unsigned seed = 12345;
    int round, readable = 0;
    char fen[128];
    for (round = 0; round < rounds; round++) {
        chess_variant variant = (chess_variant)(round % 10);
        chess_variant_position *pos = NULL;
        chess_error err;
        size_t len, i;
        const char *base = chess_variant_name(variant % 9);
        chess_variant_position *start = new_position(variant % 9, NULL);
        CHECK(base != NULL);
        CHECK_ERR(chess_variant_position_fen(start, fen, sizeof fen, &len), CHESS_OK);
        chess_variant_position_free(start);
        for (i = 0; i < 1 + (size_t)(round % 4); i++) {
            seed = seed * 1103515245u + 12345u;
            if (round % 3) {
                fen[(seed >> 8) % len] = " /[]~+0123456789KQRBNPkqrbnp-w@"[(seed >> 16) % 31];
            } else {
                fen[(seed >> 8) % len] = (char)((seed >> 16) & 0xff);
            }
        }
        err = chess_variant_position_new(variant, fen, &pos);
        CHECK((err == CHESS_OK) == (pos != NULL));
        if (pos != NULL) {
            chess_move moves[CHESS_MAX_VARIANT_MOVES];
            char buf[256];
            size_t n = chess_variant_position_legal_moves(pos, moves, CHESS_MAX_VARIANT_MOVES);
            readable++;
            CHECK(n <= CHESS_MAX_VARIANT_MOVES);
            CHECK_ERR(chess_variant_position_fen(pos, buf, sizeof buf, NULL), CHESS_OK);
            for (i = 0; i < 4; i++) {
                chess_move mv;
                seed = seed * 1103515245u + 12345u;
                mv = (chess_move)(seed >> 8);
                if (chess_variant_position_play(pos, mv) == CHESS_OK) {
                    CHECK(n > 0);
                }
                chess_variant_position_uci(pos, mv, buf, sizeof buf, NULL);
                chess_variant_position_san(pos, mv, buf, sizeof buf, NULL);
                if ((n = chess_variant_position_legal_moves(pos, moves, CHESS_MAX_VARIANT_MOVES)) > 0) {
                    CHECK_ERR(chess_variant_position_san(pos, moves[seed % n], buf, sizeof buf, NULL), CHESS_OK);
                    CHECK_ERR(chess_variant_position_play(pos, moves[seed % n]), CHESS_OK);
                }
            }
            chess_variant_position_outcome(pos);
            chess_variant_position_perft(pos, 1);
            chess_variant_position_free(pos);
        }
    }
    CHECK(readable > 0 && readable < rounds);
}

/* The queries beyond legal moves: pseudo-legal moves (a superset of the legal ones, crazyhouse
 * drops on every empty square), checkers, pins, irreversible moves, the move-count rules,
 * python-chess's status flags and the mirror, on known positions (figures from python-chess 1.11.2), with NULL and garbage
 * arguments, then through random games of every variant. */
static void test_queries(void) {
    chess_move moves[CHESS_MAX_VARIANT_MOVES], legal[CHESS_MAX_VARIANT_MOVES];
    chess_variant_position *pos, *mirrored = NULL, *back = NULL;
    unsigned seed = 777;
    int v, ply;
    size_t i, j, n, m;

    /* Atomic, White in check: 9 legal moves among 28 pseudo-legal ones; the knight on b1
     * checks; the queen on b6 would explode the black king. */
    pos = new_position(CHESS_VARIANT_ATOMIC, "8/8/1Q2pk2/8/8/8/3K4/1n6 w - - 0 1");
    CHECK(chess_variant_position_pseudo_legal_moves(pos, moves, CHESS_MAX_VARIANT_MOVES) == 28);
    CHECK(chess_variant_position_pseudo_legal_moves(pos, NULL, 0) == 28);
    CHECK(chess_variant_position_pseudo_legal_moves(pos, NULL, 3) == 0);
    CHECK(chess_variant_position_pseudo_legal_moves(NULL, moves, CHESS_MAX_VARIANT_MOVES) == 0);
    CHECK(chess_variant_position_checkers(pos) == 1ull << 1);
    CHECK(chess_variant_position_checkers(NULL) == 0);
    CHECK_ERR(chess_variant_position_mirror(pos, &mirrored), CHESS_OK);
    CHECK(strcmp(fen_of(mirrored), "1N6/3k4/8/8/8/1q2PK2/8/8 b - - 0 1") == 0);
    chess_variant_position_free(mirrored);
    chess_variant_position_free(pos);

    /* A pinned knight: the line is the whole e-file; none in antichess. */
    pos = new_position(CHESS_VARIANT_KING_OF_THE_HILL, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    CHECK(chess_variant_position_pin(pos, CHESS_WHITE, 12) == 0x1010101010101010ull);
    CHECK(chess_variant_position_pin(pos, CHESS_BLACK, 52) == 0);
    CHECK(chess_variant_position_pin(pos, 7, 12) == 0 && chess_variant_position_pin(pos, CHESS_WHITE, 64) == 0);
    CHECK(chess_variant_position_pin(pos, CHESS_WHITE, -1) == 0 && chess_variant_position_pin(NULL, CHESS_WHITE, 12) == 0);
    chess_variant_position_free(pos);
    pos = new_position(CHESS_VARIANT_ANTICHESS, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    CHECK(chess_variant_position_pin(pos, CHESS_WHITE, 12) == 0 && chess_variant_position_checkers(pos) == 0);
    chess_variant_position_free(pos);

    /* Crazyhouse: the pawn in the pocket drops on the 48 empty squares off the back ranks,
     * legal or not; a capture is reversible, losing a castling right is not. */
    pos = new_position(CHESS_VARIANT_CRAZYHOUSE, "r3k2r/8/8/8/8/8/8/R3K2R[P] w Qkq - 0 1");
    n = chess_variant_position_pseudo_legal_moves(pos, moves, CHESS_MAX_VARIANT_MOVES);
    for (i = 0, m = 0; i < n; i++) {
        m += (moves[i] & 0x8000) != 0;
    }
    CHECK(m == 48);
    CHECK(chess_variant_position_parse_uci(pos, "a1a8", &moves[0]) == CHESS_OK);
    CHECK(chess_variant_position_is_irreversible(pos, moves[0]));
    CHECK(chess_variant_position_parse_uci(pos, "h1f1", &moves[0]) == CHESS_OK);
    CHECK(!chess_variant_position_is_irreversible(pos, moves[0]));
    CHECK(!chess_variant_position_is_irreversible(pos, CHESS_MOVE_NONE));
    CHECK(!chess_variant_position_is_irreversible(pos, 0xffff) && !chess_variant_position_is_irreversible(NULL, moves[0]));
    CHECK(!chess_variant_position_is_fifty_moves(pos) && !chess_variant_position_can_claim_fifty_moves(pos));
    chess_variant_position_free(pos);

    /* The move-count rules: never in crazyhouse, else from 100 and 150 plies. */
    pos = new_position(CHESS_VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4K2R w - - 99 80");
    CHECK(!chess_variant_position_is_fifty_moves(pos) && chess_variant_position_can_claim_fifty_moves(pos));
    chess_variant_position_free(pos);
    pos = new_position(CHESS_VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4K2R w - - 150 80");
    CHECK(chess_variant_position_is_fifty_moves(pos) && chess_variant_position_is_seventy_five_moves(pos));
    chess_variant_position_free(pos);
    pos = new_position(CHESS_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K2R[] w - - 150 80");
    CHECK(!chess_variant_position_is_fifty_moves(pos) && !chess_variant_position_is_seventy_five_moves(pos));
    chess_variant_position_free(pos);
    CHECK(!chess_variant_position_is_fifty_moves(NULL) && !chess_variant_position_is_seventy_five_moves(NULL));
    CHECK(!chess_variant_position_can_claim_fifty_moves(NULL));

    /* python-chess's status flags: 14 checkers are valid in atomic; a finished race and a
     * pawn in racing kings are not. */
    {
        uint32_t flags = 99;
        pos = new_position(CHESS_VARIANT_ATOMIC, "3N1NB1/2N1Q1N1/3RkR2/2NP1PN1/3NKN2/8/8/n7 w - - 0 1");
        CHECK_ERR(chess_variant_position_status(pos, &flags), CHESS_OK);
        CHECK(flags == 0);
        CHECK_ERR(chess_variant_position_status(pos, NULL), CHESS_ERR_NULL_POINTER);
        CHECK_ERR(chess_variant_position_status(NULL, &flags), CHESS_ERR_NULL_POINTER);
        chess_variant_position_free(pos);
        pos = new_position(CHESS_VARIANT_RACING_KINGS, "3krQK1/8/8/8/1q6/3B1N2/1b6/1R4R1 b - - 0 1");
        CHECK_ERR(chess_variant_position_status(pos, &flags), CHESS_OK);
        CHECK(flags == 1u << 13);
        chess_variant_position_free(pos);
        pos = new_position(CHESS_VARIANT_RACING_KINGS, "8/8/8/8/8/P7/krbnNBRK/qrbnNBRQ w - - 0 1");
        CHECK_ERR(chess_variant_position_status(pos, &flags), CHESS_OK);
        CHECK(flags == 1u << 14);
        chess_variant_position_free(pos);
    }

    /* Horde's mirror has Black's pawns: no position of horde. */
    pos = new_position(CHESS_VARIANT_HORDE, NULL);
    mirrored = (chess_variant_position *)&seed;
    CHECK_ERR(chess_variant_position_mirror(pos, &mirrored), CHESS_ERR_VARIANT_KINGS);
    CHECK_ERR(chess_variant_position_mirror(NULL, &mirrored), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_variant_position_mirror(pos, NULL), CHESS_ERR_NULL_POINTER);
    chess_variant_position_free(pos);

    /* Random games: every legal move is pseudo-legal, an illegal one never irreversible, the
     * checkers are the other side's pieces, a mirror's mirror the position itself. */
    for (v = CHESS_VARIANT_ATOMIC; v <= CHESS_VARIANT_RACING_KINGS; v++) {
        pos = new_position((chess_variant)v, NULL);
        for (ply = 0; ply < 60; ply++) {
            chess_setup s;
            uint64_t theirs = 0;
            char fen[256];
            n = chess_variant_position_legal_moves(pos, legal, CHESS_MAX_VARIANT_MOVES);
            m = chess_variant_position_pseudo_legal_moves(pos, moves, CHESS_MAX_VARIANT_MOVES);
            CHECK(m >= n && m <= CHESS_MAX_VARIANT_MOVES);
            for (i = 0; i < n; i++) {
                int found = 0;
                for (j = 0; j < m; j++) {
                    found |= moves[j] == legal[i];
                }
                CHECK(found);
            }
            for (i = 0; i < 8; i++) {
                chess_move mv;
                int is_legal = 0;
                seed = seed * 1103515245u + 12345u;
                mv = (chess_move)(seed >> 8);
                for (j = 0; j < n; j++) {
                    is_legal |= legal[j] == mv;
                }
                CHECK(is_legal || !chess_variant_position_is_irreversible(pos, mv));
            }
            CHECK_ERR(chess_variant_position_setup(pos, &s), CHESS_OK);
            for (i = 0; i < 64; i++) {
                /* Pieces 1-6 are White's, 9-14 Black's. */
                if (s.board[i] != CHESS_NO_PIECE && ((s.board[i] < CHESS_BLACK_PAWN) != (s.turn == CHESS_WHITE))) {
                    theirs |= 1ull << i;
                }
                (void)chess_variant_position_pin(pos, (chess_color)(seed % 3), (chess_square)i);
            }
            CHECK((chess_variant_position_checkers(pos) & ~theirs) == 0);
            {
                uint32_t flags = 0;
                CHECK_ERR(chess_variant_position_status(pos, &flags), CHESS_OK);
                CHECK(flags == 0); /* positions of games are valid */
            }
            if (chess_variant_position_mirror(pos, &mirrored) == CHESS_OK) {
                CHECK_ERR(chess_variant_position_mirror(mirrored, &back), CHESS_OK);
                strcpy(fen, fen_of(pos));
                CHECK(strcmp(fen_of(back), fen) == 0);
                chess_variant_position_free(back);
                chess_variant_position_free(mirrored);
            } else {
                CHECK(v == CHESS_VARIANT_HORDE);
            }
            if (n == 0) {
                break;
            }
            CHECK_ERR(chess_variant_position_play(pos, legal[seed % n]), CHESS_OK);
        }
        chess_variant_position_free(pos);
    }
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 20000;
    test_names();
    test_start_perft();
    test_crazyhouse_game();
    test_fen_round_trips();
    test_refused_fens();
    test_outcomes();
    test_setup();
    test_buffers_and_nulls();
    test_queries();
    test_garbage(rounds > 0 ? rounds : 1);
    return report("c variant");
}
