// life_driver_ctx: a context the program creates with the driver API
// (cuCtxCreate), current before the first runtime call.
//
// Documented, and EXPECTed: runtime calls use it as it is (allocations,
// launches and a __device__ variable's value live in it), the runtime
// neither retains nor releases it (its lifetime is the program's: the
// primary context stays inactive, cuCtxDestroy works), and when it moves to
// another thread with cuCtxPopCurrent/cuCtxPushCurrent the runtime state
// moves with it. A thread with no context gets the primary context, whose
// module instance is separate (the variable's initial value).
// Printed for the comparison: cudaDeviceReset and cudaSetDevice while the
// program's own context is current. Links with -lcuda.
#include <cuda.h>
#define SAMPLE_NAME "life_driver_ctx"
#include "common/check.h"
#include "common/life.h"
#include <thread>

__device__ int d_var = 5;

__global__ void bump(int by) { d_var += by; }

static int read_var(const char *where) {
  int v = -1;
  cudaError_t e = cudaMemcpyFromSymbol(&v, d_var, sizeof v);
  printf("%s: cudaMemcpyFromSymbol -> %s, d_var = %d; current %s\n", where, cudaGetErrorName(e),
         v, life_current());
  fflush(stdout);
  return v;
}

// The context a device pointer belongs to.
static const char *owner(void *p) {
  CUcontext c = NULL;
  CUresult r = cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)p);
  if (r != CUDA_SUCCESS) return life_drv_name(r);
  return life_kind(c);
}

int main() {
  CKD(cuInit(0));
  CUdevice dev;
  CKD(cuDeviceGet(&dev, 0));
  CKD(cuCtxCreate(&life_own_ctx, NULL, 0, dev));
  life_state("own context created");

  printf("[runtime calls with the own context current]\n");
  int dev_no = -1;
  LIFE(cudaGetDevice(&dev_no));
  printf("cudaGetDevice = %d\n", dev_no);
  int v = 40;
  CK(cudaMemcpyToSymbol(d_var, &v, sizeof v));
  bump<<<1, 1>>>(1);
  CK_LAUNCH();
  SOFT(read_var("main") == 41, "d_var not 41 in the own context");
  int *d = NULL;
  CK(cudaMalloc(&d, 64));
  printf("cudaMalloc'd pointer belongs to: %s\n", owner(d));
  SOFT(!strcmp(owner(d), "own"), "allocation not in the own context");
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CUcontext sc = NULL;
  CKD(cuStreamGetCtx((CUstream)s, &sc));
  printf("cudaStreamCreate'd stream belongs to: %s\n", life_kind(sc));
  life_state("after runtime calls");
  SOFT(life_active() == 0, "the runtime activated the primary context");

  printf("[the own context moves to another thread]\n");
  CUcontext popped = NULL;
  CKD(cuCtxPopCurrent(&popped));
  printf("popped the own context: %s; main's current now %s\n",
         popped == life_own_ctx ? "yes" : "no", life_current());
  std::thread([&] {
    printf("thread: before push, current %s\n", life_current());
    CKD(cuCtxPushCurrent(life_own_ctx));
    SOFT(read_var("thread (own pushed)") == 41, "d_var did not move with the context");
    bump<<<1, 1, 0, s>>>(1);
    LIFE(cudaStreamSynchronize(s));
    int *t = NULL;
    LIFE(cudaMalloc(&t, 64));
    printf("thread: its cudaMalloc'd pointer belongs to: %s\n", owner(t));
    LIFE(cudaFree(t));
    CUcontext back = NULL;
    CKD(cuCtxPopCurrent(&back));
    printf("thread: popped it again; current %s\n", life_current());
    fflush(stdout);
  }).join();
  life_state("after the thread");
  SOFT(life_active() == 0, "the runtime activated the primary context");

  printf("[main, no context current: the runtime binds the primary context]\n");
  int pv = read_var("main (nothing current)");
  SOFT(pv == 5, "the primary context's d_var is %d, not its initial 5", pv);
  life_state("after that call");
  CKD(cuCtxPushCurrent(life_own_ctx));
  SOFT(read_var("main (own pushed back)") == 42, "own context lost its state");
  printf("the earlier allocation still belongs to: %s\n", owner(d));

  printf("[cudaDeviceReset with the own context current]\n");
  LIFE(cudaDeviceReset());
  life_state("after cudaDeviceReset");
  read_var("own context after the reset");
  printf("the earlier allocation after the reset: %s\n", owner(d));
  LIFE(cudaStreamQuery(s));

  printf("[cudaSetDevice(0) with the own context current]\n");
  LIFE(cudaSetDevice(0));
  life_state("after cudaSetDevice(0)");

  printf("[the program ends the own context]\n");
  CUresult r = cuCtxDestroy(life_own_ctx);
  printf("cuCtxDestroy(own) -> %s\n", life_drv_name(r));
  SOFT(r == CUDA_SUCCESS, "cuCtxDestroy of the own context failed");
  life_own_ctx = NULL;
  life_state("after cuCtxDestroy");
  read_var("main after the own context is gone");
  void *p = NULL;
  LIFE(cudaMalloc(&p, 16));
  printf("a new allocation belongs to: %s\n", owner(p));
  life_state("end");
  return life_finish();
}
