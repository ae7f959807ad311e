// graph_conditional: conditional nodes. A WHILE node whose body kernel
// counts and sets the condition with cudaGraphSetConditional (handle from
// cudaGraphConditionalHandleCreate with a default value applied at each
// launch), and an IF node whose condition an upstream kernel sets from
// device data: the body runs only when the data says so.
#define SAMPLE_NAME "graph_conditional"
#include "common/check.h"
#include <string.h>

__global__ void while_body(int *counter, int limit, cudaGraphConditionalHandle h) {
  int c = ++*counter;
  cudaGraphSetConditional(h, c < limit ? 1 : 0);
}

__global__ void decide(const int *flag, cudaGraphConditionalHandle h) {
  cudaGraphSetConditional(h, *flag != 0 ? 1 : 0);
}

__global__ void if_body(int *marker) { *marker += 1; }

static void add_kernel(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *dep,
                       size_t ndep, void *func, void **args) {
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof(kp));
  kp.func = func;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  CK(cudaGraphAddKernelNode(node, g, dep, ndep, &kp));
}

static int read_int(const int *d) {
  int v = 0;
  CK(cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost));
  return v;
}

int main() {
  int *d = NULL;
  CK(cudaMalloc(&d, 4 * sizeof(int)));
  CK(cudaMemset(d, 0, 4 * sizeof(int)));
  int *counter = d, *flag = d + 1, *marker = d + 2;
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // WHILE: the body runs while counter < 10; the default value 1 is set at
  // every launch, so the body runs at least once per launch.
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle wh;
  CK(cudaGraphConditionalHandleCreate(&wh, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = {};
  memset(&cp, 0, sizeof(cp));
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = wh;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t wnode;
  CK(cudaGraphAddNode(&wnode, g, NULL, NULL, 0, &cp));
  EXPECT(cp.conditional.phGraph_out != NULL && cp.conditional.phGraph_out[0] != NULL,
         "no body graph returned");
  printf("while node: body graph returned\n");
  cudaGraph_t body = cp.conditional.phGraph_out[0];
  int limit = 10;
  void *wargs[] = {&counter, &limit, &wh};
  cudaGraphNode_t bk;
  add_kernel(&bk, body, NULL, 0, (void *)while_body, wargs);
  cudaGraphNodeType t;
  CK(cudaGraphNodeGetType(wnode, &t));
  printf("conditional node type: %d\n", (int)t);

  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, g, 0));
  CK(cudaGraphLaunch(exec, s));
  CK(cudaStreamSynchronize(s));
  int c = read_int(counter);
  printf("while loop, first launch: counter %d\n", c);
  EXPECT(c == 10, "counter %d, expected 10", c);
  CK(cudaGraphLaunch(exec, s));
  CK(cudaStreamSynchronize(s));
  c = read_int(counter);
  printf("while loop, second launch: counter %d\n", c);
  EXPECT(c == 11, "counter %d, expected 11", c);
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(g));

  // IF: decide() sets the condition from *flag; the body bumps the marker.
  cudaGraph_t g2;
  CK(cudaGraphCreate(&g2, 0));
  cudaGraphConditionalHandle ih;
  CK(cudaGraphConditionalHandleCreate(&ih, g2, 0, 0));
  void *dargs[] = {&flag, &ih};
  cudaGraphNode_t dk;
  add_kernel(&dk, g2, NULL, 0, (void *)decide, dargs);
  memset(&cp, 0, sizeof(cp));
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = ih;
  cp.conditional.type = cudaGraphCondTypeIf;
  cp.conditional.size = 1;
  cudaGraphNode_t inode;
  CK(cudaGraphAddNode(&inode, g2, &dk, NULL, 1, &cp));
  void *iargs[] = {&marker};
  cudaGraphNode_t ik;
  add_kernel(&ik, cp.conditional.phGraph_out[0], NULL, 0, (void *)if_body, iargs);
  cudaGraphExec_t exec2;
  CK(cudaGraphInstantiate(&exec2, g2, 0));
  int flags[4] = {1, 0, 1, 1};
  for (int i = 0; i < 4; i++) {
    CK(cudaMemcpy(flag, &flags[i], sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaGraphLaunch(exec2, s));
    CK(cudaStreamSynchronize(s));
    printf("if node, flag %d: marker %d\n", flags[i], read_int(marker));
  }
  EXPECT(read_int(marker) == 3, "marker %d, expected 3", read_int(marker));
  CK(cudaGraphExecDestroy(exec2));
  CK(cudaGraphDestroy(g2));

  CK(cudaStreamDestroy(s));
  CK(cudaFree(d));
  return sample_pass();
}
