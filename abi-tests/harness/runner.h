/* runner.h: the hand-written half of the differential harness.
 *
 * abi-tests/harness/gen/ generates `harness.cu`: one small function per
 * export of libcudart.so.13 that prepares ordinary arguments and makes the
 * call, and a table of them. This file is the rest: argument buffers,
 * fixtures, the child processes and the report.
 *
 * Every call runs in a fork()ed child (so a crash or a hang in either
 * runtime is recorded, never fatal), under alarm(): by default one child
 * per call; in batch mode (below) one child runs many calls in turn. For
 * each call, in the child:
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
 * failed to be made (--gpu). The last lines, "# done: ran N of M in T s"
 * and "# children: K started (...)", say how many calls were run and how
 * many child processes it took.
 * Lines starting with '#' are comments. With --gpu every line also has
 * ctx=C after out=[...]: after the call (and its checks) the child does
 * cudaMalloc(16) and cudaFree; C is 0 when both worked, else the first
 * error (the call left the context broken or an error sticky).
 *
 * The bad-input matrix (--bad, issue #9): instead of one line per export,
 * one line per case of the generated table h_cases: the same call with ONE
 * argument bad (NULL, a destroyed or wrong-kind handle, an enum past its
 * last value, bad flags, device -1/9999, sizes 0 and 2^62, device memory + 1,
 * host memory where device memory is due...; gen/bad.rs decides which from the
 * parameter's type and name). The line starts with the case's id,
 * FUNCTION#PARAM=WHAT, and has the same fields. Destroyed handles are made
 * and destroyed in the child just before the call (h_freed).
 *
 * Batch mode (--batch N; the default of --bad --gpu without --first).
 * With a real driver every child pays for its own CUDA context (about
 * 0.2 s on an H200; 16 children at once ran about 5 cases a second), so a
 * child per case cannot run the 2,484 cases in the few minutes a run has. In batch mode the run order
 * is cut into batches of up to N consecutive items (default: two batches
 * per job); one child runs a batch in ONE process with one context:
 *   - before each item it marks the item started in the shared record (the
 *     parent then knows whom a crash or a hang belongs to) and arms the
 *     per-item alarm; before each item but its first it calls
 *     cudaGetLastError, so that pre reads as in a fresh child;
 *   - the item runs exactly as above and its record is complete;
 *   - then, still under the item's alarm, it checks that the next item may
 *     run in this process: the follow-up worked (ctx 0, --gpu), no error is
 *     left after cudaGetLastError (sticky), cudaDeviceSynchronize succeeds
 *     (work the item queued fails now, not in a later item) and device 0
 *     is still current (--gpu). Nothing of this check goes into the line.
 *     If it fails the child exits and a fresh child goes on at the NEXT
 *     item: the item that left the context broken reports it (ctx=C, or a
 *     comment line "# batch: after ID: why (error); a fresh child goes
 *     on"), and no later item runs in its context.
 *   - if the child dies (signal) or its alarm fires, the item it had
 *     started gets end=signalN/timeout at the stage it reached, as a child
 *     of its own would, and a fresh child goes on at the next item. With
 *     --recheck such an item (unless it was its child's first) runs again,
 *     first in a fresh child, and that run is its line (a comment says so):
 *     a crash caused by damage an earlier item did without breaking the
 *     context is then not blamed on it, at the price of a second child for
 *     every real crash.
 * Items of the exports gen/bad.rs lists in ISOLATED (marked in h_calls: they
 * reset or configure the device or the process, register, or must be a
 * process's first calls) always run alone, in a fresh child each; so does
 * everything with --batch 1 (one child per item, as before batch mode
 * existed) and with --first (which needs it). Jobs (--jobs) take batches
 * in run order, one child at a time each. What batch mode changes:
 *   - pre: in a fresh child, a call without fixtures runs before the
 *     context exists; in a batch, after the first item, the context
 *     already exists (pre itself reads the same: cleared before the item).
 *   - end: an item whose record is complete ends exit0 (its child went
 *     on); if its child died after it, in the check, it gets the child's
 *     end at stage 4, as a per-item child that died after its follow-up.
 *   - destroyed handles (freed): the memory a destroyed object occupied may
 *     hold other contents in a child that made and destroyed many objects
 *     before than in a fresh one (the driver's and the runtime's
 *     allocators have a history), so a freed case may crash in one mode
 *     and answer an error in the other. (Host memory is the exception the
 *     harness removes: it fixes malloc's mmap threshold, below.)
 *   - fixtures are made per item and never destroyed: a batch child holds
 *     the objects of all its items.
 *
 * The parent never calls the runtime: with a real driver, a process must
 * not fork after CUDA is initialized. (nvcc's registration constructors run
 * in the parent; they never touch the driver.)
 *
 * Options:
 *   --gpu        real fixtures: streams, events, graphs, arrays, device
 *                memory... (without it every handle is NULL)
 *   --first      no cudaPeekAtLastError before the call: the call is the
 *                child's first runtime call (one child per item)
 *   --null-outs  every out-pointer NULL: who checks its arguments before it
 *                needs the driver
 *   --nofork     every call in this process, in table order: state carries
 *                over from call to call (and a crash ends the run)
 *   --batch N    up to N items per child (above); 1: a child per item;
 *                0: two batches per job. Default: 0 with --bad --gpu
 *                (without --first), else 1
 *   --recheck    batch mode: an item that crashed or hung after other items
 *                of its child runs again, first in a fresh child
 *   --jobs N     children at once (default: CPUs, at most 4; 16 with --gpu)
 *   --timeout S  per call (default 10 s; 20 s with --gpu)
 *   --only a,b   only these exports; --skip a,b: all but these
 *   --bad        run the bad-input matrix (h_cases) instead of the calls
 *   --budget S   start no item after S seconds (no child, and in batch mode
 *                no further item of a running child); a last comment line
 *                says how many ran ("# done: ran N of M")
 *   --spread     start (and print) the items in a fixed order that strides
 *                through the table, so that a run cut short by --budget is
 *                a sample of the whole table, not its first part
 *   --list       print the names (with --bad: the case ids) and exit
 *   --what a,b   with --bad: only the cases of these kinds (the part of the
 *                id after '=': null, garbage, freed, ...)
 * --only/--skip take export names; with --bad, case ids too.
 *
 * Built with -DHARNESS_TEST_HOOKS (tests/harness.rs only), the environment
 * variables HARNESS_TEST_CRASH, HARNESS_TEST_HANG and HARNESS_TEST_FRESH
 * make named items crash, hang, or end their batch child (h_test_hook). */
