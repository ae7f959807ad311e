// memory_kinds: pageable, pinned (cudaMallocHost), mapped (cudaHostAlloc +
// cudaHostGetDevicePointer), registered (cudaHostRegister), device and
// managed memory; cudaMemcpy with every cudaMemcpyKind including
// cudaMemcpyDefault, cudaMemset / cudaMemsetAsync, cudaMemcpyAsync,
// cudaMallocPitch + cudaMemcpy2D, cudaPointerGetAttributes on each kind.
#define SAMPLE_NAME "memory_kinds"
#include "common/check.h"
#include <string.h>

__global__ void add_k(int *p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += k;
}

__global__ void rows_2d(float *base, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) {
    float *row = (float *)((char *)base + y * pitch);
    row[x] = row[x] * 2.0f + (float)y;
  }
}

static const char *type_name(cudaMemoryType t) {
  switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered";
    case cudaMemoryTypeHost: return "host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
  }
  return "?";
}

static void expect_fill(const int *p, int n, int base, const char *what) {
  for (int i = 0; i < n; i++)
    EXPECT(p[i] == base + i, "%s: [%d] = %d, expected %d", what, i, p[i], base + i);
}

static void show_attr(const char *what, const void *ptr, cudaMemoryType want,
                      const void *want_dev) {
  cudaPointerAttributes a;
  memset(&a, 0, sizeof(a));
  CK(cudaPointerGetAttributes(&a, ptr));
  printf("attributes %-12s type=%s", what, type_name(a.type));
  if (a.type != cudaMemoryTypeUnregistered) printf(" device=%d", a.device);
  printf("\n");
  EXPECT(a.type == want, "%s: type %s, expected %s", what, type_name(a.type), type_name(want));
  if (want_dev) EXPECT(a.devicePointer == want_dev, "%s: devicePointer differs", what);
}

