/* Constructor timestamps around the registration in a generated library:
 * compiled once with -DREG_MARK=reg_mark_begin_ns (linked first) and once
 * with -DREG_MARK=reg_mark_end_ns (linked last). The linker keeps the
 * .init_array entries in link order and the loader runs them forward, so
 * the two stamps bracket every unit's constructor, i.e. nvcc's fatbin and
 * kernel registration (bench_reg.cu reads them with dlsym). */
#include <time.h>

#ifndef REG_MARK
#error "compile with -DREG_MARK=<symbol>"
#endif

double REG_MARK;

__attribute__((constructor)) static void reg_mark(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  REG_MARK = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
