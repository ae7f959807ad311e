// stream_attributes: stream priority (creation, cudaStreamGetPriority and
// the priority attribute), the access policy window attribute set, read
// back and copied to another stream (cudaStreamCopyAttributes), the
// synchronization policy attribute, stream ids (distinct, stable, the
// special streams), cudaStreamGetDevice, flags, managed memory attached to
// a stream (cudaStreamAttachMemAsync), and an attribute a stream does not
// have.
#define SAMPLE_NAME "stream_attributes"
#include "common/check.h"
#include <string.h>

__global__ void inc(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1;
}

int main() {
  CK(cudaSetDevice(0));
  int least = 0, greatest = 0;
  CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  fprintf(stderr, "priority range: least %d greatest %d\n", least, greatest);

  // 1. Priority.
  cudaStream_t hi, lo;
  CK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest));
  CK(cudaStreamCreateWithPriority(&lo, cudaStreamDefault, least));
  int prio = 12345;
  CK(cudaStreamGetPriority(hi, &prio));
  EXPECT(prio == greatest, "priority of the high stream");
  cudaStreamAttrValue v;
  memset(&v, 0, sizeof(v));
  CK(cudaStreamGetAttribute(hi, cudaStreamAttributePriority, &v));
  printf("priority attribute is the greatest priority: %s\n", v.priority == greatest ? "yes" : "no");
  EXPECT(v.priority == greatest, "priority attribute %d, want %d", v.priority, greatest);
  CK(cudaStreamGetAttribute(lo, cudaStreamAttributePriority, &v));
  EXPECT(v.priority == least, "priority attribute %d, want %d", v.priority, least);
  unsigned flags = 99;
  CK(cudaStreamGetFlags(hi, &flags));
  printf("flags: high %u", flags);
  CK(cudaStreamGetFlags(lo, &flags));
  printf(", low %u\n", flags);

  // 2. Access policy window: set, read back, copy.
  int max_window = 0;
  CK(cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, 0));
  printf("access policy windows supported: %s\n", max_window > 0 ? "yes" : "no");
  const size_t bytes = 1 << 20;
  int *d = NULL;
  CK(cudaMalloc(&d, bytes));
  memset(&v, 0, sizeof(v));
  v.accessPolicyWindow.base_ptr = d;
  v.accessPolicyWindow.num_bytes = bytes < (size_t)max_window ? bytes : (size_t)max_window;
  v.accessPolicyWindow.hitRatio = 0.5f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CK(cudaStreamSetAttribute(hi, cudaStreamAttributeAccessPolicyWindow, &v));
  cudaStreamAttrValue back;
  memset(&back, 0xff, sizeof(back));
  CK(cudaStreamGetAttribute(hi, cudaStreamAttributeAccessPolicyWindow, &back));
  EXPECT(back.accessPolicyWindow.base_ptr == d &&
             back.accessPolicyWindow.num_bytes == v.accessPolicyWindow.num_bytes &&
             back.accessPolicyWindow.hitRatio == 0.5f &&
             back.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting &&
             back.accessPolicyWindow.missProp == cudaAccessPropertyStreaming,
         "access policy window read back differs");
  printf("access policy window read back: same\n");

  CK(cudaStreamCopyAttributes(lo, hi));
  memset(&back, 0, sizeof(back));
  CK(cudaStreamGetAttribute(lo, cudaStreamAttributeAccessPolicyWindow, &back));
  EXPECT(back.accessPolicyWindow.base_ptr == d &&
             back.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting,
         "copied access policy window differs");
  printf("access policy window copied: same\n");
  CK(cudaStreamGetAttribute(lo, cudaStreamAttributePriority, &back));
  printf("priority after copy: %s\n",
         back.priority == greatest ? "greatest" : back.priority == least ? "least" : "other");

  // Work still runs on a stream with a window.
  CK(cudaMemsetAsync(d, 0, bytes, hi));
  inc<<<(bytes / 4) / 256, 256, 0, hi>>>(d, (int)(bytes / 4));
  CK(cudaGetLastError());
  int first = 0, last = 0;
  CK(cudaMemcpyAsync(&first, d, 4, cudaMemcpyDeviceToHost, hi));
  CK(cudaMemcpyAsync(&last, d + bytes / 4 - 1, 4, cudaMemcpyDeviceToHost, hi));
  CK(cudaStreamSynchronize(hi));
  EXPECT(first == 1 && last == 1, "kernel under a window: %d %d", first, last);

  // Reset the window (num_bytes 0).
  memset(&v, 0, sizeof(v));
  CK(cudaStreamSetAttribute(hi, cudaStreamAttributeAccessPolicyWindow, &v));
  CK(cudaStreamGetAttribute(hi, cudaStreamAttributeAccessPolicyWindow, &back));
  printf("window after reset: %zu bytes\n", back.accessPolicyWindow.num_bytes);

  // 3. Synchronization policy.
  memset(&v, 0, sizeof(v));
  v.syncPolicy = cudaSyncPolicyYield;
  CK(cudaStreamSetAttribute(lo, cudaStreamAttributeSynchronizationPolicy, &v));
  memset(&back, 0, sizeof(back));
  CK(cudaStreamGetAttribute(lo, cudaStreamAttributeSynchronizationPolicy, &back));
  printf("sync policy read back: %d\n", (int)back.syncPolicy);
  EXPECT(back.syncPolicy == cudaSyncPolicyYield, "sync policy");

  // An attribute streams do not have, and bad arguments.
  cudaError_t e = cudaStreamGetAttribute(hi, cudaLaunchAttributeCooperative, &back);
  printf("cooperative attribute of a stream: %s\n", err_name(e));
  (void)cudaGetLastError();

  // 4. Ids.
  unsigned long long id_hi = 0, id_lo = 0, id_hi2 = 0, id_null = 0, id_legacy = 0, id_pt = 0;
  CK(cudaStreamGetId(hi, &id_hi));
  CK(cudaStreamGetId(lo, &id_lo));
  CK(cudaStreamGetId(hi, &id_hi2));
  EXPECT(id_hi != id_lo && id_hi == id_hi2, "ids distinct and stable");
  CK(cudaStreamGetId(0, &id_null));
  CK(cudaStreamGetId(cudaStreamLegacy, &id_legacy));
  CK(cudaStreamGetId(cudaStreamPerThread, &id_pt));
  printf("ids: distinct and stable; null == legacy: %s; per-thread differs: %s\n",
         id_null == id_legacy ? "yes" : "no",
         (id_pt != id_legacy && id_pt != id_hi) ? "yes" : "no");

  // 5. Devices.
  int dev = -1;
  CK(cudaStreamGetDevice(hi, &dev));
  EXPECT(dev == 0, "device of the stream: %d", dev);
  dev = -1;
  CK(cudaStreamGetDevice(0, &dev));
  printf("stream devices: created %d, null %d", 0, dev);
  dev = -1;
  CK(cudaStreamGetDevice(cudaStreamPerThread, &dev));
  printf(", per-thread %d\n", dev);

  // 6. Managed memory attached to one stream.
  int *m = NULL;
  CK(cudaMallocManaged(&m, 256 * sizeof(int), cudaMemAttachHost));
  for (int i = 0; i < 256; i++) m[i] = i;
  CK(cudaStreamAttachMemAsync(lo, m, 0, cudaMemAttachSingle));
  inc<<<1, 256, 0, lo>>>(m, 256);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(lo));
  for (int i = 0; i < 256; i++) EXPECT(m[i] == i + 1, "managed m[%d] = %d", i, m[i]);
  printf("managed memory attached to a stream: ok\n");
  CK(cudaStreamAttachMemAsync(lo, m, 0, cudaMemAttachGlobal));
  CK(cudaStreamSynchronize(lo));
  e = cudaStreamAttachMemAsync(lo, m, 0, 0x10);
  printf("attach with bad flags: %s\n", err_name(e));
  (void)cudaGetLastError();

  // 7. NULL output/value pointers, last: NVIDIA's runtime crashed (rc 139)
  // in this sample, most likely in one of these (the attribute calls
  // convert the value through the pointer); each is reported as it passes.
  CK_EQ(cudaStreamGetId(hi, NULL), cudaErrorInvalidValue);
  printf("cudaStreamGetId(NULL): cudaErrorInvalidValue\n");
  CK_EQ(cudaStreamGetDevice(hi, NULL), cudaErrorInvalidValue);
  printf("cudaStreamGetDevice(NULL): cudaErrorInvalidValue\n");
  CK_EQ(cudaStreamSetAttribute(hi, cudaStreamAttributePriority, NULL), cudaErrorInvalidValue);
  printf("cudaStreamSetAttribute(NULL): cudaErrorInvalidValue\n");
  CK_EQ(cudaStreamGetAttribute(hi, cudaStreamAttributePriority, NULL), cudaErrorInvalidValue);
  printf("cudaStreamGetAttribute(NULL): cudaErrorInvalidValue\n");
  (void)cudaGetLastError();  // the refusals above set the last error

  CK(cudaFree(m));
  CK(cudaFree(d));
  CK(cudaStreamDestroy(hi));
  CK(cudaStreamDestroy(lo));
  return sample_pass();
}
