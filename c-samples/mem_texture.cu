// mem_texture: texture and surface objects. A kernel samples a texture
// object over a 2D float array with linear filtering and normalized
// coordinates (texel centres exact, midpoints the average); an 8-bit array
// read as normalized floats and as integers (cudaReadModeElementType);
// textures over pitched and linear memory; the descriptions read back
// (cudaGetTextureObject{Resource,Texture,ResourceView}Desc); a surface
// object written by a kernel (surf2Dwrite) and its resource description.
#define SAMPLE_NAME "mem_texture"
#include "common/check.h"
#include <math.h>
#include <string.h>

#define TW 8
#define TH 4

__global__ void sample2d(cudaTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x >= w || y >= h) return;
  // Texel centre, and the midpoint towards the next texel in x.
  out[2 * (y * w + x)] = tex2D<float>(t, (x + 0.5f) / w, (y + 0.5f) / h);
  out[2 * (y * w + x) + 1] = tex2D<float>(t, (x + 1.0f) / w, (y + 0.5f) / h);
}

__global__ void read_u8(cudaTextureObject_t as_float, cudaTextureObject_t as_int, float *f,
                        unsigned *u, int n) {
  int x = threadIdx.x;
  if (x >= n) return;
  f[x] = tex2D<float>(as_float, x + 0.5f, 0.5f);
  u[x] = tex2D<unsigned char>(as_int, x + 0.5f, 0.5f);
}

__global__ void fetch_linear(cudaTextureObject_t t, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i);
}

__global__ void fetch_pitch(cudaTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void write_surface(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) surf2Dwrite(x * 3 + y * 1000, s, x * (int)sizeof(int), y);
}

static float texel(int x, int y) { return (float)(x * x + 10 * y); }

