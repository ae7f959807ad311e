/* Writes a note line "# <text>" into the test double's call log
 * (CUDA_DOUBLE_LOG), so tests can tell which driver calls came from which
 * part of a program. One write() per line on an O_APPEND descriptor, like
 * the double's own lines. Does nothing when the variable is not set. */
#ifndef ABI_TESTS_DOUBLE_MARK_H
#define ABI_TESTS_DOUBLE_MARK_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void double_mark(const char *text) {
    const char *path = getenv("CUDA_DOUBLE_LOG");
    if (!path || !*path) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) return;
    char buf[256];
    int n = snprintf(buf, sizeof buf, "# %s\n", text);
    if (n > 0) {
        ssize_t w = write(fd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
        (void)w;
    }
    close(fd);
}

#endif
