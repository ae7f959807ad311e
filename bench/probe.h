/* probe.h: what the first-launch probes share (probe_load.c and
 * probe_warm.c, C, and probe_first.cu, CUDA C++): a microsecond clock, the
 * process's page-fault count, an image read from a file, and the two
 * driver types they pass around. */
#ifndef BENCH_PROBE_H
#define BENCH_PROBE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

typedef int CUresult;
typedef void *H;

static inline double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Page faults of the process so far (minor and major). */
static inline long faults(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt + u.ru_majflt;
}

/* The file's bytes, 16-byte aligned as an image in a program's
 * .nv_fatbin section is; NULL when it cannot be read. */
static inline void *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = aligned_alloc(16, (size_t)(n + 15) / 16 * 16);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) p = NULL;
    fclose(f);
    return p;
}

#endif
