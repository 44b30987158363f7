/* Editable setups through the C API: boards that are no position (two kings, no king, bad
 * castling rights, an impossible check) with their status flags, kings, checkers, attackers,
 * pins, clean castling rights and moves; playing moves as python-chess's push does; the way to
 * and from positions and FENs; NULL arguments; and garbage in every byte of the struct, which
 * must give errors or empty answers, never a crash (run under the sanitizers too).
 *
 * usage: setup [ROUNDS]   (of garbage, 20000 by default) */

#include "common.h"

#define BIT(sq) ((uint64_t)1 << (sq))

enum { A1 = 0, B1 = 1, E1 = 4, F1 = 5, G1 = 6, H1 = 7, E2 = 12, E3 = 20, E4 = 28, D5 = 35, E5 = 36, E6 = 44,
       E7 = 52, A8 = 56, E8 = 60, H8 = 63 };

static void read_setup(const char *fen, uint32_t flags, chess_setup *s) {
    CHECK_ERR(chess_setup_from_fen(fen, flags, s, NULL), CHESS_OK);
}

static uint32_t status_of(const chess_setup *s) {
    uint32_t status = 0xdeadbeef;
    CHECK_ERR(chess_setup_status(s, &status), CHESS_OK);
    return status;
}

/* The setup's FEN, the en passant square as recorded. */
static const char *fen_of(const chess_setup *s) {
    static char buf[CHESS_FEN_MAX];
    CHECK_ERR(chess_setup_to_fen(s, CHESS_FEN_WRITE_EP_AS_RECORDED, buf, sizeof buf, NULL), CHESS_OK);
    return buf;
}

/* Whether `moves` (n of them) hold `mv`. */
static int holds(const chess_move *moves, size_t n, chess_move mv) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (moves[i] == mv) {
            return 1;
        }
    }
    return 0;
}

static chess_move move_of(int from, int to, int kind) {
    return (chess_move)(from | to << 6 | kind << 12);
}

