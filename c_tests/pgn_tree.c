/* Walks the move tree of every game of the PGN files given and prints it, with every comment,
 * NAG and variation, through the node functions alone: tests/c_api.rs compares the output with
 * the same dump made from the Rust reader's own trees. A broken game is printed as far as it
 * was read (its partial game), after an "error" line.
 *
 * Output, per game: "game N" (and "error CODE"), one "tag NAME VALUE" per tag, then the nodes in
 * depth-first order, children in order, each as
 *   node ID parent PARENT ply PLY move MOVE san SAN
 *   nags N1 N2 ...        (when it has NAGs)
 *   before TEXT / after TEXT   (one per comment, in order; newlines as \n)
 *   fen FEN
 * where PARENT is - for the root, MOVE the chess_move number and SAN - for the root.
 *
 * usage: pgn_tree FILE... */

#include <chesscore.h>

#include <stdio.h>
#include <stdlib.h>

static int failures;

static void fail(const char *what, chess_error err) {
    fprintf(stderr, "%s: %u (%s)\n", what, (unsigned)err, chess_error_message(err));
    failures++;
}

/* Prints `text` on one line: newlines and backslashes escaped. */
static void print_escaped(const char *text) {
    for (; *text != '\0'; text++) {
        if (*text == '\n') {
            fputs("\\n", stdout);
        } else if (*text == '\\') {
            fputs("\\\\", stdout);
        } else {
            putchar(*text);
        }
    }
}

/* A comment, in a buffer made to fit; NULL (a failure counted) on error. */
static char *comment_text(const chess_game *game, chess_node node, chess_comment_place place, size_t index) {
    size_t len = 0;
    char *text;
    chess_error err = chess_node_comment(game, node, place, index, NULL, 0, &len);
    if (err != CHESS_ERR_BUFFER_TOO_SMALL) {
        fail("chess_node_comment measuring", err);
        return NULL;
    }
    text = malloc(len + 1);
    err = chess_node_comment(game, node, place, index, text, len + 1, NULL);
    if (err != CHESS_OK) {
        fail("chess_node_comment", err);
        free(text);
        return NULL;
    }
    return text;
}

static void print_comments(const chess_game *game, chess_node node, chess_comment_place place, const char *label) {
    size_t i, count = chess_node_comment_count(game, node, place);
    for (i = 0; i < count; i++) {
        char *text = comment_text(game, node, place, i);
        if (text != NULL) {
            printf("%s ", label);
            print_escaped(text);
            putchar('\n');
            free(text);
        }
    }
}

static void print_node(const chess_game *game, chess_node node) {
    chess_node parent = chess_node_parent(game, node);
    char san[512], fen[CHESS_FEN_MAX];
    uint8_t nags[64];
    size_t i, nag_count;
    chess_position pos;
    chess_error err;

    printf("node %u parent ", (unsigned)node);
    if (parent == CHESS_NODE_NONE) {
        printf("-");
    } else {
        printf("%u", (unsigned)parent);
    }
    printf(" ply %u move %u san ", (unsigned)chess_node_ply(game, node), (unsigned)chess_node_move(game, node));
    err = chess_node_san(game, node, san, sizeof san, NULL);
    if (node == CHESS_NODE_ROOT && err == CHESS_ERR_INVALID_ARGUMENT) {
        printf("-\n");
    } else if (err == CHESS_OK) {
        printf("%s\n", san);
    } else {
        fail("chess_node_san", err);
        printf("?\n");
    }

    nag_count = chess_node_nags(game, node, nags, sizeof nags);
    if (nag_count > sizeof nags) {
        fail("more NAGs than room", CHESS_OK);
        nag_count = sizeof nags;
    }
    if (nag_count > 0) {
        printf("nags");
        for (i = 0; i < nag_count; i++) {
            printf(" %u", (unsigned)nags[i]);
        }
        putchar('\n');
    }
    print_comments(game, node, CHESS_COMMENT_BEFORE, "before");
    print_comments(game, node, CHESS_COMMENT_AFTER, "after");

    err = chess_node_position(game, node, &pos);
    if (err == CHESS_OK) {
        err = chess_fen_write(&pos, fen, sizeof fen, NULL);
    }
    if (err == CHESS_OK) {
        printf("fen %s\n", fen);
    } else {
        fail("chess_node_position", err);
    }
}

/* Depth first, children in order, with a stack of nodes (no recursion however deep the tree):
 * a node's children are pushed last first, so that they come out in order. */
static void print_tree(const chess_game *game) {
    size_t count = chess_node_count(game), top = 0;
    chess_node *stack = malloc(count * sizeof *stack), *reversed = malloc(count * sizeof *reversed);
    stack[top++] = CHESS_NODE_ROOT;
    while (top > 0) {
        chess_node node = stack[--top], child;
        size_t children = 0;
        print_node(game, node);
        for (child = chess_node_first_child(game, node); child != CHESS_NODE_NONE;
             child = chess_node_next_sibling(game, child)) {
            reversed[children++] = child;
        }
        while (children > 0) {
            stack[top++] = reversed[--children];
        }
    }
    free(stack);
    free(reversed);
}

static void print_tags(const chess_game *game) {
    size_t i, count = chess_game_tag_count(game);
    for (i = 0; i < count; i++) {
        char name[256], value[4096];
        chess_error err = chess_game_tag_at(game, i, name, sizeof name, NULL, value, sizeof value, NULL);
        if (err != CHESS_OK) {
            fail("chess_game_tag_at", err);
            continue;
        }
        printf("tag %s ", name);
        print_escaped(value);
        putchar('\n');
    }
}

static void print_file(const char *path) {
    chess_pgn_reader *reader;
    chess_game *game;
    chess_error err = chess_pgn_reader_open_file(path, &reader);
    unsigned number = 0;
    if (err != CHESS_OK) {
        fail(path, err);
        return;
    }
    while ((err = chess_pgn_reader_next(reader, &game)) != CHESS_END) {
        printf("game %u\n", ++number);
        if (err != CHESS_OK) {
            printf("error %u\n", (unsigned)err);
            err = chess_pgn_reader_partial_game(reader, &game);
            if (err != CHESS_OK) {
                fail("chess_pgn_reader_partial_game", err);
                continue;
            }
        }
        print_tags(game);
        print_tree(game);
        chess_game_free(game);
    }
    chess_pgn_reader_free(reader);
}

int main(int argc, char **argv) {
    int i;
    for (i = 1; i < argc; i++) {
        print_file(argv[i]);
    }
    if (failures > 0) {
        fprintf(stderr, "pgn_tree: %d failures\n", failures);
    }
    return failures == 0 ? 0 : 1;
}
