/*
 * cuda_double.c — a TEST DOUBLE for NVIDIA's driver library libcuda.so.1.
 *
 * THIS IS NOT A DRIVER. It exists so that the runtime (our libcudart.so.13)
 * can be exercised on machines without a GPU, and so that tests can see
 * exactly which driver calls the runtime makes, in which order, with which
 * arguments. It is written from the documented driver API (names, numbers
 * and signatures), not from NVIDIA's headers or code.
 *
 *   - "Device memory" is host memory (malloc); copies really copy.
 *   - Kernels are recorded, never executed.
 *   - Contexts, streams, events, libraries and kernels are small heap
 *     objects with a magic number, kept in one registry so that a bad
 *     handle is detected without dereferencing it (CUDA_ERROR_INVALID_HANDLE
 *     or CUDA_ERROR_INVALID_CONTEXT).
 *   - The current-context stack is per thread (thread-local), one primary
 *     context per device with a real retain count and flags.
 *   - All shared state is behind one mutex.
 *
 * Entry points are handed out by name through cuGetProcAddress_v2 (base
 * names, as the real driver resolves them for cudaVersion 13000: e.g.
 * "cuMemAlloc" gives the 64-bit/size_t ABI, "cuCtxCreate" the CUDA 12.5+
 * four-argument one, and "cuCtxSynchronize"/"cuCtxGetDevice" the CUDA 13
 * variants that take a context argument). With flags & 2
 * (CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) the per-thread variants
 * are handed out for the stream-ordered calls; they log as NAME_ptsz /
 * NAME_ptds and treat stream 0 as CU_STREAM_PER_THREAD.
 * The same functions are also exported under the names a program linked
 * with -lcuda would bind (cuMemAlloc_v2, cuCtxCreate_v4, ...).
 * A name it does not hand out gives CUDA_SUCCESS, a NULL pointer and status
 * 1 (SYMBOL_NOT_FOUND); a version older than the ABI the double implements
 * gives status 2 (VERSION_NOT_SUFFICIENT) where the real driver would hand
 * out an older ABI; a version newer than the driver's gives
 * CUDA_ERROR_INVALID_VALUE. conformance.c asks a driver these questions;
 * real-driver-580.txt holds the real driver's answers (H200, 580.159), and
 * tests/double.rs compares the double with them.
 *
 * Known, deliberate differences from the real driver: cuLibraryLoadData
 * accepts only a fatbin container (magic 0xBA55ED50) or an ELF image
 * (the real one also takes PTX text, so it accepts almost anything), and
 * answers CUDA_ERROR_NO_BINARY_FOR_GPU for a container without an sm_90
 * cubin or PTX for compute_90 or older (the double's device is an sm_90);
 * cuLibraryGetKernel/GetGlobal answer CUDA_ERROR_NOT_FOUND for names that
 * start with "__missing", and for names missing from the image's plain
 * sm_90 (else first) cubin when there is one.
 *
 * Environment:
 *   CUDA_DOUBLE_DEVICES=N          number of devices (default 1, max 8);
 *                                  0 makes cuInit fail with
 *                                  CUDA_ERROR_NO_DEVICE (100)
 *   CUDA_DOUBLE_DRIVER_VERSION=V   what cuDriverGetVersion reports
 *                                  (default 13000)
 *   CUDA_DOUBLE_LOG=path           append one line per call to this file
 *   CUDA_DOUBLE_LOG_PROCS=1        also log cuGetProcAddress_v2 look-ups
 *   CUDA_DOUBLE_LOG_TID=1          append " tid=N" (N: 1, 2, ... in order of
 *                                  each thread's first logged call)
 *
 * Log format: one line per call, written with a single write() to a file
 * opened O_APPEND, so lines from threads never interleave:
 *
 *   <function>[_ptsz|_ptds] <arguments>[ -> <results>][ err=<CUresult>]
 *
 * " -> results" appears only on success, " err=N" only on failure.
 * Handles print as stable symbolic names: P<dev> primary context, C<n>
 * created context, L<n> library, K<n> kernel, F<n> function, S<n> stream,
 * E<n> event, D<n> device allocation, H<n> host allocation, M<n> managed
 * allocation, G<n> library global ("+off" when inside an allocation);
 * "-" for a NULL context, 0 / 0x1 / 0x2 for the special streams, and
 * "bad" for a handle the double does not know. Lines starting with "#" are
 * notes: "# double loaded" when the library is loaded, and any line a test
 * program appends itself. See README.md next to this file for every line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

/* ------------------------------------------------------------------------ */
/* Types of the driver API, declared from the documentation.                */

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long cuuint64_t;
typedef struct obj *CUcontext;
typedef struct obj *CUstream;
typedef struct obj *CUevent;
typedef struct obj *CUlibrary;
typedef struct obj *CUkernel;
typedef struct obj *CUfunction;
typedef int CUjit_option;
typedef int CUlibraryOption;
enum { CU_LIBRARY_BINARY_IS_PRESERVED = 1 }; /* CUlibraryOption: the image stays in place */
typedef int CUdevice_attribute;
typedef int CUfunction_attribute;
typedef int CUfunc_cache;
typedef int CUlimit;
typedef int CUpointer_attribute;
typedef int CUdriverProcAddressQueryResult;

typedef struct { char bytes[16]; } CUuuid;

/* CUctxCreateParams: only passed through; never dereferenced. */
typedef struct CUctxCreateParams_st CUctxCreateParams;

typedef struct {
    int id;
    int pad_;
    char val[64];
} CUlaunchAttribute;

typedef struct {
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    CUstream hStream;
    CUlaunchAttribute *attrs;
    unsigned int numAttrs;
} CUlaunchConfig;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_DEINITIALIZED = 4,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_UNSUPPORTED_LIMIT = 215,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
    CUDA_ERROR_INVALID_RESOURCE_TYPE = 914,
    CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION = 915,
};

#define STREAM_LEGACY ((CUstream)0x1)
#define STREAM_PER_THREAD ((CUstream)0x2)

#define MAX_DEVICES 8
#define TOTAL_MEM 150109880320ULL /* what an H200 reports */

/* ------------------------------------------------------------------------ */
/* Objects and the registry.                                                */

#define MAGIC 0xD0B1E5EDu

enum kind { K_CTX = 1, K_STREAM, K_EVENT, K_LIB, K_KERNEL, K_FUNC, K_NOTE, K_GREEN, K_DESC };

struct obj {
    uint32_t magic;
    enum kind kind;
    char label[24];
    int dead;              /* destroyed / unloaded (kept to detect reuse) */
    struct obj *next;      /* registry list */
    /* context */
    int device;
    int primary;
    int refs;              /* primary: retain count */
    int active;            /* primary: initialised (retained, not reset) */
    unsigned long long id; /* context: its id (cuCtxGetId), new at each activation */
    unsigned int flags;    /* ctx, stream, event flags */
    size_t limits[10];
    unsigned limits_set;   /* bit i: limits[i] was set */
    /* stream */
    int priority;
    struct obj *ctx;       /* owning context of streams, events, functions */
    /* event */
    int recorded;
    struct timespec when;
    /* library */
    const unsigned char *elf; /* chosen cubin inside the image, or NULL */
    size_t elf_size;
    /* kernel / function */
    struct obj *lib;
    struct obj *kernel;
    char *name;
    int attrs[16];
    unsigned attrs_set;    /* bit i: attrs[i] was set */
    int cache_config;
    /* green context, resource descriptor, and a green context's CUcontext */
    unsigned sm_count;     /* its SMs (0 for ordinary contexts: all) */
    struct obj *green;     /* green context: its CUcontext; that context: 0 */
};

