// Source of the checked-in fixtures under tests/fixtures (see README there).
__global__ void tiny(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }
