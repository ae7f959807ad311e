// scale_threads: create/destroy throughput from T threads at once (issue
// 30), T = 1, 2, 4, ... SCALE_THREADS_MAX (64). For each T, three phases,
// each started by a barrier so every thread works at the same time:
//   threads.event_pair   cudaEventCreate + cudaEventDestroy, SCALE_THREAD_EVENTS
//                        (2000) per thread
//   threads.stream_pair  cudaStreamCreateWithFlags(NonBlocking) + destroy,
//                        SCALE_THREAD_STREAMS (200) per thread
//   threads.alloc_pair   cudaMalloc(256) + cudaFree, SCALE_THREAD_ALLOCS (2000)
//                        per thread
//   threads.drv_event_pair  the driver's cuEventCreate + cuEventDestroy (found
//                        through the runtime), SCALE_THREAD_EVENTS per thread:
//                        what the driver's own calls cost from T threads in
//                        the same process, beside threads.event_pair
// ns_per_op is the wall time of the phase (barrier release to the last
// thread's end) over all pairs of all threads (aggregate: lower is more
// throughput); "per_thread_ns" is the wall time over the pairs of one
// thread; "ops_per_s" the aggregate rate. The threads are made (and have
// called cudaSetDevice(0) and made one pair of each) before any timing; they
// wait for a phase on a condition variable (no spinning), so the wall time
// includes waking T threads (a few microseconds against milliseconds).
#include "scale.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

int main() {
  const long tmax = env_long("SCALE_THREADS_MAX", 64);
  const long n_ev = env_long("SCALE_THREAD_EVENTS", 2000);
  const long n_st = env_long("SCALE_THREAD_STREAMS", 200);
  const long n_al = env_long("SCALE_THREAD_ALLOCS", 2000);
  SCK(cudaFree(0));
  typedef int (*EvCreate)(void **, unsigned);
  typedef int (*EvDestroy)(void *);
  const EvCreate drv_create = (EvCreate)driver_entry("cuEventCreate");
  const EvDestroy drv_destroy = (EvDestroy)driver_entry("cuEventDestroy");
  const int phases = drv_create && drv_destroy ? 4 : 3;
  Budget budget;
  for (long t = 1; t <= tmax; t *= 2) {
    const char *names[4] = {"threads.event_pair", "threads.stream_pair", "threads.alloc_pair",
                            "threads.drv_event_pair"};
    const long per[4] = {n_ev, n_st, n_al, n_ev};
    std::mutex mu;
    std::condition_variable cv;
    int ready = 0, phase_go = -1, done = 0;  // under mu
    std::atomic<int> failed{0};
    std::atomic<cudaError_t> first_err{cudaSuccess};
    std::vector<std::thread> th;
    for (long i = 0; i < t; i++)
      th.emplace_back([&]() {
        cudaEvent_t ev;
        cudaStream_t st;
        void *p;
        cudaError_t e = cudaSetDevice(0);
        if (e == cudaSuccess) e = cudaEventCreate(&ev);
        if (e == cudaSuccess) e = cudaEventDestroy(ev);
        if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaStreamDestroy(st);
        if (e == cudaSuccess) e = cudaMalloc(&p, 256);
        if (e == cudaSuccess) e = cudaFree(p);
        if (e != cudaSuccess && !failed.exchange(1)) first_err = e;
        {
          std::lock_guard<std::mutex> l(mu);
          ready++;
        }
        cv.notify_all();
        for (int ph = 0; ph < phases; ph++) {
          {
            std::unique_lock<std::mutex> l(mu);
            cv.wait(l, [&] { return phase_go >= ph; });
          }
          for (long k = 0; k < per[ph] && e == cudaSuccess; k++) {
            if (ph == 0) {
              e = cudaEventCreate(&ev);
              if (e == cudaSuccess) e = cudaEventDestroy(ev);
            } else if (ph == 1) {
              e = cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
              if (e == cudaSuccess) e = cudaStreamDestroy(st);
            } else if (ph == 2) {
              e = cudaMalloc(&p, 256);
              if (e == cudaSuccess) e = cudaFree(p);
            } else {
              void *de = nullptr;
              if (drv_create(&de, 0) != 0 || drv_destroy(de) != 0) e = cudaErrorUnknown;
            }
          }
          if (e != cudaSuccess && !failed.exchange(1)) first_err = e;
          {
            std::lock_guard<std::mutex> l(mu);
            done++;
          }
          cv.notify_all();
        }
      });
    {
      std::unique_lock<std::mutex> l(mu);
      cv.wait(l, [&] { return ready == (int)t; });
    }
    for (int ph = 0; ph < phases; ph++) {
      int target = (int)t * (ph + 1);
      uint64_t t0 = now_ns();
      {
        std::lock_guard<std::mutex> l(mu);
        phase_go = ph;
      }
      cv.notify_all();
      {
        std::unique_lock<std::mutex> l(mu);
        cv.wait(l, [&] { return done >= target; });
      }
      double wall = (double)(now_ns() - t0);
      if (failed.load()) {
        emit_stop(names[ph], t, "a thread's call failed", first_err.load());
        continue;
      }
      long ops = t * per[ph];
      emit(names[ph], t, wall, ops,
           kv("per_thread_ns", wall / per[ph]) + kv("ops_per_s", ops / (wall / 1e9)));
    }
    for (auto &x : th) x.join();
    if (failed.load()) break;
    if (budget.spent() && t * 2 <= tmax) {
      emit_stop("threads.event_pair", t, "time budget (SCALE_BENCH_SECONDS)");
      break;
    }
  }
  return 0;
}