struct alloc {
    char label[24];
    char kind;             /* 'D' device, 'H' host, 'M' managed, 'G' global */
    unsigned char *base;
    size_t size;
    struct obj *ctx;
    struct obj *lib;       /* globals: the library they belong to */
    char *name;            /* globals: the symbol */
    int dead;
    size_t mapped;         /* device and managed memory: its mapping's length */
    struct alloc *next;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct obj *g_objs;
static struct alloc *g_allocs;
static int g_counters[128];
static int g_init_state;   /* 0 never called, 1 ok, SHUT_DOWN, else the failure code */
#define SHUT_DOWN (-1)          /* the exit handler of the first cuInit ran */
static int g_device_count = -1;
static struct obj g_primary[MAX_DEVICES];
static size_t g_allocated;

/* The thread's context stack. */
#define STACK_MAX 64
static __thread struct obj *t_stack[STACK_MAX];
static __thread int t_depth;
/* Set by the per-thread (_ptsz/_ptds) entry points for the call they make. */
static __thread const char *t_variant;
static __thread int t_tid;
static int g_next_tid;

static void lock(void) { pthread_mutex_lock(&g_lock); }
static void unlock(void) { pthread_mutex_unlock(&g_lock); }

static int next_id(char c) { return ++g_counters[(unsigned char)c & 127]; }

/* CUDA_DOUBLE_REUSE=1: a new stream or event takes the address of a
 * destroyed one of its kind, as the real driver's allocator may. */
static int reuse_addresses(void) {
    const char *s = getenv("CUDA_DOUBLE_REUSE");
    return s && *s == '1';
}

static struct obj *new_obj(enum kind k, char prefix) {
    if ((k == K_STREAM || k == K_EVENT) && reuse_addresses())
        for (struct obj *o = g_objs; o; o = o->next)
            if (o->kind == k && o->dead) {
                struct obj *next = o->next;
                memset(o, 0, sizeof *o);
                o->magic = MAGIC;
                o->kind = k;
                o->next = next;
                snprintf(o->label, sizeof o->label, "%c%d", prefix, next_id(prefix));
                return o;
            }
    struct obj *o = calloc(1, sizeof *o);
    if (!o) abort();
    o->magic = MAGIC;
    o->kind = k;
    snprintf(o->label, sizeof o->label, "%c%d", prefix, next_id(prefix));
    o->next = g_objs;
    g_objs = o;
    return o;
}

/* Looks a handle up without dereferencing unknown pointers. */
static struct obj *find_obj(const void *h, enum kind k) {
    if (!h) return NULL;
    for (int i = 0; i < MAX_DEVICES; i++)
        if (h == &g_primary[i]) return k == K_CTX ? &g_primary[i] : NULL;
    for (struct obj *o = g_objs; o; o = o->next)
        if ((const void *)o == h) return (o->magic == MAGIC && o->kind == k) ? o : NULL;
    return NULL;
}

static const char *ctx_label(struct obj *c) { return c ? c->label : "-"; }

/* Context ids: unique for the process's life, as the real driver's (a
 * primary context reset and retained again keeps its handle, gets a new id). */
static unsigned long long g_ctx_ids;

static int devices(void) {
    if (g_device_count < 0) {
        const char *s = getenv("CUDA_DOUBLE_DEVICES");
        int n = s && *s ? atoi(s) : 1;
        if (n < 0) n = 0;
        if (n > MAX_DEVICES) n = MAX_DEVICES;
        g_device_count = n;
        for (int i = 0; i < MAX_DEVICES; i++) {
            struct obj *p = &g_primary[i];
            p->magic = MAGIC;
            p->kind = K_CTX;
            snprintf(p->label, sizeof p->label, "P%d", i);
            p->device = i;
            p->primary = 1;
        }
    }
    return g_device_count;
}

/* ------------------------------------------------------------------------ */
/* The call log.                                                            */

static int g_log_fd = -2;
static int g_log_procs;
static int g_log_tid;

static int log_fd(void) {
    if (g_log_fd == -2) {
        const char *p = getenv("CUDA_DOUBLE_LOG");
        g_log_fd = (p && *p) ? open(p, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
        const char *q = getenv("CUDA_DOUBLE_LOG_PROCS");
        g_log_procs = q && strcmp(q, "1") == 0;
        const char *t = getenv("CUDA_DOUBLE_LOG_TID");
        g_log_tid = t && strcmp(t, "1") == 0;
    }
    return g_log_fd;
}

struct line {
    char buf[1024];
    size_t len;
};

static void lput(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void lput(struct line *l, const char *fmt, ...) {
    if (l->len >= sizeof l->buf - 1) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->buf + l->len, sizeof l->buf - l->len, fmt, ap);
    va_end(ap);
    if (n > 0) {
        l->len += (size_t)n;
        if (l->len > sizeof l->buf - 1) l->len = sizeof l->buf - 1;
    }
}

/* Starts a line for `name`; takes (and clears) the thread's variant. */
static int lstart(struct line *l, const char *name) {
    const char *v = t_variant;
    t_variant = NULL;
    l->len = 0;
    lput(l, "%s%s", name, v ? v : "");
    return v != NULL;
}

static void lwrite(struct line *l) {
    int fd = log_fd();
    if (fd < 0) return;
    if (g_log_tid) {
        if (!t_tid) t_tid = __atomic_add_fetch(&g_next_tid, 1, __ATOMIC_RELAXED);
        lput(l, " tid=%d", t_tid);
    }
    if (l->len > sizeof l->buf - 2) l->len = sizeof l->buf - 2;
    l->buf[l->len++] = '\n';
    ssize_t w = write(fd, l->buf, l->len);
    (void)w;
}

/* Ends a call: " err=N" on failure, then the line goes out. */
static CUresult done(struct line *l, CUresult rc) {
    if (rc != CUDA_SUCCESS) lput(l, " err=%d", rc);
    lwrite(l);
    return rc;
}

__attribute__((constructor)) static void on_load(void) {
    struct line l = {{0}, 0};
    lput(&l, "# double loaded");
    lwrite(&l);
}

/* Label of an address: D3, D3+16, host. */
static struct alloc *find_alloc(const void *p) {
    const unsigned char *a = p;
    for (struct alloc *x = g_allocs; x; x = x->next)
        if (!x->dead && x->base && a >= x->base && a < x->base + (x->size ? x->size : 1)) return x;
    return NULL;
}

static void put_ptr(struct line *l, const char *key, const void *p) {
    struct alloc *x = find_alloc(p);
    if (!p)
        lput(l, " %s=0", key);
    else if (!x)
        lput(l, " %s=host", key);
    else if ((const unsigned char *)p == x->base)
        lput(l, " %s=%s", key, x->label);
    else
        lput(l, " %s=%s+%zu", key, x->label, (size_t)((const unsigned char *)p - x->base));
}

static void put_stream(struct line *l, CUstream s) {
    if (s == NULL) lput(l, " stream=0");
    else if (s == STREAM_LEGACY) lput(l, " stream=0x1");
    else if (s == STREAM_PER_THREAD) lput(l, " stream=0x2");
    else {
        struct obj *o = find_obj(s, K_STREAM);
        lput(l, " stream=%s", o ? o->label : "bad");
    }
}

/* ------------------------------------------------------------------------ */
/* Shared checks.                                                           */

static struct obj *current(void) { return t_depth > 0 ? t_stack[t_depth - 1] : NULL; }

static CUresult need_init(void) {
    if (g_init_state == 1) return CUDA_SUCCESS;
    if (g_init_state == SHUT_DOWN) return CUDA_ERROR_DEINITIALIZED;
    return CUDA_ERROR_NOT_INITIALIZED;
}

static CUresult check_ctx_alive(struct obj *c) {
    if (!c) return CUDA_ERROR_INVALID_CONTEXT;
    if (c->dead) return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (c->primary && !c->active) return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    return CUDA_SUCCESS;
}

/* A call that works in the current context: initialised, one current, alive. */
static CUresult need_ctx(struct obj **out) {
    CUresult rc = need_init();
    if (rc) return rc;
    struct obj *c = current();
    if (!c) return CUDA_ERROR_INVALID_CONTEXT;
    rc = check_ctx_alive(c);
    if (rc) return rc;
    if (out) *out = c;
    return CUDA_SUCCESS;
}

static CUresult check_device(CUdevice d) {
    CUresult rc = need_init();
    if (rc) return rc;
    if (d < 0 || d >= devices()) return CUDA_ERROR_INVALID_DEVICE;
    return CUDA_SUCCESS;
}

/* A stream argument: a special stream needs a current context. */
static CUresult check_stream(CUstream s, int per_thread, CUstream *effective) {
    if (s == NULL && per_thread) s = STREAM_PER_THREAD;
    if (effective) *effective = s;
    if (s == NULL || s == STREAM_LEGACY || s == STREAM_PER_THREAD) return need_ctx(NULL);
    struct obj *o = find_obj(s, K_STREAM);
    if (!o || o->dead) return CUDA_ERROR_INVALID_HANDLE;
    return check_ctx_alive(o->ctx) ? CUDA_ERROR_INVALID_CONTEXT : CUDA_SUCCESS;
}

/* Gives an allocation's memory back (see new_alloc). */
static void release_mem(struct alloc *x) {
    if (x->mapped) {
        /* The base stays: the range is still reserved (in_freed_range). */
        madvise(x->base, x->mapped, MADV_DONTNEED);
        mprotect(x->base, x->mapped, PROT_NONE);
        return;
    }
    free(x->base);
    x->base = NULL;
}

/* Whether p lies in a device or managed allocation freed already (its
 * reserved, inaccessible range): the copies answer an error for it, as the
 * real driver does, instead of faulting. */
static int in_freed_range(const void *p) {
    const unsigned char *a = p;
    for (struct alloc *x = g_allocs; x; x = x->next)
        if (x->dead && x->mapped && a >= x->base && a < x->base + x->mapped) return 1;
    return 0;
}

/* Frees everything a context owns (reset / destroy). */
static void wipe_context(struct obj *c) {
    for (struct alloc *x = g_allocs; x; x = x->next)
        if (!x->dead && x->ctx == c && x->kind != 'G') {
            x->dead = 1;
            g_allocated -= x->size;
            release_mem(x);
        }
    for (struct obj *o = g_objs; o; o = o->next)
        if ((o->kind == K_STREAM || o->kind == K_EVENT || o->kind == K_FUNC) && o->ctx == c) o->dead = 1;
}

/* ------------------------------------------------------------------------ */
/* Minimal cubin (ELF64) reading, to find kernels and globals by name.      */

struct sym {
    int found;
    int type;              /* 1 object, 2 function */
    const unsigned char *init; /* initial bytes, or NULL for .bss-like */
    size_t size;
};

static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const unsigned char *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const unsigned char *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static int is_elf64(const unsigned char *p, size_t n) {
    return n >= 64 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F' && p[4] == 2 && p[5] == 1;
}

static struct sym elf_lookup(const unsigned char *e, size_t n, const char *name) {
    struct sym r = {0, 0, NULL, 0};
    if (!e || !is_elf64(e, n)) return r;
    uint64_t shoff = rd64(e + 0x28);
    uint16_t shentsize = rd16(e + 0x3a), shnum = rd16(e + 0x3c);
    if (shentsize < 64 || shoff > n || (uint64_t)shnum * shentsize > n - shoff) return r;
    for (unsigned i = 0; i < shnum; i++) {
        const unsigned char *sh = e + shoff + (uint64_t)i * shentsize;
        if (rd32(sh + 4) != 2 /* SHT_SYMTAB */) continue;
        uint64_t off = rd64(sh + 0x18), size = rd64(sh + 0x20), entsize = rd64(sh + 0x38);
        uint32_t link = rd32(sh + 0x28);
        if (entsize < 24 || off > n || size > n - off || link >= shnum) continue;
        const unsigned char *strh = e + shoff + (uint64_t)link * shentsize;
        uint64_t stroff = rd64(strh + 0x18), strsize = rd64(strh + 0x20);
        if (stroff > n || strsize > n - stroff) continue;
        for (uint64_t s = 0; s + entsize <= size; s += entsize) {
            const unsigned char *st = e + off + s;
            uint32_t nm = rd32(st);
            if (nm >= strsize) continue;
            const char *sname = (const char *)e + stroff + nm;
            size_t maxlen = strsize - nm;
            if (strnlen(sname, maxlen) == maxlen || strcmp(sname, name) != 0) continue;
            int type = st[4] & 0xf;
            if (type != 1 && type != 2) continue;
            r.found = 1;
            r.type = type;
            r.size = rd64(st + 16);
            uint16_t shndx = rd16(st + 6);
            uint64_t value = rd64(st + 8);
            if (type == 1 && shndx > 0 && shndx < shnum) {
                const unsigned char *dsh = e + shoff + (uint64_t)shndx * shentsize;
                uint64_t doff = rd64(dsh + 0x18), dsize = rd64(dsh + 0x20);
                if (rd32(dsh + 4) == 1 /* PROGBITS */ && doff <= n && dsize <= n - doff &&
                    value <= dsize && r.size <= dsize - value)
                    r.init = e + doff + value;
            }
            return r;
        }
    }
    return r;
}

/* Picks a plain (uncompressed) cubin from a fatbin container, sm_90 first. */
static void pick_cubin(const unsigned char *img, const unsigned char **elf, size_t *elf_size) {
    *elf = NULL;
    *elf_size = 0;
    if (rd32(img) == 0x464c457fu) { /* a bare ELF image */
        if (is_elf64(img, 64)) {
            uint64_t shoff = rd64(img + 0x28);
            uint16_t shentsize = rd16(img + 0x3a), shnum = rd16(img + 0x3c);
            *elf = img;
            *elf_size = shoff + (uint64_t)shentsize * shnum;
        }
        return;
    }
    uint16_t hsize = rd16(img + 6);
    uint64_t total = rd64(img + 8);
    if (hsize < 16 || total > ((uint64_t)1 << 32)) return;
    const unsigned char *p = img + hsize, *end = img + hsize + total;
    while (p + 0x40 <= end) {
        uint16_t kind = rd16(p);
        uint32_t eh = rd32(p + 4);
        uint64_t psize = rd64(p + 8);
        uint32_t csize = rd32(p + 0x10);
        uint32_t arch = rd32(p + 0x1c);
        uint64_t flags = rd64(p + 0x28);
        if (eh < 0x40 || psize > (uint64_t)(end - p) - eh) break;
        const unsigned char *payload = p + eh;
        if (kind == 2 && csize == 0 && !(flags & (0x2000 | 0x8000)) && is_elf64(payload, psize)) {
            if (!*elf || arch == 90) {
                *elf = payload;
                *elf_size = psize;
            }
        }
        p = payload + psize;
    }
}

/* Whether a fatbin container holds code the double's sm_90 device runs: a
 * cubin for sm_90 or PTX for compute_90 or older (as the real driver
 * decides; a bare ELF image is taken as it is). */
static int runs_on_sm90(const unsigned char *img) {
    if (rd32(img) != 0xBA55ED50u) return 1;
    uint16_t hsize = rd16(img + 6);
    uint64_t total = rd64(img + 8);
    if (hsize < 16 || total > ((uint64_t)1 << 32)) return 1;
    const unsigned char *p = img + hsize, *end = img + hsize + total;
    int entries = 0;
    while (p + 0x40 <= end) {
        uint16_t kind = rd16(p);
        uint32_t eh = rd32(p + 4);
        uint64_t psize = rd64(p + 8);
        uint32_t arch = rd32(p + 0x1c);
        if (eh < 0x40 || psize > (uint64_t)(end - p) - eh) break;
        entries++;
        if ((kind == 2 && arch == 90) || (kind == 1 && arch <= 90)) return 1;
        p = p + eh + psize;
    }
    return entries == 0;
}

/* ------------------------------------------------------------------------ */
/* Initialisation, versions, errors.                                        */

static void shutdown_at_exit(void) {
    struct line l;
    lstart(&l, "(driver shutdown at exit)");
    lock();
    if (g_init_state == 1) g_init_state = SHUT_DOWN;
    unlock();
    done(&l, CUDA_SUCCESS);
}

EXPORT CUresult cuInit(unsigned int flags) {
    struct line l;
    lstart(&l, "cuInit");
    lput(&l, " %u", flags);
    lock();
    CUresult rc;
    if (flags != 0) rc = CUDA_ERROR_INVALID_VALUE;
    else if (devices() == 0) rc = g_init_state = CUDA_ERROR_NO_DEVICE;
    else {
        /* As the real driver: the first successful cuInit registers the
         * shutdown at exit; calls after it answer CUDA_ERROR_DEINITIALIZED. */
        static int shutdown_registered;
        if (!shutdown_registered) {
            shutdown_registered = 1;
            atexit(shutdown_at_exit);
        }
        g_init_state = 1;
        rc = CUDA_SUCCESS;
    }
    unlock();
    return done(&l, rc);
}

static int driver_version(void) {
    const char *s = getenv("CUDA_DOUBLE_DRIVER_VERSION");
    return s && *s ? atoi(s) : 13000;
}

EXPORT CUresult cuDriverGetVersion(int *v) {
    struct line l;
    lstart(&l, "cuDriverGetVersion");
    if (!v) return done(&l, CUDA_ERROR_INVALID_VALUE);
    *v = driver_version();
    lput(&l, " -> %d", *v);
    return done(&l, CUDA_SUCCESS);
}

static const struct { int code; const char *name; const char *text; } g_errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "stub library"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", "call requires newer driver"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "device unavailable"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "context already current"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for the device"},
    {215, "CUDA_ERROR_UNSUPPORTED_LIMIT", "limit not supported"},
    {218, "CUDA_ERROR_INVALID_PTX", "invalid PTX"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {401, "CUDA_ERROR_ILLEGAL_STATE", "illegal state"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {600, "CUDA_ERROR_NOT_READY", "not ready"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "illegal memory access"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "primary context active"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "context is destroyed"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static int error_index(CUresult e) {
    for (size_t i = 0; i < sizeof g_errors / sizeof g_errors[0]; i++)
        if (g_errors[i].code == e) return (int)i;
    return -1;
}

EXPORT CUresult cuGetErrorName(CUresult e, const char **s) {
    struct line l;
    lstart(&l, "cuGetErrorName");
    lput(&l, " %d", e);
    if (!s) return done(&l, CUDA_ERROR_INVALID_VALUE);
    int i = error_index(e);
    if (i < 0) { *s = NULL; return done(&l, CUDA_ERROR_INVALID_VALUE); }
    *s = g_errors[i].name;
    lput(&l, " -> %s", *s);
    return done(&l, CUDA_SUCCESS);
}

EXPORT CUresult cuGetErrorString(CUresult e, const char **s) {
    struct line l;
    lstart(&l, "cuGetErrorString");
    lput(&l, " %d", e);
    if (!s) return done(&l, CUDA_ERROR_INVALID_VALUE);
    int i = error_index(e);
    if (i < 0) { *s = NULL; return done(&l, CUDA_ERROR_INVALID_VALUE); }
    *s = g_errors[i].text;
    return done(&l, CUDA_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* Devices.                                                                 */

EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal) {
    struct line l;
    lstart(&l, "cuDeviceGet");
    lput(&l, " %d", ordinal);
    lock();
    CUresult rc = need_init();
    if (!rc && !d) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && (ordinal < 0 || ordinal >= devices())) rc = CUDA_ERROR_INVALID_DEVICE;
    unlock();
    if (!rc) { *d = ordinal; lput(&l, " -> dev=%d", ordinal); }
    return done(&l, rc);
}

EXPORT CUresult cuDeviceGetCount(int *n) {
    struct line l;
    lstart(&l, "cuDeviceGetCount");
    lock();
    CUresult rc = need_init();
    if (!rc && !n) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) *n = devices();
    unlock();
    if (!rc) lput(&l, " -> %d", *n);
    return done(&l, rc);
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
    struct line l;
    lstart(&l, "cuDeviceGetName");
    lput(&l, " dev=%d", d);
    lock();
    CUresult rc = check_device(d);
    unlock();
    if (!rc && (!name || len <= 0)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) snprintf(name, (size_t)len, "NVIDIA H200 (cuda_double test double)");
    return done(&l, rc);
}

EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *u, CUdevice d) {
    struct line l;
    lstart(&l, "cuDeviceGetUuid");
    lput(&l, " dev=%d", d);
    lock();
    CUresult rc = check_device(d);
    unlock();
    if (!rc && !u) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        for (int i = 0; i < 16; i++) u->bytes[i] = (char)(0xd0 + i);
        u->bytes[15] = (char)d;
    }
    return done(&l, rc);
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
    struct line l;
    lstart(&l, "cuDeviceTotalMem");
    lput(&l, " dev=%d", d);
    lock();
    CUresult rc = check_device(d);
    unlock();
    if (!rc && !bytes) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) *bytes = TOTAL_MEM;
    return done(&l, rc);
}

