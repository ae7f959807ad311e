// diag: failures a CUDA user meets, one per case (argv[1]), for the
// diagnostics of issue 11. Prints "<what> -> <error name>" for the calls
// that fail; run under both runtimes the lines must be the same, and ours
// with CUDART_DIAGNOSTICS=1 must explain each failure on stderr
// (c-samples/diag/run.py checks the facts each message must name).
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <string>

__device__ int diag_table[64];
static int diag_host_value = 7;  // a host variable, not a __device__ one

__global__ void small_k(int *p) {
  if (p) p[threadIdx.x] = 1;
}

__global__ void shared_k(int *p) {
  extern __shared__ int s[];
  s[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  if (p) p[0] = s[0];
}

__global__ void fault_k(int *p) { *p = 1; }

static void host_function(int *) {}

static void report(const char *what, cudaError_t e) {
  printf("%s -> %s\n", what, cudaGetErrorName(e));
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s CASE\n", argv[0]);
    return 2;
  }
  std::string c = argv[1];
  int *null_p = nullptr;
  void *args[] = {&null_p};
  report("cudaFree(0)", cudaFree(0));
  if (c == "threads") {
    small_k<<<1, 2048>>>(nullptr);
    report("small_k<<<1, 2048>>>", cudaGetLastError());
  } else if (c == "dims") {
    small_k<<<1, dim3(1, 1, 65)>>>(nullptr);
    report("small_k<<<1, (1,1,65)>>>", cudaGetLastError());
  } else if (c == "smem_default") {
    shared_k<<<1, 32, 100000>>>(nullptr);
    report("shared_k<<<1, 32, 100000>>>", cudaGetLastError());
  } else if (c == "smem_optin") {
    shared_k<<<1, 32, 300000>>>(nullptr);
    report("shared_k<<<1, 32, 300000>>>", cudaGetLastError());
  } else if (c == "symbol") {
    int v = 1;
    report("cudaMemcpyToSymbol(a host variable)", cudaMemcpyToSymbol(diag_host_value, &v, sizeof v));
    report("cudaMemcpyToSymbol(diag_table)", cudaMemcpyToSymbol(diag_table, &v, sizeof v));
  } else if (c == "function") {
    report("cudaLaunchKernel(a host function)",
           cudaLaunchKernel((const void *)host_function, dim3(1), dim3(1), args, 0, 0));
  } else if (c == "dlclosed") {
    std::string self = argv[0];
    std::string lib = self.substr(0, self.rfind('/') + 1) + "librelfire.so";
    void *h = dlopen(lib.c_str(), RTLD_NOW);
    if (!h) {
      printf("dlopen failed: %s\n", dlerror());
      return 1;
    }
    void *stub = ((void *(*)(void))dlsym(h, "fire_kernel_stub"))();
    int *out = nullptr;
    int n = 1, v = 0;
    report("cudaMalloc", cudaMalloc(&out, sizeof(int)));
    void *fire_args[] = {&out, &n, &v};  // fire_fill(int *out, int n, int v)
    report("cudaLaunchKernel(library kernel, library open)",
           cudaLaunchKernel(stub, dim3(1), dim3(1), fire_args, 0, 0));
    report("cudaDeviceSynchronize", cudaDeviceSynchronize());
    dlclose(h);
    // Launching the stale stub would pass freed memory to the driver (both
    // runtimes crash); asking for its kernel handle is answered by the
    // runtime alone.
    cudaKernel_t k = nullptr;
    report("cudaGetKernel(library kernel, library closed)", cudaGetKernel(&k, stub));
  } else if (c == "static") {
    std::string self = argv[0];
    std::string lib = self.substr(0, self.rfind('/') + 1) + "libdiagstatic.so";
    void *h = dlopen(lib.c_str(), RTLD_NOW);
    if (!h) {
      printf("dlopen failed: %s\n", dlerror());
      return 1;
    }
    void *stub = ((void *(*)(void))dlsym(h, "diag_static_stub"))();
    cudaKernel_t k = nullptr;
    report("cudaGetKernel(a kernel of a statically linked runtime)", cudaGetKernel(&k, stub));
  } else if (c == "sticky") {
    fault_k<<<1, 1>>>((int *)0x10);
    report("fault_k<<<1, 1>>>", cudaGetLastError());
    report("cudaDeviceSynchronize", cudaDeviceSynchronize());
    void *p = nullptr;
    report("cudaMalloc", cudaMalloc(&p, 16));
    report("cudaDeviceReset", cudaDeviceReset());
    report("cudaMalloc after the reset", cudaMalloc(&p, 16));
  } else if (c == "no_image") {
    // Built for sm_80 only (see build.sh): nothing the H200 can run.
    small_k<<<1, 1>>>(nullptr);
    report("small_k<<<1, 1>>>", cudaGetLastError());
  } else if (c == "none") {
    small_k<<<1, 32>>>(nullptr);
    report("small_k<<<1, 32>>>", cudaGetLastError());
    report("cudaDeviceSynchronize", cudaDeviceSynchronize());
  } else {
    fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
  }
  return 0;
}
