/* The test double libcuda.so.1 (see double.h).
 * The per-thread default stream variants (what flags & 2 hands out),
 * device resources and green contexts (CUDA 12.4-12.9, in driver 580),
 * and cuGetProcAddress_v2 with its table of every entry point.
 *
 * The double's device has 132 SMs, split in groups of a multiple of 8 SMs
 * (the double's own numbers, not recorded on the H200). A green context is
 * its own handle ("Y<n>"); cuCtxFromGreenCtx gives the context that stands
 * for it ("X<n>", a context of the device with the green context's SMs).
 * Streams of a green context are streams of that context. */
#include "double.h"

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

#define DOUBLE_SMS 132u

#define DOUBLE_SM_STEP 8u

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
