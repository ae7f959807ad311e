// life_teardown: runtime calls made while the process exits. Each scenario
// runs in a child (its exit is the experiment); its output is shown here.
//
// Exit handlers and static destructors run in reverse order of their
// registration. A runtime that registers its own teardown at its first
// initialization (as NVIDIA's is known to: CUDA calls from destructors of
// global objects get cudaErrorCudartUnloading) splits them in two: those
// registered after the first CUDA call run before the teardown and work;
// those registered before it (an atexit handler registered first thing in
// main, a global object constructed before main) run after it.
//   late:  the first CUDA call is in main
//   early: a global constructor makes the first CUDA call (before main)
// Each exit-time report prints the error names of a few calls and what
// the driver shows (primary context active? current?). EXPECTed: nothing
// crashes or hangs, and calls made before the teardown work. Links with
// -lcuda.
#include <cuda.h>
#define SAMPLE_NAME "life_teardown"
#include "common/check.h"
#include "common/life.h"

__global__ void nop(int *p) {
  if (p) *p = 1;
}

static int *g_buf = NULL;

static void report(const char *who) {
  printf("%s:\n", who);
  printf("  cudaFree(buffer) -> %s\n", cudaGetErrorName(cudaFree(g_buf)));
  g_buf = NULL;
  void *p = NULL;
  cudaError_t e = cudaMalloc(&p, 16);
  printf("  cudaMalloc -> %s\n", cudaGetErrorName(e));
  if (e == cudaSuccess) cudaFree(p);
  int n = -1;
  printf("  cudaGetDeviceCount -> %s\n", cudaGetErrorName(cudaGetDeviceCount(&n)));
  printf("  cudaDeviceSynchronize -> %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  nop<<<1, 1>>>(NULL);
  printf("  launch -> %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("  cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));
  int v = 0;
  printf("  cudaRuntimeGetVersion -> %s\n", cudaGetErrorName(cudaRuntimeGetVersion(&v)));
  char st[64];
  life_primary(st, sizeof st);
  printf("  driver: primary %s; current %s\n", st, life_current());
  fflush(stdout);
  // A fresh buffer for the next report, if the runtime still works.
  if (cudaMalloc(&g_buf, 64) != cudaSuccess) g_buf = NULL;
}

static int early_mode(void) {
  const char *m = getenv("LIFE_TEARDOWN");
  return m && !strcmp(m, "early");
}

// Constructed before main: its destructor is registered before the first
// CUDA call, unless its constructor makes that call (early mode).
struct Global {
  Global() {
    if (early_mode()) {
      cuInit(0);
      printf("global constructor: cudaMalloc -> %s (before main)\n",
             cudaGetErrorName(cudaMalloc(&g_buf, 64)));
      fflush(stdout);
    }
  }
  ~Global() {
    if (getenv("LIFE_TEARDOWN") == NULL) return;  // the parent: not an experiment
    report(early_mode() ? "global destructor (constructed with the first CUDA call)"
                        : "global destructor (constructed before the first CUDA call)");
  }
} g_global;

static void handler_before(void) { report("atexit handler registered before the first CUDA call"); }
static void handler_after(void) { report("atexit handler registered after the first CUDA call"); }

struct Local {
  ~Local() { report("function-local static destructor (constructed after the first CUDA call)"); }
};

static int child(void) {
  if (!early_mode()) {
    CKD(cuInit(0));
    atexit(handler_before);
    CK(cudaMalloc(&g_buf, 64));
    printf("main: first CUDA call done\n");
  } else {
    atexit(handler_before);  // after the first CUDA call in this mode
  }
  static Local local;
  (void)local;
  atexit(handler_after);
  nop<<<1, 1>>>(g_buf);
  CK_LAUNCH();
  printf("main returns\n");
  fflush(stdout);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    return child();
  }
  int rc = life_child("late: first CUDA call in main", "child", "LIFE_TEARDOWN", "late", 60);
  printf("child exit status %d\n", rc);
  SOFT(rc == 0, "the late child exited %d", rc);
  rc = life_child("early: first CUDA call in a global constructor", "child", "LIFE_TEARDOWN",
                  "early", 60);
  printf("child exit status %d\n", rc);
  SOFT(rc == 0, "the early child exited %d", rc);
  return life_finish();
}
