/* A small fake UCI engine for the engine tests: `fake_engine MODE`, where MODE is
 *   good     a correct engine (for the start position or one move after it): id, options, two
 *            MultiPV lines (the second with an illegal move in its pv), bestmove e2e4 or e7e5;
 *            `go ponder` and `go infinite` send their lines, then wait for `ponderhit` (answered
 *            by `info string ponderhit`) or `stop` before the best move
 *   crash    dies by SIGKILL on `go`
 *   hang     prints one info on `go`, then nothing; ignores `stop` and `quit`
 *   junk     surrounds every answer with junk lines (binary bytes, unknown words, broken info)
 *   badmove  answers `go` with an illegal bestmove
 *   slow     waits 1 s before `uciok`
 *   silent   never answers `uciok`
 *   exit     exits at once
 *   gone     exits right after `uciok`
 *   flood    answers `go` with junk lines, as fast as it can, for ever
 *   infoflood  answers `go` with `info` lines, as fast as it can, for ever
 *   trickle  answers `go` with a junk line every millisecond, for ever
 *   longline answers `go` with one line that never ends
 *   fork     forks a helper that keeps the output open and sleeps an hour, then acts as `hang`
 *            (option `Pids` gives the engine's and the helper's process ids)
 *   forkcrash  the same, but dies by SIGKILL on `go`
 *   variant  `good` with a `UCI_Variant` option (chess, crazyhouse, 3check, atomic; no horde);
 *            in crazyhouse it answers for the position after 1. e4 d5 2. exd5 Qxd5 (White to
 *            move: best P@e6, a pv with drops, a second pv with an illegal drop N@d4) or one
 *            move after it (Black to move: best P@e3)
 * With FAKE_ENGINE_LOG set, every line received is appended to that file.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static void say(const char *line) {
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

static void pause_ms(long ms) {
    struct timespec t;
    t.tv_sec = ms / 1000;
    t.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&t, NULL);
}

/* Writes to the engine's output for ever (until the reader goes away and a write kills it). */
static void flood(const char *mode) {
    unsigned long n = 0;
    for (;;) {
        if (strcmp(mode, "longline") == 0) {
            fputs("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", stdout);
        } else if (strcmp(mode, "infoflood") == 0) {
            printf("info depth 1 nodes %lu string flooding the host with lines that look like a search\n", ++n);
        } else {
            fputs("junk junk junk junk junk junk junk junk junk junk junk junk junk junk junk junk\n", stdout);
        }
        if (strcmp(mode, "trickle") == 0) {
            fflush(stdout);
            pause_ms(1);
        }
    }
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "good";
    int junk = strcmp(mode, "junk") == 0;
    int forking = strncmp(mode, "fork", 4) == 0;
    int variants = strcmp(mode, "variant") == 0;
    char variant[64] = "chess"; /* the last UCI_Variant set */
    int black = 0; /* Black to move: the last position had an odd number of moves */
    int waiting = 0; /* a `go ponder` or `go infinite` whose best move is still due */
    char line[4096];
    const char *log_path = getenv("FAKE_ENGINE_LOG");
    pid_t helper = 0;
    const char *first = NULL, *second = NULL, *best = NULL; /* the last search's lines */
    if (strcmp(mode, "exit") == 0) {
        return 3;
    }
    if (forking) {
        helper = fork();
        if (helper == 0) {
            pause_ms(3600 * 1000L);
            return 0;
        }
    }
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (log_path != NULL) {
            FILE *log = fopen(log_path, "a");
            if (log != NULL) {
                fprintf(log, "%s\n", line);
                fclose(log);
            }
        }
        if (junk) {
            say("\x01\xff garbage \x7f");
            say("info depth x pv e9e9 score mate");
        }
        if (strcmp(line, "uci") == 0) {
            if (strcmp(mode, "silent") == 0) {
                continue;
            }
            if (strcmp(mode, "slow") == 0) {
                pause_ms(1000);
            }
            say("id name Fake Engine 1.0");
            say("id author The chesscore tests");
            say("option name Hash type spin default 16 min 1 max 1024");
            say("option name Style type combo default Normal var Solid var Normal var Risky");
            say("option name Clear Hash type button");
            say("option name UCI_Chess960 type check default false");
            say("option name MultiPV type spin default 1 min 1 max 8");
            if (variants) {
                say("option name UCI_Variant type combo default chess var chess var crazyhouse var 3check var atomic");
            }
            if (forking) {
                printf("option name Pids type string default %ld %ld\n", (long)getpid(), (long)helper);
            }
            say("uciok");
            if (strcmp(mode, "gone") == 0) {
                return 0;
            }
        } else if (strncmp(line, "position", 8) == 0) {
            const char *at = strstr(line, " moves ");
            black = 0;
            /* One space before each move. */
            for (at = at != NULL ? at + 6 : NULL; at != NULL; at = strchr(at + 1, ' ')) {
                black = !black;
            }
        } else if (strncmp(line, "setoption name UCI_Variant value ", 33) == 0) {
            snprintf(variant, sizeof variant, "%.63s", line + 33); /* longer names are cut */
        } else if (strcmp(line, "isready") == 0) {
            say("readyok");
        } else if (strncmp(line, "go", 2) == 0) {
            if (strcmp(mode, "crash") == 0 || strcmp(mode, "forkcrash") == 0) {
                raise(SIGKILL);
            }
            if (strcmp(mode, "flood") == 0 || strcmp(mode, "infoflood") == 0 || strcmp(mode, "trickle") == 0 ||
                strcmp(mode, "longline") == 0) {
                flood(mode);
            }
            if (variants && strcmp(variant, "crazyhouse") == 0) {
                first = black ? "info depth 1 multipv 1 score cp -40 nodes 20 pv P@e3 d2e3"
                              : "info depth 1 multipv 1 score cp 40 nodes 20 pv P@e6 P@e3 d2e3";
                second = black ? "info depth 1 multipv 2 score cp -50 nodes 20 pv P@e3 P@e3"
                               : "info depth 1 multipv 2 score cp 10 nodes 20 pv b1c3 N@d4 e7e5";
                best = black ? "bestmove P@e3 ponder d2e3" : "bestmove P@e6 ponder P@e3";
            } else {
                first = black ? "info depth 1 seldepth 2 multipv 1 score cp 31 wdl 300 600 100 nodes 20 nps 2000 time 10 pv e7e5 b1c3"
                              : "info depth 1 seldepth 2 multipv 1 score cp 31 wdl 300 600 100 nodes 20 nps 2000 time 10 pv e2e4 e7e5";
                second = black ? "info depth 1 multipv 2 score cp -5 upperbound nodes 20 pv d7d5 d7d5"
                               : "info depth 1 multipv 2 score cp -5 upperbound nodes 20 pv d2d4 d2d4";
                best = black ? "bestmove e7e5 ponder b1c3" : "bestmove e2e4 ponder e7e5";
            }
            say(first);
            if (strcmp(mode, "hang") == 0 || strcmp(mode, "fork") == 0) {
                continue;
            }
            say(second);
            say("info string all done here");
            waiting = strncmp(line, "go ponder", 9) == 0 || strncmp(line, "go infinite", 11) == 0;
            if (strcmp(mode, "badmove") == 0) {
                say("bestmove e2e5");
            } else if (!waiting) {
                say(best);
            }
        } else if (waiting && (strcmp(line, "stop") == 0 || strcmp(line, "ponderhit") == 0)) {
            waiting = 0;
            if (strcmp(line, "ponderhit") == 0) {
                say("info string ponderhit");
            }
            say(best);
        } else if (strcmp(line, "quit") == 0 && strcmp(mode, "hang") != 0 && strcmp(mode, "fork") != 0) {
            return 0;
        }
    }
    /* A hung engine does not even notice its input closing. */
    while (strcmp(mode, "hang") == 0 || strcmp(mode, "fork") == 0) {
        pause_ms(1000);
    }
    return 0;
}
