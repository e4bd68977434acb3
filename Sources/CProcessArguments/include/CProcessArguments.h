#ifndef CPROCESSARGUMENTS_H
#define CPROCESSARGUMENTS_H

// Nothing to call: process_arguments.c defines the Swift runtime's own entry points
// (_swift_stdlib_getUnsafeArgvArgc and _swift_stdlib_overrideUnsafeArgvArgc) for the executable.

#endif
