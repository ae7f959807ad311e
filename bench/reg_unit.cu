// One unit of the generated kernel library: 100 trivial kernels named
// r<UNIT>_00 .. r<UNIT>_99. The Makefile compiles it 100 times (UNIT=0..99)
// into libreg10k.so: 100 fatbins, 10,000 kernels, registered by nvcc's
// constructors when the library is loaded.
//
// Compiled as plain C++ (g++ -x c++ -DREG_HOST_ONLY) the same file gives
// 100 host functions per unit instead: libreg0.so, the library "without
// kernels" whose dlopen time is subtracted from libreg10k.so's.
#include "kernels.h"

#ifndef UNIT
#error "compile with -DUNIT=<n>"
#endif
#ifndef LAST_UNIT
#define LAST_UNIT 99
#endif

#ifdef REG_HOST_ONLY
#define BENCH_KERNEL(n)                                                        \
  void BENCH_CAT4(r, UNIT, _, n)(int *p) {                                     \
    if (p) p[0] = 1;                                                           \
  }
#else
#define BENCH_KERNEL(n)                                                        \
  __global__ void BENCH_CAT4(r, UNIT, _, n)(int *p) {                          \
    if (p) p[threadIdx.x] = (int)threadIdx.x + 1;                              \
  }
#endif

BENCH_K100()

#if UNIT == LAST_UNIT
// The first launch of one kernel of the last fatbin (lazy loading of one
// module out of 100); returns the launch's status.
extern "C" int reg_launch_last(void) {
#ifdef REG_HOST_ONLY
  return 0;
#else
  BENCH_CAT4(r, UNIT, _, 99)<<<1, 1>>>(nullptr);
  return (int)cudaGetLastError();
#endif
}
#endif
