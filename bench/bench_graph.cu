// Graphs of 100 empty kernels, built explicitly as a chain (each node
// depends on the one before, as a captured stream would give): capture (begin capture, 100 launches, end
// capture, destroy), instantiate (+ destroy of the executable graph),
// launch (host time of cudaGraphLaunch; synchronized untimed after each
// repetition) and launch + cudaStreamSynchronize; with the raw driver
// counterparts of instantiate and launch on the same graph.
#include "bench.h"

__global__ void k0() {}

static Driver drv;
static cudaStream_t stream;
static cudaGraph_t graph;
static cudaGraphExec_t exec_;
static const int NODES = 100;

static int capture(cudaGraph_t *g) {
  int e = (int)cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  for (int i = 0; i < NODES; i++) k0<<<1, 1, 0, stream>>>();
  e |= (int)cudaGetLastError();
  e |= (int)cudaStreamEndCapture(stream, g);
  return e;
}

// The graph every benchmark but the capture uses: explicit nodes, so a
// capture problem shows in its own benchmark only.
static int build_chain(cudaGraph_t *g) {
  int e = (int)cudaGraphCreate(g, 0);
  if (e) return e;
  cudaKernelNodeParams p = {};
  p.func = (void *)k0;
  p.gridDim = dim3(1);
  p.blockDim = dim3(1);
  p.sharedMemBytes = 0;
  p.kernelParams = nullptr;
  p.extra = nullptr;
  cudaGraphNode_t prev = nullptr;
  for (int i = 0; i < NODES && !e; i++) {
    cudaGraphNode_t node;
    e |= (int)cudaGraphAddKernelNode(&node, *g, prev ? &prev : nullptr, prev ? 1 : 0, &p);
    prev = node;
  }
  return e;
}

int main(int argc, char **argv) {
  BenchList L;
  L.add("graph.cudaGraphInstantiate100+destroy", "us", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      cudaGraphExec_t x;
      e |= (int)cudaGraphInstantiate(&x, graph, 0);
      e |= (int)cudaGraphExecDestroy(x);
    }
    return e;
  }, "graph.raw_cuGraphInstantiate100+destroy");
  L.add("graph.raw_cuGraphInstantiate100+destroy", "us", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      CUgraphExec x;
      e |= (int)drv.graph_instantiate(&x, (CUgraph)graph, 0);
      e |= (int)drv.graph_exec_destroy(x);
    }
    return e;
  }).setup = [] { return Driver::need(drv.graph_instantiate, drv.graph_exec_destroy); };
  L.add("graph.cudaGraphLaunch100", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaGraphLaunch(exec_, stream);
    return e;
  }, "graph.raw_cuGraphLaunch100");
  L.add("graph.raw_cuGraphLaunch100", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)drv.graph_launch((CUgraphExec)exec_, (CUstream)stream);
    return e;
  }).setup = [] { return Driver::need(drv.graph_launch); };
  L.add("graph.cudaGraphLaunch100+sync", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      e |= (int)cudaGraphLaunch(exec_, stream);
      e |= (int)cudaStreamSynchronize(stream);
    }
    return e;
  }, "graph.raw_cuGraphLaunch100+sync");
  L.add("graph.raw_cuGraphLaunch100+sync", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      e |= (int)drv.graph_launch((CUgraphExec)exec_, (CUstream)stream);
      e |= (int)drv.stream_sync((CUstream)stream);
    }
    return e;
  }).setup = [] { return Driver::need(drv.graph_launch, drv.stream_sync); };
  // Last: a capture that fails half-way could leave the stream capturing.
  L.add("graph.capture100+destroy", "us", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      cudaGraph_t g = nullptr;
      e |= capture(&g);
      e |= (int)cudaGraphDestroy(g);
    }
    return e;
  });
  for (auto &b : L.items) b.settle = [] { cudaStreamSynchronize(stream); };
  return bench_main("bench_graph", argc, argv, L, [] {
    drv.load();
    int e = (int)cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (e) return e;
    e = build_chain(&graph);
    if (e) return e;
    e = (int)cudaGraphInstantiate(&exec_, graph, 0);
    if (e) return e;
    e |= (int)cudaGraphLaunch(exec_, stream);
    e |= (int)cudaStreamSynchronize(stream);
    return e;
  });
}
