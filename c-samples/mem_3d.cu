// mem_3d: pitched 3D memory. cudaMalloc3D; cudaMemcpy3D host to device and
// back (host rows with a pitch of their own); a kernel walking the pitched
// volume; cudaMemset3D on a box inside it (pointer advanced to the box's
// corner); cudaMemset3DAsync of a whole volume and cudaMemcpy3DAsync
// device to device with source and destination positions (bytes along x);
// cudaMemset2DAsync on one slice. Edge cases print the runtime's answer.
#define SAMPLE_NAME "mem_3d"
#include "common/check.h"
#include <string.h>

#define W 37
#define H 11
#define D 5

__global__ void bump(cudaPitchedPtr p, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= w || y >= h || z >= d) return;
  int *row = (int *)((char *)p.ptr + ((size_t)z * p.ysize + y) * p.pitch);
  row[x] += 1;
}

static int value(int x, int y, int z) { return x + 100 * y + 10000 * z; }

// Reads a pitched device volume of W x H x D ints into host[D][H][W + 3]
// (a host pitch wider than the rows).
static void read_back(cudaPitchedPtr dev, int host[D][H][W + 3]) {
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof(p));
  p.srcPtr = dev;
  p.dstPtr = make_cudaPitchedPtr(host, (W + 3) * sizeof(int), W, H);
  p.extent = make_cudaExtent(W * sizeof(int), H, D);
  p.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&p));
}

static int h_in[D][H][W];
static int h_out[D][H][W + 3];