static void test_status(void) {
    chess_setup s;
    chess_position pos;
    chess_fen_info info = {sizeof info, 0, 0, 0};
    memset(&s, 0, sizeof s);
    s.en_passant = CHESS_NO_SQUARE;
    s.fullmove_number = 1;
    CHECK(status_of(&s) == (CHESS_SETUP_STATUS_EMPTY | CHESS_SETUP_STATUS_NO_WHITE_KING | CHESS_SETUP_STATUS_NO_BLACK_KING));
    CHECK(chess_setup_king(&s, CHESS_WHITE) == CHESS_NO_SQUARE);
    CHECK(chess_setup_moves(&s, CHESS_SETUP_LEGAL, NULL, 0) == 0);

    /* Two black kings: the higher one is "the" king, as in python-chess. */
    read_setup("k6k/8/8/8/8/8/8/4K3 w - - 0 1", 0, &s);
    CHECK(status_of(&s) == CHESS_SETUP_STATUS_TOO_MANY_KINGS);
    CHECK(chess_setup_king(&s, CHESS_BLACK) == H8);
    CHECK(chess_setup_moves(&s, CHESS_SETUP_LEGAL, NULL, 0) == 5);
    CHECK_ERR(chess_setup_to_position(&s, 0, &pos, &info), CHESS_ERR_FEN_TOO_MANY_KINGS);

    /* A right without its rook, and an en passant square no push made. */
    read_setup("4k3/8/8/8/8/8/8/4K3 w K e6 0 1", 0, &s);
    CHECK(s.castling_rooks == BIT(H1) && s.en_passant == E6);
    CHECK(status_of(&s) == (CHESS_SETUP_STATUS_BAD_CASTLING_RIGHTS | CHESS_SETUP_STATUS_INVALID_EP_SQUARE));
    CHECK(chess_setup_clean_castling_rooks(&s) == 0);
    CHECK(chess_setup_valid_en_passant(&s) == CHESS_NO_SQUARE);
    CHECK_ERR(chess_setup_to_position(&s, 0, &pos, &info), CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
    CHECK(info.error_offset == strlen("4k3/8/8/8/8/8/8/4K3 w "));

    /* Three checkers; the side not to move in check. */
    read_setup("4k3/8/8/8/1b6/3n4/8/R3K2q w - - 0 1", 0, &s);
    CHECK(chess_setup_checkers(&s) == (BIT(19) | BIT(25) | BIT(7)));
    CHECK(status_of(&s) & CHESS_SETUP_STATUS_TOO_MANY_CHECKERS);
    CHECK(status_of(&s) & CHESS_SETUP_STATUS_IMPOSSIBLE_CHECK);
    s.turn = CHESS_BLACK;
    CHECK(status_of(&s) == CHESS_SETUP_STATUS_OPPOSITE_CHECK);

    /* Attacks, attackers and a pin. */
    read_setup("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", 0, &s);
    CHECK(chess_setup_pin(&s, CHESS_WHITE, E2) == 0x1010101010101010ULL);
    CHECK(chess_setup_pin(&s, CHESS_BLACK, E7) == UINT64_MAX);
    CHECK(chess_setup_attackers(&s, E2, CHESS_BLACK) == BIT(E7));
    CHECK(chess_setup_attacks(&s, E7) == (0x0000101010101000ULL | BIT(E8) | 0x00ef000000000000ULL));
    CHECK(chess_setup_attacks(&s, D5) == 0);
    CHECK(status_of(&s) == 0);
    CHECK_ERR(chess_setup_to_position(&s, 0, &pos, NULL), CHESS_OK);
    CHECK(chess_legal_moves(&pos, NULL, 0) == chess_setup_moves(&s, CHESS_SETUP_LEGAL, NULL, 0));
}

/* Field by field: the struct's padding holds nothing a library call must keep. */
static int same_setup(const chess_setup *a, const chess_setup *b) {
    return memcmp(a->board, b->board, sizeof a->board) == 0 && a->castling_rooks == b->castling_rooks &&
           a->halfmove_clock == b->halfmove_clock && a->fullmove_number == b->fullmove_number && a->turn == b->turn &&
           a->en_passant == b->en_passant && a->chess960 == b->chess960;
}

static void test_moves_and_play(void) {
    chess_setup s, copy;
    chess_move moves[CHESS_MAX_MOVES];
    size_t n;

    read_setup("4k3/8/8/8/8/8/4P3/4K2R w K - 0 1", 0, &s);
    n = chess_setup_moves(&s, CHESS_SETUP_LEGAL, moves, CHESS_MAX_MOVES);
    CHECK(holds(moves, n, move_of(E1, H1, CHESS_MOVE_CASTLING)));
    CHECK(holds(moves, n, move_of(E2, E4, CHESS_MOVE_DOUBLE_PUSH)));
    /* e1g1 castles, as python-chess reads it. */
    copy = s;
    CHECK_ERR(chess_setup_play(&copy, move_of(E1, G1, CHESS_MOVE_NORMAL)), CHESS_OK);
    CHECK(strcmp(fen_of(&copy), "4k3/8/8/8/8/8/4P3/5RK1 b - - 1 1") == 0);
    CHECK_ERR(chess_setup_play(&s, move_of(E2, E4, CHESS_MOVE_DOUBLE_PUSH)), CHESS_OK);
    CHECK(s.en_passant == E3 && s.turn == CHESS_BLACK && s.halfmove_clock == 0);
    CHECK_ERR(chess_setup_play(&s, CHESS_MOVE_NONE), CHESS_OK);
    CHECK(s.en_passant == CHESS_NO_SQUARE && s.turn == CHESS_WHITE && s.fullmove_number == 2);
    copy = s;
    CHECK_ERR(chess_setup_play(&s, move_of(D5, E6, CHESS_MOVE_NORMAL)), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_ERR(chess_setup_play(&s, 0x0041), CHESS_ERR_INVALID_MOVE);
    CHECK(same_setup(&s, &copy));

    /* A board of many queens has more moves than CHESS_MAX_MOVES (274, as python-chess counts). */
    read_setup("Q4QQQ/n1QQQ2Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQQ w - - 0 1", 0, &s);
    n = chess_setup_moves(&s, CHESS_SETUP_PSEUDO_LEGAL, moves, CHESS_MAX_MOVES);
    CHECK(n == 274);
    CHECK(chess_setup_moves(&s, CHESS_SETUP_LEGAL, NULL, 0) == n);
    CHECK(chess_setup_moves(&s, 3, moves, CHESS_MAX_MOVES) == 0);
    CHECK(chess_setup_moves(&s, CHESS_SETUP_LEGAL, NULL, 5) == 0);
}

static void test_conversions(void) {
    chess_setup s;
    chess_position pos;
    char buf[CHESS_FEN_MAX];
    size_t len = 0;
    chess_fen_info info = {sizeof info, 0, 0, 0};

    chess_position_init(&pos);
    CHECK_ERR(chess_setup_from_position(&pos, &s), CHESS_OK);
    CHECK(s.board[E1] == CHESS_WHITE_KING && s.board[A8] == CHESS_BLACK_ROOK && s.chess960 == 0);
    CHECK(s.castling_rooks == (BIT(A1) | BIT(H1) | BIT(A8) | BIT(H8)));
    CHECK_ERR(chess_setup_to_fen(&s, CHESS_FEN_WRITE_SHREDDER, buf, sizeof buf, &len), CHESS_OK);
    CHECK(strcmp(buf, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1") == 0 && len == strlen(buf));
    CHECK_ERR(chess_setup_to_fen(&s, 0, buf, 10, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_setup_to_fen(&s, CHESS_FEN_WRITE_XFEN | CHESS_FEN_WRITE_SHREDDER, buf, sizeof buf, NULL),
              CHESS_ERR_INVALID_ARGUMENT);

    /* Chess960: the flag marks the setup, the position follows it. */
    read_setup("bqnb1rkr/pppppppp/8/8/8/8/PPPPPPPP/BQNB1RKR w HFhf - 0 1", CHESS_FEN_CHESS960, &s);
    CHECK(s.chess960 == 1 && status_of(&s) == 0);
    CHECK(chess_setup_clean_castling_rooks(&s) == s.castling_rooks);
    CHECK_ERR(chess_setup_to_position(&s, 0, &pos, NULL), CHESS_OK);
    CHECK(chess_position_is_chess960(&pos));
    s.chess960 = 0;
    CHECK(status_of(&s) == CHESS_SETUP_STATUS_BAD_CASTLING_RIGHTS);

    CHECK_ERR(chess_setup_from_fen("8/8/8 w - - 0 1", 0, &s, &info), CHESS_ERR_FEN_RANK_COUNT);
    CHECK_ERR(chess_setup_from_fen("8/8/8/8/8/8/8/8 w - - 0 1", 2, &s, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_setup_from_fen("8/8/8/8/8/8/8/8 w - - 0 1", 0, &s, NULL), CHESS_OK);
    CHECK_ERR(chess_setup_to_position(&s, 64, &pos, NULL), CHESS_ERR_INVALID_ARGUMENT);
}

static void test_null_arguments(void) {
    chess_setup s;
    chess_position pos;
    uint32_t status;
    read_setup("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, &s);
    CHECK_ERR(chess_setup_from_position(NULL, &s), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_setup_from_position(&pos, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_setup_from_fen(NULL, 0, &s, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_setup_from_fen("8/8/8/8/8/8/8/8 w - -", 0, NULL, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_setup_to_position(NULL, 0, &pos, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_setup_to_position(&s, 0, NULL, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_setup_to_fen(NULL, 0, NULL, 0, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_setup_status(NULL, &status), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_setup_status(&s, NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_setup_play(NULL, CHESS_MOVE_NONE), CHESS_ERR_NULL_POINTER);
    CHECK(chess_setup_moves(NULL, CHESS_SETUP_LEGAL, NULL, 0) == 0);
    CHECK(chess_setup_attackers(NULL, E1, CHESS_WHITE) == 0);
    CHECK(chess_setup_attacks(NULL, E1) == 0);
    CHECK(chess_setup_checkers(NULL) == 0);
    CHECK(chess_setup_pin(NULL, CHESS_WHITE, E1) == UINT64_MAX);
    CHECK(chess_setup_king(NULL, CHESS_WHITE) == CHESS_NO_SQUARE);
    CHECK(chess_setup_clean_castling_rooks(NULL) == 0);
    CHECK(chess_setup_valid_en_passant(NULL) == CHESS_NO_SQUARE);
    /* Arguments out of range. */
    CHECK(chess_setup_attackers(&s, 64, CHESS_WHITE) == 0);
    CHECK(chess_setup_attackers(&s, E2, 2) == 0);
    CHECK(chess_setup_attacks(&s, -2) == 0);
    CHECK(chess_setup_pin(&s, 7, E1) == UINT64_MAX);
    CHECK(chess_setup_king(&s, 9) == CHESS_NO_SQUARE);
}

/* Random bytes over the struct: every call answers, and a struct with a field out of range is
 * refused whole. */
static void test_garbage(int rounds) {
    unsigned state = 12345;
    int round, readable = 0;
    for (round = 0; round < rounds; round++) {
        chess_setup s;
        unsigned char *bytes = (unsigned char *)&s;
        chess_move moves[CHESS_MAX_MOVES];
        char buf[CHESS_FEN_MAX + 64];
        chess_position pos;
        uint32_t status;
        size_t i, count = round % 4 == 0 ? sizeof s : (size_t)(1 + round % 7);
        read_setup("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", 0, &s);
        for (i = 0; i < count; i++) {
            state = state * 1103515245u + 12345u;
            bytes[(state >> 8) % sizeof s] = (unsigned char)(state >> 16);
        }
        if (chess_setup_status(&s, &status) == CHESS_OK) {
            readable++;
        } else {
            CHECK_ERR(chess_setup_status(&s, &status), CHESS_ERR_INVALID_ARGUMENT);
            CHECK(chess_setup_moves(&s, CHESS_SETUP_LEGAL, moves, CHESS_MAX_MOVES) == 0);
            CHECK_ERR(chess_setup_to_fen(&s, 0, buf, sizeof buf, NULL), CHESS_ERR_INVALID_ARGUMENT);
            CHECK_ERR(chess_setup_play(&s, CHESS_MOVE_NONE), CHESS_ERR_INVALID_ARGUMENT);
        }
        chess_setup_moves(&s, CHESS_SETUP_PSEUDO_LEGAL, moves, CHESS_MAX_MOVES);
        chess_setup_to_fen(&s, CHESS_FEN_WRITE_SHREDDER, buf, sizeof buf, NULL);
        chess_setup_to_position(&s, 0, &pos, NULL);
        chess_setup_checkers(&s);
        chess_setup_pin(&s, CHESS_BLACK, E8);
        chess_setup_attackers(&s, E4, CHESS_WHITE);
        chess_setup_attacks(&s, E5);
        chess_setup_king(&s, CHESS_WHITE);
        chess_setup_clean_castling_rooks(&s);
        chess_setup_valid_en_passant(&s);
        if (chess_setup_moves(&s, CHESS_SETUP_LEGAL, moves, CHESS_MAX_MOVES) > 0) {
            chess_setup_play(&s, moves[0]);
        }
    }
    CHECK(readable > 0 && readable < rounds);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 20000;
    test_status();
    test_moves_and_play();
    test_conversions();
    test_null_arguments();
    test_garbage(rounds > 0 ? rounds : 1);
    return report("c setup");
}
