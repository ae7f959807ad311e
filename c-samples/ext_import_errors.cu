// ext_import_errors: cudaImportExternalMemory and the mapping calls with
// invalid arguments: null descriptor or output, unknown handle types
// (0, 9 = the driver's dma-buf which the runtime does not name, 99), an
// opaque fd of -1, of /dev/null and of a regular file, Win32 handles on
// Linux, NvSciBuf without an object, size 0; mapping buffers and
// mipmapped arrays of a NULL external memory, destroying NULL. Error NAMES
// are printed. The runtime's descriptors must have the driver's layout
// (the runtime hands them over as they are): checked at compile time
// against cuda.h.
#include <cuda.h>
#define SAMPLE_NAME "ext_import_errors"
#include "common/check.h"
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#define SAME_LAYOUT(rt, drv)                                                   \
  static_assert(sizeof(rt) == sizeof(drv), #rt " and " #drv " differ in size")
#define SAME_FIELD(rt, rf, drv, df)                                            \
  static_assert(offsetof(rt, rf) == offsetof(drv, df), #rt "." #rf " moved")
SAME_LAYOUT(cudaExternalMemoryHandleDesc, CUDA_EXTERNAL_MEMORY_HANDLE_DESC);
SAME_FIELD(cudaExternalMemoryHandleDesc, handle, CUDA_EXTERNAL_MEMORY_HANDLE_DESC, handle);
SAME_FIELD(cudaExternalMemoryHandleDesc, size, CUDA_EXTERNAL_MEMORY_HANDLE_DESC, size);
SAME_FIELD(cudaExternalMemoryHandleDesc, flags, CUDA_EXTERNAL_MEMORY_HANDLE_DESC, flags);
SAME_LAYOUT(cudaExternalMemoryBufferDesc, CUDA_EXTERNAL_MEMORY_BUFFER_DESC);
SAME_FIELD(cudaExternalMemoryBufferDesc, flags, CUDA_EXTERNAL_MEMORY_BUFFER_DESC, flags);
SAME_LAYOUT(cudaExternalSemaphoreHandleDesc, CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC);
SAME_FIELD(cudaExternalSemaphoreHandleDesc, flags, CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC, flags);
SAME_LAYOUT(cudaExternalSemaphoreSignalParams, CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS);
SAME_FIELD(cudaExternalSemaphoreSignalParams, flags, CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS, flags);
SAME_FIELD(cudaExternalSemaphoreSignalParams, params.keyedMutex,
           CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS, params.keyedMutex);
SAME_LAYOUT(cudaExternalSemaphoreWaitParams, CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS);
SAME_FIELD(cudaExternalSemaphoreWaitParams, flags, CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS, flags);
SAME_FIELD(cudaExternalSemaphoreWaitParams, params.keyedMutex.timeoutMs,
           CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS, params.keyedMutex.timeoutMs);
static_assert(sizeof(cudaAsyncNotificationInfo_t) == sizeof(CUasyncNotificationInfo),
              "async notification records differ");

static void import(const char *what, cudaExternalMemoryHandleType type, int fd,
                   unsigned long long size) {
  cudaExternalMemoryHandleDesc d;
  memset(&d, 0, sizeof(d));
  d.type = type;
  d.handle.fd = fd;
  d.size = size;
  cudaExternalMemory_t m = NULL;
  cudaError_t e = cudaImportExternalMemory(&m, &d);
  printf("import %-40s %s\n", what, err_name(e));
  if (e == cudaSuccess) CK(cudaDestroyExternalMemory(m));
  (void)cudaGetLastError();
}

static void import_handle(const char *what, cudaExternalMemoryHandleType type) {
  cudaExternalMemoryHandleDesc d;
  memset(&d, 0, sizeof(d));
  d.type = type;
  d.handle.win32.handle = NULL;
  d.handle.win32.name = NULL;
  d.size = 1 << 20;
  cudaExternalMemory_t m = NULL;
  cudaError_t e = cudaImportExternalMemory(&m, &d);
  printf("import %-40s %s\n", what, err_name(e));
  if (e == cudaSuccess) CK(cudaDestroyExternalMemory(m));
  (void)cudaGetLastError();
}

int main() {
  CK(cudaFree(0));

  import("opaque fd -1", cudaExternalMemoryHandleTypeOpaqueFd, -1, 1 << 20);
  int null_dev = open("/dev/null", O_RDWR);
  int file = open("/proc/self/exe", O_RDONLY);
  EXPECT(null_dev >= 0 && file >= 0, "cannot open /dev/null or /proc/self/exe");
  // Duplicates: a successful import would own them.
  import("opaque fd of /dev/null", cudaExternalMemoryHandleTypeOpaqueFd, dup(null_dev), 1 << 20);
  import("opaque fd of a regular file", cudaExternalMemoryHandleTypeOpaqueFd, dup(file), 4096);
  import("opaque fd of a regular file, size 0", cudaExternalMemoryHandleTypeOpaqueFd, dup(file), 0);
  close(null_dev);
  close(file);
  import("type 0", (cudaExternalMemoryHandleType)0, -1, 1 << 20);
  import("type 9 (dma-buf, driver only)", (cudaExternalMemoryHandleType)9, -1, 1 << 20);
  import("type 99", (cudaExternalMemoryHandleType)99, -1, 1 << 20);
  import_handle("opaque Win32 NULL", cudaExternalMemoryHandleTypeOpaqueWin32);
  import_handle("opaque Win32 KMT NULL", cudaExternalMemoryHandleTypeOpaqueWin32Kmt);
  import_handle("D3D12 heap NULL", cudaExternalMemoryHandleTypeD3D12Heap);
  import_handle("D3D12 resource NULL", cudaExternalMemoryHandleTypeD3D12Resource);
  import_handle("D3D11 resource NULL", cudaExternalMemoryHandleTypeD3D11Resource);
  import_handle("D3D11 resource KMT NULL", cudaExternalMemoryHandleTypeD3D11ResourceKmt);
  import_handle("NvSciBuf NULL", cudaExternalMemoryHandleTypeNvSciBuf);

  cudaExternalMemoryHandleDesc d;
  memset(&d, 0, sizeof(d));
  d.type = cudaExternalMemoryHandleTypeOpaqueFd;
  d.handle.fd = -1;
  d.size = 4096;
  cudaExternalMemory_t m = NULL;
  printf("import, null descriptor                        %s\n",
         err_name(cudaImportExternalMemory(&m, NULL)));
  printf("import, null output                            %s\n",
         err_name(cudaImportExternalMemory(NULL, &d)));
  (void)cudaGetLastError();

  cudaExternalMemoryBufferDesc b;
  memset(&b, 0, sizeof(b));
  b.size = 4096;
  void *p = NULL;
  printf("mapped buffer of NULL memory                   %s\n",
         err_name(cudaExternalMemoryGetMappedBuffer(&p, NULL, &b)));
  printf("mapped buffer, null descriptor                 %s\n",
         err_name(cudaExternalMemoryGetMappedBuffer(&p, NULL, NULL)));
  cudaExternalMemoryMipmappedArrayDesc md;
  memset(&md, 0, sizeof(md));
  cudaChannelFormatDesc float_format = {32, 0, 0, 0, cudaChannelFormatKindFloat};
  md.formatDesc = float_format;
  md.extent = make_cudaExtent(16, 16, 0);
  md.numLevels = 1;
  cudaMipmappedArray_t mip = NULL;
  printf("mipmapped array of NULL memory                 %s\n",
         err_name(cudaExternalMemoryGetMappedMipmappedArray(&mip, NULL, &md)));
  printf("mipmapped array, null descriptor               %s\n",
         err_name(cudaExternalMemoryGetMappedMipmappedArray(&mip, NULL, NULL)));
  printf("destroy NULL                                   %s\n",
         err_name(cudaDestroyExternalMemory(NULL)));
  (void)cudaGetLastError();

  // The runtime still works.
  void *q = NULL;
  CK(cudaMalloc(&q, 1 << 20));
  CK(cudaMemset(q, 0, 1 << 20));
  CK(cudaFree(q));
  printf("allocation afterwards: ok\n");
  return sample_pass();
}