int main() {
  // cudaMalloc3D: pitch covers the row, sizes as asked.
  cudaExtent ext = make_cudaExtent(W * sizeof(int), H, D);
  cudaPitchedPtr dev;
  CK(cudaMalloc3D(&dev, ext));
  EXPECT(dev.ptr != NULL, "no pointer");
  EXPECT(dev.pitch >= W * sizeof(int), "pitch %zu < row", dev.pitch);
  EXPECT(dev.xsize == W * sizeof(int) && dev.ysize == H, "xsize %zu ysize %zu", dev.xsize, dev.ysize);
  printf("cudaMalloc3D: pitch covers a row: yes, xsize %zu, ysize %zu\n", dev.xsize, dev.ysize);
  fprintf(stderr, "pitch %zu\n", dev.pitch);

  // Host to device, a kernel, device to host.
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) h_in[z][y][x] = value(x, y, z);
  cudaMemcpy3DParms up;
  memset(&up, 0, sizeof(up));
  up.srcPtr = make_cudaPitchedPtr(h_in, W * sizeof(int), W, H);
  up.dstPtr = dev;
  up.extent = ext;
  up.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&up));
  bump<<<dim3(1, H, D), 64>>>(dev, W, H, D);
  CK_LAUNCH();
  read_back(dev, h_out);
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
        EXPECT(h_out[z][y][x] == value(x, y, z) + 1, "after bump (%d,%d,%d) = %d", x, y, z,
               h_out[z][y][x]);
  printf("cudaMemcpy3D host->device->host around a kernel: %d values ok\n", W * H * D);

  // cudaMemset3D on the box x in [2,5), y in [3,5), z in [1,3): every byte 0xff.
  cudaPitchedPtr corner = dev;
  corner.ptr = (char *)dev.ptr + (1 * H + 3) * dev.pitch + 2 * sizeof(int);
  CK(cudaMemset3D(corner, 0xff, make_cudaExtent(3 * sizeof(int), 2, 2)));
  read_back(dev, h_out);
  int set = 0;
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        bool in = x >= 2 && x < 5 && y >= 3 && y < 5 && z >= 1 && z < 3;
        int want = in ? -1 : value(x, y, z) + 1;
        EXPECT(h_out[z][y][x] == want, "after memset3D (%d,%d,%d) = %d, expected %d", x, y, z,
               h_out[z][y][x], want);
        set += in;
      }
  printf("cudaMemset3D on a 3x2x2 box: %d values set, the rest kept\n", set);

  // A second volume: cleared with cudaMemset3DAsync, then a box copied in
  // with cudaMemcpy3DAsync (positions in bytes along x for pointers).
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  cudaPitchedPtr dev2;
  CK(cudaMalloc3D(&dev2, ext));
  CK(cudaMemset3DAsync(dev2, 0, ext, s));
  cudaMemcpy3DParms box;
  memset(&box, 0, sizeof(box));
  box.srcPtr = dev;
  box.srcPos = make_cudaPos(6 * sizeof(int), 0, 2);
  box.dstPtr = dev2;
  box.dstPos = make_cudaPos(1 * sizeof(int), 4, 0);
  box.extent = make_cudaExtent(5 * sizeof(int), 3, 2);
  box.kind = cudaMemcpyDeviceToDevice;
  CK(cudaMemcpy3DAsync(&box, s));
  CK(cudaStreamSynchronize(s));
  read_back(dev2, h_out);
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        bool in = x >= 1 && x < 6 && y >= 4 && y < 7 && z < 2;
        int want = in ? value(x - 1 + 6, y - 4, z + 2) + 1 : 0;
        EXPECT(h_out[z][y][x] == want, "after copy3DAsync (%d,%d,%d) = %d, expected %d", x, y, z,
               h_out[z][y][x], want);
      }
  printf("cudaMemset3DAsync + cudaMemcpy3DAsync with positions: ok\n");

  // cudaMemset2DAsync on slice 0 of the second volume: rows 0..1, 8 bytes.
  CK(cudaMemset2DAsync(dev2.ptr, dev2.pitch, 0x01, 2 * sizeof(int), 2, s));
  CK(cudaStreamSynchronize(s));
  read_back(dev2, h_out);
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 2; x++)
      EXPECT(h_out[0][y][x] == 0x01010101, "memset2DAsync (%d,%d) = %x", x, y, h_out[0][y][x]);
  EXPECT(h_out[0][0][2] == 0 && h_out[0][2][0] == 0, "memset2DAsync spilled");
  printf("cudaMemset2DAsync on a 2x2 corner: ok\n");

  // cudaMemcpy3D with cudaMemcpyDefault, device to device, whole volume.
  cudaMemcpy3DParms all;
  memset(&all, 0, sizeof(all));
  all.srcPtr = dev;
  all.dstPtr = dev2;
  all.extent = ext;
  all.kind = cudaMemcpyDefault;
  CK(cudaMemcpy3D(&all));
  read_back(dev2, h_out);
  EXPECT(h_out[D - 1][H - 1][W - 1] == value(W - 1, H - 1, D - 1) + 1, "default copy");
  EXPECT(h_out[1][3][2] == -1, "default copy box");
  printf("cudaMemcpy3D with cudaMemcpyDefault: ok\n");

  // Edge cases: print what the runtime says.
  cudaPitchedPtr zero;
  memset(&zero, 0x5a, sizeof(zero));
  cudaError_t e = cudaMalloc3D(&zero, make_cudaExtent(0, 4, 4));
  printf("cudaMalloc3D with width 0: %s, ptr null: %s\n", err_name(e), zero.ptr == NULL ? "yes" : "no");
  (void)cudaGetLastError();
  cudaMemcpy3DParms none = all;
  none.extent = make_cudaExtent(0, 0, 0);
  printf("cudaMemcpy3D with an empty extent: %s\n", err_name(cudaMemcpy3D(&none)));
  (void)cudaGetLastError();
  cudaMemcpy3DParms badkind = all;
  badkind.kind = (cudaMemcpyKind)7;
  printf("cudaMemcpy3D with kind 7: %s\n", err_name(cudaMemcpy3D(&badkind)));
  (void)cudaGetLastError();
  printf("cudaMemcpy3D(NULL): %s\n", err_name(cudaMemcpy3D(NULL)));
  (void)cudaGetLastError();
  cudaMemcpy3DParms nosrc = all;
  nosrc.srcPtr.ptr = NULL;
  printf("cudaMemcpy3D without a source: %s\n", err_name(cudaMemcpy3D(&nosrc)));
  (void)cudaGetLastError();
  printf("cudaMemset3D with an empty extent: %s\n",
         err_name(cudaMemset3D(dev, 0, make_cudaExtent(0, 1, 1))));
  (void)cudaGetLastError();
  CK(cudaGetLastError());

  CK(cudaStreamDestroy(s));
  CK(cudaFree(dev.ptr));
  CK(cudaFree(dev2.ptr));
  return sample_pass();
}