int main() {
  const int n = 65536;
  const size_t bytes = n * sizeof(int);
  int *pageable = (int *)malloc(bytes), *pageable2 = (int *)malloc(bytes);
  int *pinned, *mapped, *mapped_dev, *dev, *dev2, *managed;
  CK(cudaMallocHost(&pinned, bytes));
  CK(cudaHostAlloc(&mapped, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  CK(cudaHostGetDevicePointer(&mapped_dev, mapped, 0));
  CK(cudaMalloc(&dev, bytes));
  CK(cudaMalloc(&dev2, bytes));
  CK(cudaMallocManaged(&managed, bytes));
  int *registered = (int *)malloc(bytes);
  CK(cudaHostRegister(registered, bytes, cudaHostRegisterDefault));

  for (int i = 0; i < n; i++) pageable[i] = i;

  // Explicit kinds.
  CK(cudaMemcpy(pinned, pageable, bytes, cudaMemcpyHostToHost));
  expect_fill(pinned, n, 0, "HostToHost");
  CK(cudaMemcpy(dev, pinned, bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dev2, dev, bytes, cudaMemcpyDeviceToDevice));
  add_k<<<n / 256, 256>>>(dev2, n, 10);
  CK(cudaGetLastError());
  CK(cudaMemcpy(pageable2, dev2, bytes, cudaMemcpyDeviceToHost));
  expect_fill(pageable2, n, 10, "HostToDevice/DeviceToDevice/DeviceToHost");
  printf("cudaMemcpy HostToHost, HostToDevice, DeviceToDevice, DeviceToHost: ok\n");

  // cudaMemcpyDefault between every pair of kinds.
  CK(cudaMemcpy(dev, pageable, bytes, cudaMemcpyDefault));         // pageable -> device
  CK(cudaMemcpy(managed, dev, bytes, cudaMemcpyDefault));          // device -> managed
  add_k<<<n / 256, 256>>>(managed, n, 1);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(mapped, managed, bytes, cudaMemcpyDefault));       // managed -> mapped
  expect_fill(mapped, n, 1, "Default managed->mapped");
  add_k<<<n / 256, 256>>>(mapped_dev, n, 1);                        // kernel on mapped memory
  CK(cudaDeviceSynchronize());
  expect_fill(mapped, n, 2, "kernel through mapped pointer");
  CK(cudaMemcpy(registered, mapped, bytes, cudaMemcpyDefault));    // host -> host
  CK(cudaMemcpy(dev2, registered, bytes, cudaMemcpyDefault));      // registered -> device
  CK(cudaMemcpy(pinned, dev2, bytes, cudaMemcpyDefault));          // device -> pinned
  expect_fill(pinned, n, 2, "Default chain");
  CK(cudaMemcpy(pageable2, pinned, bytes, cudaMemcpyDefault));     // pinned -> pageable
  expect_fill(pageable2, n, 2, "Default pinned->pageable");
  printf("cudaMemcpyDefault across pageable, pinned, mapped, registered, device, managed: ok\n");

  // Memset, sync and async; async copies on a stream.
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CK(cudaMemset(dev, 0xAB, bytes));
  CK(cudaMemsetAsync(dev2, 0, bytes, s));
  CK(cudaMemsetAsync((char *)dev2 + 4, 0x01, 3, s));  // bytes 4..6 of element 1
  CK(cudaMemcpyAsync(pinned, dev, bytes, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++)
    EXPECT((unsigned)pinned[i] == 0xABABABABu, "memset [%d] = %08x", i, (unsigned)pinned[i]);
  CK(cudaMemcpyAsync(pinned, dev2, 2 * sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  EXPECT(pinned[0] == 0 && pinned[1] == 0x010101, "memset partial: %08x %08x",
         (unsigned)pinned[0], (unsigned)pinned[1]);
  for (int i = 0; i < n; i++) pinned[i] = 3 * i;
  CK(cudaMemcpyAsync(dev, pinned, bytes, cudaMemcpyHostToDevice, s));
  add_k<<<n / 256, 256, 0, s>>>(dev, n, -5);
  CK(cudaMemcpyAsync(dev2, dev, bytes, cudaMemcpyDeviceToDevice, s));
  CK(cudaMemcpyAsync(pageable2, dev2, bytes, cudaMemcpyDefault, s));
  CK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++) EXPECT(pageable2[i] == 3 * i - 5, "async chain [%d]", i);
  printf("cudaMemset, cudaMemsetAsync, cudaMemcpyAsync: ok\n");

  // Pitched 2D.
  const int width = 100, height = 7;
  float *pitched;
  size_t pitch = 0;
  CK(cudaMallocPitch((void **)&pitched, &pitch, width * sizeof(float), height));
  EXPECT(pitch >= width * sizeof(float) && pitch % 4 == 0, "pitch %zu", pitch);
  fprintf(stderr, "pitch %zu\n", pitch);
  float host2d[height][width + 3];  // host rows with a pitch of their own
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width + 3; x++) host2d[y][x] = (float)(y * 1000 + x);
  CK(cudaMemcpy2D(pitched, pitch, host2d, sizeof(host2d[0]), width * sizeof(float), height,
                  cudaMemcpyHostToDevice));
  rows_2d<<<dim3(1, height), 128>>>(pitched, pitch, width, height);
  CK(cudaGetLastError());
  float back2d[height][width];
  CK(cudaMemcpy2D(back2d, sizeof(back2d[0]), pitched, pitch, width * sizeof(float), height,
                  cudaMemcpyDeviceToHost));
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      EXPECT(back2d[y][x] == 2.0f * (y * 1000 + x) + y, "2D [%d][%d] = %g", y, x, back2d[y][x]);
  CK(cudaMemset2D(pitched, pitch, 0, width * sizeof(float), height));
  CK(cudaMemcpy2D(back2d, sizeof(back2d[0]), pitched, pitch, width * sizeof(float), height,
                  cudaMemcpyDeviceToHost));
  EXPECT(back2d[height - 1][width - 1] == 0.0f, "memset2D");
  printf("cudaMallocPitch (pitch >= row), cudaMemcpy2D both ways, cudaMemset2D: ok\n");

  // Pointer attributes of every kind.
  int on_stack = 0;
  show_attr("device", dev, cudaMemoryTypeDevice, dev);
  show_attr("device+4096", (char *)dev + 4096, cudaMemoryTypeDevice, (char *)dev + 4096);
  show_attr("pinned", pinned, cudaMemoryTypeHost, NULL);
  show_attr("mapped", mapped, cudaMemoryTypeHost, mapped_dev);
  show_attr("registered", registered, cudaMemoryTypeHost, NULL);
  show_attr("managed", managed, cudaMemoryTypeManaged, managed);
  show_attr("pitched", pitched, cudaMemoryTypeDevice, pitched);
  show_attr("pageable", pageable, cudaMemoryTypeUnregistered, NULL);
  show_attr("stack", &on_stack, cudaMemoryTypeUnregistered, NULL);

  CK(cudaStreamDestroy(s));
  CK(cudaFree(pitched));
  CK(cudaHostUnregister(registered));
  show_attr("unregistered", registered, cudaMemoryTypeUnregistered, NULL);
  CK(cudaFree(managed));
  CK(cudaFree(dev2));
  CK(cudaFree(dev));
  CK(cudaFreeHost(mapped));
  CK(cudaFreeHost(pinned));
  free(registered);
  free(pageable);
  free(pageable2);
  return sample_pass();
}
