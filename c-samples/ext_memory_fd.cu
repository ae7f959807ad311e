// ext_memory_fd: external memory from an opaque file descriptor. Without
// Vulkan, the fd comes from CUDA itself: a cuMemCreate allocation exported
// with cuMemExportToShareableHandle (POSIX fd). The runtime imports it
// (cudaImportExternalMemory), maps two buffers of it (whole, and the second
// half at an offset), a kernel writes through one and the host reads
// through the other and through the original allocation mapped with
// cuMemMap; then a mipmapped array on it (name printed: whether a linear
// allocation may back an array is the driver's call), and everything is
// torn down. If this driver cannot export or import the fd, the error name
// is printed and the rest skipped.
// Links with -lcuda (the driver).
#include <cuda.h>
#define SAMPLE_NAME "ext_memory_fd"
#include "common/check.h"
#include <string.h>
#include <unistd.h>

__global__ void fill(unsigned *p, size_t n, unsigned base) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + (unsigned)i;
}

int main() {
  CK(cudaFree(0));  // the runtime's primary context is current from here on
  CUdevice dev;
  CKD(cuDeviceGet(&dev, 0));

  CUmemAllocationProp prop;
  memset(&prop, 0, sizeof(prop));
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t gran = 0;
  CKD(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  const size_t size = 2 * gran;
  const size_t n = size / sizeof(unsigned);

  CUmemGenericAllocationHandle alloc;
  CKD(cuMemCreate(&alloc, size, &prop, 0));
  int fd = -1;
  CUresult r = cuMemExportToShareableHandle(&fd, alloc, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  printf("export allocation as POSIX fd: %s\n", drv_err_name(r));
  if (r != CUDA_SUCCESS) {
    CKD(cuMemRelease(alloc));
    return sample_pass();
  }

  // The original allocation, mapped the driver's way.
  CUdeviceptr va = 0;
  CKD(cuMemAddressReserve(&va, size, 0, 0, 0));
  CKD(cuMemMap(va, size, 0, alloc, 0));
  CUmemAccessDesc access;
  memset(&access, 0, sizeof(access));
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CKD(cuMemSetAccess(va, size, &access, 1));

  cudaExternalMemoryHandleDesc desc;
  memset(&desc, 0, sizeof(desc));
  desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
  desc.handle.fd = fd;
  desc.size = size;
  cudaExternalMemory_t ext = NULL;
  cudaError_t e = cudaImportExternalMemory(&ext, &desc);
  printf("import the fd as external memory: %s\n", err_name(e));
  if (e == cudaSuccess) {
    // On success the fd belongs to CUDA now.
    EXPECT(ext != NULL, "imported, but no handle");

    cudaExternalMemoryBufferDesc whole;
    memset(&whole, 0, sizeof(whole));
    whole.size = size;
    unsigned *buf = NULL;
    CK(cudaExternalMemoryGetMappedBuffer((void **)&buf, ext, &whole));
    cudaExternalMemoryBufferDesc half = whole;
    half.offset = size / 2;
    half.size = size / 2;
    unsigned *second = NULL;
    CK(cudaExternalMemoryGetMappedBuffer((void **)&second, ext, &half));
    printf("mapped buffers: whole and second half\n");

    fill<<<(unsigned)((n + 255) / 256), 256>>>(buf, n, 1000);
    CK_LAUNCH();

    // Read back through the second buffer and through the driver mapping.
    const size_t m = n / 2;
    unsigned *h = (unsigned *)malloc(size);
    EXPECT(h != NULL, "host allocation");
    CK(cudaMemcpy(h, second, m * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < m; i++)
      EXPECT(h[i] == 1000 + (unsigned)(m + i), "second half [%zu] = %u", i, h[i]);
    printf("second-half buffer sees the kernel's writes: %zu words\n", m);
    memset(h, 0, size);
    CK(cudaMemcpy(h, (void *)va, size, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
      EXPECT(h[i] == 1000 + (unsigned)i, "driver mapping [%zu] = %u", i, h[i]);
    printf("original allocation sees the kernel's writes: %zu words\n", n);
    free(h);

    // Out of range: a buffer past the end.
    cudaExternalMemoryBufferDesc past = whole;
    past.offset = size;
    void *nothing = NULL;
    printf("buffer past the end: %s\n",
           err_name(cudaExternalMemoryGetMappedBuffer(&nothing, ext, &past)));
    (void)cudaGetLastError();

    // A mipmapped array on the same memory.
    cudaExternalMemoryMipmappedArrayDesc md;
    memset(&md, 0, sizeof(md));
    cudaChannelFormatDesc uchar4_format = {8, 8, 8, 8, cudaChannelFormatKindUnsigned};
    md.formatDesc = uchar4_format;
    md.extent = make_cudaExtent(64, 64, 0);
    md.numLevels = 1;
    cudaMipmappedArray_t mip = NULL;
    e = cudaExternalMemoryGetMappedMipmappedArray(&mip, ext, &md);
    printf("mipmapped array uchar4 64x64: %s\n", err_name(e));
    // cudaMipmappedArray_t is the driver's CUmipmappedArray.
    if (e == cudaSuccess) CKD(cuMipmappedArrayDestroy((CUmipmappedArray)mip));
    cudaChannelFormatDesc three = {8, 8, 8, 0, cudaChannelFormatKindUnsigned};
    md.formatDesc = three;
    printf("mipmapped array, 3-channel format: %s\n",
           err_name(cudaExternalMemoryGetMappedMipmappedArray(&mip, ext, &md)));
    (void)cudaGetLastError();

    CK(cudaFree(second));
    CK(cudaFree(buf));
    CK(cudaDestroyExternalMemory(ext));
    printf("buffers freed, external memory destroyed\n");
  } else {
    close(fd);
  }

  CKD(cuMemUnmap(va, size));
  CKD(cuMemAddressFree(va, size));
  CKD(cuMemRelease(alloc));
  return sample_pass();
}