#ifndef HARNESS_RUNNER_H
#define HARNESS_RUNNER_H

#include <errno.h>
#include <malloc.h>
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
    int state; /* for the parent: 0 not started, 1 started, 2 record complete */
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
    int item; /* what runs: index into h_calls, or with --bad into h_cases */
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
    int isolate; /* runs alone, in a fresh child, in batch mode too (gen/bad.rs, ISOLATED) */
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

/* What the parent runs: the exports (h_calls), or with --bad the cases of
 * the bad-input matrix (h_cases). Item k of either. */
static int h_bad_mode;

static int h_nitems(void) { return h_bad_mode ? h_ncases : h_ncalls; }
static int h_item_call(int k) { return h_bad_mode ? h_cases[k].call : k; }
static const char *h_item_name(int k) { return h_bad_mode ? h_cases[k].id : h_calls[k].name; }

static int h_in_list(const char *list, const char *name);

#ifdef HARNESS_TEST_HOOKS
/* Test-only (compiled in with -DHARNESS_TEST_HOOKS by tests/harness.rs,
 * never into the program of scripts/harness-prepare.sh): the items named
 * (case ids or export names, comma-separated) in HARNESS_TEST_CRASH raise
 * SIGSEGV and those in HARNESS_TEST_HANG hang, just before their call
 * (stage 1); after those in HARNESS_TEST_FRESH a batch child stops as if
 * the context were unusable, so the next case runs in a fresh child. */
static int h_test_hook(const char *var, int k) {
    const char *list = getenv(var);
    return list && h_in_list(list, h_item_name(k));
}
#endif

