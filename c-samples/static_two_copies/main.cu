// static_two_copies: a program and a plugin (dlopen) that each link the
// runtime. Built with nvcc's default flags (CUDART_LINK=static) each carries
// its own copy of the static runtime, as NVIDIA supports: both copies work
// in one process, share the device's primary context, keep their own
// kernel registrations, and the plugin's copy unloads cleanly at dlclose
// while the program's goes on. Built with -cudart shared, one runtime
// serves both and knows both kernels. The sample finds which from its own
// process (a libcudart.so mapped or not) and checks what that runtime
// must do; its stdout is the same in both builds.
#define SAMPLE_NAME "static_two_copies"
#include "common/check.h"
#include <dlfcn.h>
#include <string.h>

__global__ void program_add(int *v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += k;
}

typedef void *(*kernel_fn)(void);
typedef int (*run_fn)(int *, int, int, void **, const void *, int *);

#include "current_context.h"

// Whether a shared libcudart is mapped (the -cudart shared build).
static bool shared_runtime(void) {
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096];
  bool found = false;
  while (maps && fgets(line, sizeof line, maps))
    if (strstr(line, "/libcudart.so")) found = true;
  if (maps) fclose(maps);
  return found;
}

// Built with -DNO_KERNEL_RESULTS for the CPU tests' test-double driver,
// which records launches without running them: the values go unchecked.
static void check_values(const int *dv, int n, int expect_mul, int expect_add, const char *what) {
  int *h = (int *)malloc(n * sizeof(int));
  CK(cudaMemcpy(h, dv, n * sizeof(int), cudaMemcpyDeviceToHost));
#ifdef NO_KERNEL_RESULTS
  (void)expect_mul; (void)expect_add;
  printf("%s: not checked (no kernels run)\n", what);
#else
  for (int i = 0; i < n; i++)
    if (h[i] != i * expect_mul + expect_add)
      sample_fail("%s: v[%d] = %d, want %d", what, i, h[i], i * expect_mul + expect_add);
  printf("%s: %d values right\n", what, n);
#endif
  free(h);
}

int main(int argc, char **argv) {
  const int n = 1000;
  const bool shared = shared_runtime();
  fprintf(stderr, "runtime: %s\n", shared ? "shared libcudart" : "static, one copy per object");

  int *dv;
  CK(cudaMalloc(&dv, n * sizeof(int)));
  int *h = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = i;
  CK(cudaMemcpy(dv, h, n * sizeof(int), cudaMemcpyHostToDevice));
  free(h);
  void *program_ctx = current_context();

  // The plugin, next to the program.
  char path[4096];
  const char *slash = strrchr(argv[0], '/');
  snprintf(path, sizeof path, "%.*slibstatictwo.so", slash ? (int)(slash - argv[0] + 1) : 0, argv[0]);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) sample_fail("dlopen %s: %s", path, dlerror());
  kernel_fn plugin_kernel = (kernel_fn)dlsym(lib, "plugin_kernel");
  run_fn plugin_run = (run_fn)dlsym(lib, "plugin_run");
  if (!plugin_kernel || !plugin_run) sample_fail("plugin symbols missing");

  // The plugin's runtime works on the program's memory, in the same context.
  void *plugin_ctx = nullptr;
  int plugin_knows_program = -1;
  int e = plugin_run(dv, n, 3, &plugin_ctx, (const void *)program_add, &plugin_knows_program);
  if (e) sample_fail("plugin_run -> %s", err_name((cudaError_t)e));
  check_values(dv, n, 3, 0, "plugin kernel on program memory");
  if (!program_ctx || program_ctx != plugin_ctx)
    sample_fail("the plugin ran in another context than the program");
  printf("program and plugin share the primary context\n");

  // Registrations: one runtime knows both kernels; two copies each know
  // only their own object's.
  cudaFuncAttributes a;
  bool program_knows_plugin = cudaFuncGetAttributes(&a, plugin_kernel()) == cudaSuccess;
  cudaGetLastError();
  bool program_knows_own = cudaFuncGetAttributes(&a, (const void *)program_add) == cudaSuccess;
  if (!program_knows_own) sample_fail("the program's runtime does not know its own kernel");
  if (program_knows_plugin != shared || (plugin_knows_program == 1) != shared)
    sample_fail("registrations: program knows plugin kernel %d, plugin knows program kernel %d, shared runtime %d",
                program_knows_plugin, plugin_knows_program, shared);
  printf("each runtime knows the kernels registered with it\n");

  // The plugin's copy unloads; the program's runtime goes on.
  if (dlclose(lib) != 0) sample_fail("dlclose: %s", dlerror());
  program_add<<<(n + 127) / 128, 128>>>(dv, n, 7);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  check_values(dv, n, 3, 7, "program kernel after the plugin unloaded");
  if (current_context() != program_ctx) sample_fail("the program's context changed at dlclose");
  CK(cudaFree(dv));
  return sample_pass();
}