/* cuDeviceGetAttribute values 1..147, as NVIDIA's driver 580.159 reported
 * them for an H200 (measured with conformance.c; real-driver-580.txt). */
static const int g_h200_attributes[147] = {
    1024, 1024, 1024, 64, 2147483647, 65535, 65535, 49152, 65536, 32, 2147483647, 65536, 1980000,
    512, 1, 132, 0, 0, 1, 0, 131072, 131072, 65536, 16384, 16384, 16384, 32768, 32768, 2048, 512, 1,
    1, 0, 6, 0, 3201000, 6016, 62914560, 2048, 3, 1, 32768, 2048, 1, 32768, 32768, 8192, 8192,
    32768, 0, 32, 32768, 32768, 2046, 32768, 131072, 65536, 16384, 16384, 16384, 32768, 2048, 32768,
    32768, 2048, 32768, 32768, 2046, 268435456, 131072, 65000, 2097120, 32768, 32768, 9, 0, 32768,
    1, 1, 1, 233472, 65536, 1, 0, 0, 0, 2, 0, 1, 1, 1, 0, 0, 0, 1, 1, 232448, 0, 1, 0, 0, 1, 1, 0,
    0, 32, 1, 39321600, 134217728, 1, 1024, 1, 1, 1, 1, 1, 1, 100, 9, 1, 1, 1, 1, 1, 1, 4, 1, 1, 1,
    0, -1, 0, 0, 0, 0, 0, 0, 0, 590680286, 415174878, 1, 1, 0, 1, 1, 0, 0,
};

static int attribute_value(int a, int dev) {
    if (a == 33) return dev;                       /* PCI bus id: one per device */
    if (a >= 1 && a <= 147) return g_h200_attributes[a - 1];
    return 0;
}

/* Async notifications: a handle per registration; unregistering one twice
 * is a use-after-free in the real driver (a crash on the H200), here
 * CUDA_ERROR_INVALID_HANDLE and a log line a test can look for. The
 * callback is never called (the double has no device events). */
EXPORT CUresult cuDeviceRegisterAsyncNotification(CUdevice d, void *cb, void *user,
                                                  void **out) {
    struct line l;
    lstart(&l, "cuDeviceRegisterAsyncNotification");
    lput(&l, " dev=%d", d);
    (void)user;
    lock();
    CUresult rc = need_init();
    if (!rc && (d < 0 || d >= devices())) rc = CUDA_ERROR_INVALID_DEVICE;
    if (!rc && (!cb || !out)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct obj *n = new_obj(K_NOTE, 'N');
        *out = n;
        lput(&l, " -> handle=%s", n->label);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuDeviceUnregisterAsyncNotification(CUdevice d, void *h) {
    struct line l;
    lstart(&l, "cuDeviceUnregisterAsyncNotification");
    lput(&l, " dev=%d", d);
    lock();
    struct obj *o = find_obj(h, K_NOTE);
    lput(&l, " handle=%s", o ? (o->dead ? "freed" : o->label) : "bad");
    CUresult rc = need_init();
    if (!rc && (d < 0 || d >= devices())) rc = CUDA_ERROR_INVALID_DEVICE;
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) o->dead = 1;
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
    struct line l;
    lstart(&l, "cuDeviceGetAttribute");
    lput(&l, " attr=%d dev=%d", a, d);
    lock();
    CUresult rc = check_device(d);
    unlock();
    if (!rc && (!v || a <= 0 || a > 147)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) { *v = attribute_value(a, d); lput(&l, " -> %d", *v); }
    return done(&l, rc);
}

EXPORT CUresult cuDeviceGetPCIBusId(char *id, int len, CUdevice d) {
    struct line l;
    lstart(&l, "cuDeviceGetPCIBusId");
    lput(&l, " dev=%d", d);
    lock();
    CUresult rc = check_device(d);
    unlock();
    if (!rc && (!id || len <= 0)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) snprintf(id, (size_t)len, "00000000:%02X:00.0", d);
    return done(&l, rc);
}

/* ------------------------------------------------------------------------ */
/* Primary contexts.                                                        */

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice d) {
    struct line l;
    lstart(&l, "cuDevicePrimaryCtxRetain");
    lput(&l, " dev=%d", d);
    lock();
    CUresult rc = check_device(d);
    if (!rc && !pctx) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct obj *p = &g_primary[d];
        p->refs++;
        if (!p->active) {
            p->active = 1;
            p->id = ++g_ctx_ids;
            p->limits_set = 0;
        }
        *pctx = p;
        lput(&l, " -> ctx=%s refs=%d", p->label, p->refs);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
    struct line l;
    lstart(&l, "cuDevicePrimaryCtxRelease");
    lput(&l, " dev=%d", d);
    lock();
    CUresult rc = check_device(d);
    if (!rc) {
        struct obj *p = &g_primary[d];
        if (p->refs <= 0) rc = CUDA_ERROR_INVALID_CONTEXT;
        else {
            p->refs--;
            if (p->refs == 0 && p->active) { wipe_context(p); p->active = 0; }
            lput(&l, " -> refs=%d", p->refs);
        }
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice d, unsigned int flags) {
    struct line l;
    lstart(&l, "cuDevicePrimaryCtxSetFlags");
    lput(&l, " dev=%d flags=0x%x", d, flags);
    lock();
    CUresult rc = check_device(d);
    unsigned sched = flags & 7;
    if (!rc && ((flags & ~0xffu) || (sched != 0 && sched != 1 && sched != 2 && sched != 4)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) g_primary[d].flags = flags;
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned int *flags, int *active) {
    struct line l;
    lstart(&l, "cuDevicePrimaryCtxGetState");
    lput(&l, " dev=%d", d);
    lock();
    CUresult rc = check_device(d);
    if (!rc && (!flags || !active)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        *flags = g_primary[d].flags;
        *active = g_primary[d].active;
        lput(&l, " -> flags=0x%x active=%d refs=%d", *flags, *active, g_primary[d].refs);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice d) {
    struct line l;
    lstart(&l, "cuDevicePrimaryCtxReset");
    lput(&l, " dev=%d", d);
    lock();
    CUresult rc = check_device(d);
    if (!rc) {
        struct obj *p = &g_primary[d];
        /* Destroys everything; does not release (the retain count stays). */
        if (p->active) wipe_context(p);
        p->active = 0;
        p->flags = 0;
        lput(&l, " -> refs=%d", p->refs);
    }
    unlock();
    return done(&l, rc);
}

/* ------------------------------------------------------------------------ */
/* Contexts and the per-thread stack.                                       */

EXPORT CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags, CUdevice d) {
    struct line l;
    lstart(&l, "cuCtxCreate");
    lput(&l, " dev=%d flags=0x%x params=%s", d, flags, params ? "set" : "null");
    lock();
    CUresult rc = check_device(d);
    if (!rc && !pctx) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && t_depth >= STACK_MAX) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct obj *c = new_obj(K_CTX, 'C');
        c->device = d;
        c->flags = flags;
        c->active = 1;
        c->id = ++g_ctx_ids;
        t_stack[t_depth++] = c;
        *pctx = c;
        lput(&l, " -> ctx=%s", c->label);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx) {
    struct line l;
    lstart(&l, "cuCtxDestroy");
    lock();
    struct obj *c = find_obj(ctx, K_CTX);
    lput(&l, " ctx=%s", c ? c->label : ctx ? "bad" : "-");
    CUresult rc = need_init();
    if (!rc && (!c || c->dead || c->primary)) rc = CUDA_ERROR_INVALID_CONTEXT;
    if (!rc) {
        wipe_context(c);
        c->dead = 1;
        /* Popped from this thread's stack when it is the current one. */
        if (t_depth > 0 && t_stack[t_depth - 1] == c) t_depth--;
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx) {
    struct line l;
    lstart(&l, "cuCtxGetCurrent");
    CUresult rc = pctx ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    lock();
    if (!rc) rc = need_init();
    unlock();
    if (!rc) { *pctx = current(); lput(&l, " -> ctx=%s", ctx_label(*pctx)); }
    return done(&l, rc);
}

EXPORT CUresult cuCtxGetId(CUcontext ctx, unsigned long long *id) {
    struct line l;
    lstart(&l, "cuCtxGetId");
    lock();
    struct obj *c = ctx ? find_obj(ctx, K_CTX) : current();
    lput(&l, " ctx=%s", ctx ? (c ? c->label : "bad") : "current");
    CUresult rc = need_init();
    if (!rc && !id) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && !c) rc = CUDA_ERROR_INVALID_CONTEXT;
    if (!rc) rc = check_ctx_alive(c);
    if (!rc) { *id = c->id; lput(&l, " -> id=%llu", c->id); }
    unlock();
    return done(&l, rc);
}

/* The thread's stream-capture mode (0 global, 1 thread-local, 2 relaxed):
 * the runtime exchanges it around eager loads only. */
static __thread int t_capture_mode;

EXPORT CUresult cuThreadExchangeStreamCaptureMode(int *mode) {
    struct line l;
    lstart(&l, "cuThreadExchangeStreamCaptureMode");
    if (!mode) return done(&l, CUDA_ERROR_INVALID_VALUE);
    if (*mode < 0 || *mode > 2) {
        lput(&l, " mode=%d", *mode);
        return done(&l, CUDA_ERROR_INVALID_VALUE);
    }
    int old = t_capture_mode;
    t_capture_mode = *mode;
    *mode = old;
    lput(&l, " mode=%d -> was=%d", t_capture_mode, old);
    return done(&l, CUDA_SUCCESS);
}

EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) {
    struct line l;
    lstart(&l, "cuCtxSetCurrent");
    lock();
    struct obj *c = find_obj(ctx, K_CTX);
    lput(&l, " ctx=%s", c ? c->label : ctx ? "bad" : "-");
    CUresult rc = need_init();
    if (!rc && ctx && (!c || c->dead)) rc = CUDA_ERROR_INVALID_CONTEXT;
    if (!rc) {
        if (!c) { if (t_depth > 0) t_depth--; }
        else if (t_depth == 0) t_stack[t_depth++] = c;
        else t_stack[t_depth - 1] = c;
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
    struct line l;
    lstart(&l, "cuCtxPushCurrent");
    lock();
    struct obj *c = find_obj(ctx, K_CTX);
    lput(&l, " ctx=%s", c ? c->label : ctx ? "bad" : "-");
    CUresult rc = need_init();
    if (!rc && (!c || c->dead)) rc = CUDA_ERROR_INVALID_CONTEXT;
    if (!rc && t_depth >= STACK_MAX) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) t_stack[t_depth++] = c;
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *pctx) {
    struct line l;
    lstart(&l, "cuCtxPopCurrent");
    lock();
    CUresult rc = need_init();
    if (!rc && t_depth == 0) rc = CUDA_ERROR_INVALID_CONTEXT;
    struct obj *c = NULL;
    if (!rc) {
        c = t_stack[--t_depth];
        if (pctx) *pctx = c;
        lput(&l, " -> ctx=%s", c->label);
    }
    unlock();
    return done(&l, rc);
}

