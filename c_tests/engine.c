/* UCI engines through the C API: the handshake, id and options, searches with MultiPV lines
 * and a callback, and every fault (a program that cannot start, exits, crashes after `go`,
 * hangs, writes junk or an illegal move, answers `uciok` slowly or never, floods its output,
 * writes a line that never ends, forks a helper that keeps its output open, or is started
 * through a wrapper script) ending in its CHESS_ERR_ENGINE_ code within the timeout, with no
 * child process or descriptor left; option text that would smuggle in a command refused; the
 * program's SIGPIPE disposition untouched. With Stockfish, a real search.
 *
 * usage: engine FAKE_ENGINE [STOCKFISH] */

#define _POSIX_C_SOURCE 200809L
#include "common.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

static const char *fake;

static int open_descriptors(void) {
    int count = 0;
    DIR *dir = opendir("/proc/self/fd");
    if (dir == NULL) {
        return -1;
    }
    while (readdir(dir) != NULL) {
        count++;
    }
    closedir(dir);
    return count;
}

/* No child process left, running or zombie: there is nothing to wait for. */
static int no_children(void) {
    return waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD;
}

static void pause_ms(long ms) {
    struct timespec t;
    t.tv_sec = ms / 1000;
    t.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&t, NULL);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Starts the fake engine in `mode` with a timeout. */
static chess_error start_fake(const char *mode, uint32_t timeout_ms, chess_engine **out) {
    const char *args[1];
    chess_engine_options options;
    memset(&options, 0, sizeof options);
    args[0] = mode;
    options.size = sizeof options;
    options.args = args;
    options.arg_count = 1;
    options.working_dir = "/";
    options.timeout_ms = timeout_ms;
    return chess_engine_start(fake, &options, out);
}

static chess_limits depth_limits(uint32_t depth, uint32_t multipv) {
    chess_limits limits;
    memset(&limits, 0, sizeof limits);
    limits.size = sizeof limits;
    limits.depth = depth;
    limits.multipv = multipv;
    return limits;
}

static int infos;

static int count_info(void *payload, const chess_info *info) {
    (void)info;
    infos++;
    return payload != NULL; /* a payload asks to stop at the first info */
}

