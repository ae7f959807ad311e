// Macros that stamp out many small, distinct kernels from one line, for the
// start-up benchmarks (bench_lazy.cu: 2,000 kernels in one file;
// reg_unit.cu: 100 kernels per file, 100 files). The includer defines
// BENCH_KERNEL(n): one kernel whose name is built from the digit string n.
//
//   BENCH_K10(p)   -> BENCH_KERNEL(p0) ... BENCH_KERNEL(p9)
//   BENCH_K100(p)  -> BENCH_K10(p0) ... BENCH_K10(p9)        (100 kernels)
//   BENCH_K1000(p) -> BENCH_K100(p0) ... BENCH_K100(p9)      (1,000 kernels)
//
// With an empty prefix the names carry leading zeros (BENCH_K100() gives
// 00 .. 99), so the digit strings are names, never numbers: do not use
// them as integer literals (a leading 0 makes an octal literal).
#pragma once

#define BENCH_CAT2_(a, b) a##b
#define BENCH_CAT2(a, b) BENCH_CAT2_(a, b)
#define BENCH_CAT4_(a, b, c, d) a##b##c##d
#define BENCH_CAT4(a, b, c, d) BENCH_CAT4_(a, b, c, d)

#define BENCH_K10(p)                                                           \
  BENCH_KERNEL(p##0) BENCH_KERNEL(p##1) BENCH_KERNEL(p##2)                     \
  BENCH_KERNEL(p##3) BENCH_KERNEL(p##4) BENCH_KERNEL(p##5)                     \
  BENCH_KERNEL(p##6) BENCH_KERNEL(p##7) BENCH_KERNEL(p##8)                     \
  BENCH_KERNEL(p##9)
#define BENCH_K100(p)                                                          \
  BENCH_K10(p##0) BENCH_K10(p##1) BENCH_K10(p##2) BENCH_K10(p##3)              \
  BENCH_K10(p##4) BENCH_K10(p##5) BENCH_K10(p##6) BENCH_K10(p##7)              \
  BENCH_K10(p##8) BENCH_K10(p##9)
#define BENCH_K1000(p)                                                         \
  BENCH_K100(p##0) BENCH_K100(p##1) BENCH_K100(p##2) BENCH_K100(p##3)          \
  BENCH_K100(p##4) BENCH_K100(p##5) BENCH_K100(p##6) BENCH_K100(p##7)          \
  BENCH_K100(p##8) BENCH_K100(p##9)
