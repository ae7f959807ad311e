/* Part of runner.h (included by it, after its types): the argument buffers,
 * the fixtures, the bad-input arguments and the hooks around each call. */

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
