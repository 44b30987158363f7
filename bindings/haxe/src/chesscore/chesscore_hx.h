/* C++ glue between the Haxe externs (chesscore/Native.hx) and chesscore.h, for what hxcpp cannot
 * do directly: initialise a local or a field of a C struct type (hxcpp needs an expression to
 * start it from), and pass an array of pointers. Plain C++ over the C header, compiled on its own
 * by the tests. */

#ifndef CHESSCORE_HX_H
#define CHESSCORE_HX_H

#include <chesscore.h>

/* The standard starting position, by value: a valid chess_position to start a variable from. */
static inline chess_position chesscore_hx_start_position() {
    chess_position pos;
    chess_position_init(&pos);
    return pos;
}

/* A chess_fen_info with its size set, as the FEN readers that take one require. */
static inline chess_fen_info chesscore_hx_fen_info() {
    chess_fen_info info = chess_fen_info();
    info.size = sizeof info;
    return info;
}

/* chess_fen_split with the fields left NUL-separated in buf (the field pointers are not needed). */
static inline chess_error chesscore_hx_fen_split(const char *fen, char *buf, size_t cap, size_t *out_len,
                                                 chess_fen_info *info) {
    const char *fields[6];
    return chess_fen_split(fen, buf, cap, out_len, fields, info);
}

#endif /* CHESSCORE_HX_H */
