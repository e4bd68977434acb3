// The command line for the Swift runtime of the installed (statically linked) executable.
//
// Swift's standard library asks its runtime for argc and argv through
// _swift_stdlib_getUnsafeArgvArgc (CommandLine.arguments). On Linux the runtime answers from a
// static constructor (CommandLine.cpp's ArgvGrabber) that reads /proc/self/maps line by line
// with sscanf to find the stack, then walks back from `environ`: about 110,000 instructions and
// a /proc read (the kernel formats every mapping) at every start, 5 % of `cloudsync otp code`.
// glibc already hands argc and argv to every constructor of the executable, so this file keeps
// them from the first constructor to run and defines the runtime's two entry points itself.
// When the executable is linked against the static runtime, these definitions are found first
// and the runtime's CommandLine.cpp object (and its constructor) is never pulled from the
// archive; against the shared runtime they are unused (its own copy is not interposable).
// Same contract as the runtime's: an override (from _swift_stdlib_overrideUnsafeArgvArgc) wins.

#include <stddef.h>
#include "CProcessArguments.h"

static int savedCount = 0;
static char **savedVector = NULL;
static int overrideCount = 0;
static char **overrideVector = NULL;
static char *emptyVector[] = { NULL };

// Priority 101: before the runtime's own constructors, which run unprioritized.
__attribute__((constructor(101)))
static void cprocessarguments_capture(int argc, char **argv, char **envp) {
    (void)envp;
    savedCount = argc;
    savedVector = argv;
}

__attribute__((swiftcall, visibility("hidden")))
void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    overrideVector = argv;
    overrideCount = argc;
}

__attribute__((swiftcall, visibility("hidden")))
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (overrideVector) {
        *outArgLen = overrideCount;
        return overrideVector;
    }
    if (savedVector) {
        *outArgLen = savedCount;
        return savedVector;
    }
    *outArgLen = 0;
    return emptyVector;
}
