// dlopen_after_init: cudaFree(0) first (runtime and context up), then
// dlopen a library with kernels, launch through its wrapper, dlclose it;
// then a second dlopen/dlclose cycle, and a launch of our own kernel after.
#define SAMPLE_NAME "dlopen_after_init"
#include "common/check.h"
#include <dlfcn.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

typedef int (*launch_fn)(int *, int, int);
typedef int (*counter_fn)(int *);

__global__ void own_kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = -i;
}

// The library sits next to the executable.
static void lib_path(char *buf, size_t len) {
  ssize_t k = readlink("/proc/self/exe", buf, len - 1);
  if (k <= 0) sample_fail("readlink /proc/self/exe");
  buf[k] = 0;
  char *slash = strrchr(buf, '/');
  snprintf(slash + 1, len - (size_t)(slash + 1 - buf), "libdlkern.so");
}

// Whether dlclose really unmapped the library (it stays when something pins
// it, e.g. a STB_GNU_UNIQUE symbol); decides the expected counter.
static int g_unloaded = 0;

static void cycle(int round, int *d, int n) {
  char path[PATH_MAX];
  lib_path(path, sizeof(path));
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) sample_fail("dlopen: %s", dlerror());
  launch_fn launch = (launch_fn)dlsym(h, "dl_launch");
  counter_fn counter = (counter_fn)dlsym(h, "dl_counter_value");
  EXPECT(launch && counter, "dlsym failed");
  int mul = 3 + round;
  CK((cudaError_t)launch(d, n, mul));
  CK((cudaError_t)launch(d, n, mul));
  int *h_out = (int *)malloc(n * sizeof(int));
  CK(cudaMemcpy(h_out, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(h_out[i] == i * mul, "round %d out[%d] = %d", round, i, h_out[i]);
  int c = -1;
  CK((cudaError_t)counter(&c));
  // dl_counter starts at zero in every load of the module; two launches a
  // round. If the library was not unmapped in between, it keeps counting.
  int want = (round == 1 || g_unloaded) ? 2 : 2 * round;
  printf("round %d: library kernel ok (out[n-1]=%d), dl_counter=%d\n", round, h_out[n - 1], c);
  EXPECT(c == want, "round %d: dl_counter = %d, expected %d", round, c, want);
  free(h_out);
  EXPECT(dlclose(h) == 0, "dlclose: %s", dlerror());
  void *again = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  g_unloaded = again == NULL;
  if (again) dlclose(again);
  printf("round %d: library %s after dlclose\n", round, g_unloaded ? "unloaded" : "still mapped");
}

int main() {
  CK(cudaFree(0));
  const int n = 777;
  int *d;
  CK(cudaMalloc(&d, n * sizeof(int)));
  cycle(1, d, n);
  CK(cudaGetLastError());
  cycle(2, d, n);

  own_kernel<<<(n + 127) / 128, 128>>>(d, n);
  CK_LAUNCH();
  int h[n];
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(h[i] == -i, "own kernel out[%d] = %d", i, h[i]);
  printf("own kernel after dlclose: ok\n");
  CK(cudaFree(d));
  return sample_pass();
}
