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

/* The argument buffers, fixtures and bad-input arguments, then the
 * runner, its children and main(). */
#include "runner_args.h"
#include "runner_main.h"

#endif
