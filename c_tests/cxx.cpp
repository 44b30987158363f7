// The header from C++11: the extern "C" guards let a C++ program link and call the library.

#include <chesscore.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main() {
    chess_position *pos = nullptr;
    size_t offset = 0;
    if (chess_fen_parse_ex("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &pos, &offset) != CHESS_OK) {
        return 1;
    }
    std::vector<chess_move> moves(CHESS_MAX_MOVES);
    moves.resize(chess_legal_moves(pos, moves.data(), moves.size()));
    std::vector<std::string> names;
    for (chess_move mv : moves) {
        char text[8];
        if (chess_move_to_uci(mv, text, sizeof text, nullptr) != CHESS_OK) {
            return 1;
        }
        names.push_back(text);
    }
    chess_move castle = CHESS_MOVE_NONE;
    chess_error err = chess_move_from_uci(pos, "e1g1", &castle);
    bool ok = err == CHESS_OK && names.size() == 26 && chess_move_kind_of(castle) == CHESS_MOVE_CASTLING &&
              chess_position_turn(pos) == CHESS_WHITE && std::strcmp(chess_version(), CHESS_VERSION_STRING) == 0;
    chess_position_free(pos);
    std::printf("c++: %zu moves, %s\n", names.size(), ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
