/* The test double libcuda.so.1 (see double.h).
 * Streams and events. */
#include "double.h"

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
