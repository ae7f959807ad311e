// texture_stencil: an image-processing loop (issue 30's corpus): a 2D float
// image in CUDA arrays, read through texture objects (point sampling,
// clamped unnormalized coordinates) by a 5-point Jacobi stencil that writes
// the next image through a surface object, the two arrays ping-ponging for
// 40 steps; the same stencil on pitched linear memory (cudaMallocPitch)
// with a shared-memory tile, cudaMemcpy2D in and out; and a texture on
// pitched linear memory (cudaResourceTypePitch2D). All three must give the
// host's result bit for bit (adds and one multiply by 0.25, in one order:
// no contraction is possible). Size 1024 x 1024 (CORPUS_STENCIL_N).
#define SAMPLE_NAME "texture_stencil"
#include "../../c-samples/common/check.h"
#include <string.h>
#include <vector>

#define TILE 16

__device__ __host__ inline float stencil5(float c, float l, float r, float u, float d) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(__fadd_rn(__fadd_rn(__fadd_rn(__fadd_rn(l, r), u), d), c), 0.25f);
#else
  return ((((l + r) + u) + d) + c) * 0.25f;
#endif
}

__global__ void tex_step(cudaTextureObject_t in, cudaSurfaceObject_t out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float c = tex2D<float>(in, x + 0.5f, y + 0.5f);
  float l = tex2D<float>(in, x - 0.5f, y + 0.5f), r = tex2D<float>(in, x + 1.5f, y + 0.5f);
  float u = tex2D<float>(in, x + 0.5f, y - 0.5f), d = tex2D<float>(in, x + 0.5f, y + 1.5f);
  surf2Dwrite(stencil5(c, l, r, u, d), out, x * (int)sizeof(float), y);
}

// The same step with a shared-memory tile (and a one-pixel halo, clamped
// at the image border as the texture's address mode does).
__global__ void smem_step(const float *in, size_t in_pitch, float *out, size_t out_pitch, int w,
                          int h) {
  __shared__ float tile[TILE + 2][TILE + 2];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  auto at = [&](int xx, int yy) {
    xx = min(max(xx, 0), w - 1);
    yy = min(max(yy, 0), h - 1);
    return ((const float *)((const char *)in + yy * in_pitch))[xx];
  };
  tile[threadIdx.y + 1][threadIdx.x + 1] = at(x, y);
  if (threadIdx.x == 0) tile[threadIdx.y + 1][0] = at(x - 1, y);
  if (threadIdx.x == TILE - 1) tile[threadIdx.y + 1][TILE + 1] = at(x + 1, y);
  if (threadIdx.y == 0) tile[0][threadIdx.x + 1] = at(x, y - 1);
  if (threadIdx.y == TILE - 1) tile[TILE + 1][threadIdx.x + 1] = at(x, y + 1);
  __syncthreads();
  if (x >= w || y >= h) return;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  ((float *)((char *)out + y * out_pitch))[x] =
      stencil5(tile[ty][tx], tile[ty][tx - 1], tile[ty][tx + 1], tile[ty - 1][tx], tile[ty + 1][tx]);
}

// One step reading a texture bound to pitched linear memory.
__global__ void pitch_tex_step(cudaTextureObject_t in, float *out, size_t out_pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float c = tex2D<float>(in, x + 0.5f, y + 0.5f);
  float l = tex2D<float>(in, x - 0.5f, y + 0.5f), r = tex2D<float>(in, x + 1.5f, y + 0.5f);
  float u = tex2D<float>(in, x + 0.5f, y - 0.5f), d = tex2D<float>(in, x + 0.5f, y + 1.5f);
  ((float *)((char *)out + y * out_pitch))[x] = stencil5(c, l, r, u, d);
}

static void host_step(const std::vector<float> &in, std::vector<float> &out, int w, int h) {
  auto at = [&](int x, int y) {
    x = x < 0 ? 0 : (x >= w ? w - 1 : x);
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    return in[(size_t)y * w + x];
  };
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      out[(size_t)y * w + x] = stencil5(at(x, y), at(x - 1, y), at(x + 1, y), at(x, y - 1), at(x, y + 1));
}

static void compare(const std::vector<float> &got, const std::vector<float> &want, const char *what) {
  for (size_t i = 0; i < want.size(); i++)
    if (memcmp(&got[i], &want[i], sizeof(float)))
      sample_fail("%s: pixel %zu is %.9g, expected %.9g", what, i, got[i], want[i]);
}

