// scale_graph: CUDA graphs of N kernel nodes (issue 30), N = 10 ..
// SCALE_GRAPH_MAX (1e5), two shapes:
//   chain    node i depends on node i-1
//   fanout   one root node, every other node depends on it alone
// Each node runs add_k(counter, v): one thread adds v to a counter, so one
// launch of the graph adds N * v, which is checked. At each N and shape:
//   graph.<shape>.build        cudaGraphCreate + N cudaGraphAddKernelNode (ns per node)
//   graph.<shape>.instantiate  cudaGraphInstantiate (ns per node; total_ns the call)
//   graph.<shape>.upload       cudaGraphUpload + synchronize
//   graph.<shape>.launch       cudaGraphLaunch, host time of the call (median
//                              of SCALE_GRAPH_LAUNCHES (5) launches; "min_ns")
//   graph.<shape>.launch_sync  cudaGraphLaunch + cudaStreamSynchronize (median)
//   graph.<shape>.update       cudaGraphExecUpdate from a second graph of the
//                              same shape whose nodes add 2 instead of 1, then
//                              a launch checks the new value
//   graph.<shape>.destroy      cudaGraphExecDestroy + cudaGraphDestroy of both
//   graph.capture.capture      (chain only) N launches captured on a stream,
//                              cudaStreamBeginCapture to EndCapture (ns per launch)
// Lines carry "check": true/false (the counter after the launches).
#include "scale.h"

#include <algorithm>

__global__ void add_k(unsigned long long *c, unsigned long long v) { atomicAdd(c, v); }

static cudaGraph_t build(long n, bool chain, unsigned long long *c, unsigned long long v) {
  cudaGraph_t g;
  SCK(cudaGraphCreate(&g, 0));
  cudaKernelNodeParams p = {};
  void *args[2] = {&c, &v};
  p.func = (void *)add_k;
  p.gridDim = dim3(1);
  p.blockDim = dim3(1);
  p.kernelParams = args;
  cudaGraphNode_t prev = nullptr, root = nullptr;
  for (long i = 0; i < n; i++) {
    cudaGraphNode_t node;
    const cudaGraphNode_t *dep = chain ? &prev : &root;
    size_t ndep = i == 0 ? 0 : 1;
    SCK(cudaGraphAddKernelNode(&node, g, dep, ndep, &p));
    if (i == 0) root = node;
    prev = node;
  }
  return g;
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int main() {
  const long max = env_long("SCALE_GRAPH_MAX", 100000);
  const int launches = (int)env_long("SCALE_GRAPH_LAUNCHES", 5);
  unsigned long long *c;
  SCK(cudaMalloc(&c, sizeof(*c)));
  cudaStream_t s;
  SCK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  // Warm: one small graph through every step.
  {
    cudaGraph_t g = build(2, true, c, 1);
    cudaGraphExec_t x;
    SCK(cudaGraphInstantiate(&x, g, 0));
    SCK(cudaGraphLaunch(x, s));
    SCK(cudaStreamSynchronize(s));
    SCK(cudaGraphExecDestroy(x));
    SCK(cudaGraphDestroy(g));
  }
  Budget budget;
  for (long n : series(10, max)) {
    for (int shape = 0; shape < 2; shape++) {
      const bool chain = shape == 0;
      std::string pre = std::string("graph.") + (chain ? "chain" : "fanout");
      auto name = [&](const char *what) { return pre + "." + what; };

      uint64_t t0 = now_ns();
      cudaGraph_t g = build(n, chain, c, 1);
      emit(name("build").c_str(), n, (double)(now_ns() - t0), n);

      cudaGraphExec_t x;
      t0 = now_ns();
      cudaError_t e = cudaGraphInstantiate(&x, g, 0);
      double t_inst = (double)(now_ns() - t0);
      if (e != cudaSuccess) {
        emit_stop(name("instantiate").c_str(), n, "instantiate failed", e);
        (void)cudaGetLastError();
        SCK(cudaGraphDestroy(g));
        continue;
      }
      emit(name("instantiate").c_str(), n, t_inst, n);

      t0 = now_ns();
      SCK(cudaGraphUpload(x, s));
      SCK(cudaStreamSynchronize(s));
      emit(name("upload").c_str(), n, (double)(now_ns() - t0), 1);

      SCK(cudaMemsetAsync(c, 0, sizeof(*c), s));
      SCK(cudaStreamSynchronize(s));
      std::vector<double> host, full;
      for (int k = 0; k < launches; k++) {
        t0 = now_ns();
        SCK(cudaGraphLaunch(x, s));
        uint64_t t1 = now_ns();
        SCK(cudaStreamSynchronize(s));
        host.push_back((double)(t1 - t0));
        full.push_back((double)(now_ns() - t0));
      }
      unsigned long long got = 0;
      SCK(cudaMemcpy(&got, c, sizeof(got), cudaMemcpyDeviceToHost));
      bool ok = got == (unsigned long long)n * launches;
      std::string chk = std::string(", \"check\": ") + (ok ? "true" : "false");
      emit(name("launch").c_str(), n, median(host), 1,
           kv("min_ns", *std::min_element(host.begin(), host.end())) + chk);
      emit(name("launch_sync").c_str(), n, median(full), 1,
           kv("min_ns", *std::min_element(full.begin(), full.end())) + chk);

      // Update from a graph of the same shape adding 2.
      cudaGraph_t g2 = build(n, chain, c, 2);
      cudaGraphExecUpdateResultInfo info;
      t0 = now_ns();
      e = cudaGraphExecUpdate(x, g2, &info);
      double t_upd = (double)(now_ns() - t0);
      if (e != cudaSuccess) {
        emit_stop(name("update").c_str(), n, "update failed", e);
        (void)cudaGetLastError();
      } else {
        SCK(cudaMemsetAsync(c, 0, sizeof(*c), s));
        SCK(cudaGraphLaunch(x, s));
        SCK(cudaStreamSynchronize(s));
        SCK(cudaMemcpy(&got, c, sizeof(got), cudaMemcpyDeviceToHost));
        ok = got == (unsigned long long)n * 2;
        emit(name("update").c_str(), n, t_upd, n,
             std::string(", \"check\": ") + (ok ? "true" : "false"));
      }

      t0 = now_ns();
      SCK(cudaGraphExecDestroy(x));
      SCK(cudaGraphDestroy(g));
      SCK(cudaGraphDestroy(g2));
      emit(name("destroy").c_str(), n, (double)(now_ns() - t0), n);
    }

    // Stream capture of n launches (a chain).
    {
      cudaGraph_t g;
      unsigned long long v = 1;
      uint64_t t0 = now_ns();
      SCK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
      for (long i = 0; i < n; i++) add_k<<<1, 1, 0, s>>>(c, v);
      cudaError_t e = cudaStreamEndCapture(s, &g);
      double t = (double)(now_ns() - t0);
      if (e != cudaSuccess) {
        emit_stop("graph.capture.capture", n, "capture failed", e);
        (void)cudaGetLastError();
      } else {
        size_t nodes = 0;
        SCK(cudaGraphGetNodes(g, nullptr, &nodes));
        emit("graph.capture.capture", n, t, n, kv("nodes", (double)nodes));
        SCK(cudaGraphDestroy(g));
      }
    }
    if (budget.spent() && n < max) {
      emit_stop("graph.chain.build", n, "time budget (SCALE_BENCH_SECONDS)");
      break;
    }
  }
  SCK(cudaStreamDestroy(s));
  SCK(cudaFree(c));
  return 0;
}
