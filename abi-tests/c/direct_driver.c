/* The other handle maker of foreign_handles.cu: a library that makes
 * streams and events through the driver itself (linked with -lcuda), as a
 * library carrying NVIDIA's static runtime does. Plain C: its own
 * declarations of the few driver functions it calls. */
typedef void *CUstream;
typedef void *CUevent;
int cuStreamCreate(CUstream *stream, unsigned int flags);
int cuEventCreate(CUevent *event, unsigned int flags);

__attribute__((visibility("default"))) void *direct_stream(void) {
    CUstream s = 0;
    return cuStreamCreate(&s, 1) == 0 ? s : 0;
}

__attribute__((visibility("default"))) void *direct_event(void) {
    CUevent e = 0;
    return cuEventCreate(&e, 0) == 0 ? e : 0;
}
