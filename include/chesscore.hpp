/*
 * chesscore.hpp: a header-only C++17 wrapper over the C API of chesscore.h (MIT OR Apache-2.0).
 *
 * - Position is a value: it holds a chess_position (128 bytes) by value, so copying and
 *   assigning are plain copies that never allocate or throw, and positions live in arrays,
 *   vectors and search stacks. get() gives C code a pointer to the held chess_position, and
 *   Position(const chess_position &) copies one from C code in.
 * - Game, Epd and PgnReader own their C handle (RAII). Game copies (with its tags and
 *   annotations, chess_game_clone), all move; a moved-from object may only be assigned to or
 *   destroyed.
 * - PgnReader::next() gives std::optional<Game> (std::nullopt at the end); a broken game throws
 *   PgnError (an Error with its line, column, game number, ply and the partial game), after which
 *   next() goes on with the following game. set_options(PgnOptions) sets strict SAN, lossy text,
 *   headers only and the limits for the games after it.
 * - A game's move tree is Nodes (the game's handle and a chess_node number, copied freely):
 *   Game::root(), Node::children() (the main continuation first, then the variations) and
 *   Game::mainline() are ranges for range-for; each Node gives its move, SAN as written,
 *   comments, NAGs and position.
 * - Text goes in as std::string_view (copied into a NUL-terminated buffer, on the stack when
 *   short) and comes out as std::string; moves are Move values (the 16-bit chess_move), in a
 *   std::vector or a MoveList (a fixed array of CHESS_MAX_MOVES on the stack, for loops that must
 *   not allocate).
 * - Every failure throws chesscore::Error with the chess_error code, its message, and where the
 *   input went wrong when the C API says so (the byte of a FEN, the token of a move line).
 * - Engine runs a UCI engine (RAII; moves only): name(), options, set_option(), is_ready(),
 *   analyse() of a Position or a Game, with a callback that sees each Info as it arrives and can
 *   stop the search; the result is an Analysis (best move, ponder move, one Info per line).
 * - Book (a Polyglot opening book, move-only) looks positions up (lookup: a vector of BookEntry)
 *   and picks a move from a random number the caller draws; BookBuilder builds one from PGN files
 *   and games; a malformed book throws BookError, which names the entry at fault.
 * - Threads: as for the C API, one object may be read by many threads at once, but one that is
 *   being changed must not be used by any other thread meanwhile.
 */

#ifndef CHESSCORE_HPP
#define CHESSCORE_HPP

// MSVC reports __cplusplus as 199711L unless asked otherwise; _MSVC_LANG holds the standard.
// The rest of the header is left out below C++17, so the one error is all the compiler says.
#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 201703L
#error "chesscore.hpp needs C++17 or later (-std=c++17); C++11 and C++14 programs can use chesscore.h"
#else

#include <chesscore.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <istream>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chesscore {

/** A failed call: the chess_error code, its message, and where the input went wrong. */
class Error : public std::runtime_error {
public:
    explicit Error(chess_error code, std::optional<std::size_t> offset = std::nullopt,
                   std::optional<std::size_t> token = std::nullopt)
        : std::runtime_error(describe(code, offset, token)), code_(code), offset_(offset), token_(token) {}

    virtual ~Error() = default;
    chess_error code() const noexcept { return code_; }
    /** The C library's message for the code (what() adds the offset or token). */
    const char *message() const noexcept { return chess_error_message(code_); }
    /** The byte of a FEN (or binary FEN) where reading failed (FEN and binary FEN errors only). */
    std::optional<std::size_t> offset() const noexcept { return offset_; }
    /** The index, from 0, of the bad token of a move line (moves_from_line only). */
    std::optional<std::size_t> token() const noexcept { return token_; }

protected:
    /** An error whose what() is `what` (the PGN reader's detailed message). */
    Error(chess_error code, const std::string &what) : std::runtime_error(what), code_(code) {}

private:
    static std::string describe(chess_error code, std::optional<std::size_t> offset,
                                std::optional<std::size_t> token) {
        std::string text = chess_error_message(code);
        if (offset) {
            text += " (at byte " + std::to_string(*offset) + ")";
        }
        if (token) {
            text += " (at token " + std::to_string(*token) + ")";
        }
        return text;
    }

    chess_error code_;
    std::optional<std::size_t> offset_;
    std::optional<std::size_t> token_;
};

namespace detail {

inline void check(chess_error err) {
    if (err != CHESS_OK) {
        throw Error(err);
    }
}

/** FEN errors carry their offset; the C side writes it only for CHESS_ERR_FEN_* codes and, from a
 * binary FEN reader, CHESS_ERR_BINARY_FEN_* codes. */
inline void check_fen(chess_error err, std::size_t offset) {
    if ((err >= CHESS_ERR_FEN_EMPTY && err <= CHESS_ERR_FEN_BAD_CASTLING_RIGHTS) ||
        (err >= CHESS_ERR_BINARY_FEN_COUNTER && err <= CHESS_ERR_BINARY_FEN_EN_PASSANT_PAWN)) {
        throw Error(err, offset);
    }
    check(err);
}

/** A text argument as the NUL-terminated string the C API takes: copied on the stack when short
 * (FEN, SAN, UCI, tag names), else into a std::string. An embedded NUL would silently cut the
 * text, so it is refused. Use it within the expression or block that makes it. */
class CString {
public:
    explicit CString(std::string_view text) {
        if (text.find('\0') != std::string_view::npos) {
            throw Error(CHESS_ERR_INVALID_TEXT);
        }
        if (text.size() < small_.size()) {
            text.copy(small_.data(), text.size());
            small_[text.size()] = '\0';
            str_ = small_.data();
        } else {
            big_ = text;
            str_ = big_.c_str();
        }
    }
    CString(const CString &) = delete;
    CString &operator=(const CString &) = delete;

    const char *get() const noexcept { return str_; }

private:
    std::array<char, 128> small_;
    std::string big_;
    const char *str_;
};

template <class T>
T *not_null(T *handle) {
    if (handle == nullptr) {
        throw Error(CHESS_ERR_OUT_OF_MEMORY);
    }
    return handle;
}

/** Runs write(buf, cap, &len): first into N bytes on the stack, then, if short, into the size
 * the library asked for. */
template <std::size_t N, class Write>
std::string read_text(Write &&write) {
    char small[N];
    std::size_t len = 0;
    chess_error err = write(small, N, &len);
    if (err == CHESS_OK) {
        return std::string(small, len);
    }
    if (err != CHESS_ERR_BUFFER_TOO_SMALL) {
        throw Error(err);
    }
    std::string big(len, '\0');
    check(write(big.data(), len + 1, &len));
    return big;
}

}  // namespace detail

/** A move: the 16-bit chess_move (origin, destination, kind). Move() is no move. */
class Move {
public:
    constexpr Move() noexcept = default;
    constexpr explicit Move(chess_move raw) noexcept : raw_(raw) {}

    constexpr chess_move raw() const noexcept { return raw_; }
    constexpr bool is_none() const noexcept { return raw_ == CHESS_MOVE_NONE; }
    /** Origin square, 0 = a1 .. 63 = h8 (the king's square for castling). */
    chess_square from() const noexcept { return chess_move_from_square(raw_); }
    /** Destination square (the rook's square for castling, which is the king taking its rook). */
    chess_square to() const noexcept { return chess_move_to_square(raw_); }
    chess_move_kind kind() const noexcept { return chess_move_kind_of(raw_); }
    /** The piece a promotion makes, CHESS_NO_KIND otherwise. */
    chess_piece_kind promotion() const noexcept { return chess_move_promotion(raw_); }
    /** UCI: castling as the king's move (e1g1), or with CHESS_UCI_KING_TAKES_ROOK as the king
     * taking its rook (e1h1); Position::uci picks the position's convention. */
    std::string uci(std::uint32_t flags = 0) const {
        return detail::read_text<8>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_move_to_uci_with(raw_, flags, buf, cap, len);
        });
    }

    friend constexpr bool operator==(Move a, Move b) noexcept { return a.raw_ == b.raw_; }
    friend constexpr bool operator!=(Move a, Move b) noexcept { return a.raw_ != b.raw_; }
    friend constexpr bool operator<(Move a, Move b) noexcept { return a.raw_ < b.raw_; }

private:
    chess_move raw_ = CHESS_MOVE_NONE;
};

/** Moves in a fixed array of CHESS_MAX_MOVES: filling one never allocates. */
class MoveList {
public:
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Move;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Move;

        const_iterator() = default;
        Move operator*() const noexcept { return Move(*at_); }
        Move operator[](difference_type n) const noexcept { return Move(at_[n]); }
        const_iterator &operator++() noexcept { ++at_; return *this; }
        const_iterator operator++(int) noexcept { const_iterator old = *this; ++at_; return old; }
        const_iterator &operator--() noexcept { --at_; return *this; }
        const_iterator operator--(int) noexcept { const_iterator old = *this; --at_; return old; }
        const_iterator &operator+=(difference_type n) noexcept { at_ += n; return *this; }
        const_iterator &operator-=(difference_type n) noexcept { at_ -= n; return *this; }
        friend const_iterator operator+(const_iterator it, difference_type n) noexcept { return it += n; }
        friend const_iterator operator+(difference_type n, const_iterator it) noexcept { return it += n; }
        friend const_iterator operator-(const_iterator it, difference_type n) noexcept { return it -= n; }
        friend difference_type operator-(const_iterator a, const_iterator b) noexcept { return a.at_ - b.at_; }
        friend bool operator==(const_iterator a, const_iterator b) noexcept { return a.at_ == b.at_; }
        friend bool operator!=(const_iterator a, const_iterator b) noexcept { return a.at_ != b.at_; }
        friend bool operator<(const_iterator a, const_iterator b) noexcept { return a.at_ < b.at_; }
        friend bool operator>(const_iterator a, const_iterator b) noexcept { return a.at_ > b.at_; }
        friend bool operator<=(const_iterator a, const_iterator b) noexcept { return a.at_ <= b.at_; }
        friend bool operator>=(const_iterator a, const_iterator b) noexcept { return a.at_ >= b.at_; }

    private:
        friend class MoveList;
        explicit const_iterator(const chess_move *at) noexcept : at_(at) {}
        const chess_move *at_ = nullptr;
    };

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    Move operator[](std::size_t i) const noexcept { return Move(moves_[i]); }
    const_iterator begin() const noexcept { return const_iterator(moves_.data()); }
    const_iterator end() const noexcept { return const_iterator(moves_.data() + size_); }
    /** The raw moves, for C functions. */
    const chess_move *data() const noexcept { return moves_.data(); }
    bool contains(Move mv) const noexcept {
        for (std::size_t i = 0; i < size_; i++) {
            if (moves_[i] == mv.raw()) {
                return true;
            }
        }
        return false;
    }

