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
 * line per export, in table order (or the --spread order), as soon as
 * that line and every one before it are known:
 *   NAME rc=R pre=P post=P get=G again=A out=[param:-|w|w=V ...] [ctx=C]
 *        [fix=[fixture=error,...]] end=E [stage=S]
 * E is exit0, signalN, timeout or exitN; stage (printed when the child did
 * not finish normally) says how far it got: 1 arguments ready, 2 the call
 * returned, 3 done, 4 the follow-up done (--gpu). fix lists fixtures that
 * failed to be made (--gpu). The last line, "# done: ran N of M in T s",
 * says how many were run.
 * Lines starting with '#' are comments. With --gpu every line also has
 * ctx=C after out=[...]: after the call (and its checks) the child does
 * cudaMalloc(16) and cudaFree; C is 0 when both worked, else the first
 * error (the call left the context broken or an error sticky).
 *
 * The bad-input matrix (--bad, issue #9): instead of one line per export,
 * one line per case of the generated table h_cases: the same call with ONE
 * argument bad (NULL, a destroyed or wrong-kind handle, an enum past its
 * last value, bad flags, device -1/9999, sizes 0 and 2^62, device memory + 1,
 * host memory where device memory is due...; gen.rs decides which from the
 * parameter's type and name). The line starts with the case's id,
 * FUNCTION#PARAM=WHAT, and has the same fields. Destroyed handles are made
 * and destroyed in the child just before the call (h_freed).
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
 *   --bad        run the bad-input matrix (h_cases) instead of the calls
 *   --budget S   start no child after S seconds; a last comment line says
 *                how many ran ("# done: ran N of M")
 *   --spread     start (and print) the items in a fixed order that strides
 *                through the table, so that a run cut short by --budget is
 *                a sample of the whole table, not its first part
 *   --list       print the names (with --bad: the case ids) and exit
 * --only/--skip take export names; with --bad, case ids too. */
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
    int stage; /* 0 not started, 1 arguments ready, 2 call returned, 3 done,
                  4 follow-up done (--gpu) */
    int pre, post, get, again;
    int ctx;   /* --gpu: the follow-up cudaMalloc/cudaFree (0: works) */
    char rc[96];
    char outs[640];
    char fix[160];
};

struct h_ctx {
    struct h_rec *rec;
    int gpu;
    int first;
    int null_outs;
    int bad; /* the case of the bad-input matrix (1...), 0: ordinary call */
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

/* One case of the bad-input matrix: h_calls[call] with h_ctx.bad = bad. */
struct h_case {
    const char *id;
    int call;
    int bad;
};
extern const struct h_case h_cases[];
extern const int h_ncases;

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

/* ------------------------------------------------- bad-input arguments */

/* Stand-ins without a driver: a page that cannot be read (a destroyed
 * handle, freed memory) and a zeroed host buffer (a handle of the wrong
 * kind). A variable that is not a registered symbol. */
static void *h_noaccess;
static unsigned char h_foreign[256] __attribute__((aligned(64)));
static int h_not_a_symbol;

/* NULL for an out-pointer: no longer checked for writes. */
static void *h_no_out(struct h_ctx *h, int i) {
    h->is_out[i] = 0;
    return 0;
}

/* Pageable host memory from malloc, zeroed. */
static void *h_heap(struct h_ctx *h) {
    (void)h;
    return calloc(1, H_BUF);
}

/* A live object of another kind. */
static void *h_wrong(struct h_ctx *h, int which) {
    return h->gpu ? h_fixture(h, which) : (void *)h_foreign;
}

static void h_freed_failed(struct h_ctx *h, const char *what, cudaError_t e) {
    char w[32];
    snprintf(w, sizeof w, "freed-%s", what);
    h_note_fix(h, w, e);
}

/* A handle (or device memory) made and destroyed just now: its own object,
 * never a fixture other arguments use. Without --gpu: h_noaccess. */
static void *h_freed(struct h_ctx *h, int which) {
    if (!h->gpu) return (char *)h_noaccess + 64;
    h->made = 1;
    cudaError_t e = cudaSuccess;
    struct cudaChannelFormatDesc d = h_float_desc();
    switch (which) {
    case HF_STREAM: {
        cudaStream_t s = 0;
        e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        if (!e) e = cudaStreamDestroy(s);
        if (e) h_freed_failed(h, "stream", e);
        return (void *)s;
    }
    case HF_EVENT: {
        cudaEvent_t ev = 0;
        e = cudaEventCreate(&ev);
        if (!e) e = cudaEventDestroy(ev);
        if (e) h_freed_failed(h, "event", e);
        return (void *)ev;
    }
    case HF_GRAPH: {
        cudaGraph_t g = 0;
        e = cudaGraphCreate(&g, 0);
        if (!e) e = cudaGraphDestroy(g);
        if (e) h_freed_failed(h, "graph", e);
        return (void *)g;
    }
    case HF_NODE: {
        cudaGraphNode_t n = 0;
        e = cudaGraphAddEmptyNode(&n, (cudaGraph_t)h_fixture(h, HF_GRAPH), 0, 0);
        if (!e) e = cudaGraphDestroyNode(n);
        if (e) h_freed_failed(h, "node", e);
        return (void *)n;
    }
    case HF_GRAPHEXEC: {
        cudaGraphExec_t x = 0;
        cudaGraph_t g = 0;
        e = cudaGraphCreate(&g, 0);
        if (!e) e = cudaGraphInstantiate(&x, g, 0);
        if (!e) e = cudaGraphExecDestroy(x);
        if (g) (void)cudaGraphDestroy(g);
        if (e) h_freed_failed(h, "graphexec", e);
        return (void *)x;
    }
    case HF_ARRAY: {
        cudaArray_t a = 0;
        e = cudaMallocArray(&a, &d, 64, 4, cudaArraySurfaceLoadStore);
        if (!e) e = cudaFreeArray(a);
        if (e) h_freed_failed(h, "array", e);
        return (void *)a;
    }
    case HF_MIPMAP: {
        cudaMipmappedArray_t m = 0;
        e = cudaMallocMipmappedArray(&m, &d, make_cudaExtent(64, 4, 0), 2, 0);
        if (!e) e = cudaFreeMipmappedArray(m);
        if (e) h_freed_failed(h, "mipmap", e);
        return (void *)m;
    }
    case HF_MEMPOOL: {
        cudaMemPool_t p = 0;
        struct cudaMemPoolProps props;
        memset(&props, 0, sizeof props);
        props.allocType = cudaMemAllocationTypePinned;
        props.location = h_loc_device0();
        e = cudaMemPoolCreate(&p, &props);
        if (!e) e = cudaMemPoolDestroy(p);
        if (e) h_freed_failed(h, "mempool", e);
        return (void *)p;
    }
    case HF_LIBRARY:
    case HF_KERNEL: {
        cudaLibrary_t l = 0;
        cudaKernel_t k = 0;
        e = cudaLibraryLoadData(&l, harness_fatbin, 0, 0, 0, 0, 0, 0);
        if (!e && which == HF_KERNEL) e = cudaLibraryGetKernel(&k, l, "harness_lib_kernel");
        if (!e) e = cudaLibraryUnload(l);
        if (e) h_freed_failed(h, which == HF_KERNEL ? "kernel" : "library", e);
        return which == HF_KERNEL ? (void *)k : (void *)l;
    }
    case HF_USEROBJ: {
        cudaUserObject_t o = 0;
        e = cudaUserObjectCreate(&o, h_hostbuf, (cudaHostFn_t)harness_noop, 1,
                                 cudaUserObjectNoDestructorSync);
        if (!e) e = cudaUserObjectRelease(o, 1);
        if (e) h_freed_failed(h, "userobj", e);
        return (void *)o;
    }
    case HF_TEXOBJ:
    case HF_SURFOBJ: {
        struct cudaResourceDesc r;
        memset(&r, 0, sizeof r);
        r.resType = cudaResourceTypeArray;
        r.res.array.array = (cudaArray_t)h_fixture(h, HF_ARRAY);
        unsigned long long o = 0;
        if (which == HF_SURFOBJ) {
            e = cudaCreateSurfaceObject(&o, &r);
            if (!e) e = cudaDestroySurfaceObject(o);
        } else {
            struct cudaTextureDesc t;
            memset(&t, 0, sizeof t);
            e = cudaCreateTextureObject(&o, &r, &t, 0);
            if (!e) e = cudaDestroyTextureObject(o);
        }
        if (e) h_freed_failed(h, which == HF_SURFOBJ ? "surfobj" : "texobj", e);
        return (void *)(uintptr_t)o;
    }
    case HF_DEVBUF: {
        void *p = 0;
        e = cudaMalloc(&p, 1 << 20);
        if (!e) e = cudaFree(p);
        if (e) h_freed_failed(h, "devbuf", e);
        return p;
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
    /* One word ("unrecognized error code" -> unrecognized_error_code). */
    for (char *c = h->rec->rc; *c; c++)
        if (*c == ' ') *c = '_';
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

/* What the parent runs: the exports (h_calls), or with --bad the cases of
 * the bad-input matrix (h_cases). Item k of either. */
static int h_bad_mode;

static int h_nitems(void) { return h_bad_mode ? h_ncases : h_ncalls; }
static int h_item_call(int k) { return h_bad_mode ? h_cases[k].call : k; }
static const char *h_item_name(int k) { return h_bad_mode ? h_cases[k].id : h_calls[k].name; }

/* The follow-up (--gpu): does an ordinary allocation still work? */
static void h_follow_up(struct h_ctx *h) {
    void *p = 0;
    cudaError_t e = cudaMalloc(&p, 16);
    if (!e) e = cudaFree(p);
    h->rec->ctx = (int)e;
    h->rec->stage = 4;
}

static void h_run_one(int k, struct h_rec *rec, int gpu, int first, int null_outs) {
    static struct h_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.rec = rec;
    ctx.gpu = gpu;
    ctx.first = first;
    ctx.null_outs = null_outs;
    ctx.bad = h_bad_mode ? h_cases[k].bad : 0;
    for (int i = 0; i < H_MAXP; i++) ctx.buf[i] = h_buffers[i];
    memset(h_hostbuf, 0, sizeof h_hostbuf);
    h_calls[h_item_call(k)].fn(&ctx);
    if (gpu) h_follow_up(&ctx);
}

static void h_print(int k, const struct h_rec *r, const char *end, int gpu) {
    printf("%s rc=%s pre=%d post=%d get=%d again=%d out=[%s]", h_item_name(k),
           r->stage >= 2 ? r->rc : "-", r->pre, r->post, r->get, r->again, r->outs);
    if (gpu) printf(" ctx=%d", r->ctx);
    if (r->fix[0]) printf(" fix=[%s]", r->fix);
    if (strcmp(end, "exit0") != 0 || r->stage != (gpu ? 4 : 3))
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

/* An item is named by its export and, with --bad, by its case id. */
static int h_named(const char *list, int k) {
    return h_in_list(list, h_calls[h_item_call(k)].name) ||
           (h_bad_mode && h_in_list(list, h_cases[k].id));
}

static int h_selected(int k) {
    return (!h_only || h_named(h_only, k)) && !(h_skip && h_named(h_skip, k));
}

static int h_gcd(int a, int b) { return b ? h_gcd(b, a % b) : a; }

static double h_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int gpu = 0, first = 0, null_outs = 0, nofork = 0, jobs = 0, timeout_s = 0, list = 0;
    int spread = 0;
    double budget = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gpu")) gpu = 1;
        else if (!strcmp(argv[i], "--first")) first = 1;
        else if (!strcmp(argv[i], "--null-outs")) null_outs = 1;
        else if (!strcmp(argv[i], "--nofork")) nofork = 1;
        else if (!strcmp(argv[i], "--bad")) h_bad_mode = 1;
        else if (!strcmp(argv[i], "--spread")) spread = 1;
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) jobs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout_s = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc) budget = atof(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) h_only = argv[++i];
        else if (!strcmp(argv[i], "--skip") && i + 1 < argc) h_skip = argv[++i];
        else if (!strcmp(argv[i], "--list")) list = 1;
        else {
            fprintf(stderr, "usage: %s [--gpu] [--first] [--null-outs] [--bad] [--jobs N] "
                            "[--timeout S] [--budget S] [--spread] [--only a,b] [--skip a,b] [--nofork] "
                            "[--list]\n", argv[0]);
            return 2;
        }
    }
    const int n = h_nitems();
    if (list) {
        for (int k = 0; k < n; k++)
            if (h_selected(k)) printf("%s\n", h_item_name(k));
        return 0;
    }
    if (jobs <= 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = gpu ? (int)(ncpu > 16 ? 16 : ncpu) : (int)(ncpu > 4 ? 4 : ncpu);
        if (jobs < 1) jobs = 1;
    }
    if (timeout_s <= 0) timeout_s = gpu ? 20 : 10;
    h_noaccess = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (h_noaccess == MAP_FAILED) { perror("mmap"); return 1; }

    struct h_rec *recs = (struct h_rec *)mmap(0, sizeof(struct h_rec) * (size_t)n,
                                              PROT_READ | PROT_WRITE,
                                              MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (recs == MAP_FAILED) { perror("mmap"); return 1; }
    /* ends[k]: pending, running, skipped (not selected), notrun (budget
     * spent), or how the child ended. */
    char (*ends)[32] = (char (*)[32])calloc((size_t)n, 32);
    pid_t *pids = (pid_t *)calloc((size_t)n, sizeof(pid_t));
    int selected = 0;
    for (int k = 0; k < n; k++) {
        recs[k].pre = recs[k].post = recs[k].get = recs[k].again = recs[k].ctx = -1;
        strcpy(ends[k], h_selected(k) ? "pending" : "skipped");
        selected += h_selected(k);
    }
    printf("# harness mode=%s%s%s%s %s=%d\n", gpu ? "gpu" : "nodriver",
           first ? " first" : "", null_outs ? " null-outs" : "", h_bad_mode ? " bad" : "",
           h_bad_mode ? "cases" : "calls", n);
    fflush(stdout);

    /* The order the items start in: the table's, or with --spread a fixed
     * stride through it (about n/1.618, coprime with n), so that a run the
     * budget cuts short is still a sample of every function and kind. */
    int *order = (int *)calloc((size_t)n + 1, sizeof(int));
    int stride = 1;
    if (spread && n > 2) {
        stride = (int)((double)n * 0.618);
        while (h_gcd(stride, n) != 1) stride++;
    }
    for (int i = 0; i < n; i++) order[i] = (int)(((long long)i * stride) % n);
    /* Lines come out in that order, each as soon as it and every line
     * before it are known (a run killed from outside keeps its prefix). */
    const double t0 = h_now();
    int running = 0, next = 0, printed = 0, ran = 0, spent = 0;
    for (;;) {
        while (running < jobs && next < n) {
            int k = order[next++];
            if (strcmp(ends[k], "skipped") == 0) continue;
            if (budget > 0 && h_now() - t0 > budget) {
                strcpy(ends[k], "notrun");
                spent = 1;
                continue;
            }
            ran++;
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
            for (int k = 0; k < n; k++) {
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
        while (printed < next && strcmp(ends[order[printed]], "running") != 0) {
            int k = order[printed];
            if (strcmp(ends[k], "skipped") != 0 && strcmp(ends[k], "notrun") != 0)
                h_print(k, &recs[k], ends[k], gpu);
            printed++;
        }
        fflush(stdout);
        if (running == 0 && next == n) break;
    }
    printf("# done: ran %d of %d in %.1f s%s\n", ran, selected, h_now() - t0,
           spent ? " (budget spent)" : "");
    return 0;
}

#endif