/* In --gpu mode the fixtures' own errors are cleared before the call. */
static void h_before(struct h_ctx *h) {
    if (h->made) (void)cudaGetLastError();
    h->rec->pre = h->first ? -1 : (int)cudaPeekAtLastError();
    h->rec->stage = 1;
#ifdef HARNESS_TEST_HOOKS
    if (h_test_hook("HARNESS_TEST_CRASH", h->item)) raise(SIGSEGV);
    if (h_test_hook("HARNESS_TEST_HANG", h->item))
        for (;;) pause();
#endif
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
    ctx.item = k;
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

static const char *h_only, *h_skip, *h_what;

/* A bad-input case's kind: its id after the last '=' (FUNC#PARAM=WHAT). */
static int h_what_in(const char *list, int k) {
    const char *eq = strrchr(h_cases[k].id, '=');
    return eq && h_in_list(list, eq + 1);
}

/* An item is named by its export and, with --bad, by its case id. */
static int h_named(const char *list, int k) {
    return h_in_list(list, h_calls[h_item_call(k)].name) ||
           (h_bad_mode && h_in_list(list, h_cases[k].id));
}

static int h_selected(int k) {
    return (!h_only || h_named(h_only, k)) && !(h_skip && h_named(h_skip, k)) &&
           (!h_what || (h_bad_mode && h_what_in(h_what, k)));
}

static int h_gcd(int a, int b) { return b ? h_gcd(b, a % b) : a; }

static double h_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ the children */

/* Why a batch child stopped before the end of its batch (h_slot.why). */
enum h_stop {
    H_GO_ON = 0,
    H_STOP_CTX,    /* the follow-up cudaMalloc/cudaFree failed (ctx != 0) */
    H_STOP_STICKY, /* an error is still set after cudaGetLastError */
    H_STOP_SYNC,   /* cudaDeviceSynchronize failed: an asynchronous error */
    H_STOP_DEVICE, /* the current device is no longer 0 */
    H_STOP_BUDGET, /* --budget spent: the rest is not run */
    H_STOP_TEST,   /* a test hook (HARNESS_TEST_FRESH) */
};
static const char *const h_stop_what[] = {
    "", "the context is unusable (ctx)", "an error is sticky", "cudaDeviceSynchronize failed",
    "the current device changed", "budget spent", "test hook",
};

/* What one child is doing, in memory shared with the parent. */
enum { H_BETWEEN = 0, H_IN_CASE = 1, H_IN_CHECK = 2 };
struct h_slot {
    int phase; /* H_IN_CASE: in the case at run position `pos`; H_IN_CHECK:
                  in the check after it; H_BETWEEN: neither */
    int pos;
    int why; /* enum h_stop: why it stopped before the end of its batch */
    int err; /* the error or device behind `why` */
};

static void h_store(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static int h_load(const int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

/* Batch mode, after a case and before the next one in the same process:
 * may the next one run here? Nothing of it goes into the case's line. */
static int h_check(int k, const struct h_rec *r, int gpu, int *err) {
    int e;
#ifdef HARNESS_TEST_HOOKS
    if (h_test_hook("HARNESS_TEST_FRESH", k)) return H_STOP_TEST;
#else
    (void)k;
#endif
    if (gpu && r->ctx != 0) {
        *err = r->ctx;
        return H_STOP_CTX;
    }
    (void)cudaGetLastError();
    if ((e = (int)cudaPeekAtLastError()) != 0) {
        *err = e;
        return H_STOP_STICKY;
    }
    if (!gpu) return H_GO_ON;
    /* Work the case left queued fails here, not in a later case. */
    if ((e = (int)cudaDeviceSynchronize()) != 0) {
        *err = e;
        return H_STOP_SYNC;
    }
    int dev = -1;
    if ((e = (int)cudaGetDevice(&dev)) != 0 || dev != 0) {
        *err = e ? e : dev;
        return H_STOP_DEVICE;
    }
    return H_GO_ON;
}

/* A child: the items exec[lo] ... exec[hi - 1], one after the other in
 * this process. One item (hi == lo + 1) is exactly the per-case
 * child of before: the item, then _exit, under one alarm. */
static void h_child(const int *exec, int lo, int hi, struct h_rec *recs, struct h_slot *slot,
                    int gpu, int first, int null_outs, unsigned timeout_s, double deadline) {
    /* Whatever a runtime prints goes to stderr, not the report. */
    dup2(2, 1);
    signal(SIGALRM, SIG_DFL);
    for (int p = lo; p < hi; p++) {
        int k = exec[p];
        if (p > lo) {
            if (deadline > 0 && h_now() > deadline) {
                h_store(&slot->why, H_STOP_BUDGET);
                break;
            }
            /* pre reads as in a fresh child: nothing left over. */
            (void)cudaGetLastError();
        }
        h_store(&slot->pos, p);
        h_store(&recs[k].state, 1);
        h_store(&slot->phase, H_IN_CASE);
        alarm(timeout_s);
        h_run_one(k, &recs[k], gpu, first, null_outs);
        h_store(&recs[k].state, 2);
        if (p + 1 == hi) break; /* the alarm stays set until the exit */
        h_store(&slot->phase, H_IN_CHECK);
        int err = 0, why = h_check(k, &recs[k], gpu, &err);
        alarm(0);
        h_store(&slot->phase, H_BETWEEN);
        if (why) {
            slot->err = err;
            h_store(&slot->why, why);
            break;
        }
    }
    fflush(stdout);
    _exit(0);
}

/* How a child ended: exitN, timeout (its alarm) or signalN. */
static void h_end_of(int status, char *end, size_t cap) {
    if (WIFEXITED(status))
        snprintf(end, cap, "exit%d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        snprintf(end, cap, "timeout");
    else if (WIFSIGNALED(status))
        snprintf(end, cap, "signal%d", WTERMSIG(status));
    else
        snprintf(end, cap, "status%d", status);
}

/* Lines come out in run order, each as soon as it and every line before
 * it are known (a run killed from outside keeps its prefix). */
static void h_flush_lines(int *printed, const int *order, int n, char (*ends)[32],
                          const struct h_rec *recs, int gpu) {
    while (*printed < n && strcmp(ends[order[*printed]], "pending") != 0) {
        int k = order[(*printed)++];
        if (strcmp(ends[k], "skipped") != 0 && strcmp(ends[k], "notrun") != 0)
            h_print(k, &recs[k], ends[k], gpu);
    }
    fflush(stdout);
}

/* A job: one child at a time, working through a chunk (positions lo ...
 * hi - 1 of exec); `next` is the first position not yet done (a fresh
 * child goes on from there), `start` where the child began, `seen` the
 * first position not yet known to be done. */
struct h_job {
    pid_t pid;
    int hi, next, start, seen;
};

int main(int argc, char **argv) {
    int gpu = 0, first = 0, null_outs = 0, nofork = 0, jobs = 0, timeout_s = 0, list = 0;
    int spread = 0, batch = -1, recheck = 0;
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
        else if (!strcmp(argv[i], "--batch") && i + 1 < argc) batch = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--recheck")) recheck = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) h_only = argv[++i];
        else if (!strcmp(argv[i], "--skip") && i + 1 < argc) h_skip = argv[++i];
        else if (!strcmp(argv[i], "--what") && i + 1 < argc) h_what = argv[++i];
        else if (!strcmp(argv[i], "--list")) list = 1;
        else {
            fprintf(stderr, "usage: %s [--gpu] [--first] [--null-outs] [--bad] [--jobs N] "
                            "[--timeout S] [--budget S] [--batch N] [--recheck] [--spread] [--only a,b] "
                            "[--skip a,b] [--what a,b] [--nofork] [--list]\n", argv[0]);
            return 2;
        }
    }
    if (batch < 0) batch = h_bad_mode && gpu && !first && !nofork ? 0 : 1;
    if (first && batch != 1) {
        fprintf(stderr, "--first: every item must be its child's first call (--batch 1)\n");
        return 2;
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
    /* Large blocks always get a mapping of their own, and lose it when
     * freed: glibc would otherwise raise this threshold at the first such
     * free, so that host memory freed just before a call (the test
     * double's "device" memory) would stay mapped in a long-lived batch
     * child and be unmapped in a fresh one. Children inherit it. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    h_noaccess = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (h_noaccess == MAP_FAILED) { perror("mmap"); return 1; }

    struct h_rec *recs = (struct h_rec *)mmap(0, sizeof(struct h_rec) * (size_t)n,
                                              PROT_READ | PROT_WRITE,
                                              MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    struct h_slot *slots = (struct h_slot *)mmap(0, sizeof(struct h_slot) * (size_t)jobs,
                                                 PROT_READ | PROT_WRITE,
                                                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (recs == MAP_FAILED || slots == MAP_FAILED) { perror("mmap"); return 1; }
    /* ends[k]: pending (not known yet), skipped (not selected), notrun
     * (budget spent), or how the item ended. */
    char (*ends)[32] = (char (*)[32])calloc((size_t)n, 32);
    char *rechecked = (char *)calloc((size_t)n + 1, 1);
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
    /* todo: the selected items in that order (their run positions). */
    int *todo = (int *)calloc((size_t)n + 1, sizeof(int));
    int ntodo = 0, nalone = 0;
    for (int i = 0; i < n; i++)
        if (h_selected(order[i])) {
            todo[ntodo++] = order[i];
            nalone += h_calls[h_item_call(order[i])].isolate;
        }
    /* The chunks children run: a batch of up to `batch` items, the next
     * ones in run order that do not run alone, or an item that runs alone
     * (isolated, or --batch 1), where it comes in run order. By default
     * (0) two batches per job. exec: the items chunk after chunk; chunk c
     * is exec[chunk_lo[c]] ... exec[chunk_hi[c] - 1]. */
    if (batch == 0) {
        int per = 2 * jobs;
        batch = (ntodo - nalone + per - 1) / per;
        if (batch < 1) batch = 1;
    }
    int *exec = (int *)calloc((size_t)ntodo + 1, sizeof(int));
    int *filling = (int *)calloc((size_t)ntodo + 1, sizeof(int));
    int *chunk_lo = (int *)calloc((size_t)ntodo + 1, sizeof(int));
    int *chunk_hi = (int *)calloc((size_t)ntodo + 1, sizeof(int));
    int nexec = 0, nopen = 0, nchunks = 0;
    for (int p = 0; p <= ntodo; p++) {
        const int alone = p < ntodo && (batch == 1 || h_calls[h_item_call(todo[p])].isolate);
        if (p < ntodo && !alone) filling[nopen++] = todo[p];
        if (nopen > 0 && (p == ntodo || nopen == batch)) {
            chunk_lo[nchunks] = nexec;
            for (int i = 0; i < nopen; i++) exec[nexec++] = filling[i];
            chunk_hi[nchunks++] = nexec;
            nopen = 0;
        }
        if (alone) {
            chunk_lo[nchunks] = nexec;
            exec[nexec++] = todo[p];
            chunk_hi[nchunks++] = nexec;
        }
    }

    const double t0 = h_now();
    int printed = 0, spent = 0;

    int started_batches = 0, started_alone = 0, restarts = 0;
    if (nofork) {
        /* Every item in this process, in run order. */
        for (int p = 0; p < ntodo; p++) {
            int k = todo[p];
            if (budget > 0 && h_now() - t0 > budget) {
                strcpy(ends[k], "notrun");
                spent = 1;
                continue;
            }
            h_run_one(k, &recs[k], gpu, first, null_outs);
            strcpy(ends[k], "exit0");
            h_flush_lines(&printed, order, n, ends, recs, gpu);
        }
    } else {
        /* SIGCHLD stays pending for sigtimedwait: the parent wakes when a
         * child ends, and every 20 ms to print what batch children did. */
        sigset_t chld, old;
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld, &old);
        struct h_job *job = (struct h_job *)calloc((size_t)jobs, sizeof(struct h_job));
        int next_chunk = 0, running = 0;
        const double deadline = budget > 0 ? t0 + budget : 0;
        for (;;) {
            for (int j = 0; j < jobs; j++) {
                while (!job[j].pid) {
                    int lo, restart = job[j].next < job[j].hi;
                    if (restart)
                        lo = job[j].next;
                    else if (next_chunk < nchunks) {
                        lo = chunk_lo[next_chunk];
                        job[j].hi = chunk_hi[next_chunk++];
                    } else
                        break;
                    const int hi = job[j].hi;
                    job[j].next = job[j].start = job[j].seen = lo;
                    if (budget > 0 && h_now() - t0 > budget) {
                        for (int p = lo; p < hi; p++) strcpy(ends[exec[p]], "notrun");
                        job[j].next = hi;
                        spent = 1;
                        continue;
                    }
                    memset(&slots[j], 0, sizeof slots[j]);
                    fflush(stdout);
                    fflush(stderr);
                    pid_t pid = fork();
                    if (pid < 0) { perror("fork"); return 1; }
                    if (pid == 0) {
                        sigprocmask(SIG_SETMASK, &old, 0);
                        h_child(exec, lo, hi, recs, &slots[j], gpu, first, null_outs,
                                (unsigned)timeout_s, deadline);
                    }
                    job[j].pid = pid;
                    running++;
                    if (restart) restarts++;
                    else if (hi - lo > 1) started_batches++;
                    else started_alone++;
                }
            }
            if (running == 0) break;
            struct timespec tick = {0, 20 * 1000 * 1000};
            (void)sigtimedwait(&chld, 0, &tick);
            int status;
            pid_t pid;
            while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
                int j = 0;
                while (j < jobs && job[j].pid != pid) j++;
                if (j == jobs) continue;
                struct h_job *b = &job[j];
                const struct h_slot *sl = &slots[j];
                char end[32];
                h_end_of(status, end, sizeof end);
                const int clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
                /* The last item this child started. */
                int p = b->start - 1;
                while (p + 1 < b->hi && h_load(&recs[exec[p + 1]].state) >= 1) p++;
                for (int q = b->seen; q < p; q++) strcpy(ends[exec[q]], "exit0");
                int why = h_load(&sl->why);
                if (why < H_GO_ON || why > H_STOP_TEST) why = H_GO_ON;
                if (p < b->start) {
                    /* It ended before its first item: that item takes the blame. */
                    strcpy(ends[exec[b->start]], end);
                    printf("# batch: the child for %s ended (%s) before it began\n",
                           h_item_name(exec[b->start]), end);
                    b->next = b->start + 1;
                } else if (recheck && p > b->start && !rechecked[exec[p]] &&
                           !(clean && h_load(&recs[exec[p]].state) == 2)) {
                    /* --recheck: it ended abnormally after other items in
                     * its child; it runs again, first in a fresh child, and
                     * that run's result is its line. */
                    const int k = exec[p];
                    rechecked[k] = 1;
                    printf("# batch: %s ended (%s) after %d other items in its child: "
                           "again in a fresh child\n", h_item_name(k), end, p - b->start);
                    memset(&recs[k], 0, sizeof recs[k]);
                    recs[k].pre = recs[k].post = recs[k].get = recs[k].again = recs[k].ctx = -1;
                    b->next = p;
                } else {
                    const int k = exec[p];
                    const int done = h_load(&recs[k].state) == 2;
                    /* An item whose record is complete ended normally if
                     * its child went on or exited cleanly; else (its child
                     * died after the follow-up, in the check before the
                     * next item or on the way out) it has the child's end,
                     * as a per-item child that died there would. */
                    strcpy(ends[k], done && clean ? "exit0" : end);
                    if (done && !clean && h_load(&sl->phase) == H_IN_CHECK)
                        printf("# batch: %s: its child ended (%s) in the check after it\n",
                               h_item_name(k), end);
                    b->next = p + 1;
                    if (why && why != H_STOP_BUDGET && b->next < b->hi)
                        printf("# batch: after %s: %s (%d); a fresh child goes on\n",
                               h_item_name(k), h_stop_what[why], sl->err);
                }
                if (why == H_STOP_BUDGET) {
                    for (int q = b->next; q < b->hi; q++) strcpy(ends[exec[q]], "notrun");
                    b->next = b->hi;
                    spent = 1;
                }
                b->pid = 0;
                running--;
            }
            /* Items batch children finished while they go on. */
            for (int j = 0; j < jobs; j++) {
                struct h_job *b = &job[j];
                if (!b->pid) continue;
                while (b->seen + 1 < b->hi && h_load(&recs[exec[b->seen + 1]].state) >= 1)
                    strcpy(ends[exec[b->seen++]], "exit0");
            }
            h_flush_lines(&printed, order, n, ends, recs, gpu);
        }
        sigprocmask(SIG_SETMASK, &old, 0);
    }
    h_flush_lines(&printed, order, n, ends, recs, gpu);
    int ran = 0;
    for (int p = 0; p < ntodo; p++) ran += strcmp(ends[todo[p]], "notrun") != 0;
    printf("# done: ran %d of %d in %.1f s%s\n", ran, selected, h_now() - t0,
           spent ? " (budget spent)" : "");
    if (nofork)
        printf("# children: 0 started (--nofork)\n");
    else
        printf("# children: %d started (batches of up to %d: %d; alone: %d; restarts: %d)\n",
               started_batches + started_alone + restarts, batch, started_batches,
               started_alone, restarts);
    return 0;
}

#endif