private:
    friend class Position;
    std::array<chess_move, CHESS_MAX_MOVES> moves_;
    std::size_t size_ = 0;
};

namespace detail {

inline std::vector<Move> to_vector(const chess_move *moves, std::size_t count) {
    std::vector<Move> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; i++) {
        out.emplace_back(moves[i]);
    }
    return out;
}

}  // namespace detail

/** The name of a square (0 = a1 .. 63 = h8), such as "e4". */
inline std::string square_name(chess_square square) {
    return detail::read_text<4>([&](char *buf, std::size_t cap, std::size_t *len) {
        return chess_square_name(square, buf, cap, len);
    });
}

/** The index of a square name ("a1" .. "h8"). */
inline chess_square parse_square(std::string_view name) {
    chess_square square = CHESS_NO_SQUARE;
    detail::check(chess_square_parse(detail::CString(name).get(), &square));
    return square;
}

/** A colour for chess_svg_options, 0xRRGGBBAA: "#rgb", "#rgba", "#rrggbb", "#rrggbbaa" or one of
 * the arrow colours "green", "red", "blue", "yellow". */
inline std::uint32_t svg_color(std::string_view text) {
    std::uint32_t color = 0;
    detail::check(chess_svg_parse_color(detail::CString(text).get(), &color));
    return color;
}

/** The library's run-time version (CHESS_VERSION_STRING is the header's). */
inline std::string version() { return chess_version(); }

/** The library's run-time version as a number, MAJOR * 10000 + MINOR * 100 + PATCH
 * (CHESS_VERSION_NUMBER is the header's). */
inline std::uint32_t version_number() noexcept { return chess_version_number(); }

/** A position: a chess_position held by value. Copies are plain copies (no allocation, no
 * exception), so positions may live in arrays, vectors and search stacks. */
class Position {
public:
    /** The standard starting position. */
    Position() noexcept { chess_position_init(&pos_); }
    /** A copy of a position from C code (one a game or an EPD record owns, or one C code holds). */
    explicit Position(const chess_position &pos) noexcept : pos_(pos) {}

    /** Reads a FEN (4 to 6 fields) as chess_fen_parse_with does: `flags` combines the
     * CHESS_FEN_* reading flags (0: standard chess, strict). `info`, when given, receives what the
     * drop flags removed (this function sets its size). Error carries the byte offset of a FEN
     * error. */
    static Position from_fen(std::string_view fen, std::uint32_t flags = 0, chess_fen_info *info = nullptr) {
        return read_fen(
            [&](chess_position *dst, chess_fen_info *out) {
                return chess_fen_parse_with(detail::CString(fen).get(), flags, dst, out);
            },
            info);
    }

    /** Reads a Chess960 FEN (X-FEN or Shredder-FEN castling); the position is in Chess960 mode. */
    static Position from_fen_chess960(std::string_view fen) { return from_fen(fen, CHESS_FEN_CHESS960); }

    /** Builds a position from the six FEN fields given separately. */
    static Position from_components(std::string_view placement, std::string_view side_to_move,
                                    std::string_view castling, std::string_view en_passant,
                                    std::string_view halfmove_clock, std::string_view fullmove_number) {
        return read_fen([&](chess_position *dst, chess_fen_info *out) {
            return chess_fen_from_components(detail::CString(placement).get(), detail::CString(side_to_move).get(),
                                             detail::CString(castling).get(), detail::CString(en_passant).get(),
                                             detail::CString(halfmove_clock).get(),
                                             detail::CString(fullmove_number).get(), dst, out);
        });
    }

    /** Reads the first non-empty line of a FEN file. */
    static Position from_fen_file(std::string_view path) {
        return read_fen([&](chess_position *dst, chess_fen_info *out) {
            return chess_fen_read_file(detail::CString(path).get(), dst, out);
        });
    }

    /** Reads a binary FEN as chess_binary_fen_parse_with does (`flags` and `info` as for
     * from_fen). Error carries the byte offset of malformed bytes, or of the piece an invalid
     * position concerns. */
    static Position from_binary_fen(const std::uint8_t *bytes, std::size_t len, std::uint32_t flags = 0,
                                    chess_fen_info *info = nullptr) {
        return read_fen(
            [&](chess_position *dst, chess_fen_info *out) {
                return chess_binary_fen_parse_with(bytes, len, flags, dst, out);
            },
            info);
    }
    static Position from_binary_fen(const std::vector<std::uint8_t> &bytes, std::uint32_t flags = 0) {
        return from_binary_fen(bytes.data(), bytes.size(), flags);
    }

    /** Chess960 start position `number` (0 to 959; 518 is the standard arrangement). */
    static Position chess960(std::uint32_t number) {
        Position pos;
        detail::check(chess_position_init_chess960(&pos.pos_, number));
        return pos;
    }

    /** The held chess_position, for C functions; valid as long as this object. */
    const chess_position *get() const noexcept { return &pos_; }
    chess_position *get() noexcept { return &pos_; }

    /** The FEN: en passant only when the capture is legal, castling KQkq (X-FEN in Chess960), or
     * as the CHESS_FEN_WRITE_* `flags` ask. */
    std::string fen(std::uint32_t flags = 0) const {
        return detail::read_text<CHESS_FEN_MAX>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_fen_write_with(&pos_, flags, buf, cap, len);
        });
    }

    /** The position in binary FEN (at most CHESS_BINARY_FEN_MAX bytes; 24 for a legal position
     * with clocks 0 1), the en passant square only when the capture is legal. */
    std::vector<std::uint8_t> to_binary_fen() const {
        std::uint8_t bytes[CHESS_BINARY_FEN_MAX];
        std::size_t len = 0;
        detail::check(chess_position_to_binary_fen(&pos_, bytes, sizeof bytes, &len));
        return std::vector<std::uint8_t>(bytes, bytes + len);
    }

    /** The board as text: CHESS_TEXT_BOARD (8 rows of 8 characters, rank 8 first, a space for an
     * empty square, joined by "\n"), CHESS_TEXT_ASCII (with coordinates, '.' for empty squares)
     * or CHESS_TEXT_UNICODE (with the Unicode chess symbols, UTF-8). */
    std::string to_text(std::uint32_t style = CHESS_TEXT_BOARD) const {
        return detail::read_text<256>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_position_to_text(&pos_, style, buf, cap, len);
        });
    }

    /** The board as a standalone SVG 1.1 picture, as chess_position_to_svg draws it with
     * `options` (zero-initialised: the defaults; this function sets its size). */
    std::string to_svg(chess_svg_options options = chess_svg_options{}) const {
        options.size = sizeof options;
        return detail::read_text<16384>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_position_to_svg(&pos_, &options, buf, cap, len);
        });
    }

    std::vector<Move> legal_moves() const {
        chess_move moves[CHESS_MAX_MOVES];
        return detail::to_vector(moves, chess_legal_moves(&pos_, moves, CHESS_MAX_MOVES));
    }
    /** The legal moves without allocating. */
    MoveList legal_move_list() const {
        MoveList list;
        list.size_ = chess_legal_moves(&pos_, list.moves_.data(), list.moves_.size());
        return list;
    }
    std::size_t legal_move_count() const { return chess_legal_moves(&pos_, nullptr, 0); }
    std::vector<Move> pseudo_legal_moves() const {
        chess_move moves[CHESS_MAX_MOVES];
        return detail::to_vector(moves, chess_pseudo_legal_moves(&pos_, moves, CHESS_MAX_MOVES));
    }
    /** The legal moves of the piece on `square`. */
    std::vector<Move> legal_moves_from(chess_square square) const {
        chess_move moves[CHESS_MAX_MOVES];
        return detail::to_vector(moves, chess_legal_moves_from(&pos_, square, moves, CHESS_MAX_MOVES));
    }
    bool is_legal(Move mv) const noexcept { return chess_position_is_legal(&pos_, mv.raw()); }
    /** Search stages: the legal captures (en passant included) and every promotion... */
    MoveList capture_list() const noexcept {
        MoveList list;
        list.size_ = chess_legal_captures(&pos_, list.moves_.data(), list.moves_.size());
        return list;
    }
    /** ... and every other legal move, castling included: together, the legal moves. */
    MoveList quiet_list() const noexcept {
        MoveList list;
        list.size_ = chess_legal_quiets(&pos_, list.moves_.data(), list.moves_.size());
        return list;
    }
    bool has_legal_moves() const noexcept { return chess_position_has_legal_moves(&pos_); }
    /** True when `mv`, any value (from a hash table, say), follows the movement rules here. */
    bool is_pseudo_legal(Move mv) const noexcept { return chess_position_is_pseudo_legal(&pos_, mv.raw()); }
    /** True when the legal move `mv` checks the other king. */
    bool gives_check(Move mv) const noexcept { return chess_position_gives_check(&pos_, mv.raw()); }
    /** The static exchange value of the legal move `mv` in centipawns (see chess_position_see). */
    std::int32_t see(Move mv) const noexcept { return chess_position_see(&pos_, mv.raw()); }
    bool see_ge(Move mv, std::int32_t threshold) const noexcept {
        return chess_position_see_ge(&pos_, mv.raw(), threshold);
    }
    /** The key after the legal move `mv`, without playing it. */
    std::uint64_t zobrist_after(Move mv) const noexcept { return chess_position_zobrist_after(&pos_, mv.raw()); }

    /** SAN with its check or mate suffix. */
    std::string san(Move mv) const {
        return detail::read_text<CHESS_SAN_MAX>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_move_to_san(&pos_, mv.raw(), buf, cap, len);
        });
    }
    /** UCI in this position's convention (king takes rook for castling in Chess960). */
    std::string uci(Move mv) const { return mv.uci(is_chess960() ? CHESS_UCI_KING_TAKES_ROOK : 0); }
    /** The legal move a UCI text names (e1g1 and e1h1 both castle in standard chess). */
    Move parse_uci(std::string_view uci) const {
        chess_move mv = CHESS_MOVE_NONE;
        detail::check(chess_move_from_uci(&pos_, detail::CString(uci).get(), &mv));
        return Move(mv);
    }
    /** The legal move a SAN names: lenient by default, or as CHESS_SAN_STRICT and
     * CHESS_SAN_ALLOW_NULL ask. */
    Move parse_san(std::string_view san, std::uint32_t flags = 0) const {
        chess_move mv = CHESS_MOVE_NONE;
        detail::check(chess_move_from_san_with(&pos_, detail::CString(san).get(), flags, &mv));
        return Move(mv);
    }

    /** Plays a legal move; throws (position unchanged) for any other. */
    void play(Move mv) { detail::check(chess_position_play(&pos_, mv.raw())); }
    /** Plays one of this position's legal moves without checking it (the fast path). */
    void play_unchecked(Move mv) noexcept { chess_position_play_unchecked(&pos_, mv.raw()); }
    /** Copy-make: `dst` becomes this position with `mv` played unchecked (`dst` may be this one). */
    void play_into(Move mv, Position &dst) const noexcept { chess_position_play_into(&pos_, mv.raw(), &dst.pos_); }
    Move play_uci(std::string_view uci) {
        Move mv = parse_uci(uci);
        play(mv);
        return mv;
    }
    Move play_san(std::string_view san) {
        Move mv = parse_san(san);
        play(mv);
        return mv;
    }
    /** Passes the turn; throws while in check. */
    void play_null() { detail::check(chess_position_play_null(&pos_)); }
    /** A copy with the legal move `mv` played; throws for any other. */
    Position after(Move mv) const {
        Position next(*this);
        next.play(mv);
        return next;
    }

    std::uint64_t perft(std::uint32_t depth) const { return chess_perft(&pos_, depth); }
    /** Perft split by first move: each legal move with the leaves below it. */
    std::vector<std::pair<Move, std::uint64_t>> perft_divide(std::uint32_t depth) const {
        chess_move moves[CHESS_MAX_MOVES];
        std::uint64_t counts[CHESS_MAX_MOVES];
        std::size_t n = chess_perft_divide(&pos_, depth, moves, counts, CHESS_MAX_MOVES);
        std::vector<std::pair<Move, std::uint64_t>> out;
        out.reserve(n);
        for (std::size_t i = 0; i < n; i++) {
            out.emplace_back(Move(moves[i]), counts[i]);
        }
        return out;
    }

    std::uint64_t zobrist() const noexcept { return chess_position_zobrist(&pos_); }
    chess_color turn() const noexcept { return chess_position_turn(&pos_); }
    /** A set of CHESS_CASTLING_* bits. */
    unsigned castling_rights() const noexcept { return chess_position_castling_rights(&pos_); }
    /** The en passant square under `mode`, or CHESS_NO_SQUARE. */
    chess_square en_passant(chess_ep_mode mode = CHESS_EP_LEGAL) const noexcept {
        return chess_position_en_passant(&pos_, mode);
    }
    std::uint32_t halfmove_clock() const noexcept { return chess_position_halfmove_clock(&pos_); }
    std::uint32_t fullmove_number() const noexcept { return chess_position_fullmove_number(&pos_); }
    chess_piece piece_at(chess_square square) const noexcept { return chess_position_piece_at(&pos_, square); }
    std::uint64_t pieces(chess_color color, chess_piece_kind kind) const noexcept {
        return chess_position_pieces(&pos_, color, kind);
    }
    std::uint64_t occupancy() const noexcept { return chess_position_occupancy(&pos_); }
    std::uint64_t occupancy(chess_color color) const noexcept { return chess_position_color_occupancy(&pos_, color); }
    chess_square king_square(chess_color color) const noexcept { return chess_position_king_square(&pos_, color); }
    std::uint64_t attackers_to(chess_square square, chess_color by) const noexcept {
        return chess_position_attackers_to(&pos_, square, by);
    }
    std::uint64_t checkers() const noexcept { return chess_position_checkers(&pos_); }
    std::uint64_t pinned() const noexcept { return chess_position_pinned(&pos_); }
    /** Every square a piece of `by` attacks. */
    std::uint64_t attacks_by(chess_color by) const noexcept { return chess_position_attacks_by(&pos_, by); }
    /** The squares from which a piece of `kind` of the side to move would check the other king. */
    std::uint64_t check_squares(chess_piece_kind kind) const noexcept {
        return chess_position_check_squares(&pos_, kind);
    }

    bool in_check() const noexcept { return chess_position_in_check(&pos_); }
    bool is_checkmate() const noexcept { return chess_position_is_checkmate(&pos_); }
    bool is_stalemate() const noexcept { return chess_position_is_stalemate(&pos_); }
    bool is_insufficient_material() const noexcept { return chess_position_is_insufficient_material(&pos_); }
    bool is_fifty_moves() const noexcept { return chess_position_is_fifty_moves(&pos_); }
    bool can_claim_fifty_moves() const noexcept { return chess_position_can_claim_fifty_moves(&pos_); }
    bool is_seventy_five_moves() const noexcept { return chess_position_is_seventy_five_moves(&pos_); }
    bool is_chess960() const noexcept { return chess_position_is_chess960(&pos_); }
    /** The Chess960 start arrangement (0 to 959) the pieces stand in, or -1. */
    std::int32_t chess960_number() const noexcept { return chess_position_chess960_number(&pos_); }

    /** Same FEN (clocks included, en passant as the legal capture has it) and same mode; the
     * bytes of chess_position are private, so they are not compared. */
    friend bool operator==(const Position &a, const Position &b) {
        return a.is_chess960() == b.is_chess960() && a.fen(CHESS_FEN_WRITE_SHREDDER) == b.fen(CHESS_FEN_WRITE_SHREDDER);
    }
    friend bool operator!=(const Position &a, const Position &b) { return !(a == b); }

