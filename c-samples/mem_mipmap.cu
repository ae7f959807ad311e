// mem_mipmap: a mipmapped array of 4 levels (64x32 halving down to 8x4).
// cudaMallocMipmappedArray; cudaGetMipmappedArrayLevel for every level
// with its extent (cudaArrayGetInfo); each level filled with its own value
// and read back; a texture object over the mipmapped array (point filter,
// point mipmap filter, level clamp) sampled with tex2DLod at every level;
// the mipmap fields of the texture description read back. Edge cases print
// the runtime's answer.
#define SAMPLE_NAME "mem_mipmap"
#include "common/check.h"
#include <string.h>

#define W0 64
#define H0 32
#define LEVELS 4

__global__ void sample_levels(cudaTextureObject_t t, float *out, int levels) {
  int l = threadIdx.x;
  if (l < levels) out[l] = tex2DLod<float>(t, 0.3f, 0.6f, (float)l);
}

static float level_value(int l) { return 10.0f * (l + 1) + 0.5f; }

int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t mip;
  CK(cudaMallocMipmappedArray(&mip, &fd, make_cudaExtent(W0, H0, 0), LEVELS, 0));

  static float buf[W0 * H0];
  for (int l = 0; l < LEVELS; l++) {
    cudaArray_t level = NULL;
    CK(cudaGetMipmappedArrayLevel(&level, mip, l));
    EXPECT(level != NULL, "level %d: no array", l);
    cudaChannelFormatDesc d;
    cudaExtent e;
    unsigned flags;
    CK(cudaArrayGetInfo(&d, &e, &flags, level));
    printf("level %d: %zux%zux%zu, format {%d,%d,%d,%d,%d}\n", l, e.width, e.height, e.depth, d.x,
           d.y, d.z, d.w, (int)d.f);
    EXPECT(e.width == (size_t)(W0 >> l) && e.height == (size_t)(H0 >> l), "level %d extent", l);
    size_t w = e.width, h = e.height;
    for (size_t i = 0; i < w * h; i++) buf[i] = level_value(l);
    CK(cudaMemcpy2DToArray(level, 0, 0, buf, w * sizeof(float), w * sizeof(float), h,
                           cudaMemcpyHostToDevice));
    memset(buf, 0, sizeof(buf));
    CK(cudaMemcpy2DFromArray(buf, w * sizeof(float), level, 0, 0, w * sizeof(float), h,
                             cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < w * h; i++)
      EXPECT(buf[i] == level_value(l), "level %d read back [%zu] = %g", l, i, buf[i]);
  }
  printf("every level filled and read back\n");

  cudaResourceDesc rd;
  memset(&rd, 0, sizeof(rd));
  rd.resType = cudaResourceTypeMipmappedArray;
  rd.res.mipmap.mipmap = mip;
  cudaTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.mipmapFilterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  td.minMipmapLevelClamp = 0;
  td.maxMipmapLevelClamp = LEVELS - 1;
  cudaTextureObject_t tex;
  CK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
  float *out;
  CK(cudaMallocManaged(&out, LEVELS * sizeof(float)));
  sample_levels<<<1, LEVELS>>>(tex, out, LEVELS);
  CK_LAUNCH();
  for (int l = 0; l < LEVELS; l++) {
    printf("tex2DLod level %d: %.1f\n", l, out[l]);
    EXPECT(out[l] == level_value(l), "tex2DLod level %d = %g", l, out[l]);
  }

  cudaTextureDesc tb;
  memset(&tb, 0x5a, sizeof(tb));
  CK(cudaGetTextureObjectTextureDesc(&tb, tex));
  printf("texture desc: mipmap filter %d, level clamp [%.1f, %.1f], bias %.1f\n",
         (int)tb.mipmapFilterMode, tb.minMipmapLevelClamp, tb.maxMipmapLevelClamp, tb.mipmapLevelBias);
  EXPECT(tb.maxMipmapLevelClamp == LEVELS - 1 && tb.mipmapFilterMode == cudaFilterModePoint,
         "mipmap fields differ");
  cudaResourceDesc rb;
  memset(&rb, 0, sizeof(rb));
  CK(cudaGetTextureObjectResourceDesc(&rb, tex));
  EXPECT(rb.resType == cudaResourceTypeMipmappedArray && rb.res.mipmap.mipmap == mip,
         "resource desc differs");
  printf("resource desc: mipmapped array, same handle\n");

  // Edge cases.
  cudaArray_t beyond = NULL;
  printf("cudaGetMipmappedArrayLevel(level %d): %s\n", LEVELS,
         err_name(cudaGetMipmappedArrayLevel(&beyond, mip, LEVELS)));
  (void)cudaGetLastError();
  cudaArraySparseProperties sp;
  printf("cudaMipmappedArrayGetSparseProperties of a dense mipmap: %s\n",
         err_name(cudaMipmappedArrayGetSparseProperties(&sp, mip)));
  (void)cudaGetLastError();
  cudaArrayMemoryRequirements mr;
  printf("cudaMipmappedArrayGetMemoryRequirements of a plain mipmap: %s\n",
         err_name(cudaMipmappedArrayGetMemoryRequirements(&mr, mip, 0)));
  (void)cudaGetLastError();
  cudaMipmappedArray_t too_many = NULL;
  printf("cudaMallocMipmappedArray with 9 levels for 64x32: %s\n",
         err_name(cudaMallocMipmappedArray(&too_many, &fd, make_cudaExtent(W0, H0, 0), 9, 0)));
  (void)cudaGetLastError();
  if (too_many) CK(cudaFreeMipmappedArray(too_many));
  printf("cudaFreeMipmappedArray(NULL): %s\n", err_name(cudaFreeMipmappedArray(NULL)));
  (void)cudaGetLastError();
  CK(cudaGetLastError());

  CK(cudaDestroyTextureObject(tex));
  CK(cudaFreeMipmappedArray(mip));
  CK(cudaFree(out));
  return sample_pass();
}
