/* runner.h: the hand-written half of the differential harness.
 *
 * abi-tests/harness/gen.rs generates `harness.cu`: one small function per
 * export of libcudart.so.13 that prepares ordinary arguments and makes the
 * call, and a table of them. This file is the rest: argument buffers,
 * fixtures, the per-call child process and the report.
 *
 * Every call runs in its own fork()ed child (so a crash or a hang in either
 * runtime is recorded, never fatal), under alarm(). In the child:
 *   1. the arguments are prepared (out-pointers point at 4 KiB buffers
 *      filled with 0xA5, input pointers at zero-filled buffers, handles are
 *      NULL, or real objects in --gpu mode);
 *   2. pre   = cudaPeekAtLastError()      (left out with --first)
 *   3. rc    = the call
 *   4. post  = cudaPeekAtLastError()
 *      get   = cudaGetLastError()
 *      again = cudaPeekAtLastError()      (still set: the error is sticky)
 *   5. which out-buffers no longer hold the 0xA5 pattern (and, for int-like
 *      out values, the value written).
 * The child writes its record into shared memory; the parent prints one
 * line per export, in table order, as soon as that line and every one
 * before it are known:
 *   NAME rc=R pre=P post=P get=G again=A out=[param:-|w|w=V ...]
 *        [fix=[fixture=error,...]] end=E [stage=S]
 * E is exit0, signalN, timeout or exitN; stage (printed when the child did
 * not finish normally) says how far it got: 1 arguments ready, 2 the call
 * returned, 3 done. fix lists fixtures that failed to be made (--gpu).
 * Lines starting with '#' are comments.
 *
 * The parent never calls the runtime: with a real driver, a process must
 * not fork after CUDA is initialized. (nvcc's registration constructors run
 * in the parent; they never touch the driver.)
 *
 * Options:
 *   --gpu        real fixtures: streams, events, graphs, arrays, device
 *                memory... (without it every handle is NULL)
 *   --first      no cudaPeekAtLastError before the call: the call is the
 *                child's first runtime call
 *   --null-outs  every out-pointer NULL: who checks its arguments before it
 *                needs the driver
 *   --nofork     every call in this process, in table order: state carries
 *                over from call to call (and a crash ends the run)
 *   --jobs N     children at once (default: CPUs, at most 4; 16 with --gpu)
 *   --timeout S  per call (default 10 s; 20 s with --gpu)
 *   --only a,b   only these exports; --skip a,b: all but these
 *   --list       print the names and exit */
#ifndef HARNESS_RUNNER_H
#define HARNESS_RUNNER_H

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#define H_BUF 4096   /* bytes of every argument buffer */
#define H_MAXP 16    /* parameters per call */
#define H_SENTINEL 0xA5

/* How an out-buffer is reported when written. */
enum h_out_kind { H_RAW = 0, H_INT = 1 };

/* Fixtures: the objects a handle parameter receives. Without --gpu every
 * one is NULL/0, except the registration handle (registration needs no
 * driver) and the memory ones, which are then a zeroed 4 KiB host buffer. */
enum h_fixture {
    HF_STREAM, HF_EVENT, HF_GRAPH, HF_NODE, HF_GRAPHEXEC, HF_ARRAY,
    HF_MIPMAP, HF_MEMPOOL, HF_KERNEL, HF_LIBRARY, HF_USEROBJ,
    HF_DEVBUF, HF_PINNED, HF_TEXOBJ, HF_SURFOBJ, HF_FATHANDLE, HF_CHILDGRAPH, HF_CLONE,
    HF_COUNT
};

/* One call's record, in memory shared with the parent. */
struct h_rec {
    int stage; /* 0 not started, 1 arguments ready, 2 call returned, 3 done */
    int pre, post, get, again;
    char rc[96];
    char outs[640];
    char fix[160];
};

struct h_ctx {
    struct h_rec *rec;
    int gpu;
    int first;
    int null_outs;
    unsigned char *buf[H_MAXP];
    int out_kind[H_MAXP];
    const char *out_name[H_MAXP];
    int is_out[H_MAXP];
    void *fix[HF_COUNT];
    int fix_done[HF_COUNT];
    int made; /* a fixture called the runtime */
};