/* CUDA 13 ABI ("cuCtxGetDevice" for cudaVersion >= 13000): NULL = current. */
EXPORT CUresult cuCtxGetDevice_v2(CUdevice *dev, CUcontext ctx) {
    struct line l;
    lstart(&l, "cuCtxGetDevice");
    lock();
    struct obj *c = ctx ? find_obj(ctx, K_CTX) : current();
    lput(&l, " ctx=%s", ctx ? (c ? c->label : "bad") : "-");
    CUresult rc = need_init();
    if (!rc && !dev) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) rc = check_ctx_alive(c);
    if (!rc) { *dev = c->device; lput(&l, " -> dev=%d", c->device); }
    unlock();
    return done(&l, rc);
}

/* Pre-13 ABI, still exported under the plain name. */
EXPORT CUresult cuCtxGetDevice(CUdevice *dev) { return cuCtxGetDevice_v2(dev, NULL); }

EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx) {
    struct line l;
    lstart(&l, "cuCtxSynchronize");
    lock();
    struct obj *c = ctx ? find_obj(ctx, K_CTX) : current();
    lput(&l, " ctx=%s", c ? c->label : ctx ? "bad" : "-");
    CUresult rc = need_init();
    if (!rc) rc = check_ctx_alive(c);
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuCtxSynchronize(void) { return cuCtxSynchronize_v2(NULL); }

EXPORT CUresult cuCtxGetFlags(unsigned int *flags) {
    struct line l;
    lstart(&l, "cuCtxGetFlags");
    lock();
    struct obj *c = NULL;
    CUresult rc = need_ctx(&c);
    if (!rc && !flags) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) { *flags = c->flags; lput(&l, " ctx=%s -> flags=0x%x", c->label, *flags); }
    unlock();
    return done(&l, rc);
}

/* Defaults as the real driver reported them on an H200 (limits 3 and 9
 * are not supported there: CUDA_ERROR_UNSUPPORTED_LIMIT). */
static size_t limit_default(int which) {
    switch (which) {
    case 0: return 1024;        /* stack size */
    case 1: return 8650752;     /* printf FIFO */
    case 2: return 8388608;     /* malloc heap */
    case 4: return 2048;        /* device runtime pending launches */
    case 5: return 64;          /* max L2 fetch granularity */
    case 6: return 11796480;    /* persisting L2 cache size */
    case 7: return 232448;      /* shared memory size (query only) */
    case 8: return 0;           /* CIG enabled (query only) */
    default: return 0;
    }
}

EXPORT CUresult cuCtxSetLimit(CUlimit which, size_t value) {
    struct line l;
    lstart(&l, "cuCtxSetLimit");
    lput(&l, " limit=%d value=%zu", which, value);
    lock();
    struct obj *c = NULL;
    CUresult rc = need_ctx(&c);
    if (!rc && (which < 0 || which > 6 || which == 3)) rc = CUDA_ERROR_UNSUPPORTED_LIMIT;
    if (!rc) { c->limits[which] = value; c->limits_set |= 1u << which; }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuCtxGetLimit(size_t *value, CUlimit which) {
    struct line l;
    lstart(&l, "cuCtxGetLimit");
    lput(&l, " limit=%d", which);
    lock();
    struct obj *c = NULL;
    CUresult rc = need_ctx(&c);
    if (!rc && !value) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && (which < 0 || which > 8 || which == 3)) rc = CUDA_ERROR_UNSUPPORTED_LIMIT;
    if (!rc) {
        *value = (c->limits_set >> which) & 1 ? c->limits[which] : limit_default(which);
        lput(&l, " -> %zu", *value);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version) {
    struct line l;
    lstart(&l, "cuCtxGetApiVersion");
    lock();
    struct obj *c = ctx ? find_obj(ctx, K_CTX) : current();
    lput(&l, " ctx=%s", c ? c->label : ctx ? "bad" : "-");
    CUresult rc = need_init();
    if (!rc && !version) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && (!c || c->dead)) rc = CUDA_ERROR_INVALID_CONTEXT;
    if (!rc) { *version = 3020; lput(&l, " -> 3020"); }
    unlock();
    return done(&l, rc);
}

/* ------------------------------------------------------------------------ */
/* Libraries and kernels.                                                   */

EXPORT CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                  void **jitValues, unsigned int numJit, CUlibraryOption *libOptions,
                                  void **libValues, unsigned int numLib) {
    (void)jitOptions; (void)jitValues;
    struct line l;
    lstart(&l, "cuLibraryLoadData");
    const unsigned char *img = code;
    if (img) lput(&l, " magic=%08x", rd32(img));
    else lput(&l, " code=null");
    lock();
    CUresult rc = need_init();
    if (!rc && (!library || !img)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && rd32(img) != 0xBA55ED50u && rd32(img) != 0x464c457fu) rc = CUDA_ERROR_INVALID_IMAGE;
    if (!rc && !runs_on_sm90(img)) rc = CUDA_ERROR_NO_BINARY_FOR_GPU;
    if (!rc) {
        struct obj *lib = new_obj(K_LIB, 'L');
        pick_cubin(img, &lib->elf, &lib->elf_size);
        *library = lib;
        lput(&l, " jit=%u opts=%u", numJit, numLib);
        /* Library options by name: the runtime's loads say whether the
         * image stays in place (CU_LIBRARY_BINARY_IS_PRESERVED). */
        for (unsigned i = 0; libOptions && libValues && i < numLib; i++) {
            unsigned v = (unsigned)(uintptr_t)libValues[i];
            if (libOptions[i] == CU_LIBRARY_BINARY_IS_PRESERVED) lput(&l, " preserved=%u", v);
            else lput(&l, " opt%d=%u", (int)libOptions[i], v);
        }
        lput(&l, " -> lib=%s", lib->label);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuLibraryUnload(CUlibrary library) {
    struct line l;
    lstart(&l, "cuLibraryUnload");
    lock();
    struct obj *lib = find_obj(library, K_LIB);
    lput(&l, " lib=%s", lib ? lib->label : "bad");
    CUresult rc = need_init();
    if (!rc && (!lib || lib->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) {
        lib->dead = 1;
        for (struct obj *o = g_objs; o; o = o->next)
            if ((o->kind == K_KERNEL && o->lib == lib) || (o->kind == K_FUNC && o->kernel && o->kernel->lib == lib))
                o->dead = 1;
        for (struct alloc *x = g_allocs; x; x = x->next)
            if (!x->dead && x->lib == lib) { x->dead = 1; release_mem(x); }
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuLibraryGetKernel(CUkernel *pk, CUlibrary library, const char *name) {
    struct line l;
    lstart(&l, "cuLibraryGetKernel");
    lock();
    struct obj *lib = find_obj(library, K_LIB);
    lput(&l, " lib=%s name=%s", lib ? lib->label : "bad", name ? name : "(null)");
    CUresult rc = need_init();
    if (!rc && (!pk || !name)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && (!lib || lib->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc && strncmp(name, "__missing", 9) == 0) rc = CUDA_ERROR_NOT_FOUND;
    if (!rc && lib->elf) {
        struct sym s = elf_lookup(lib->elf, lib->elf_size, name);
        if (!s.found || s.type != 2) rc = CUDA_ERROR_NOT_FOUND;
    }
    if (!rc) {
        struct obj *k = NULL;
        for (struct obj *o = g_objs; o; o = o->next)
            if (o->kind == K_KERNEL && !o->dead && o->lib == lib && strcmp(o->name, name) == 0) { k = o; break; }
        if (!k) {
            k = new_obj(K_KERNEL, 'K');
            k->lib = lib;
            k->name = strdup(name);
        }
        *pk = k;
        lput(&l, " -> %s", k->label);
    }
    unlock();
    return done(&l, rc);
}

/* Globals and managed variables: one allocation per (library, name). */
static CUresult library_symbol(struct line *l, CUdeviceptr *dptr, size_t *bytes, CUlibrary library,
                               const char *name, char kind) {
    lock();
    struct obj *lib = find_obj(library, K_LIB);
    lput(l, " lib=%s name=%s", lib ? lib->label : "bad", name ? name : "(null)");
    CUresult rc = need_ctx(NULL);
    if (!rc && !name) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && (!lib || lib->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc && strncmp(name, "__missing", 9) == 0) rc = CUDA_ERROR_NOT_FOUND;
    struct sym s = {0, 0, NULL, 256};
    if (!rc && lib->elf) {
        s = elf_lookup(lib->elf, lib->elf_size, name);
        if (!s.found || s.type != 1) rc = CUDA_ERROR_NOT_FOUND;
    }
    if (!rc) {
        struct alloc *x = NULL;
        for (struct alloc *a = g_allocs; a; a = a->next)
            if (!a->dead && a->lib == lib && a->name && strcmp(a->name, name) == 0) { x = a; break; }
        if (!x) {
            x = calloc(1, sizeof *x);
            if (!x) abort();
            x->kind = kind;
            snprintf(x->label, sizeof x->label, "%c%d", kind, next_id(kind));
            x->size = s.size;
            x->base = calloc(1, s.size ? s.size : 1);
            if (!x->base) abort();
            if (s.init) memcpy(x->base, s.init, s.size);
            x->lib = lib;
            x->name = strdup(name);
            x->next = g_allocs;
            g_allocs = x;
        }
        if (dptr) *dptr = (CUdeviceptr)(uintptr_t)x->base;
        if (bytes) *bytes = x->size;
        lput(l, " -> ptr=%s bytes=%zu", x->label, x->size);
    }
    unlock();
    return done(l, rc);
}

EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name) {
    struct line l;
    lstart(&l, "cuLibraryGetGlobal");
    return library_symbol(&l, dptr, bytes, library, name, 'G');
}

EXPORT CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name) {
    struct line l;
    lstart(&l, "cuLibraryGetManaged");
    return library_symbol(&l, dptr, bytes, library, name, 'M');
}

/* A kernel or function handle: both are accepted wherever a CUfunction is. */
static struct obj *find_kernel_or_function(const void *h) {
    struct obj *o = find_obj(h, K_KERNEL);
    return o ? o : find_obj(h, K_FUNC);
}

static struct obj *kernel_of(struct obj *o) { return o->kind == K_FUNC ? o->kernel : o; }

EXPORT CUresult cuKernelGetFunction(CUfunction *pf, CUkernel kernel) {
    struct line l;
    lstart(&l, "cuKernelGetFunction");
    lock();
    struct obj *k = find_obj(kernel, K_KERNEL);
    lput(&l, " %s", k ? k->label : "bad");
    struct obj *c = NULL;
    CUresult rc = need_ctx(&c);
    if (!rc && !pf) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && (!k || k->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) {
        struct obj *f = NULL;
        for (struct obj *o = g_objs; o; o = o->next)
            if (o->kind == K_FUNC && !o->dead && o->kernel == k && o->ctx == c) { f = o; break; }
        if (!f) {
            f = new_obj(K_FUNC, 'F');
            f->kernel = k;
            f->ctx = c;
            f->name = k->name;
        }
        *pf = f;
        lput(&l, " ctx=%s -> %s", c->label, f->label);
    }
    unlock();
    return done(&l, rc);
}

static int kernel_attr_default(int a) {
    switch (a) {
    case 0: return 1024;   /* max threads per block */
    case 4: return 16;     /* registers (really per kernel) */
    case 5: return 90;     /* PTX version */
    case 6: return 90;     /* binary version */
    case 8: return 49152;  /* max dynamic shared size */
    case 9: return -1;     /* preferred carveout */
    default: return 0;
    }
}

EXPORT CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute a, CUkernel kernel, CUdevice d) {
    struct line l;
    lstart(&l, "cuKernelGetAttribute");
    lock();
    struct obj *o = find_kernel_or_function(kernel);
    lput(&l, " %s attr=%d dev=%d", o ? o->label : "bad", a, d);
    CUresult rc = check_device(d);
    if (!rc && (!pi || a < 0 || a >= 16)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) {
        struct obj *k = kernel_of(o);
        *pi = (k->attrs_set >> a) & 1 ? k->attrs[a] : kernel_attr_default(a);
        lput(&l, " -> %d", *pi);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuKernelSetAttribute(CUfunction_attribute a, int val, CUkernel kernel, CUdevice d) {
    struct line l;
    lstart(&l, "cuKernelSetAttribute");
    lock();
    struct obj *o = find_kernel_or_function(kernel);
    lput(&l, " %s attr=%d value=%d dev=%d", o ? o->label : "bad", a, val, d);
    CUresult rc = check_device(d);
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    /* Settable: max dynamic shared size (8), carveout (9), cluster ones. */
    if (!rc && !(a == 8 || a == 9 || (a >= 10 && a <= 15))) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && a == 8 && (val < 0 || val > 232448)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) { kernel_of(o)->attrs[a] = val; kernel_of(o)->attrs_set |= 1u << a; }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice d) {
    struct line l;
    lstart(&l, "cuKernelSetCacheConfig");
    lock();
    struct obj *o = find_kernel_or_function(kernel);
    lput(&l, " %s config=%d dev=%d", o ? o->label : "bad", config, d);
    CUresult rc = check_device(d);
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc && (config < 0 || config > 3)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) kernel_of(o)->cache_config = config;
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuKernelGetName(const char **name, CUkernel kernel) {
    struct line l;
    lstart(&l, "cuKernelGetName");
    lock();
    struct obj *o = find_kernel_or_function(kernel);
    lput(&l, " %s", o ? o->label : "bad");
    CUresult rc = need_init();
    if (!rc && !name) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) { *name = kernel_of(o)->name; lput(&l, " -> %s", *name); }
    unlock();
    return done(&l, rc);
}

/* ------------------------------------------------------------------------ */
/* Launches (recorded, never executed).                                     */

static CUresult launch_common(struct line *l, int per_thread, CUfunction f, unsigned gx, unsigned gy,
                              unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned smem,
                              CUstream stream, unsigned nattrs, int ex) {
    lock();
    struct obj *o = find_kernel_or_function(f);
    lput(l, " %s", o ? o->label : "bad");
    if (o) lput(l, " name=%s", kernel_of(o)->name);
    lput(l, " grid=%u,%u,%u block=%u,%u,%u smem=%u", gx, gy, gz, bx, by, bz, smem);
    CUstream eff = stream == NULL && per_thread ? STREAM_PER_THREAD : stream;
    struct obj *c = NULL;
    CUresult rc = need_ctx(&c);
    if (!rc) rc = check_stream(stream, per_thread, &eff);
    put_stream(l, eff);
    if (ex) lput(l, " attrs=%u", nattrs);
    lput(l, " ctx=%s", ctx_label(current()));
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc && o->kind == K_FUNC && o->ctx != c) rc = CUDA_ERROR_INVALID_CONTEXT;
    if (!rc && kernel_of(o)->lib->dead) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc && (gx == 0 || gy == 0 || gz == 0 || bx == 0 || by == 0 || bz == 0)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && ((unsigned long long)bx * by * bz > 1024 || bz > 64 || gy > 65535 || gz > 65535))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && smem > 232448) rc = CUDA_ERROR_INVALID_VALUE;
    unlock();
    return done(l, rc);
}

EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned smem, CUstream stream, void **params, void **extra) {
    (void)params; (void)extra;
    struct line l;
    int pt = lstart(&l, "cuLaunchKernel");
    return launch_common(&l, pt, f, gx, gy, gz, bx, by, bz, smem, stream, 0, 0);
}

EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra) {
    (void)params; (void)extra;
    struct line l;
    int pt = lstart(&l, "cuLaunchKernelEx");
    if (!cfg) return done(&l, CUDA_ERROR_INVALID_VALUE);
    return launch_common(&l, pt, f, cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ, cfg->blockDimX,
                         cfg->blockDimY, cfg->blockDimZ, cfg->sharedMemBytes, cfg->hStream, cfg->numAttrs, 1);
}

/* ------------------------------------------------------------------------ */
/* Memory.                                                                  */

/* Device and managed memory are mappings of their own: freed, they stay
 * reserved but inaccessible, as the real driver keeps the device's address
 * range after cuMemFree (host memory never lands there). Host memory comes
 * from the heap. */
static struct alloc *new_alloc(char kind, size_t size, struct obj *ctx) {
    void *p = NULL;
    size_t mapped = 0;
    if (kind == 'D' || kind == 'M') {
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        mapped = ((size ? size : 1) + page - 1) / page * page;
        p = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
    } else {
        if (posix_memalign(&p, 256, size ? size : 1) != 0) return NULL;
        memset(p, 0, size ? size : 1);
    }
    struct alloc *x = calloc(1, sizeof *x);
    if (!x) abort();
    x->mapped = mapped;
    x->kind = kind;
    snprintf(x->label, sizeof x->label, "%c%d", kind, next_id(kind));
    x->base = p;
    x->size = size;
    x->ctx = ctx;
    x->next = g_allocs;
    g_allocs = x;
    g_allocated += size;
    return x;
}

static CUresult alloc_call(struct line *l, char kind, void **out, size_t size, unsigned flags, int has_flags) {
    lput(l, " size=%zu", size);
    if (has_flags) lput(l, " flags=0x%x", flags);
    lock();
    struct obj *c = NULL;
    CUresult rc = need_ctx(&c);
    lput(l, " ctx=%s", ctx_label(current()));
    if (!rc && (!out || size == 0)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && size > TOTAL_MEM - g_allocated) rc = CUDA_ERROR_OUT_OF_MEMORY;
    struct alloc *x = NULL;
    if (!rc && !(x = new_alloc(kind, size, c))) rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (!rc) { *out = x->base; lput(l, " -> ptr=%s", x->label); }
    unlock();
    return done(l, rc);
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t size) {
    struct line l;
    lstart(&l, "cuMemAlloc");
    void *p = NULL;
    CUresult rc = alloc_call(&l, 'D', dptr ? &p : NULL, size, 0, 0);
    if (!rc) *dptr = (CUdeviceptr)(uintptr_t)p;
    return rc;
}

EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t size, unsigned int flags) {
    struct line l;
    lstart(&l, "cuMemAllocManaged");
    void *p = NULL;
    CUresult rc = alloc_call(&l, 'M', dptr ? &p : NULL, size, flags, 1);
    if (!rc) *dptr = (CUdeviceptr)(uintptr_t)p;
    return rc;
}

EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t size) {
    struct line l;
    lstart(&l, "cuMemAllocHost");
    return alloc_call(&l, 'H', pp, size, 0, 0);
}

EXPORT CUresult cuMemHostAlloc(void **pp, size_t size, unsigned int flags) {
    struct line l;
    lstart(&l, "cuMemHostAlloc");
    return alloc_call(&l, 'H', pp, size, flags, 1);
}

static CUresult free_call(struct line *l, const void *p, char kind) {
    lock();
    struct alloc *x = find_alloc(p);
    put_ptr(l, "ptr", p);
    CUresult rc = need_init();
    if (!rc && p && (!x || x->base != p || x->kind == 'G' ||
                     (kind == 'H') != (x->kind == 'H')))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && x) {
        x->dead = 1;
        g_allocated -= x->size;
        release_mem(x);
    }
    unlock();
    return done(l, rc);
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr) {
    struct line l;
    lstart(&l, "cuMemFree");
    return free_call(&l, (const void *)(uintptr_t)dptr, 'D');
}

EXPORT CUresult cuMemFreeHost(void *p) {
    struct line l;
    lstart(&l, "cuMemFreeHost");
    return free_call(&l, p, 'H');
}

EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pd, void *p, unsigned int flags) {
    struct line l;
    lstart(&l, "cuMemHostGetDevicePointer");
    lock();
    put_ptr(&l, "ptr", p);
    lput(&l, " flags=0x%x", flags);
    CUresult rc = need_ctx(NULL);
    struct alloc *x = find_alloc(p);
    if (!rc && (!pd || flags != 0 || !x || x->kind != 'H')) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) *pd = (CUdeviceptr)(uintptr_t)p;
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
    struct line l;
    lstart(&l, "cuMemGetInfo");
    lock();
    CUresult rc = need_ctx(NULL);
    if (!rc && (!free_bytes || !total)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        *total = TOTAL_MEM;
        /* Like a real device: some memory is always taken by the context. */
        *free_bytes = TOTAL_MEM - 536870912ULL - g_allocated;
        lput(&l, " -> free=%zu total=%zu", *free_bytes, *total);
    }
    unlock();
    return done(&l, rc);
}

/* A copy between two addresses: both must be tracked allocations or host
 * memory the caller owns (the double cannot tell; it trusts them). */
static CUresult copy_call(struct line *l, int per_thread, void *dst, const void *src, size_t n,
                          CUstream stream, int has_stream) {
    lock();
    put_ptr(l, "dst", dst);
    put_ptr(l, "src", src);
    lput(l, " size=%zu", n);
    CUstream eff = stream;
    CUresult rc = has_stream ? check_stream(stream, per_thread, &eff) : need_ctx(NULL);
    if (has_stream) put_stream(l, eff);
    lput(l, " ctx=%s", ctx_label(current()));
    if (!rc && n && (!dst || !src)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && n && (in_freed_range(dst) || in_freed_range(src))) rc = CUDA_ERROR_INVALID_VALUE;
    struct alloc *dx = find_alloc(dst), *sx = find_alloc(src);
    if (!rc && dx && n > dx->size - (size_t)((unsigned char *)dst - dx->base)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && sx && n > sx->size - (size_t)((const unsigned char *)src - sx->base)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && n) memmove(dst, src, n);
    unlock();
    return done(l, rc);
}