static void test_good_engine(void) {
    chess_engine *engine = NULL;
    chess_engine_option option;
    chess_analysis *analysis = NULL;
    chess_info line;
    chess_position *start = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    chess_game *game = chess_game_new(NULL);
    chess_limits limits = depth_limits(1, 2);
    char text[64];
    size_t len = 0;
    int stop = 1;

    CHECK_ERR(start_fake("good", 2000, &engine), CHESS_OK);
    if (engine == NULL) {
        return;
    }
    CHECK_ERR(chess_engine_name(engine, text, sizeof text, &len), CHESS_OK);
    CHECK(strcmp(text, "Fake Engine 1.0") == 0 && len == 15);
    CHECK_ERR(chess_engine_name(engine, text, 4, &len), CHESS_ERR_BUFFER_TOO_SMALL);
    CHECK_ERR(chess_engine_author(engine, text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "The chesscore tests") == 0);
    CHECK(chess_engine_option_count(engine) == 5);
    CHECK_ERR(chess_engine_option_at(engine, 0, &option), CHESS_OK);
    CHECK(option.option_type == CHESS_OPTION_SPIN && option.min == 1 && option.max == 1024);
    CHECK_ERR(chess_engine_option_default(engine, 0, text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "16") == 0);
    CHECK_ERR(chess_engine_option_at(engine, 1, &option), CHESS_OK);
    CHECK(option.option_type == CHESS_OPTION_COMBO && option.var_count == 3);
    CHECK_ERR(chess_engine_option_var(engine, 1, 2, text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "Risky") == 0);
    CHECK_ERR(chess_engine_option_var(engine, 1, 3, text, sizeof text, NULL), CHESS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(chess_engine_option_name(engine, 2, text, sizeof text, NULL), CHESS_OK);
    CHECK(strcmp(text, "Clear Hash") == 0);
    CHECK_ERR(chess_engine_option_at(engine, 2, &option), CHESS_OK);
    CHECK(option.option_type == CHESS_OPTION_BUTTON);
    CHECK_ERR(chess_engine_option_at(engine, 3, &option), CHESS_OK);
    CHECK(option.option_type == CHESS_OPTION_CHECK);
    CHECK_ERR(chess_engine_option_at(engine, 5, &option), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(CHESS_OPTION_STRING == 4);
    CHECK_ERR(chess_engine_set_option(engine, "Hash", "32"), CHESS_OK);
    CHECK_ERR(chess_engine_set_option(engine, "Clear Hash", NULL), CHESS_OK);
    CHECK_ERR(chess_engine_set_option(engine, "Hash", "1\nquit"), CHESS_ERR_INVALID_TEXT);
    CHECK_ERR(chess_engine_is_ready(engine), CHESS_OK);
    CHECK_ERR(chess_engine_new_game(engine), CHESS_OK);

    CHECK_ERR(chess_engine_analyse(engine, start, &limits, &analysis), CHESS_OK);
    CHECK(chess_analysis_best_move(analysis) == uci(start, "e2e4"));
    CHECK(chess_analysis_ponder_move(analysis) != CHESS_MOVE_NONE);
    CHECK(chess_analysis_line_count(analysis) == 2);
    CHECK_ERR(chess_analysis_line(analysis, 0, &line), CHESS_OK);
    CHECK(line.multipv == 1 && line.depth == 1 && line.seldepth == 2 && line.nodes == 20 && line.time_ms == 10);
    CHECK(line.score_kind == CHESS_SCORE_CP && line.score == 31 && line.white_score == 31);
    CHECK(line.bound == CHESS_BOUND_EXACT && line.has_wdl && line.wdl_win == 300 && line.wdl_loss == 100);
    CHECK(line.pv_len == 2 && line.pv[0] == uci(start, "e2e4") && line.string == NULL);
    CHECK_ERR(chess_analysis_line(analysis, 1, &line), CHESS_OK);
    /* `pv d2d4 d2d4`: the second move is illegal, so the line stops before it. */
    CHECK(line.multipv == 2 && line.bound == CHESS_BOUND_UPPER && line.pv_len == 1 && line.score == -5);
    CHECK(line.score_kind != CHESS_SCORE_MATE && !line.has_wdl);
    CHECK_ERR(chess_analysis_line(analysis, 2, &line), CHESS_ERR_INVALID_ARGUMENT);
    chess_analysis_free(analysis);
    analysis = NULL;

    /* From Black's side the White score is the opposite. */
    CHECK_ERR(chess_game_push_uci(game, "g1f3", NULL), CHESS_OK);
    infos = 0;
    CHECK_ERR(chess_engine_analyse_game(engine, game, &limits, count_info, NULL, &analysis), CHESS_OK);
    CHECK(infos == 3);
    CHECK_ERR(chess_analysis_line(analysis, 0, &line), CHESS_OK);
    CHECK(line.score == 31 && line.white_score == -31 && line.pv_len == 2);
    CHECK(chess_analysis_best_move(analysis) == uci(chess_game_position(game), "e7e5"));
    chess_analysis_free(analysis);
    analysis = NULL;
    infos = 0;
    CHECK_ERR(chess_engine_analyse_game(engine, game, &limits, count_info, &stop, &analysis), CHESS_OK);
    CHECK(infos == 3 && analysis != NULL);
    chess_analysis_free(analysis);

    /* Arguments. */
    analysis = NULL;
    limits.size = 8;
    CHECK_ERR(chess_engine_analyse(engine, start, &limits, &analysis), CHESS_ERR_INVALID_ARGUMENT);
    limits.size = sizeof limits;
    limits.flags = 4;
    CHECK_ERR(chess_engine_analyse(engine, start, &limits, &analysis), CHESS_ERR_INVALID_ARGUMENT);
    CHECK(analysis == NULL);
    CHECK_ERR(chess_engine_analyse(engine, NULL, &limits, &analysis), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_engine_analyse(engine, start, NULL, &analysis), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_engine_analyse_game(NULL, game, &limits, NULL, NULL, &analysis), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_engine_is_ready(NULL), CHESS_ERR_NULL_POINTER);
    CHECK(chess_engine_option_count(NULL) == 0 && chess_analysis_line_count(NULL) == 0);
    CHECK(chess_analysis_best_move(NULL) == CHESS_MOVE_NONE && chess_analysis_ponder_move(NULL) == CHESS_MOVE_NONE);
    chess_engine_free(engine);
    chess_engine_free(NULL);
    chess_analysis_free(NULL);
    chess_game_free(game);
    chess_position_free(start);
}

/* What another thread sends during a search: after 50 ms, `ponderhit` or `stop`. */
struct remote {
    chess_engine *engine;
    int ponderhit;
    chess_error sent;
};

static void *send_later(void *arg) {
    struct remote *remote = arg;
    struct timespec pause = {0, 50000000L};
    nanosleep(&pause, NULL);
    remote->sent = remote->ponderhit ? chess_engine_ponderhit(remote->engine) : chess_engine_stop(remote->engine);
    return NULL;
}

static int saw_ponderhit;

static int note_ponderhit(void *payload, const chess_info *info) {
    (void)payload;
    saw_ponderhit |= info->string != NULL && strcmp(info->string, "ponderhit") == 0;
    return 0;
}

/* A pondering search ends at `ponderhit`, an infinite one at `stop`, each sent by another thread
 * while this one waits in the search. */
static void test_ponder_and_stop(void) {
    chess_engine *engine = NULL;
    chess_analysis *analysis = NULL;
    chess_position start;
    chess_game *game = NULL;
    chess_limits limits = depth_limits(3, 0);
    struct remote remote;
    pthread_t thread;
    int round;
    chess_position_init(&start);
    CHECK_ERR(start_fake("good", 2000, &engine), CHESS_OK);
    if (engine == NULL) {
        return;
    }
    game = chess_game_new(&start);
    for (round = 0; round < 2; round++) {
        remote.engine = engine;
        remote.ponderhit = round == 0;
        remote.sent = CHESS_ERR_INTERNAL;
        limits.flags = round == 0 ? CHESS_LIMIT_PONDER : CHESS_LIMIT_INFINITE;
        saw_ponderhit = 0;
        CHECK(pthread_create(&thread, NULL, send_later, &remote) == 0);
        CHECK_ERR(chess_engine_analyse_game(engine, game, &limits, note_ponderhit, NULL, &analysis), CHESS_OK);
        CHECK(pthread_join(thread, NULL) == 0);
        CHECK_ERR(remote.sent, CHESS_OK);
        CHECK(saw_ponderhit == remote.ponderhit);
        CHECK(chess_analysis_best_move(analysis) == uci(&start, "e2e4"));
        chess_analysis_free(analysis);
        analysis = NULL;
    }
    CHECK_ERR(chess_engine_stop(NULL), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_engine_ponderhit(NULL), CHESS_ERR_NULL_POINTER);
    chess_engine_free(engine);
    chess_game_free(game);
}

/* A fault in a search: the code, within a second of the timeout, and the engine gone after. */
static void test_search_fault(const char *mode, chess_error expected) {
    chess_engine *engine = NULL;
    chess_analysis *analysis = NULL;
    chess_position start;
    chess_limits limits = depth_limits(5, 0);
    double began;
    chess_position_init(&start);
    CHECK_ERR(start_fake(mode, 300, &engine), CHESS_OK);
    began = now();
    CHECK_ERR(chess_engine_analyse(engine, &start, &limits, &analysis), expected);
    CHECK(analysis == NULL && now() - began < 1.5);
    CHECK_ERR(chess_engine_is_ready(engine), CHESS_ERR_ENGINE_EXITED);
    chess_engine_free(engine);
}

static void test_start_fault(const char *mode, uint32_t timeout_ms, chess_error expected) {
    chess_engine *engine = NULL;
    double began = now();
    CHECK_ERR(start_fake(mode, timeout_ms, &engine), expected);
    CHECK(engine == NULL && now() - began < timeout_ms / 1000.0 + 1.0);
}

static void test_faults(void) {
    chess_engine *engine = NULL;
    chess_engine_options options;
    chess_analysis *analysis = NULL;
    chess_position start;
    chess_limits limits = depth_limits(1, 0);
    chess_position_init(&start);

    CHECK_ERR(chess_engine_start("/nonexistent/engine", NULL, &engine), CHESS_ERR_ENGINE_NOT_STARTED);
    CHECK_ERR(chess_engine_start(NULL, NULL, &engine), CHESS_ERR_NULL_POINTER);
    CHECK_ERR(chess_engine_start(fake, NULL, NULL), CHESS_ERR_NULL_POINTER);
    memset(&options, 0, sizeof options);
    options.size = 4;
    CHECK_ERR(chess_engine_start(fake, &options, &engine), CHESS_ERR_INVALID_ARGUMENT);
    options.size = sizeof options;
    options.arg_count = 1;
    CHECK_ERR(chess_engine_start(fake, &options, &engine), CHESS_ERR_NULL_POINTER);
    options.arg_count = 0;
    options.working_dir = "/nonexistent/directory";
    CHECK_ERR(chess_engine_start(fake, &options, &engine), CHESS_ERR_ENGINE_NOT_STARTED);
    CHECK(engine == NULL);

    test_start_fault("exit", 2000, CHESS_ERR_ENGINE_EXITED);
    test_start_fault("silent", 300, CHESS_ERR_ENGINE_TIMEOUT);
    test_start_fault("slow", 300, CHESS_ERR_ENGINE_TIMEOUT);
    CHECK_ERR(start_fake("slow", 3000, &engine), CHESS_OK);
    chess_engine_free(engine);

    test_search_fault("crash", CHESS_ERR_ENGINE_EXITED);
    test_search_fault("hang", CHESS_ERR_ENGINE_TIMEOUT);
    test_search_fault("badmove", CHESS_ERR_ENGINE_PROTOCOL);

    /* Junk around the answers is not a fault. */
    engine = NULL;
    CHECK_ERR(start_fake("junk", 2000, &engine), CHESS_OK);
    CHECK_ERR(chess_engine_is_ready(engine), CHESS_OK);
    CHECK_ERR(chess_engine_analyse(engine, &start, &limits, &analysis), CHESS_OK);
    CHECK(chess_analysis_best_move(analysis) == uci(&start, "e2e4"));
    chess_analysis_free(analysis);
    chess_engine_free(engine);

    /* A hung engine that ignores `quit` is killed by chess_engine_free. */
    engine = NULL;
    CHECK_ERR(start_fake("hang", 2000, &engine), CHESS_OK);
    chess_engine_free(engine);
}

/* SIGPIPE still has its default action, and none is pending. */
static int sigpipe_untouched(void) {
    struct sigaction action;
    sigset_t pending;
    sigemptyset(&pending);
    return sigaction(SIGPIPE, NULL, &action) == 0 && action.sa_handler == SIG_DFL && sigpending(&pending) == 0 &&
           !sigismember(&pending, SIGPIPE);
}

static void test_option_text(void) {
    /* Every line end some runtime splits on (Java, Python, JavaScript, .NET), as UTF-8. */
    static const char *const ends[] = {"\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\xc2\x85", "\xe2\x80\xa8", "\xe2\x80\xa9"};
    static const char *const names[] = {"Hash value 1", "name", "", "A name B"};
    chess_engine *engine = NULL;
    char text[64];
    size_t i;
    CHECK_ERR(start_fake("good", 2000, &engine), CHESS_OK);
    for (i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        snprintf(text, sizeof text, "1%sgo infinite", ends[i]);
        CHECK_ERR(chess_engine_set_option(engine, "Hash", text), CHESS_ERR_INVALID_TEXT);
        snprintf(text, sizeof text, "Hash%squit", ends[i]);
        CHECK_ERR(chess_engine_set_option(engine, text, "1"), CHESS_ERR_INVALID_TEXT);
        CHECK_ERR(chess_engine_set_option(engine, text, NULL), CHESS_ERR_INVALID_TEXT);
    }
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        CHECK_ERR(chess_engine_set_option(engine, names[i], "1"), CHESS_ERR_INVALID_TEXT);
    }
    /* Nothing was sent: the engine answers as before. */
    CHECK_ERR(chess_engine_set_option(engine, "Style", "Risky"), CHESS_OK);
    CHECK_ERR(chess_engine_is_ready(engine), CHESS_OK);
    chess_engine_free(engine);
}

/* A write to an engine that died is an error, not a signal; the disposition stays default. */
static void test_no_sigpipe(void) {
    chess_engine *engine = NULL;
    CHECK(sigpipe_untouched());
    CHECK_ERR(start_fake("gone", 2000, &engine), CHESS_OK);
    CHECK(sigpipe_untouched());
    pause_ms(100);
    CHECK_ERR(chess_engine_set_option(engine, "Hash", "1"), CHESS_ERR_ENGINE_EXITED);
    CHECK_ERR(chess_engine_set_option(engine, "Hash", "1"), CHESS_ERR_ENGINE_EXITED);
    chess_engine_free(engine);
    CHECK(sigpipe_untouched());
}

/* This process's peak resident memory, in KiB. */
static long peak_kib(void) {
    char line[256];
    long kib = -1;
    FILE *status = fopen("/proc/self/status", "r");
    if (status == NULL) {
        return -1;
    }
    while (fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kib = strtol(line + 6, NULL, 10);
        }
    }
    fclose(status);
    return kib;
}