private:
    /** Runs a FEN reader read(dst, info) into a new position; a FEN error carries its offset. */
    template <class Read>
    static Position read_fen(Read &&read, chess_fen_info *info = nullptr) {
        chess_fen_info local{};
        chess_fen_info &out = info != nullptr ? *info : local;
        out = chess_fen_info{};
        out.size = sizeof out;
        Position pos;
        chess_error err = read(&pos.pos_, &out);  // before out.error_offset is read
        detail::check_fen(err, out.error_offset);
        return pos;
    }

    chess_position pos_;
};

namespace detail {

/** A copy of a position a game or an EPD record owns. */
inline Position copy_of(const chess_position *pos) {
    if (pos == nullptr) {
        throw Error(CHESS_ERR_NULL_POINTER);
    }
    return Position(*pos);
}

}  // namespace detail

/** Splits a FEN into its six fields (syntax checked, absent clocks filled in as 0 and 1). */
inline std::array<std::string, 6> split_fen(std::string_view fen) {
    char buf[512];
    const char *fields[6] = {};
    std::size_t len = 0;
    chess_fen_info info{};
    info.size = sizeof info;
    // FEN input is at most 256 bytes, and filling in the clocks adds 4, so 512 always suffices.
    chess_error err = chess_fen_split(detail::CString(fen).get(), buf, sizeof buf, &len, fields, &info);
    detail::check_fen(err, info.error_offset);
    std::array<std::string, 6> out;
    for (std::size_t i = 0; i < 6; i++) {
        out[i] = fields[i];
    }
    return out;
}

/** Reads a line of SAN or UCI moves from `pos` (each in the position the earlier ones reach);
 * Error::token() names the first bad one. */
inline std::vector<Move> moves_from_line(const Position &pos, std::string_view line, std::uint32_t flags = 0) {
    detail::CString text(line);
    std::size_t count = 0;
    std::size_t bad = 0;
    chess_error err = chess_moves_from_line(pos.get(), text.get(), flags, nullptr, 0, &count, &bad);
    if (err != CHESS_OK) {
        if (err == CHESS_ERR_NULL_POINTER || err == CHESS_ERR_INVALID_TEXT || err == CHESS_ERR_INVALID_ARGUMENT) {
            throw Error(err);
        }
        throw Error(err, std::nullopt, bad);
    }
    std::vector<chess_move> moves(count);
    detail::check(chess_moves_from_line(pos.get(), text.get(), flags, moves.data(), count, &count, nullptr));
    return detail::to_vector(moves.data(), count);
}

class NodeRange;
class VariantPosition;

/** A node of a game's move tree: the root (the start position) or a move, with its SAN as
 * written, comments and NAGs. A small value, the game's handle and the node number: it stays
 * valid while that handle lives (moving the Game keeps it; a copy of the Game has nodes of its
 * own) and the game's moves do not change (push, pop). A node whose number the game no longer
 * has throws Error(CHESS_ERR_INVALID_ARGUMENT). */
class Node {
public:
    /** Node `id` of a game handle, such as one from C code (checked when used). */
    Node(const chess_game *game, chess_node id) noexcept : game_(game), id_(id) {}

    const chess_game *game() const noexcept { return game_; }
    /** The chess_node number: 0 for the root, then the moves in the order read or added. */
    chess_node id() const noexcept { return id_; }
    bool is_root() const noexcept { return id_ == CHESS_NODE_ROOT; }

    /** The node before this one; std::nullopt for the root. */
    std::optional<Node> parent() const { return node_or_none(chess_node_parent(existing(), id_)); }
    /** The moves played from here: the one continuing this line first, then its variations. */
    NodeRange children() const;
    /** The move continuing this line; std::nullopt at its end. */
    std::optional<Node> main_child() const { return node_or_none(chess_node_first_child(existing(), id_)); }
    /** The children after the first: the alternatives to main_child(). */
    NodeRange variations() const;

