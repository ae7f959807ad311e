// mem_arrays: CUDA arrays. Channel descriptors from cudaCreateChannelDesc
// (the header templates call the exported function) and back from arrays
// of many formats (cudaGetChannelDesc); cudaMallocArray / cudaMalloc3DArray
// and cudaArrayGetInfo; 2D copies to, from and between arrays with offsets
// (bytes along x), sync and async; the deprecated linear copies that wrap
// along rows (cudaMemcpyToArray, FromArray, ArrayToArray); a 3D copy into
// and out of a 3D array (positions and extent in elements); layered arrays.
// Edge cases print the runtime's answer.
#define SAMPLE_NAME "mem_arrays"
#include "common/check.h"
#include <string.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const char *kind_name(cudaChannelFormatKind k) {
  switch (k) {
    case cudaChannelFormatKindSigned: return "signed";
    case cudaChannelFormatKindUnsigned: return "unsigned";
    case cudaChannelFormatKindFloat: return "float";
    case cudaChannelFormatKindNone: return "none";
    case cudaChannelFormatKindUnsignedNormalized8X4: return "unorm8x4";
    case cudaChannelFormatKindSignedNormalized16X2: return "snorm16x2";
    case cudaChannelFormatKindUnsignedBlockCompressed1: return "bc1";
    case cudaChannelFormatKindNV12: return "nv12";
    default: return "other";
  }
}

static void show(const char *what, cudaChannelFormatDesc d) {
  printf("%-10s {%d,%d,%d,%d,%s}\n", what, d.x, d.y, d.z, d.w, kind_name(d.f));
}

static bool same(cudaChannelFormatDesc a, cudaChannelFormatDesc b) {
  return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w && a.f == b.f;
}

// A 1D array of this format: its descriptor must come back unchanged.
static void round_trip(const char *what, cudaChannelFormatDesc d, bool must) {
  cudaArray_t a = NULL;
  cudaError_t e = cudaMallocArray(&a, &d, 16, 0, 0);
  if (e != cudaSuccess) {
    EXPECT(!must, "%s: cudaMallocArray -> %s", what, err_name(e));
    printf("round trip %-10s: cudaMallocArray -> %s\n", what, err_name(e));
    (void)cudaGetLastError();
    return;
  }
  cudaChannelFormatDesc back;
  memset(&back, 0x7f, sizeof(back));
  CK(cudaGetChannelDesc(&back, a));
  printf("round trip %-10s: %s\n", what, same(d, back) ? "same" : "DIFFERENT");
  EXPECT(same(d, back), "%s: descriptor changed", what);
  CK(cudaFreeArray(a));
}

#define AW 19
#define AH 7

