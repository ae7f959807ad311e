// -rdc=true: calls a __device__ function defined in rdc_b.cu.
extern __device__ int triple_plus_one(int);
__global__ void rdc_kernel_a(int *p) { p[threadIdx.x] = triple_plus_one(p[threadIdx.x]); }
void launch_a(int *p) { rdc_kernel_a<<<1, 32>>>(p); }