    /** The move leading here (Move() for a null move). The root has none: it throws
     * Error(CHESS_ERR_INVALID_ARGUMENT), as san() does. */
    Move move() const {
        if (is_root()) {
            throw Error(CHESS_ERR_INVALID_ARGUMENT);
        }
        return Move(chess_node_move(existing(), id_));
    }
    /** How many moves lead here from the root (0 for the root). */
    std::uint32_t ply() const { return chess_node_ply(existing(), id_); }
    /** The move's SAN as the PGN wrote it ("Ng1f3", "e2-e4"; NAGs such as "!" apart), or as
     * Position::san writes it for a move pushed ("--" for a null move). */
    std::string san() const {
        return detail::read_text<CHESS_SAN_MAX>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_node_san(game_, id_, buf, cap, len);
        });
    }
    /** The comments after the move, in order (the root's: those before the first move). */
    std::vector<std::string> comments() const { return comments_at(CHESS_COMMENT_AFTER); }
    /** The comments before the move, as PGN writes them after a variation's "(". */
    std::vector<std::string> comments_before() const { return comments_at(CHESS_COMMENT_BEFORE); }
    /** The NAGs, in order ("!" is 1, "?" 2, "!!" 3, "??" 4, "!?" 5, "?!" 6, "$n" is n). */
    std::vector<std::uint8_t> nags() const {
        std::vector<std::uint8_t> out(chess_node_nags(existing(), id_, nullptr, 0));
        out.resize(chess_node_nags(game_, id_, out.data(), out.size()));
        return out;
    }
    /** A copy of the position reached here (the start position at the root); a chess game's
     * only (Error CHESS_ERR_VARIANT_GAME for a variant game's: see variant_position). */
    Position position() const {
        Position pos;
        detail::check(chess_node_position(game_, id_, pos.get()));
        return pos;
    }
    /** A copy of the position reached here, in a game of any variant. */
    VariantPosition variant_position() const;

    /** The clock after the move, in seconds (`[%clk 0:03:00.5]` in a comment after it: 180.5);
     * std::nullopt when there is none. */
    std::optional<double> clock() const { return seconds(&chess_node_clock); }
    /** The time the move took, in seconds (`[%emt 0:00:05]`: 5); std::nullopt when none. */
    std::optional<double> elapsed() const { return seconds(&chess_node_elapsed); }
    /** The evaluation after the move (`[%eval 0.35,18]`), from White's side; std::nullopt when
     * there is none. */
    std::optional<chess_eval> eval() const {
        chess_eval eval;
        chess_error err = chess_node_eval(existing(), id_, &eval);
        if (err == CHESS_END) {
            return std::nullopt;
        }
        detail::check(err);
        return eval;
    }
    /** The highlighted squares (`[%csl Ga4,Rb5]` after the move), in order. */
    std::vector<chess_highlight> highlights() const {
        std::vector<chess_highlight> out(chess_node_highlights(existing(), id_, nullptr, 0));
        out.resize(chess_node_highlights(game_, id_, out.data(), out.size()));
        return out;
    }
    /** The arrows (`[%cal Ge2e4]` after the move), in order. */
    std::vector<chess_arrow> arrows() const {
        std::vector<chess_arrow> out(chess_node_arrows(existing(), id_, nullptr, 0));
        out.resize(chess_node_arrows(game_, id_, out.data(), out.size()));
        return out;
    }
    /** The comments after the move without their commands, joined by a space. */
    std::string comment_text() const {
        return detail::read_text<256>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_node_comment_text(existing(), id_, buf, cap, len);
        });
    }

    friend bool operator==(Node a, Node b) noexcept { return a.game_ == b.game_ && a.id_ == b.id_; }
    friend bool operator!=(Node a, Node b) noexcept { return !(a == b); }

private:
    // The navigation and counting functions answer "none" for a node the game does not have,
    // which would pass for a leaf without comments: such a node is refused first.
    const chess_game *existing() const {
        if (id_ >= chess_node_count(game_)) {
            throw Error(CHESS_ERR_INVALID_ARGUMENT);
        }
        return game_;
    }
    std::optional<Node> node_or_none(chess_node id) const {
        if (id == CHESS_NODE_NONE) {
            return std::nullopt;
        }
        return Node(game_, id);
    }
    std::optional<double> seconds(chess_error (*read)(const chess_game *, chess_node, double *)) const {
        double value;
        chess_error err = read(existing(), id_, &value);
        if (err == CHESS_END) {
            return std::nullopt;
        }
        detail::check(err);
        return value;
    }
    std::vector<std::string> comments_at(chess_comment_place place) const {
        std::size_t count = chess_node_comment_count(existing(), id_, place);
        std::vector<std::string> out;
        out.reserve(count);
        for (std::size_t i = 0; i < count; i++) {
            out.push_back(detail::read_text<256>([&](char *buf, std::size_t cap, std::size_t *len) {
                return chess_node_comment(game_, id_, place, i, buf, cap, len);
            }));
        }
        return out;
    }

    const chess_game *game_;
    chess_node id_;
};

/** Nodes of one game for range-for: a node's children or variations (each the next sibling of
 * the one before) or a game's main line (each the first child of the one before). Valid as the
 * nodes are. */
class NodeRange {
    using Step = decltype(&chess_node_next_sibling);

public:
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Node;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Node;

        iterator() = default;
        Node operator*() const noexcept { return Node(game_, at_); }
        iterator &operator++() noexcept { at_ = step_(game_, at_); return *this; }
        iterator operator++(int) noexcept { iterator old = *this; ++*this; return old; }
        friend bool operator==(iterator a, iterator b) noexcept { return a.game_ == b.game_ && a.at_ == b.at_; }
        friend bool operator!=(iterator a, iterator b) noexcept { return !(a == b); }

    private:
        friend class NodeRange;
        iterator(const chess_game *game, chess_node at, Step step) noexcept : game_(game), at_(at), step_(step) {}
        const chess_game *game_ = nullptr;
        chess_node at_ = CHESS_NODE_NONE;
        Step step_ = nullptr;
    };

    iterator begin() const noexcept { return iterator(game_, first_, step_); }
    iterator end() const noexcept { return iterator(game_, CHESS_NODE_NONE, step_); }
    bool empty() const noexcept { return first_ == CHESS_NODE_NONE; }

private:
    friend class Node;
    friend class Game;
    NodeRange(const chess_game *game, chess_node first, Step step) noexcept : game_(game), first_(first), step_(step) {}

    const chess_game *game_;
    chess_node first_;
    Step step_;
};

inline NodeRange Node::children() const {
    return NodeRange(game_, chess_node_first_child(existing(), id_), &chess_node_next_sibling);
}

inline NodeRange Node::variations() const {
    chess_node first = chess_node_first_child(existing(), id_);
    return NodeRange(game_, chess_node_next_sibling(game_, first), &chess_node_next_sibling);
}

/** A game: a start position, the moves played and the positions they reached, with PGN tags
 * (and, read from PGN, comments, NAGs and variations); an owned chess_game handle. Copying clones
 * all of it. */
class Game {
public:
    /** A game from the standard starting position. */
    Game() : handle_(detail::not_null(chess_game_new(nullptr))) {}
    explicit Game(const Position &start) : handle_(detail::not_null(chess_game_new(start.get()))) {}
    /** A game of `start`'s variant (a chess game for CHESS_VARIANT_CHESS and _CHESS960). A
     * variant game's positions come from Node::variant_position: position(), start() and
     * position_at() throw Error CHESS_ERR_NULL_POINTER for it. */
    explicit Game(const VariantPosition &start);

    /** The rules played (CHESS_VARIANT_CHESS or _CHESS960 for a chess game). */
    chess_variant variant() const noexcept { return chess_game_variant(handle_); }

    /** Takes ownership of a handle from the C API. */
    static Game adopt(chess_game *owned) noexcept { return Game(owned); }

    Game(const Game &other)
        : handle_(other.handle_ == nullptr ? nullptr : detail::not_null(chess_game_clone(other.handle_))) {}
    Game(Game &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Game &operator=(const Game &other) {
        if (this != &other) {
            *this = Game(other);
        }
        return *this;
    }
    Game &operator=(Game &&other) noexcept {
        if (this != &other) {
            chess_game_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Game() { chess_game_free(handle_); }

    const chess_game *get() const noexcept { return handle_; }
    chess_game *get() noexcept { return handle_; }
    chess_game *release() noexcept { return std::exchange(handle_, nullptr); }

    /** Plays a legal move (Move() is the null move, when allowed); throws otherwise. */
    void push(Move mv) { detail::check(chess_game_push(handle_, mv.raw())); }
    Move push_san(std::string_view san) {
        chess_move mv = CHESS_MOVE_NONE;
        detail::check(chess_game_push_san(handle_, detail::CString(san).get(), &mv));
        return Move(mv);
    }
    Move push_uci(std::string_view uci) {
        chess_move mv = CHESS_MOVE_NONE;
        detail::check(chess_game_push_uci(handle_, detail::CString(uci).get(), &mv));
        return Move(mv);
    }
    /** Takes back the last move; throws CHESS_ERR_EMPTY_HISTORY when there is none. */
    Move pop() {
        chess_move mv = CHESS_MOVE_NONE;
        detail::check(chess_game_pop(handle_, &mv));
        return Move(mv);
    }

    /** A copy of the current position. */
    Position position() const { return detail::copy_of(chess_game_position(handle_)); }
    Position start() const { return detail::copy_of(chess_game_start(handle_)); }
    /** A copy of the position after `ply` moves (0: the start). */
    Position position_at(std::size_t ply) const {
        const chess_position *pos = chess_game_position_at(handle_, ply);
        if (pos == nullptr) {
            throw Error(CHESS_ERR_INVALID_ARGUMENT);
        }
        return detail::copy_of(pos);
    }
    std::vector<Move> moves() const {
        std::vector<chess_move> raw(chess_game_moves(handle_, nullptr, 0));
        raw.resize(chess_game_moves(handle_, raw.data(), raw.size()));
        return detail::to_vector(raw.data(), raw.size());
    }
    std::size_t ply_count() const noexcept { return chess_game_ply_count(handle_); }
    /** The moves as one line of SAN ("e4 e5 Nf3"). */
    std::string san_moves() const {
        return detail::read_text<1024>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_game_san_moves(handle_, buf, cap, len);
        });
    }

    /** The root of the move tree, the start position (see Node for how long nodes are valid). */
    Node root() const noexcept { return Node(handle_, CHESS_NODE_ROOT); }
    /** The main line's nodes, first move to last (the root left out). */
    NodeRange mainline() const noexcept {
        return NodeRange(handle_, chess_node_first_child(handle_, CHESS_NODE_ROOT), &chess_node_first_child);
    }
    /** The nodes of the move tree: the moves of the main line and the variations, plus the root. */
    std::size_t node_count() const noexcept { return chess_node_count(handle_); }

    void set_allow_null_moves(bool allow) noexcept { chess_game_set_allow_null_moves(handle_, allow); }
    bool allows_null_moves() const noexcept { return chess_game_allows_null_moves(handle_); }

    chess_outcome outcome() const noexcept { return chess_game_outcome(handle_); }
    chess_termination claimable_draw() const noexcept { return chess_game_claimable_draw(handle_); }
    std::size_t repetition_count() const noexcept { return chess_game_repetition_count(handle_); }
    /** The current position occurred before since the last irreversible move (a search's draw test). */
    bool is_repetition() const noexcept { return chess_game_is_repetition(handle_); }
    bool is_threefold_repetition() const noexcept { return chess_game_is_threefold_repetition(handle_); }
    bool is_fivefold_repetition() const noexcept { return chess_game_is_fivefold_repetition(handle_); }
    bool can_claim_threefold_repetition() const noexcept {
        return chess_game_can_claim_threefold_repetition(handle_);
    }

    /** The value of the tag `name` (UTF-8, as read), or std::nullopt. */
    std::optional<std::string> tag(std::string_view name) const {
        detail::CString c_name(name);
        char small[64];
        std::size_t len = 0;
        chess_error err = chess_game_tag(handle_, c_name.get(), small, sizeof small, &len);
        if (err == CHESS_ERR_PGN_TAG_NOT_FOUND) {
            return std::nullopt;
        }
        if (err == CHESS_OK) {
            return std::string(small, len);
        }
        if (err != CHESS_ERR_BUFFER_TOO_SMALL) {
            throw Error(err);
        }
        std::string big(len, '\0');
        detail::check(chess_game_tag(handle_, c_name.get(), big.data(), len + 1, &len));
        return big;
    }
    /** Every tag as (name, value), in order. */
    std::vector<std::pair<std::string, std::string>> tags() const {
        std::vector<std::pair<std::string, std::string>> out;
        std::size_t count = chess_game_tag_count(handle_);
        for (std::size_t i = 0; i < count; i++) {
            std::size_t name_len = 0;
            std::size_t value_len = 0;
            chess_error err = chess_game_tag_at(handle_, i, nullptr, 0, &name_len, nullptr, 0, &value_len);
            if (err != CHESS_ERR_BUFFER_TOO_SMALL) {
                throw Error(err);
            }
            std::string name(name_len, '\0');
            std::string value(value_len, '\0');
            detail::check(chess_game_tag_at(handle_, i, name.data(), name_len + 1, &name_len, value.data(),
                                            value_len + 1, &value_len));
            out.emplace_back(std::move(name), std::move(value));
        }
        return out;
    }
    /** Sets a tag (not FEN, SetUp or Variant, which follow the start position). */
    void set_tag(std::string_view name, std::string_view value) {
        detail::check(chess_game_set_tag(handle_, detail::CString(name).get(), detail::CString(value).get()));
    }
    /** Removes a tag; false when there was none. */
    bool remove_tag(std::string_view name) {
        chess_error err = chess_game_remove_tag(handle_, detail::CString(name).get());
        if (err == CHESS_ERR_PGN_TAG_NOT_FOUND) {
            return false;
        }
        detail::check(err);
        return true;
    }
    /** The recorded result (movetext token, else Result tag, else ongoing): what to_pgn writes. */
    chess_result result() const noexcept { return chess_game_result(handle_); }
    /** The game as export PGN (Seven Tag Roster, 80-column movetext with annotations). */
    std::string to_pgn() const {
        return detail::read_text<1024>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_game_to_pgn(handle_, buf, cap, len);
        });
    }