typedef void (*h_call_fn)(struct h_ctx *);
struct h_call {
    const char *name;
    h_call_fn fn;
};

/* Defined by the generated file (before it includes this one): the table
 * of calls; harness_kernel, harness_symbol, harness_args (one argument for
 * it), harness_managed_ptr and harness_fatbin (the embedded fatbin). */
extern const struct h_call h_calls[];
extern const int h_ncalls;

/* A fatbin wrapper for __cudaRegisterFatBinary around the embedded fatbin
 * (magic, version 1, data, no prelinked list). */
struct h_wrapper {
    unsigned int magic;
    unsigned int version;
    const void *data;
    const void *unused;
};
static struct h_wrapper harness_wrapper = {0x466243B1u, 1u, 0, 0};
/* What __cudaRegisterFunction/Var receive as the host-side address. */
static char harness_host_stub[64];
static int harness_host_var[16];

extern "C" void **h_register_fatbin(void *) __asm__("__cudaRegisterFatBinary");

static void harness_noop(void) {}

/* The wrapper, ready for __cudaRegisterFatBinary. */
static void *h_wrapper(void) {
    harness_wrapper.data = harness_fatbin;
    return &harness_wrapper;
}

/* A memory location: device 0. */
static struct cudaMemLocation h_loc_device0(void) {
    struct cudaMemLocation l;
    memset(&l, 0, sizeof l);
    l.type = cudaMemLocationTypeDevice;
    l.id = 0;
    return l;
}

/* ---------------------------------------------------------------- buffers */

static unsigned char h_buffers[H_MAXP][H_BUF] __attribute__((aligned(64)));
static unsigned char h_hostbuf[H_BUF] __attribute__((aligned(64)));

/* An out-buffer: 0xA5 everywhere, checked after the call. */
static void *h_out(struct h_ctx *h, int i, const char *name, int kind) {
    memset(h->buf[i], H_SENTINEL, H_BUF);
    h->is_out[i] = 1;
    h->out_name[i] = name;
    h->out_kind[i] = kind;
    if (h->null_outs) {
        h->is_out[i] = 0;
        return 0;
    }
    return h->buf[i];
}

/* An input buffer: zero-filled (the generated code may fill fields). */
static void *h_in(struct h_ctx *h, int i) {
    memset(h->buf[i], 0, H_BUF);
    return h->buf[i];
}

static void h_note_fix(struct h_ctx *h, const char *what, int err) {
    size_t n = strlen(h->rec->fix);
    snprintf(h->rec->fix + n, sizeof h->rec->fix - n, "%s%s=%d", n ? "," : "", what, err);
}

/* --------------------------------------------------------------- fixtures */

static struct cudaChannelFormatDesc h_float_desc(void) {
    struct cudaChannelFormatDesc d;
    memset(&d, 0, sizeof d);
    d.x = 32;
    d.f = cudaChannelFormatKindFloat;
    return d;
}

static void *h_make_fixture(struct h_ctx *h, int which);

static void *h_fixture(struct h_ctx *h, int which) {
    if (!h->fix_done[which]) {
        h->fix_done[which] = 1;
        h->fix[which] = h_make_fixture(h, which);
        if (h->gpu) h->made = 1;
    }
    return h->fix[which];
}

/* Creates a fixture. Without --gpu only the two that need no driver. */
static void *h_make_fixture(struct h_ctx *h, int which) {
    cudaError_t e = cudaSuccess;
    if (which == HF_FATHANDLE) return (void *)h_register_fatbin(h_wrapper());
    if (!h->gpu) return which == HF_DEVBUF || which == HF_PINNED ? (void *)h_hostbuf : (void *)0;
    switch (which) {
    case HF_STREAM: {
        cudaStream_t s = 0;
        e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        if (e) h_note_fix(h, "stream", e);
        return (void *)s;
    }
    case HF_EVENT: {
        cudaEvent_t ev = 0;
        e = cudaEventCreate(&ev);
        if (e) h_note_fix(h, "event", e);
        return (void *)ev;
    }
    case HF_GRAPH: {
        cudaGraph_t g = 0;
        e = cudaGraphCreate(&g, 0);
        if (e) h_note_fix(h, "graph", e);
        return (void *)g;
    }
    case HF_CHILDGRAPH: {
        cudaGraph_t g = 0;
        e = cudaGraphCreate(&g, 0);
        if (e) h_note_fix(h, "childgraph", e);
        return (void *)g;
    }
    case HF_CLONE: {
        cudaGraph_t g = 0;
        (void)h_fixture(h, HF_NODE);
        e = cudaGraphClone(&g, (cudaGraph_t)h_fixture(h, HF_GRAPH));
        if (e) h_note_fix(h, "clone", e);
        return (void *)g;
    }
    case HF_NODE: {
        cudaGraphNode_t n = 0;
        e = cudaGraphAddEmptyNode(&n, (cudaGraph_t)h_fixture(h, HF_GRAPH), 0, 0);
        if (e) h_note_fix(h, "node", e);
        return (void *)n;
    }
    case HF_GRAPHEXEC: {
        cudaGraphExec_t x = 0;
        (void)h_fixture(h, HF_NODE);
        e = cudaGraphInstantiate(&x, (cudaGraph_t)h_fixture(h, HF_GRAPH), 0);
        if (e) h_note_fix(h, "graphexec", e);
        return (void *)x;
    }
    case HF_ARRAY: {
        cudaArray_t a = 0;
        struct cudaChannelFormatDesc d = h_float_desc();
        e = cudaMallocArray(&a, &d, 64, 4, cudaArraySurfaceLoadStore);
        if (e) h_note_fix(h, "array", e);
        return (void *)a;
    }
    case HF_MIPMAP: {
        cudaMipmappedArray_t m = 0;
        struct cudaChannelFormatDesc d = h_float_desc();
        e = cudaMallocMipmappedArray(&m, &d, make_cudaExtent(64, 4, 0), 2, 0);
        if (e) h_note_fix(h, "mipmap", e);
        return (void *)m;
    }
    case HF_MEMPOOL: {
        cudaMemPool_t p = 0;
        e = cudaDeviceGetDefaultMemPool(&p, 0);
        if (e) h_note_fix(h, "mempool", e);
        return (void *)p;
    }
    case HF_KERNEL: {
        cudaKernel_t k = 0;
        e = cudaGetKernel(&k, (const void *)harness_kernel);
        if (e) h_note_fix(h, "kernel", e);
        return (void *)k;
    }
    case HF_LIBRARY: {
        cudaLibrary_t l = 0;
        e = cudaLibraryLoadData(&l, harness_fatbin, 0, 0, 0, 0, 0, 0);
        if (e) h_note_fix(h, "library", e);
        return (void *)l;
    }
    case HF_USEROBJ: {
        cudaUserObject_t o = 0;
        e = cudaUserObjectCreate(&o, h_hostbuf, (cudaHostFn_t)harness_noop, 1,
                                 cudaUserObjectNoDestructorSync);
        if (e) h_note_fix(h, "userobj", e);
        return (void *)o;
    }
    case HF_DEVBUF: {
        void *p = 0;
        e = cudaMalloc(&p, 1 << 20);
        if (e) h_note_fix(h, "devbuf", e);
        if (!e) cudaMemset(p, 0, 1 << 20);
        return p;
    }
    case HF_PINNED: {
        void *p = 0;
        e = cudaMallocHost(&p, H_BUF);
        if (e) h_note_fix(h, "pinned", e);
        return p;
    }
    case HF_TEXOBJ:
    case HF_SURFOBJ: {
        struct cudaResourceDesc r;
        memset(&r, 0, sizeof r);
        r.resType = cudaResourceTypeArray;
        r.res.array.array = (cudaArray_t)h_fixture(h, HF_ARRAY);
        if (which == HF_SURFOBJ) {
            cudaSurfaceObject_t s = 0;
            e = cudaCreateSurfaceObject(&s, &r);
            if (e) h_note_fix(h, "surfobj", e);
            return (void *)(uintptr_t)s;
        }
        struct cudaTextureDesc t;
        memset(&t, 0, sizeof t);
        cudaTextureObject_t o = 0;
        e = cudaCreateTextureObject(&o, &r, &t, 0);
        if (e) h_note_fix(h, "texobj", e);
        return (void *)(uintptr_t)o;
    }
    }
    return 0;
}

