// The install-prefix tests' program: one kernel, one allocation, and what a
// user would look at to tell which runtime ran it: the cudaMalloc answer
// (without a driver: cudaErrorInsufficientDriver under either runtime) and
// every libcudart the loader mapped (none for a static runtime).
#include <cstdio>
#include <cstring>

__global__ void touch(int *p) { *p = 1; }

int main() {
  int *p = nullptr;
  cudaError_t e = cudaMalloc(&p, sizeof(int));
  printf("cudaMalloc -> %s\n", cudaGetErrorName(e));
  touch<<<1, 1>>>(p);
  printf("launch -> %s\n", cudaGetErrorName(cudaGetLastError()));
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096];
  while (maps && fgets(line, sizeof line, maps))
    if (strstr(line, "libcudart")) {
      const char *path = strchr(line, '/');
      if (path) printf("mapped %s", path);
    }
  return 0;
}
