// mem_pool: stream-ordered allocation and memory pools. cudaMallocAsync /
// cudaFreeAsync on two streams with kernels between; the device's default
// pool (cudaDeviceGetDefaultMemPool, cudaDeviceGetMemPool,
// cudaMemGetDefaultMemPool); a pool of our own (cudaMemPoolCreate) with a
// release threshold, cudaMallocFromPoolAsync, the reserved/used counters
// before and after cudaMemPoolTrimTo, access (cudaMemPoolGetAccess /
// SetAccess), the pool made the device's current pool (cudaDeviceSetMemPool)
// and the location's (cudaMemSetMemPool / cudaMemGetMemPool); an exportable
// pool (POSIX file descriptor). Edge cases print the runtime's answer.
#define SAMPLE_NAME "mem_pool"
#include "common/check.h"
#include <stdint.h>
#include <string.h>
#include <unistd.h>

__global__ void fill(int *p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

__global__ void add(const int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] += a[i];
}

static unsigned long long attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  unsigned long long v = 0;
  CK(cudaMemPoolGetAttribute(pool, a, &v));
  return v;
}

int main() {
  int supported = 0;
  CK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  printf("memory pools supported: %s\n", supported ? "yes" : "no");
  EXPECT(supported, "this sample needs memory pools");

  // The default pool, three ways.
  cudaMemPool_t def, cur, loc_def;
  CK(cudaDeviceGetDefaultMemPool(&def, 0));
  CK(cudaDeviceGetMemPool(&cur, 0));
  cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
  CK(cudaMemGetDefaultMemPool(&loc_def, &dev0, cudaMemAllocationTypePinned));
  printf("default pool is current: %s; location's default pool is the device's: %s\n",
         def == cur ? "yes" : "no", loc_def == def ? "yes" : "no");
  EXPECT(def == cur && loc_def == def, "default pools differ");

  // Stream-ordered allocations on two streams.
  const int n = 1 << 16;
  cudaStream_t s1, s2;
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  int *a = NULL, *b = NULL, *host;
  CK(cudaMallocHost(&host, n * sizeof(int)));
  CK(cudaMallocAsync((void **)&a, n * sizeof(int), s1));
  CK(cudaMallocAsync((void **)&b, n * sizeof(int), s2));
  EXPECT(a && b && a != b, "allocations");
  fill<<<n / 256, 256, 0, s1>>>(a, n, 7);
  fill<<<n / 256, 256, 0, s2>>>(b, n, 1000);
  cudaEvent_t ev;
  CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  CK(cudaEventRecord(ev, s1));
  CK(cudaStreamWaitEvent(s2, ev, 0));
  add<<<n / 256, 256, 0, s2>>>(a, b, n);
  CK(cudaGetLastError());
  CK(cudaMemcpyAsync(host, b, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
  CK(cudaFreeAsync(b, s2));
  CK(cudaEventRecord(ev, s2));
  CK(cudaStreamWaitEvent(s1, ev, 0));
  CK(cudaFreeAsync(a, s1));
  CK(cudaStreamSynchronize(s1));
  CK(cudaStreamSynchronize(s2));
  for (int i = 0; i < n; i++) EXPECT(host[i] == 1007 + 2 * i, "host[%d] = %d", i, host[i]);
  printf("cudaMallocAsync / cudaFreeAsync on two streams: %d values ok\n", n);

  // Our own pool.
  cudaMemPoolProps props;
  memset(&props, 0, sizeof(props));
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location = dev0;
  cudaMemPool_t pool;
  CK(cudaMemPoolCreate(&pool, &props));
  unsigned long long threshold = 1 << 20;
  CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  printf("release threshold set and read back: %s\n",
         attr(pool, cudaMemPoolAttrReleaseThreshold) == threshold ? "yes" : "no");
  int follow = -1;
  CK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &follow));
  printf("reuse follows event dependencies: %d\n", follow);

  const size_t big = 8 << 20;
  int *c = NULL;
  CK(cudaMallocFromPoolAsync((void **)&c, big, pool, s1));
  fill<<<n / 256, 256, 0, s1>>>(c, n, 3);
  CK(cudaMemcpyAsync(host, c, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
  CK(cudaStreamSynchronize(s1));
  EXPECT(host[n - 1] == 3 + n - 1, "pool allocation contents");
  unsigned long long used = attr(pool, cudaMemPoolAttrUsedMemCurrent);
  unsigned long long reserved = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  printf("in use: used >= 8 MiB: %s, reserved >= used: %s\n", used >= big ? "yes" : "no",
         reserved >= used ? "yes" : "no");
  EXPECT(used >= big && reserved >= used, "counters while in use");
  CK(cudaFreeAsync(c, s1));
  CK(cudaStreamSynchronize(s1));
  used = attr(pool, cudaMemPoolAttrUsedMemCurrent);
  unsigned long long high = attr(pool, cudaMemPoolAttrUsedMemHigh);
  reserved = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  printf("after free: used %llu, high >= 8 MiB: %s, reserved kept above threshold: %s\n", used,
         high >= big ? "yes" : "no", reserved >= threshold ? "yes" : "no");
  EXPECT(used == 0 && high >= big, "counters after free");
  CK(cudaMemPoolTrimTo(pool, 0));
  unsigned long long trimmed = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  printf("after cudaMemPoolTrimTo(0): reserved %llu\n", trimmed);
  EXPECT(trimmed <= reserved, "trim grew the pool");
  unsigned long long zero = 0;
  CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  printf("high-water mark reset: %llu\n", attr(pool, cudaMemPoolAttrUsedMemHigh));

  // Access from the owning device.
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  CK(cudaMemPoolGetAccess(&flags, pool, &dev0));
  printf("access from device 0: %d\n", (int)flags);
  cudaMemAccessDesc desc = {dev0, cudaMemAccessFlagsProtReadWrite};
  printf("cudaMemPoolSetAccess(device 0, read-write): %s\n", err_name(cudaMemPoolSetAccess(pool, &desc, 1)));
  (void)cudaGetLastError();

  // The pool as the device's current pool: plain cudaMallocAsync uses it.
  CK(cudaDeviceSetMemPool(0, pool));
  CK(cudaDeviceGetMemPool(&cur, 0));
  EXPECT(cur == pool, "cudaDeviceGetMemPool after set");
  int *d = NULL;
  CK(cudaMallocAsync((void **)&d, 4096, s1));
  CK(cudaStreamSynchronize(s1));
  printf("current pool set; cudaMallocAsync draws from it: %s\n",
         attr(pool, cudaMemPoolAttrUsedMemCurrent) >= 4096 ? "yes" : "no");
  CK(cudaFreeAsync(d, s1));
  CK(cudaStreamSynchronize(s1));
  CK(cudaDeviceSetMemPool(0, def));
  cudaMemPool_t loc_cur = NULL;
  CK(cudaMemSetMemPool(&dev0, cudaMemAllocationTypePinned, pool));
  CK(cudaMemGetMemPool(&loc_cur, &dev0, cudaMemAllocationTypePinned));
  printf("cudaMemSetMemPool / cudaMemGetMemPool: %s\n", loc_cur == pool ? "same pool" : "other pool");
  EXPECT(loc_cur == pool, "location pool");
  CK(cudaMemSetMemPool(&dev0, cudaMemAllocationTypePinned, def));
  CK(cudaDeviceGetMemPool(&cur, 0));
  EXPECT(cur == def, "default pool back");

  // Export: a pool without handle types cannot; one with POSIX fds can.
  int fd = -1;
  printf("export of a pool without handle types: %s\n",
         err_name(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0)));
  (void)cudaGetLastError();
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  cudaMemPool_t shared;
  cudaError_t e = cudaMemPoolCreate(&shared, &props);
  printf("pool with POSIX fd handles: %s\n", err_name(e));
  (void)cudaGetLastError();
  if (e == cudaSuccess) {
    e = cudaMemPoolExportToShareableHandle(&fd, shared, cudaMemHandleTypePosixFileDescriptor, 0);
    printf("  exported to a file descriptor: %s%s\n", err_name(e), e == cudaSuccess && fd >= 0 ? " (fd)" : "");
    (void)cudaGetLastError();
    int *x = NULL;
    CK(cudaMallocFromPoolAsync((void **)&x, 1 << 16, shared, s1));
    CK(cudaStreamSynchronize(s1));
    cudaMemPoolPtrExportData data;
    e = cudaMemPoolExportPointer(&data, x);
    printf("  cudaMemPoolExportPointer: %s\n", err_name(e));
    (void)cudaGetLastError();
    CK(cudaFreeAsync(x, s1));
    CK(cudaStreamSynchronize(s1));
    if (fd >= 0) close(fd);
    CK(cudaMemPoolDestroy(shared));
  }

  // Edge cases.
  void *z = (void *)1;
  e = cudaMallocAsync(&z, 0, s1);
  printf("cudaMallocAsync of 0 bytes: %s, pointer null: %s\n", err_name(e), z == NULL ? "yes" : "no");
  (void)cudaGetLastError();
  if (e == cudaSuccess && z) CK(cudaFreeAsync(z, s1));
  printf("cudaFreeAsync(NULL): %s\n", err_name(cudaFreeAsync(NULL, s1)));
  (void)cudaGetLastError();
  printf("cudaMemPoolGetAttribute with a NULL value: %s\n",
         err_name(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, NULL)));
  (void)cudaGetLastError();
  cudaMemPool_t none = NULL;
  printf("cudaDeviceGetDefaultMemPool(device 99): %s\n", err_name(cudaDeviceGetDefaultMemPool(&none, 99)));
  (void)cudaGetLastError();
  CK(cudaStreamSynchronize(s1));
  CK(cudaGetLastError());

  CK(cudaMemPoolDestroy(pool));
  CK(cudaEventDestroy(ev));
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
  CK(cudaFreeHost(host));
  return sample_pass();
}
