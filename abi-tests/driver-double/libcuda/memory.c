/* The test double libcuda.so.1 (see double.h).
 * Memory: device, host, managed and library-global allocations, copies
 * and sets (device memory is host memory: copies really copy). */
#include "double.h"

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
