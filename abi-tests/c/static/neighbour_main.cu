// A program that links the static runtime and another Rust static library
// (neighbour.rs) and uses both.
#include <cstdio>
extern "C" unsigned long long neighbour_sum(unsigned n);
extern "C" unsigned neighbour_calls(void);

int main() {
  void *p = nullptr;
  printf("cudaMalloc -> %s\n", cudaGetErrorName(cudaMalloc(&p, 16)));
  unsigned long long s = neighbour_sum(1000);
  printf("neighbour_sum(1000) = %llu, calls %u\n", s, neighbour_calls());
  printf("cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));
  return s == 499500ULL ? 0 : 1;
}
