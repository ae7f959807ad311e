// rel_garbage_handles: stream and event handles the runtime never made.
// Garbage addresses (nothing mapped there) must get an error, not a crash;
// handles the driver made directly, as another runtime in the process
// makes them, must work in every call.
#define SAMPLE_NAME "rel_garbage_handles"
#include "common/check.h"
#include <cuda.h>

__global__ void add_one(int *v) { *v += 1; }

int main() {
  cudaStream_t bad_stream = (cudaStream_t)0xdeadbeef;
  cudaEvent_t bad_event = (cudaEvent_t)0xdeadbeef;
  int *d;
  CK(cudaMalloc(&d, sizeof(int)));
  CK(cudaMemset(d, 0, sizeof(int)));
  cudaEvent_t ev;
  CK(cudaEventCreate(&ev));
  printf("cudaEventQuery(garbage): %s\n", err_name(cudaEventQuery(bad_event)));
  printf("cudaStreamQuery(garbage): %s\n", err_name(cudaStreamQuery(bad_stream)));
  printf("cudaStreamSynchronize(garbage): %s\n", err_name(cudaStreamSynchronize(bad_stream)));
  printf("cudaEventRecord(event, garbage stream): %s\n", err_name(cudaEventRecord(ev, bad_stream)));
  cudaGetLastError();

  CUstream ds;
  CUevent de;
  EXPECT(cuStreamCreate(&ds, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS, "cuStreamCreate");
  EXPECT(cuEventCreate(&de, CU_EVENT_DEFAULT) == CUDA_SUCCESS, "cuEventCreate");
  for (int round = 0; round < 2; round++) {
    add_one<<<1, 1, 0, (cudaStream_t)ds>>>(d);
    CK(cudaGetLastError());
    CK(cudaEventRecord((cudaEvent_t)de, (cudaStream_t)ds));
    CK(cudaStreamWaitEvent(0, (cudaEvent_t)de, 0));
    CK(cudaEventSynchronize((cudaEvent_t)de));
    CK(cudaEventQuery((cudaEvent_t)de));
    CK(cudaStreamQuery((cudaStream_t)ds));
  }
  int v = 0;
  CK(cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost));
  printf("driver stream and event: 2 rounds, value %d\n", v);
  EXPECT(v == 2, "value %d, expected 2", v);
  cuEventDestroy(de);
  cuStreamDestroy(ds);
  CK(cudaEventDestroy(ev));
  CK(cudaFree(d));
  return sample_pass();
}
