#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return (sqlite3_destructor_type)-1; }

/// sqlite3_config is variadic, which Swift cannot call: sets the size up to which statement and
/// savepoint journals stay in memory before spilling to a temporary file (-1: always memory).
/// Only effective before the library is initialized (the first connection opened).
static inline int csqlite_config_stmtjrnl_spill(int bytes) { return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes); }

/// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on): whether SQLite keeps memory statistics. With
/// them on, every allocation and free takes the allocator's global mutex and updates the
/// counters (about 2.5 % of the instructions of `otp code`); nothing here reads them.
/// Only effective before the library is initialized.
static inline int csqlite_config_memstatus(int on) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on); }

/// sqlite3_config(SQLITE_CONFIG_PAGECACHE, NULL, 0, 0): no page-cache memory set aside at start.
/// By default each connection's cache first mallocs room for 20 pages in one block and threads a
/// free list through it, writing one header per page: with 16 KiB pages that touches 20 fresh
/// memory pages (20 page faults, ~7 % of `otp code`'s) for a command that reads a handful of
/// pages through the memory map. Pages are then allocated one by one as the cache needs them.
/// Only effective before the library is initialized.
static inline int csqlite_config_no_initial_page_cache(void) { return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0); }

/// SQLITE_STATIC is a macro casting 0 to a function pointer: SQLite uses the text where it lies,
/// which must stay valid until the parameter is bound again or cleared.
static inline sqlite3_destructor_type csqlite_static(void) { return (sqlite3_destructor_type)0; }
