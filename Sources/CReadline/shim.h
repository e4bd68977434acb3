// GNU readline and history (libreadline-dev) for the cloudsync REPL.
// readline.h needs <stdio.h> first (it uses FILE).
#ifndef CLOUDSYNC_CREADLINE_SHIM_H
#define CLOUDSYNC_CREADLINE_SHIM_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

#endif
