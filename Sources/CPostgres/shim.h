// Debian's libpq-dev puts the client headers under /usr/include/postgresql.
#include <postgresql/libpq-fe.h>
