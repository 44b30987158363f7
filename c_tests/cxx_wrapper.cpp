// The C++17 wrapper, include/chesscore.hpp: positions as values (copies, arrays, vectors, C
// interop), RAII and copy/move semantics of the handles, text in (std::string_view) and out,
// moves, errors with their codes and offsets, games, EPD records, PGN (reader from a file, a
// string and a stream, broken games as PgnError, tags, export), and perft of perft/cpw6.epd and
// perft/dev_random.epd through the wrapper's own recursions (legal_move_list with play_into over
// a std::array stack, and with copies by value and play_unchecked), at every depth up to
// NODE_LIMIT leaves.
//
// usage: cxx_wrapper TESTDATA_DIR WORK_DIR NODE_LIMIT

#include <chesscore.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
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

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s TESTDATA_DIR WORK_DIR NODE_LIMIT\n", argv[0]);
        return 2;
    }
    positions();
    errors();
    values();
    text_and_chess960();
    games();
    epd(argv[1]);
    files(argv[2]);
    pgn(argv[2]);
    pgn_read_error();
    unsigned long long limit = std::strtoull(argv[3], nullptr, 10);
    std::string testdata = argv[1];
    CHECK(perft_suite(testdata + "/perft/cpw6.epd", limit) >= 18);
    CHECK(perft_suite(testdata + "/perft/dev_random.epd", limit) >= 240);
    std::printf("cxx_wrapper: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
