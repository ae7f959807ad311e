// life_flags: cudaSetDeviceFlags before and after the primary context
// exists, cudaGetDeviceFlags, cudaInitDevice, and the flags of a context the
// program created itself. After each step it prints device 0's primary
// context (cuDevicePrimaryCtxGetState: active, flags), what
// cudaGetDeviceFlags says, the current context's own flags (cuCtxGetFlags)
// and which context is current.
//
// Fresh-process scenarios run as children (the flags of an inactive
// context are the interesting part); the rest runs in one process.
// Documented (EXPECTed): the flags set are the ones cudaGetDeviceFlags
// reports (cudaDeviceMapHost may be added: it is implicit), and
// cudaSetDeviceFlags initializes the device. Links with -lcuda.
#include <cuda.h>
#define SAMPLE_NAME "life_flags"
#include "common/check.h"
#include "common/life.h"

__global__ void busy(int *p) { p[threadIdx.x] += 1; }

// "<step>: primary <state>; cudaGetDeviceFlags 0x..; cuCtxGetFlags 0x..;
// current <kind>"; returns cudaGetDeviceFlags' value.
static unsigned int show(const char *step) {
  char p[64];
  life_primary(p, sizeof p);
  unsigned int rt = 0, ctx = 0;
  cudaError_t e = cudaGetDeviceFlags(&rt);
  CUresult r = cuCtxGetFlags(&ctx);
  char rts[48], ctxs[48];
  if (e == cudaSuccess)
    snprintf(rts, sizeof rts, "0x%x", rt);
  else
    snprintf(rts, sizeof rts, "%s", cudaGetErrorName(e));
  if (r == CUDA_SUCCESS)
    snprintf(ctxs, sizeof ctxs, "0x%x", ctx);
  else
    snprintf(ctxs, sizeof ctxs, "%s", life_drv_name(r));
  printf("%s: primary %s; cudaGetDeviceFlags %s; cuCtxGetFlags %s; current %s\n", step, p, rts,
         ctxs, life_current());
  fflush(stdout);
  return rt;
}

static void set_flags(const char *what, unsigned int flags) {
  cudaError_t e = cudaSetDeviceFlags(flags);
  printf("cudaSetDeviceFlags(%s) -> %s\n", what, cudaGetErrorName(e));
  unsigned int got = show("  after");
  if (e == cudaSuccess)
    SOFT((got & ~cudaDeviceMapHost) == (flags & ~cudaDeviceMapHost),
         "cudaSetDeviceFlags(%s): cudaGetDeviceFlags says 0x%x", what, got);
}

