#include "WBLineEditor.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <editline/readline.h>

static volatile sig_atomic_t interrupted = 0;
static void *shell_context = NULL;

static void on_interrupt(int signal_number) {
    (void)signal_number;
    interrupted = 1;
}

/* libedit's readline layer reads one char at a time through this hook and hands the
   value on as a wide character, so a UTF-8 sequence is decoded here into one code
   point. Ctrl-C (the signal, or the byte when the terminal passes it through) ends
   the read with a newline; the shell then discards the line. */
static int read_byte(int fd, unsigned char *byte) {
    for (;;) {
        ssize_t n = read(fd, byte, 1);
        if (n == 1) return 1;
        if (n == 0) return 0;
        if (errno == EINTR) {
            if (interrupted) return -2;
            continue;
        }
        return -1;
    }
}

static int wble_getc(FILE *stream) {
    int fd = fileno(stream);
    unsigned char first;
    int status = read_byte(fd, &first);
    if (status == -2) return '\n';
    if (status <= 0) return EOF;
    if (first == 0x03) {
        interrupted = 1;
        return '\n';
    }
    if (first < 0x80) return first;
    int extra = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : first >= 0xC0 ? 1 : 0;
    int code = first & (0x3F >> extra);
    for (int i = 0; i < extra; i++) {
        unsigned char next;
        status = read_byte(fd, &next);
        if (status == -2) return '\n';
        if (status <= 0) return EOF;
        if ((next & 0xC0) != 0x80) return 0xFFFD;
        code = (code << 6) | (next & 0x3F);
    }
    return extra == 0 ? 0xFFFD : code;
}

void wble_initialize(const char *name) {
    /* libedit turns the prompt and every line into wide characters by the locale's rules,
       and crashes (a NULL wide string) on bytes the locale cannot decode: a file named
       "café" under LC_ALL=C (containers, cron, CI) ended wb at its first prompt. So, as
       Python does with the C locale, the plain C or POSIX locale is taken as C.UTF-8 for
       characters; the prompt is made decodable below whatever the locale. */
    const char *chosen = setlocale(LC_CTYPE, "");
    if (chosen == NULL || strcmp(chosen, "C") == 0 || strcmp(chosen, "POSIX") == 0) {
        /* (setlocale's answer lives in storage a later call may reuse: not read after this.) */
        if (setlocale(LC_CTYPE, "C.UTF-8") == NULL && setlocale(LC_CTYPE, "C.utf8") == NULL) {
            setlocale(LC_CTYPE, "C");
        }
    }
    rl_readline_name = name;
    rl_getc_function = wble_getc;
    rl_catch_signals = 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    /* No SA_RESTART: a read in progress returns EINTR so the line can be abandoned. */
    sigaction(SIGINT, &action, NULL);
}

/* A copy of `text` that the locale can decode: bytes it cannot are shown as '?'. */
static char *decodable(const char *text) {
    size_t length = strlen(text);
    char *copy = malloc(length + 1);
    if (copy == NULL) return NULL;
    mbstate_t state;
    memset(&state, 0, sizeof state);
    size_t in = 0, out = 0;
    while (in < length) {
        wchar_t wide;
        size_t used = mbrtowc(&wide, text + in, length - in, &state);
        if (used == (size_t)-1 || used == (size_t)-2 || used == 0) {
            copy[out++] = used == 0 ? text[in] : '?';
            in += 1;
            memset(&state, 0, sizeof state);
            continue;
        }
        memcpy(copy + out, text + in, used);
        in += used;
        out += used;
    }
    copy[out] = '\0';
    return copy;
}

char *wble_readline(const char *prompt) {
    interrupted = 0;
    if (prompt != NULL && mbstowcs(NULL, prompt, 0) == (size_t)-1) {
        char *shown = decodable(prompt);
        char *line = readline(shown ? shown : "> ");
        free(shown);
        return line;
    }
    return readline(prompt);
}

int wble_interrupt_pending(void) { return interrupted ? 1 : 0; }

int wble_take_interrupt(void) {
    int was = interrupted ? 1 : 0;
    interrupted = 0;
    return was;
}

void wble_set_completer(wble_completer completer) {
    rl_attempted_completion_function = completer;
}

void wble_set_completion_append_character(int character) {
    rl_completion_append_character = character;
}

const char *wble_line_buffer(void) { return rl_line_buffer; }
int wble_point(void) { return rl_point; }

void wble_set_context(void *context) { shell_context = context; }
void *wble_context(void) { return shell_context; }

void wble_add_history(const char *line) { add_history(line); }
int wble_read_history(const char *path) { return read_history(path); }
int wble_write_history(const char *path) { return write_history(path); }
void wble_stifle_history(int count) { stifle_history(count); }

char *wble_strdup(const char *text) { return strdup(text); }
char **wble_alloc_matches(int count) { return calloc((size_t)count + 1, sizeof(char *)); }

extern char **environ;
char **wble_environment(void) { return environ; }

void wble_show_above_line(const char *text) {
    FILE *out = rl_outstream ? rl_outstream : stdout;
    fflush(out);
    for (const char *p = text; *p; p++) {
        if (*p == '\n') fputc('\r', out);
        fputc(*p, out);
    }
    fflush(out);
    rl_forced_update_display();
}

/* The crash journal's mark (see the header). */
static volatile sig_atomic_t crash_mark_fd = -1;
static const int crash_signals[] = { SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE };
#define CRASH_SIGNAL_COUNT (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction crash_previous[CRASH_SIGNAL_COUNT];
static int crash_mark_installed = 0;

static void crash_mark(int signal) {
    int fd = crash_mark_fd;
    if (fd >= 0) {
        static const char line[] = "{\"crashed\":true}\n";
        ssize_t written = write(fd, line, sizeof line - 1);
        (void)written;
        crash_mark_fd = -1;
    }
    for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        if (crash_signals[i] == signal) {
            sigaction(signal, &crash_previous[i], NULL);
            break;
        }
    }
    /* Pending until this handler returns, then taken by the handler restored above, at the
       instruction that faulted (which, run again, would fault again anyway). */
    raise(signal);
}

void wble_install_crash_mark(void) {
    if (crash_mark_installed) return;
    crash_mark_installed = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = crash_mark;
    sigemptyset(&action.sa_mask);
    for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        sigaction(crash_signals[i], &action, &crash_previous[i]);
    }
}

void wble_set_crash_mark_fd(int fd) {
    crash_mark_fd = fd;
}