private:
    explicit Game(chess_game *owned) noexcept : handle_(owned) {}

    chess_game *handle_;
};

/** A position of one of the lichess variants (or chess, Chess960); an owned
 * chess_variant_position handle. Copying clones it. Moves are chess_move values, drops and
 * antichess promotions to a king included (bit 15); play them here, never on a Position. */
class VariantPosition {
public:
    /** The start position of `variant` (a CHESS_VARIANT_* value). */
    explicit VariantPosition(chess_variant variant = CHESS_VARIANT_CHESS) : handle_(make(variant, nullptr)) {}
    /** Reads a FEN of `variant` (python-chess's and lichess's forms). */
    static VariantPosition from_fen(chess_variant variant, std::string_view fen) {
        return VariantPosition(make(variant, detail::CString(fen).get()));
    }
    /** The variant a name stands for ("atomic", "King of the Hill", "3check", "giveaway", ...). */
    static chess_variant variant_from_name(std::string_view name) {
        chess_variant variant = CHESS_VARIANT_CHESS;
        detail::check(chess_variant_from_name(detail::CString(name).get(), &variant));
        return variant;
    }

    VariantPosition(const VariantPosition &other)
        : handle_(other.handle_ == nullptr ? nullptr : detail::not_null(chess_variant_position_clone(other.handle_))) {}
    VariantPosition(VariantPosition &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    VariantPosition &operator=(const VariantPosition &other) {
        if (this != &other) {
            *this = VariantPosition(other);
        }
        return *this;
    }
    VariantPosition &operator=(VariantPosition &&other) noexcept {
        if (this != &other) {
            chess_variant_position_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~VariantPosition() { chess_variant_position_free(handle_); }

    const chess_variant_position *get() const noexcept { return handle_; }
    chess_variant_position *get() noexcept { return handle_; }

    chess_variant variant() const noexcept { return chess_variant_position_variant(handle_); }
    /** The command line's name of the variant ("standard", "atomic", ...). */
    std::string variant_name() const { return chess_variant_name(variant()); }
    std::string fen() const {
        return detail::read_text<128>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_variant_position_fen(handle_, buf, cap, len);
        });
    }
    std::vector<Move> legal_moves() const {
        chess_move moves[CHESS_MAX_VARIANT_MOVES];
        return detail::to_vector(moves, chess_variant_position_legal_moves(handle_, moves, CHESS_MAX_VARIANT_MOVES));
    }
    /** Plays a legal move; throws otherwise (the position is then unchanged). */
    void play(Move mv) { detail::check(chess_variant_position_play(handle_, mv.raw())); }
    std::string san(Move mv) const {
        return detail::read_text<CHESS_SAN_MAX>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_variant_position_san(handle_, mv.raw(), buf, cap, len);
        });
    }
    Move parse_san(std::string_view san) const {
        chess_move mv = CHESS_MOVE_NONE;
        detail::check(chess_variant_position_parse_san(handle_, detail::CString(san).get(), &mv));
        return Move(mv);
    }
    /** UCI as this position writes it (drops as P@e4). */
    std::string uci(Move mv) const {
        return detail::read_text<8>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_variant_position_uci(handle_, mv.raw(), buf, cap, len);
        });
    }
    Move parse_uci(std::string_view uci) const {
        chess_move mv = CHESS_MOVE_NONE;
        detail::check(chess_variant_position_parse_uci(handle_, detail::CString(uci).get(), &mv));
        return Move(mv);
    }
    Move play_san(std::string_view san) {
        Move mv = parse_san(san);
        play(mv);
        return mv;
    }
    Move play_uci(std::string_view uci) {
        Move mv = parse_uci(uci);
        play(mv);
        return mv;
    }
    std::uint64_t perft(std::uint32_t depth) const noexcept { return chess_variant_position_perft(handle_, depth); }
    chess_outcome outcome() const noexcept { return chess_variant_position_outcome(handle_); }
    bool is_check() const noexcept { return chess_variant_position_is_check(handle_); }
    bool is_checkmate() const noexcept { return chess_variant_position_is_checkmate(handle_); }
    bool is_stalemate() const noexcept { return chess_variant_position_is_stalemate(handle_); }
    bool is_variant_end() const noexcept { return chess_variant_position_is_variant_end(handle_); }
    bool has_insufficient_material(chess_color color) const noexcept {
        return chess_variant_position_has_insufficient_material(handle_, color);
    }
    /** Pieces of `kind` (CHESS_PAWN .. CHESS_QUEEN) in `color`'s crazyhouse pocket. */
    std::uint32_t pocket(chess_color color, chess_piece_kind kind) const noexcept {
        return chess_variant_position_pocket(handle_, color, kind);
    }
    std::uint64_t promoted() const noexcept { return chess_variant_position_promoted(handle_); }
    std::uint32_t remaining_checks(chess_color color) const noexcept {
        return chess_variant_position_remaining_checks(handle_, color);
    }
    chess_color turn() const noexcept { return chess_variant_position_turn(handle_); }
    chess_piece piece_at(chess_square square) const noexcept { return chess_variant_position_piece_at(handle_, square); }
    /** The board as plain data (pieces, castling rooks, en passant square, clocks). */
    chess_setup setup() const {
        chess_setup s{};
        detail::check(chess_variant_position_setup(handle_, &s));
        return s;
    }
    /** The board as a standalone SVG 1.1 picture with the variant's pockets or check counters,
     * as chess_variant_position_to_svg draws it with `options` (zero-initialised: the
     * defaults; this function sets its size). */
    std::string to_svg(chess_svg_options options = chess_svg_options{}) const {
        options.size = sizeof options;
        return detail::read_text<16384>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_variant_position_to_svg(handle_, &options, buf, cap, len);
        });
    }

private:
    friend class Epd;
    explicit VariantPosition(chess_variant_position *owned) noexcept : handle_(owned) {}
    static chess_variant_position *make(chess_variant variant, const char *fen) {
        chess_variant_position *pos = nullptr;
        detail::check(chess_variant_position_new(variant, fen, &pos));
        return pos;
    }

    chess_variant_position *handle_;
};

inline Game::Game(const VariantPosition &start) : handle_(detail::not_null(chess_game_new_variant(start.get()))) {}

inline VariantPosition Node::variant_position() const {
    VariantPosition pos;
    detail::check(chess_node_variant_position(game_, id_, pos.get()));
    return pos;
}

/** A broken PGN game: code() (a CHESS_ERR_PGN_... code, a FEN code for a bad FEN tag, a SAN or
 * move code for a bad move, CHESS_ERR_IO), what() the reader's message ("game 2, line 7, column
 * 13: illegal move ..."), where it went wrong, and the game up to the problem. */
class PgnError : public Error {
public:
    /** The error chess_pgn_reader_last_error describes, and the game up to it. */
    PgnError(const chess_pgn_error_info &info, Game partial)
        : Error(info.code, info.message), line_(info.line), column_(info.column), game_number_(info.game),
          ply_(info.ply), partial_(std::make_shared<Game>(std::move(partial))) {}

    std::uint64_t line() const noexcept { return line_; }
    std::uint64_t column() const noexcept { return column_; }
    /** The game's number in the input, from 1 (broken games counted). */
    std::uint64_t game_number() const noexcept { return game_number_; }
    /** The ply of the offending move (0 outside movetext). */
    std::uint32_t ply() const noexcept { return ply_; }
    /** What was read of the game: tags, and the main line up to the problem. */
    const Game &partial() const noexcept { return *partial_; }

private:
    std::uint64_t line_, column_, game_number_;
    std::uint32_t ply_;
    std::shared_ptr<Game> partial_;  // shared: exceptions are copied
};

/** How a PgnReader reads (chess_pgn_options); the defaults are the reader's own. */
struct PgnOptions {
    /** Moves only in canonical SAN, as Position::parse_san with CHESS_SAN_STRICT. */
    bool strict_san = false;
    /** Text that is not UTF-8, and NUL bytes, in tag values and comments become U+FFFD (by
     * default such text is decoded as Windows-1252 with a warning, and NUL bytes break the game). */
    bool lossy_text = false;
    /** Refuse what the PGN standard does not allow and the reader reads leniently by default
     * (CHESS_PGN_STRICT): results such as ½-½, e.p. and ++ suffixes, Unicode dashes in moves,
     * text that is not UTF-8. */
    bool strict = false;
    /** Tags, start position and result only: the movetext is skipped unread. */
    bool headers_only = false;
    /** Read the lichess variants' games too (CHESS_PGN_VARIANTS): Game::variant() tells them. */
    bool variants = false;
    /** Deepest nesting of variations; 0: the default (10,000). */
    std::uint32_t max_depth = 0;
    /** Longest tag pair line, in bytes; 0: the default (65,536). */
    std::size_t max_tag_len = 0;
    /** Longest comment, in bytes; 0: the default (1,048,576). */
    std::size_t max_comment_len = 0;
};

