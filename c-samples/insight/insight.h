// Shared helpers for the insight programs (CUDART_CHECK, CUDART_LEAKS,
// CUDART_PROFILE, CUDART_FAULTS). Unlike the self-checking samples these
// make mistakes on purpose and never judge the runtime's answers: every
// CUDA return code goes to stderr on a line starting with "# " (so that
// run.py can tell the program's own lines from the runtime's "cudart ..."
// lines), and stdout carries only what run.py parses (DONE, SELF, ...).
#pragma once

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Print "# <call> -> <error name>" on stderr; evaluates to the code.
#define RC(call) insight_rc(#call, (call))
static inline cudaError_t insight_rc(const char *what, cudaError_t e) {
  fprintf(stderr, "# %s -> %s\n", what, cudaGetErrorName(e));
  return e;
}

// Before main: stdout by line (a crash keeps what came before it), and the
// libcudart this process mapped ("# runtime PATH"), which run.py compares
// with the library directory it asked for.
__attribute__((constructor)) static void insight_start(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return;
  char line[4096], last[4096] = "";
  while (fgets(line, sizeof line, f)) {
    char *p = strchr(line, '/');
    if (!p || !strstr(p, "libcudart")) continue;
    p[strcspn(p, "\n")] = 0;
    if (strcmp(p, last) != 0) {
      fprintf(stderr, "# runtime %s\n", p);
      snprintf(last, sizeof last, "%s", p);
    }
  }
  fclose(f);
}

// Spin on the device for `cycles` SM clock cycles.
__device__ __forceinline__ void insight_spin(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

// SM clock cycles in `ms` milliseconds on device 0 (cudaDevAttrClockRate
// is in kHz); 2 GHz if the attribute is unavailable.
static inline long long insight_cycles_per_ms(void) {
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) != cudaSuccess || khz <= 0)
    khz = 2000000;
  return (long long)khz;
}