/* What nvcc's launch stubs hand __cudaLaunchKernel: the kernel handle of
 * __cudaGetKernel (with --gpu), else the stub itself (what NVIDIA's runtime
 * stores when __cudaGetKernel fails without a driver). */
static void *h_kernel_or_stub(struct h_ctx *h) {
    return h->gpu ? h_fixture(h, HF_KERNEL) : (void *)harness_kernel;
}

/* In --gpu mode the fixtures' own errors are cleared before the call. */
static void h_before(struct h_ctx *h) {
    if (h->made) (void)cudaGetLastError();
    h->rec->pre = h->first ? -1 : (int)cudaPeekAtLastError();
    h->rec->stage = 1;
}

static void h_after(struct h_ctx *h) {
    h->rec->stage = 2;
    h->rec->post = (int)cudaPeekAtLastError();
    h->rec->get = (int)cudaGetLastError();
    h->rec->again = (int)cudaPeekAtLastError();
}

static void h_rc(struct h_ctx *h, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->rec->rc, sizeof h->rec->rc, fmt, ap);
    va_end(ap);
}

/* Which out-buffers were written. */
static void h_outs(struct h_ctx *h) {
    char *o = h->rec->outs;
    size_t cap = sizeof h->rec->outs, n = 0;
    for (int i = 0; i < H_MAXP; i++) {
        if (!h->is_out[i]) continue;
        int written = 0;
        for (int j = 0; j < H_BUF; j++)
            if (h->buf[i][j] != H_SENTINEL) { written = 1; break; }
        if (!written)
            n += snprintf(o + n, n < cap ? cap - n : 0, "%s%s:-", n ? " " : "", h->out_name[i]);
        else if (h->out_kind[i] == H_INT) {
            int v;
            memcpy(&v, h->buf[i], sizeof v);
            n += snprintf(o + n, n < cap ? cap - n : 0, "%s%s:w=%d", n ? " " : "", h->out_name[i], v);
        } else
            n += snprintf(o + n, n < cap ? cap - n : 0, "%s%s:w", n ? " " : "", h->out_name[i]);
    }
    h->rec->stage = 3;
}

/* ----------------------------------------------------------------- runner */

static void h_run_one(int idx, struct h_rec *rec, int gpu, int first, int null_outs) {
    static struct h_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.rec = rec;
    ctx.gpu = gpu;
    ctx.first = first;
    ctx.null_outs = null_outs;
    for (int i = 0; i < H_MAXP; i++) ctx.buf[i] = h_buffers[i];
    memset(h_hostbuf, 0, sizeof h_hostbuf);
    h_calls[idx].fn(&ctx);
}

static void h_print(int idx, const struct h_rec *r, const char *end) {
    printf("%s rc=%s pre=%d post=%d get=%d again=%d out=[%s]",
           h_calls[idx].name, r->stage >= 2 ? r->rc : "-", r->pre, r->post, r->get,
           r->again, r->outs);
    if (r->fix[0]) printf(" fix=[%s]", r->fix);
    if (strcmp(end, "exit0") != 0 || r->stage != 3)
        printf(" end=%s stage=%d\n", end, r->stage);
    else
        printf(" end=exit0\n");
}

