/* Shared reporting helpers for the abi-tests C/CUDA programs.
 *
 * Every runtime call is printed as "<name> -> <code> <errorName>" followed by
 * "lasterror -> <code> <errorName>" (the value cudaGetLastError returns right
 * after it), so that a sticky error shows up as a lasterror that stays set.
 * Only error *names* are printed (the strings are compared by
 * tests/errors.rs).
 * Output goes to stdout, line-buffered-independent (flushed per line), so a
 * crash still leaves everything printed before it. */
#ifndef ABI_TESTS_REPORT_H
#define ABI_TESTS_REPORT_H

#include <stdio.h>
#include <cuda_runtime.h>

static inline const char *abi_name(cudaError_t e) {
    const char *n = cudaGetErrorName(e);
    return n ? n : "(null)";
}

static inline void abi_report(const char *name, cudaError_t e) {
    printf("%s -> %d %s\n", name, (int)e, abi_name(e));
    fflush(stdout);
}

static inline void abi_report_last(void) {
    cudaError_t l = cudaGetLastError();
    printf("lasterror -> %d %s\n", (int)l, abi_name(l));
    fflush(stdout);
}

/* Call, print "name -> code", then "lasterror -> code". */
#define CALL(name, expr)                                                      \
    do {                                                                      \
        cudaError_t call_err_ = (expr);                                       \
        abi_report(name, call_err_);                                          \
        abi_report_last();                                                    \
    } while (0)

/* Print a value observed after a call ("  name = value"). */
#define SHOW(fmt, ...)                                                        \
    do {                                                                      \
        printf("  " fmt "\n", __VA_ARGS__);                                   \
        fflush(stdout);                                                       \
    } while (0)

#endif
