/* Constructor timestamps around the registration in a generated library:
 * compiled once with -DREG_MARK=reg_mark_begin_ns (linked first) and once
 * with -DREG_MARK=reg_mark_end_ns (linked last). The linker keeps the
 * .init_array entries in link order and the loader runs them forward, so
 * the two stamps bracket every unit's constructor, i.e. nvcc's fatbin and
 * kernel registration (bench_reg.cu reads them with dlsym). Each mark also
 * records the process's minor page faults so far (<mark>_faults): the
 * faults of the registration itself (fresh heap pages, first touches of
 * the runtime's code) cost ~1-2 us each on a virtualized machine. */
#include <sys/resource.h>
#include <time.h>

#ifndef REG_MARK
#error "compile with -DREG_MARK=<symbol>"
#endif

#define REG_CAT2(a, b) a##b
#define REG_CAT(a, b) REG_CAT2(a, b)

double REG_MARK;
double REG_CAT(REG_MARK, _faults);

__attribute__((constructor)) static void reg_mark(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  REG_MARK = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  REG_CAT(REG_MARK, _faults) = (double)ru.ru_minflt;
}