/* Whether `name` is in the comma-separated `list`. */
static int h_in_list(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return 1;
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

static const char *h_only, *h_skip;

static int h_selected(const char *name) {
    return (!h_only || h_in_list(h_only, name)) && !(h_skip && h_in_list(h_skip, name));
}

int main(int argc, char **argv) {
    int gpu = 0, first = 0, null_outs = 0, nofork = 0, jobs = 0, timeout_s = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gpu")) gpu = 1;
        else if (!strcmp(argv[i], "--first")) first = 1;
        else if (!strcmp(argv[i], "--null-outs")) null_outs = 1;
        else if (!strcmp(argv[i], "--nofork")) nofork = 1;
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) jobs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout_s = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) h_only = argv[++i];
        else if (!strcmp(argv[i], "--skip") && i + 1 < argc) h_skip = argv[++i];
        else if (!strcmp(argv[i], "--list")) {
            for (int k = 0; k < h_ncalls; k++) printf("%s\n", h_calls[k].name);
            return 0;
        } else {
            fprintf(stderr, "usage: %s [--gpu] [--first] [--null-outs] [--jobs N] [--timeout S] "
                            "[--only a,b] [--skip a,b] [--nofork] [--list]\n", argv[0]);
            return 2;
        }
    }
    if (jobs <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = gpu ? (int)(n > 16 ? 16 : n) : (int)(n > 4 ? 4 : n);
        if (jobs < 1) jobs = 1;
    }
    if (timeout_s <= 0) timeout_s = gpu ? 20 : 10;

    struct h_rec *recs = (struct h_rec *)mmap(0, sizeof(struct h_rec) * (size_t)h_ncalls,
                                              PROT_READ | PROT_WRITE,
                                              MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (recs == MAP_FAILED) { perror("mmap"); return 1; }
    char (*ends)[32] = (char (*)[32])calloc((size_t)h_ncalls, 32);
    pid_t *pids = (pid_t *)calloc((size_t)h_ncalls, sizeof(pid_t));
    for (int k = 0; k < h_ncalls; k++) {
        recs[k].pre = recs[k].post = recs[k].get = recs[k].again = -1;
        strcpy(ends[k], "skipped");
    }
    printf("# harness mode=%s%s%s calls=%d\n", gpu ? "gpu" : "nodriver",
           first ? " first" : "", null_outs ? " null-outs" : "", h_ncalls);
    fflush(stdout);

    /* Lines come out in table order, each as soon as it and every line
     * before it are known (a run killed from outside keeps its prefix). */
    int running = 0, next = 0, printed = 0;
    for (;;) {
        while (running < jobs && next < h_ncalls) {
            int k = next++;
            if (!h_selected(h_calls[k].name)) continue;
            if (nofork) {
                h_run_one(k, &recs[k], gpu, first, null_outs);
                strcpy(ends[k], "exit0");
                break;
            }
            fflush(stdout);
            fflush(stderr);
            pid_t pid = fork();
            if (pid < 0) { perror("fork"); return 1; }
            if (pid == 0) {
                /* Whatever a runtime prints goes to stderr, not the report. */
                dup2(2, 1);
                signal(SIGALRM, SIG_DFL);
                alarm((unsigned)timeout_s);
                h_run_one(k, &recs[k], gpu, first, null_outs);
                fflush(stdout);
                _exit(0);
            }
            pids[k] = pid;
            strcpy(ends[k], "running");
            running++;
        }
        if (running > 0) {
            int status = 0;
            pid_t pid = waitpid(-1, &status, 0);
            if (pid < 0) {
                if (errno == EINTR) continue;
                perror("waitpid");
                return 1;
            }
            for (int k = 0; k < h_ncalls; k++) {
                if (pids[k] != pid) continue;
                if (WIFEXITED(status))
                    snprintf(ends[k], 32, "exit%d", WEXITSTATUS(status));
                else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
                    strcpy(ends[k], "timeout");
                else if (WIFSIGNALED(status))
                    snprintf(ends[k], 32, "signal%d", WTERMSIG(status));
                pids[k] = 0;
                running--;
                break;
            }
        }
        while (printed < next && strcmp(ends[printed], "running") != 0) {
            if (h_selected(h_calls[printed].name)) h_print(printed, &recs[printed], ends[printed]);
            printed++;
        }
        fflush(stdout);
        if (running == 0 && next == h_ncalls) break;
    }
    return 0;
}

#endif
