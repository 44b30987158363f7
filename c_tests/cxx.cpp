// The header from C++11: the extern "C" guards let a C++ program link and call the library, and
// chess_position is a complete type C++ holds by value, copies and keeps in containers.

#include <chesscore.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main() {
    chess_position pos;
    chess_fen_info info;
    info.size = sizeof info;
    if (chess_fen_parse_with("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0, &pos, &info) != CHESS_OK) {
        return 1;
    }
    std::vector<chess_move> moves(CHESS_MAX_MOVES);
    moves.resize(chess_legal_moves(&pos, moves.data(), moves.size()));
    std::vector<std::string> names;
    std::vector<chess_position> children;
    for (chess_move mv : moves) {
        char text[8];
        if (chess_move_to_uci(mv, text, sizeof text, nullptr) != CHESS_OK) {
            return 1;
        }
        names.push_back(text);
        chess_position child = pos;  // a plain copy
        chess_position_play_unchecked(&child, mv);
        children.push_back(child);
    }
    chess_move castle = CHESS_MOVE_NONE;
    chess_error err = chess_move_from_uci(&pos, "e1g1", &castle);
    chess_position castled;
    chess_position_play_into(&pos, castle, &castled);
    char fen[CHESS_FEN_MAX];
    bool ok = err == CHESS_OK && names.size() == 26 && children.size() == 26 &&
              chess_move_kind_of(castle) == CHESS_MOVE_CASTLING && chess_position_turn(&pos) == CHESS_WHITE &&
              chess_position_turn(&children.back()) == CHESS_BLACK &&
              chess_fen_write(&castled, fen, sizeof fen, nullptr) == CHESS_OK &&
              std::strcmp(fen, "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1") == 0 &&
              std::strcmp(chess_version(), CHESS_VERSION_STRING) == 0 && chess_version_number() == CHESS_VERSION_NUMBER;
    std::printf("c++: %zu moves, %s\n", names.size(), ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
