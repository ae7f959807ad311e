// device_props: device count, cudaGetDeviceProperties (stable fields
// printed), cudaDeviceGetAttribute for a set of attributes cross-checked
// against the properties, driver and runtime versions, cudaMemGetInfo
// (free <= total, not printed), PCI bus id both ways, invalid devices.
#define SAMPLE_NAME "device_props"
#include "common/check.h"
#include <string.h>

#define ATTR(a, field)                                                         \
  do {                                                                         \
    int v_ = -12345;                                                           \
    CK(cudaDeviceGetAttribute(&v_, a, 0));                                     \
    printf("attr %-40s %d\n", #a, v_);                                         \
    EXPECT(v_ == (int)(field), "%s = %d but property says %d", #a, v_,         \
           (int)(field));                                                      \
  } while (0)

#define ATTR_ONLY(a)                                                           \
  do {                                                                         \
    int v_ = -12345;                                                           \
    CK(cudaDeviceGetAttribute(&v_, a, 0));                                     \
    printf("attr %-40s %d\n", #a, v_);                                         \
  } while (0)

int main() {
  int count = 0;
  CK(cudaGetDeviceCount(&count));
  EXPECT(count >= 1, "no device");
  printf("device count >= 1: yes\n");

  int drv = -1, rt = -1;
  CK(cudaDriverGetVersion(&drv));
  CK(cudaRuntimeGetVersion(&rt));
  printf("driver version %d, runtime version %d\n", drv, rt);
  EXPECT(drv >= 13000 && rt >= 13000 && rt < 14000, "versions %d %d", drv, rt);

  cudaDeviceProp p;
  memset(&p, 0xCD, sizeof(p));
  CK(cudaGetDeviceProperties(&p, 0));
  printf("name: %s\n", p.name);
  printf("compute capability: %d.%d\n", p.major, p.minor);
  printf("multiProcessorCount: %d\n", p.multiProcessorCount);
  printf("totalGlobalMem: %zu\n", p.totalGlobalMem);
  printf("sharedMemPerBlock: %zu optin %zu perSM %zu\n", p.sharedMemPerBlock,
         p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor);
  printf("regsPerBlock: %d regsPerMultiprocessor: %d\n", p.regsPerBlock,
         p.regsPerMultiprocessor);
  printf("warpSize: %d\n", p.warpSize);
  printf("maxThreadsPerBlock: %d maxThreadsPerMultiProcessor: %d\n", p.maxThreadsPerBlock,
         p.maxThreadsPerMultiProcessor);
  printf("maxThreadsDim: %d %d %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1],
         p.maxThreadsDim[2]);
  printf("maxGridSize: %d %d %d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  printf("totalConstMem: %zu\n", p.totalConstMem);
  printf("l2CacheSize: %d persistingL2CacheMaxSize: %d\n", p.l2CacheSize,
         p.persistingL2CacheMaxSize);
  printf("memoryBusWidth: %d\n", p.memoryBusWidth);
  printf("maxBlocksPerMultiProcessor: %d\n", p.maxBlocksPerMultiProcessor);
  printf("memPitch: %zu textureAlignment: %zu\n", p.memPitch, p.textureAlignment);
  printf("integrated %d canMapHostMemory %d concurrentKernels %d ECCEnabled %d\n",
         p.integrated, p.canMapHostMemory, p.concurrentKernels, p.ECCEnabled);
  printf("unifiedAddressing %d managedMemory %d concurrentManagedAccess %d\n",
         p.unifiedAddressing, p.managedMemory, p.concurrentManagedAccess);
  printf("asyncEngineCount %d cooperativeLaunch %d computePreemptionSupported %d\n",
         p.asyncEngineCount, p.cooperativeLaunch, p.computePreemptionSupported);
  printf("pciDomainID %d pciBusID %d pciDeviceID %d\n", p.pciDomainID, p.pciBusID,
         p.pciDeviceID);
  printf("uuid:");
  for (int i = 0; i < 16; i++) printf("%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", (unsigned char)p.uuid.bytes[i]);
  printf("\n");
  EXPECT(p.major >= 1 && p.multiProcessorCount > 0 && p.warpSize == 32 &&
             p.totalGlobalMem > 0 && p.maxThreadsPerBlock >= 512,
         "implausible properties");
  EXPECT(strlen(p.name) > 0 && strlen(p.name) < sizeof(p.name), "bad name");

  ATTR(cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock);
  ATTR(cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0]);
  ATTR(cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2]);
  ATTR(cudaDevAttrMaxGridDimX, p.maxGridSize[0]);
  ATTR(cudaDevAttrMaxGridDimY, p.maxGridSize[1]);
  ATTR(cudaDevAttrMaxSharedMemoryPerBlock, p.sharedMemPerBlock);
  ATTR(cudaDevAttrMaxSharedMemoryPerBlockOptin, p.sharedMemPerBlockOptin);
  ATTR(cudaDevAttrTotalConstantMemory, p.totalConstMem);
  ATTR(cudaDevAttrWarpSize, p.warpSize);
  ATTR(cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock);
  ATTR(cudaDevAttrMultiProcessorCount, p.multiProcessorCount);
  ATTR(cudaDevAttrComputeCapabilityMajor, p.major);
  ATTR(cudaDevAttrComputeCapabilityMinor, p.minor);
  ATTR(cudaDevAttrL2CacheSize, p.l2CacheSize);
  ATTR(cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth);
  ATTR(cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor);
  ATTR(cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor);
  ATTR(cudaDevAttrPciBusId, p.pciBusID);
  ATTR(cudaDevAttrPciDeviceId, p.pciDeviceID);
  ATTR(cudaDevAttrPciDomainId, p.pciDomainID);
  ATTR(cudaDevAttrConcurrentKernels, p.concurrentKernels);
  ATTR(cudaDevAttrUnifiedAddressing, p.unifiedAddressing);
  ATTR(cudaDevAttrManagedMemory, p.managedMemory);
  ATTR(cudaDevAttrCooperativeLaunch, p.cooperativeLaunch);
  ATTR(cudaDevAttrAsyncEngineCount, p.asyncEngineCount);
  ATTR_ONLY(cudaDevAttrClockRate);
  ATTR_ONLY(cudaDevAttrMemoryClockRate);
  ATTR_ONLY(cudaDevAttrClusterLaunch);
  ATTR_ONLY(cudaDevAttrHostRegisterSupported);
  ATTR_ONLY(cudaDevAttrMemoryPoolsSupported);

  size_t free_b = 0, total_b = 0;
  CK(cudaMemGetInfo(&free_b, &total_b));
  EXPECT(total_b > 0 && free_b <= total_b && free_b > 0, "cudaMemGetInfo %zu / %zu", free_b,
         total_b);
  fprintf(stderr, "cudaMemGetInfo: free %zu total %zu\n", free_b, total_b);
  printf("cudaMemGetInfo: 0 < free <= total\n");

  char bus[64];
  CK(cudaDeviceGetPCIBusId(bus, sizeof(bus), 0));
  printf("PCI bus id: %s\n", bus);
  int back = -1;
  CK(cudaDeviceGetByPCIBusId(&back, bus));
  EXPECT(back == 0, "cudaDeviceGetByPCIBusId(%s) = %d", bus, back);

  // Invalid devices.
  int v;
  CK_EQ(cudaSetDevice(count), cudaErrorInvalidDevice);
  CK_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count), cudaErrorInvalidDevice);
  CK_EQ(cudaGetDeviceProperties(&p, -1), cudaErrorInvalidDevice);
  cudaGetLastError();
  int dev = -1;
  CK(cudaGetDevice(&dev));
  EXPECT(dev == 0, "current device %d after failed cudaSetDevice", dev);
  printf("invalid device: %s\n", err_name(cudaErrorInvalidDevice));
  return sample_pass();
}