static cudaTextureObject_t array_texture(cudaArray_t a) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 0;
  cudaTextureObject_t t;
  CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

int main() {
  int n = 1024;
  if (const char *e = getenv("CORPUS_STENCIL_N")) n = atoi(e);
  if (n < TILE) n = TILE;
  n -= n % TILE;
  const int w = n, h = n, steps = 40;
  const size_t row = (size_t)w * sizeof(float);
  printf("image %d x %d, %d steps\n", w, h, steps);

  std::vector<float> img((size_t)w * h), ref((size_t)w * h), tmp((size_t)w * h), got((size_t)w * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) img[(size_t)y * w + x] = (float)((x * 7 + y * 13) % 256);
  ref = img;
  for (int s = 0; s < steps; s++) {
    host_step(ref, tmp, w, h);
    ref.swap(tmp);
  }

  // 1. Arrays: texture in, surface out, ping-pong.
  cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
  cudaArray_t arr[2];
  for (int k = 0; k < 2; k++) CK(cudaMallocArray(&arr[k], &ch, w, h, cudaArraySurfaceLoadStore));
  CK(cudaMemcpy2DToArray(arr[0], 0, 0, img.data(), row, row, h, cudaMemcpyHostToDevice));
  cudaTextureObject_t tex[2];
  cudaSurfaceObject_t surf[2];
  for (int k = 0; k < 2; k++) {
    tex[k] = array_texture(arr[k]);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr[k];
    CK(cudaCreateSurfaceObject(&surf[k], &rd));
  }
  dim3 block(TILE, TILE), grid(w / TILE, h / TILE);
  for (int s = 0; s < steps; s++) {
    tex_step<<<grid, block>>>(tex[s % 2], surf[(s + 1) % 2], w, h);
    CK(cudaGetLastError());
  }
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy2DFromArray(got.data(), row, arr[steps % 2], 0, 0, row, h, cudaMemcpyDeviceToHost));
  compare(got, ref, "texture + surface on arrays");
  printf("texture + surface objects on two arrays: %d steps match the host\n", steps);

  // 2. Pitched linear memory, shared-memory tiles.
  float *lin[2];
  size_t pitch[2];
  for (int k = 0; k < 2; k++) CK(cudaMallocPitch((void **)&lin[k], &pitch[k], row, h));
  CK(cudaMemcpy2D(lin[0], pitch[0], img.data(), row, row, h, cudaMemcpyHostToDevice));
  for (int s = 0; s < steps; s++) {
    smem_step<<<grid, block>>>(lin[s % 2], pitch[s % 2], lin[(s + 1) % 2], pitch[(s + 1) % 2], w, h);
    CK(cudaGetLastError());
  }
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy2D(got.data(), row, lin[steps % 2], pitch[steps % 2], row, h, cudaMemcpyDeviceToHost));
  compare(got, ref, "shared-memory stencil on pitched memory");
  printf("shared-memory tiles on pitched memory: %d steps match the host\n", steps);

  // 3. A texture on pitched linear memory, rebuilt each step (as programs
  //    that bind textures to whatever buffer is current do).
  CK(cudaMemcpy2D(lin[0], pitch[0], img.data(), row, row, h, cudaMemcpyHostToDevice));
  for (int s = 0; s < steps; s++) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypePitch2D;
    rd.res.pitch2D.devPtr = lin[s % 2];
    rd.res.pitch2D.desc = ch;
    rd.res.pitch2D.width = w;
    rd.res.pitch2D.height = h;
    rd.res.pitch2D.pitchInBytes = pitch[s % 2];
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    pitch_tex_step<<<grid, block>>>(t, lin[(s + 1) % 2], pitch[(s + 1) % 2], w, h);
    CK(cudaGetLastError());
    CK(cudaDestroyTextureObject(t));
  }
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy2D(got.data(), row, lin[steps % 2], pitch[steps % 2], row, h, cudaMemcpyDeviceToHost));
  compare(got, ref, "texture on pitched memory");
  printf("texture objects on pitched memory, one per step: %d steps match the host\n", steps);

  for (int k = 0; k < 2; k++) {
    CK(cudaDestroyTextureObject(tex[k]));
    CK(cudaDestroySurfaceObject(surf[k]));
    CK(cudaFreeArray(arr[k]));
    CK(cudaFree(lin[k]));
  }
  return sample_pass();
}
