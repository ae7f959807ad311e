/* register_only.cu: a program whose main returns at once. nvcc's constructors
 * still register the fatbin, the kernels and the variables (and atexit
 * unregisters them). Registration must touch no driver: with no driver it
 * exits 0 under NVIDIA's runtime (observed: prints "main" and exits 0), and
 * with the test-double driver the call log stays empty. */
#include <stdio.h>

__device__ int counter;
__constant__ float scale[4];

__global__ void touch(int *p) { p[threadIdx.x] = counter + (int)scale[0]; }
__global__ void other(float *p) { p[0] = scale[1]; }

int main(void) {
    printf("main\n");
    return 0;
}
