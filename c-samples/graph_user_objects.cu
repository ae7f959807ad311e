// graph_user_objects: user objects whose destructors run when the last
// reference goes (cudaUserObjectNoDestructorSync, the one flag CUDA
// accepts: destructors run on a driver thread, so the checks wait for
// them). One moved into a graph (cudaGraphUserObjectMove): alive
// while the graph and its executable graph exist, destroyed after both are
// destroyed and the device synchronized. One retained by a graph with a
// new reference, released by the graph, then by the program. One whose
// references the program retains and releases itself.
#define SAMPLE_NAME "graph_user_objects"
#include "common/check.h"
#include <atomic>
#include <string.h>
#include <unistd.h>

static std::atomic<int> g_destroyed[3];
static int g_ids[3] = {0, 1, 2};

static void CUDART_CB destroy(void *p) { g_destroyed[*(int *)p].fetch_add(1); }
static void CUDART_CB ignore(void *) {}

__global__ void touch(int *p) { *p += 1; }

// Destructors run on a driver thread: wait for one, at most 5 s.
static bool wait_destroyed(int i) {
  for (int t = 0; t < 5000 && g_destroyed[i].load() == 0; t++) usleep(1000);
  return g_destroyed[i].load() == 1;
}

int main() {
  int *d = NULL;
  CK(cudaMalloc(&d, sizeof(int)));
  CK(cudaMemset(d, 0, sizeof(int)));

  // 1. Moved into the graph.
  cudaUserObject_t o0;
  CK(cudaUserObjectCreate(&o0, &g_ids[0], destroy, 1, cudaUserObjectNoDestructorSync));
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  CK(cudaGraphRetainUserObject(g, o0, 1, cudaGraphUserObjectMove));
  void *args[] = {&d};
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof(kp));
  kp.func = (void *)touch;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphNode_t kn;
  CK(cudaGraphAddKernelNode(&kn, g, NULL, 0, &kp));
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, g, 0));
  CK(cudaGraphLaunch(exec, 0));
  CK(cudaDeviceSynchronize());
  CK(cudaGraphDestroy(g));
  CK(cudaDeviceSynchronize());
  usleep(20000);
  printf("graph destroyed, executable graph alive: destructor ran %d time(s)\n",
         g_destroyed[0].load());
  EXPECT(g_destroyed[0].load() == 0, "destroyed while the executable graph holds it");
  CK(cudaGraphExecDestroy(exec));
  CK(cudaDeviceSynchronize());
  bool ran = wait_destroyed(0);
  printf("executable graph destroyed too: destructor ran: %s\n", ran ? "yes" : "no");
  EXPECT(ran, "destructor 0 ran %d times", g_destroyed[0].load());

  // 2. A new reference for the graph; the graph releases it, then we do.
  cudaUserObject_t o1;
  CK(cudaUserObjectCreate(&o1, &g_ids[1], destroy, 1, cudaUserObjectNoDestructorSync));
  cudaGraph_t g1;
  CK(cudaGraphCreate(&g1, 0));
  CK(cudaGraphRetainUserObject(g1, o1, 2, 0));
  CK(cudaGraphReleaseUserObject(g1, o1, 2));
  usleep(20000);
  printf("graph released its references: destructor ran %d time(s)\n", g_destroyed[1].load());
  EXPECT(g_destroyed[1].load() == 0, "destroyed while the program holds it");
  CK(cudaUserObjectRelease(o1, 1));
  ran = wait_destroyed(1);
  printf("program released its reference: destructor ran: %s\n", ran ? "yes" : "no");
  EXPECT(ran, "destructor 1 ran %d times", g_destroyed[1].load());
  CK(cudaGraphDestroy(g1));

  // 3. The program's own references.
  cudaUserObject_t o2;
  CK(cudaUserObjectCreate(&o2, &g_ids[2], destroy, 2, cudaUserObjectNoDestructorSync));
  CK(cudaUserObjectRetain(o2, 3));
  CK(cudaUserObjectRelease(o2, 4));
  usleep(20000);
  printf("one reference left: destructor ran %d time(s)\n", g_destroyed[2].load());
  EXPECT(g_destroyed[2].load() == 0, "destroyed too early");
  CK(cudaUserObjectRelease(o2, 1));
  CK(cudaDeviceSynchronize());
  ran = wait_destroyed(2);
  printf("last reference released: destructor ran: %s\n", ran ? "yes" : "no");
  EXPECT(ran, "destructor 2 ran %d times", g_destroyed[2].load());

  // Errors.
  cudaUserObject_t bad;
  CK_EQ(cudaUserObjectCreate(&bad, &g_ids[0], destroy, 1, 0), cudaErrorInvalidValue);
  printf("flags 0 (destructor sync is not offered): cudaErrorInvalidValue\n");
  CK_EQ(cudaUserObjectCreate(&bad, &g_ids[0], NULL, 1, cudaUserObjectNoDestructorSync),
        cudaErrorInvalidValue);
  printf("no destructor: cudaErrorInvalidValue\n");
  // The object pointer is the program's own data, handed to the destructor
  // as it is: NULL is allowed (both runtimes accept it).
  CK(cudaUserObjectCreate(&bad, NULL, ignore, 1, cudaUserObjectNoDestructorSync));
  CK(cudaUserObjectRelease(bad, 1));
  printf("NULL object pointer: cudaSuccess (allowed)\n");
  (void)cudaGetLastError();

  int v = 0;
  CK(cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(v == 1, "kernel ran %d times", v);
  CK(cudaFree(d));
  return sample_pass();
}
