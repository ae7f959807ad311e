// Helpers for the lifecycle samples (life_*): observe the runtime through
// the driver API and run scenarios in child processes.
//
// Include after <cuda.h> and "common/check.h". The samples print what they
// observe (primary-context state, which context is current, error names)
// so that a run under NVIDIA's runtime and one under ours can be compared
// line by line; they EXPECT only what is documented or was measured.
//
//   life_state(step)      "<step>: primary active flags=0x4; current primary"
//   life_current()        "none" | "primary" | "own" | "other"
//   life_child(...)       runs this program again (fork + exec) with an
//                         argument and one environment variable, prints its
//                         stdout indented under a header, with a timeout
//   life_fork(fn)         forks and runs fn in the child (no exec), same
//                         capture and timeout
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// The program's own driver context, if it made one ("own" in reports).
static CUcontext life_own_ctx = NULL;

static inline const char *life_drv_name(CUresult r) {
  const char *s = NULL;
  if (cuGetErrorName(r, &s) != CUDA_SUCCESS || s == NULL) return "CUDA_ERROR_?";
  return s;
}

// What `c` is: none, device 0's primary context, the program's own, other.
// Looks without changing anything: an inactive primary context cannot be
// current, and retaining an active one only bumps its count for a moment.
static inline const char *life_kind(CUcontext c) {
  if (c == NULL) return "none";
  if (life_own_ctx != NULL && c == life_own_ctx) return "own";
  unsigned int flags = 0;
  int active = 0;
  if (cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS && active) {
    CUcontext p = NULL;
    if (cuDevicePrimaryCtxRetain(&p, 0) == CUDA_SUCCESS) {
      cuDevicePrimaryCtxRelease(0);
      if (p == c) return "primary";
    }
  }
  return "other";
}

// The context current on the calling thread, as life_kind names it.
static inline const char *life_current(void) {
  CUcontext c = NULL;
  CUresult r = cuCtxGetCurrent(&c);
  if (r != CUDA_SUCCESS) return life_drv_name(r);
  return life_kind(c);
}

// Device 0's primary context: "active flags=0x.." or "inactive flags=0x..".
static inline void life_primary(char *buf, size_t len) {
  unsigned int flags = 0;
  int active = -1;
  CUresult r = cuDevicePrimaryCtxGetState(0, &flags, &active);
  if (r != CUDA_SUCCESS)
    snprintf(buf, len, "state %s", life_drv_name(r));
  else
    snprintf(buf, len, "%s flags=0x%x", active ? "active" : "inactive", flags);
}

// Whether device 0's primary context is active (-1: cannot tell).
static inline int life_active(void) {
  unsigned int flags = 0;
  int active = -1;
  if (cuDevicePrimaryCtxGetState(0, &flags, &active) != CUDA_SUCCESS) return -1;
  return active;
}

// "<step>: primary <state>; current <kind>".
static inline void life_state(const char *step) {
  char p[64];
  life_primary(p, sizeof p);
  printf("%s: primary %s; current %s\n", step, p, life_current());
  fflush(stdout);
}

static inline double life_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

// Reads the child's output from `fd` until EOF or `timeout_s`, printing
// each line indented; then reaps `pid` (killing it on timeout). Returns its
// exit status, 128 + signal, or -1 on timeout.
static inline int life_collect(pid_t pid, int fd, int timeout_s) {
  char buf[4096];
  size_t have = 0;
  double end = life_now() + timeout_s;
  int timed_out = 0;
  for (;;) {
    int left_ms = (int)((end - life_now()) * 1000);
    if (left_ms <= 0) {
      timed_out = 1;
      break;
    }
    struct pollfd p = {fd, POLLIN, 0};
    int n = poll(&p, 1, left_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    ssize_t k = read(fd, buf + have, sizeof buf - 1 - have);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    have += (size_t)k;
    char *start = buf, *nl;
    while ((nl = (char *)memchr(start, '\n', have - (size_t)(start - buf))) != NULL) {
      *nl = 0;
      printf("  | %s\n", start);
      start = nl + 1;
    }
    have -= (size_t)(start - buf);
    memmove(buf, start, have);
    if (have == sizeof buf - 1) {  // a line longer than the buffer
      buf[have] = 0;
      printf("  | %s\n", buf);
      have = 0;
    }
  }
  if (have > 0) {
    buf[have] = 0;
    printf("  | %s\n", buf);
  }
  close(fd);
  if (timed_out) kill(pid, SIGKILL);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    printf("  (child killed after %d s: it hung)\n", timeout_s);
    return -1;
  }
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  if (WIFSIGNALED(st)) {
    printf("  (child died of signal %d)\n", WTERMSIG(st));
    return 128 + WTERMSIG(st);
  }
  return -1;
}

// Runs this program again with argv[1] = `arg` (and `var`=`value` in its
// environment when `var` is not NULL; `value` NULL removes it). Prints
// "[<title>]" and the child's stdout indented; returns its exit status.
static inline int life_child(const char *title, const char *arg, const char *var,
                             const char *value, int timeout_s) {
  printf("[%s]\n", title);
  fflush(stdout);
  int fds[2];
  if (pipe(fds) != 0) sample_fail("pipe: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0) sample_fail("fork: %s", strerror(errno));
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    if (var != NULL) {
      if (value != NULL)
        setenv(var, value, 1);
      else
        unsetenv(var);
    }
    execl("/proc/self/exe", "child", arg, (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  return life_collect(pid, fds[0], timeout_s);
}

// Forks; the child runs `fn` with its stdout captured and exits with its
// result (no exec: the child inherits the parent's runtime state).
static inline int life_fork(const char *title, int (*fn)(void), int timeout_s) {
  printf("[%s]\n", title);
  fflush(stdout);
  fflush(stderr);
  int fds[2];
  if (pipe(fds) != 0) sample_fail("pipe: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0) sample_fail("fork: %s", strerror(errno));
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    int rc = fn();
    fflush(stdout);
    _exit(rc);
  }
  close(fds[1]);
  return life_collect(pid, fds[0], timeout_s);
}

// Prints "<what> -> <error name>" and returns the error.
static inline cudaError_t life_report(const char *what, cudaError_t e) {
  printf("%s -> %s\n", what, cudaGetErrorName(e));
  fflush(stdout);
  return e;
}
#define LIFE(call) life_report(#call, (call))

// A soft expectation: prints "unexpected: ..." and counts it; the sample
// fails at its end (life_finish) so that everything after is still shown.
static int life_bad = 0;
#define SOFT(cond, ...)                                                        \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("unexpected: ");                                                  \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
      fflush(stdout);                                                          \
      life_bad++;                                                              \
    }                                                                          \
  } while (0)

// PASS, or FAIL naming how many soft expectations failed.
static inline int life_finish(void) {
  EXPECT(life_bad == 0, "%d expectation(s) not met (lines starting with 'unexpected:')",
         life_bad);
  return sample_pass();
}
