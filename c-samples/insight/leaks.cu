// CUDART_LEAKS: one object of each kind below is created and never freed;
// one more of each kind is created and freed (sizes differ from the leaked
// ones, so a freed allocation in the report is recognisable).
//
//   leaked (expected in the report, each once)      freed (must not appear)
//   device memory 4096 bytes    cudaMalloc          1048576 bytes
//   pinned memory 8192 bytes    cudaMallocHost      65536 bytes
//   managed memory 16384 bytes  cudaMallocManaged   32768 bytes
//   stream                      cudaStreamCreate
//   event                       cudaEventCreate
//   graph                       cudaGraphCreate
//   graph exec                  cudaGraphInstantiate (of the leaked graph)
//   memory pool                 cudaMemPoolCreate
//   array                       cudaMallocArray (64x64 float)
//   texture object              cudaCreateTextureObject (on the leaked array)
#include "insight.h"

static cudaMemPool_t make_pool(void) {
  cudaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool = NULL;
  RC(cudaMemPoolCreate(&pool, &props));
  return pool;
}

static cudaTextureObject_t make_texture(cudaArray_t a) {
  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  RC(cudaCreateTextureObject(&t, &res, &td, NULL));
  return t;
}

static cudaGraph_t make_graph(void) {
  cudaGraph_t g = NULL;
  cudaGraphNode_t node;
  RC(cudaGraphCreate(&g, 0));
  RC(cudaGraphAddEmptyNode(&node, g, NULL, 0));
  return g;
}

// One object of each kind; the three allocations of the sizes given.
struct Objects {
  void *d, *h, *m;
  cudaStream_t s;
  cudaEvent_t e;
  cudaGraph_t g;
  cudaGraphExec_t x;
  cudaMemPool_t pool;
  cudaArray_t a;
  cudaTextureObject_t t;
};

static Objects make_all(size_t device, size_t pinned, size_t managed) {
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  Objects o;
  memset(&o, 0, sizeof o);
  RC(cudaMalloc(&o.d, device));
  RC(cudaMallocHost(&o.h, pinned));
  RC(cudaMallocManaged(&o.m, managed));
  RC(cudaStreamCreate(&o.s));
  RC(cudaEventCreate(&o.e));
  o.g = make_graph();
  RC(cudaGraphInstantiate(&o.x, o.g, 0));
  RC(cudaGraphLaunch(o.x, o.s));
  RC(cudaEventRecord(o.e, o.s));
  RC(cudaStreamSynchronize(o.s));
  o.pool = make_pool();
  RC(cudaMallocArray(&o.a, &fdesc, 64, 64));
  o.t = make_texture(o.a);
  return o;
}

static void free_all(const Objects &o) {
  RC(cudaDestroyTextureObject(o.t));
  RC(cudaFreeArray(o.a));
  RC(cudaMemPoolDestroy(o.pool));
  RC(cudaGraphExecDestroy(o.x));
  RC(cudaGraphDestroy(o.g));
  RC(cudaEventDestroy(o.e));
  RC(cudaStreamDestroy(o.s));
  RC(cudaFree(o.m));
  RC(cudaFreeHost(o.h));
  RC(cudaFree(o.d));
}

int main() {
  // Created and freed: none of these may be reported.
  free_all(make_all(1048576, 65536, 32768));
  // Created and never freed: ten objects, one of each kind.
  Objects leaked = make_all(4096, 8192, 16384);
  (void)leaked;
  RC(cudaDeviceSynchronize());
  printf("DONE leaks\n");
  return 0;
}
