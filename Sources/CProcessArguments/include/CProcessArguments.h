#ifndef CPROCESSARGUMENTS_H
#define CPROCESSARGUMENTS_H

/// The process's argument vector as glibc handed it to the executable's constructors (see
/// process_arguments.c); argc is 0 and argv NULL before they have run.
int cprocessarguments_count(void);
char **cprocessarguments_vector(void);

#endif
