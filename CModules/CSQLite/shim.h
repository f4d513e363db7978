#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call. This turns off SQLite's memory-usage
   statistics, which take a global mutex on every allocation; it only works before SQLite
   initialises (the first open), and returns SQLITE_MISUSE, harmlessly, after. */
static inline int lantern_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
