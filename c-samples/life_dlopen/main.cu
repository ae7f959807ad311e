// life_dlopen: shared libraries with kernels. liblifelink.so is linked
// (registered before main); liblifedl.so is opened with dlopen after the
// runtime started, its kernels launch, dlclose unregisters it, and a
// second dlopen registers a fresh module (its __device__ variable starts
// over). Children show the rest: a library opened before the first CUDA
// call; a library left open at exit (its static destructor runs before the
// runtime's teardown, the linked library's after it); and the kernel
// handle of a closed library.
// EXPECTed: launches work, values are the module's, dlclose unloads.
#define SAMPLE_NAME "life_dlopen"
#include <cuda.h>
#include "common/check.h"
#include "common/life.h"
#include <dlfcn.h>
#include <limits.h>

extern "C" int link_run(int *value);
typedef int (*run_fn)(int *);
typedef int (*kernel_fn)(cudaKernel_t *);

__global__ void own(int *p) { *p = -5; }

static void lib_path(char *buf, size_t len) {
  ssize_t k = readlink("/proc/self/exe", buf, len - 1);
  if (k <= 0) sample_fail("readlink /proc/self/exe");
  buf[k] = 0;
  char *slash = strrchr(buf, '/');
  snprintf(slash + 1, len - (size_t)(slash + 1 - buf), "liblifedl.so");
}

static void *open_lib(void) {
  char path[PATH_MAX];
  lib_path(path, sizeof path);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) sample_fail("dlopen: %s", dlerror());
  return h;
}

static int run(void *h, const char *what) {
  run_fn f = (run_fn)dlsym(h, "dl_run");
  EXPECT(f != NULL, "dlsym dl_run");
  int v = -1;
  cudaError_t e = (cudaError_t)f(&v);
  printf("%s: dl_run -> %s, dl_var = %d\n", what, cudaGetErrorName(e), v);
  fflush(stdout);
  return e == cudaSuccess ? v : -1;
}

static int close_lib(void *h) {
  char path[PATH_MAX];
  lib_path(path, sizeof path);
  EXPECT(dlclose(h) == 0, "dlclose: %s", dlerror());
  void *again = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (again) dlclose(again);
  printf("dlclose: library %s\n", again ? "still mapped" : "unloaded");
  return again == NULL;
}

static int child(const char *mode) {
  if (!strcmp(mode, "open-first")) {
    void *h = open_lib();
    printf("opened before any CUDA call\n");
    run(h, "the library's call starts the runtime");
    run(h, "again");
    close_lib(h);
  } else if (!strcmp(mode, "open-at-exit")) {
    int v = -1;
    printf("link_run -> %s, link_var = %d\n", cudaGetErrorName((cudaError_t)link_run(&v)), v);
    void *h = open_lib();
    run(h, "opened after init, left open");
    printf("main returns\n");
  } else if (!strcmp(mode, "stale-handle")) {
    CK(cudaFree(0));
    void *h = open_lib();
    cudaKernel_t k = NULL;
    kernel_fn kf = (kernel_fn)dlsym(h, "dl_kernel");
    EXPECT(kf != NULL, "dlsym dl_kernel");
    printf("cudaGetKernel -> %s\n", cudaGetErrorName((cudaError_t)kf(&k)));
    int unloaded = close_lib(h);
    if (unloaded) {
      int *arg = NULL;
      void *args[] = {&arg};
      printf("launch of the closed library's kernel handle -> ");
      fflush(stdout);
      cudaError_t e = cudaLaunchKernel((const void *)k, dim3(1), dim3(1), args, 0, 0);
      if (e == cudaSuccess) e = cudaDeviceSynchronize();
      printf("%s\n", cudaGetErrorName(e));
    }
  } else {
    sample_fail("unknown mode %s", mode);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    return child(argv[1]);
  }
  int v = -1;
  CK((cudaError_t)link_run(&v));
  printf("linked library: link_var = %d\n", v);
  SOFT(v == 7, "link_var = %d", v);

  printf("[dlopen after init]\n");
  void *h = open_lib();
  SOFT(run(h, "first load") == 101, "dl_var not 101 on the first load");
  SOFT(run(h, "first load, second launch") == 102, "dl_var not 102");
  int unloaded = close_lib(h);
  h = open_lib();
  int w = run(h, "second load");
  SOFT(w == (unloaded ? 101 : 103), "dl_var = %d on the second load", w);
  close_lib(h);

  int *d = NULL, back = 0;
  CK(cudaMalloc(&d, sizeof(int)));
  own<<<1, 1>>>(d);
  CK_LAUNCH();
  CK(cudaMemcpy(&back, d, sizeof back, cudaMemcpyDeviceToHost));
  printf("own kernel after the dlclose: %d\n", back);
  SOFT(back == -5, "own kernel wrote %d", back);
  CK(cudaFree(d));

  int rc = life_child("child: dlopen before the first CUDA call", "open-first",
                      "LIFE_DLOPEN_CHILD", "1", 60);
  SOFT(rc == 0, "open-first child exit %d", rc);
  rc = life_child("child: a dlopen'ed library still open at exit", "open-at-exit",
                  "LIFE_DLOPEN_CHILD", "1", 60);
  SOFT(rc == 0, "open-at-exit child exit %d", rc);
  rc = life_child("child: the kernel handle of a closed library", "stale-handle",
                  "LIFE_DLOPEN_CHILD", "1", 60);
  printf("child exit status %d\n", rc);
  return life_finish();
}
