// GNU readline and history (libreadline-dev) for the cloudsync REPL: types only. The library
// is not linked; Commands/Repl/Readline.swift opens it with dlopen when the REPL starts and
// reaches its functions and settings (C globals) through the addresses dlsym returns.
// readline.h needs <stdio.h> first (it uses FILE).
#ifndef CLOUDSYNC_CREADLINE_SHIM_H
#define CLOUDSYNC_CREADLINE_SHIM_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// The strings cloudsync sets readline's settings to: C literals, which live as long as the
// process (readline keeps the pointers, it does not copy them).

/// The application name, for `$if cloudsync` in ~/.inputrc.
static inline const char *cloudsync_rl_readline_name(void) { return "cloudsync"; }
/// Completion words break at blanks and '='.
static inline const char *cloudsync_rl_word_break_characters(void) { return " \t\n="; }
/// Completion understands ' and " quotes.
static inline const char *cloudsync_rl_quote_characters(void) { return "'\""; }

#endif
