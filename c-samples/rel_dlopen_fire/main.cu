// rel_dlopen_fire: registration under fire. Two threads dlopen librelfire.so
// (a library with kernels), run its kernel, and dlclose it, in a loop, so
// its fatbin is registered and unregistered again and again; meanwhile two
// threads launch the program's own kernels and check them, and one thread
// asks for kernel attributes. REL_FIRE_SECONDS (default 3) long; every
// result checked; a watchdog fails a run that stops making progress.
#define SAMPLE_NAME "rel_dlopen_fire"
#include "../common/check.h"

#include <atomic>
#include <chrono>
#include <dlfcn.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

__global__ void main_inc(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

static std::atomic<bool> g_stop{false};
static std::atomic<int> g_fail{0};
static std::atomic<long> g_progress{0};
static std::atomic<long> g_opens{0}, g_lib_runs{0}, g_launches{0};
static char g_why[256];

static void fail(const char *what, int code) {
  if (g_fail.fetch_add(1) == 0) snprintf(g_why, sizeof g_why, "%s (%d)", what, code);
}

static void opener(const char *path, int tid) {
  int v = tid;
  while (!g_stop.load()) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) { fail(dlerror(), 0); return; }
    auto run = (int (*)(int))dlsym(h, "fire_run");
    if (!run) { fail("dlsym fire_run", 0); return; }
    int r = run(v++ % 100);
    if (r != 0) { fail(r == -1 ? "librelfire: wrong values" : cudaGetErrorName((cudaError_t)r), r); return; }
    if (dlclose(h) != 0) { fail("dlclose", 0); return; }
    g_opens++;
    g_lib_runs++;
    g_progress++;
  }
}

static void launcher() {
  const int n = 1 << 14;
  int *d;
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) { fail("stream", 0); return; }
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) { fail("malloc", 0); return; }
  cudaMemsetAsync(d, 0, n * sizeof(int), s);
  long count = 0;
  while (!g_stop.load()) {
    for (int k = 0; k < 50; k++) main_inc<<<n / 256, 256, 0, s>>>(d, n);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { fail(cudaGetErrorName(e), e); return; }
    count += 50;
    g_launches += 50;
    g_progress++;
    if (count % 1000 == 0) {
      int first = 0;
      cudaMemcpyAsync(&first, d, sizeof first, cudaMemcpyDeviceToHost, s);
      cudaStreamSynchronize(s);
      if (first != count) { fail("program kernel: wrong count", first); return; }
    }
  }
  int last = 0;
  cudaMemcpyAsync(&last, d + n - 1, sizeof last, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  if (last != count) fail("program kernel: wrong final count", last);
  cudaFree(d);
  cudaStreamDestroy(s);
}

static void asker() {
  while (!g_stop.load()) {
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, main_inc);
    if (e != cudaSuccess || a.maxThreadsPerBlock <= 0) { fail("cudaFuncGetAttributes", e); return; }
    g_progress++;
  }
}

int main(int argc, char **argv) {
  double seconds = 3;
  if (const char *e = getenv("REL_FIRE_SECONDS")) seconds = atof(e);
  // The library sits next to the program.
  std::string path = argv[0];
  path = path.substr(0, path.rfind('/') + 1) + "librelfire.so";
  CK(cudaFree(0));

  std::vector<std::thread> ts;
  ts.emplace_back(opener, path.c_str(), 1);
  ts.emplace_back(opener, path.c_str(), 2);
  ts.emplace_back(launcher);
  ts.emplace_back(launcher);
  ts.emplace_back(asker);
  auto t0 = std::chrono::steady_clock::now();
  long last = -1;
  auto since = t0;
  while (true) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto now = std::chrono::steady_clock::now();
    long p = g_progress.load();
    if (p != last) { last = p; since = now; }
    else if (now - since > std::chrono::seconds(30)) {
      printf("FAIL rel_dlopen_fire: watchdog: no progress for 30 s (deadlock?)\n");
      fflush(stdout);
      _exit(2);
    }
    if (g_fail.load() || std::chrono::duration<double>(now - t0).count() >= seconds) break;
  }
  g_stop.store(true);
  for (auto &t : ts) t.join();
  fprintf(stderr, "rel_dlopen_fire: %.0f s: %ld open/run/close rounds of librelfire.so, %ld launches\n",
          seconds, g_opens.load(), g_launches.load());
  EXPECT(g_fail.load() == 0, "%s", g_why);
  EXPECT(g_opens.load() > 0 && g_launches.load() > 0, "no progress");
  printf("2 threads opened, used and closed a library with kernels in a loop while 2 launched and 1 asked for attributes\n");
  printf("every result checked: yes\n");
  // The library is closed: its kernels are gone, the program's still work.
  void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  printf("librelfire.so still loaded at the end: %s\n", h ? "yes" : "no");
  if (h) dlclose(h);
  int *d;
  CK(cudaMalloc(&d, 256 * sizeof(int)));
  CK(cudaMemset(d, 0, 256 * sizeof(int)));
  main_inc<<<1, 256>>>(d, 256);
  CK_LAUNCH();
  CK(cudaFree(d));
  return sample_pass();
}
