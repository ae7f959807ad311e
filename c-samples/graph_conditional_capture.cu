// graph_conditional_capture: conditional bodies filled by stream capture
// into the body graph (cudaStreamBeginCaptureToGraph), the capture ended
// with cudaStreamEndCapture(s, NULL): a capture into an existing graph
// hands no new graph back, and NULL is valid there.
//   WHILE: three <<<1,1,0,s>>> launches per round; the last one counts a
//          device counter down and clears the condition at 0 (10 rounds).
//   IF/ELSE (size 2): an upstream kernel sets the condition from device
//          data; body 0 runs when it is non-zero, body 1 otherwise.
//   SWITCH (size 3): the condition picks one of three bodies; a value past
//          the last runs none.
// Also what an ordinary capture answers when ended with NULL (printed).
#define SAMPLE_NAME "graph_conditional_capture"
#include "common/check.h"
#include <string.h>

__global__ void bump(int *v, int k) { *v += k; }

__global__ void count_down(int *counter, int *rounds, cudaGraphConditionalHandle h) {
  *rounds += 1;
  if (--*counter == 0) cudaGraphSetConditional(h, 0);
}

__global__ void set_from(const int *value, cudaGraphConditionalHandle h) {
  cudaGraphSetConditional(h, (unsigned)*value);
}

static int read_int(const int *d) {
  int v = 0;
  CK(cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost));
  return v;
}

static void write_int(int *d, int v) { CK(cudaMemcpy(d, &v, sizeof(int), cudaMemcpyHostToDevice)); }

// Adds a conditional node of `type` with `size` bodies to g after `dep`.
static cudaGraph_t *add_conditional(cudaGraph_t g, const cudaGraphNode_t *dep, size_t ndep,
                                    cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type,
                                    unsigned size) {
  // phGraph_out points at the node's own array of body graphs.
  cudaGraphNodeParams cp = {};
  memset(&cp, 0, sizeof(cp));
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = h;
  cp.conditional.type = type;
  cp.conditional.size = size;
  cudaGraphNode_t node;
  CK(cudaGraphAddNode(&node, g, dep, NULL, ndep, &cp));
  return cp.conditional.phGraph_out;
}

// Captures `k` bump launches of `by` on s into `body`, ended with NULL.
static void capture_bumps(cudaStream_t s, cudaGraph_t body, int *v, int by, int k) {
  CK(cudaStreamBeginCaptureToGraph(s, body, NULL, NULL, 0, cudaStreamCaptureModeGlobal));
  for (int i = 0; i < k; i++) bump<<<1, 1, 0, s>>>(v, by);
  CK(cudaStreamEndCapture(s, NULL));
}

int main() {
  int *d = NULL;
  CK(cudaMalloc(&d, 8 * sizeof(int)));
  CK(cudaMemset(d, 0, 8 * sizeof(int)));
  int *counter = d, *rounds = d + 1, *work = d + 2, *value = d + 3, *out = d + 4;
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // WHILE, its body captured: bump, bump, count_down.
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle wh;
  CK(cudaGraphConditionalHandleCreate(&wh, g, 1, cudaGraphCondAssignDefault));
  cudaGraph_t wbody = add_conditional(g, NULL, 0, wh, cudaGraphCondTypeWhile, 1)[0];
  CK(cudaStreamBeginCaptureToGraph(s, wbody, NULL, NULL, 0, cudaStreamCaptureModeGlobal));
  bump<<<1, 1, 0, s>>>(work, 1);
  bump<<<1, 1, 0, s>>>(work, 2);
  count_down<<<1, 1, 0, s>>>(counter, rounds, wh);
  CK(cudaGetLastError());
  CK(cudaStreamEndCapture(s, NULL));
  size_t n = 0;
  CK(cudaGraphGetNodes(wbody, NULL, &n));
  printf("while body: %zu nodes captured\n", n);
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, g, 0));
  write_int(counter, 10);
  CK(cudaGraphLaunch(exec, s));
  CK(cudaStreamSynchronize(s));
  printf("while: %d rounds, work %d\n", read_int(rounds), read_int(work));
  EXPECT(read_int(rounds) == 10 && read_int(work) == 30, "while loop ran %d rounds", read_int(rounds));
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(g));

  // IF/ELSE: set_from(value), then body 0 (+1) or body 1 (+100).
  CK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle ih;
  CK(cudaGraphConditionalHandleCreate(&ih, g, 0, 0));
  cudaGraphNode_t setter;
  {
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof(kp));
    void *args[] = {&value, &ih};
    kp.func = (void *)set_from;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = args;
    CK(cudaGraphAddKernelNode(&setter, g, NULL, 0, &kp));
  }
  cudaGraph_t *ifelse = add_conditional(g, &setter, 1, ih, cudaGraphCondTypeIf, 2);
  capture_bumps(s, ifelse[0], out, 1, 1);
  capture_bumps(s, ifelse[1], out, 100, 1);
  CK(cudaGraphInstantiate(&exec, g, 0));
  int ifvals[3] = {1, 0, 7};
  for (int i = 0; i < 3; i++) {
    write_int(value, ifvals[i]);
    CK(cudaGraphLaunch(exec, s));
    CK(cudaStreamSynchronize(s));
    printf("if/else, condition %d: out %d\n", ifvals[i], read_int(out));
  }
  EXPECT(read_int(out) == 102, "if/else out %d, expected 102", read_int(out));
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(g));

  // SWITCH: three bodies adding 1, 10 and 1000; value 3 runs none.
  write_int(out, 0);
  CK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle sh;
  CK(cudaGraphConditionalHandleCreate(&sh, g, 0, 0));
  {
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof(kp));
    void *args[] = {&value, &sh};
    kp.func = (void *)set_from;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = args;
    CK(cudaGraphAddKernelNode(&setter, g, NULL, 0, &kp));
  }
  cudaGraph_t *sw = add_conditional(g, &setter, 1, sh, cudaGraphCondTypeSwitch, 3);
  int adds[3] = {1, 10, 1000};
  for (int i = 0; i < 3; i++) capture_bumps(s, sw[i], out, adds[i], 1);
  CK(cudaGraphInstantiate(&exec, g, 0));
  int swvals[4] = {2, 0, 3, 1};
  for (int i = 0; i < 4; i++) {
    write_int(value, swvals[i]);
    CK(cudaGraphLaunch(exec, s));
    CK(cudaStreamSynchronize(s));
    printf("switch, condition %d: out %d\n", swvals[i], read_int(out));
  }
  EXPECT(read_int(out) == 1011, "switch out %d, expected 1011", read_int(out));
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(g));

  // An ordinary capture ended with NULL: the answer, whatever it is, and
  // the stream usable after.
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  bump<<<1, 1, 0, s>>>(out, 1);
  cudaError_t e = cudaStreamEndCapture(s, NULL);
  printf("ordinary capture ended with NULL: %s, last error %s\n", err_name(e),
         err_name(cudaGetLastError()));
  cudaStreamCaptureStatus st;
  CK(cudaStreamIsCapturing(s, &st));
  printf("capturing after: %d\n", (int)st);

  CK(cudaStreamDestroy(s));
  CK(cudaFree(d));
  return sample_pass();
}
