#ifndef WB_LINE_EDITOR_H
#define WB_LINE_EDITOR_H

/* The C side of wb's interactive shell on libedit's readline interface. libedit's
   globals, its variadic calls and signal handling live here, so that Swift sees
   only plain functions. Everything here runs on the shell's one thread. */

typedef char **(*wble_completer)(const char *text, int start, int end);

/* Sets up libedit: UTF-8 input, Ctrl-C handling, the program name for ~/.editrc. */
void wble_initialize(const char *name);

/* Reads a line; NULL at end of input (Ctrl-D on an empty line). The caller frees it.
   After Ctrl-C, wble_take_interrupt() returns 1 and the line is to be discarded. */
char *wble_readline(const char *prompt);

/* 1 once per Ctrl-C since the last call. */
int wble_take_interrupt(void);

/* 1 when Ctrl-C was pressed since the last wble_readline or wble_take_interrupt, without
   clearing it: a running command polls this between the lines of a script. The handler
   is installed by wble_initialize (without SA_RESTART) and only sets this flag. */
int wble_interrupt_pending(void);

void wble_set_completer(wble_completer completer);
void wble_set_completion_append_character(int character);
const char *wble_line_buffer(void);
int wble_point(void);

/* An opaque pointer the completer can reach (the Swift shell). */
void wble_set_context(void *context);
void *wble_context(void);

void wble_add_history(const char *line);
int wble_read_history(const char *path);
int wble_write_history(const char *path);
void wble_stifle_history(int count);

/* A malloc'ed copy, for completion results (libedit frees them). */
char *wble_strdup(const char *text);
char **wble_alloc_matches(int count);

/* Writes text (lines ending in \n) where the line being edited is, then draws the prompt
   and the line again below it: a completion list shown by the completer itself. */
void wble_show_above_line(const char *text);

/* The process's environment (environ), for posix_spawn: a C global Swift 6 will not touch. */
char **wble_environment(void);

/* The crash journal's mark: once installed, a fault (SIGILL from a failed Swift check,
   SIGTRAP, SIGSEGV, SIGBUS, SIGFPE) appends {"crashed":true} and a newline to the file
   descriptor set last (none when -1) with one write(2), then goes on to the handler that
   was there before (Swift's backtrace, or the default): a replay then knows the command
   the session died in crashed it, and does not run it again. */
void wble_install_crash_mark(void);
void wble_set_crash_mark_fd(int fd);

#endif
