// GNU readline and history (libreadline-dev) for the cloudsync REPL.
// readline.h needs <stdio.h> first (it uses FILE).
#ifndef CLOUDSYNC_CREADLINE_SHIM_H
#define CLOUDSYNC_CREADLINE_SHIM_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// Readline keeps its settings in C globals, which Swift 6 rejects as shared mutable state.
// These accessors are the only way the Swift side touches them (from the REPL's thread).

/// Sets readline up for the cloudsync REPL: application name "cloudsync" (for `$if` in
/// ~/.inputrc), no signal handlers of readline's own (the REPL handles SIGINT and SIGWINCH),
/// LINES/COLUMNS left alone, words broken at blanks and '=', quotes ' and ", and `completion`
/// as the attempted-completion function.
static inline void cloudsync_rl_configure(rl_completion_func_t *completion) {
    rl_readline_name = "cloudsync";
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    rl_completer_word_break_characters = " \t\n=";
    rl_completer_quote_characters = "'\"";
    rl_attempted_completion_function = completion;
}

/// Inside the completion function: 1 stops readline's file-name completion, 0 allows it.
static inline void cloudsync_rl_set_attempted_completion_over(int value) {
    rl_attempted_completion_over = value;
}

/// The line being edited.
static inline const char *cloudsync_rl_line_buffer(void) {
    return rl_line_buffer;
}

/// The cursor position in the line (a byte offset).
static inline int cloudsync_rl_point(void) {
    return rl_point;
}

#endif
