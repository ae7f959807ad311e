/*
 * double.h — a TEST DOUBLE for NVIDIA's driver library libcuda.so.1: what
 * its rooms (the .c files of this folder, built together) share.
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
 * program appends itself. See ../README.md for every line.
 */
#ifndef CUDA_DOUBLE_H
#define CUDA_DOUBLE_H

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

/* Types of the driver API, declared from the documentation. */

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

/* The state the rooms share (defined in registry.c, behind lock()). */
extern struct obj *g_objs;
extern struct alloc *g_allocs;
extern struct obj g_primary[MAX_DEVICES];
extern size_t g_allocated;
extern unsigned long long g_ctx_ids;
extern int g_log_procs;

/* The thread's context stack. */
#define STACK_MAX 64
extern __thread struct obj *t_stack[STACK_MAX];
extern __thread int t_depth;
/* Set by the per-thread (_ptsz/_ptds) entry points for the call they make. */
extern __thread const char *t_variant;

struct line {
    char buf[1024];
    size_t len;
};

void lput(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct sym {
    int found;
    int type;              /* 1 object, 2 function */
    const unsigned char *init; /* initial bytes, or NULL for .bss-like */
    size_t size;
};

/* CUdevResource: 144 bytes; type, 92 reserved bytes, then the SM resource
 * (smCount, minSmPartitionSize, smCoscheduledAlignment). */
struct dev_resource {
    int type;
    unsigned char reserved[92];
    unsigned sm[3];
    unsigned char rest[36];
};

EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                    CUdriverProcAddressQueryResult *status);

/* The functions the rooms share (each defined once, hidden by
 * -fvisibility=hidden unless EXPORT). */

void lock(void);
void unlock(void);
int next_id(char c);
struct obj *new_obj(enum kind k, char prefix);
struct obj *find_obj(const void *h, enum kind k);
const char *ctx_label(struct obj *c);
int devices(void);
int log_fd(void);
void lput(struct line *l, const char *fmt, ...);
int lstart(struct line *l, const char *name);
CUresult done(struct line *l, CUresult rc);
struct alloc *find_alloc(const void *p);
void put_ptr(struct line *l, const char *key, const void *p);
void put_stream(struct line *l, CUstream s);
struct obj *current(void);
CUresult need_init(void);
CUresult check_ctx_alive(struct obj *c);
CUresult need_ctx(struct obj **out);
CUresult check_device(CUdevice d);
CUresult check_stream(CUstream s, int per_thread, CUstream *effective);
void release_mem(struct alloc *x);
int in_freed_range(const void *p);
void wipe_context(struct obj *c);
uint32_t rd32(const unsigned char *p);
struct sym elf_lookup(const unsigned char *e, size_t n, const char *name);
void pick_cubin(const unsigned char *img, const unsigned char **elf, size_t *elf_size);
int runs_on_sm90(const unsigned char *img);
EXPORT CUresult cuInit(unsigned int flags);
int driver_version(void);
EXPORT CUresult cuDriverGetVersion(int *v);
EXPORT CUresult cuGetErrorName(CUresult e, const char **s);
EXPORT CUresult cuGetErrorString(CUresult e, const char **s);
EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal);
EXPORT CUresult cuDeviceGetCount(int *n);
EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d);
EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *u, CUdevice d);
EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d);
EXPORT CUresult cuDeviceRegisterAsyncNotification(CUdevice d, void *cb, void *user,
                                                  void **out);
EXPORT CUresult cuDeviceUnregisterAsyncNotification(CUdevice d, void *h);
EXPORT CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d);
EXPORT CUresult cuDeviceGetPCIBusId(char *id, int len, CUdevice d);
EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice d);
EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d);
EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice d, unsigned int flags);
EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned int *flags, int *active);
EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice d);
EXPORT CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags, CUdevice d);
EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx);
EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx);
EXPORT CUresult cuCtxGetId(CUcontext ctx, unsigned long long *id);
EXPORT CUresult cuThreadExchangeStreamCaptureMode(int *mode);
EXPORT CUresult cuCtxSetCurrent(CUcontext ctx);
EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx);
EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *pctx);
EXPORT CUresult cuCtxGetDevice_v2(CUdevice *dev, CUcontext ctx);
EXPORT CUresult cuCtxGetDevice(CUdevice *dev);
EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx);
EXPORT CUresult cuCtxSynchronize(void);
EXPORT CUresult cuCtxGetFlags(unsigned int *flags);
EXPORT CUresult cuCtxSetLimit(CUlimit which, size_t value);
EXPORT CUresult cuCtxGetLimit(size_t *value, CUlimit which);
EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);
EXPORT CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                  void **jitValues, unsigned int numJit, CUlibraryOption *libOptions,
                                  void **libValues, unsigned int numLib);