/* A device-side address must be a tracked allocation. */
static CUresult need_device_ptr(CUdeviceptr p) {
    return find_alloc((const void *)(uintptr_t)p) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) {
    struct line l;
    int pt = lstart(&l, "cuMemcpy");
    return copy_call(&l, pt, (void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n, NULL, 0);
}

EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
    struct line l;
    int pt = lstart(&l, "cuMemcpyAsync");
    return copy_call(&l, pt, (void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n, s, 1);
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
    struct line l;
    int pt = lstart(&l, "cuMemcpyHtoD");
    lock();
    CUresult bad = n ? need_device_ptr(dst) : CUDA_SUCCESS;
    unlock();
    if (bad) {
        put_ptr(&l, "dst", (void *)(uintptr_t)dst);
        lput(&l, " size=%zu", n);
        return done(&l, bad);
    }
    return copy_call(&l, pt, (void *)(uintptr_t)dst, src, n, NULL, 0);
}

EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
    struct line l;
    int pt = lstart(&l, "cuMemcpyDtoH");
    lock();
    CUresult bad = n ? need_device_ptr(src) : CUDA_SUCCESS;
    unlock();
    if (bad) {
        put_ptr(&l, "src", (void *)(uintptr_t)src);
        lput(&l, " size=%zu", n);
        return done(&l, bad);
    }
    return copy_call(&l, pt, dst, (const void *)(uintptr_t)src, n, NULL, 0);
}

EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
    struct line l;
    int pt = lstart(&l, "cuMemcpyDtoD");
    lock();
    CUresult bad = n ? (need_device_ptr(dst) ? CUDA_ERROR_INVALID_VALUE : need_device_ptr(src)) : CUDA_SUCCESS;
    unlock();
    if (bad) {
        put_ptr(&l, "dst", (void *)(uintptr_t)dst);
        put_ptr(&l, "src", (void *)(uintptr_t)src);
        lput(&l, " size=%zu", n);
        return done(&l, bad);
    }
    return copy_call(&l, pt, (void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n, NULL, 0);
}

static CUresult memset_call(struct line *l, int per_thread, CUdeviceptr dst, unsigned value, size_t count,
                            int width, CUstream stream, int has_stream) {
    lock();
    unsigned char *d = (unsigned char *)(uintptr_t)dst;
    put_ptr(l, "dst", d);
    lput(l, " value=0x%x count=%zu", value, count);
    CUstream eff = stream;
    CUresult rc = has_stream ? check_stream(stream, per_thread, &eff) : need_ctx(NULL);
    if (has_stream) put_stream(l, eff);
    lput(l, " ctx=%s", ctx_label(current()));
    struct alloc *x = find_alloc(d);
    if (!rc && count && !x) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && width == 4 && (dst & 3)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && count && count > (x->size - (size_t)(d - x->base)) / (size_t)width) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        if (width == 1) memset(d, (int)(value & 0xff), count);
        else for (size_t i = 0; i < count; i++) memcpy(d + 4 * i, &value, 4);
    }
    unlock();
    return done(l, rc);
}

EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char uc, size_t n) {
    struct line l;
    int pt = lstart(&l, "cuMemsetD8");
    return memset_call(&l, pt, dst, uc, n, 1, NULL, 0);
}

EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char uc, size_t n, CUstream s) {
    struct line l;
    int pt = lstart(&l, "cuMemsetD8Async");
    return memset_call(&l, pt, dst, uc, n, 1, s, 1);
}

EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int ui, size_t n) {
    struct line l;
    int pt = lstart(&l, "cuMemsetD32");
    return memset_call(&l, pt, dst, ui, n, 4, NULL, 0);
}

EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int ui, size_t n, CUstream s) {
    struct line l;
    int pt = lstart(&l, "cuMemsetD32Async");
    return memset_call(&l, pt, dst, ui, n, 4, s, 1);
}

EXPORT CUresult cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr ptr) {
    struct line l;
    lstart(&l, "cuPointerGetAttribute");
    lput(&l, " attr=%d", a);
    lock();
    struct alloc *x = find_alloc((const void *)(uintptr_t)ptr);
    put_ptr(&l, "ptr", (const void *)(uintptr_t)ptr);
    CUresult rc = need_init();
    if (!rc && (!data || !x)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct obj *c = x->ctx;
        switch (a) {
        case 1: *(CUcontext *)data = c; lput(&l, " -> ctx=%s", ctx_label(c)); break;
        case 2: *(unsigned *)data = x->kind == 'H' ? 1u : 2u; lput(&l, " -> %u", *(unsigned *)data); break;
        case 3: *(CUdeviceptr *)data = (CUdeviceptr)ptr; break;
        case 4:
            if (x->kind == 'D' || x->kind == 'G') rc = CUDA_ERROR_INVALID_VALUE;
            else *(void **)data = (void *)(uintptr_t)ptr;
            break;
        case 6: *(int *)data = 0; break;
        case 7: *(unsigned long long *)data = (unsigned long long)(uintptr_t)x; break;
        case 8: *(int *)data = x->kind == 'M'; lput(&l, " -> %d", *(int *)data); break;
        case 9: *(int *)data = c ? c->device : 0; lput(&l, " -> %d", *(int *)data); break;
        case 11: *(void **)data = x->base; break;
        case 12: *(size_t *)data = x->size; break;
        case 13: *(int *)data = 1; break;
        default: rc = CUDA_ERROR_INVALID_VALUE; break;
        }
    }
    unlock();
    return done(&l, rc);
}

/* ------------------------------------------------------------------------ */
/* Streams.                                                                 */

static CUresult stream_create(struct line *l, CUstream *ps, unsigned flags, int priority) {
    lput(l, " flags=0x%x priority=%d", flags, priority);
    lock();
    struct obj *c = NULL;
    CUresult rc = need_ctx(&c);
    if (!rc && (!ps || (flags & ~1u))) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct obj *s = new_obj(K_STREAM, 'S');
        s->flags = flags;
        s->priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
        s->ctx = c;
        *ps = s;
        lput(l, " ctx=%s -> stream=%s", c->label, s->label);
    }
    unlock();
    return done(l, rc);
}

EXPORT CUresult cuStreamCreate(CUstream *ps, unsigned int flags) {
    struct line l;
    lstart(&l, "cuStreamCreate");
    return stream_create(&l, ps, flags, 0);
}

EXPORT CUresult cuStreamCreateWithPriority(CUstream *ps, unsigned int flags, int priority) {
    struct line l;
    lstart(&l, "cuStreamCreateWithPriority");
    return stream_create(&l, ps, flags, priority);
}

EXPORT CUresult cuStreamDestroy_v2(CUstream s) {
    struct line l;
    lstart(&l, "cuStreamDestroy");
    lock();
    struct obj *o = find_obj(s, K_STREAM);
    lput(&l, " stream=%s", o ? o->label : "bad");
    CUresult rc = need_init();
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) o->dead = 1;
    unlock();
    return done(&l, rc);
}

static CUresult stream_simple(const char *name, CUstream s) {
    struct line l;
    int pt = lstart(&l, name);
    lock();
    CUstream eff = s;
    CUresult rc = check_stream(s, pt, &eff);
    put_stream(&l, eff);
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuStreamSynchronize(CUstream s) { return stream_simple("cuStreamSynchronize", s); }
EXPORT CUresult cuStreamQuery(CUstream s) { return stream_simple("cuStreamQuery", s); }

EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags) {
    struct line l;
    int pt = lstart(&l, "cuStreamWaitEvent");
    lock();
    CUstream eff = s;
    CUresult rc = check_stream(s, pt, &eff);
    put_stream(&l, eff);
    struct obj *ev = find_obj(e, K_EVENT);
    lput(&l, " event=%s flags=0x%x", ev ? ev->label : "bad", flags);
    if (!rc && (!ev || ev->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc && flags & ~1u) rc = CUDA_ERROR_INVALID_VALUE;
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuStreamGetFlags(CUstream s, unsigned int *flags) {
    struct line l;
    int pt = lstart(&l, "cuStreamGetFlags");
    lock();
    CUstream eff = s;
    CUresult rc = check_stream(s, pt, &eff);
    put_stream(&l, eff);
    if (!rc && !flags) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct obj *o = find_obj(eff, K_STREAM);
        *flags = o ? o->flags : 0;
        lput(&l, " -> 0x%x", *flags);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuStreamGetPriority(CUstream s, int *priority) {
    struct line l;
    int pt = lstart(&l, "cuStreamGetPriority");
    lock();
    CUstream eff = s;
    CUresult rc = check_stream(s, pt, &eff);
    put_stream(&l, eff);
    if (!rc && !priority) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct obj *o = find_obj(eff, K_STREAM);
        *priority = o ? o->priority : 0;
        lput(&l, " -> %d", *priority);
    }
    unlock();
    return done(&l, rc);
}

/* cuStreamGetCtx as the 13.0 headers name it (cuStreamGetCtx_v2): the
 * stream's context and, for a stream of a green context, that green
 * context (NULL otherwise). The special streams belong to the current
 * context. */
EXPORT CUresult cuStreamGetCtx_v2(CUstream s, CUcontext *pctx, void **pgreen) {
    struct line l;
    int pt = lstart(&l, "cuStreamGetCtx");
    lock();
    CUstream eff = s;
    CUresult rc = check_stream(s, pt, &eff);
    put_stream(&l, eff);
    if (!rc && !pctx) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct obj *o = find_obj(eff, K_STREAM);
        struct obj *c = o ? o->ctx : current();
        if (!c) rc = CUDA_ERROR_INVALID_CONTEXT;
        struct obj *green = NULL;
        for (struct obj *g = g_objs; !rc && o && g; g = g->next)
            if (g->magic == MAGIC && g->kind == K_GREEN && !g->dead && g->green == c) green = g;
        if (!rc) {
            *pctx = c;
            if (pgreen) *pgreen = green;
            lput(&l, " -> ctx=%s green=%s", c->label, green ? green->label : "-");
        }
    }
    unlock();
    return done(&l, rc);
}

/* ------------------------------------------------------------------------ */
/* Events.                                                                  */

EXPORT CUresult cuEventCreate(CUevent *pe, unsigned int flags) {
    struct line l;
    lstart(&l, "cuEventCreate");
    lput(&l, " flags=0x%x", flags);
    lock();
    struct obj *c = NULL;
    CUresult rc = need_ctx(&c);
    if (!rc && (!pe || (flags & ~0xfu))) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct obj *e = new_obj(K_EVENT, 'E');
        e->flags = flags;
        e->ctx = c;
        *pe = e;
        lput(&l, " ctx=%s -> event=%s", c->label, e->label);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuEventDestroy_v2(CUevent e) {
    struct line l;
    lstart(&l, "cuEventDestroy");
    lock();
    struct obj *o = find_obj(e, K_EVENT);
    lput(&l, " event=%s", o ? o->label : "bad");
    CUresult rc = need_init();
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) o->dead = 1;
    unlock();
    return done(&l, rc);
}

static CUresult event_record(struct line *l, int per_thread, CUevent e, CUstream s, unsigned flags, int has_flags) {
    lock();
    struct obj *o = find_obj(e, K_EVENT);
    lput(l, " event=%s", o ? o->label : "bad");
    CUstream eff = s;
    CUresult rc = check_stream(s, per_thread, &eff);
    put_stream(l, eff);
    if (has_flags) lput(l, " flags=0x%x", flags);
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc && has_flags && (flags & ~1u)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) { o->recorded = 1; clock_gettime(CLOCK_MONOTONIC, &o->when); }
    unlock();
    return done(l, rc);
}

EXPORT CUresult cuEventRecord(CUevent e, CUstream s) {
    struct line l;
    int pt = lstart(&l, "cuEventRecord");
    return event_record(&l, pt, e, s, 0, 0);
}

EXPORT CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned int flags) {
    struct line l;
    int pt = lstart(&l, "cuEventRecordWithFlags");
    return event_record(&l, pt, e, s, flags, 1);
}