int main() {
  // Channel descriptors built by the header templates.
  show("float4", cudaCreateChannelDesc<float4>());
  show("uchar2", cudaCreateChannelDesc<uchar2>());
  show("short", cudaCreateChannelDesc<short>());
  show("half", cudaCreateChannelDescHalf());
  show("unorm8x4", cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized8X4>());
  show("explicit", cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned));

  round_trip("char1", cudaCreateChannelDesc<char1>(), true);
  round_trip("uchar2", cudaCreateChannelDesc<uchar2>(), true);
  round_trip("short4", cudaCreateChannelDesc<short4>(), true);
  round_trip("ushort1", cudaCreateChannelDesc<ushort1>(), true);
  round_trip("int2", cudaCreateChannelDesc<int2>(), true);
  round_trip("uint4", cudaCreateChannelDesc<uint4>(), true);
  round_trip("half2", cudaCreateChannelDescHalf2(), true);
  round_trip("float", cudaCreateChannelDesc<float>(), true);
  round_trip("float4", cudaCreateChannelDesc<float4>(), true);
  round_trip("unorm8x4", cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized8X4>(), false);
  round_trip("snorm16x2", cudaCreateChannelDesc<cudaChannelFormatKindSignedNormalized16X2>(), false);

  // A 2D float array: info, copies in and out with offsets.
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a, b;
  CK(cudaMallocArray(&a, &fd, AW, AH, 0));
  CK(cudaMallocArray(&b, &fd, AW, AH, cudaArraySurfaceLoadStore));
  cudaChannelFormatDesc info;
  cudaExtent ext;
  unsigned flags = 99;
  CK(cudaArrayGetInfo(&info, &ext, &flags, a));
  printf("2D array: extent %zux%zux%zu, flags %u, ", ext.width, ext.height, ext.depth, flags);
  show("format", info);
  CK(cudaArrayGetInfo(NULL, &ext, NULL, b));
  CK(cudaArrayGetInfo(NULL, NULL, &flags, b));
  printf("surface array flags %u\n", flags);

  float host[AH][AW + 5], back[AH][AW + 5];
  for (int y = 0; y < AH; y++)
    for (int x = 0; x < AW + 5; x++) host[y][x] = (float)(x + 100 * y);
  CK(cudaMemcpy2DToArray(a, 0, 0, host, sizeof(host[0]), AW * sizeof(float), AH,
                         cudaMemcpyHostToDevice));
  memset(back, 0, sizeof(back));
  CK(cudaMemcpy2DFromArray(back, sizeof(back[0]), a, 0, 0, AW * sizeof(float), AH,
                           cudaMemcpyDeviceToHost));
  for (int y = 0; y < AH; y++)
    for (int x = 0; x < AW; x++) EXPECT(back[y][x] == host[y][x], "2D round trip (%d,%d)", x, y);
  printf("cudaMemcpy2DToArray / FromArray: whole array ok\n");

  // Offsets: a 4x3 block at (x=5 elements, y=2) read into the host corner.
  memset(back, 0, sizeof(back));
  CK(cudaMemcpy2DFromArray(back, sizeof(back[0]), a, 5 * sizeof(float), 2, 4 * sizeof(float), 3,
                           cudaMemcpyDeviceToHost));
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 4; x++)
      EXPECT(back[y][x] == host[y + 2][x + 5], "offset read (%d,%d) = %g", x, y, back[y][x]);
  EXPECT(back[0][4] == 0 && back[3][0] == 0, "offset read spilled");
  printf("cudaMemcpy2DFromArray with offsets: ok\n");

  // Async, on a stream: write a block into b, copy a -> b array to array.
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CK(cudaMemcpy2DToArrayAsync(b, 0, 0, host, sizeof(host[0]), AW * sizeof(float), AH,
                              cudaMemcpyHostToDevice, s));
  float patch[2][3] = {{-1, -2, -3}, {-4, -5, -6}};
  CK(cudaMemcpy2DToArrayAsync(b, 10 * sizeof(float), 4, patch, sizeof(patch[0]), sizeof(patch[0]),
                              2, cudaMemcpyDefault, s));
  CK(cudaStreamSynchronize(s));
  memset(back, 0, sizeof(back));
  CK(cudaMemcpy2DFromArrayAsync(back, sizeof(back[0]), b, 0, 0, AW * sizeof(float), AH,
                                cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  for (int y = 0; y < AH; y++)
    for (int x = 0; x < AW; x++) {
      bool in = x >= 10 && x < 13 && y >= 4 && y < 6;
      float want = in ? patch[y - 4][x - 10] : host[y][x];
      EXPECT(back[y][x] == want, "async patch (%d,%d) = %g, expected %g", x, y, back[y][x], want);
    }
  printf("cudaMemcpy2DToArrayAsync / FromArrayAsync with a patch: ok\n");

  // Array to array: the patched 3x2 block of b into a at (0, 0).
  CK(cudaMemcpy2DArrayToArray(a, 0, 0, b, 10 * sizeof(float), 4, 3 * sizeof(float), 2,
                              cudaMemcpyDeviceToDevice));
  CK(cudaMemcpy2DFromArray(back, sizeof(back[0]), a, 0, 0, AW * sizeof(float), AH,
                           cudaMemcpyDeviceToHost));
  EXPECT(back[0][0] == -1 && back[1][2] == -6 && back[0][3] == host[0][3], "array to array");
  printf("cudaMemcpy2DArrayToArray: ok\n");

  // The deprecated linear copies: 30 floats from (x=15, y=1) wrap over two
  // rows of 19 floats.
  float line[30], line_back[40];
  for (int i = 0; i < 30; i++) line[i] = 1000.0f + i;
  CK(cudaMemcpyToArray(a, 15 * sizeof(float), 1, line, sizeof(line), cudaMemcpyHostToDevice));
  CK(cudaMemcpy2DFromArray(back, sizeof(back[0]), a, 0, 0, AW * sizeof(float), AH,
                           cudaMemcpyDeviceToHost));
  for (int i = 0; i < 30; i++) {
    int at = 15 + i, x = at % AW, y = 1 + at / AW;
    EXPECT(back[y][x] == line[i], "cudaMemcpyToArray element %d at (%d,%d) = %g", i, x, y, back[y][x]);
  }
  EXPECT(back[1][14] == host[1][14], "cudaMemcpyToArray wrote before its start");
  memset(line_back, 0, sizeof(line_back));
  CK(cudaMemcpyFromArray(line_back, a, 15 * sizeof(float), 1, sizeof(line), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 30; i++) EXPECT(line_back[i] == line[i], "cudaMemcpyFromArray %d", i);
  CK(cudaMemcpyFromArrayAsync(line_back, a, 0, 2, AW * sizeof(float), cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  EXPECT(line_back[0] == back[2][0] && line_back[AW - 1] == back[2][AW - 1], "FromArrayAsync row");
  // 30 floats into b from (0, 5): rows 5 and 6. Then 25 of them into a at
  // (3, 4): source and destination rows break at different places.
  CK(cudaMemcpyToArrayAsync(b, 0, 5, line, sizeof(line), cudaMemcpyHostToDevice, s));
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpyArrayToArray(a, 3 * sizeof(float), 4, b, 0, 5, 25 * sizeof(float),
                            cudaMemcpyDeviceToDevice));
  CK(cudaMemcpy2DFromArray(back, sizeof(back[0]), a, 0, 0, AW * sizeof(float), AH,
                           cudaMemcpyDeviceToHost));
  for (int i = 0; i < 25; i++) {
    int at = 3 + i, x = at % AW, y = 4 + at / AW;
    EXPECT(back[y][x] == line[i], "ArrayToArray %d at (%d,%d) = %g", i, x, y, back[y][x]);
  }
  printf("cudaMemcpyToArray / FromArray / ArrayToArray across rows: ok\n");
  cudaError_t e = cudaMemcpyToArray(a, 0, AH - 1, line, sizeof(line), cudaMemcpyHostToDevice);
  printf("cudaMemcpyToArray past the end: %s\n", err_name(e));
  (void)cudaGetLastError();

  // A 3D array: copy a host volume in with positions in elements, read back.
  const int X = 8, Y = 5, Z = 3;
  cudaArray_t v;
  cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
  CK(cudaMalloc3DArray(&v, &id, make_cudaExtent(X, Y, Z), 0));
  CK(cudaArrayGetInfo(NULL, &ext, &flags, v));
  printf("3D array: extent %zux%zux%zu, flags %u\n", ext.width, ext.height, ext.depth, flags);
  static int vol[Z][Y][X], vol_back[Z][Y][X];
  for (int z = 0; z < Z; z++)
    for (int y = 0; y < Y; y++)
      for (int x = 0; x < X; x++) vol[z][y][x] = x + 10 * y + 100 * z;
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(vol, X * sizeof(int), X, Y);
  p.dstArray = v;
  p.extent = make_cudaExtent(X, Y, Z);  // elements: an array takes part
  p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  memset(&p, 0, sizeof(p));
  p.srcArray = v;
  p.srcPos = make_cudaPos(2, 1, 1);  // elements for the array
  p.dstPtr = make_cudaPitchedPtr(vol_back, X * sizeof(int), X, Y);
  p.dstPos = make_cudaPos(0, 0, 0);
  p.extent = make_cudaExtent(4, 3, 2);
  p.kind = cudaMemcpyDeviceToHost;
  memset(vol_back, 0, sizeof(vol_back));
  CK(cudaMemcpy3D(&p));
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 4; x++)
        EXPECT(vol_back[z][y][x] == vol[z + 1][y + 1][x + 2], "3D array read (%d,%d,%d) = %d", x,
               y, z, vol_back[z][y][x]);
  EXPECT(vol_back[0][0][4] == 0, "3D array read spilled");
  printf("cudaMemcpy3D to and from a 3D array with positions: ok\n");
  cudaMemcpy3DParms both = p;
  both.srcPtr = make_cudaPitchedPtr(vol, X * sizeof(int), X, Y);
  printf("cudaMemcpy3D with both srcArray and srcPtr: %s\n", err_name(cudaMemcpy3D(&both)));
  (void)cudaGetLastError();

  // A layered 2D array.
  cudaArray_t layered;
  CK(cudaMalloc3DArray(&layered, &fd, make_cudaExtent(16, 16, 4), cudaArrayLayered));
  CK(cudaArrayGetInfo(NULL, &ext, &flags, layered));
  printf("layered array: extent %zux%zux%zu, flags %u\n", ext.width, ext.height, ext.depth, flags);

  // Edge cases.
  cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
  cudaArray_t bad = NULL;
  printf("cudaMallocArray with 3 channels: %s\n", err_name(cudaMallocArray(&bad, &three, 4, 4, 0)));
  (void)cudaGetLastError();
  cudaChannelFormatDesc none = cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
  printf("cudaMallocArray with kind none: %s\n", err_name(cudaMallocArray(&bad, &none, 4, 4, 0)));
  (void)cudaGetLastError();
  printf("cudaMallocArray with width 0: %s\n", err_name(cudaMallocArray(&bad, &fd, 0, 4, 0)));
  (void)cudaGetLastError();
  printf("cudaFreeArray(NULL): %s\n", err_name(cudaFreeArray(NULL)));
  (void)cudaGetLastError();
  printf("cudaArrayGetInfo with all outputs NULL: %s\n", err_name(cudaArrayGetInfo(NULL, NULL, NULL, a)));
  (void)cudaGetLastError();
  printf("cudaMemcpy2DToArray with width > spitch: %s\n",
         err_name(cudaMemcpy2DToArray(a, 0, 0, host, 4, 8, 1, cudaMemcpyHostToDevice)));
  (void)cudaGetLastError();
  cudaArraySparseProperties sp;
  printf("cudaArrayGetSparseProperties of a dense array: %s\n", err_name(cudaArrayGetSparseProperties(&sp, a)));
  (void)cudaGetLastError();
  cudaArrayMemoryRequirements mr;
  printf("cudaArrayGetMemoryRequirements of a plain array: %s\n",
         err_name(cudaArrayGetMemoryRequirements(&mr, a, 0)));
  (void)cudaGetLastError();
  cudaArray_t plane = NULL;
  printf("cudaArrayGetPlane of a single-plane array: %s\n", err_name(cudaArrayGetPlane(&plane, a, 0)));
  (void)cudaGetLastError();
  CK(cudaGetLastError());

  CK(cudaStreamDestroy(s));
  CK(cudaFreeArray(a));
  CK(cudaFreeArray(b));
  CK(cudaFreeArray(v));
  CK(cudaFreeArray(layered));
  return sample_pass();
}
