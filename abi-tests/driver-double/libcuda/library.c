/* The test double libcuda.so.1 (see double.h).
 * Libraries and kernels, and launches (recorded, never executed). */
#include "double.h"

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
