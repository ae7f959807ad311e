/* The test double libcuda.so.1 (see double.h).
 * Devices, primary contexts, and contexts with the per-thread stack. */
#include "double.h"

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
