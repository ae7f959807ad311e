// lib_load's kernels: compiled on their own into a cubin and a fatbin that
// the program embeds and loads with cudaLibraryLoadFromFile/LoadData.
// extern "C" keeps the names plain for cudaLibraryGetKernel/GetGlobal.

extern "C" __device__ int lib_offset = 7;
extern "C" __managed__ int lib_counter = 0;

extern "C" __global__ void lib_fill(int *out, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v;
}

extern "C" __global__ void lib_add_offset(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += lib_offset;
}

extern "C" __global__ void lib_count(void) { atomicAdd(&lib_counter, 1); }
