/* handle_layout: where the driver places the events and streams it makes,
 * to choose how the runtime's per-handle record lays its entries out
 * (cudart/src/handles.rs: with a million events alive, a record whose
 * entries follow the driver's address order costs a cache miss every few
 * creates instead of one per create).
 *
 *   cc -O2 -o handle_layout handle_layout.c -ldl && ./handle_layout [N]
 *
 * Makes N (100000) events, then 2000 streams, through the driver's public
 * API (libcuda.so.1 loaded at run time) in the device's primary context,
 * and prints: the most common distances between consecutive handles, how
 * many consecutive handles lie in the same 4 KiB page, and how many
 * distinct pages and 2 MiB blocks the handles span. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*init_t)(unsigned);
typedef int (*dev_t_)(int *, int);
typedef int (*retain_t)(void **, int);
typedef int (*setcur_t)(void *);
typedef int (*evc_t)(void **, unsigned);
typedef int (*evd_t)(void *);
typedef int (*stc_t)(void **, unsigned);

static int cmpu(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void report(const char *what, void **h, long n) {
  long same_page = 0, up = 0;
  int64_t *d = malloc(sizeof *d * (size_t)n);
  uint64_t *s = malloc(sizeof *s * (size_t)n);
  for (long i = 0; i < n; i++) s[i] = (uint64_t)(uintptr_t)h[i];
  for (long i = 1; i < n; i++) {
    d[i - 1] = (int64_t)(s[i] - s[i - 1]);
    same_page += (s[i] >> 12) == (s[i - 1] >> 12);
    up += s[i] > s[i - 1];
  }
  printf("%s: n=%ld first=%#lx last=%#lx\n", what, n, (unsigned long)s[0], (unsigned long)s[n - 1]);
  printf("%s: consecutive in the same 4 KiB page %.3f, increasing %.3f\n", what,
         (double)same_page / (n - 1), (double)up / (n - 1));
  /* the most common distances */
  qsort(d, (size_t)(n - 1), sizeof *d, cmpu);
  long best[5] = {0}, run = 1;
  int64_t bestd[5] = {0};
  for (long i = 1; i <= n - 1; i++) {
    if (i < n - 1 && d[i] == d[i - 1]) {
      run++;
      continue;
    }
    for (int k = 0; k < 5; k++)
      if (run > best[k]) {
        for (int j = 4; j > k; j--) best[j] = best[j - 1], bestd[j] = bestd[j - 1];
        best[k] = run, bestd[k] = d[i - 1];
        break;
      }
    run = 1;
  }
  for (int k = 0; k < 5 && best[k]; k++)
    printf("%s: distance %+lld x%ld\n", what, (long long)bestd[k], best[k]);
  qsort(s, (size_t)n, sizeof *s, cmpu);
  long pages = 1, blocks = 1;
  for (long i = 1; i < n; i++) {
    pages += (s[i] >> 12) != (s[i - 1] >> 12);
    blocks += (s[i] >> 21) != (s[i - 1] >> 21);
  }
  printf("%s: %ld distinct 4 KiB pages (%.1f handles each), %ld 2 MiB blocks\n", what, pages,
         (double)n / pages, blocks);
  free(d);
  free(s);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) {
    printf("no libcuda.so.1: %s\n", dlerror());
    return 1;
  }
  init_t init = (init_t)dlsym(lib, "cuInit");
  dev_t_ get = (dev_t_)dlsym(lib, "cuDeviceGet");
  retain_t retain = (retain_t)dlsym(lib, "cuDevicePrimaryCtxRetain");
  setcur_t setcur = (setcur_t)dlsym(lib, "cuCtxSetCurrent");
  evc_t evc = (evc_t)dlsym(lib, "cuEventCreate");
  evd_t evd = (evd_t)dlsym(lib, "cuEventDestroy_v2");
  stc_t stc = (stc_t)dlsym(lib, "cuStreamCreate");
  if (!init || !get || !retain || !setcur || !evc || !evd || !stc) {
    printf("libcuda.so.1 lacks a call this probe makes\n");
    return 1;
  }
  int dev;
  void *ctx;
  if (init(0) || get(&dev, 0) || retain(&ctx, dev) || setcur(ctx)) {
    printf("no context\n");
    return 1;
  }
  void **h = malloc(sizeof *h * (size_t)n);
  for (long i = 0; i < n; i++)
    if (evc(&h[i], 0)) {
      printf("cuEventCreate failed at %ld\n", i);
      return 1;
    }
  report("event", h, n);
  /* destroy every other one, make n/2 again: where reused addresses go */
  for (long i = 0; i < n; i += 2) evd(h[i]);
  for (long i = 0; i < n / 2; i++) evc(&h[i], 0);
  report("event_reused", h, n / 2);
  long ns = n < 2000 ? n : 2000;
  for (long i = 0; i < ns; i++)
    if (stc(&h[i], 1)) {
      printf("cuStreamCreate failed at %ld\n", i);
      return 1;
    }
  report("stream", h, ns);
  return 0;
}