static int child(const char *mode) {
  CKD(cuInit(0));
  if (!strcmp(mode, "get-first")) {
    show("fresh process, no runtime call yet");
    show("after one cudaGetDeviceFlags");
  } else if (!strcmp(mode, "set-before")) {
    set_flags("cudaDeviceScheduleBlockingSync|cudaDeviceLmemResizeToMax",
              cudaDeviceScheduleBlockingSync | cudaDeviceLmemResizeToMax);
    SOFT(life_active() == 1, "cudaSetDeviceFlags did not initialize the device");
    int *d = NULL;
    LIFE(cudaMalloc(&d, 64));
    show("after cudaMalloc");
  } else if (!strcmp(mode, "maphost")) {
    set_flags("cudaDeviceMapHost", cudaDeviceMapHost);
    int *h = NULL, *dp = NULL;
    LIFE(cudaHostAlloc(&h, 64, cudaHostAllocMapped));
    LIFE(cudaHostGetDevicePointer((void **)&dp, h, 0));
    printf("mapped host memory has a device pointer: %s\n", dp ? "yes" : "no");
  } else if (!strcmp(mode, "sync-memops")) {
    set_flags("cudaDeviceSyncMemops|cudaDeviceScheduleSpin",
              cudaDeviceSyncMemops | cudaDeviceScheduleSpin);
  } else if (!strcmp(mode, "init-device")) {
    LIFE(cudaInitDevice(0, cudaDeviceScheduleYield, cudaInitDeviceFlagsAreValid));
    unsigned int got = show("after cudaInitDevice(0, Yield, FlagsAreValid)");
    SOFT((got & cudaDeviceScheduleMask) == cudaDeviceScheduleYield,
         "cudaInitDevice flags not applied: 0x%x", got);
    int dev = -1;
    LIFE(cudaGetDevice(&dev));
    printf("cudaGetDevice = %d\n", dev);
    LIFE(cudaInitDevice(0, 0, 2));
    LIFE(cudaInitDevice(99, 0, 0));
    LIFE(cudaInitDevice(0, 0x100, cudaInitDeviceFlagsAreValid));
    int *d = NULL;
    LIFE(cudaMalloc(&d, 64));
    show("after cudaMalloc");
  } else if (!strcmp(mode, "init-noflags")) {
    LIFE(cudaInitDevice(0, cudaDeviceScheduleSpin, 0));
    show("after cudaInitDevice(0, Spin, 0)");
  } else if (!strcmp(mode, "invalid-first")) {
    LIFE(cudaSetDeviceFlags(0x100));
    show("after cudaSetDeviceFlags(0x100)");
    LIFE(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield));
    show("after cudaSetDeviceFlags(Spin|Yield)");
  } else {
    sample_fail("unknown mode %s", mode);
  }
  return life_bad ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    return child(argv[1]);
  }
  const char *const modes[][2] = {
      {"get-first", "cudaGetDeviceFlags before any context"},
      {"set-before", "cudaSetDeviceFlags before any context"},
      {"maphost", "cudaSetDeviceFlags(cudaDeviceMapHost) before any context"},
      {"sync-memops", "cudaSetDeviceFlags(cudaDeviceSyncMemops) before any context"},
      {"init-device", "cudaInitDevice with flags"},
      {"init-noflags", "cudaInitDevice, flags not marked valid"},
      {"invalid-first", "invalid flags before any context"},
  };
  int bad = 0;
  for (auto &m : modes) {
    int rc = life_child(m[1], m[0], NULL, NULL, 60);
    if (rc != 0) {
      printf("  (child exit %d)\n", rc);
      bad++;
    }
  }

  printf("[one process: flags while the primary context is active]\n");
  CKD(cuInit(0));
  int *d = NULL;
  CK(cudaMalloc(&d, 32 * sizeof(int)));
  CK(cudaMemset(d, 0, 32 * sizeof(int)));
  show("after cudaMalloc");
  set_flags("cudaDeviceScheduleSpin", cudaDeviceScheduleSpin);
  busy<<<1, 32>>>(d);
  CK_LAUNCH();
  set_flags("cudaDeviceScheduleYield|cudaDeviceLmemResizeToMax",
            cudaDeviceScheduleYield | cudaDeviceLmemResizeToMax);
  set_flags("cudaDeviceScheduleBlockingSync", cudaDeviceScheduleBlockingSync);
  busy<<<1, 32>>>(d);
  CK_LAUNCH();
  set_flags("cudaDeviceMapHost", cudaDeviceMapHost);
  LIFE(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield));
  LIFE(cudaSetDeviceFlags(cudaDeviceScheduleMask));
  LIFE(cudaSetDeviceFlags(0x100));
  LIFE(cudaGetLastError());
  show("after the invalid ones");
  set_flags("cudaDeviceScheduleAuto", cudaDeviceScheduleAuto);

  printf("[the program's own context current]\n");
  CUdevice dev;
  CKD(cuDeviceGet(&dev, 0));
  CKD(cuCtxCreate(&life_own_ctx, NULL, CU_CTX_SCHED_YIELD, dev));
  unsigned int got = show("own context (CU_CTX_SCHED_YIELD) current");
  SOFT((got & CU_CTX_SCHED_MASK) == CU_CTX_SCHED_YIELD,
       "cudaGetDeviceFlags must report the current driver context's flags: 0x%x", got);
  LIFE(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  show("after cudaSetDeviceFlags(Spin)");
  CUcontext popped = NULL;
  CKD(cuCtxPopCurrent(&popped));
  show("own context popped");
  CKD(cuCtxDestroy(life_own_ctx));
  life_own_ctx = NULL;
  CK(cudaFree(d));
  show("end");
  SOFT(bad == 0, "%d child scenario(s) failed", bad);
  return life_finish();
}
