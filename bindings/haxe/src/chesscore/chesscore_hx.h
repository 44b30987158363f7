/* C++ glue between the Haxe externs (chesscore/Native.hx) and chesscore.h: int-typed shims for
 * what hxcpp cannot pass directly (C enums, which a C++ int does not convert to implicitly, and
 * an array of pointers). Plain C++ over the C header, compiled on its own by the tests. */

#ifndef CHESSCORE_HX_H
#define CHESSCORE_HX_H

#include <chesscore.h>

static inline const char *chesscore_hx_error_message(int code) {
    return chess_error_message(static_cast<chess_error>(code));
}

/* chess_fen_split with the fields left NUL-separated in buf (the field pointers are not needed). */
static inline int chesscore_hx_fen_split(const char *fen, char *buf, size_t cap, size_t *out_len,
                                         size_t *error_offset) {
    const char *fields[6];
    return chess_fen_split(fen, buf, cap, out_len, fields, error_offset);
}

#endif /* CHESSCORE_HX_H */
