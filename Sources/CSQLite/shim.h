#ifndef UIBUS_CSQLITE_SHIM_H
#define UIBUS_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a function-pointer cast macro Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// sqlite3_config is variadic, which Swift cannot call. Turns SQLite's memory statistics off,
/// which otherwise take a global mutex on every allocation (Debian builds with THREADSAFE=1).
/// Only takes effect before SQLite initializes; returns SQLITE_MISUSE after that.
static inline int csqlite_config_no_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
#endif
