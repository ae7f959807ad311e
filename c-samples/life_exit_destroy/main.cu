// life_exit_destroy: what destroy calls answer at exit once the driver has
// shut down, called from the static destructor of a library opened before
// the first CUDA call (PyTorch's situation: libtorch_cuda is opened by
// Python before CUDA starts, its destructors run after the driver's exit
// handler). The program does not link the driver. The lines come from the
// library's destructor, after main returned; it prints the PASS line.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string>

int main(int, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  std::string self = argv[0];
  std::string lib = self.substr(0, self.rfind('/') + 1) + "libexitdestroy.so";
  void *h = dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    printf("FAIL life_exit_destroy: dlopen: %s\n", dlerror());
    return 1;
  }
  auto setup = (int (*)(void))dlsym(h, "exit_setup");
  int e = setup ? setup() : -1;
  if (e) {
    printf("FAIL life_exit_destroy: setup -> %d\n", e);
    return 1;
  }
  printf("objects made by the library: stream, events, device and pinned memory, a graph\n");
  printf("main returns (the library stays open)\n");
  return 0;
}
