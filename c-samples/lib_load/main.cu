// lib_load: kernels that are not part of the program, loaded at run time
// as libraries. A cubin written to a file (cudaLibraryLoadFromFile) and a
// fatbin in memory (cudaLibraryLoadData, with a JIT option), both built
// next to this program and embedded in it by build.sh. Kernel count and
// enumeration (names via cudaFuncGetName), cudaLibraryGetKernel and a
// launch with cudaLaunchKernel, a __device__ variable (cudaLibraryGetGlobal)
// read, changed and used by a kernel, a __managed__ variable
// (cudaLibraryGetManaged), cudaKernelSetAttributeForDevice, and the
// errors for unknown names, bad images and bad options.
#define SAMPLE_NAME "lib_load"
#include "common/check.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <string>
#include <vector>
#include <algorithm>
#include "kernels_embedded.h"  // lib_load_cubin, lib_load_fatbin (build.sh)

static const int N = 1024;

static void check_all(const int *d, int want, const char *what) {
  std::vector<int> h(N);
  CK(cudaMemcpy(h.data(), d, N * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(h[i] == want, "%s: h[%d] = %d, want %d", what, i, h[i], want);
  printf("%s: all %d\n", what, want);
}

static void launch_fill(cudaKernel_t k, int *d, int v, size_t smem) {
  int n = N;
  void *args[] = {&d, &n, &v};
  CK(cudaLaunchKernel((const void *)k, dim3(N / 128), dim3(128), args, smem, 0));
  CK(cudaDeviceSynchronize());
}

int main() {
  CK(cudaSetDevice(0));
  int *d = NULL;
  CK(cudaMalloc(&d, N * sizeof(int)));

  // 1. The cubin, from a file.
  char path[] = "/tmp/lib_load_XXXXXX";
  int fd = mkstemp(path);
  EXPECT(fd >= 0, "mkstemp");
  EXPECT(write(fd, lib_load_cubin, lib_load_cubin_size) == (ssize_t)lib_load_cubin_size, "write cubin");
  close(fd);
  cudaLibrary_t lib = NULL;
  CK(cudaLibraryLoadFromFile(&lib, path, NULL, NULL, 0, NULL, NULL, 0));
  cudaLibraryOption preserved = cudaLibraryBinaryIsPreserved;
  void *preserved_value = (void *)1;
  cudaLibrary_t refused = NULL;
  cudaError_t e = cudaLibraryLoadFromFile(&refused, path, NULL, NULL, 0, &preserved, &preserved_value, 1);
  printf("LoadFromFile with BinaryIsPreserved: %s\n", err_name(e));
  if (e == cudaSuccess) CK(cudaLibraryUnload(refused));
  (void)cudaGetLastError();
  unlink(path);
  e = cudaLibraryLoadFromFile(&refused, "/nonexistent/lib_load.cubin", NULL, NULL, 0, NULL, NULL, 0);
  printf("LoadFromFile of a missing file: %s\n", err_name(e));
  EXPECT(e != cudaSuccess, "missing file must fail");
  (void)cudaGetLastError();

  unsigned count = 0;
  CK(cudaLibraryGetKernelCount(&count, lib));
  printf("kernels in the library: %u\n", count);
  EXPECT(count == 3, "3 kernels, got %u", count);
  cudaKernel_t ks[3] = {NULL, NULL, NULL};
  CK(cudaLibraryEnumerateKernels(ks, 3, lib));
  std::vector<std::string> names;
  for (int i = 0; i < 3; i++) {
    const char *name = NULL;
    CK(cudaFuncGetName(&name, (const void *)ks[i]));
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  printf("enumerated: %s %s %s\n", names[0].c_str(), names[1].c_str(), names[2].c_str());

  cudaKernel_t fill = NULL, add = NULL, cnt = NULL;
  CK(cudaLibraryGetKernel(&fill, lib, "lib_fill"));
  CK(cudaLibraryGetKernel(&add, lib, "lib_add_offset"));
  CK(cudaLibraryGetKernel(&cnt, lib, "lib_count"));
  printf("GetKernel handle among the enumerated ones: %s\n",
         std::find(ks, ks + 3, fill) != ks + 3 ? "yes" : "no");
  launch_fill(fill, d, 42, 0);
  check_all(d, 42, "lib_fill from the cubin file");

  // 2. A __device__ variable of the library.
  void *gptr = NULL;
  size_t gsize = 0;
  CK(cudaLibraryGetGlobal(&gptr, &gsize, lib, "lib_offset"));
  int off = 0;
  CK(cudaMemcpy(&off, gptr, sizeof(int), cudaMemcpyDeviceToHost));
  printf("lib_offset: %zu bytes, initial value %d\n", gsize, off);
  EXPECT(gsize == sizeof(int) && off == 7, "lib_offset");
  off = 11;
  CK(cudaMemcpy(gptr, &off, sizeof(int), cudaMemcpyHostToDevice));
  int n = N;
  void *add_args[] = {&d, &n};
  CK(cudaLaunchKernel((const void *)add, dim3(N / 128), dim3(128), add_args, 0, 0));
  CK(cudaDeviceSynchronize());
  check_all(d, 53, "lib_add_offset after setting lib_offset to 11");

  // 3. A __managed__ variable of the library.
  int *counter = NULL;
  size_t msize = 0;
  CK(cudaLibraryGetManaged((void **)&counter, &msize, lib, "lib_counter"));
  EXPECT(counter != NULL && msize == sizeof(int), "lib_counter");
  *counter = 5;
  CK(cudaLaunchKernel((const void *)cnt, dim3(4), dim3(64), NULL, 0, 0));
  CK(cudaDeviceSynchronize());
  printf("lib_counter after 256 increments from 5: %d\n", *counter);
  EXPECT(*counter == 261, "lib_counter = %d", *counter);

  // 4. Kernel attributes per device.
  CK(cudaKernelSetAttributeForDevice(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024, 0));
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, (const void *)fill));
  printf("lib_fill max dynamic shared memory: %d\n", fa.maxDynamicSharedSizeBytes);
  EXPECT(fa.maxDynamicSharedSizeBytes == 64 * 1024, "attribute not applied");
  launch_fill(fill, d, 9, 64 * 1024);
  check_all(d, 9, "lib_fill with 64 KiB of dynamic shared memory");
  e = cudaKernelSetAttributeForDevice(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 99);
  printf("attribute for device 99: %s\n", err_name(e));
  (void)cudaGetLastError();

  // 5. Names the library does not have.
  cudaKernel_t none = NULL;
  e = cudaLibraryGetKernel(&none, lib, "no_such_kernel");
  printf("unknown kernel: %s\n", err_name(e));
  EXPECT(e != cudaSuccess, "unknown kernel must fail");
  (void)cudaGetLastError();
  e = cudaLibraryGetGlobal(&gptr, &gsize, lib, "no_such_variable");
  printf("unknown global: %s\n", err_name(e));
  (void)cudaGetLastError();
  void *fp = NULL;
  e = cudaLibraryGetUnifiedFunction(&fp, lib, "lib_fill");
  printf("unified function of a plain kernel: %s\n", err_name(e));
  (void)cudaGetLastError();
  CK_EQ(cudaLibraryGetKernel(&none, lib, NULL), cudaErrorInvalidValue);
  CK_EQ(cudaLibraryGetKernelCount(NULL, lib), cudaErrorInvalidValue);

  // 6. The fatbin from memory, with a JIT option (unused: it has sm_90 code).
  cudaJitOption jit[1] = {cudaJitMaxRegisters};
  void *jit_values[1] = {(void *)(size_t)64};
  cudaLibrary_t lib2 = NULL;
  CK(cudaLibraryLoadData(&lib2, lib_load_fatbin, jit, jit_values, 1, NULL, NULL, 0));
  cudaKernel_t fill2 = NULL;
  CK(cudaLibraryGetKernel(&fill2, lib2, "lib_fill"));
  EXPECT(fill2 != fill, "two libraries, two kernels");
  launch_fill(fill2, d, -3, 0);
  check_all(d, -3, "lib_fill from the fatbin in memory");
  CK(cudaLibraryGetGlobal(&gptr, &gsize, lib2, "lib_offset"));
  CK(cudaMemcpy(&off, gptr, sizeof(int), cudaMemcpyDeviceToHost));
  printf("lib_offset of the second library: %d\n", off);
  EXPECT(off == 7, "each library has its own variables");

  // The cubin from memory too.
  cudaLibrary_t lib3 = NULL;
  CK(cudaLibraryLoadData(&lib3, lib_load_cubin, NULL, NULL, 0, NULL, NULL, 0));
  CK(cudaLibraryGetKernelCount(&count, lib3));
  EXPECT(count == 3, "cubin from memory: %u kernels", count);

  // Bad images and options.
  static const unsigned long long junk[16] = {0x1234};
  cudaLibrary_t bad = NULL;
  e = cudaLibraryLoadData(&bad, junk, NULL, NULL, 0, NULL, NULL, 0);
  // NVIDIA's driver accepts these bytes (cudaSuccess on an H200: with lazy
  // loading the image is not parsed at load time), so only the answer is
  // printed. A library loaded this way is left alone (not unloaded).
  printf("LoadData of junk: %s\n", err_name(e));
  bad = NULL;
  (void)cudaGetLastError();
  CK_EQ(cudaLibraryLoadData(&bad, NULL, NULL, NULL, 0, NULL, NULL, 0), cudaErrorInvalidValue);
  CK_EQ(cudaLibraryLoadData(NULL, lib_load_fatbin, NULL, NULL, 0, NULL, NULL, 0), cudaErrorInvalidValue);
  e = cudaLibraryLoadData(&bad, lib_load_fatbin, jit, NULL, 1, NULL, NULL, 0);
  printf("LoadData with a JIT option and no values: %s\n", err_name(e));
  if (e == cudaSuccess) CK(cudaLibraryUnload(bad));
  (void)cudaGetLastError();

  CK(cudaLibraryUnload(lib));
  CK(cudaLibraryUnload(lib2));
  CK(cudaLibraryUnload(lib3));
  e = cudaLibraryUnload(NULL);
  printf("unload of NULL: %s\n", err_name(e));
  EXPECT(e != cudaSuccess, "NULL is no library");
  (void)cudaGetLastError();
  CK(cudaFree(d));
  return sample_pass();
}
