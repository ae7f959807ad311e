// Shared helpers for the self-checking samples.
//
// Every sample defines SAMPLE_NAME before including this header, prints a
// deterministic report on stdout (no pointers, no timings: those go to
// stderr), and ends with exactly one line `PASS <name>` (exit 0) or
// `FAIL <name>: <why>` (exit 1).
#pragma once

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef SAMPLE_NAME
#error "define SAMPLE_NAME before including check.h"
#endif

// Print `FAIL <name>: <why>` and exit 1.
static inline void sample_fail(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  printf("FAIL %s: ", SAMPLE_NAME);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
  exit(1);
}

// Print `PASS <name>` and return the exit status for main().
static inline int sample_pass(void) {
  printf("PASS %s\n", SAMPLE_NAME);
  fflush(stdout);
  return 0;
}

static inline const char *err_name(cudaError_t e) { return cudaGetErrorName(e); }
__attribute__((constructor)) static void sample_stdout_by_line(void) { setvbuf(stdout, NULL, _IOLBF, 0); }  // a crash keeps the lines before it

// A runtime call that must succeed.
#define CK(call)                                                               \
  do {                                                                         \
    cudaError_t ck_e_ = (call);                                                \
    if (ck_e_ != cudaSuccess)                                                  \
      sample_fail("line %d: %s -> %s (%d)", __LINE__, #call, err_name(ck_e_), \
                  (int)ck_e_);                                                 \
  } while (0)

// A runtime call that must return exactly `want`.
#define CK_EQ(call, want)                                                      \
  do {                                                                         \
    cudaError_t ck_e_ = (call);                                                \
    if (ck_e_ != (want))                                                       \
      sample_fail("line %d: %s -> %s (%d), expected %s", __LINE__, #call,     \
                  err_name(ck_e_), (int)ck_e_, err_name(want));                \
  } while (0)

// A launch: check the launch itself (cudaGetLastError), then completion.
#define CK_LAUNCH()                                                            \
  do {                                                                         \
    CK(cudaGetLastError());                                                    \
    CK(cudaDeviceSynchronize());                                               \
  } while (0)

// A plain condition that must hold.
#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) sample_fail(__VA_ARGS__);                                     \
  } while (0)

#ifdef __cuda_cuda_h__  // cuda.h included before this header: driver helpers
static inline const char *drv_err_name(CUresult r) {
  const char *s = NULL;
  if (cuGetErrorName(r, &s) != CUDA_SUCCESS || s == NULL) return "CUDA_ERROR_?";
  return s;
}
#define CKD(call)                                                              \
  do {                                                                         \
    CUresult ckd_r_ = (call);                                                  \
    if (ckd_r_ != CUDA_SUCCESS)                                                \
      sample_fail("line %d: %s -> %s (%d)", __LINE__, #call,                  \
                  drv_err_name(ckd_r_), (int)ckd_r_);                          \
  } while (0)
#endif
