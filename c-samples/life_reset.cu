// life_reset: cudaDeviceReset with live allocations (device, pinned host,
// managed), a stream, an event and a loaded module, then new work.
//
// Documented, and EXPECTed: the reset destroys them all; new work runs;
// the module loads again lazily (a __device__ variable is back to its
// initial value). Printed for the comparison: what each old handle gives
// when used afterwards (the documentation calls that undefined; both
// runtimes hand the handles to the same driver), the primary context's
// state, a reset from another thread while main has the context current,
// and resets in a row. Each risky call's line is printed before the call,
// so a crash shows where. Links with -lcuda.
#include <cuda.h>
#define SAMPLE_NAME "life_reset"
#include "common/check.h"
#include "common/life.h"
#include <thread>

__device__ int d_count = 100;

__global__ void step(int *out) {
  d_count += 1;
  if (out) out[threadIdx.x] = d_count;
}

static int read_count(void) {
  int v = -1;
  CK(cudaMemcpyFromSymbol(&v, d_count, sizeof v));
  return v;
}

// Prints "<what> -> " first, then the result (a crash leaves the prefix).
#define RISKY(what, call)                                                      \
  do {                                                                         \
    printf("%s -> ", what);                                                    \
    fflush(stdout);                                                            \
    cudaError_t risky_e_ = (call);                                             \
    printf("%s\n", cudaGetErrorName(risky_e_));                                \
    fflush(stdout);                                                            \
  } while (0)

int main() {
  CKD(cuInit(0));
  int *d = NULL, *h = NULL, *m = NULL;
  CK(cudaMalloc(&d, 64 * sizeof(int)));
  CK(cudaMallocHost(&h, 64 * sizeof(int)));
  CK(cudaMallocManaged(&m, 64 * sizeof(int)));
  cudaStream_t s;
  cudaEvent_t e;
  CK(cudaStreamCreate(&s));
  CK(cudaEventCreate(&e));
  step<<<1, 1, 0, s>>>(d);
  CK(cudaGetLastError());
  CK(cudaEventRecord(e, s));
  CK(cudaStreamSynchronize(s));
  int c = read_count();
  printf("before the reset: d_count = %d\n", c);
  SOFT(c == 101, "d_count %d before the reset", c);
  life_state("before the reset");

  printf("[cudaDeviceReset with everything live]\n");
  LIFE(cudaDeviceReset());
  life_state("after cudaDeviceReset");
  SOFT(life_active() == 0, "primary context still active after the reset");
  int dev = -1;
  LIFE(cudaGetDevice(&dev));
  printf("cudaGetDevice = %d\n", dev);

  printf("[new work first]\n");
  c = read_count();
  printf("module loaded again: d_count = %d\n", c);
  SOFT(c == 100, "d_count %d after the reset: the module was not reloaded", c);
  int *d2 = NULL;
  CK(cudaMalloc(&d2, 64 * sizeof(int)));
  step<<<1, 1>>>(d2);
  CK_LAUNCH();
  int back = 0;
  CK(cudaMemcpy(&back, d2, sizeof back, cudaMemcpyDeviceToHost));
  printf("new allocation and launch: out = %d\n", back);
  SOFT(back == 101, "new launch wrote %d", back);
  life_state("after new work");

  printf("[old handles after the reset]\n");
  cudaPointerAttributes at;
  memset(&at, 0, sizeof at);
  RISKY("old device pointer: cudaPointerGetAttributes", cudaPointerGetAttributes(&at, d));
  printf("  its type now: %d\n", (int)at.type);
  RISKY("old device pointer: cudaMemcpy to host", cudaMemcpy(&back, d, 4, cudaMemcpyDeviceToHost));
  RISKY("old device pointer: cudaMemset", cudaMemset(d, 0, 4));
  RISKY("old device pointer: cudaFree", cudaFree(d));
  RISKY("cudaGetLastError", cudaGetLastError());
  RISKY("old managed pointer: cudaFree", cudaFree(m));
  RISKY("old pinned host pointer: cudaFreeHost", cudaFreeHost(h));
  RISKY("old event: cudaEventQuery", cudaEventQuery(e));
  RISKY("old event: cudaEventRecord", cudaEventRecord(e, 0));
  RISKY("old stream: cudaStreamQuery", cudaStreamQuery(s));
  RISKY("old stream: cudaStreamSynchronize", cudaStreamSynchronize(s));
  step<<<1, 1, 0, s>>>(NULL);
  RISKY("old stream: launch", cudaGetLastError());
  RISKY("old event: cudaEventDestroy", cudaEventDestroy(e));
  RISKY("old stream: cudaStreamDestroy", cudaStreamDestroy(s));
  RISKY("cudaGetLastError", cudaGetLastError());
  RISKY("cudaDeviceSynchronize", cudaDeviceSynchronize());
  life_state("after the old handles");

  printf("[a reset from another thread while main has the context current]\n");
  std::thread([] {
    RISKY("thread: cudaDeviceReset", cudaDeviceReset());
    life_state("thread after its reset");
  }).join();
  life_state("main after the thread's reset");
  c = read_count();
  printf("main's next call: d_count = %d\n", c);
  SOFT(c == 100, "d_count %d after the second reset", c);
  life_state("main after that call");

  printf("[resets in a row, then work]\n");
  LIFE(cudaDeviceReset());
  LIFE(cudaDeviceReset());
  life_state("after two resets");
  int *d3 = NULL;
  CK(cudaMalloc(&d3, 64 * sizeof(int)));
  step<<<1, 1>>>(d3);
  CK_LAUNCH();
  CK(cudaFree(d3));
  life_state("end");
  return life_finish();
}