/* Engines that flood their output, trickle junk or write an endless line: the search ends
 * within its bounds, and memory stays bounded. */
static void test_floods(void) {
    long before = peak_kib();
    chess_limits timed = depth_limits(0, 0);
    timed.movetime_ms = 200;
    test_search_fault("flood", CHESS_ERR_ENGINE_TIMEOUT);
    test_search_fault("trickle", CHESS_ERR_ENGINE_TIMEOUT);
    test_search_fault("longline", CHESS_ERR_ENGINE_PROTOCOL);
    {
        chess_engine *engine = NULL;
        chess_analysis *analysis = NULL;
        chess_position start;
        double began;
        chess_position_init(&start);
        CHECK_ERR(start_fake("infoflood", 300, &engine), CHESS_OK);
        began = now();
        CHECK_ERR(chess_engine_analyse(engine, &start, &timed, &analysis), CHESS_ERR_ENGINE_TIMEOUT);
        CHECK(now() - began < 1.5);
        chess_engine_free(engine);
    }
    CHECK(peak_kib() - before < 256 * 1024);
}

/* The ids in the fake engine's `Pids` option (the engine's, then its helper's). */
static void helper_pids(chess_engine *engine, long *pids) {
    char text[64];
    size_t i, len = 0;
    pids[0] = pids[1] = 0;
    for (i = 0; i < chess_engine_option_count(engine); i++) {
        CHECK_ERR(chess_engine_option_name(engine, i, text, sizeof text, &len), CHESS_OK);
        if (strcmp(text, "Pids") == 0) {
            CHECK_ERR(chess_engine_option_default(engine, i, text, sizeof text, &len), CHESS_OK);
            CHECK(sscanf(text, "%ld %ld", &pids[0], &pids[1]) == 2);
        }
    }
}

