// The C++17 wrapper, include/chesscore.hpp: positions as values (copies, arrays, vectors, C
// interop), RAII and copy/move semantics of the handles, text in (std::string_view) and out,
// moves, errors with their codes and offsets, games, EPD records, PGN (reader from a file, a
// string and a stream, broken games as PgnError, tags, export, reader options), the move tree
// (every Node accessor on a known game, range-for over children and the main line, and a walk of
// every game of pgn/*.pgn counted against the C node functions), Polyglot books (lookups, picks,
// errors, building, merging), variant positions, and perft of perft/cpw6.epd and
// perft/dev_random.epd through the wrapper's own recursions (legal_move_list with play_into over
// a std::array stack, and with copies by value and play_unchecked), at every depth up to
// NODE_LIMIT leaves.
//
// usage: cxx_wrapper TESTDATA_DIR WORK_DIR NODE_LIMIT

#include <chesscore.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unordered_set>
#include <vector>

namespace {

int checks = 0;
int failures = 0;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        checks++;                                                                     \
        if (!(cond)) {                                                                \
            failures++;                                                               \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                             \
    } while (0)

// Runs `call`, which must throw chesscore::Error with `expected` as its code; returns the error.
template <class Call>
std::optional<chesscore::Error> throws(Call &&call, chess_error expected, int line, const char *text) {
    checks++;
    try {
        call();
    } catch (const chesscore::Error &err) {
        if (err.code() != expected) {
            failures++;
            std::fprintf(stderr, "%s:%d: %s threw %d (%s)\n", __FILE__, line, text, static_cast<int>(err.code()),
                         err.what());
        }
        return err;
    }
    failures++;
    std::fprintf(stderr, "%s:%d: %s did not throw\n", __FILE__, line, text);
    return std::nullopt;
}

#define CHECK_THROWS(expr, expected) throws([&] { (void)(expr); }, expected, __LINE__, #expr)

using chesscore::Epd;
using chesscore::Error;
using chesscore::PgnError;
using chesscore::PgnReader;
using chesscore::Game;
using chesscore::Move;
using chesscore::MoveList;
using chesscore::Node;
using chesscore::NodeRange;
using chesscore::PgnOptions;
using chesscore::Position;

const char *const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const char *const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

static_assert(std::is_trivially_copyable<Position>::value, "Position copies as plain bytes");
static_assert(std::is_nothrow_copy_constructible<Position>::value && std::is_nothrow_copy_assignable<Position>::value,
              "Position copies without throwing");
static_assert(std::is_nothrow_default_constructible<Position>::value, "Position() is the start, without throwing");
static_assert(sizeof(Position) == sizeof(chess_position) && alignof(Position) == alignof(chess_position),
              "Position is a chess_position");
static_assert(std::is_copy_constructible<Game>::value, "Game copies");
static_assert(!std::is_copy_constructible<Epd>::value, "Epd is move-only");
static_assert(!std::is_copy_constructible<PgnReader>::value, "PgnReader is move-only");
static_assert(std::is_nothrow_move_constructible<PgnReader>::value, "PgnReader moves without throwing");
static_assert(std::is_base_of<Error, PgnError>::value, "PgnError is an Error");
static_assert(std::is_base_of<std::runtime_error, Error>::value, "Error is a runtime_error");
static_assert(sizeof(Move) == sizeof(chess_move), "Move is the 16-bit move");
static_assert(std::is_trivially_copyable<Node>::value, "Node is a small value");
static_assert(std::is_same<std::iterator_traits<NodeRange::iterator>::iterator_category,
                           std::forward_iterator_tag>::value,
              "NodeRange is a forward range");

void positions() {
    Position start;
    CHECK(start.fen() == START);
    CHECK(start.zobrist() == 0x463b96181691fc9cULL);
    CHECK(start.turn() == CHESS_WHITE);
    CHECK(start.castling_rights() == 15);
    CHECK(start.en_passant() == CHESS_NO_SQUARE);
    CHECK(start.halfmove_clock() == 0 && start.fullmove_number() == 1);
    CHECK(start.piece_at(chesscore::parse_square("e1")) == CHESS_WHITE_KING);
    CHECK(start.piece_at(chesscore::parse_square("e4")) == CHESS_NO_PIECE);
    CHECK(start.pieces(CHESS_WHITE, CHESS_PAWN) == 0xff00ULL);
    CHECK(start.occupancy() == 0xffff00000000ffffULL);
    CHECK(start.occupancy(CHESS_BLACK) == 0xffff000000000000ULL);
    CHECK(start.king_square(CHESS_BLACK) == 60);
    CHECK(start.attackers_to(chesscore::parse_square("f3"), CHESS_WHITE) == ((1ULL << 6) | (1ULL << 12) | (1ULL << 14)));
    CHECK(start.checkers() == 0 && start.pinned() == 0);
    CHECK(!start.in_check() && !start.is_checkmate() && !start.is_stalemate());
    CHECK(!start.is_insufficient_material() && !start.is_fifty_moves() && !start.can_claim_fifty_moves());
    CHECK(!start.is_seventy_five_moves() && !start.is_chess960() && start.chess960_number() == 518);
    CHECK(start.to_text() == "rnbqkbnr\npppppppp\n        \n        \n        \n        \nPPPPPPPP\nRNBQKBNR");
    CHECK(start.to_text(CHESS_TEXT_BOARD) == start.to_text());
    CHECK(start.to_text(CHESS_TEXT_ASCII).find("8 r n b q k b n r") != std::string::npos);
    CHECK(start.to_text(CHESS_TEXT_UNICODE).find("\xe2\x99\x9c") != std::string::npos);  // a black rook
    CHECK_THROWS(start.to_text(3), CHESS_ERR_INVALID_ARGUMENT);
    {
        // Board pictures: the defaults, then options whose size the wrapper sets.
        std::string svg = start.to_svg();
        CHECK(svg.rfind("<svg ", 0) == 0 && svg.size() > 1000 && svg.find("width=\"400\"") != std::string::npos);
        CHECK(svg.find("chess:square=\"e1\" chess:piece=\"K\"") != std::string::npos);
        chess_svg_arrow arrow = {12, 28, chesscore::svg_color("red")};
        chess_svg_options options{};
        options.flags = CHESS_SVG_FLIPPED | CHESS_SVG_NO_COORDINATES;
        options.pixels = 240;
        options.arrows = &arrow;
        options.arrow_count = 1;
        std::string marked = start.to_svg(options);
        CHECK(marked != svg && marked.find("width=\"240\"") != std::string::npos);
        CHECK(marked.find("<polygon") != std::string::npos && marked.find("<text") == std::string::npos);
        CHECK(chesscore::svg_color("#f80") == 0xff8800ffu);
        CHECK_THROWS(chesscore::svg_color("purple"), CHESS_ERR_INVALID_ARGUMENT);
        options.flags = 8;
        CHECK_THROWS(start.to_svg(options), CHESS_ERR_INVALID_ARGUMENT);
    }
    CHECK(start.perft(3) == 8902);
    CHECK(start.legal_move_count() == 20);

    std::vector<Move> moves = start.legal_moves();
    MoveList list = start.legal_move_list();
    CHECK(moves.size() == 20 && list.size() == 20 && !list.empty());
    std::size_t i = 0;
    for (Move mv : list) {
        CHECK(mv == moves[i] && list[i] == mv && start.is_legal(mv));
        i++;
    }
    CHECK(i == 20 && list.end() - list.begin() == 20 && *(list.begin() + 3) == moves[3]);
    CHECK(list.contains(start.parse_uci("g1f3")) && !list.contains(Move()));
    CHECK(start.pseudo_legal_moves().size() == 20);
    CHECK(start.legal_moves_from(chesscore::parse_square("g1")).size() == 2);

    Move e4 = start.parse_uci("e2e4");
    CHECK(e4.uci() == "e2e4" && start.uci(e4) == "e2e4" && start.san(e4) == "e4");
    CHECK(e4.from() == 12 && e4.to() == 28 && e4.kind() == CHESS_MOVE_DOUBLE_PUSH);
    CHECK(e4.promotion() == CHESS_NO_KIND && !e4.is_none() && Move().is_none());
    CHECK(start.parse_san("Nf3") == start.parse_uci("g1f3"));
    CHECK(start.parse_san("Ng1f3") == start.parse_uci("g1f3"));
    CHECK_THROWS(start.parse_san("Ng1f3", CHESS_SAN_STRICT), CHESS_ERR_SAN_NOT_CANONICAL);
    CHECK_THROWS(start.parse_san("Nf4"), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_THROWS(start.parse_san("xyz"), CHESS_ERR_SAN_SYNTAX);
    CHECK_THROWS(start.parse_uci("e2e5"), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_THROWS(start.parse_uci("e2"), CHESS_ERR_UCI_SYNTAX);
    CHECK(start.parse_san("--", CHESS_SAN_ALLOW_NULL).is_none());

    std::unordered_set<Move> unique(moves.begin(), moves.end());
    CHECK(unique.size() == 20);

    Position after = start.after(e4);
    CHECK(after.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    CHECK(after.fen(CHESS_FEN_WRITE_EP_AS_RECORDED) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    CHECK_THROWS(after.fen(CHESS_FEN_WRITE_EP_AS_RECORDED | CHESS_FEN_WRITE_EP_PSEUDO_LEGAL),
                 CHESS_ERR_INVALID_ARGUMENT);
    CHECK(after.en_passant(CHESS_EP_AS_RECORDED) == chesscore::parse_square("e3"));
    CHECK(start.fen() == START);

    Position pos;
    CHECK(pos.play_san("e4") == e4);
    pos.play_uci("c7c5");
    pos.play(pos.parse_uci("g1f3"));
    CHECK(pos.fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    std::string before = pos.fen();
    CHECK_THROWS(pos.play(e4), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_THROWS(pos.play(Move(0xffff)), CHESS_ERR_INVALID_MOVE);
    CHECK(pos.fen() == before);
    pos.play_null();
    CHECK(pos.turn() == CHESS_WHITE);
    Position unchecked;
    unchecked.play_unchecked(e4);
    CHECK(unchecked == after && !(unchecked != after) && unchecked != start);

    Position check = Position::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    CHECK(check.in_check());
    CHECK_THROWS(check.play_null(), CHESS_ERR_ILLEGAL_MOVE);

    auto divide = Position::from_fen(KIWIPETE).perft_divide(2);
    std::uint64_t sum = 0;
    for (const auto &entry : divide) {
        sum += entry.second;
    }
    CHECK(divide.size() == 48 && sum == 2039);

    CHECK(Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").is_stalemate());
    CHECK(Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").is_checkmate());
    CHECK(Position::from_fen("8/8/4k3/8/8/3BK3/8/8 w - - 0 1").is_insufficient_material());
    CHECK(Position::from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 100 80").is_fifty_moves());
    CHECK(Position::from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 150 80").is_seventy_five_moves());
}

void errors() {
    auto err = CHECK_THROWS(Position::from_fen("8/8/8/8/8/8/8/8 x - - 0 1"), CHESS_ERR_FEN_SIDE_TO_MOVE);
    CHECK(err && err->offset() == std::optional<std::size_t>(16) && !err->token());
    CHECK(err && std::string(err->message()) == chess_error_message(CHESS_ERR_FEN_SIDE_TO_MOVE));
    CHECK(err && std::string(err->what()).find("(at byte 16)") != std::string::npos);
    CHECK_THROWS(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"),
                 CHESS_ERR_FEN_RANK_WIDTH);
    CHECK_THROWS(Position::from_fen("4k3/8/8/8/8/8/8/8 w - - 0 1"), CHESS_ERR_FEN_MISSING_KING);
    CHECK_THROWS(Position::from_fen(""), CHESS_ERR_FEN_EMPTY);
    err = CHECK_THROWS(Position::from_fen(std::string(START) + std::string(1, '\0')), CHESS_ERR_INVALID_TEXT);
    CHECK(err && !err->offset());
    CHECK_THROWS(Position().parse_san(std::string_view("e4\0", 3)), CHESS_ERR_INVALID_TEXT);
    // A view need not end in a NUL: the wrapper copies it, so the text after it is not read.
    const std::string padded = std::string(KIWIPETE) + " trailing words";
    CHECK(Position::from_fen(std::string_view(padded).substr(0, std::strlen(KIWIPETE))).fen() == KIWIPETE);
    CHECK(Position().parse_uci(std::string_view("e2e4e5", 4)) == Position().parse_san("e4"));
    // Longer than the wrapper's stack buffer: copied to the heap, read in full.
    CHECK_THROWS(Position::from_fen(std::string(300, ' ') + START), CHESS_ERR_FEN_TOO_LONG);
    CHECK_THROWS(Position::chess960(960), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_THROWS(chesscore::parse_square("i9"), CHESS_ERR_INVALID_SQUARE);
    CHECK_THROWS(chesscore::square_name(64), CHESS_ERR_INVALID_SQUARE);
    CHECK_THROWS(Move(0xffff).uci(), CHESS_ERR_INVALID_MOVE);
    CHECK_THROWS(Position().san(Move(0xffff)), CHESS_ERR_INVALID_MOVE);
    try {
        Position::from_fen("not a fen");
        CHECK(false);
    } catch (const std::exception &e) {  // catchable as a standard exception
        CHECK(std::strlen(e.what()) > 0);
    }
}

// Positions are values: copies are independent, C code shares them through get() and the
// Position(const chess_position &) constructor.
void values() {
    Position a = Position::from_fen(KIWIPETE);
    Position b = a;
    CHECK(b.get() != a.get() && b == a);
    b.play_uci("e1g1");
    CHECK(a.fen() == KIWIPETE && b.fen() != KIWIPETE);
    b = a;
    CHECK(b == a && b.fen() == KIWIPETE);
    Position &same = b;
    b = same;  // self-assignment
    CHECK(b == a);
    Position moved = std::move(b);  // a copy, too: b keeps its position
    CHECK(moved == a && b == a);

    // C interop: the held chess_position goes to C functions, and C's comes in by copy.
    chess_position raw;
    CHECK(chess_fen_parse_into(KIWIPETE, &raw) == CHESS_OK);
    Position from_c(raw);
    CHECK(from_c == a);
    chess_position_play_unchecked(from_c.get(), from_c.parse_uci("e1g1").raw());
    CHECK(from_c.fen() != KIWIPETE && Position(raw).fen() == KIWIPETE);
    chess_position out = *a.get();
    CHECK(chess_position_zobrist(&out) == a.zobrist());

    // Copy-make, into another position or in place.
    Position next;
    Move castle = a.parse_uci("e1g1");
    a.play_into(castle, next);
    CHECK(next == a.after(castle) && a.fen() == KIWIPETE);
    next.play_into(next.parse_uci("e8g8"), next);
    CHECK(next.fen() == "r4rk1/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 w - - 2 2");

    // Arrays and vectors of positions.
    std::array<Position, 3> line;
    CHECK(line[0] == Position() && line[2] == Position());
    line[1] = line[0].after(line[0].parse_san("e4"));
    line[2] = line[1].after(line[1].parse_san("e5"));
    CHECK(line[0].fen() == START && line[2].fullmove_number() == 2);
    std::array<Position, 3> copied = line;
    copied[2].play_san("Nf3");
    CHECK(line[2].fullmove_number() == 2 && copied[2].fullmove_number() == 2 && copied[2] != line[2]);
    std::vector<Position> many(3);
    many.push_back(a);
    many.insert(many.begin(), line.begin(), line.end());
    many.erase(many.begin());
    CHECK(many.size() == 6 && many.front() == line[1] && many.back().fen() == KIWIPETE);
    std::vector<Position> copy_of_many = many;
    copy_of_many.back().play_unchecked(castle);
    CHECK(many.back().fen() == KIWIPETE && copy_of_many.back() == a.after(castle));
}

// The handles: Game copies (a clone) and moves, Epd and PgnReader only move (tested with them).
void text_and_chess960() {
    auto fields = chesscore::split_fen("8/8/8/8/8/8/8/K6k w - -");
    CHECK(fields[0] == "8/8/8/8/8/8/8/K6k" && fields[1] == "w" && fields[3] == "-");
    CHECK(fields[4] == "0" && fields[5] == "1");
    CHECK_THROWS(chesscore::split_fen("8/8 w"), CHESS_ERR_FEN_FIELD_COUNT);
    Position built = Position::from_components("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R", "b", "KQkq",
                                               "-", "1", "2");
    CHECK(built.fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    CHECK_THROWS(Position::from_components("8/8/8/8/8/8/8/8", "w", "-", "-", "0", "1"),
                 CHESS_ERR_FEN_MISSING_KING);
    CHECK(chesscore::square_name(63) == "h8" && chesscore::parse_square("a1") == 0);
    CHECK(chesscore::version() == CHESS_VERSION_STRING && chesscore::version_number() == CHESS_VERSION_NUMBER);

    Position standard = Position::chess960(518);
    CHECK(standard.is_chess960() && standard.chess960_number() == 518);
    CHECK(standard.fen().rfind("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", 0) == 0);
    Position shredder = Position::from_fen_chess960("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1");
    CHECK(shredder.perft(2) == 479);
    Move castle = shredder.parse_uci("b1h1");
    CHECK(castle.kind() == CHESS_MOVE_CASTLING && shredder.uci(castle) == "b1h1" && shredder.san(castle) == "O-O");
    CHECK(castle.uci() == "b1g1" && castle.uci(CHESS_UCI_KING_TAKES_ROOK) == "b1h1");  // standard, Chess960
    CHECK(shredder.fen() == "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
    CHECK(shredder.fen(CHESS_FEN_WRITE_SHREDDER) == "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1");
    CHECK(Position::from_fen("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", CHESS_FEN_CHESS960) == shredder);
    chess_fen_info info;
    Position dropped = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w KQkq e6 0 1",
                                          CHESS_FEN_DROP_BAD_CASTLING | CHESS_FEN_DROP_BAD_EN_PASSANT, &info);
    CHECK(dropped.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1" && info.size == sizeof info);
    CHECK(info.dropped_castling == 15 && info.dropped_en_passant == chesscore::parse_square("e6"));
    CHECK(Position::from_fen(START, 0, &info) == Position() && info.dropped_castling == 0);
    CHECK(info.dropped_en_passant == CHESS_NO_SQUARE);
    CHECK_THROWS(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"), CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
    CHECK_THROWS(Position::from_fen(START, 1u << 20), CHESS_ERR_INVALID_ARGUMENT);
    Position castling = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    CHECK(castling.uci(castling.parse_uci("e1h1")) == "e1g1");
}

/* The search helpers: stages, gives-check, SEE, hash-move test, key after a move, attack maps. */
void search_helpers() {
    Position kiwipete = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    MoveList captures = kiwipete.capture_list();
    MoveList quiets = kiwipete.quiet_list();
    CHECK(captures.size() == 8 && quiets.size() == 40 && kiwipete.has_legal_moves());
    for (Move mv : kiwipete.legal_move_list()) {
        CHECK(captures.contains(mv) != quiets.contains(mv));
        CHECK(kiwipete.is_pseudo_legal(mv));
        Position after;
        kiwipete.play_into(mv, after);
        CHECK(kiwipete.gives_check(mv) == after.in_check());
        CHECK(kiwipete.zobrist_after(mv) == after.zobrist());
        CHECK(kiwipete.see_ge(mv, kiwipete.see(mv)) && !kiwipete.see_ge(mv, kiwipete.see(mv) + 1));
    }
    CHECK(!kiwipete.is_pseudo_legal(Move(0xffff)) && !kiwipete.is_pseudo_legal(Move()));
    CHECK(kiwipete.see(kiwipete.parse_uci("f3f6")) == 300 - 900); /* Bxf6 */
    Position defended = Position::from_fen("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1");
    CHECK(defended.see(defended.parse_uci("d1d5")) == -400);
    Position knight = Position::from_fen("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
    CHECK(knight.check_squares(CHESS_KNIGHT) == ((1ULL << 43) | (1ULL << 45) | (1ULL << 50) | (1ULL << 54)));
    CHECK(Position().attacks_by(CHESS_WHITE) == 0xffff7eULL);
    Game game;
    for (const char *san : {"Nf3", "Nf6", "Ng1"}) {
        game.push_san(san);
        CHECK(!game.is_repetition());
    }
    game.push_san("Ng8");
    CHECK(game.is_repetition());
}

void games() {
    Game game;
    CHECK(game.ply_count() == 0 && game.moves().empty() && game.san_moves().empty());
    CHECK_THROWS(game.pop(), CHESS_ERR_EMPTY_HISTORY);
    for (const char *san : {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"}) {
        game.push_san(san);
    }
    CHECK(game.can_claim_threefold_repetition() && !game.is_threefold_repetition());
    CHECK(game.claimable_draw() == CHESS_TERMINATION_THREEFOLD_REPETITION);
    Move ng8 = game.push_uci("f6g8");
    CHECK(game.is_threefold_repetition() && game.repetition_count() == 3 && !game.is_fivefold_repetition());
    CHECK(game.outcome().result == CHESS_RESULT_ONGOING);
    CHECK(game.pop() == ng8 && game.ply_count() == 7);
    CHECK(game.san_moves() == "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    CHECK(game.position_at(1).fen() == "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
    CHECK_THROWS(game.position_at(8), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_THROWS(game.push_san("Qh5"), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_THROWS(game.push(Move()), CHESS_ERR_ILLEGAL_MOVE);
    game.set_allow_null_moves(true);
    CHECK(game.allows_null_moves());
    game.push(Move());
    CHECK(game.san_moves().substr(game.san_moves().size() - 2) == "--");

    Game copy = game;  // a clone
    CHECK(copy.get() != game.get() && copy.moves() == game.moves() && copy.allows_null_moves());
    CHECK(copy.position() == game.position() && copy.start() == game.start());
    copy.pop();
    CHECK(copy.ply_count() + 1 == game.ply_count());
    Game moved = std::move(copy);
    CHECK(copy.get() == nullptr && moved.ply_count() == 7);
    copy = moved;
    CHECK(copy.ply_count() == 7);

    Game mate(Position::from_fen(START));
    for (const char *uci : {"f2f3", "e7e5", "g2g4", "d8h4"}) {
        mate.push_uci(uci);
    }
    chess_outcome outcome = mate.outcome();
    CHECK(outcome.result == CHESS_RESULT_BLACK_WINS && outcome.termination == CHESS_TERMINATION_CHECKMATE);
    CHECK(mate.position().is_checkmate() && mate.start() == Position());

    std::vector<Move> line = chesscore::moves_from_line(Position(), "e4 e7e5 Nf3");
    CHECK(line.size() == 3 && line[1] == Position().after(line[0]).parse_uci("e7e5"));
    auto err = CHECK_THROWS(chesscore::moves_from_line(Position(), "e4 e5 Ke3"), CHESS_ERR_ILLEGAL_MOVE);
    CHECK(err && err->token() == std::optional<std::size_t>(2) && !err->offset());
    CHECK(chesscore::moves_from_line(Position(), "").empty());
}

const char *const PGN =
    "[Event \"First\"]\n[White \"Kasparov, G\"]\n[Result \"1-0\"]\n\n"
    "1. e4 {King's pawn} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 1-0\n\n"
    "[Event \"Broken\"]\n\n1. d4 d5 2. Kd3 *\n\n"
    "[Event \"Third\"]\n\n1. c4 *\n";

// Reads every game of `reader`: the Event tags, "!" plus the message for a broken game.
std::vector<std::string> events(PgnReader &reader) {
    std::vector<std::string> out;
    for (;;) {
        try {
            std::optional<Game> game = reader.next();
            if (!game) {
                break;
            }
            out.push_back(game->tag("Event").value_or("?"));
        } catch (const PgnError &err) {
            CHECK(err.code() == CHESS_ERR_ILLEGAL_MOVE && err.line() == 9 && err.column() == 13);
            CHECK(err.game_number() == 2 && err.ply() == 3 && err.partial().ply_count() == 2);
            CHECK(err.partial().tag("Event") == std::optional<std::string>("Broken"));
            out.push_back(std::string("!") + err.what());
        }
    }
    CHECK(!reader.next() && !reader.next());
    return out;
}

// A stream buffer over `text` whose reads fail once `fail_at` bytes have been handed out, as a
// disk or a network might.
class FailingBuffer : public std::streambuf {
public:
    FailingBuffer(std::string text, std::size_t fail_at) : text_(std::move(text)), fail_at_(fail_at) {}

protected:
    int_type underflow() override {
        if (given_ >= fail_at_) {
            throw std::runtime_error("disk on fire");
        }
        std::size_t n = std::min<std::size_t>(4, std::min(fail_at_, text_.size()) - given_);
        if (n == 0) {
            return traits_type::eof();
        }
        char *at = &text_[given_];
        given_ += n;
        setg(at, at, at + n);
        return traits_type::to_int_type(*at);
    }

private:
    std::string text_;
    std::size_t fail_at_;
    std::size_t given_ = 0;
};

// A read error after the first game: that game, then the error, then the end for good.
void pgn_read_error() {
    std::string text = PGN;
    FailingBuffer buffer(text, text.find("[Event \"Broken\"]") + 5);
    std::istream in(&buffer);
    PgnReader reader = PgnReader::from_stream(in);
    CHECK(reader.next()->tag("Event") == std::optional<std::string>("First"));
    auto err = CHECK_THROWS(reader.next(), CHESS_ERR_IO);
    CHECK(err && std::string(err->what()).find("read error") != std::string::npos);
    CHECK(!reader.next() && !reader.next() && !reader.next());
}

void pgn(const std::string &work) {
    const std::vector<std::string> expected = {
        "First", "!game 2, line 9, column 13: illegal move \"Kd3\" at ply 3", "Third"};
    PgnReader from_string = PgnReader::from_string(PGN);
    CHECK(events(from_string) == expected);
    std::istringstream stream(PGN);
    PgnReader from_stream = PgnReader::from_stream(stream);
    CHECK(events(from_stream) == expected);
    std::string path = work + "/cxx_wrapper.pgn";
    {
        std::ofstream out(path, std::ios::binary);
        out << PGN;
    }
    PgnReader from_file = PgnReader::open(path);
    CHECK(events(from_file) == expected);
    std::remove(path.c_str());
    CHECK_THROWS(PgnReader::open(work + "/no such file.pgn"), CHESS_ERR_FILE_NOT_FOUND);
    PgnReader moved = std::move(from_file);
    CHECK(from_file.get() == nullptr && !moved.next());

    PgnReader reader = PgnReader::from_string(PGN);
    Game game = *reader.next();
    CHECK(game.ply_count() == 4 && game.result() == CHESS_RESULT_WHITE_WINS);
    CHECK(game.position().fen() == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    CHECK(game.tags().size() == 3 && game.tags()[1].first == "White" && game.tags()[1].second == "Kasparov, G");
    CHECK(!game.tag("Black"));
    game.set_tag("Black", std::string(200, 'x'));  // longer than the first buffer tried
    CHECK(game.tag("Black") == std::string(200, 'x'));
    game.set_tag(std::string_view("Annotator: x", 9), std::string_view("Nobody, really", 6));
    CHECK(game.tag("Annotator") == std::optional<std::string>("Nobody") && game.remove_tag("Annotator"));
    CHECK(game.remove_tag("Black") && !game.remove_tag("Black"));
    CHECK_THROWS(game.set_tag("FEN", "8/8/8/8/8/8/8/8 w - - 0 1"), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_THROWS(game.set_tag(std::string("a\0b", 3), "x"), CHESS_ERR_INVALID_TEXT);
    const std::string exported = game.to_pgn();
    CHECK(exported == "[Event \"First\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                      "[White \"Kasparov, G\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n"
                      "1. e4 { King's pawn } 1... e5 ( 1... c5 2. Nf3 ) 2. Nf3 $1 Nc6 1-0\n");
    // The copy keeps tags and annotations; the export reads back to the same game.
    Game copy = game;
    CHECK(copy.get() != game.get() && copy.to_pgn() == exported);
    PgnReader back = PgnReader::from_string(exported);
    CHECK(back.next()->to_pgn() == exported);
    game.pop();
    CHECK(copy.ply_count() == 4 && game.ply_count() == 3);
    Game fresh;
    fresh.push_san("e4");
    CHECK(fresh.result() == CHESS_RESULT_ONGOING && fresh.tags().empty());
    CHECK(fresh.to_pgn().substr(fresh.to_pgn().size() - 9) == "\n1. e4 *\n");
}

const char *const TREE_PGN =
    "[Event \"Tree\"]\n[Result \"*\"]\n\n"
    "{Before the first move} 1. e4 $1 $14 {best by test} {second} e5 (1... c5 $2 {Sicilian} 2. Ng1f3\n"
    "(2. c3 {Alapin}) 2... d6) ({French} 1... e6 2. d4) 2. Nf3!? Nc6 *\n\n";

using Texts = std::vector<std::string>;
using Nags = std::vector<std::uint8_t>;

Texts sans(NodeRange nodes) {
    Texts out;
    for (Node node : nodes) {
        out.push_back(node.san());
    }
    return out;
}

// Every accessor of every node of TREE_PGN, whose nodes are numbered in reading order:
// 0 root, 1 e4, 2 e5, 3 c5, 4 Ng1f3, 5 c3, 6 d6, 7 e6, 8 d4, 9 Nf3, 10 Nc6.
void tree() {
    PgnReader reader = PgnReader::from_string(TREE_PGN);
    Game game = *reader.next();
    CHECK(game.node_count() == 11 && game.ply_count() == 4);

    Node root = game.root();
    CHECK(root.id() == CHESS_NODE_ROOT && root.is_root() && root.game() == game.get());
    CHECK(!root.parent() && root.ply() == 0 && root.position() == game.start() && root.nags().empty());
    CHECK(root.comments() == Texts{"Before the first move"} && root.comments_before().empty());
    CHECK_THROWS(root.move(), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_THROWS(root.san(), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(sans(root.children()) == Texts{"e4"} && root.variations().empty() && !root.children().empty());

    Node e4 = *root.main_child();
    CHECK(e4.id() == 1 && !e4.is_root() && e4.parent() == root && e4.ply() == 1);
    CHECK(e4.move() == Position().parse_san("e4") && e4.san() == "e4" && e4.nags() == (Nags{1, 14}));
    CHECK(e4.comments() == (Texts{"best by test", "second"}) && e4.comments_before().empty());
    CHECK(e4.position() == Position().after(e4.move()));
    CHECK(sans(e4.children()) == (Texts{"e5", "c5", "e6"}) && sans(e4.variations()) == (Texts{"c5", "e6"}));

    // Range-for over the children: the main continuation first, then the variations in order.
    std::vector<Node> replies;
    for (Node reply : e4.children()) {
        CHECK(reply.parent() == e4 && reply.ply() == 2);
        replies.push_back(reply);
    }
    CHECK(replies.size() == 3 && replies[0] == *e4.main_child() && replies[1] == *e4.variations().begin());
    Node e5 = replies[0], c5 = replies[1], e6 = replies[2];
    CHECK(e5.id() == 2 && c5.id() == 3 && e6.id() == 7);
    CHECK(e5.comments().empty() && e5.nags().empty() && e5.position().fen() ==
          "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    CHECK(c5.san() == "c5" && c5.nags() == Nags{2} && c5.comments() == Texts{"Sicilian"});
    CHECK(e6.comments_before() == Texts{"French"} && e6.comments().empty() && e6.nags().empty());
    CHECK(e6.position().fen() == "rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    CHECK(sans(e6.children()) == Texts{"d4"} && e6.main_child()->id() == 8 && e6.main_child()->ply() == 3);

    // The iterator with standard algorithms, and stepped by hand.
    NodeRange children = e4.children();
    CHECK(std::distance(children.begin(), children.end()) == 3);
    CHECK(std::find(children.begin(), children.end(), e6) != children.end());
    NodeRange::iterator it = children.begin();
    CHECK(*it++ == e5 && *it == c5 && *++it == e6 && ++it == children.end() && NodeRange::iterator() != it);

    // A variation within a variation; SAN as the PGN wrote it.
    Node nf3 = *c5.main_child();
    CHECK(nf3.id() == 4 && nf3.san() == "Ng1f3" && nf3.move() == c5.position().parse_san("Nf3"));
    CHECK(sans(c5.variations()) == Texts{"c3"} && sans(nf3.children()) == Texts{"d6"});
    Node c3 = *c5.variations().begin();
    CHECK(c3.id() == 5 && c3.ply() == 3 && c3.comments() == Texts{"Alapin"});
    CHECK(c3.children().empty() && c3.variations().empty() && !c3.main_child());
    CHECK(c3.position().fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/2P5/PP1P1PPP/RNBQKBNR b KQkq - 0 2");
    Node d6 = *nf3.main_child();
    CHECK(d6.id() == 6 && d6.ply() == 4 && d6.parent()->parent() == c5);
    CHECK(d6.position().fen() == "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3");

    // The main line, root left out, ends in the game's position.
    CHECK(sans(game.mainline()) == (Texts{"e4", "e5", "Nf3", "Nc6"}));
    std::vector<chess_node> line;
    for (Node node : game.mainline()) {
        line.push_back(node.id());
    }
    CHECK(line == (std::vector<chess_node>{1, 2, 9, 10}));
    Node nc6 = Node(game.get(), 10);
    CHECK(nc6.position() == game.position() && nc6.parent()->nags() == Nags{5} && nc6.parent()->san() == "Nf3");
    CHECK(!nc6.main_child() && nc6.children().empty());
    CHECK(Game().mainline().empty() && Game().root().children().empty() && Game().node_count() == 1);

    // Nodes are values; they follow the handle when the Game moves, and a copy has its own.
    Node copy = e4;
    CHECK(copy == e4 && copy.san() == "e4");
    copy = c3;
    CHECK(copy != e4 && copy == c3 && copy.comments() == Texts{"Alapin"});
    Game moved = std::move(game);
    CHECK(e4.game() == moved.get() && e4.comments().size() == 2);
    Game clone = moved;
    CHECK(clone.root() != moved.root() && clone.root().main_child()->comments() == e4.comments());

    // A move pushed gets its SAN made; a null move is "--", with Move() as its move.
    clone.pop();
    clone.push_san("Nf6");
    clone.set_allow_null_moves(true);
    clone.push(Move());
    CHECK(sans(clone.mainline()) == (Texts{"e4", "e5", "Nf3", "Nf6", "--"}));
    Node null_move = Node(clone.get(), 11);
    CHECK(null_move.move().is_none() && null_move.ply() == 5 && null_move.comments().empty());

    // A node the game no longer has (popped), or never had.
    moved.pop();
    for (Node gone : {nc6, Node(moved.get(), 999), Node(moved.get(), CHESS_NODE_NONE)}) {
        CHECK_THROWS(gone.parent(), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_THROWS(gone.children(), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_THROWS(gone.main_child(), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_THROWS(gone.variations(), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_THROWS(gone.move(), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_THROWS(gone.ply(), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_THROWS(gone.san(), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_THROWS(gone.comments(), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_THROWS(gone.comments_before(), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_THROWS(gone.nags(), CHESS_ERR_INVALID_ARGUMENT);
        CHECK_THROWS(gone.position(), CHESS_ERR_INVALID_ARGUMENT);
    }
    CHECK(moved.node_count() == 10 && sans(moved.mainline()) == (Texts{"e4", "e5", "Nf3"}));
}

// Lichess-style commands in comments, read per move.
void annotations() {
    PgnReader reader = PgnReader::from_string(
        "1. e4 { [%eval 0.35,18] [%clk 0:03:00.5] } 1... e5 { Solid. [%emt 0:00:05] [%eval #-4] }\n"
        "2. Nf3 { [%csl Ga4,Rb5][%cal Ge2e4,Bd1h5] } *\n");
    Game game = *reader.next();
    std::vector<Node> moves(game.mainline().begin(), game.mainline().end());
    CHECK(moves.size() == 3);
    CHECK(moves[0].clock() == 180.5 && !moves[0].elapsed() && moves[0].comment_text().empty());
    std::optional<chess_eval> eval = moves[0].eval();
    CHECK(eval && eval->kind == CHESS_SCORE_CP && eval->value == 35 && eval->depth == 18);
    eval = moves[1].eval();
    CHECK(eval && eval->kind == CHESS_SCORE_MATE && eval->value == -4 && eval->depth == CHESS_EVAL_NO_DEPTH);
    CHECK(!moves[1].clock() && moves[1].elapsed() == 5.0 && moves[1].comment_text() == "Solid.");
    auto sq = [](const char *name) { return chesscore::parse_square(name); };
    std::vector<chess_highlight> highlights = moves[2].highlights();
    CHECK(highlights.size() == 2 && highlights[0].square == sq("a4") && highlights[0].color == CHESS_MARK_GREEN &&
          highlights[1].square == sq("b5") && highlights[1].color == CHESS_MARK_RED);
    std::vector<chess_arrow> arrows = moves[2].arrows();
    CHECK(arrows.size() == 2 && arrows[0].from == sq("e2") && arrows[0].to == sq("e4") && arrows[1].from == sq("d1") &&
          arrows[1].to == sq("h5") && arrows[1].color == CHESS_MARK_BLUE);
    CHECK(!moves[2].eval() && !moves[2].clock() && game.root().highlights().empty());
    Node gone(game.get(), 999);
    CHECK_THROWS(gone.clock(), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_THROWS(gone.eval(), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_THROWS(gone.arrows(), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_THROWS(gone.comment_text(), CHESS_ERR_INVALID_ARGUMENT);
}

// The code of the PgnError the reader's next game throws, or CHESS_OK when it reads.
chess_error next_code(PgnReader &reader) {
    try {
        reader.next();
        return CHESS_OK;
    } catch (const PgnError &err) {
        return err.code();
    }
}

void pgn_options() {
    // Headers only: the broken game's moves go unread, so all three come.
    PgnReader headers = PgnReader::from_string(PGN);
    PgnOptions only_headers;
    only_headers.headers_only = true;
    headers.set_options(only_headers);
    std::optional<Game> first = headers.next();
    CHECK(first && first->tag("White") == std::optional<std::string>("Kasparov, G") && first->ply_count() == 0);
    CHECK(first->result() == CHESS_RESULT_WHITE_WINS && first->node_count() == 1 && first->root().children().empty());
    CHECK(events(headers) == (Texts{"Broken", "Third"}));

    // Options apply from the next game: strict SAN refuses "Ng1f3", the defaults again take it.
    PgnReader strict = PgnReader::from_string(std::string(TREE_PGN) + TREE_PGN + TREE_PGN +
                                              "[Event \"Canonical\"]\n\n1. e4 e5 2. Nf3!? *\n");
    CHECK(strict.next()->node_count() == 11);
    PgnOptions strict_san;
    strict_san.strict_san = true;
    strict.set_options(strict_san);
    try {
        strict.next();
        CHECK(false);
    } catch (const PgnError &err) {
        CHECK(err.code() == CHESS_ERR_SAN_NOT_CANONICAL && err.ply() == 3 && err.partial().node_count() == 4);
        CHECK(std::string(err.what()).find("\"Ng1f3\"") != std::string::npos);
    }
    strict.set_options(PgnOptions());
    CHECK(strict.next()->node_count() == 11);
    strict.set_options(strict_san);
    CHECK(strict.next()->tag("Event") == std::optional<std::string>("Canonical"));

    // Text that is not UTF-8: read as Windows-1252, refused when strict, or replaced.
    const std::string latin1 = "[Event \"x\"]\n\n1. e4 {caf\xe9} *\n\n";
    PgnReader lossy = PgnReader::from_string(latin1 + latin1 + latin1);
    CHECK((*lossy.next()->mainline().begin()).comments() == Texts{"caf\xc3\xa9"});
    PgnOptions strict_text;
    strict_text.strict = true;
    lossy.set_options(strict_text);
    CHECK(next_code(lossy) == CHESS_ERR_PGN_INVALID_UTF8);
    PgnOptions lossy_text;
    lossy_text.lossy_text = true;
    lossy.set_options(lossy_text);
    CHECK((*lossy.next()->mainline().begin()).comments() == Texts{"caf\xef\xbf\xbd"});

    // The limits.
    PgnOptions limits;
    limits.max_depth = 1;
    PgnReader deep = PgnReader::from_string(TREE_PGN);
    deep.set_options(limits);
    CHECK(next_code(deep) == CHESS_ERR_PGN_TOO_DEEP);
    limits = PgnOptions();
    limits.max_comment_len = 5;
    PgnReader comment = PgnReader::from_string(TREE_PGN);
    comment.set_options(limits);
    CHECK(next_code(comment) == CHESS_ERR_PGN_COMMENT_TOO_LONG);
    limits = PgnOptions();
    limits.max_tag_len = 12;
    PgnReader tag = PgnReader::from_string(TREE_PGN);
    tag.set_options(limits);
    CHECK(next_code(tag) == CHESS_ERR_PGN_TAG_TOO_LONG);
}

struct TreeCounts {
    std::size_t nodes = 0, comments = 0, nags = 0, variations = 0;

    bool operator==(const TreeCounts &other) const {
        return nodes == other.nodes && comments == other.comments && nags == other.nags &&
               variations == other.variations;
    }
};

// Prints `node` and, depth first, every node below it, through the wrapper alone; counts what
// it prints.
void print_tree(std::ostream &out, Node node, TreeCounts &counts) {
    out << "node " << node.id() << " ply " << node.ply();
    for (const std::string &text : node.comments_before()) {
        out << " {" << text << "}";
        counts.comments++;
    }
    if (!node.is_root()) {
        out << " " << node.san() << " " << node.move().uci();
    }
    for (std::uint8_t nag : node.nags()) {
        out << " $" << unsigned{nag};
        counts.nags++;
    }
    for (const std::string &text : node.comments()) {
        out << " {" << text << "}";
        counts.comments++;
    }
    out << " " << node.position().fen() << "\n";
    counts.nodes++;
    NodeRange variations = node.variations();
    counts.variations += static_cast<std::size_t>(std::distance(variations.begin(), variations.end()));
    for (Node child : node.children()) {
        print_tree(out, child, counts);
    }
}

// The same counts from the C functions, node by number rather than through the tree.
void count_with_c(const chess_game *game, TreeCounts &counts) {
    std::size_t count = chess_node_count(game);
    for (chess_node id = CHESS_NODE_ROOT; id < count; id++) {
        counts.nodes++;
        counts.comments += chess_node_comment_count(game, id, CHESS_COMMENT_AFTER) +
                           chess_node_comment_count(game, id, CHESS_COMMENT_BEFORE);
        counts.nags += chess_node_nags(game, id, nullptr, 0);
        chess_node parent = chess_node_parent(game, id);
        if (parent != CHESS_NODE_NONE && chess_node_first_child(game, parent) != id) {
            counts.variations++;
        }
    }
}

// Every game of pgn/*.pgn (a broken one as far as it was read), printed to WORK_DIR by the
// wrapper's range-for walk, whose counts must be those of the C functions.
void tree_files(const std::string &testdata, const std::string &work) {
    std::vector<std::filesystem::path> files;
    for (const auto &entry : std::filesystem::directory_iterator(testdata + "/pgn")) {
        if (entry.path().extension() == ".pgn") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    std::ofstream out(work + "/cxx_wrapper_tree.txt");
    TreeCounts walked, counted;
    std::size_t games = 0, broken = 0;
    auto take = [&](const Game &game) {
        out << "game " << ++games << "\n";
        print_tree(out, game.root(), walked);
        count_with_c(game.get(), counted);
    };
    for (const auto &file : files) {
        PgnReader reader = PgnReader::open(file.string());
        for (;;) {
            try {
                std::optional<Game> game = reader.next();
                if (!game) {
                    break;
                }
                take(*game);
            } catch (const PgnError &err) {
                broken++;
                take(err.partial());
            }
        }
    }
    CHECK(files.size() >= 5 && games > 100 && broken > 0);
    CHECK(walked == counted);
    CHECK(walked.nodes > games && walked.comments > 0 && walked.nags > 0 && walked.variations > 0);
    std::printf("cxx_wrapper: tree walk of %zu games (%zu broken) in %zu files: %zu nodes, %zu comments, %zu NAGs, "
                "%zu variations, as the C functions count\n",
                games, broken, files.size(), walked.nodes, walked.comments, walked.nags, walked.variations);
}

void epd(const std::string &testdata) {
    Epd record = Epd::parse("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 Bc4; "
                            "id \"ruy \\\"lopez\\\"\"; acd 12; ce 0.5; hmvc 2; fmvn 3; pv Bb5 a6;");
    CHECK(record.position().fen() == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    CHECK(record.operation_count() == 7 && record.opcode(0) == "bm" && record.has("id") && !record.has("am"));
    CHECK(record.operand_count("bm") == 2 && record.operand_kind("bm", 1) == CHESS_OPERAND_MOVE);
    CHECK(record.operand_string("id") == "ruy \"lopez\"" && record.operand_integer("acd") == 12);
    CHECK(record.operand_float("ce") == 0.5 && record.operand_float("acd") == 12.0);
    CHECK(record.position().san(record.operand_move("bm", 1)) == "Bc4");
    CHECK(record.moves("bm").size() == 2 && record.moves("pv").size() == 2 && record.moves("id").empty());
    CHECK(record.str().rfind("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 Bc4;", 0) == 0);
    CHECK(Epd::parse(record.str()).str() == record.str());
    CHECK_THROWS(record.operand_integer("id"), CHESS_ERR_EPD_WRONG_TYPE);
    CHECK_THROWS(record.operand_string("nope"), CHESS_ERR_EPD_NOT_FOUND);
    CHECK_THROWS(record.opcode(7), CHESS_ERR_EPD_NOT_FOUND);
    CHECK_THROWS(Epd::parse("8/8/8/8/8/8/8/K6k w"), CHESS_ERR_EPD_MISSING_FIELDS);
    CHECK_THROWS(Epd::parse("8/8/8/8/8/8/8/K6k w - - bm Kb3;"), CHESS_ERR_ILLEGAL_MOVE);
    Epd chess960 = Epd::parse("rk5r/8/8/8/8/8/8/RK5R w HAha - bm O-O;", CHESS_FEN_CHESS960);
    CHECK(chess960.position().is_chess960() && chess960.operand_move("bm").kind() == CHESS_MOVE_CASTLING);
    Epd moved = std::move(chess960);
    CHECK(chess960.get() == nullptr && moved.has("bm"));

    // Long lines need the second, sized read.
    std::string comment(600, 'x');
    Epd long_line = Epd::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"" + comment + "\";");
    CHECK(long_line.operand_string("c0") == comment && long_line.str().size() > 600);

    std::ifstream file(testdata + "/epd/dev_generated.epd");
    std::string line;
    int records = 0;
    while (std::getline(file, line)) {
        if (!line.empty()) {
            Epd parsed = Epd::parse(line);
            CHECK(Epd::parse(parsed.str()).str() == parsed.str());
            records++;
        }
    }
    CHECK(records == 150);
}

void files(const std::string &work) {
    std::string path = work + "/cxx_wrapper.fen";
    std::ofstream(path) << "\n" << KIWIPETE << "\n";
    CHECK(Position::from_fen_file(path).fen() == KIWIPETE);
    CHECK_THROWS(Position::from_fen_file(work + "/no such file.fen"), CHESS_ERR_FILE_NOT_FOUND);
    std::ofstream(path) << "8/8/8/8/8/8/8/8 x - - 0 1\n";
    auto err = CHECK_THROWS(Position::from_fen_file(path), CHESS_ERR_FEN_SIDE_TO_MOVE);
    CHECK(err && err->offset() == std::optional<std::size_t>(16));
}

// Polyglot books: lookups with options, picks from a random number, raw entries, a malformed
// book's BookError, building from the PGN files and from a game, merging and saving.
void books(const std::string &testdata, const std::string &work) {
    using chesscore::Book;
    using chesscore::BookBuilder;
    using chesscore::BookChoice;
    const std::string path = testdata + "/polyglot/dev.bin";
    Book book = Book::open(path);
    Position start;
    CHECK(book.size() == 727);
    std::vector<chesscore::BookEntry> entries = book.lookup(start);
    CHECK(entries.size() == 12 && entries[0].move.uci() == "c2c3" && entries[0].weight == 5);
    CHECK(book.lookup(start, {3, {}}).size() == 4 && book.lookup(start, {0, {}}).size() > 12);
    CHECK(book.lookup(start, {3, {start.parse_uci("c2c3")}}).front().move.uci() == "e2e4");
    CHECK(book.pick(start, 0, BookChoice::best)->move.uci() == "c2c3");
    CHECK(book.pick(start, 12345)->move == book.pick(start, 12345)->move);
    CHECK(!book.pick(Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1"), 0).has_value());
    CHECK(book.entry(0).key <= book.entry(726).key);
    CHECK_THROWS(book.entry(727), CHESS_ERR_INVALID_ARGUMENT);

    // A malformed book names the entry at fault.
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(Book::from_buffer(bytes.data(), bytes.size()).size() == 727);
    std::string unsorted = bytes.substr(16, 16) + bytes.substr(0, 16);
    checks++;
    try {
        Book::from_buffer(unsorted.data(), unsorted.size());
        failures++;
    } catch (const chesscore::BookError &err) {
        CHECK(err.code() == CHESS_ERR_BOOK_UNSORTED && err.entry() == 1);
        CHECK(std::string(err.what()).find("entry 1 (at byte offset 16)") != std::string::npos);
    }
    CHECK_THROWS(Book::from_buffer(bytes.data(), 20), CHESS_ERR_BOOK_LENGTH);
    CHECK_THROWS(Book::open(work + "/no such book.bin"), CHESS_ERR_FILE_NOT_FOUND);

    // The committed test book is this build; merged with itself every weight doubles.
    BookBuilder builder(chesscore::BookBuildOptions{40, 1, 0, std::nullopt, false, true});
    builder.add_pgn_file(testdata + "/pgn/dev_generated.pgn");
    builder.add_pgn_file(testdata + "/pgn/dev_edge_cases.pgn");
    Book built = builder.finish();
    CHECK(built.size() == 727 && built.lookup(start)[1].move.uci() == "e2e4");
    Book merged = Book::merge(book, built);
    CHECK(merged.size() == 727 && merged.entry(5).weight == 2 * book.entry(5).weight);
    merged.save(work + "/cxx_merged.bin");
    CHECK(Book::open(work + "/cxx_merged.bin").lookup(start)[0].weight == 10);

    // White's moves of a game, castling looked up in the position's convention.
    Game game;
    for (const char *san : {"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"}) {
        game.push_san(san);
    }
    BookBuilder white(chesscore::BookBuildOptions{40, 1, 0, CHESS_WHITE, true, false});
    white.add_game(game, CHESS_RESULT_BLACK_WINS);
    Book small = white.finish();
    CHECK(small.size() == 4);
    std::vector<chesscore::BookEntry> castle = small.lookup(game.position_at(6));
    CHECK(castle.size() == 1 && castle[0].move.uci() == "e1g1" && castle[0].weight == 1);
    CHECK(castle[0].move.uci(CHESS_UCI_KING_TAKES_ROOK) == "e1h1");
    CHECK_THROWS(BookBuilder(chesscore::BookBuildOptions{40, 1, 101, std::nullopt, false, false}),
                 CHESS_ERR_INVALID_ARGUMENT);
}

constexpr std::size_t MAX_DEPTH = 7;

// Leaves of the move tree through the wrapper, one Position per ply on a stack, each made from
// the one below by copy-make.
std::uint64_t leaves(std::array<Position, MAX_DEPTH + 1> &stack, std::size_t ply, unsigned depth) {
    if (depth == 0) {
        return 1;
    }
    std::uint64_t nodes = 0;
    for (Move mv : stack[ply].legal_move_list()) {
        stack[ply].play_into(mv, stack[ply + 1]);
        nodes += leaves(stack, ply + 1, depth - 1);
    }
    return nodes;
}

// The same with positions passed and copied by value.
std::uint64_t leaves_by_value(Position pos, unsigned depth) {
    if (depth == 0) {
        return 1;
    }
    std::uint64_t nodes = 0;
    for (Move mv : pos.legal_move_list()) {
        Position child = pos;
        child.play_unchecked(mv);
        nodes += leaves_by_value(child, depth - 1);
    }
    return nodes;
}

int perft_suite(const std::string &path, unsigned long long limit) {
    std::ifstream file(path);
    std::string line;
    int runs = 0;
    std::array<Position, MAX_DEPTH + 1> stack;
    while (std::getline(file, line)) {
        std::size_t semicolon = line.find(';');
        if (line.empty() || semicolon == std::string::npos) {
            continue;
        }
        stack[0] = Position::from_fen(std::string_view(line).substr(0, semicolon));
        std::istringstream counts(line.substr(semicolon));
        std::string depth_field;
        unsigned long long expected = 0;
        char separator = 0;
        while (counts >> separator >> depth_field >> expected) {
            unsigned depth = static_cast<unsigned>(std::atoi(depth_field.c_str() + 1));
            if (expected > limit || depth > MAX_DEPTH) {
                break;
            }
            CHECK(leaves(stack, 0, depth) == expected);
            CHECK(leaves_by_value(stack[0], depth) == expected);
            CHECK(stack[0].perft(depth) == expected);
            runs++;
        }
    }
    return runs;
}

}  // namespace

// Engine: the fake engine's results through Info and Analysis, a callback that stops the
// search, one that throws, and a fault as an Error with its code.
static void engines(const std::string &fake) {
    chesscore::EngineOptions options;
    options.args = {"good"};
    options.timeout_ms = 2000;
    chesscore::Engine engine(fake, options);
    CHECK(engine.name() == "Fake Engine 1.0" && engine.author() == "The chesscore tests");
    CHECK(engine.option_count() == 5 && engine.option_name(1) == "Style" && engine.option_var(1, 0) == "Solid");
    CHECK(engine.option(0).option_type == CHESS_OPTION_SPIN && engine.option_default(0) == "16");
    engine.set_option("Hash", "8");
    engine.set_option("Clear Hash");
    engine.new_game();
    chess_limits limits = chesscore::limits();
    limits.depth = 1;
    limits.multipv = 2;
    chesscore::Position start;
    chesscore::Analysis analysis = engine.analyse(start, limits);
    CHECK(analysis.best_move == start.parse_uci("e2e4") && analysis.lines.size() == 2);
    CHECK(analysis.lines[0].pv.size() == 2 && analysis.lines[0].raw.score == 31 && !analysis.lines[0].string);

    chesscore::Game game;
    game.push_uci("g1f3");
    int seen = 0;
    analysis = engine.analyse(game, limits, [&](const chesscore::Info &info) {
        seen++;
        return info.raw.depth < 1;  // stop at the first line of depth 1
    });
    CHECK(seen == 3 && analysis.best_move.uci() == "e7e5" && analysis.lines[0].raw.white_score == -31);
    bool thrown = false;
    try {
        engine.analyse(game, limits, [](const chesscore::Info &) -> bool { throw std::runtime_error("mine"); });
    } catch (const std::runtime_error &e) {
        thrown = std::string(e.what()) == "mine";
    }
    CHECK(thrown);
    engine.is_ready();

    // A pondering search ends when another thread sends `ponderhit`.
    chess_limits ponder = limits;
    ponder.flags = CHESS_LIMIT_PONDER;
    std::thread hit([&engine] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        engine.ponderhit();
    });
    bool hit_seen = false;
    analysis = engine.analyse(game, ponder, [&](const chesscore::Info &info) {
        hit_seen = hit_seen || (info.string && *info.string == "ponderhit");
        return true;  // go on
    });
    hit.join();
    CHECK(hit_seen && analysis.best_move.uci() == "e7e5");

    options.args = {"crash"};
    chesscore::Engine crashing(fake, options);
    chess_error code = CHESS_OK;
    try {
        crashing.analyse(start, limits);
    } catch (const chesscore::Error &e) {
        code = e.code();
    }
    CHECK(code == CHESS_ERR_ENGINE_EXITED);
    code = CHESS_OK;
    try {
        chesscore::Engine missing("/nonexistent/engine");
    } catch (const chesscore::Error &e) {
        code = e.code();
    }
    CHECK(code == CHESS_ERR_ENGINE_NOT_STARTED);
    chesscore::Engine moved = std::move(crashing);
    CHECK(moved.get() != nullptr && crashing.get() == nullptr);

    // Option text with a line end some runtime splits on is refused, and nothing is sent.
    options.args = {"good"};
    chesscore::Engine careful(fake, options);
    for (const char *end : {"\n", "\r", "\x0b", "\x1e", "\u0085", "\u2028", "\u2029"}) {
        code = CHESS_OK;
        try {
            careful.set_option("Hash", std::string("1") + end + "go infinite");
        } catch (const chesscore::Error &e) {
            code = e.code();
        }
        CHECK(code == CHESS_ERR_INVALID_TEXT);
    }
    careful.is_ready();
    // An engine flooding its output during a search bounded by depth times out, in time.
    options.args = {"flood"};
    options.timeout_ms = 300;
    chesscore::Engine flooding(fake, options);
    code = CHESS_OK;
    const auto began = std::chrono::steady_clock::now();
    try {
        flooding.analyse(start, limits);
    } catch (const chesscore::Error &e) {
        code = e.code();
    }
    CHECK(code == CHESS_ERR_ENGINE_TIMEOUT && std::chrono::steady_clock::now() - began < std::chrono::milliseconds(1500));
}

// Binary FEN: the start position's bytes, a round trip over a game, an error with its offset.
void binary_fen() {
    const Position start;
    std::vector<std::uint8_t> bytes = start.to_binary_fen();
    CHECK(bytes.size() == 24 && bytes[0] == 0xff && bytes[8] == 0x2d && bytes[23] == 0xe3);
    CHECK(Position::from_binary_fen(bytes) == start);
    Position pos;
    for (const char *uci : {"e2e4", "c7c5", "g1f3", "d7d6", "f1b5"}) {
        pos.play(pos.parse_uci(uci));
        CHECK(Position::from_binary_fen(pos.to_binary_fen()) == pos);
    }
    bytes.push_back(0);
    bytes.push_back(0);
    bytes.push_back(7);
    auto err = CHECK_THROWS(Position::from_binary_fen(bytes), CHESS_ERR_BINARY_FEN_VARIANT);
    CHECK(err && err->offset() == std::optional<std::size_t>(26));
    Position shredder = Position::from_fen_chess960("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1");
    CHECK(Position::from_binary_fen(shredder.to_binary_fen(), CHESS_FEN_CHESS960) == shredder);
    err = CHECK_THROWS(Position::from_binary_fen(shredder.to_binary_fen()), CHESS_ERR_FEN_BAD_CASTLING_RIGHTS);
    CHECK(err && err->offset() == std::optional<std::size_t>(9));  // the g1 rook's code
}

// Training data: the binpack fixture read, written as plain text, read back; an error's offset.
void training_data(const std::string &testdata, const std::string &work) {
    auto reader = chesscore::BinpackReader::open(testdata + "/binpack/generated.binpack");
    std::vector<chesscore::TrainingEntry> entries;
    while (auto entry = reader.next()) {
        entries.push_back(*entry);
    }
    CHECK(entries.size() == 4113 && entries[0].position == Position() && entries[0].ply == 0);
    {
        auto writer = chesscore::BinpackWriter::open(work + "/cxx.plain", CHESS_BINPACK_PLAIN);
        for (const auto &entry : entries) {
            writer.write(entry);
        }
        writer.finish();
    }
    auto plain = chesscore::BinpackReader::open(work + "/cxx.plain", CHESS_BINPACK_PLAIN);
    std::size_t same = 0;
    for (const auto &entry : entries) {
        auto back = plain.next();
        same += back && back->position.fen() == entry.position.fen() && back->move == entry.move &&
                back->score == entry.score && back->result == entry.result;
    }
    CHECK(same == entries.size() && !plain.next());
    std::string bad = "fen 8/8/8/8/8/8/8/8 w - - 0 1\ne\n";
    auto broken = chesscore::BinpackReader::from_buffer(bad.data(), bad.size(), CHESS_BINPACK_PLAIN);
    auto err = CHECK_THROWS(broken.next(), CHESS_ERR_FEN_MISSING_KING);
    CHECK(err && err->offset() == std::optional<std::size_t>(4));
    CHECK(!broken.next());
}

// Variant positions: start perft per variant, a crazyhouse game with drops by SAN and UCI, the
// FEN forms, outcomes, errors, and the RAII handle's copies and moves.
static void variants() {
    using chesscore::VariantPosition;
    const std::uint64_t depth3[9] = {8902, 8902, 8902, 8067, 8902, 8902, 8902, 1274, 11264};
    for (chess_variant v = CHESS_VARIANT_CHESS; v <= CHESS_VARIANT_RACING_KINGS; v++) {
        VariantPosition pos(v);
        CHECK(pos.variant() == v && pos.perft(3) == depth3[v]);
        CHECK(VariantPosition::variant_from_name(pos.variant_name()) == v);
        CHECK(VariantPosition::from_fen(v, pos.fen()).fen() == pos.fen());
    }
    CHECK(VariantPosition::variant_from_name("koth") == CHESS_VARIANT_KING_OF_THE_HILL);
    CHECK_THROWS(VariantPosition::variant_from_name("shogi"), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_THROWS(VariantPosition(9), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_THROWS(VariantPosition::from_fen(CHESS_VARIANT_THREE_CHECK, "8/8/8/8/8/8/8/K6k w - - 7+1 0 1"),
                 CHESS_ERR_VARIANT_CHECKS);

    VariantPosition zh(CHESS_VARIANT_CRAZYHOUSE);
    for (const char *san : {"e4", "d5", "exd5", "Qxd5", "Nc3", "Qxg2", "Bxg2"}) {
        zh.play_san(san);
    }
    VariantPosition before = zh;
    Move drop = zh.play_uci("P@e3");
    CHECK(before.san(drop) == "@e3" && before.uci(drop) == "P@e3" && before.parse_san("P@e3") == drop);
    CHECK(zh.pocket(CHESS_WHITE, CHESS_QUEEN) == 1 && zh.pocket(CHESS_WHITE, CHESS_PAWN) == 1 && zh.pocket(CHESS_BLACK, CHESS_PAWN) == 1);
    CHECK(before.pocket(CHESS_BLACK, CHESS_PAWN) == 2 && zh.turn() == CHESS_WHITE);
    CHECK(zh.fen() == "rnb1kbnr/ppp1pppp/8/8/8/2N1p3/PPPP1PBP/R1BQK1NR[QPp] w KQkq - 1 5");
    CHECK(zh.piece_at(20) == CHESS_BLACK_PAWN && zh.setup().board[20] == CHESS_BLACK_PAWN);
    CHECK_THROWS(zh.play(drop), CHESS_ERR_ILLEGAL_MOVE);
    CHECK_THROWS(chesscore::Position().play(drop), CHESS_ERR_ILLEGAL_MOVE);
    std::vector<Move> moves = zh.legal_moves();
    CHECK(moves.size() > 30 && std::find(moves.begin(), moves.end(), zh.parse_san("Q@e2")) != moves.end());
    before = std::move(zh);
    CHECK(zh.get() == nullptr && before.fen().find("[QPp]") != std::string::npos);

    VariantPosition three = VariantPosition::from_fen(
        CHESS_VARIANT_THREE_CHECK, "r1bq1bnr/pppp1k1p/2n3p1/4p2Q/4P3/8/PPPP1PPP/RNB1K1NR w KQ - 0 5 +2+0");
    CHECK(three.remaining_checks(CHESS_WHITE) == 1 && three.remaining_checks(CHESS_BLACK) == 3);
    CHECK(three.san(three.parse_san("Qxg6")) == "Qxg6#");
    three.play_san("Qxg6");
    chess_outcome outcome = three.outcome();
    CHECK(outcome.result == CHESS_RESULT_WHITE_WINS && outcome.termination == CHESS_TERMINATION_VARIANT_LOSS);
    CHECK(three.is_check() && three.is_variant_end() && three.legal_moves().empty());

    // Variant games: built from a position, read from PGN among chess games, positions per node.
    chesscore::Game koth{VariantPosition(CHESS_VARIANT_KING_OF_THE_HILL)};
    for (const char *san : {"d4", "e5", "dxe5", "Ke7", "Kd2", "Ke6", "Kd3", "Kxe5"}) {
        koth.push_san(san);
    }
    CHECK(koth.variant() == CHESS_VARIANT_KING_OF_THE_HILL && koth.san_moves() == "d4 e5 dxe5 Ke7 Kd2 Ke6 Kd3 Kxe5#");
    chess_outcome ended = koth.outcome();
    CHECK(ended.result == CHESS_RESULT_BLACK_WINS && ended.termination == CHESS_TERMINATION_VARIANT_LOSS);
    CHECK_THROWS(koth.position(), CHESS_ERR_NULL_POINTER);
    std::string text = koth.to_pgn() + "\n1. e4 *\n";
    chesscore::PgnReader reader = chesscore::PgnReader::from_string(text);
    chesscore::PgnOptions options;
    options.variants = true;
    reader.set_options(options);
    std::optional<chesscore::Game> read = reader.next();
    CHECK(read && read->variant() == CHESS_VARIANT_KING_OF_THE_HILL && read->san_moves() == koth.san_moves());
    int plies = 0;
    for (chesscore::Node node : read->mainline()) {
        plies++;
        CHECK_THROWS(node.position(), CHESS_ERR_VARIANT_GAME);
        if (plies == 8) {
            CHECK(node.variant_position().fen() == "rnbq1bnr/pppp1ppp/8/4k3/8/3K4/PPP1PPPP/RNBQ1BNR w - - 0 5");
        }
    }
    CHECK(plies == 8);
    read = reader.next();
    CHECK(read && read->variant() == CHESS_VARIANT_CHESS && read->position().fen().rfind("rnbqkbnr", 0) == 0);
}

// Variant EPD records (a crazyhouse drop as bm, the position lent by the record) and variant
// pictures (pockets, check counters).
static void variant_epd_and_svg() {
    using chesscore::VariantPosition;
    const char *line = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] w KQkq - bm Q@e2;";
    Epd record = Epd::parse_variant(CHESS_VARIANT_CRAZYHOUSE, line);
    VariantPosition pos = record.variant_position();
    CHECK(record.str() == line && pos.pocket(CHESS_WHITE, CHESS_QUEEN) == 1);
    CHECK(record.moves("bm") == std::vector<Move>{pos.parse_san("Q@e2")});
    CHECK_THROWS(record.position(), CHESS_ERR_NULL_POINTER);
    CHECK_THROWS(Epd::parse(line), CHESS_ERR_FEN_PIECE_LETTER);
    CHECK_THROWS(Epd::parse("8/8/8/8/8/8/8/K6k w - -").variant_position(), CHESS_ERR_NULL_POINTER);
    CHECK_THROWS(Epd::parse_variant(CHESS_VARIANT_ATOMIC, line), CHESS_ERR_VARIANT_POCKET);
    CHECK_THROWS(Epd::parse_variant(42, line), CHESS_ERR_INVALID_ARGUMENT);
    Epd chess = Epd::parse_variant(CHESS_VARIANT_CHESS, "8/8/8/8/8/8/8/K6k w - - bm Kb2;");
    CHECK(chess.position().fen() == "8/8/8/8/8/8/8/K6k w - - 0 1");

    std::string svg = pos.to_svg();
    CHECK(svg.find("chess:pocket=\"w\" chess:piece=\"Q\" chess:count=\"1\"") != std::string::npos);
    VariantPosition three(CHESS_VARIANT_THREE_CHECK);
    chess_svg_options options{};
    options.flags = CHESS_SVG_FLIPPED;
    CHECK(three.to_svg(options).find("chess:checks=\"b\" chess:remaining=\"3\"") != std::string::npos);
    options.flags = 1u << 30;
    CHECK_THROWS(three.to_svg(options), CHESS_ERR_INVALID_ARGUMENT);
}

// Syzygy tables: without any table, KvK is a draw, other material a missing table; ranking a
// game of kings alone; a directory that does not exist; a damaged table named in the error; the
// options.
static void tablebases(const char *work_dir) {
    using chesscore::Tablebase;
    Tablebase tb = Tablebase::open("");
    CHECK(tb.max_pieces() == 0);
    chesscore::Position kings = chesscore::Position::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1");
    CHECK(tb.probe_wdl(kings) == 0 && tb.probe_dtz(kings) == 0);
    chesscore::Game game(kings);
    std::vector<chesscore::RankedMove> ranked = tb.rank_moves(game);
    CHECK(ranked.size() == 5);
    for (const chesscore::RankedMove &m : ranked) {
        CHECK(m.wdl == 0 && m.dtz == 0 && m.rank == 0);
    }
    try {
        tb.probe_wdl(chesscore::Position::from_fen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"));
        CHECK(false);
    } catch (const chesscore::TablebaseError &err) {
        CHECK(err.code() == CHESS_ERR_TABLEBASE_MISSING_TABLE);
        CHECK(std::string(err.what()) == "missing table KQvK.rtbw");
    }
    Tablebase moved = std::move(tb);
    CHECK(moved.get() != nullptr && tb.get() == nullptr);
    try {
        Tablebase::open("/no/such/directory/for/tables");
        CHECK(false);
    } catch (const chesscore::Error &err) {
        CHECK(err.code() == CHESS_ERR_FILE_NOT_FOUND);
    }

    std::string dir = std::string(work_dir) + "/cxx-syzygy";
    std::filesystem::create_directories(dir);
    {
        std::ofstream(dir + "/KQvK.rtbw", std::ios::binary) << "not a table";
    }
    for (bool mmap : {false, true}) {
        Tablebase damaged = Tablebase::open(dir, chesscore::TablebaseOptions{mmap, 1});
        CHECK(damaged.max_pieces() == 3);
        try {
            damaged.probe_wdl(chesscore::Position::from_fen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"));
            CHECK(false);
        } catch (const chesscore::TablebaseError &err) {
            std::string what = err.what();
            CHECK(err.code() == CHESS_ERR_TABLEBASE_CORRUPT);
            CHECK(what.find("corrupt table " + dir + "/KQvK.rtbw: ") == 0);
        }
    }
    std::filesystem::remove_all(dir);
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        std::fprintf(stderr, "usage: %s TESTDATA_DIR WORK_DIR NODE_LIMIT [FAKE_ENGINE]\n", argv[0]);
        return 2;
    }
    if (argc == 5) {
        engines(argv[4]);
    }
    positions();
    errors();
    values();
    text_and_chess960();
    games();
    search_helpers();
    epd(argv[1]);
    files(argv[2]);
    pgn(argv[2]);
    pgn_read_error();
    tree();
    annotations();
    pgn_options();
    tree_files(argv[1], argv[2]);
    books(argv[1], argv[2]);
    binary_fen();
    tablebases(argv[2]);
    variants();
    variant_epd_and_svg();
    training_data(argv[1], argv[2]);
    unsigned long long limit = std::strtoull(argv[3], nullptr, 10);
    std::string testdata = argv[1];
    CHECK(perft_suite(testdata + "/perft/cpw6.epd", limit) >= 18);
    CHECK(perft_suite(testdata + "/perft/dev_random.epd", limit) >= 240);
    std::printf("cxx_wrapper: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
