/* The test double libcuda.so.1 (see double.h).
 * Objects and the registry, the call log, the shared checks, the minimal
 * cubin (ELF64) reading that finds kernels and globals by name, and
 * initialisation, versions and errors. */
#include "double.h"

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

struct obj *g_objs;

struct alloc *g_allocs;

static int g_counters[128];

#define SHUT_DOWN (-1)          /* the exit handler of the first cuInit ran */
static int g_init_state;   /* 0 never called, 1 ok, SHUT_DOWN, else the failure code */

static int g_device_count = -1;

struct obj g_primary[MAX_DEVICES];

size_t g_allocated;

__thread struct obj *t_stack[STACK_MAX];

__thread int t_depth;

/* Set by the per-thread (_ptsz/_ptds) entry points for the call they make. */
__thread const char *t_variant;

static __thread int t_tid;

static int g_next_tid;

void lock(void) { pthread_mutex_lock(&g_lock); }

void unlock(void) { pthread_mutex_unlock(&g_lock); }

int next_id(char c) { return ++g_counters[(unsigned char)c & 127]; }

/* CUDA_DOUBLE_REUSE=1: a new stream or event takes the address of a
 * destroyed one of its kind, as the real driver's allocator may. */
static int reuse_addresses(void) {
    const char *s = getenv("CUDA_DOUBLE_REUSE");
    return s && *s == '1';
}

struct obj *new_obj(enum kind k, char prefix) {
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
struct obj *find_obj(const void *h, enum kind k) {
    if (!h) return NULL;
    for (int i = 0; i < MAX_DEVICES; i++)
        if (h == &g_primary[i]) return k == K_CTX ? &g_primary[i] : NULL;
    for (struct obj *o = g_objs; o; o = o->next)
        if ((const void *)o == h) return (o->magic == MAGIC && o->kind == k) ? o : NULL;
    return NULL;
}

const char *ctx_label(struct obj *c) { return c ? c->label : "-"; }

/* Context ids: unique for the process's life, as the real driver's (a
 * primary context reset and retained again keeps its handle, gets a new id). */
unsigned long long g_ctx_ids;

int devices(void) {
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

int g_log_procs;

static int g_log_tid;

int log_fd(void) {
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

void lput(struct line *l, const char *fmt, ...) {
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
int lstart(struct line *l, const char *name) {
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
CUresult done(struct line *l, CUresult rc) {
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
struct alloc *find_alloc(const void *p) {
    const unsigned char *a = p;
    for (struct alloc *x = g_allocs; x; x = x->next)
        if (!x->dead && x->base && a >= x->base && a < x->base + (x->size ? x->size : 1)) return x;
    return NULL;
}

void put_ptr(struct line *l, const char *key, const void *p) {
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

void put_stream(struct line *l, CUstream s) {
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

struct obj *current(void) { return t_depth > 0 ? t_stack[t_depth - 1] : NULL; }

CUresult need_init(void) {
    if (g_init_state == 1) return CUDA_SUCCESS;
    if (g_init_state == SHUT_DOWN) return CUDA_ERROR_DEINITIALIZED;
    return CUDA_ERROR_NOT_INITIALIZED;
}

CUresult check_ctx_alive(struct obj *c) {
    if (!c) return CUDA_ERROR_INVALID_CONTEXT;
    if (c->dead) return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (c->primary && !c->active) return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    return CUDA_SUCCESS;
}

/* A call that works in the current context: initialised, one current, alive. */
CUresult need_ctx(struct obj **out) {
    CUresult rc = need_init();
    if (rc) return rc;
    struct obj *c = current();
    if (!c) return CUDA_ERROR_INVALID_CONTEXT;
    rc = check_ctx_alive(c);
    if (rc) return rc;
    if (out) *out = c;
    return CUDA_SUCCESS;
}

CUresult check_device(CUdevice d) {
    CUresult rc = need_init();
    if (rc) return rc;
    if (d < 0 || d >= devices()) return CUDA_ERROR_INVALID_DEVICE;
    return CUDA_SUCCESS;
}

/* A stream argument: a special stream needs a current context. */
CUresult check_stream(CUstream s, int per_thread, CUstream *effective) {
    if (s == NULL && per_thread) s = STREAM_PER_THREAD;
    if (effective) *effective = s;
    if (s == NULL || s == STREAM_LEGACY || s == STREAM_PER_THREAD) return need_ctx(NULL);
    struct obj *o = find_obj(s, K_STREAM);
    if (!o || o->dead) return CUDA_ERROR_INVALID_HANDLE;
    return check_ctx_alive(o->ctx) ? CUDA_ERROR_INVALID_CONTEXT : CUDA_SUCCESS;
}

/* Gives an allocation's memory back (see new_alloc). */
void release_mem(struct alloc *x) {
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
int in_freed_range(const void *p) {
    const unsigned char *a = p;
    for (struct alloc *x = g_allocs; x; x = x->next)
        if (x->dead && x->mapped && a >= x->base && a < x->base + x->mapped) return 1;
    return 0;
}

/* Frees everything a context owns (reset / destroy). */
void wipe_context(struct obj *c) {
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

static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

uint32_t rd32(const unsigned char *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }

static uint64_t rd64(const unsigned char *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static int is_elf64(const unsigned char *p, size_t n) {
    return n >= 64 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F' && p[4] == 2 && p[5] == 1;
}

struct sym elf_lookup(const unsigned char *e, size_t n, const char *name) {
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
void pick_cubin(const unsigned char *img, const unsigned char **elf, size_t *elf_size) {
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
int runs_on_sm90(const unsigned char *img) {
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

int driver_version(void) {
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