/* Dead within a second: gone, or a zombie that init will reap. */
static int dead_soon(long pid) {
    char path[64], stat[512];
    int tries;
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    for (tries = 0; tries < 200; tries++) {
        FILE *file = fopen(path, "r");
        char *end;
        if (file == NULL) {
            return 1;
        }
        stat[0] = '\0';
        if (fgets(stat, sizeof stat, file) == NULL) {
            stat[0] = '\0';
        }
        fclose(file);
        end = strrchr(stat, ')');
        if (end != NULL && end[1] == ' ' && end[2] == 'Z') {
            return 1;
        }
        pause_ms(5);
    }
    return 0;
}

/* An engine that forks a helper keeping its output open, started directly or through a
 * wrapper script: a fault or chess_engine_free ends every process at once. */
static void test_grandchildren(void) {
    static const char *const modes[] = {"fork", "forkcrash"};
    static const chess_error expected[] = {CHESS_ERR_ENGINE_TIMEOUT, CHESS_ERR_ENGINE_EXITED};
    chess_position start;
    chess_limits limits = depth_limits(5, 0);
    size_t i, wrapped;
    chess_position_init(&start);
    for (wrapped = 0; wrapped < 2; wrapped++) {
        for (i = 0; i < 2; i++) {
            chess_engine *engine = NULL;
            chess_analysis *analysis = NULL;
            chess_engine_options options;
            const char *args[4];
            long pids[2];
            double began;
            memset(&options, 0, sizeof options);
            options.size = sizeof options;
            options.timeout_ms = 300;
            if (wrapped) {
                args[0] = "-c";
                args[1] = "\"$0\" \"$1\"; exit"; /* not `exec`: the script stays the engine's parent */
                args[2] = fake;
                args[3] = modes[i];
                options.args = args;
                options.arg_count = 4;
                CHECK_ERR(chess_engine_start("/bin/sh", &options, &engine), CHESS_OK);
            } else {
                args[0] = modes[i];
                options.args = args;
                options.arg_count = 1;
                CHECK_ERR(chess_engine_start(fake, &options, &engine), CHESS_OK);
            }
            helper_pids(engine, pids);
            began = now();
            CHECK_ERR(chess_engine_analyse(engine, &start, &limits, &analysis), expected[i]);
            chess_engine_free(engine);
            CHECK(now() - began < 1.5);
            CHECK(pids[0] > 0 && dead_soon(pids[0]) && pids[1] > 0 && dead_soon(pids[1]));
        }
    }
}