EXPORT CUresult cuLibraryUnload(CUlibrary library);
EXPORT CUresult cuLibraryGetKernel(CUkernel *pk, CUlibrary library, const char *name);
EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name);
EXPORT CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name);
EXPORT CUresult cuKernelGetFunction(CUfunction *pf, CUkernel kernel);
EXPORT CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute a, CUkernel kernel, CUdevice d);
EXPORT CUresult cuKernelSetAttribute(CUfunction_attribute a, int val, CUkernel kernel, CUdevice d);
EXPORT CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice d);
EXPORT CUresult cuKernelGetName(const char **name, CUkernel kernel);
EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned smem, CUstream stream, void **params, void **extra);
EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra);
EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t size);
EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t size, unsigned int flags);
EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t size);
EXPORT CUresult cuMemHostAlloc(void **pp, size_t size, unsigned int flags);
EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr);
EXPORT CUresult cuMemFreeHost(void *p);
EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pd, void *p, unsigned int flags);
EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total);
EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n);
EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);
EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n);
EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n);
EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n);
EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char uc, size_t n);
EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char uc, size_t n, CUstream s);
EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int ui, size_t n);
EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int ui, size_t n, CUstream s);
EXPORT CUresult cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr ptr);
EXPORT CUresult cuStreamCreate(CUstream *ps, unsigned int flags);
EXPORT CUresult cuStreamCreateWithPriority(CUstream *ps, unsigned int flags, int priority);
EXPORT CUresult cuStreamDestroy_v2(CUstream s);
EXPORT CUresult cuStreamSynchronize(CUstream s);
EXPORT CUresult cuStreamQuery(CUstream s);
EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags);
EXPORT CUresult cuStreamGetFlags(CUstream s, unsigned int *flags);
EXPORT CUresult cuStreamGetPriority(CUstream s, int *priority);
EXPORT CUresult cuStreamGetCtx_v2(CUstream s, CUcontext *pctx, void **pgreen);
EXPORT CUresult cuEventCreate(CUevent *pe, unsigned int flags);
EXPORT CUresult cuEventDestroy_v2(CUevent e);
EXPORT CUresult cuEventRecord(CUevent e, CUstream s);
EXPORT CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned int flags);
EXPORT CUresult cuEventQuery(CUevent e);
EXPORT CUresult cuEventSynchronize(CUevent e);
EXPORT CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end);
EXPORT CUresult cuDeviceGetDevResource(CUdevice d, struct dev_resource *r, int type);
EXPORT CUresult cuCtxGetDevResource(CUcontext ctx, struct dev_resource *r, int type);
EXPORT CUresult cuGreenCtxGetDevResource(void *g, struct dev_resource *r, int type);
EXPORT CUresult cuDevSmResourceSplitByCount(struct dev_resource *result, unsigned *nb,
                                            const struct dev_resource *input,
                                            struct dev_resource *remaining, unsigned flags,
                                            unsigned min_count);
EXPORT CUresult cuDevResourceGenerateDesc(void **desc, struct dev_resource *r, unsigned n);
EXPORT CUresult cuGreenCtxCreate(void **pg, void *desc, CUdevice d, unsigned flags);
EXPORT CUresult cuGreenCtxDestroy(void *pg);
EXPORT CUresult cuCtxFromGreenCtx(CUcontext *pctx, void *pg);
EXPORT CUresult cuGreenCtxGetId(void *pg, unsigned long long *id);
EXPORT CUresult cuGreenCtxStreamCreate(CUstream *ps, void *pg, unsigned flags, int priority);
EXPORT CUresult cuCtxRecordEvent(CUcontext c, CUevent e);
EXPORT CUresult cuCtxWaitEvent(CUcontext c, CUevent e);
EXPORT CUresult cuGreenCtxRecordEvent(void *g, CUevent e);
EXPORT CUresult cuGreenCtxWaitEvent(void *g, CUevent e);
EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                    CUdriverProcAddressQueryResult *status);

#endif