/** A PGN reader over a file, a copy of a buffer or a std::istream; an owned chess_pgn_reader
 * handle (move-only). */
class PgnReader {
public:
    static PgnReader open(std::string_view path) {
        chess_pgn_reader *reader = nullptr;
        detail::check(chess_pgn_reader_open_file(detail::CString(path).get(), &reader));
        return PgnReader(reader);
    }
    /** Reads a copy of `data`: the argument need not outlive the reader. */
    static PgnReader from_buffer(const void *data, std::size_t len) {
        chess_pgn_reader *reader = nullptr;
        detail::check(chess_pgn_reader_from_buffer(static_cast<const std::uint8_t *>(data), len, &reader));
        return PgnReader(reader);
    }
    static PgnReader from_string(std::string_view text) { return from_buffer(text.data(), text.size()); }
    /** Reads from `in` as games are taken; `in` must outlive the reader. A stream that goes bad
     * (not at its end) gives a PgnError with CHESS_ERR_IO. */
    static PgnReader from_stream(std::istream &in) {
        chess_pgn_reader *reader = nullptr;
        detail::check(chess_pgn_reader_from_callback(&read_stream, &in, &reader));
        return PgnReader(reader);
    }

    PgnReader(const PgnReader &) = delete;
    PgnReader &operator=(const PgnReader &) = delete;
    PgnReader(PgnReader &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    PgnReader &operator=(PgnReader &&other) noexcept {
        if (this != &other) {
            chess_pgn_reader_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~PgnReader() { chess_pgn_reader_free(handle_); }

    chess_pgn_reader *get() noexcept { return handle_; }

    /** Reads the games after this call with `options`. */
    void set_options(const PgnOptions &options) {
        chess_pgn_options raw{};
        raw.size = sizeof raw;
        raw.flags = (options.strict_san ? CHESS_PGN_STRICT_SAN : 0u) |
                    (options.lossy_text ? CHESS_PGN_LOSSY_TEXT : 0u) |
                    (options.headers_only ? CHESS_PGN_HEADERS_ONLY : 0u) | (options.strict ? CHESS_PGN_STRICT : 0u) |
                    (options.variants ? CHESS_PGN_VARIANTS : 0u);
        raw.max_depth = options.max_depth;
        raw.max_tag_len = options.max_tag_len;
        raw.max_comment_len = options.max_comment_len;
        detail::check(chess_pgn_reader_set_options(handle_, &raw));
    }

    /** The next game, std::nullopt at the end (and after). A broken game throws PgnError; the
     * next call goes on with the game after it. */
    std::optional<Game> next() {
        chess_game *game = nullptr;
        chess_error err = chess_pgn_reader_next(handle_, &game);
        if (err == CHESS_OK) {
            return Game::adopt(game);
        }
        if (err == CHESS_END) {
            return std::nullopt;
        }
        if (err == CHESS_ERR_NULL_POINTER || err == CHESS_ERR_OUT_OF_MEMORY || err == CHESS_ERR_INTERNAL) {
            throw Error(err);
        }
        chess_pgn_error_info info{};
        info.size = sizeof info;
        detail::check(chess_pgn_reader_last_error(handle_, &info));
        chess_game *partial = nullptr;
        detail::check(chess_pgn_reader_partial_game(handle_, &partial));
        throw PgnError(info, Game::adopt(partial));
    }

private:
    explicit PgnReader(chess_pgn_reader *owned) noexcept : handle_(owned) {}

    // No exception may cross the C library: a failing stream reports CHESS_READ_ERROR. The
    // bytes come from what the stream buffer holds (readsome), refilled one buffer at a time
    // (peek): istream::read would lose what it had copied when a refill fails.
    static std::size_t read_stream(void *user, std::uint8_t *buf, std::size_t cap) noexcept {
        try {
            std::istream &in = *static_cast<std::istream *>(user);
            char *out = reinterpret_cast<char *>(buf);
            std::streamsize limit = static_cast<std::streamsize>(cap);
            std::streamsize got = in.readsome(out, limit);
            if (got == 0 && in.good() && in.peek() != std::istream::traits_type::eof()) {
                got = in.readsome(out, limit);
            }
            if (got == 0 && in.bad()) {
                return CHESS_READ_ERROR;
            }
            return static_cast<std::size_t>(got);
        } catch (...) {
            return CHESS_READ_ERROR;
        }
    }

    chess_pgn_reader *handle_;
};

/** An EPD record: a position and its operations; an owned chess_epd handle (move-only: it never
 * changes, so share it by reference). */
class Epd {
public:
    /** Reads an EPD line; `flags` (CHESS_FEN_CHESS960 and the other CHESS_FEN_* reading flags)
     * say how its position is read. */
    static Epd parse(std::string_view line, std::uint32_t flags = 0) {
        chess_epd *epd = nullptr;
        detail::check(chess_epd_parse_with(detail::CString(line).get(), flags, &epd));
        return Epd(epd);
    }
    /** Reads an EPD line of `variant` (chess_epd_parse_variant: crazyhouse pockets in the
     * placement, three-check's counter after the en passant square, drops in bm, am, pv). */
    static Epd parse_variant(chess_variant variant, std::string_view line) {
        chess_epd *epd = nullptr;
        detail::check(chess_epd_parse_variant(variant, detail::CString(line).get(), &epd));
        return Epd(epd);
    }

    Epd(const Epd &) = delete;
    Epd &operator=(const Epd &) = delete;
    Epd(Epd &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Epd &operator=(Epd &&other) noexcept {
        if (this != &other) {
            chess_epd_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Epd() { chess_epd_free(handle_); }

    const chess_epd *get() const noexcept { return handle_; }

    /** A copy of the record's position (clocks from hmvc and fmvn); Error
     * CHESS_ERR_NULL_POINTER for a record of a variant other than chess and Chess960. */
    Position position() const { return detail::copy_of(chess_epd_position(handle_)); }
    /** A copy of the position of a record from parse_variant; Error CHESS_ERR_NULL_POINTER for
     * a record from parse. */
    VariantPosition variant_position() const {
        const chess_variant_position *pos = chess_epd_variant_position(handle_);
        if (pos == nullptr) {
            throw Error(CHESS_ERR_NULL_POINTER);
        }
        return VariantPosition(detail::not_null(chess_variant_position_clone(pos)));
    }
    /** The canonical EPD line. */
    std::string str() const {
        return detail::read_text<256>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_epd_write(handle_, buf, cap, len);
        });
    }
    std::size_t operation_count() const noexcept { return chess_epd_operation_count(handle_); }
    std::string opcode(std::size_t index) const {
        return detail::read_text<32>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_epd_opcode(handle_, index, buf, cap, len);
        });
    }
    bool has(std::string_view opcode) const { return chess_epd_has(handle_, detail::CString(opcode).get()); }
    std::size_t operand_count(std::string_view opcode) const {
        return chess_epd_operand_count(handle_, detail::CString(opcode).get());
    }
    chess_operand_kind operand_kind(std::string_view opcode, std::size_t index = 0) const {
        return chess_epd_operand_kind(handle_, detail::CString(opcode).get(), index);
    }
    /** A string or word operand (UTF-8). */
    std::string operand_string(std::string_view opcode, std::size_t index = 0) const {
        detail::CString op(opcode);
        return detail::read_text<64>([&](char *buf, std::size_t cap, std::size_t *len) {
            return chess_epd_operand_string(handle_, op.get(), index, buf, cap, len);
        });
    }
    std::int64_t operand_integer(std::string_view opcode, std::size_t index = 0) const {
        std::int64_t value = 0;
        detail::check(chess_epd_operand_integer(handle_, detail::CString(opcode).get(), index, &value));
        return value;
    }
    double operand_float(std::string_view opcode, std::size_t index = 0) const {
        double value = 0;
        detail::check(chess_epd_operand_float(handle_, detail::CString(opcode).get(), index, &value));
        return value;
    }
    Move operand_move(std::string_view opcode, std::size_t index = 0) const {
        chess_move mv = CHESS_MOVE_NONE;
        detail::check(chess_epd_operand_move(handle_, detail::CString(opcode).get(), index, &mv));
        return Move(mv);
    }
    /** The moves of bm, am (moves of the position) or pv (a line played in turn). */
    std::vector<Move> moves(std::string_view opcode) const {
        detail::CString op(opcode);
        std::vector<chess_move> raw(chess_epd_moves(handle_, op.get(), nullptr, 0));
        raw.resize(chess_epd_moves(handle_, op.get(), raw.data(), raw.size()));
        return detail::to_vector(raw.data(), raw.size());
    }

private:
    explicit Epd(chess_epd *owned) noexcept : handle_(owned) {}
    chess_epd *handle_;
};

/** The limits of a search: a chess_limits with its size set and every limit unset (0). */
inline chess_limits limits() noexcept {
    chess_limits limits{};
    limits.size = sizeof limits;
    return limits;
}

/** One info line of a search: the chess_info fields, with the pv and the string owned here
 * (raw.pv and raw.string are cleared: they pointed into the library's memory). */
struct Info {
    chess_info raw{};
    std::vector<Move> pv;
    std::optional<std::string> string;

    Info() = default;
    explicit Info(const chess_info &info)
        : raw(info), pv(detail::to_vector(info.pv, info.pv_len)),
          string(info.string ? std::optional<std::string>(info.string) : std::nullopt) {
        raw.pv = nullptr;
        raw.string = nullptr;
    }
};

/** A search's result: the best move (Move() when none), the expected reply, and the last info
 * of each MultiPV line, the best first. */
struct Analysis {
    Move best_move;
    Move ponder_move;
    std::vector<Info> lines;
};

/** How Engine starts an engine: its arguments, working directory and timeout. */
struct EngineOptions {
    std::vector<std::string> args;
    /** Empty: the caller's working directory. */
    std::string working_dir;
    /** 0: the library's default (10 s). */
    std::uint32_t timeout_ms = 0;
};

/** A UCI engine process (RAII: the destructor sends `quit`, then kills it if need be). Moves
 * only. Every wait has the timeout given at the start; an engine fault throws Error with a
 * CHESS_ERR_ENGINE_ code, after which the engine is gone. One thread at a time uses an Engine. */
class Engine {
public:
    /** Starts the program at `path` (no shell) and does the `uci` handshake. */
    explicit Engine(std::string_view path, const EngineOptions &options = EngineOptions()) {
        std::vector<const char *> argv;
        for (const std::string &arg : options.args) {
            if (arg.find('\0') != std::string::npos) {
                throw Error(CHESS_ERR_INVALID_TEXT);
            }
            argv.push_back(arg.c_str());
        }
        chess_engine_options c{};
        c.size = sizeof c;
        c.args = argv.data();
        c.arg_count = argv.size();
        std::optional<detail::CString> dir;
        if (!options.working_dir.empty()) {
            c.working_dir = dir.emplace(options.working_dir).get();
        }
        c.timeout_ms = options.timeout_ms;
        detail::check(chess_engine_start(detail::CString(path).get(), &c, &handle_));
    }
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;
    Engine(Engine &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Engine &operator=(Engine &&other) noexcept {
        if (this != &other) {
            chess_engine_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Engine() { chess_engine_free(handle_); }

    chess_engine *get() noexcept { return handle_; }

    std::string name() const {
        return detail::read_text<64>([&](char *b, std::size_t c, std::size_t *l) { return chess_engine_name(handle_, b, c, l); });
    }
    std::string author() const {
        return detail::read_text<64>([&](char *b, std::size_t c, std::size_t *l) { return chess_engine_author(handle_, b, c, l); });
    }

    /** The options the engine declared: option(i) gives the type, range and choice count. */
    std::size_t option_count() const noexcept { return chess_engine_option_count(handle_); }
    chess_engine_option option(std::size_t index) const {
        chess_engine_option out{};
        detail::check(chess_engine_option_at(handle_, index, &out));
        return out;
    }
    std::string option_name(std::size_t index) const {
        return detail::read_text<64>(
            [&](char *b, std::size_t c, std::size_t *l) { return chess_engine_option_name(handle_, index, b, c, l); });
    }
    std::string option_default(std::size_t index) const {
        return detail::read_text<64>(
            [&](char *b, std::size_t c, std::size_t *l) { return chess_engine_option_default(handle_, index, b, c, l); });
    }
    std::string option_var(std::size_t index, std::size_t var) const {
        return detail::read_text<64>(
            [&](char *b, std::size_t c, std::size_t *l) { return chess_engine_option_var(handle_, index, var, b, c, l); });
    }

    /** `setoption`; no value for a button. */
    void set_option(std::string_view name, std::optional<std::string_view> value = std::nullopt) {
        std::optional<detail::CString> text;
        if (value) {
            text.emplace(*value);
        }
        detail::check(chess_engine_set_option(handle_, detail::CString(name).get(), text ? text->get() : nullptr));
    }
    void is_ready() { detail::check(chess_engine_is_ready(handle_)); }
    void new_game() { detail::check(chess_engine_new_game(handle_)); }
    // The two calls any thread may make, also while another one searches with this engine.
    void stop() const { detail::check(chess_engine_stop(handle_)); }
    void ponderhit() const { detail::check(chess_engine_ponderhit(handle_)); }

    /** Searches a position without history. */
    Analysis analyse(const Position &pos, const chess_limits &limits) {
        chess_analysis *out = nullptr;
        detail::check(chess_engine_analyse(handle_, pos.get(), &limits, &out));
        return collect(out);
    }

    /** Searches the game's current position (its moves give the history); `on_info`, if set,
     * sees each info line as it arrives and returns false to stop the search. An exception it
     * throws stops the search too, and comes out of this call. */
    Analysis analyse(const Game &game, const chess_limits &limits, std::function<bool(const Info &)> on_info = {}) {
        struct Call {
            std::function<bool(const Info &)> *on_info;
            std::exception_ptr error;
        } call{&on_info, nullptr};
        chess_info_fn trampoline = [](void *payload, const chess_info *info) -> int {
            Call *state = static_cast<Call *>(payload);
            if (state->error) {
                return 1;
            }
            try {
                return (*state->on_info)(Info(*info)) ? 0 : 1;
            } catch (...) {
                state->error = std::current_exception();
                return 1;
            }
        };
        chess_analysis *out = nullptr;
        chess_error err = chess_engine_analyse_game(handle_, game.get(), &limits, on_info ? trampoline : nullptr, &call, &out);
        if (call.error) {
            chess_analysis_free(out);
            std::rethrow_exception(call.error);
        }
        detail::check(err);
        return collect(out);
    }

private:
    static Analysis collect(chess_analysis *owned) {
        std::unique_ptr<chess_analysis, void (*)(chess_analysis *)> analysis(owned, chess_analysis_free);
        Analysis result;
        result.best_move = Move(chess_analysis_best_move(owned));
        result.ponder_move = Move(chess_analysis_ponder_move(owned));
        for (std::size_t i = 0; i < chess_analysis_line_count(owned); i++) {
            chess_info info{};
            detail::check(chess_analysis_line(owned, i, &info));
            result.lines.emplace_back(info);
        }
        return result;
    }

    chess_engine *handle_ = nullptr;
};

/** A book entry of a position: the legal move it names, its weight and its learn value. */
struct BookEntry {
    Move move;
    std::uint16_t weight = 0;
    std::uint32_t learn = 0;
};

/** Which of a position's entries Book::lookup and Book::pick see (chess_book_lookup_options). */
struct BookLookup {
    /** Entries of a lower weight are left out (0 keeps every entry). */
    std::uint16_t min_weight = 1;
    /** Moves left out. */
    std::vector<Move> exclude;
};

/** How Book::pick chooses (chess_book_choice). */
enum class BookChoice : chess_book_choice {
    /** At random, each entry with a chance proportional to its weight. */
    weighted = CHESS_BOOK_PICK_WEIGHTED,
    /** At random, every entry alike. */
    uniform = CHESS_BOOK_PICK_UNIFORM,
    /** The highest weight, the first in the file among equal ones. */
    best = CHESS_BOOK_PICK_BEST,
};

/** A book that cannot be read: code() (CHESS_ERR_BOOK_..., CHESS_ERR_FILE_NOT_FOUND,
 * CHESS_ERR_IO), what() the library's message naming the entry at fault, and entry(). */
class BookError : public Error {
public:
    explicit BookError(const chess_book_error_info &info) : Error(info.code, info.message), entry_(info.entry) {}
    /** The entry at fault, from 0 (out of key order, or cut short); 0 for other errors. */
    std::uint64_t entry() const noexcept { return entry_; }

private:
    std::uint64_t entry_;
};

/** A Polyglot opening book; an owned chess_book handle (move-only, read-only: share it by
 * reference, from any number of threads). */
class Book {
public:
    /** Maps the book file at `path` into memory, checked whole; throws BookError. */
    static Book open(std::string_view path) {
        return adopt_or_throw([&](chess_book **out, chess_book_error_info *info) {
            return chess_book_open_with(detail::CString(path).get(), out, info);
        });
    }
    /** A book of a copy of `len` bytes at `data`; throws BookError. */
    static Book from_buffer(const void *data, std::size_t len) {
        return adopt_or_throw([&](chess_book **out, chess_book_error_info *info) {
            return chess_book_from_buffer_with(static_cast<const std::uint8_t *>(data), len, out, info);
        });
    }
    /** Takes ownership of a handle from the C API. */
    static Book adopt(chess_book *owned) noexcept { return Book(owned); }
    /** The union of two books (weights of a move in both added, learn values from `a`). */
    static Book merge(const Book &a, const Book &b) {
        chess_book *book = nullptr;
        detail::check(chess_book_merge(a.handle_, b.handle_, &book));
        return Book(book);
    }

    Book(const Book &) = delete;
    Book &operator=(const Book &) = delete;
    Book(Book &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Book &operator=(Book &&other) noexcept {
        if (this != &other) {
            chess_book_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Book() { chess_book_free(handle_); }

    const chess_book *get() const noexcept { return handle_; }

    /** The entries of `pos` in file order, moves converted to its legal moves (entries whose
     * move is not legal left out). */
    std::vector<BookEntry> lookup(const Position &pos, const BookLookup &options = {}) const {
        std::vector<chess_move> exclude;
        chess_book_lookup_options raw = raw_options(options, exclude);
        std::vector<chess_book_entry> entries(chess_book_lookup_with(handle_, pos.get(), &raw, nullptr, 0));
        entries.resize(chess_book_lookup_with(handle_, pos.get(), &raw, entries.data(), entries.size()));
        std::vector<BookEntry> out;
        out.reserve(entries.size());
        for (const chess_book_entry &entry : entries) {
            out.push_back(BookEntry{Move(entry.move), entry.weight, entry.learn});
        }
        return out;
    }
    /** One of the entries of `pos`, chosen as `choice` says; `random` is any 64-bit number the
     * caller drew (std::mt19937_64, say): the same number gives the same entry. std::nullopt when
     * the position has none. */
    std::optional<BookEntry> pick(const Position &pos, std::uint64_t random, BookChoice choice = BookChoice::weighted,
                                  const BookLookup &options = {}) const {
        std::vector<chess_move> exclude;
        chess_book_lookup_options raw = raw_options(options, exclude);
        chess_book_entry entry{};
        chess_error err = chess_book_pick_with(handle_, pos.get(), &raw, static_cast<chess_book_choice>(choice),
                                               random, &entry);
        if (err == CHESS_END) {
            return std::nullopt;
        }
        detail::check(err);
        return BookEntry{Move(entry.move), entry.weight, entry.learn};
    }
    /** The number of entries. */
    std::size_t size() const noexcept { return chess_book_entry_count(handle_); }
    /** Entry `index` as stored (its key, raw move, weight and learn value). */
    chess_book_raw_entry entry(std::size_t index) const {
        chess_book_raw_entry raw{};
        detail::check(chess_book_entry_at(handle_, index, &raw));
        return raw;
    }
    /** Writes the book to the file at `path`. */
    void save(std::string_view path) const { detail::check(chess_book_write_file(handle_, detail::CString(path).get())); }

private:
    explicit Book(chess_book *owned) noexcept : handle_(owned) {}

    template <class Open>
    static Book adopt_or_throw(Open &&open) {
        chess_book *book = nullptr;
        chess_book_error_info info{};
        info.size = sizeof info;
        if (open(&book, &info) != CHESS_OK) {
            throw BookError(info);
        }
        return Book(book);
    }

    /** The C options of `options`, whose moves are copied into `exclude`. */
    static chess_book_lookup_options raw_options(const BookLookup &options, std::vector<chess_move> &exclude) {
        for (Move mv : options.exclude) {
            exclude.push_back(mv.raw());
        }
        chess_book_lookup_options raw{};
        raw.size = sizeof raw;
        raw.flags = CHESS_BOOK_LOOKUP_MIN_WEIGHT;
        raw.min_weight = options.min_weight;
        raw.exclude = exclude.data();
        raw.exclude_count = exclude.size();
        return raw;
    }

    chess_book *handle_;
};

/** The rules of a BookBuilder (chess_book_build_options; see docs/books.md). */
struct BookBuildOptions {
    /** Only the first this many plies of each game count. */
    std::uint32_t max_ply = 40;
    /** Moves played in fewer games are left out. */
    std::uint64_t min_games = 1;
    /** Moves scoring under this percentage for the side that played them are left out. */
    std::uint32_t min_score = 0;
    /** Only this side's moves count (CHESS_WHITE or CHESS_BLACK). */
    std::optional<chess_color> only;
    /** Every entry gets weight 1 instead of its score. */
    bool uniform = false;
    /** Chess960 games count too. */
    bool chess960 = false;
};

/** Builds a book from PGN files and games; an owned chess_book_builder handle (move-only). */
class BookBuilder {
public:
    explicit BookBuilder(const BookBuildOptions &options = {}) {
        chess_book_build_options raw{};
        raw.size = sizeof raw;
        raw.flags = (options.only == CHESS_WHITE ? CHESS_BOOK_BUILD_ONLY_WHITE : 0u) |
                    (options.only == CHESS_BLACK ? CHESS_BOOK_BUILD_ONLY_BLACK : 0u) |
                    (options.uniform ? CHESS_BOOK_BUILD_UNIFORM : 0u) |
                    (options.chess960 ? CHESS_BOOK_BUILD_CHESS960 : 0u);
        raw.max_ply = options.max_ply;
        raw.min_games = options.min_games;
        raw.min_score = options.min_score;
        detail::check(chess_book_builder_new(&raw, &handle_));
    }

    BookBuilder(const BookBuilder &) = delete;
    BookBuilder &operator=(const BookBuilder &) = delete;
    BookBuilder(BookBuilder &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    BookBuilder &operator=(BookBuilder &&other) noexcept {
        if (this != &other) {
            chess_book_builder_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~BookBuilder() { chess_book_builder_free(handle_); }

    /** Counts every game of the PGN file at `path` (broken games up to their problem). */
    void add_pgn_file(std::string_view path) {
        detail::check(chess_book_builder_add_pgn_file(handle_, detail::CString(path).get()));
    }
    /** Counts the main line of `game` with `result` (CHESS_RESULT_ONGOING counts nothing). */
    void add_game(const Game &game, chess_result result) {
        detail::check(chess_book_builder_add_game(handle_, game.get(), result));
    }
    /** The book of the games counted so far. */
    Book finish() const {
        chess_book *book = nullptr;
        detail::check(chess_book_builder_finish(handle_, &book));
        return Book::adopt(book);
    }

private:
    chess_book_builder *handle_ = nullptr;
};

/** One position of Stockfish training data (chess_training_entry): the position, the legal move
 * played, the score and the game's result from the side to move's view, the ply. */
struct TrainingEntry {
    Position position;
    Move move;
    std::int16_t score = 0;
    std::uint16_t ply = 0;
    std::int8_t result = 0;

    chess_training_entry raw() const noexcept {
        chess_training_entry entry{};
        entry.position = *position.get();
        entry.move = move.raw();
        entry.score = score;
        entry.ply = ply;
        entry.result = result;
        return entry;
    }
};

/** Throws the error a training data reader returned, with the byte offset it names. */
namespace detail {
inline void check_training(chess_error err, std::uint64_t offset) {
    if (err == CHESS_ERR_NULL_POINTER || err == CHESS_ERR_OUT_OF_MEMORY || err == CHESS_ERR_INTERNAL) {
        throw Error(err);
    }
    throw Error(err, static_cast<std::size_t>(offset));
}
}  // namespace detail

/** Reads `.binpack` (or, with CHESS_BINPACK_PLAIN, `.plain`) training data one entry at a time. */
class BinpackReader {
public:
    static BinpackReader open(std::string_view path, std::uint32_t flags = 0) {
        chess_binpack_reader *reader = nullptr;
        detail::check(chess_binpack_reader_open_with(detail::CString(path).get(), flags, &reader));
        return BinpackReader(reader);
    }
    /** Reads a copy of `data`. */
    static BinpackReader from_buffer(const void *data, std::size_t len, std::uint32_t flags = 0) {
        chess_binpack_reader *reader = nullptr;
        detail::check(
            chess_binpack_reader_from_buffer_with(static_cast<const std::uint8_t *>(data), len, flags, &reader));
        return BinpackReader(reader);
    }

    BinpackReader(const BinpackReader &) = delete;
    BinpackReader &operator=(const BinpackReader &) = delete;
    BinpackReader(BinpackReader &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    BinpackReader &operator=(BinpackReader &&other) noexcept {
        if (this != &other) {
            chess_binpack_reader_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~BinpackReader() { chess_binpack_reader_free(handle_); }

    /** The next entry, std::nullopt at the end. Malformed data throws Error with the byte offset
     * (Error::offset) and ends the reading. */
    std::optional<TrainingEntry> next() {
        chess_training_entry raw;
        chess_error err = chess_binpack_reader_next(handle_, &raw);
        if (err == CHESS_END) {
            return std::nullopt;
        }
        if (err != CHESS_OK) {
            detail::check_training(err, chess_binpack_reader_error_offset(handle_));
        }
        return TrainingEntry{Position(raw.position), Move(raw.move), raw.score, raw.ply, raw.result};
    }

private:
    explicit BinpackReader(chess_binpack_reader *handle) noexcept : handle_(handle) {}
    chess_binpack_reader *handle_;
};

/** Writes `.binpack` (or, with CHESS_BINPACK_PLAIN, `.plain`) training data; the destructor
 * finishes the file if finish() was not called (an error is then lost). */
class BinpackWriter {
public:
    static BinpackWriter open(std::string_view path, std::uint32_t flags = 0) {
        chess_binpack_writer *writer = nullptr;
        detail::check(chess_binpack_writer_open_with(detail::CString(path).get(), flags, &writer));
        return BinpackWriter(writer);
    }

    BinpackWriter(const BinpackWriter &) = delete;
    BinpackWriter &operator=(const BinpackWriter &) = delete;
    BinpackWriter(BinpackWriter &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    BinpackWriter &operator=(BinpackWriter &&other) noexcept {
        if (this != &other) {
            chess_binpack_writer_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~BinpackWriter() { chess_binpack_writer_free(handle_); }

    /** Adds an entry; throws (writing nothing) for one the format cannot hold. */
    void write(const TrainingEntry &entry) {
        chess_training_entry raw = entry.raw();
        detail::check(chess_binpack_writer_write(handle_, &raw));
    }
    /** Writes the rest and closes the file. */
    void finish() { detail::check(chess_binpack_writer_finish(handle_)); }

private:
    explicit BinpackWriter(chess_binpack_writer *handle) noexcept : handle_(handle) {}
    chess_binpack_writer *handle_;
};

/** A legal move ranked by Tablebase::rank_moves: the values of the position after it from the
 * mover's view, and Stockfish's root rank (greater is better). */
struct RankedMove {
    Move move;
    int wdl;
    int dtz;
    int rank;
};

/** How a Tablebase reads its files (chess_tablebase_options). */
struct TablebaseOptions {
    /** Memory-map the files instead of reading them with positioned reads (faster; a file cut
     * while mapped raises SIGBUS). */
    bool mmap = false;
    /** Table files kept open at most; 0: the default (128). */
    std::uint32_t max_open_files = 0;
};

/** A failed probe: what() names the table file and what is wrong (chess_tablebase_last_error). */
class TablebaseError : public Error {
public:
    explicit TablebaseError(const chess_tablebase_error_info &info) : Error(info.code, info.message) {}
};

/** Syzygy tables of one or more directories (see chess_tablebase). Probing is const and safe
 * from any number of threads at once; a failed probe throws TablebaseError with a
 * CHESS_ERR_TABLEBASE_* code (or CHESS_ERR_IO, CHESS_ERR_FILE_NOT_FOUND), opening Error. */
class Tablebase {
public:
    /** The tables of the directories in `paths`, separated by ':'. */
    static Tablebase open(std::string_view paths, const TablebaseOptions &options = {}) {
        chess_tablebase_options raw{};
        raw.size = sizeof raw;
        raw.flags = options.mmap ? CHESS_TABLEBASE_MMAP : 0u;
        raw.max_open_files = options.max_open_files;
        chess_tablebase *tb = nullptr;
        detail::check(chess_tablebase_open_with(detail::CString(paths).get(), &raw, &tb));
        return Tablebase(tb);
    }

    Tablebase(const Tablebase &) = delete;
    Tablebase &operator=(const Tablebase &) = delete;
    Tablebase(Tablebase &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Tablebase &operator=(Tablebase &&other) noexcept {
        if (this != &other) {
            chess_tablebase_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Tablebase() { chess_tablebase_free(handle_); }

    const chess_tablebase *get() const noexcept { return handle_; }
    /** The most pieces of any table found; 0 for none. */
    unsigned max_pieces() const noexcept { return chess_tablebase_max_pieces(handle_); }
    /** python-chess's probe_wdl: -2..2 from the side to move. Throws TablebaseError. */
    int probe_wdl(const Position &pos) const {
        std::int32_t v = 0;
        check(chess_tablebase_probe_wdl(handle_, pos.get(), &v));
        return v;
    }
    /** python-chess's probe_dtz. Throws TablebaseError. */
    int probe_dtz(const Position &pos) const {
        std::int32_t v = 0;
        check(chess_tablebase_probe_dtz(handle_, pos.get(), &v));
        return v;
    }
    /** Every legal move at the end of the game's main line, best first. */
    std::vector<RankedMove> rank_moves(const Game &game) const {
        chess_tablebase_move moves[CHESS_MAX_MOVES];
        std::size_t count = 0;
        check(chess_tablebase_rank_moves(handle_, game.get(), moves, CHESS_MAX_MOVES, &count));
        std::vector<RankedMove> out;
        out.reserve(count);
        for (std::size_t i = 0; i < count; i++) {
            out.push_back(RankedMove{Move(moves[i].move), moves[i].wdl, moves[i].dtz, moves[i].rank});
        }
        return out;
    }

private:
    explicit Tablebase(chess_tablebase *owned) noexcept : handle_(owned) {}
    /** Throws the error of this thread's last probe, with its message. */
    void check(chess_error err) const {
        if (err != CHESS_OK) {
            chess_tablebase_error_info info{};
            info.size = sizeof info;
            detail::check(chess_tablebase_last_error(handle_, &info));
            throw TablebaseError(info);
        }
    }
    chess_tablebase *handle_;
};

}  // namespace chesscore

namespace std {
template <>
struct hash<chesscore::Move> {
    std::size_t operator()(chesscore::Move mv) const noexcept { return std::hash<chess_move>()(mv.raw()); }
};
}  // namespace std

#endif  // C++17
#endif /* CHESSCORE_HPP */
