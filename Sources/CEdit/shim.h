// libedit (readline interface) for Swift. Swift 6 refuses to touch C's mutable globals directly (they are shared
// state it cannot check), so the few readline variables PauseCam uses are reached through these accessors; the
// line editor only calls them from the thread that reads lines.
#ifndef PAUSECAM_CEDIT_SHIM_H
#define PAUSECAM_CEDIT_SHIM_H
#include <stdio.h>
#include <editline/readline.h>

/// rl_catch_signals = value.
static inline void pausecam_rl_set_catch_signals(int value) { rl_catch_signals = value; }
/// rl_attempted_completion_function = function.
static inline void pausecam_rl_set_completion_function(rl_completion_func_t *function) {
    rl_attempted_completion_function = function;
}
/// rl_attempted_completion_over = value.
static inline void pausecam_rl_set_completion_over(int value) { rl_attempted_completion_over = value; }
/// rl_line_buffer: the line being edited.
static inline char *pausecam_rl_line_buffer(void) { return rl_line_buffer; }
/// rl_point: the cursor's offset in the line.
static inline int pausecam_rl_point(void) { return rl_point; }
#endif
