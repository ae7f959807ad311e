// ext_semaphore: external semaphores where no graphics API exports one
// (CUDA cannot export a semaphore itself). Every import kind with an
// invalid handle (opaque fd -1, timeline fd -1, a regular file's fd,
// Win32 handles on Linux, NvSciSync without an object, keyed mutexes,
// unknown types), null arguments, and signal/wait of zero semaphores on
// the legacy, per-thread and a created stream, through the plain and the
// `_ptsz` exports. Error NAMES are printed (the driver decides most of
// them); the runtime must keep working afterwards.
#define SAMPLE_NAME "ext_semaphore"
#include "common/check.h"
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

// The per-thread-default-stream exports, called by name (a program built
// with --default-stream per-thread reaches them through the headers).
extern "C" cudaError_t cudaSignalExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *, const cudaExternalSemaphoreSignalParams *, unsigned int,
    cudaStream_t);
extern "C" cudaError_t cudaWaitExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *, const cudaExternalSemaphoreWaitParams *, unsigned int,
    cudaStream_t);

__global__ void touch(int *p) { *p += 1; }

static void import_fd(const char *what, cudaExternalSemaphoreHandleType type, int fd) {
  cudaExternalSemaphoreHandleDesc d;
  memset(&d, 0, sizeof(d));
  d.type = type;
  d.handle.fd = fd;
  cudaExternalSemaphore_t sem = NULL;
  cudaError_t e = cudaImportExternalSemaphore(&sem, &d);
  printf("import %-44s %s\n", what, err_name(e));
  if (e == cudaSuccess) CK(cudaDestroyExternalSemaphore(sem));
  (void)cudaGetLastError();
}

static void import_ptr(const char *what, cudaExternalSemaphoreHandleType type, void *handle) {
  cudaExternalSemaphoreHandleDesc d;
  memset(&d, 0, sizeof(d));
  d.type = type;
  d.handle.win32.handle = handle;  // the same bytes as nvSciSyncObj
  cudaExternalSemaphore_t sem = NULL;
  cudaError_t e = cudaImportExternalSemaphore(&sem, &d);
  printf("import %-44s %s\n", what, err_name(e));
  if (e == cudaSuccess) CK(cudaDestroyExternalSemaphore(sem));
  (void)cudaGetLastError();
}

int main() {
  CK(cudaFree(0));

  import_fd("opaque fd -1", cudaExternalSemaphoreHandleTypeOpaqueFd, -1);
  import_fd("timeline semaphore fd -1", cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd, -1);
  int file = open("/proc/self/exe", O_RDONLY);
  EXPECT(file >= 0, "cannot open /proc/self/exe");
  // A duplicate: a successful import would own it.
  import_fd("opaque fd of a regular file", cudaExternalSemaphoreHandleTypeOpaqueFd, dup(file));
  close(file);
  import_ptr("opaque Win32 NULL", cudaExternalSemaphoreHandleTypeOpaqueWin32, NULL);
  import_ptr("opaque Win32 KMT NULL", cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt, NULL);
  import_ptr("D3D12 fence NULL", cudaExternalSemaphoreHandleTypeD3D12Fence, NULL);
  import_ptr("D3D11 fence NULL", cudaExternalSemaphoreHandleTypeD3D11Fence, NULL);
  import_ptr("NvSciSync NULL", cudaExternalSemaphoreHandleTypeNvSciSync, NULL);
  import_ptr("keyed mutex NULL", cudaExternalSemaphoreHandleTypeKeyedMutex, NULL);
  import_ptr("keyed mutex KMT NULL", cudaExternalSemaphoreHandleTypeKeyedMutexKmt, NULL);
  import_ptr("timeline Win32 NULL", cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32, NULL);
  import_fd("type 0", (cudaExternalSemaphoreHandleType)0, -1);
  import_fd("type 11", (cudaExternalSemaphoreHandleType)11, -1);

  cudaExternalSemaphoreHandleDesc d;
  memset(&d, 0, sizeof(d));
  d.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
  d.handle.fd = -1;
  cudaExternalSemaphore_t sem = NULL;
  printf("import, null descriptor                            %s\n",
         err_name(cudaImportExternalSemaphore(&sem, NULL)));
  printf("import, null output                                %s\n",
         err_name(cudaImportExternalSemaphore(NULL, &d)));
  printf("destroy NULL                                       %s\n",
         err_name(cudaDestroyExternalSemaphore(NULL)));
  (void)cudaGetLastError();

  // Zero semaphores: nothing to signal or wait for, on each kind of stream.
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  struct {
    const char *name;
    cudaStream_t stream;
  } streams[] = {{"legacy", 0}, {"per-thread", cudaStreamPerThread}, {"created", s}};
  for (auto &st : streams) {
    printf("signal 0 semaphores, %-10s stream           %s\n", st.name,
           err_name(cudaSignalExternalSemaphoresAsync(NULL, NULL, 0, st.stream)));
    printf("wait 0 semaphores, %-10s stream             %s\n", st.name,
           err_name(cudaWaitExternalSemaphoresAsync(NULL, NULL, 0, st.stream)));
    printf("signal_ptsz 0 semaphores, %-10s stream      %s\n", st.name,
           err_name(cudaSignalExternalSemaphoresAsync_ptsz(NULL, NULL, 0, st.stream)));
    printf("wait_ptsz 0 semaphores, %-10s stream        %s\n", st.name,
           err_name(cudaWaitExternalSemaphoresAsync_ptsz(NULL, NULL, 0, st.stream)));
    (void)cudaGetLastError();
  }
  printf("signal 1 semaphore, null arrays                    %s\n",
         err_name(cudaSignalExternalSemaphoresAsync(NULL, NULL, 1, s)));
  printf("wait 1 semaphore, null arrays                      %s\n",
         err_name(cudaWaitExternalSemaphoresAsync(NULL, NULL, 1, s)));
  (void)cudaGetLastError();

  // The runtime still works, on the stream the calls above used.
  int *p = NULL, h = 0;
  CK(cudaMalloc(&p, sizeof(int)));
  CK(cudaMemsetAsync(p, 0, sizeof(int), s));
  touch<<<1, 1, 0, s>>>(p);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(&h, p, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(h == 1, "kernel result %d", h);
  CK(cudaFree(p));
  CK(cudaStreamDestroy(s));
  printf("launch on the stream afterwards: ok\n");
  return sample_pass();
}
