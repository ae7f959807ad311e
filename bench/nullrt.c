/* A no-op libcudart.so.13 for one measurement only: the floor of the
 * registration benchmark. bench_reg loads libreg10k.so under it, so the
 * constructors run nvcc's registration code against runtime entry points
 * that return at once: what is left of `ctor_span` is the cost no runtime
 * can remove (10,000 calls through the PLT, first touches of the library's
 * pages, 100 atexit registrations). Only the symbols bench_reg and
 * libreg10k.so import exist; every runtime call but the registration ones
 * and cudaRuntimeGetVersion fails with cudaErrorInsufficientDriver (35). */
#include <stddef.h>

static void *handle[1];

void **__cudaRegisterFatBinary(void *wrapper) { (void)wrapper; return handle; }
void __cudaRegisterFatBinaryEnd(void **h) { (void)h; }
void __cudaUnregisterFatBinary(void **h) { (void)h; }
void __cudaRegisterFunction(void **h, const char *host, char *dev, const char *name,
                            int limit, void *tid, void *bid, void *bdim, void *gdim,
                            int *wsize) {
  (void)h; (void)host; (void)dev; (void)name; (void)limit;
  (void)tid; (void)bid; (void)bdim; (void)gdim; (void)wsize;
}
char __cudaInitModule(void **h) { (void)h; return 0; }
unsigned __cudaPushCallConfiguration(void) { return 1; } /* 1: skip the launch */
int __cudaPopCallConfiguration(void) { return 35; }
int __cudaGetKernel(void) { return 35; }
int __cudaLaunchKernel(void) { return 35; }
int cudaGetLastError(void) { return 35; }
int cudaFree(void *p) { (void)p; return 35; }
int cudaDeviceSynchronize(void) { return 35; }
int cudaRuntimeGetVersion(int *v) { if (v) *v = 13000; return 0; }
const char *cudaGetErrorName(int e) { return e == 35 ? "cudaErrorInsufficientDriver" : "nullrt"; }