static CUresult event_simple(const char *name, CUevent e) {
    struct line l;
    lstart(&l, name);
    lock();
    struct obj *o = find_obj(e, K_EVENT);
    lput(&l, " event=%s", o ? o->label : "bad");
    CUresult rc = need_init();
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuEventQuery(CUevent e) { return event_simple("cuEventQuery", e); }
EXPORT CUresult cuEventSynchronize(CUevent e) { return event_simple("cuEventSynchronize", e); }

EXPORT CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end) {
    struct line l;
    lstart(&l, "cuEventElapsedTime");
    lock();
    struct obj *a = find_obj(start, K_EVENT), *b = find_obj(end, K_EVENT);
    lput(&l, " start=%s end=%s", a ? a->label : "bad", b ? b->label : "bad");
    CUresult rc = need_init();
    if (!rc && !ms) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && (!a || !b || a->dead || b->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    /* Events created with CU_EVENT_DISABLE_TIMING (0x2) or never recorded. */
    if (!rc && ((a->flags | b->flags) & 2)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc && (!a->recorded || !b->recorded)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) {
        double d = (double)(b->when.tv_sec - a->when.tv_sec) * 1e3 +
                   (double)(b->when.tv_nsec - a->when.tv_nsec) / 1e6;
        *ms = (float)d;
    }
    unlock();
    return done(&l, rc);
}

/* ------------------------------------------------------------------------ */
/* Per-thread default stream variants (what flags & 2 hands out).           */

#define PT(variant, name, params, args) \
    EXPORT CUresult name##variant params { t_variant = #variant; return name args; }

PT(_ptsz, cuLaunchKernel,
   (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
    unsigned smem, CUstream s, void **p, void **e),
   (f, gx, gy, gz, bx, by, bz, smem, s, p, e))
PT(_ptsz, cuLaunchKernelEx, (const CUlaunchConfig *c, CUfunction f, void **p, void **e), (c, f, p, e))
PT(_ptds, cuMemcpy, (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n))
PT(_ptsz, cuMemcpyAsync, (CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st), (d, s, n, st))
PT(_ptds, cuMemcpyHtoD_v2, (CUdeviceptr d, const void *s, size_t n), (d, s, n))
PT(_ptds, cuMemcpyDtoH_v2, (void *d, CUdeviceptr s, size_t n), (d, s, n))
PT(_ptds, cuMemcpyDtoD_v2, (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n))
PT(_ptds, cuMemsetD8_v2, (CUdeviceptr d, unsigned char v, size_t n), (d, v, n))
PT(_ptsz, cuMemsetD8Async, (CUdeviceptr d, unsigned char v, size_t n, CUstream s), (d, v, n, s))
PT(_ptds, cuMemsetD32_v2, (CUdeviceptr d, unsigned int v, size_t n), (d, v, n))
PT(_ptsz, cuMemsetD32Async, (CUdeviceptr d, unsigned int v, size_t n, CUstream s), (d, v, n, s))
PT(_ptsz, cuStreamSynchronize, (CUstream s), (s))
PT(_ptsz, cuStreamQuery, (CUstream s), (s))
PT(_ptsz, cuStreamWaitEvent, (CUstream s, CUevent e, unsigned int f), (s, e, f))
PT(_ptsz, cuStreamGetFlags, (CUstream s, unsigned int *f), (s, f))
PT(_ptsz, cuStreamGetPriority, (CUstream s, int *p), (s, p))
PT(_ptsz, cuStreamGetCtx_v2, (CUstream s, CUcontext *c, void **g), (s, c, g))
PT(_ptsz, cuEventRecord, (CUevent e, CUstream s), (e, s))
PT(_ptsz, cuEventRecordWithFlags, (CUevent e, CUstream s, unsigned int f), (e, s, f))

/* ------------------------------------------------------------------------ */
/* Device resources and green contexts (CUDA 12.4-12.9, in driver 580).      */
/* The double's device has 132 SMs, split in groups of a multiple of 8 SMs  */
/* (the double's own numbers, not recorded on the H200). A green context    */
/* is its own handle ("Y<n>"); cuCtxFromGreenCtx gives the context that     */
/* stands for it ("X<n>", a context of the device with the green context's  */
/* SMs). Streams of a green context are streams of that context.            */

#define DOUBLE_SMS 132u
#define DOUBLE_SM_STEP 8u

/* CUdevResource: 144 bytes; type, 92 reserved bytes, then the SM resource
 * (smCount, minSmPartitionSize, smCoscheduledAlignment). */
struct dev_resource {
    int type;
    unsigned char reserved[92];
    unsigned sm[3];
    unsigned char rest[36];
};
_Static_assert(sizeof(struct dev_resource) == 144, "CUdevResource is 144 bytes");

static void sm_resource(struct dev_resource *r, unsigned count) {
    memset(r, 0, sizeof *r);
    r->type = 1; /* CU_DEV_RESOURCE_TYPE_SM */
    r->sm[0] = count;
    r->sm[1] = DOUBLE_SM_STEP;
    r->sm[2] = DOUBLE_SM_STEP;
}

EXPORT CUresult cuDeviceGetDevResource(CUdevice d, struct dev_resource *r, int type) {
    struct line l;
    lstart(&l, "cuDeviceGetDevResource");
    lput(&l, " dev=%d type=%d", d, type);
    lock();
    CUresult rc = check_device(d);
    if (!rc && !r) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && type != 1) rc = CUDA_ERROR_INVALID_RESOURCE_TYPE;
    if (!rc) { sm_resource(r, DOUBLE_SMS); lput(&l, " -> sms=%u", DOUBLE_SMS); }
    unlock();
    return done(&l, rc);
}

static CUresult ctx_resource(struct line *l, struct obj *c, struct dev_resource *r, int type) {
    lput(l, " type=%d", type);
    CUresult rc = need_init();
    if (!rc) rc = check_ctx_alive(c);
    if (!rc && !r) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && type != 1) rc = CUDA_ERROR_INVALID_RESOURCE_TYPE;
    if (!rc) {
        unsigned n = c->sm_count ? c->sm_count : DOUBLE_SMS;
        sm_resource(r, n);
        lput(l, " -> sms=%u", n);
    }
    return rc;
}

EXPORT CUresult cuCtxGetDevResource(CUcontext ctx, struct dev_resource *r, int type) {
    struct line l;
    lstart(&l, "cuCtxGetDevResource");
    lock();
    struct obj *c = find_obj(ctx, K_CTX);
    lput(&l, " ctx=%s", c ? c->label : ctx ? "bad" : "-");
    CUresult rc = ctx_resource(&l, c, r, type);
    unlock();
    return done(&l, rc);
}

/* A live green context, or NULL. */
static struct obj *green_of(void *g) {
    struct obj *o = find_obj(g, K_GREEN);
    return o && !o->dead ? o : NULL;
}

EXPORT CUresult cuGreenCtxGetDevResource(void *g, struct dev_resource *r, int type) {
    struct line l;
    lstart(&l, "cuGreenCtxGetDevResource");
    lock();
    struct obj *o = green_of(g);
    lput(&l, " green=%s", o ? o->label : "bad");
    CUresult rc = o ? ctx_resource(&l, o->green, r, type) : CUDA_ERROR_INVALID_HANDLE;
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuDevSmResourceSplitByCount(struct dev_resource *result, unsigned *nb,
                                            const struct dev_resource *input,
                                            struct dev_resource *remaining, unsigned flags,
                                            unsigned min_count) {
    struct line l;
    lstart(&l, "cuDevSmResourceSplitByCount");
    lput(&l, " result=%s flags=0x%x min=%u", result ? "set" : "null", flags, min_count);
    lock();
    CUresult rc = need_init();
    if (!rc && (!nb || !input || (flags & ~3u))) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && input->type != 1) rc = CUDA_ERROR_INVALID_RESOURCE_TYPE;
    if (!rc) {
        unsigned size = min_count < DOUBLE_SM_STEP ? DOUBLE_SM_STEP
                        : (min_count + DOUBLE_SM_STEP - 1) / DOUBLE_SM_STEP * DOUBLE_SM_STEP;
        unsigned groups = input->sm[0] / size;
        unsigned n = result ? (*nb < groups ? *nb : groups) : groups;
        for (unsigned i = 0; result && i < n; i++) sm_resource(&result[i], size);
        if (remaining) sm_resource(remaining, input->sm[0] - n * size);
        *nb = n;
        lput(&l, " -> groups=%u of %u sms, remaining %u", n, size, input->sm[0] - n * size);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuDevResourceGenerateDesc(void **desc, struct dev_resource *r, unsigned n) {
    struct line l;
    lstart(&l, "cuDevResourceGenerateDesc");
    lput(&l, " n=%u", n);
    lock();
    CUresult rc = need_init();
    if (!rc && (!desc || !r || n == 0)) rc = CUDA_ERROR_INVALID_VALUE;
    unsigned sms = 0;
    for (unsigned i = 0; !rc && i < n; i++) {
        if (r[i].type != 1) rc = CUDA_ERROR_INVALID_RESOURCE_TYPE;
        else sms += r[i].sm[0];
    }
    if (!rc) {
        struct obj *o = new_obj(K_DESC, 'R');
        o->sm_count = sms;
        *desc = o;
        lput(&l, " -> desc=%s sms=%u", o->label, sms);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuGreenCtxCreate(void **pg, void *desc, CUdevice d, unsigned flags) {
    struct line l;
    lstart(&l, "cuGreenCtxCreate");
    lock();
    struct obj *r = find_obj(desc, K_DESC);
    lput(&l, " desc=%s dev=%d flags=0x%x", r ? r->label : "bad", d, flags);
    CUresult rc = check_device(d);
    /* CU_GREEN_CTX_DEFAULT_STREAM is required: driver 580 answered
     * CUDA_ERROR_INVALID_VALUE to flags 0 (H200, 2026-12-04). */
    if (!rc && (!pg || flags != 1u)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && !r) rc = CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
    if (!rc) {
        struct obj *g = new_obj(K_GREEN, 'Y');
        struct obj *c = new_obj(K_CTX, 'X');
        g->device = c->device = d;
        g->sm_count = c->sm_count = r->sm_count;
        c->active = 1;
        c->id = ++g_ctx_ids;
        g->id = ++g_ctx_ids;
        g->green = c;
        *pg = g;
        lput(&l, " -> green=%s ctx=%s sms=%u", g->label, c->label, g->sm_count);
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuGreenCtxDestroy(void *pg) {
    struct line l;
    lstart(&l, "cuGreenCtxDestroy");
    lock();
    struct obj *g = green_of(pg);
    lput(&l, " green=%s", g ? g->label : "bad");
    CUresult rc = need_init();
    if (!rc && !g) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) {
        g->dead = 1;
        g->green->dead = 1;
        if (t_depth > 0 && t_stack[t_depth - 1] == g->green) t_depth--;
    }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuCtxFromGreenCtx(CUcontext *pctx, void *pg) {
    struct line l;
    lstart(&l, "cuCtxFromGreenCtx");
    lock();
    struct obj *g = green_of(pg);
    lput(&l, " green=%s", g ? g->label : "bad");
    CUresult rc = need_init();
    if (!rc && !pctx) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && !g) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) { *pctx = g->green; lput(&l, " -> ctx=%s", g->green->label); }
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuGreenCtxGetId(void *pg, unsigned long long *id) {
    struct line l;
    lstart(&l, "cuGreenCtxGetId");
    lock();
    struct obj *g = green_of(pg);
    lput(&l, " green=%s", g ? g->label : "bad");
    CUresult rc = need_init();
    if (!rc && !id) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && !g) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) { *id = g->id; lput(&l, " -> id=%llu", g->id); }
    unlock();
    return done(&l, rc);
}

/* Streams of a green context must be non-blocking (CU_STREAM_NON_BLOCKING). */
EXPORT CUresult cuGreenCtxStreamCreate(CUstream *ps, void *pg, unsigned flags, int priority) {
    struct line l;
    lstart(&l, "cuGreenCtxStreamCreate");
    lock();
    struct obj *g = green_of(pg);
    lput(&l, " green=%s flags=0x%x priority=%d", g ? g->label : "bad", flags, priority);
    CUresult rc = need_init();
    if (!rc && (!ps || flags != 1u)) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && !g) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) {
        struct obj *s = new_obj(K_STREAM, 'S');
        s->flags = flags;
        s->priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
        s->ctx = g->green;
        *ps = s;
        lput(&l, " -> stream=%s ctx=%s", s->label, g->green->label);
    }
    unlock();
    return done(&l, rc);
}

/* Record / wait on a context's (or green context's) work: the double runs
 * nothing, so a record marks the event done and a wait only checks. */
static CUresult ctx_event(struct line *l, struct obj *c, CUevent e, int record) {
    struct obj *o = find_obj(e, K_EVENT);
    lput(l, " event=%s", o ? o->label : "bad");
    CUresult rc = need_init();
    if (!rc) rc = check_ctx_alive(c);
    if (!rc && (!o || o->dead)) rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc && record) { o->recorded = 1; clock_gettime(CLOCK_MONOTONIC, &o->when); }
    return rc;
}

static CUresult ctx_event_call(const char *name, CUcontext ctx, CUevent e, int record) {
    struct line l;
    lstart(&l, name);
    lock();
    struct obj *c = find_obj(ctx, K_CTX);
    lput(&l, " ctx=%s", c ? c->label : ctx ? "bad" : "-");
    CUresult rc = ctx_event(&l, c, e, record);
    unlock();
    return done(&l, rc);
}

