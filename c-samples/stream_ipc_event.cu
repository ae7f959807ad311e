// stream_ipc_event: an interprocess event shared with a child process.
// The parent queues a kernel held back by a flag in mapped host memory,
// records an event (cudaEventInterprocess | cudaEventDisableTiming) behind
// it and passes cudaIpcGetEventHandle's handle to a child it forks and
// execs (this program with --child). The child opens the handle
// (cudaIpcOpenEventHandle), sees it not ready, tells the parent through a
// pipe, and waits on it (cudaEventSynchronize, cudaStreamWaitEvent) once
// the parent has released the kernel. Events without the interprocess
// flag have no handle.
#define SAMPLE_NAME "stream_ipc_event"
#include "common/check.h"
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__global__ void gate(volatile int *flag, int *out, long long max_cycles) {
  long long t0 = clock64();
  while (*flag == 0) {
    if (clock64() - t0 > max_cycles) {  // never hang: report instead
      *out = -1;
      return;
    }
  }
  *out = 1;
}

static void to_hex(const cudaIpcEventHandle_t &h, char *out) {
  const unsigned char *b = (const unsigned char *)&h;
  for (size_t i = 0; i < sizeof(h); i++) sprintf(out + 2 * i, "%02x", b[i]);
}

static bool from_hex(const char *s, cudaIpcEventHandle_t *h) {
  if (strlen(s) != 2 * sizeof(*h)) return false;
  unsigned char *b = (unsigned char *)h;
  for (size_t i = 0; i < sizeof(*h); i++) {
    unsigned v;
    if (sscanf(s + 2 * i, "%2x", &v) != 1) return false;
    b[i] = (unsigned char)v;
  }
  return true;
}

static int child(const char *hex, int fd) {
  cudaIpcEventHandle_t h;
  EXPECT(from_hex(hex, &h), "child: bad handle text");
  cudaEvent_t e = NULL;
  CK(cudaIpcOpenEventHandle(&e, h));
  EXPECT(e != NULL, "child: no event");
  cudaError_t q = cudaEventQuery(e);
  printf("child: opened the event; query before release: %s\n", err_name(q));
  (void)cudaGetLastError();
  EXPECT(write(fd, "q", 1) == 1, "child: pipe write");
  close(fd);
  CK(cudaEventSynchronize(e));
  printf("child: cudaEventSynchronize: cudaSuccess; query after: %s\n", err_name(cudaEventQuery(e)));
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CK(cudaStreamWaitEvent(s, e, 0));
  CK(cudaStreamSynchronize(s));
  printf("child: a stream waited on the event\n");
  CK(cudaStreamDestroy(s));
  CK(cudaEventDestroy(e));
  printf("child: done\n");
  fflush(stdout);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--child") == 0) return child(argv[2], atoi(argv[3]));

  CK(cudaSetDevice(0));
  int supported = 0;
  CK(cudaDeviceGetAttribute(&supported, cudaDevAttrIpcEventSupport, 0));
  printf("IPC events supported: %s\n", supported ? "yes" : "no");
  EXPECT(supported, "this sample needs IPC event support");

  // Events that cannot be shared.
  cudaEvent_t plain, timing_ipc;
  CK(cudaEventCreate(&plain));
  cudaIpcEventHandle_t h;
  cudaError_t e = cudaIpcGetEventHandle(&h, plain);
  printf("handle of an event without cudaEventInterprocess: %s\n", err_name(e));
  EXPECT(e != cudaSuccess, "a plain event must have no IPC handle");
  (void)cudaGetLastError();
  e = cudaEventCreateWithFlags(&timing_ipc, cudaEventInterprocess);
  printf("interprocess event with timing: %s\n", err_name(e));
  if (e == cudaSuccess) CK(cudaEventDestroy(timing_ipc));
  (void)cudaGetLastError();
  // NVIDIA's runtime checks the event first: cudaErrorInvalidResourceHandle
  // for a plain event, whatever the handle pointer; print what comes back.
  e = cudaIpcGetEventHandle(NULL, plain);
  printf("cudaIpcGetEventHandle(NULL, plain event): %s\n", err_name(e));
  EXPECT(e != cudaSuccess, "a NULL handle pointer must be refused");
  (void)cudaGetLastError();
  CK(cudaEventDestroy(plain));

  // The shared event, behind a held kernel.
  int *flag = NULL, *dflag = NULL, *out = NULL;
  CK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  *(volatile int *)flag = 0;
  CK(cudaHostGetDevicePointer(&dflag, flag, 0));
  CK(cudaMalloc(&out, sizeof(int)));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t ev;
  CK(cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming));
  gate<<<1, 1, 0, s>>>(dflag, out, 20LL * 1000 * 1000 * 1000);
  CK(cudaGetLastError());
  CK(cudaEventRecord(ev, s));
  CK(cudaIpcGetEventHandle(&h, ev));
  cudaIpcEventHandle_t h2;
  CK(cudaIpcGetEventHandle(&h2, ev));
  printf("handle is stable: %s\n", memcmp(&h, &h2, sizeof(h)) == 0 ? "yes" : "no");
  CK_EQ(cudaEventQuery(ev), cudaErrorNotReady);
  (void)cudaGetLastError();

  char hex[2 * sizeof(h) + 1];
  to_hex(h, hex);
  int p[2];
  EXPECT(pipe(p) == 0, "pipe");
  char fdtext[16];
  snprintf(fdtext, sizeof(fdtext), "%d", p[1]);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(p[0]);
    execl("/proc/self/exe", argv[0], "--child", hex, fdtext, (char *)NULL);
    _exit(127);
  }
  EXPECT(pid > 0, "fork");
  close(p[1]);
  char c = 0;
  ssize_t got = read(p[0], &c, 1);  // the child has queried the event
  close(p[0]);
  *(volatile int *)flag = 1;  // release the kernel
  __sync_synchronize();
  int status = 0;
  EXPECT(waitpid(pid, &status, 0) == pid, "waitpid");
  EXPECT(got == 1 && c == 'q', "the child did not report its query");
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed (status %d)", status);
  CK(cudaStreamSynchronize(s));
  int result = 0;
  CK(cudaMemcpy(&result, out, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(result == 1, "gate kernel timed out (%d)", result);
  printf("parent: child finished, kernel released\n");

  CK(cudaEventDestroy(ev));
  CK(cudaStreamDestroy(s));
  CK(cudaFree(out));
  CK(cudaFreeHost(flag));
  return sample_pass();
}
