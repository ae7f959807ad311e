// -rdc=true: defines the __device__ function rdc_a.cu calls.
__device__ int triple_plus_one(int x) { return x * 3 + 1; }
__device__ long rdc_counter;
__global__ void rdc_kernel_b(int *p, long n) {
  if (threadIdx.x < n) p[threadIdx.x] = triple_plus_one(p[threadIdx.x]);
  rdc_counter = n;
}
void launch_a(int *p);
int main() { launch_a(nullptr); rdc_kernel_b<<<1, 32>>>(nullptr, 4); return 0; }
