/* LD_PRELOAD shim for tests/floor/test_store_power_cut.py: before each fsync / fdatasync, appends
   "<path> <size>\n" to $TAPIS_POWER_CUT_LOG, so the test knows how much of each file had reached
   the disk when it cuts the power (kills the process and truncates each file to its last synced
   size: what the page cache held and no sync wrote is lost). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void note(int fd) {
    const char *log = getenv("TAPIS_POWER_CUT_LOG");
    char link[64], path[4096], line[4200];
    struct stat st;
    ssize_t n;
    int out;
    if (!log) return;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, path, sizeof path - 1);
    if (n <= 0 || fstat(fd, &st) != 0) return;
    path[n] = 0;
    n = snprintf(line, sizeof line, "%s %lld\n", path, (long long)st.st_size);
    out = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (out < 0) return;
    if (write(out, line, (size_t)n) < 0) { /* nothing to do */ }
    close(out);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    note(fd);
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    note(fd);
    return real(fd);
}
