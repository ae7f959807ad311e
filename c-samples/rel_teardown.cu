// rel_teardown: processes that end with work in flight. Each scenario is a
// child process (this program run again with the scenario's name); the
// parent prints how each ended. EXPECTed: every child exits with status 0,
// no signal, no hang (20 s each).
//   running     exit() while a kernel runs, with live streams, events,
//               allocations (device, pinned, managed, pool) and a graph
//   return      the same, returning from main
//   threads     exit() while 4 other threads are launching and copying
//   library     a library with kernels opened and used, exit() without
//               dlclose (its destructors run before ours)
//   closed      the same library closed before exit
//   fault       exit() after a kernel fault (the sticky error)
//   destructor  a static object's destructor frees memory and
//               synchronizes at exit
#define SAMPLE_NAME "rel_teardown"
#include "common/check.h"

#include <atomic>
#include <dlfcn.h>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

__global__ void spin(long long cycles, int *flag) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
  if (flag) *flag = 1;
}

__global__ void fault(int *p) { *p = 1; }

static std::string g_dir;

static void live_everything() {
  cudaStream_t s;
  cudaEvent_t e;
  void *d, *h, *m, *a;
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CK(cudaEventCreate(&e));
  CK(cudaMalloc(&d, 1 << 20));
  CK(cudaMallocHost(&h, 1 << 20));
  CK(cudaMallocManaged(&m, 1 << 20));
  CK(cudaMallocAsync(&a, 1 << 20, s));
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  spin<<<1, 1, 0, s>>>(1000, nullptr);
  CK(cudaStreamEndCapture(s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  CK(cudaGraphLaunch(ge, s));
  spin<<<1, 1, 0, s>>>(2000000000LL, (int *)d);  // about a second
  CK(cudaEventRecord(e, s));
  CK(cudaGetLastError());
}

namespace {
struct AtExitUser {
  int *buf = nullptr;
  ~AtExitUser() {
    if (buf) {
      // Whatever the runtime answers at this point, it must not crash.
      cudaError_t f = cudaFree(buf);
      cudaError_t s = cudaDeviceSynchronize();
      fprintf(stderr, "destructor: cudaFree -> %s, cudaDeviceSynchronize -> %s\n",
              cudaGetErrorName(f), cudaGetErrorName(s));
    }
  }
} g_user;
}  // namespace

static int child(const char *what) {
  std::string w = what;
  if (w == "running") {
    live_everything();
    exit(0);
  }
  if (w == "return") {
    live_everything();
    return 0;
  }
  if (w == "threads") {
    CK(cudaFree(0));
    std::atomic<int> started{0};
    for (int t = 0; t < 4; t++) {
      std::thread([&started] {
        int *d = nullptr;
        int h = 0;
        cudaStream_t s;
        if (cudaStreamCreate(&s) != cudaSuccess || cudaMalloc(&d, sizeof(int)) != cudaSuccess) return;
        started++;
        for (;;) {  // until the process ends under it
          spin<<<1, 1, 0, s>>>(10000, d);
          cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, s);
          cudaStreamSynchronize(s);
        }
      }).detach();
    }
    while (started.load() < 4) usleep(1000);
    usleep(200000);
    exit(0);
  }
  if (w == "library" || w == "closed") {
    void *h = dlopen((g_dir + "librelfire.so").c_str(), RTLD_NOW);
    if (!h) sample_fail("dlopen: %s", dlerror());
    auto run = (int (*)(int))dlsym(h, "fire_run");
    EXPECT(run && run(3) == 0, "fire_run failed");
    if (w == "closed") EXPECT(dlclose(h) == 0, "dlclose");
    live_everything();
    exit(0);
  }
  if (w == "fault") {
    CK(cudaFree(0));
    fault<<<1, 1>>>(nullptr);
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "fault: cudaDeviceSynchronize -> %s\n", cudaGetErrorName(e));
    exit(0);
  }
  if (w == "destructor") {
    CK(cudaMalloc(&g_user.buf, 4096));
    live_everything();
    exit(0);
  }
  fprintf(stderr, "unknown scenario %s\n", what);
  return 3;
}

int main(int argc, char **argv) {
  std::string self = argv[0];
  g_dir = self.substr(0, self.rfind('/') + 1);
  if (argc == 2) return child(argv[1]);

  const char *scenarios[] = {"running", "return", "threads", "library", "closed", "fault",
                             "destructor"};
  int bad = 0;
  for (const char *sc : scenarios) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      execl(argv[0], argv[0], sc, (char *)nullptr);
      _exit(127);
    }
    int status = 0;
    int waited = 0;
    pid_t r = 0;
    while ((r = waitpid(pid, &status, WNOHANG)) == 0 && waited < 20000) {
      usleep(10000);
      waited += 10;
    }
    if (r == 0) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      printf("%-10s: hung (killed after 20 s)\n", sc);
      bad++;
    } else if (WIFSIGNALED(status)) {
      printf("%-10s: killed by signal %d\n", sc, WTERMSIG(status));
      bad++;
    } else {
      printf("%-10s: exit status %d\n", sc, WEXITSTATUS(status));
      if (WEXITSTATUS(status) != 0) bad++;
    }
  }
  EXPECT(bad == 0, "%d scenario(s) did not end cleanly", bad);
  return sample_pass();
}
