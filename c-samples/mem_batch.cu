// mem_batch: batched copies. cudaMemcpyBatchAsync with three copies of
// different kinds (host to device, device to device, device to host) under
// one attribute entry (source accessed in stream order); then
// cudaMemcpy3DBatchAsync with a pointer-to-pointer 3D copy (row length and
// layer height in elements, bytes for pointers) and a pointer-to-array
// copy (elements of the array). The legacy null stream and a missing
// attribute print the runtime's answer.
#define SAMPLE_NAME "mem_batch"
#include "common/check.h"
#include <string.h>

int main() {
  const int n = 4096;
  const size_t bytes = n * sizeof(int);
  int *h_in, *h_out, *d1, *d2;
  CK(cudaMallocHost(&h_in, bytes));
  CK(cudaMallocHost(&h_out, bytes));
  CK(cudaMalloc(&d1, bytes));
  CK(cudaMalloc(&d2, bytes));
  for (int i = 0; i < n; i++) h_in[i] = 7 * i - 3;
  memset(h_out, 0, bytes);
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // Three dependent-free copies in one batch would race; run them as three
  // batches of one, then one batch of two independent copies.
  cudaMemcpyAttributes attr;
  memset(&attr, 0, sizeof(attr));
  attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  size_t idx = 0;
  void *dsts[2];
  const void *srcs[2];
  size_t sizes[2];
  dsts[0] = d1; srcs[0] = h_in; sizes[0] = bytes;
  CK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &attr, &idx, 1, s));
  dsts[0] = d2; srcs[0] = d1; sizes[0] = bytes;
  CK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &attr, &idx, 1, s));
  // Two independent copies: the first half of d2 to h_out, the second half
  // of d1 to h_out.
  dsts[0] = h_out; srcs[0] = d2; sizes[0] = bytes / 2;
  dsts[1] = h_out + n / 2; srcs[1] = d1 + n / 2; sizes[1] = bytes / 2;
  CK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &attr, &idx, 1, s));
  CK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++) EXPECT(h_out[i] == h_in[i], "batch copy [%d] = %d", i, h_out[i]);
  printf("cudaMemcpyBatchAsync: host->device, device->device, two device->host: %d values ok\n", n);

  // 3D batch: pointer to pointer, a 5x3x2 box of bytes (ints as 4 bytes).
  const int W = 12, H = 6, D = 3;
  static int vol[D][H][W];
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) vol[z][y][x] = x + 100 * y + 10000 * z;
  int *dvol;
  CK(cudaMalloc(&dvol, sizeof(vol)));
  CK(cudaMemset(dvol, 0, sizeof(vol)));
  cudaMemcpy3DBatchOp op[2];
  memset(op, 0, sizeof(op));
  op[0].src.type = cudaMemcpyOperandTypePointer;
  op[0].src.op.ptr.ptr = &vol[1][2][3];
  op[0].src.op.ptr.rowLength = W * sizeof(int);
  op[0].src.op.ptr.layerHeight = H;
  op[0].src.op.ptr.locHint.type = cudaMemLocationTypeHost;
  op[0].dst.type = cudaMemcpyOperandTypePointer;
  op[0].dst.op.ptr.ptr = dvol;
  op[0].dst.op.ptr.rowLength = W * sizeof(int);
  op[0].dst.op.ptr.layerHeight = H;
  op[0].dst.op.ptr.locHint.type = cudaMemLocationTypeDevice;
  op[0].extent = make_cudaExtent(5 * sizeof(int), 3, 2);
  op[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;

  // Pointer to array: the whole volume into a 3D int array.
  cudaArray_t arr;
  cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
  CK(cudaMalloc3DArray(&arr, &id, make_cudaExtent(W, H, D), 0));
  op[1].src.type = cudaMemcpyOperandTypePointer;
  op[1].src.op.ptr.ptr = vol;
  op[1].src.op.ptr.rowLength = W;  // elements of the array
  op[1].src.op.ptr.layerHeight = H;
  op[1].src.op.ptr.locHint.type = cudaMemLocationTypeHost;
  op[1].dst.type = cudaMemcpyOperandTypeArray;
  op[1].dst.op.array.array = arr;
  op[1].extent = make_cudaExtent(W, H, D);
  op[1].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  cudaError_t e = cudaMemcpy3DBatchAsync(2, op, 0, s);
  printf("cudaMemcpy3DBatchAsync: %s\n", err_name(e));
  (void)cudaGetLastError();
  CK(cudaStreamSynchronize(s));
  if (e == cudaSuccess) {
    static int back[D][H][W];
    CK(cudaMemcpy(back, dvol, sizeof(back), cudaMemcpyDeviceToHost));
    for (int z = 0; z < 2; z++)
      for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++)
          EXPECT(back[z][y][x] == vol[z + 1][y + 2][x + 3], "3D batch box (%d,%d,%d) = %d", x, y, z,
                 back[z][y][x]);
    EXPECT(back[0][0][5] == 0 && back[2][0][0] == 0, "3D batch box spilled");
    memset(back, 0, sizeof(back));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof(p));
    p.srcArray = arr;
    p.dstPtr = make_cudaPitchedPtr(back, W * sizeof(int), W, H);
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&p));
    EXPECT(memcmp(back, vol, sizeof(vol)) == 0, "3D batch into the array differs");
    printf("  pointer->pointer box and pointer->array volume: ok\n");
  }

  // Edge cases.
  dsts[0] = d1; srcs[0] = h_in; sizes[0] = bytes;
  printf("cudaMemcpyBatchAsync on the legacy null stream: %s\n",
         err_name(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &attr, &idx, 1, 0)));
  (void)cudaGetLastError();
  printf("cudaMemcpyBatchAsync without attributes: %s\n",
         err_name(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, NULL, NULL, 0, s)));
  (void)cudaGetLastError();
  attr.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
  printf("cudaMemcpyBatchAsync with an invalid access order: %s\n",
         err_name(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &attr, &idx, 1, s)));
  (void)cudaGetLastError();
  printf("cudaMemcpy3DBatchAsync with flags 1: %s\n", err_name(cudaMemcpy3DBatchAsync(1, op, 1, s)));
  (void)cudaGetLastError();
  CK(cudaStreamSynchronize(s));
  CK(cudaGetLastError());

  CK(cudaStreamDestroy(s));
  CK(cudaFreeArray(arr));
  CK(cudaFree(dvol));
  CK(cudaFree(d1));
  CK(cudaFree(d2));
  CK(cudaFreeHost(h_in));
  CK(cudaFreeHost(h_out));
  return sample_pass();
}
