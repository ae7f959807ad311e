// life_fork: CUDA and fork().
//
// A child forked before the parent's first CUDA call starts fresh and can
// use CUDA. A child forked after it cannot: the parent's contexts do not
// exist in the child; its calls return an error (printed: which one is the
// comparison; documented only as "not supported"), and must not hang (the
// parent waits at most 30 s, then kills it). The parent keeps working, and
// a child that exec()s starts fresh again.
// EXPECTed: no hang, the fresh children work, the parent works.
#define SAMPLE_NAME "life_fork"
#include <cuda.h>
#include "common/check.h"
#include "common/life.h"

__global__ void twice(int *p) { p[threadIdx.x] = 2 * threadIdx.x; }

// Malloc, launch, copy back: the error of the first call that failed.
static cudaError_t round_trip(int *last) {
  int *d = NULL, h[32];
  cudaError_t e = cudaMalloc(&d, sizeof h);
  if (e == cudaSuccess) {
    twice<<<1, 32>>>(d);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess) e = cudaFree(d);
  *last = e == cudaSuccess ? h[31] : -1;
  return e;
}

static int fresh_child(void) {
  int n = -1, last = -1;
  printf("cudaGetDeviceCount -> %s\n", cudaGetErrorName(cudaGetDeviceCount(&n)));
  cudaError_t e = round_trip(&last);
  printf("malloc/launch/copy -> %s, h[31] = %d\n", cudaGetErrorName(e), last);
  return e == cudaSuccess && last == 62 ? 0 : 1;
}

static int after_init_child(void) {
  void *p = NULL;
  printf("cudaMalloc -> %s\n", cudaGetErrorName(cudaMalloc(&p, 16)));
  printf("cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));
  int n = -1, v = -1;
  cudaError_t e = cudaGetDeviceCount(&n);
  printf("cudaGetDeviceCount -> %s (count %s)\n", cudaGetErrorName(e),
         e == cudaSuccess ? "returned" : "not returned");
  printf("cudaRuntimeGetVersion -> %s\n", cudaGetErrorName(cudaRuntimeGetVersion(&v)));
  printf("cudaSetDevice(0) -> %s\n", cudaGetErrorName(cudaSetDevice(0)));
  printf("cudaFree(0) -> %s\n", cudaGetErrorName(cudaFree(0)));
  printf("cudaDeviceReset -> %s\n", cudaGetErrorName(cudaDeviceReset()));
  int last = -1;
  e = round_trip(&last);
  printf("malloc/launch/copy -> %s\n", cudaGetErrorName(e));
  printf("cudaPeekAtLastError -> %s\n", cudaGetErrorName(cudaPeekAtLastError()));
  return 0;
}

static int exec_child(void) {
  fflush(stdout);
  execl("/proc/self/exe", "child", "fresh", (char *)NULL);
  printf("exec failed\n");
  return 1;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    return fresh_child();
  }
  int rc = life_fork("child forked before the parent's first CUDA call", fresh_child, 30);
  printf("child exit status %d\n", rc);
  SOFT(rc == 0, "a child forked before any CUDA call could not use CUDA");

  int last = -1;
  CK(round_trip(&last));
  printf("parent: malloc/launch/copy works, h[31] = %d\n", last);

  rc = life_fork("child forked after the parent's first CUDA call", after_init_child, 30);
  printf("child exit status %d\n", rc);
  SOFT(rc == 0, "the child forked after init crashed or hung");

  CK(round_trip(&last));
  printf("parent after that child: works, h[31] = %d\n", last);

  rc = life_fork("child forked after init that exec()s itself", exec_child, 30);
  printf("child exit status %d\n", rc);
  SOFT(rc == 0, "an exec'd child could not use CUDA");

  CK(round_trip(&last));
  printf("parent at the end: works\n");
  return life_finish();
}