static void test_stockfish(const char *path) {
    chess_engine *engine = NULL;
    chess_analysis *analysis = NULL;
    chess_position start;
    chess_info line;
    chess_limits limits = depth_limits(8, 3);
    chess_move moves[CHESS_MAX_MOVES];
    size_t i, n, legal = 0;
    chess_position_init(&start);
    CHECK_ERR(chess_engine_start(path, NULL, &engine), CHESS_OK);
    if (engine == NULL) {
        return;
    }
    CHECK_ERR(chess_engine_set_option(engine, "Threads", "1"), CHESS_OK);
    CHECK_ERR(chess_engine_is_ready(engine), CHESS_OK);
    CHECK_ERR(chess_engine_analyse(engine, &start, &limits, &analysis), CHESS_OK);
    n = chess_legal_moves(&start, moves, CHESS_MAX_MOVES);
    for (i = 0; i < n; i++) {
        legal += moves[i] == chess_analysis_best_move(analysis);
    }
    CHECK(legal == 1 && chess_analysis_line_count(analysis) == 3);
    CHECK_ERR(chess_analysis_line(analysis, 2, &line), CHESS_OK);
    CHECK(line.multipv == 3 && line.depth >= 8 && line.pv_len > 0 && line.score_kind == CHESS_SCORE_CP);
    chess_analysis_free(analysis);
    chess_engine_free(engine);
}

int main(int argc, char **argv) {
    int descriptors;
    if (argc < 2) {
        fprintf(stderr, "usage: engine FAKE_ENGINE [STOCKFISH]\n");
        return 2;
    }
    fake = argv[1];
    descriptors = open_descriptors();
    test_good_engine();
    CHECK(no_children());
    test_ponder_and_stop();
    CHECK(no_children());
    test_faults();
    CHECK(no_children());
    test_option_text();
    test_no_sigpipe();
    test_floods();
    test_grandchildren();
    CHECK(no_children());
    if (argc > 2) {
        test_stockfish(argv[2]);
        CHECK(no_children());
    }
    CHECK(open_descriptors() == descriptors);
    CHECK(sigpipe_untouched());
    return report("engine");
}
