/* A disk that takes longer to flush, for scripts/bench_tables.py --flush-delay MS.
 *
 * Loaded into the bot with LD_PRELOAD: every fsync and fdatasync (SQLite's flush at each
 * commit with DATABASE_SYNC=FULL) does its real work, then sleeps BALOOT_FLUSH_DELAY_US
 * microseconds, as a slower disk would keep the committing thread waiting. Nothing else
 * changes. Built by bench_tables.py with the system's C compiler into its temporary folder.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static useconds_t delay_us(void) {
    const char *value = getenv("BALOOT_FLUSH_DELAY_US");
    return value ? (useconds_t)strtoul(value, NULL, 10) : 0;
}

/* The real call (found once, in the next library that defines it), then the delay. */
static int delayed(const char *name, int (**real)(int), int fd) {
    if (!*real) *real = (int (*)(int))dlsym(RTLD_NEXT, name);
    int result = (*real)(fd);
    usleep(delay_us());
    return result;
}

int fsync(int fd) {
    static int (*real)(int);
    return delayed("fsync", &real, fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    return delayed("fdatasync", &real, fd);
}
