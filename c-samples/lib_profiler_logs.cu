// lib_profiler_logs: cudaProfilerStart/Stop around a kernel (no profiler
// attached: they must still answer), and the driver's error log:
// cudaLogsCurrent, a refused allocation that the driver logs,
// cudaLogsDumpToMemory and cudaLogsDumpToFile from the iterator, a log
// callback registered and unregistered, and the reserved flags. Log
// contents and sizes go to stderr: only whether the calls succeed is
// compared.
#define SAMPLE_NAME "lib_profiler_logs"
#include "common/check.h"
#include <atomic>
#include <string.h>
#include <unistd.h>

// cuda_profiler_api.h is not among the headers of the CUDA 13 wheels.
extern "C" cudaError_t CUDARTAPI cudaProfilerStart(void);
extern "C" cudaError_t CUDARTAPI cudaProfilerStop(void);

__global__ void touch(int *p) { *p = 42; }

static std::atomic<int> g_callbacks{0};
static void CUDART_CB on_log(void *data, cudaLogLevel level, char *message, size_t length) {
  (void)data;
  g_callbacks++;
  fprintf(stderr, "log callback (level %d): %.*s\n", (int)level, (int)length, message);
}

// A driver call that fails: an allocation far beyond any device.
static void provoke_error(void) {
  void *p = NULL;
  cudaError_t e = cudaMalloc(&p, (size_t)1 << 50);
  EXPECT(e == cudaErrorMemoryAllocation, "huge cudaMalloc: %s", err_name(e));
  (void)cudaGetLastError();
}

int main() {
  CK(cudaSetDevice(0));
  int *d = NULL;
  CK(cudaMalloc(&d, sizeof(int)));

  // 1. Profiler.
  cudaError_t e = cudaProfilerStart();
  printf("cudaProfilerStart: %s\n", err_name(e));
  touch<<<1, 1>>>(d);
  CK_LAUNCH();
  e = cudaProfilerStop();
  printf("cudaProfilerStop: %s\n", err_name(e));
  (void)cudaGetLastError();
  int v = 0;
  CK(cudaMemcpy(&v, d, sizeof(v), cudaMemcpyDeviceToHost));
  EXPECT(v == 42, "kernel between start and stop");

  // 2. Logs: iterator, an error, dump to memory.
  cudaLogIterator it = 0;
  CK(cudaLogsCurrent(&it, 0));
  cudaLogIterator start = it;
  provoke_error();
  static char buf[25600 + 1];
  size_t size = sizeof(buf);
  CK(cudaLogsDumpToMemory(&it, buf, &size, 0));
  fprintf(stderr, "dumped %zu bytes: %s\n", size, buf);
  printf("dump to memory: cudaSuccess; terminated: %s\n", strlen(buf) == size ? "yes" : "no");
  // Nothing new since: an empty dump.
  size_t size2 = sizeof(buf);
  CK(cudaLogsDumpToMemory(&it, buf, &size2, 0));
  fprintf(stderr, "second dump: %zu bytes\n", size2);

  // 3. Dump to a file, from the start iterator (and everything: NULL).
  char path[] = "/tmp/lib_profiler_logs_XXXXXX";
  int fd = mkstemp(path);
  EXPECT(fd >= 0, "mkstemp");
  close(fd);
  cudaLogIterator from = start;
  CK(cudaLogsDumpToFile(&from, path, 0));
  CK(cudaLogsDumpToFile(NULL, path, 0));
  FILE *f = fopen(path, "r");
  EXPECT(f != NULL, "log file missing");
  fseek(f, 0, SEEK_END);
  fprintf(stderr, "log file: %ld bytes\n", ftell(f));
  fclose(f);
  unlink(path);
  printf("dump to file: cudaSuccess\n");

  // 4. A callback.
  cudaLogsCallbackHandle handle = NULL;
  CK(cudaLogsRegisterCallback(on_log, NULL, &handle));
  EXPECT(handle != NULL, "no callback handle");
  provoke_error();
  fprintf(stderr, "callbacks: %d\n", g_callbacks.load());
  CK(cudaLogsUnregisterCallback(handle));
  int before = g_callbacks.load();
  provoke_error();
  EXPECT(g_callbacks.load() == before, "callback called after unregistering");
  printf("callback registered and unregistered\n");

  // 5. Bad arguments.
  e = cudaLogsCurrent(&it, 1);
  printf("cudaLogsCurrent(flags 1): %s\n", err_name(e));
  (void)cudaGetLastError();
  CK_EQ(cudaLogsCurrent(NULL, 0), cudaErrorInvalidValue);
  e = cudaLogsRegisterCallback(NULL, NULL, &handle);
  printf("register NULL callback: %s\n", err_name(e));
  (void)cudaGetLastError();
  e = cudaLogsDumpToMemory(&it, buf, NULL, 0);
  printf("dump to memory without size: %s\n", err_name(e));
  (void)cudaGetLastError();

  CK(cudaFree(d));
  return sample_pass();
}
