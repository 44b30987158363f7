/* Board pictures through the C API: the buffer convention, the options struct (its size, flags,
 * arrays, colours), colour names, bad arguments. Writes OUT_DIR/kiwipete.svg, drawn with every
 * kind of option, which tests/c_api.rs compares with the Rust core's drawing.
 *
 * usage: svg OUT_DIR */

#include "common.h"

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#define MATED "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"

/* The picture of `pos` with `options` in a buffer of its own (freed by the caller), or NULL. */
static char *draw(const chess_position *pos, const chess_svg_options *options) {
    size_t len = 0;
    char *buf;
    if (chess_position_to_svg(pos, options, NULL, 0, &len) != CHESS_ERR_BUFFER_TOO_SMALL) {
        return NULL;
    }
    buf = malloc(len + 1);
    if (buf != NULL && chess_position_to_svg(pos, options, buf, len + 1, &len) != CHESS_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static size_t count(const char *text, const char *needle) {
    size_t n = 0;
    for (text = strstr(text, needle); text != NULL; text = strstr(text + 1, needle)) {
        n++;
    }
    return n;
}

static void test_buffer_convention(void) {
    chess_position pos;
    size_t len = 0, again = 0;
    char small[16];
    char *svg;
    chess_position_init(&pos);
    CHECK_ERR(chess_position_to_svg(&pos, NULL, NULL, 0, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(len > 1000 && len < 12000);
    memset(small, 'x', sizeof small);
    CHECK_ERR(chess_position_to_svg(&pos, NULL, small, sizeof small, &again), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK(again == len && small[0] == 'x' && small[15] == 'x');
    svg = malloc(len + 1);
    CHECK_ERR(chess_position_to_svg(&pos, NULL, svg, len, &again), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_position_to_svg(&pos, NULL, svg, len + 1, NULL), CHESS_OK);
    CHECK(strlen(svg) == len && strncmp(svg, "<svg ", 5) == 0 && strcmp(svg + len - 7, "</svg>\n") == 0);
    CHECK(count(svg, "chess:piece=") == 32 && count(svg, "chess:square=\"e1\" chess:piece=\"K\"") == 1);
    free(svg);
}

static void test_options(void) {
    chess_position pos, mated;
    chess_svg_options options;
    char *plain, *svg;
    chess_position_init(&pos);
    CHECK_ERR(chess_fen_parse_into(MATED, &mated), CHESS_OK);
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    /* A zeroed struct is the defaults, as NULL is. */
    plain = draw(&pos, NULL);
    svg = draw(&pos, &options);
    CHECK(plain != NULL && svg != NULL && strcmp(plain, svg) == 0);
    CHECK(count(plain, "width=\"400\" height=\"400\"") == 1 && count(plain, "<text") == 32);
    free(svg);

    options.flags = CHESS_SVG_NO_COORDINATES;
    options.pixels = 160;
    svg = draw(&pos, &options);
    CHECK(svg != NULL && count(svg, "<text") == 0 && count(svg, "width=\"160\" height=\"160\" viewBox=\"0 0 800 800\""));
    free(svg);

    options.flags = CHESS_SVG_FLIPPED;
    options.pixels = 0;
    svg = draw(&pos, &options);
    CHECK(svg != NULL && strcmp(svg, plain) != 0 && strlen(svg) == strlen(plain));
    free(svg);
    free(plain);

    /* The check glow: only with the flag (or the check squares), only when in check. */
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    plain = draw(&mated, &options);
    options.flags = CHESS_SVG_MARK_CHECK;
    svg = draw(&mated, &options);
    CHECK(plain != NULL && svg != NULL && count(plain, "<circle") == 0 && count(svg, "<circle") == 4);
    free(svg);
    options.flags = 0;
    options.check = (uint64_t)1 << 4; /* e1 */
    svg = draw(&mated, &options);
    CHECK(svg != NULL && count(svg, "<circle") == 4);
    free(svg);
    free(plain);
    options.flags = CHESS_SVG_MARK_CHECK;
    options.check = 0;
    svg = draw(&pos, &options);
    CHECK(svg != NULL && count(svg, "<circle") == 0);
    free(svg);
}

static void test_bad_arguments(void) {
    chess_position pos;
    chess_svg_options options;
    chess_svg_arrow arrow = {12, 28, 0};
    size_t len = 77;
    chess_position_init(&pos);
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    CHECK_ERR(chess_position_to_svg(NULL, &options, NULL, 0, &len), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_position_to_svg(&pos, &options, NULL, 10, &len), CHESS_ERR_NULL_POINTER);
    options.arrow_count = 1;
    CHECK_ERR(chess_position_to_svg(&pos, &options, NULL, 0, &len), CHESS_ERR_NULL_POINTER);
    options.arrows = &arrow;
    arrow.to = 64;
    CHECK_ERR(chess_position_to_svg(&pos, &options, NULL, 0, &len), CHESS_ERR_INVALID_ARGUMENT);
    arrow.to = -1;
    CHECK_ERR(chess_position_to_svg(&pos, &options, NULL, 0, &len), CHESS_ERR_INVALID_ARGUMENT);
    options.arrow_count = 0;
    options.fill_count = 2;
    CHECK_ERR(chess_position_to_svg(&pos, &options, NULL, 0, &len), CHESS_ERR_NULL_POINTER);
    options.fill_count = 0;
    options.flags = 8;
    CHECK_ERR(chess_position_to_svg(&pos, &options, NULL, 0, &len), CHESS_ERR_INVALID_ARGUMENT);
    options.flags = 0;
    options.last_move = 12 | 12 << 6; /* e2e2 is no move */
    CHECK_ERR(chess_position_to_svg(&pos, &options, NULL, 0, &len), CHESS_ERR_INVALID_ARGUMENT);
    options.last_move = 0;
    options.size = sizeof options - 1;
    CHECK_ERR(chess_position_to_svg(&pos, &options, NULL, 0, &len), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(len == 77);
}

static void test_colors(void) {
    uint32_t color = 7;
    CHECK_ERR(chess_svg_parse_color("#f80", &color), CHESS_OK);
    CHECK(color == 0xff8800ffu);
    CHECK_ERR(chess_svg_parse_color("#A1B2C3D4", &color), CHESS_OK);
    CHECK(color == 0xa1b2c3d4u);
    CHECK_ERR(chess_svg_parse_color("green", &color), CHESS_OK);
    CHECK((color & 0xff) != 0xff && color != 0);
    CHECK_ERR(chess_svg_parse_color("#ff00", &color), CHESS_OK);
    CHECK(color == 0xffff0000u);
    CHECK_ERR(chess_svg_parse_color("#ff00f", &color), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_svg_parse_color("purple", &color), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_svg_parse_color("#\xc3\xa9", &color), CHESS_ERR_INVALID_TEXT);
    CHECK(color == 0xffff0000u); /* untouched by the failures */
    CHECK_ERR(chess_svg_parse_color(NULL, &color), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_svg_parse_color("red", NULL), CHESS_ERR_NULL_POINTER);
}

/* Kiwipete with every option set, for the comparison with the Rust drawing. */
static void write_kiwipete(const char *dir) {
    chess_position pos;
    chess_svg_options options;
    chess_svg_arrow arrows[2] = {{12, 28, 0}, {21, 21, 0x0000ff80u}};
    chess_svg_fill fills[1] = {{40, 0xff00ff80u}};
    char path[4096];
    char *svg;
    FILE *file;
    CHECK_ERR(chess_fen_parse_into(KIWIPETE, &pos), CHESS_OK);
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    options.flags = CHESS_SVG_FLIPPED;
    options.pixels = 600;
    options.last_move = 11 | 27 << 6; /* d2d4 */
    options.check = (uint64_t)1 << 60;
    options.squares = (uint64_t)1 << 34 | (uint64_t)1 << 3;
    options.arrows = arrows;
    options.arrow_count = 2;
    options.fills = fills;
    options.fill_count = 1;
    options.color_light = 0xddeeffffu;
    options.color_dark = 0x8899aaffu;
    options.color_last_move_light = 0x11111111u;
    options.color_last_move_dark = 0x22222222u;
    options.color_margin = 0x33333333u;
    options.color_coordinates = 0x44444444u;
    options.color_check = 0x55555555u;
    options.color_highlight = 0x66666666u;
    options.color_arrow = 0x77777777u;
    svg = draw(&pos, &options);
    CHECK(svg != NULL);
    sprintf(path, "%.4000s/kiwipete.svg", dir);
    file = fopen(path, "wb");
    CHECK(file != NULL && svg != NULL && fputs(svg, file) >= 0 && fclose(file) == 0);
    free(svg);
}

int main(int argc, char **argv) {
    static const chess_error codes[] = {CHESS_OK, CHESS_ERR_NULL_POINTER, CHESS_ERR_INVALID_ARGUMENT,
                                        CHESS_ERR_BUFFER_TOO_SMALL, CHESS_ERR_INVALID_TEXT};
    if (argc != 2) {
        fprintf(stderr, "usage: svg OUT_DIR\n");
        return 2;
    }
    test_buffer_convention();
    test_options();
    test_bad_arguments();
    test_colors();
    write_kiwipete(argv[1]);
    check_codes_seen(codes, sizeof codes / sizeof codes[0]);
    return report("svg");
}
