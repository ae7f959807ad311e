// mem_peer: peer access and peer copies, as far as one device allows.
// cudaDeviceCanAccessPeer (a device and itself, and every other pair when
// there are more devices); cudaMemcpyPeer and cudaMemcpyPeerAsync from
// device 0 to device 0; cudaMemcpy3DPeer / cudaMemcpy3DPeerAsync between
// pitched allocations of device 0 with positions; enabling access to
// oneself and to a device that does not exist. Prints every answer.
#define SAMPLE_NAME "mem_peer"
#include "common/check.h"
#include <string.h>

int main() {
  int count = 0;
  CK(cudaGetDeviceCount(&count));
  printf("devices: %s\n", count > 1 ? "several" : "one");
  int can = -1;
  cudaError_t e = cudaDeviceCanAccessPeer(&can, 0, 0);
  printf("cudaDeviceCanAccessPeer(0, 0): %s, %d\n", err_name(e), can);
  (void)cudaGetLastError();
  for (int d = 1; d < count; d++) {
    CK(cudaDeviceCanAccessPeer(&can, 0, d));
    fprintf(stderr, "can access peer 0 -> %d: %d\n", d, can);
  }
  e = cudaDeviceCanAccessPeer(&can, 0, count);
  printf("cudaDeviceCanAccessPeer(0, past the last device): %s\n", err_name(e));
  (void)cudaGetLastError();

  // Flat peer copies on one device.
  const int n = 1 << 16;
  int *src, *dst, *host;
  CK(cudaMalloc(&src, n * sizeof(int)));
  CK(cudaMalloc(&dst, n * sizeof(int)));
  CK(cudaMallocHost(&host, n * sizeof(int)));
  for (int i = 0; i < n; i++) host[i] = i ^ 0x5a5a;
  CK(cudaMemcpy(src, host, n * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemset(dst, 0, n * sizeof(int)));
  CK(cudaMemcpyPeer(dst, 0, src, 0, n * sizeof(int)));
  memset(host, 0, n * sizeof(int));
  CK(cudaMemcpy(host, dst, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(host[i] == (i ^ 0x5a5a), "cudaMemcpyPeer [%d] = %d", i, host[i]);
  printf("cudaMemcpyPeer 0 -> 0: %d values ok\n", n);

  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CK(cudaMemsetAsync(dst, 0, n * sizeof(int), s));
  CK(cudaMemcpyPeerAsync(dst + 8, 0, src, 0, (n - 8) * sizeof(int), s));
  CK(cudaMemcpyAsync(host, dst, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++) {
    int want = i < 8 ? 0 : ((i - 8) ^ 0x5a5a);
    EXPECT(host[i] == want, "cudaMemcpyPeerAsync [%d] = %d", i, host[i]);
  }
  printf("cudaMemcpyPeerAsync 0 -> 0 at an offset: ok\n");

  // 3D peer copies between pitched volumes of device 0.
  const int W = 16, H = 8, D = 3;
  cudaExtent ext = make_cudaExtent(W * sizeof(int), H, D);
  cudaPitchedPtr a, b;
  CK(cudaMalloc3D(&a, ext));
  CK(cudaMalloc3D(&b, ext));
  static int vol[D][H][W], back[D][H][W];
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) vol[z][y][x] = x + 100 * y + 10000 * z;
  cudaMemcpy3DParms up;
  memset(&up, 0, sizeof(up));
  up.srcPtr = make_cudaPitchedPtr(vol, W * sizeof(int), W, H);
  up.dstPtr = a;
  up.extent = ext;
  up.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&up));
  CK(cudaMemset3D(b, 0, ext));
  cudaMemcpy3DPeerParms pp;
  memset(&pp, 0, sizeof(pp));
  pp.srcPtr = a;
  pp.srcDevice = 0;
  pp.srcPos = make_cudaPos(4 * sizeof(int), 2, 1);
  pp.dstPtr = b;
  pp.dstDevice = 0;
  pp.dstPos = make_cudaPos(0, 0, 0);
  pp.extent = make_cudaExtent(8 * sizeof(int), 4, 2);
  CK(cudaMemcpy3DPeer(&pp));
  cudaMemcpy3DParms down;
  memset(&down, 0, sizeof(down));
  down.srcPtr = b;
  down.dstPtr = make_cudaPitchedPtr(back, W * sizeof(int), W, H);
  down.extent = ext;
  down.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&down));
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        bool in = x < 8 && y < 4 && z < 2;
        int want = in ? vol[z + 1][y + 2][x + 4] : 0;
        EXPECT(back[z][y][x] == want, "3D peer (%d,%d,%d) = %d, expected %d", x, y, z, back[z][y][x], want);
      }
  printf("cudaMemcpy3DPeer 0 -> 0 with positions: ok\n");
  pp.srcPos = make_cudaPos(0, 0, 0);
  pp.dstPos = make_cudaPos(0, 0, 0);
  pp.extent = ext;
  CK(cudaMemcpy3DPeerAsync(&pp, s));
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy3D(&down));
  EXPECT(memcmp(back, vol, sizeof(vol)) == 0, "3D peer async: whole volume differs");
  printf("cudaMemcpy3DPeerAsync 0 -> 0: ok\n");

  // Peer access: to oneself, with flags, to a device that does not exist.
  printf("cudaDeviceEnablePeerAccess(0): %s\n", err_name(cudaDeviceEnablePeerAccess(0, 0)));
  (void)cudaGetLastError();
  printf("cudaDeviceEnablePeerAccess(0, flags 1): %s\n", err_name(cudaDeviceEnablePeerAccess(0, 1)));
  (void)cudaGetLastError();
  printf("cudaDeviceDisablePeerAccess(0): %s\n", err_name(cudaDeviceDisablePeerAccess(0)));
  (void)cudaGetLastError();
  printf("cudaDeviceEnablePeerAccess(past the last device): %s\n",
         err_name(cudaDeviceEnablePeerAccess(count, 0)));
  (void)cudaGetLastError();
  printf("cudaMemcpyPeer from device 99: %s\n", err_name(cudaMemcpyPeer(dst, 0, src, 99, 4)));
  (void)cudaGetLastError();
  printf("cudaMemcpyPeer of 0 bytes: %s\n", err_name(cudaMemcpyPeer(dst, 0, src, 0, 0)));
  (void)cudaGetLastError();
  CK(cudaGetLastError());

  CK(cudaStreamDestroy(s));
  CK(cudaFree(a.ptr));
  CK(cudaFree(b.ptr));
  CK(cudaFree(src));
  CK(cudaFree(dst));
  CK(cudaFreeHost(host));
  return sample_pass();
}
