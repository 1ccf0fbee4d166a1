#ifndef WB_CLIBEDIT_SHIM_H
#define WB_CLIBEDIT_SHIM_H

#include <stdio.h>
#include <stdlib.h>
#include <editline/readline.h>

/* libedit's readline-compatible globals are plain C globals. Swift 6 refuses
   to touch shared mutable state directly, so the shell reaches them only
   through these accessors (called from one thread, the shell's). */

static inline void wb_rl_set_completion(rl_completion_func_t *fn) {
    rl_attempted_completion_function = fn;
}

static inline void wb_rl_set_completion_append(int c) {
    rl_completion_append_character = c;
}

static inline void wb_rl_set_attempted_over(int v) {
    rl_attempted_completion_over = v;
}

static inline const char *wb_rl_line_buffer(void) {
    return rl_line_buffer;
}

static inline int wb_rl_point(void) {
    return rl_point;
}

static inline const char *wb_libedit_version(void) {
    return rl_library_version;
}

#endif
