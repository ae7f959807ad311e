/* ioctltrace.so: the driver's requests to the kernel module, by phase
 * (issue 8: does one runtime's start-up do driver work that the other's
 * first launch pays?). Calls made through private export tables are out
 * of drvtrace.so's sight; every one that reaches the GPU still ends in an
 * ioctl on /dev/nvidia*, and those this library counts.
 *
 *   cc -O2 -fPIC -shared -o ioctltrace.so ioctltrace.c -ldl
 *   LD_PRELOAD=./ioctltrace.so ./probe_first direct
 *
 * It interposes libc's `ioctl`, `mmap` and `munmap` (the driver maps its
 * memory with them) and counts calls and nanoseconds per phase. Phases are
 * named by the program: `ioctltrace_mark("name")`, looked up with
 * dlsym(RTLD_DEFAULT) so a program runs unchanged without this library
 * (bench/probe_first.cu marks "startup" before cudaFree(0), "idle" after
 * it, "launch" around its first launch, "rest" after). At exit, one line
 * per phase and kind (calls or not) to stdout:
 *   PROBE sys <phase> <ioctl|mmap|munmap> calls <n> us <total> [reqs <r:n,...>]
 * with the ioctl request numbers (low 16 bits: type and number) and counts.
 * It also interposes `dlopen` and writes, as they happen, the flags each
 * library is opened with ("PROBE sys dlopen <name> flags <decimal>"): a driver
 * opened RTLD_LAZY binds its own calls into libc on first use, RTLD_NOW
 * binds them all at once.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

enum { PHASES = 8, KINDS = 3, REQS = 64 };
static const char *phase_name[PHASES] = {"before"};
static int phases = 1, phase;
static const char *kind_name[KINDS] = {"ioctl", "mmap", "munmap"};
static struct {
    unsigned long calls;
    uint64_t ns;
    unsigned long req[REQS], req_n[REQS];
    int reqs;
} stat[PHASES][KINDS];

static uint64_t now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Single-threaded programs are what this is for; a second thread's calls
 * are counted in the current phase, without a lock (a miscount at worst). */
static void count(int kind, uint64_t ns, unsigned long req, int has_req) {
    __typeof__(stat[0][0]) *s = &stat[phase][kind];
    s->calls++;
    s->ns += ns;
    if (!has_req) return;
    for (int i = 0; i < s->reqs; i++)
        if (s->req[i] == req) {
            s->req_n[i]++;
            return;
        }
    if (s->reqs < REQS) {
        s->req[s->reqs] = req;
        s->req_n[s->reqs++] = 1;
    }
}

void ioctltrace_mark(const char *name) {
    for (int i = 0; i < phases; i++)
        if (!strcmp(phase_name[i], name)) {
            phase = i;
            return;
        }
    if (phases < PHASES) {
        phase_name[phases] = name; /* string literals of the program */
        phase = phases++;
    }
}

void *dlopen(const char *name, int flags) {
    static void *(*real)(const char *, int);
    if (!real) real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    if (name) printf("PROBE sys dlopen %s flags %d\n", name, flags);
    return real(name, flags);
}

int ioctl(int fd, unsigned long req, ...) {
    static int (*real)(int, unsigned long, void *);
    if (!real) real = (int (*)(int, unsigned long, void *))dlsym(RTLD_NEXT, "ioctl");
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    uint64_t t = now();
    int r = real(fd, req, arg);
    count(0, now() - t, req & 0xffff, 1);
    return r;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    static void *(*real)(void *, size_t, int, int, int, off_t);
    if (!real) real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    uint64_t t = now();
    void *r = real(addr, len, prot, flags, fd, off);
    count(1, now() - t, 0, 0);
    return r;
}

int munmap(void *addr, size_t len) {
    static int (*real)(void *, size_t);
    if (!real) real = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
    uint64_t t = now();
    int r = real(addr, len);
    count(2, now() - t, 0, 0);
    return r;
}

__attribute__((destructor)) static void report(void) {
    for (int p = 0; p < phases; p++)
        for (int k = 0; k < KINDS; k++) {
            __typeof__(stat[0][0]) *s = &stat[p][k];
            printf("PROBE sys %s %s calls %lu us %.1f", phase_name[p], kind_name[k], s->calls,
                   s->ns / 1e3);
            if (s->reqs) {
                printf(" reqs ");
                for (int i = 0; i < s->reqs; i++)
                    printf("%s%lx:%lu", i ? "," : "", s->req[i], s->req_n[i]);
            }
            printf("\n");
        }
    fflush(stdout);
}