static CUresult green_event_call(const char *name, void *pg, CUevent e, int record) {
    struct line l;
    lstart(&l, name);
    lock();
    struct obj *g = green_of(pg);
    lput(&l, " green=%s", g ? g->label : "bad");
    CUresult rc = g ? ctx_event(&l, g->green, e, record) : CUDA_ERROR_INVALID_HANDLE;
    unlock();
    return done(&l, rc);
}

EXPORT CUresult cuCtxRecordEvent(CUcontext c, CUevent e) { return ctx_event_call("cuCtxRecordEvent", c, e, 1); }
EXPORT CUresult cuCtxWaitEvent(CUcontext c, CUevent e) { return ctx_event_call("cuCtxWaitEvent", c, e, 0); }
EXPORT CUresult cuGreenCtxRecordEvent(void *g, CUevent e) { return green_event_call("cuGreenCtxRecordEvent", g, e, 1); }
EXPORT CUresult cuGreenCtxWaitEvent(void *g, CUevent e) { return green_event_call("cuGreenCtxWaitEvent", g, e, 0); }

/* ------------------------------------------------------------------------ */
/* cuGetProcAddress_v2.                                                     */

EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                    CUdriverProcAddressQueryResult *status);

struct proc {
    const char *name;
    void *fn;          /* what cudaVersion >= min_version gets */
    void *fn_pt;       /* per-thread variant (flags & 2), or NULL */
    int min_version;   /* first version with the ABI `fn` implements */
    void *fn_old;      /* for versions below `min_version` (if compatible ABI exists) */
};

#define P(n, f, pt, v) {n, (void *)(f), (void *)(pt), v, NULL}

static const struct proc g_procs[] = {
    P("cuGetProcAddress", cuGetProcAddress_v2, NULL, 12000),
    P("cuInit", cuInit, NULL, 2000),
    P("cuDriverGetVersion", cuDriverGetVersion, NULL, 2020),
    P("cuGetErrorName", cuGetErrorName, NULL, 6000),
    P("cuGetErrorString", cuGetErrorString, NULL, 6000),
    P("cuDeviceGet", cuDeviceGet, NULL, 2000),
    P("cuDeviceGetCount", cuDeviceGetCount, NULL, 2000),
    P("cuDeviceGetName", cuDeviceGetName, NULL, 2000),
    P("cuDeviceGetUuid", cuDeviceGetUuid_v2, NULL, 11040),
    P("cuDeviceTotalMem", cuDeviceTotalMem_v2, NULL, 3020),
    P("cuDeviceGetAttribute", cuDeviceGetAttribute, NULL, 2000),
    P("cuDeviceRegisterAsyncNotification", cuDeviceRegisterAsyncNotification, NULL, 12040),
    P("cuDeviceUnregisterAsyncNotification", cuDeviceUnregisterAsyncNotification, NULL, 12040),
    P("cuDeviceGetPCIBusId", cuDeviceGetPCIBusId, NULL, 4010),
    P("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain, NULL, 7000),
    P("cuDevicePrimaryCtxRelease", cuDevicePrimaryCtxRelease_v2, NULL, 11000),
    P("cuDevicePrimaryCtxSetFlags", cuDevicePrimaryCtxSetFlags_v2, NULL, 11000),
    P("cuDevicePrimaryCtxGetState", cuDevicePrimaryCtxGetState, NULL, 7000),
    P("cuDevicePrimaryCtxReset", cuDevicePrimaryCtxReset_v2, NULL, 11000),
    P("cuCtxCreate", cuCtxCreate_v4, NULL, 12050),
    P("cuCtxDestroy", cuCtxDestroy_v2, NULL, 4000),
    P("cuCtxGetCurrent", cuCtxGetCurrent, NULL, 4000),
    P("cuCtxSetCurrent", cuCtxSetCurrent, NULL, 4000),
    P("cuCtxPushCurrent", cuCtxPushCurrent_v2, NULL, 4000),
    P("cuCtxPopCurrent", cuCtxPopCurrent_v2, NULL, 4000),
    {"cuCtxGetDevice", (void *)cuCtxGetDevice_v2, NULL, 13000, (void *)cuCtxGetDevice},
    {"cuCtxSynchronize", (void *)cuCtxSynchronize_v2, NULL, 13000, (void *)cuCtxSynchronize},
    P("cuCtxGetFlags", cuCtxGetFlags, NULL, 7000),
    P("cuCtxSetLimit", cuCtxSetLimit, NULL, 3010),
    P("cuCtxGetLimit", cuCtxGetLimit, NULL, 3010),
    P("cuCtxGetApiVersion", cuCtxGetApiVersion, NULL, 3020),
    P("cuCtxGetId", cuCtxGetId, NULL, 12000),
    P("cuLibraryLoadData", cuLibraryLoadData, NULL, 12000),
    P("cuLibraryUnload", cuLibraryUnload, NULL, 12000),
    P("cuLibraryGetKernel", cuLibraryGetKernel, NULL, 12000),
    P("cuLibraryGetGlobal", cuLibraryGetGlobal, NULL, 12000),
    P("cuLibraryGetManaged", cuLibraryGetManaged, NULL, 12000),
    P("cuKernelGetFunction", cuKernelGetFunction, NULL, 12000),
    P("cuKernelGetAttribute", cuKernelGetAttribute, NULL, 12000),
    P("cuKernelSetAttribute", cuKernelSetAttribute, NULL, 12000),
    P("cuKernelSetCacheConfig", cuKernelSetCacheConfig, NULL, 12000),
    P("cuKernelGetName", cuKernelGetName, NULL, 12030),
    P("cuLaunchKernel", cuLaunchKernel, cuLaunchKernel_ptsz, 4000),
    P("cuLaunchKernelEx", cuLaunchKernelEx, cuLaunchKernelEx_ptsz, 11060),
    P("cuMemAlloc", cuMemAlloc_v2, NULL, 3020),
    P("cuMemFree", cuMemFree_v2, NULL, 3020),
    P("cuMemAllocHost", cuMemAllocHost_v2, NULL, 3020),
    P("cuMemHostAlloc", cuMemHostAlloc, NULL, 2020),
    P("cuMemFreeHost", cuMemFreeHost, NULL, 2000),
    P("cuMemHostGetDevicePointer", cuMemHostGetDevicePointer_v2, NULL, 3020),
    P("cuMemAllocManaged", cuMemAllocManaged, NULL, 6000),
    P("cuMemGetInfo", cuMemGetInfo_v2, NULL, 3020),
    P("cuMemcpy", cuMemcpy, cuMemcpy_ptds, 4000),
    P("cuMemcpyAsync", cuMemcpyAsync, cuMemcpyAsync_ptsz, 4000),
    P("cuMemcpyHtoD", cuMemcpyHtoD_v2, cuMemcpyHtoD_v2_ptds, 3020),
    P("cuMemcpyDtoH", cuMemcpyDtoH_v2, cuMemcpyDtoH_v2_ptds, 3020),
    P("cuMemcpyDtoD", cuMemcpyDtoD_v2, cuMemcpyDtoD_v2_ptds, 3020),
    P("cuMemsetD8", cuMemsetD8_v2, cuMemsetD8_v2_ptds, 3020),
    P("cuMemsetD8Async", cuMemsetD8Async, cuMemsetD8Async_ptsz, 3020),
    P("cuMemsetD32", cuMemsetD32_v2, cuMemsetD32_v2_ptds, 3020),
    P("cuMemsetD32Async", cuMemsetD32Async, cuMemsetD32Async_ptsz, 3020),
    P("cuPointerGetAttribute", cuPointerGetAttribute, NULL, 4000),
    P("cuThreadExchangeStreamCaptureMode", cuThreadExchangeStreamCaptureMode, NULL, 10010),
    P("cuStreamCreate", cuStreamCreate, NULL, 2000),
    P("cuStreamCreateWithPriority", cuStreamCreateWithPriority, NULL, 5050),
    P("cuStreamDestroy", cuStreamDestroy_v2, NULL, 4000),
    P("cuStreamSynchronize", cuStreamSynchronize, cuStreamSynchronize_ptsz, 2000),
    P("cuStreamQuery", cuStreamQuery, cuStreamQuery_ptsz, 2000),
    P("cuStreamWaitEvent", cuStreamWaitEvent, cuStreamWaitEvent_ptsz, 3020),
    P("cuStreamGetFlags", cuStreamGetFlags, cuStreamGetFlags_ptsz, 5050),
    P("cuStreamGetPriority", cuStreamGetPriority, cuStreamGetPriority_ptsz, 5050),
    P("cuStreamGetCtx", cuStreamGetCtx_v2, cuStreamGetCtx_v2_ptsz, 12050),
    P("cuEventCreate", cuEventCreate, NULL, 2000),
    P("cuEventDestroy", cuEventDestroy_v2, NULL, 4000),
    P("cuEventRecord", cuEventRecord, cuEventRecord_ptsz, 2000),
    P("cuEventRecordWithFlags", cuEventRecordWithFlags, cuEventRecordWithFlags_ptsz, 11010),
    P("cuEventQuery", cuEventQuery, NULL, 2000),
    P("cuEventSynchronize", cuEventSynchronize, NULL, 2000),
    P("cuEventElapsedTime", cuEventElapsedTime_v2, NULL, 2000),
    P("cuDeviceGetDevResource", cuDeviceGetDevResource, NULL, 12040),
    P("cuCtxGetDevResource", cuCtxGetDevResource, NULL, 12040),
    P("cuGreenCtxGetDevResource", cuGreenCtxGetDevResource, NULL, 12040),
    P("cuDevSmResourceSplitByCount", cuDevSmResourceSplitByCount, NULL, 12040),
    P("cuDevResourceGenerateDesc", cuDevResourceGenerateDesc, NULL, 12040),
    P("cuGreenCtxCreate", cuGreenCtxCreate, NULL, 12040),
    P("cuGreenCtxDestroy", cuGreenCtxDestroy, NULL, 12040),
    P("cuCtxFromGreenCtx", cuCtxFromGreenCtx, NULL, 12040),
    P("cuGreenCtxGetId", cuGreenCtxGetId, NULL, 12090),
    P("cuGreenCtxStreamCreate", cuGreenCtxStreamCreate, NULL, 12050),
    P("cuGreenCtxRecordEvent", cuGreenCtxRecordEvent, NULL, 12040),
    P("cuGreenCtxWaitEvent", cuGreenCtxWaitEvent, NULL, 12040),
    P("cuCtxRecordEvent", cuCtxRecordEvent, NULL, 12050),
    P("cuCtxWaitEvent", cuCtxWaitEvent, NULL, 12050),
};

EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                    CUdriverProcAddressQueryResult *status) {
    struct line l;
    lstart(&l, "cuGetProcAddress_v2");
    lput(&l, " %s version=%d flags=%llu", symbol ? symbol : "(null)", cudaVersion, flags);
    log_fd();
    int quiet = !g_log_procs;
    CUresult rc = CUDA_SUCCESS;
    int st = 0;
    void *fn = NULL;
    if (!symbol || !pfn || (flags & ~3ull) || cudaVersion > driver_version()) rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        const struct proc *p = NULL;
        for (size_t i = 0; i < sizeof g_procs / sizeof g_procs[0]; i++)
            if (strcmp(g_procs[i].name, symbol) == 0) { p = &g_procs[i]; break; }
        /* Like the real driver (and its documentation): CUDA_SUCCESS with a
         * NULL pointer when there is nothing to hand out; the status says why. */
        if (!p) st = 1;
        else if (cudaVersion < p->min_version) {
            if (p->fn_old) fn = p->fn_old;
            else st = 2;
        } else {
            fn = (flags & 2) && p->fn_pt ? p->fn_pt : p->fn;
        }
    }
    if (pfn) *pfn = rc ? NULL : fn;
    if (status && !rc) *status = st;
    if (!rc && fn) {
        int per_thread = 0;
        for (size_t i = 0; i < sizeof g_procs / sizeof g_procs[0]; i++)
            if (g_procs[i].fn_pt && g_procs[i].fn_pt == fn) per_thread = 1;
        lput(&l, " -> %s", per_thread ? "per-thread" : "found");
    }
    if (st) lput(&l, " status=%d", st);
    if (quiet) return rc;
    return done(&l, rc);
}
