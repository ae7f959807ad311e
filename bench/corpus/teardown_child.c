/* teardown_child: one process of bench/corpus/teardown_probe.py (issue 30).
 * A whole program's last phase, from its last destructor to the parent's
 * wait4, took about 40 ms in some processes and 80-120 ms in others under
 * either runtime (the corpus runs of 2026-12-07): that is the kernel
 * tearing the process down, the GPU context's resources included. This
 * child sets up what a small CUDA program leaves behind, through the
 * public driver API only (no runtime), then ends one of several ways, so
 * that the parent can tell what the teardown's length follows:
 *
 *   teardown_child MODE
 *     init         cuInit only
 *     ctx          the primary context retained and made current
 *     ctx_release  ctx, then cuDevicePrimaryCtxRelease before the exit
 *     ctx_reset    ctx, then cuDevicePrimaryCtxReset before the exit
 *     alloc        ctx, 64 MiB of device memory, 1 MiB pinned, one copy
 *     alloc_free   alloc, then both freed before the exit
 *     alloc_reset  alloc, then cuDevicePrimaryCtxReset before the exit
 *     alloc_idle   alloc, then 300 ms with nothing queued before the exit
 *                  (does the GPU's idle time before the end matter?)
 *     two_ctx      ctx, and a second context made (cuCtxCreate_v4) and
 *                  destroyed before the exit, as c-samples/life_threads
 *                  does (whose teardown was short under both runtimes)
 *
 * Prints one line, just before exit() (CLOCK_MONOTONIC, the parent's clock):
 *   teardown mode=<mode> rc=<0 or the first failing CUresult>
 *            setup_ns=<cuInit to the end of the set-up> end_ns=<the
 *            release, reset or frees> t_exit=<ns>
 * and exits with 0, or 1 when a driver call failed, 2 on bad usage.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef void *H;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static const char *const modes[] = {"init",        "ctx",         "ctx_release", "ctx_reset", "alloc",
                                    "alloc_free",  "alloc_reset", "alloc_idle",  "two_ctx"};

int main(int argc, char **argv) {
  const char *mode = argc == 2 ? argv[1] : "";
  int known = 0;
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) known |= !strcmp(mode, modes[i]);
  if (!known) {
    fprintf(stderr,
            "usage: %s init|ctx|ctx_release|ctx_reset|alloc|alloc_free|alloc_reset|alloc_idle|"
            "two_ctx\n",
            argv[0]);
    return 2;
  }
  void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!drv) {
    fprintf(stderr, "teardown_child: %s\n", dlerror());
    return 1;
  }
  CUresult (*init)(unsigned) = (CUresult(*)(unsigned))dlsym(drv, "cuInit");
  CUresult (*retain)(H *, int) = (CUresult(*)(H *, int))dlsym(drv, "cuDevicePrimaryCtxRetain");
  CUresult (*release)(int) = (CUresult(*)(int))dlsym(drv, "cuDevicePrimaryCtxRelease_v2");
  CUresult (*reset)(int) = (CUresult(*)(int))dlsym(drv, "cuDevicePrimaryCtxReset_v2");
  CUresult (*set)(H) = (CUresult(*)(H))dlsym(drv, "cuCtxSetCurrent");
  CUresult (*alloc)(uint64_t *, size_t) = (CUresult(*)(uint64_t *, size_t))dlsym(drv, "cuMemAlloc_v2");
  CUresult (*free_)(uint64_t) = (CUresult(*)(uint64_t))dlsym(drv, "cuMemFree_v2");
  CUresult (*host_alloc)(void **, size_t, unsigned) =
      (CUresult(*)(void **, size_t, unsigned))dlsym(drv, "cuMemHostAlloc");
  CUresult (*host_free)(void *) = (CUresult(*)(void *))dlsym(drv, "cuMemFreeHost");
  CUresult (*htod)(uint64_t, const void *, size_t) =
      (CUresult(*)(uint64_t, const void *, size_t))dlsym(drv, "cuMemcpyHtoD_v2");
  CUresult (*create)(H *, void *, unsigned, int) =
      (CUresult(*)(H *, void *, unsigned, int))dlsym(drv, "cuCtxCreate_v4");
  CUresult (*destroy)(H) = (CUresult(*)(H))dlsym(drv, "cuCtxDestroy_v2");
  if (!init || !retain || !release || !reset || !set || !alloc || !free_ || !host_alloc ||
      !host_free || !htod || !create || !destroy) {
    fprintf(stderr, "teardown_child: a driver function is missing\n");
    return 1;
  }
  CUresult rc = 0;
#define CALL(x) \
  if (!rc) rc = (x)
  uint64_t t0 = now_ns();
  CALL(init(0));
  H ctx = NULL;
  uint64_t dptr = 0;
  void *pinned = NULL;
  int with_ctx = strcmp(mode, "init") != 0;
  int with_alloc = !strncmp(mode, "alloc", 5);
  if (with_ctx) {
    CALL(retain(&ctx, 0));
    CALL(set(ctx));
  }
  if (with_alloc) {
    CALL(alloc(&dptr, 64u << 20));
    CALL(host_alloc(&pinned, 1u << 20, 0));
    if (!rc) memset(pinned, 1, 1u << 20);
    CALL(htod(dptr, pinned, 1u << 20));
  }
  uint64_t t1 = now_ns();
  if (!strcmp(mode, "ctx_release")) {
    CALL(set(NULL));
    CALL(release(0));
  } else if (!strcmp(mode, "ctx_reset") || !strcmp(mode, "alloc_reset")) {
    CALL(reset(0));
  } else if (!strcmp(mode, "alloc_free")) {
    CALL(free_(dptr));
    CALL(host_free(pinned));
  } else if (!strcmp(mode, "alloc_idle")) {
    struct timespec idle = {0, 300 * 1000 * 1000};
    nanosleep(&idle, NULL);
  } else if (!strcmp(mode, "two_ctx")) {
    H other = NULL;
    CALL(create(&other, NULL, 0, 0));
    CALL(destroy(other));
    CALL(set(ctx));
  }
  uint64_t t2 = now_ns();
  printf("teardown mode=%s rc=%d setup_ns=%llu end_ns=%llu t_exit=%llu\n", mode, rc,
         (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1),
         (unsigned long long)now_ns());
  fflush(stdout);
  return rc ? 1 : 0;
}