int main() {
  // A float array and a texture over it: linear filter, normalized coords.
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CK(cudaMallocArray(&arr, &fd, TW, TH, 0));
  float host[TH][TW];
  for (int y = 0; y < TH; y++)
    for (int x = 0; x < TW; x++) host[y][x] = texel(x, y);
  CK(cudaMemcpy2DToArray(arr, 0, 0, host, sizeof(host[0]), sizeof(host[0]), TH,
                         cudaMemcpyHostToDevice));
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof(rd));
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = cudaAddressModeClamp;
  td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t tex;
  CK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
  float *out;
  CK(cudaMallocManaged(&out, 2 * TW * TH * sizeof(float)));
  sample2d<<<1, dim3(TW, TH)>>>(tex, out, TW, TH);
  CK_LAUNCH();
  for (int y = 0; y < TH; y++)
    for (int x = 0; x < TW; x++) {
      float centre = out[2 * (y * TW + x)], mid = out[2 * (y * TW + x) + 1];
      float want_mid = x + 1 < TW ? (texel(x, y) + texel(x + 1, y)) / 2 : texel(x, y);
      EXPECT(fabsf(centre - texel(x, y)) < 1e-3f, "centre (%d,%d) = %g", x, y, centre);
      EXPECT(fabsf(mid - want_mid) < 0.02f * (1 + fabsf(want_mid)), "midpoint (%d,%d) = %g, expected %g",
             x, y, mid, want_mid);
    }
  printf("linear filtering, normalized coordinates: %d centres exact, midpoints averaged\n", TW * TH);

  // The descriptions read back.
  cudaTextureDesc tb;
  memset(&tb, 0x5a, sizeof(tb));
  CK(cudaGetTextureObjectTextureDesc(&tb, tex));
  printf("texture desc: address %d/%d, filter %d, readMode %d, normalized %d, sRGB %d\n",
         (int)tb.addressMode[0], (int)tb.addressMode[1], (int)tb.filterMode, (int)tb.readMode,
         tb.normalizedCoords, tb.sRGB);
  EXPECT(tb.filterMode == cudaFilterModeLinear && tb.normalizedCoords == 1 &&
             tb.readMode == cudaReadModeElementType,
         "texture desc differs");
  cudaResourceDesc rb;
  memset(&rb, 0x5a, sizeof(rb));
  CK(cudaGetTextureObjectResourceDesc(&rb, tex));
  printf("resource desc: type %d, same array: %s\n", (int)rb.resType,
         rb.res.array.array == arr ? "yes" : "no");
  EXPECT(rb.resType == cudaResourceTypeArray && rb.res.array.array == arr, "resource desc differs");
  cudaResourceViewDesc vb;
  printf("view desc of a texture without a view: %s\n",
         err_name(cudaGetTextureObjectResourceViewDesc(&vb, tex)));
  (void)cudaGetLastError();

  // An 8-bit array read as normalized floats and as integers.
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t u8;
  CK(cudaMallocArray(&u8, &ud, 4, 1, 0));
  unsigned char bytes[4] = {0, 51, 128, 255};
  CK(cudaMemcpy2DToArray(u8, 0, 0, bytes, 4, 4, 1, cudaMemcpyHostToDevice));
  rd.res.array.array = u8;
  td.filterMode = cudaFilterModePoint;
  td.normalizedCoords = 0;
  td.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t as_float, as_int;
  CK(cudaCreateTextureObject(&as_float, &rd, &td, NULL));
  td.readMode = cudaReadModeElementType;
  CK(cudaCreateTextureObject(&as_int, &rd, &td, NULL));
  float *f;
  unsigned *u;
  CK(cudaMallocManaged(&f, 4 * sizeof(float)));
  CK(cudaMallocManaged(&u, 4 * sizeof(unsigned)));
  read_u8<<<1, 4>>>(as_float, as_int, f, u, 4);
  CK_LAUNCH();
  for (int i = 0; i < 4; i++) {
    EXPECT(fabsf(f[i] - bytes[i] / 255.0f) < 1e-3f, "normalized read %d = %g", i, f[i]);
    EXPECT(u[i] == bytes[i], "integer read %d = %u", i, u[i]);
  }
  printf("8-bit texels: normalized floats %.3f %.3f %.3f %.3f, integers %u %u %u %u\n", f[0], f[1],
         f[2], f[3], u[0], u[1], u[2], u[3]);
  CK(cudaGetTextureObjectTextureDesc(&tb, as_float));
  printf("readMode back: normalized-float texture %d, element-type texture ", (int)tb.readMode);
  CK(cudaGetTextureObjectTextureDesc(&tb, as_int));
  printf("%d\n", (int)tb.readMode);
  EXPECT(tb.readMode == cudaReadModeElementType, "element-type read mode lost");

  // Linear memory: tex1Dfetch.
  const int n = 64;
  float *lin, *res;
  CK(cudaMalloc(&lin, n * sizeof(float)));
  CK(cudaMallocManaged(&res, n * sizeof(float)));
  float vals[n];
  for (int i = 0; i < n; i++) vals[i] = i * 0.25f;
  CK(cudaMemcpy(lin, vals, sizeof(vals), cudaMemcpyHostToDevice));
  cudaResourceDesc lr;
  memset(&lr, 0, sizeof(lr));
  lr.resType = cudaResourceTypeLinear;
  lr.res.linear.devPtr = lin;
  lr.res.linear.desc = fd;
  lr.res.linear.sizeInBytes = sizeof(vals);
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = cudaAddressModeClamp;
  td.addressMode[1] = cudaAddressModeClamp;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tl;
  CK(cudaCreateTextureObject(&tl, &lr, &td, NULL));
  fetch_linear<<<1, n>>>(tl, res, n);
  CK_LAUNCH();
  for (int i = 0; i < n; i++) EXPECT(res[i] == vals[i], "tex1Dfetch %d = %g", i, res[i]);
  CK(cudaGetTextureObjectResourceDesc(&rb, tl));
  printf("linear texture: fetched %d values; resource back: type %d, size %zu, desc {%d,%d,%d,%d,%d}\n",
         n, (int)rb.resType, rb.res.linear.sizeInBytes, rb.res.linear.desc.x, rb.res.linear.desc.y,
         rb.res.linear.desc.z, rb.res.linear.desc.w, (int)rb.res.linear.desc.f);
  EXPECT(rb.res.linear.devPtr == lin && rb.res.linear.sizeInBytes == sizeof(vals), "linear desc");

  // Pitched 2D memory.
  float *pitched;
  size_t pitch;
  CK(cudaMallocPitch(&pitched, &pitch, TW * sizeof(float), TH));
  CK(cudaMemcpy2D(pitched, pitch, host, sizeof(host[0]), sizeof(host[0]), TH, cudaMemcpyHostToDevice));
  cudaResourceDesc pr;
  memset(&pr, 0, sizeof(pr));
  pr.resType = cudaResourceTypePitch2D;
  pr.res.pitch2D.devPtr = pitched;
  pr.res.pitch2D.desc = fd;
  pr.res.pitch2D.width = TW;
  pr.res.pitch2D.height = TH;
  pr.res.pitch2D.pitchInBytes = pitch;
  cudaTextureObject_t tp;
  CK(cudaCreateTextureObject(&tp, &pr, &td, NULL));
  fetch_pitch<<<1, dim3(TW, TH)>>>(tp, res, TW, TH);
  CK_LAUNCH();
  for (int y = 0; y < TH; y++)
    for (int x = 0; x < TW; x++) EXPECT(res[y * TW + x] == host[y][x], "pitch2D (%d,%d)", x, y);
  CK(cudaGetTextureObjectResourceDesc(&rb, tp));
  EXPECT(rb.resType == cudaResourceTypePitch2D && rb.res.pitch2D.width == TW &&
             rb.res.pitch2D.height == TH && rb.res.pitch2D.pitchInBytes == pitch &&
             rb.res.pitch2D.desc.x == 32 && rb.res.pitch2D.desc.f == cudaChannelFormatKindFloat,
         "pitch2D desc differs");
  printf("pitch2D texture: %d texels ok, description read back\n", TW * TH);

  // A texture with a resource view (print what the runtime says).
  cudaResourceViewDesc view;
  memset(&view, 0, sizeof(view));
  view.format = cudaResViewFormatFloat1;
  view.width = TW;
  view.height = TH;
  cudaTextureObject_t tv = 0;
  rd.res.array.array = arr;
  cudaError_t e = cudaCreateTextureObject(&tv, &rd, &td, &view);
  printf("texture with a float1 view: %s\n", err_name(e));
  (void)cudaGetLastError();
  if (e == cudaSuccess) {
    memset(&vb, 0, sizeof(vb));
    e = cudaGetTextureObjectResourceViewDesc(&vb, tv);
    printf("  view back: %s, format %d, %zux%zu\n", err_name(e), (int)vb.format, vb.width, vb.height);
    (void)cudaGetLastError();
    CK(cudaDestroyTextureObject(tv));
  }

  // A surface object over an int array: a kernel writes, a copy reads.
  cudaChannelFormatDesc idesc = cudaCreateChannelDesc<int>();
  cudaArray_t sarr;
  CK(cudaMallocArray(&sarr, &idesc, TW, TH, cudaArraySurfaceLoadStore));
  cudaResourceDesc sr;
  memset(&sr, 0, sizeof(sr));
  sr.resType = cudaResourceTypeArray;
  sr.res.array.array = sarr;
  cudaSurfaceObject_t surf;
  CK(cudaCreateSurfaceObject(&surf, &sr));
  write_surface<<<1, dim3(TW, TH)>>>(surf, TW, TH);
  CK_LAUNCH();
  int sback[TH][TW];
  CK(cudaMemcpy2DFromArray(sback, sizeof(sback[0]), sarr, 0, 0, sizeof(sback[0]), TH,
                           cudaMemcpyDeviceToHost));
  for (int y = 0; y < TH; y++)
    for (int x = 0; x < TW; x++)
      EXPECT(sback[y][x] == x * 3 + y * 1000, "surface (%d,%d) = %d", x, y, sback[y][x]);
  memset(&rb, 0, sizeof(rb));
  CK(cudaGetSurfaceObjectResourceDesc(&rb, surf));
  EXPECT(rb.resType == cudaResourceTypeArray && rb.res.array.array == sarr, "surface desc");
  printf("surface object: kernel wrote %d values, resource read back\n", TW * TH);
  cudaSurfaceObject_t nosurf = 0;
  printf("surface over an array without cudaArraySurfaceLoadStore: %s\n",
         err_name(cudaCreateSurfaceObject(&nosurf, &rd)));
  (void)cudaGetLastError();
  printf("cudaCreateTextureObject without a texture desc: %s\n",
         err_name(cudaCreateTextureObject(&tv, &rd, NULL, NULL)));
  (void)cudaGetLastError();
  CK(cudaGetLastError());

  CK(cudaDestroySurfaceObject(surf));
  CK(cudaDestroyTextureObject(tex));
  CK(cudaDestroyTextureObject(as_float));
  CK(cudaDestroyTextureObject(as_int));
  CK(cudaDestroyTextureObject(tl));
  CK(cudaDestroyTextureObject(tp));
  CK(cudaFreeArray(arr));
  CK(cudaFreeArray(u8));
  CK(cudaFreeArray(sarr));
  CK(cudaFree(lin));
  CK(cudaFree(pitched));
  CK(cudaFree(out));
  CK(cudaFree(f));
  CK(cudaFree(u));
  CK(cudaFree(res));
  return sample_pass();
}
