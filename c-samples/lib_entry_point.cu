// lib_entry_point: driver functions fetched through the runtime
// (cudaGetDriverEntryPointByVersion, as PyTorch does, and the deprecated
// cudaGetDriverEntryPoint) and called: cuCtxGetCurrent sees the runtime's
// context, cuMemAlloc/cuMemsetD32/cuMemFree work on memory the runtime then
// reads. Per-thread and legacy variants of a stream function, the default
// flag of a legacy build, and the answers for an unknown symbol, a version
// older than the symbol, a version newer than the driver, bad flags and
// NULL arguments (error names and query results printed).
#define SAMPLE_NAME "lib_entry_point"
#include <cuda.h>
#include <cudaTypedefs.h>
#include "common/check.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const char *qres_name(cudaDriverEntryPointQueryResult q) {
  switch (q) {
    case cudaDriverEntryPointSuccess: return "Success";
    case cudaDriverEntryPointSymbolNotFound: return "SymbolNotFound";
    case cudaDriverEntryPointVersionNotSufficent: return "VersionNotSufficient";
  }
  return "?";
}

// Looks a symbol up and prints the outcome; returns the pointer.
static void *lookup(const char *what, const char *sym, unsigned version, unsigned long long flags) {
  void *fn = (void *)0x1;
  cudaDriverEntryPointQueryResult q = (cudaDriverEntryPointQueryResult)77;
  cudaError_t e = cudaGetDriverEntryPointByVersion(sym, &fn, version, flags, &q);
  printf("%s: %s, %s, pointer %s\n", what, err_name(e), (int)q == 77 ? "status untouched" : qres_name(q),
         fn == NULL ? "NULL" : fn == (void *)0x1 ? "untouched" : "set");
  (void)cudaGetLastError();
  return e == cudaSuccess ? fn : NULL;
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaFree(0));

  // 1. cuCtxGetCurrent: the runtime's (primary) context is current.
  PFN_cuCtxGetCurrent_v4000 get_current =
      (PFN_cuCtxGetCurrent_v4000)lookup("cuCtxGetCurrent@12000", "cuCtxGetCurrent", 12000, cudaEnableDefault);
  EXPECT(get_current != NULL, "cuCtxGetCurrent not found");
  CUcontext ctx = NULL;
  EXPECT(get_current(&ctx) == CUDA_SUCCESS && ctx != NULL, "no current context via the driver");
  printf("driver sees a current context: yes\n");

  // 2. Memory through the driver, checked through the runtime.
  PFN_cuMemAlloc_v3020 mem_alloc =
      (PFN_cuMemAlloc_v3020)lookup("cuMemAlloc@13000", "cuMemAlloc", 13000, cudaEnableDefault);
  PFN_cuMemsetD32_v3020 memset32 =
      (PFN_cuMemsetD32_v3020)lookup("cuMemsetD32@13000", "cuMemsetD32", 13000, cudaEnableLegacyStream);
  PFN_cuMemFree_v3020 mem_free =
      (PFN_cuMemFree_v3020)lookup("cuMemFree@13000", "cuMemFree", 13000, cudaEnableDefault);
  EXPECT(mem_alloc && memset32 && mem_free, "memory functions missing");
  CUdeviceptr dp = 0;
  EXPECT(mem_alloc(&dp, 64 * sizeof(unsigned)) == CUDA_SUCCESS && dp != 0, "cuMemAlloc");
  EXPECT(memset32(dp, 0xC0FFEE, 64) == CUDA_SUCCESS, "cuMemsetD32");
  unsigned h[64];
  CK(cudaMemcpy(h, (void *)dp, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) EXPECT(h[i] == 0xC0FFEE, "h[%d] = %x", i, h[i]);
  cudaPointerAttributes pa;
  CK(cudaPointerGetAttributes(&pa, (void *)dp));
  printf("driver allocation seen by the runtime: type %d, device %d, contents ok\n", (int)pa.type, pa.device);
  EXPECT(mem_free(dp) == CUDA_SUCCESS, "cuMemFree");

  // 3. The deprecated form: same function as asking for 13000.
  void *fn = NULL;
  cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
  CK(cudaGetDriverEntryPoint("cuMemAlloc", &fn, cudaEnableDefault, &q));
  printf("cudaGetDriverEntryPoint(cuMemAlloc): %s, same as @13000: %s\n", qres_name(q),
         fn == (void *)mem_alloc ? "yes" : "no");

  // 4. Stream-ordered functions: per-thread and legacy variants.
  void *q_legacy = lookup("cuStreamQuery legacy", "cuStreamQuery", 13000, cudaEnableLegacyStream);
  void *q_pt = lookup("cuStreamQuery per-thread", "cuStreamQuery", 13000, cudaEnablePerThreadDefaultStream);
  void *q_default = lookup("cuStreamQuery default", "cuStreamQuery", 13000, cudaEnableDefault);
  printf("per-thread variant differs from legacy: %s; default is legacy: %s\n",
         q_pt != q_legacy ? "yes" : "no", q_default == q_legacy ? "yes" : "no");
  EXPECT(q_legacy && q_pt && q_default, "cuStreamQuery variants missing");
  PFN_cuStreamQuery_v2000 sq = (PFN_cuStreamQuery_v2000)q_pt;
  EXPECT(sq(CU_STREAM_PER_THREAD) == CUDA_SUCCESS, "cuStreamQuery(per-thread stream)");

  // 5. Symbols and versions the driver cannot serve.
  lookup("unknown symbol", "cuNoSuchFunction", 13000, cudaEnableDefault);
  lookup("cuStreamGetId@11000 (added in 12.0)", "cuStreamGetId", 11000, cudaEnableDefault);
  lookup("cuMemAlloc@99000 (newer than the driver)", "cuMemAlloc", 99000, cudaEnableDefault);
  lookup("bad flags", "cuMemAlloc", 13000, 4);
  cudaError_t e = cudaGetDriverEntryPoint("cuNoSuchFunction", &fn, cudaEnableDefault, &q);
  printf("deprecated form, unknown symbol: %s, %s\n", err_name(e), qres_name(q));
  (void)cudaGetLastError();

  // 6. NULL arguments, last: NVIDIA's runtime crashed (rc 139) in this
  // sample, most likely here (a NULL symbol name it may hand to a string
  // compare, a NULL function or status pointer it may write through).
  fn = NULL;
  CK(cudaGetDriverEntryPoint("cuCtxGetCurrent", &fn, cudaEnableDefault, NULL));
  EXPECT(fn != NULL, "status pointer is optional");
  printf("deprecated form, NULL status pointer: cudaSuccess\n");
  e = cudaGetDriverEntryPointByVersion("cuMemAlloc", NULL, 13000, cudaEnableDefault, &q);
  printf("NULL function pointer: %s\n", err_name(e));
  (void)cudaGetLastError();
  e = cudaGetDriverEntryPointByVersion(NULL, &fn, 13000, cudaEnableDefault, &q);
  printf("NULL symbol: %s\n", err_name(e));
  (void)cudaGetLastError();

  return sample_pass();
}
