// mixed_runtime_handles: a valid handle made by another runtime in the
// process is never refused. libforeign.so carries NVIDIA's static runtime
// (foreign.cu); the program runs on the process's libcudart.so.13. Each
// round the program makes and destroys streams and events of its own, so
// its runtime has seen those addresses destroyed; then the library makes
// live ones, for which the driver may hand out the same addresses again,
// and the program uses them: launches, records, waits, queries and
// synchronizations, on the library's handles and between them and its
// own stream. Every call must succeed: a refusal of a live handle is a
// false refusal. stderr says how many of the library's handles reused an
// address the program's runtime had seen destroyed.
#define SAMPLE_NAME "mixed_runtime_handles"
#include "common/check.h"
#include <set>

extern "C" int foreign_make(int n, cudaStream_t *streams, cudaEvent_t *events);
extern "C" int foreign_destroy(int n, cudaStream_t *streams, cudaEvent_t *events);
extern "C" int foreign_launch(cudaStream_t stream, int *counter);

__global__ void bump(int *v) { atomicAdd(v, 1); }

static int calls = 0, refused = 0;

// A call on the library's handles: it must succeed (or, for a query,
// answer cudaErrorNotReady).
static void use(cudaError_t e, const char *what, int round, bool query) {
  calls++;
  if (e == cudaSuccess || (query && e == cudaErrorNotReady)) return;
  cudaGetLastError();
  if (refused++ < 10)
    fprintf(stderr, "round %d: %s -> %s\n", round, what, cudaGetErrorName(e));
}

int main() {
  const int rounds = 200, per = 4;
  int *counter;
  CK(cudaMalloc(&counter, 2 * sizeof(int)));
  CK(cudaMemset(counter, 0, 2 * sizeof(int)));
  cudaStream_t mine;
  CK(cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking));

  std::set<void *> destroyed;
  int handed = 0, reused = 0;
  for (int r = 0; r < rounds; r++) {
    // The program's own objects, made and destroyed through its runtime.
    cudaStream_t s[per];
    cudaEvent_t e[per];
    for (int i = 0; i < per; i++) {
      CK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
      CK(cudaEventCreateWithFlags(&e[i], cudaEventDisableTiming));
    }
    for (int i = 0; i < per; i++) {
      CK(cudaEventDestroy(e[i]));
      CK(cudaStreamDestroy(s[i]));
      destroyed.insert((void *)s[i]);
      destroyed.insert((void *)e[i]);
    }

    // The library's live objects, made through NVIDIA's static runtime.
    cudaStream_t fs[per];
    cudaEvent_t fe[per];
    int fr = foreign_make(per, fs, fe);
    if (fr) sample_fail("round %d: foreign_make -> %s", r, err_name((cudaError_t)fr));
    for (int i = 0; i < per; i++) {
      handed += 2;
      reused += destroyed.count((void *)fs[i]) + destroyed.count((void *)fe[i]);
    }

    for (int i = 0; i < per; i++) {
      bump<<<1, 1, 0, fs[i]>>>(counter);
      use(cudaGetLastError(), "bump<<<1, 1, 0, library stream>>>", r, false);
      int lr = foreign_launch(fs[i], counter + 1);
      if (lr) sample_fail("round %d: foreign_launch -> %s", r, err_name((cudaError_t)lr));
      use(cudaEventRecord(fe[i], fs[i]), "cudaEventRecord(library event, library stream)", r, false);
      use(cudaStreamWaitEvent(fs[(i + 1) % per], fe[i], 0),
          "cudaStreamWaitEvent(library stream, library event)", r, false);
      use(cudaStreamWaitEvent(mine, fe[i], 0), "cudaStreamWaitEvent(own stream, library event)", r, false);
      use(cudaStreamQuery(fs[i]), "cudaStreamQuery(library stream)", r, true);
      use(cudaEventQuery(fe[i]), "cudaEventQuery(library event)", r, true);
      unsigned flags = 0;
      cudaError_t fe_ = cudaStreamGetFlags(fs[i], &flags);
      use(fe_, "cudaStreamGetFlags(library stream)", r, false);
      if (fe_ == cudaSuccess && flags != cudaStreamNonBlocking)
        sample_fail("round %d: library stream flags %u", r, flags);
    }
    for (int i = 0; i < per; i++) {
      use(cudaEventSynchronize(fe[i]), "cudaEventSynchronize(library event)", r, false);
      use(cudaStreamSynchronize(fs[i]), "cudaStreamSynchronize(library stream)", r, false);
    }
    CK(cudaStreamSynchronize(mine));
    fr = foreign_destroy(per, fs, fe);
    if (fr) sample_fail("round %d: foreign_destroy -> %s", r, err_name((cudaError_t)fr));
  }
  CK(cudaDeviceSynchronize());
  int got[2];
  CK(cudaMemcpy(got, counter, sizeof got, cudaMemcpyDeviceToHost));
  fprintf(stderr, "library handles reusing an address the program's runtime saw destroyed: %d of %d\n",
          reused, handed);
  printf("rounds: %d, calls on the library's handles: %d\n", rounds, calls);
  printf("false refusals: %d\n", refused);
  if (refused) sample_fail("%d calls refused a live handle of the library's runtime", refused);
#ifndef NO_KERNEL_RESULTS
  if (got[0] != rounds * per || got[1] != rounds * per)
    sample_fail("kernel counts %d and %d, want %d", got[0], got[1], rounds * per);
  printf("kernels on the library's streams: %d and %d, all ran\n", got[0], got[1]);
#endif
  CK(cudaStreamDestroy(mine));
  CK(cudaFree(counter));
  return sample_pass();
}
