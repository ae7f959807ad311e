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

int main() {
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();

  // Created and freed: none of these may be reported.
  {
    void *d, *h, *m;
    cudaStream_t s;
    cudaEvent_t e;
    cudaArray_t a;
    RC(cudaMalloc(&d, 1048576));
    RC(cudaMallocHost(&h, 65536));
    RC(cudaMallocManaged(&m, 32768));
    RC(cudaStreamCreate(&s));
    RC(cudaEventCreate(&e));
    cudaGraph_t g = make_graph();
    cudaGraphExec_t x = NULL;
    RC(cudaGraphInstantiate(&x, g, 0));
    RC(cudaGraphLaunch(x, s));
    RC(cudaStreamSynchronize(s));
    cudaMemPool_t pool = make_pool();
    RC(cudaMallocArray(&a, &fdesc, 64, 64));
    cudaTextureObject_t t = make_texture(a);
    RC(cudaDestroyTextureObject(t));
    RC(cudaFreeArray(a));
    RC(cudaMemPoolDestroy(pool));
    RC(cudaGraphExecDestroy(x));
    RC(cudaGraphDestroy(g));
    RC(cudaEventDestroy(e));
    RC(cudaStreamDestroy(s));
    RC(cudaFree(m));
    RC(cudaFreeHost(h));
    RC(cudaFree(d));
  }

  // Created and never freed: ten objects, one of each kind.
  void *d, *h, *m;
  cudaStream_t s;
  cudaEvent_t e;
  cudaArray_t a;
  RC(cudaMalloc(&d, 4096));
  RC(cudaMallocHost(&h, 8192));
  RC(cudaMallocManaged(&m, 16384));
  RC(cudaStreamCreate(&s));
  RC(cudaEventCreate(&e));
  cudaGraph_t g = make_graph();
  cudaGraphExec_t x = NULL;
  RC(cudaGraphInstantiate(&x, g, 0));
  RC(cudaGraphLaunch(x, s));
  RC(cudaEventRecord(e, s));
  RC(cudaStreamSynchronize(s));
  cudaMemPool_t pool = make_pool();
  RC(cudaMallocArray(&a, &fdesc, 64, 64));
  cudaTextureObject_t t = make_texture(a);
  (void)t;
  (void)pool;
  RC(cudaDeviceSynchronize());
  printf("DONE leaks\n");
  return 0;
}
