// ext_interop_headless: graphics interop on a server without a display.
// No GL context, no EGL display, no VDPAU device: every OpenGL, EGL and
// VDPAU call goes to the driver, whose error is the real behaviour, and
// its NAME is printed. Then the cudaGraphics* calls on NULL resources,
// the deprecated cudaGLSetGLDevice, and a check that the runtime keeps
// working. The GL/EGL/VDPAU headers are not needed: their types are plain
// integers and pointers, so the functions are declared here.
#define SAMPLE_NAME "ext_interop_headless"
#include "common/check.h"
#include <stdint.h>
#include <string.h>

extern "C" {
// cuda_gl_interop.h (GLuint and GLenum are unsigned int).
cudaError_t cudaGLGetDevices(unsigned int *pCudaDeviceCount, int *pCudaDevices,
                             unsigned int cudaDeviceCount, int deviceList);
cudaError_t cudaGraphicsGLRegisterImage(cudaGraphicsResource_t *resource, unsigned int image,
                                        unsigned int target, unsigned int flags);
cudaError_t cudaGraphicsGLRegisterBuffer(cudaGraphicsResource_t *resource, unsigned int buffer,
                                         unsigned int flags);
cudaError_t cudaGLSetGLDevice(int device);
cudaError_t cudaGLRegisterBufferObject(unsigned int bufObj);
cudaError_t cudaGLMapBufferObject(void **devPtr, unsigned int bufObj);
cudaError_t cudaGLUnmapBufferObject(unsigned int bufObj);
cudaError_t cudaGLUnregisterBufferObject(unsigned int bufObj);
cudaError_t cudaGLSetBufferObjectMapFlags(unsigned int bufObj, unsigned int flags);
cudaError_t cudaGLMapBufferObjectAsync(void **devPtr, unsigned int bufObj, cudaStream_t stream);
cudaError_t cudaGLUnmapBufferObjectAsync(unsigned int bufObj, cudaStream_t stream);
// cuda_egl_interop.h (EGLImageKHR and EGLStreamKHR are pointers, EGLint int).
typedef void *cudaEglStreamConnection;
cudaError_t cudaGraphicsEGLRegisterImage(cudaGraphicsResource_t *pCudaResource, void *image,
                                         unsigned int flags);
cudaError_t cudaEGLStreamConsumerConnect(cudaEglStreamConnection *conn, void *eglStream);
cudaError_t cudaEGLStreamConsumerConnectWithFlags(cudaEglStreamConnection *conn, void *eglStream,
                                                  unsigned int flags);
cudaError_t cudaEGLStreamConsumerDisconnect(cudaEglStreamConnection *conn);
cudaError_t cudaEGLStreamProducerConnect(cudaEglStreamConnection *conn, void *eglStream,
                                         int width, int height);
cudaError_t cudaEGLStreamProducerDisconnect(cudaEglStreamConnection *conn);
cudaError_t cudaGraphicsResourceGetMappedEglFrame(void *eglFrame, cudaGraphicsResource_t resource,
                                                  unsigned int index, unsigned int mipLevel);
// cuda_vdpau_interop.h (VdpDevice and the surfaces are uint32_t).
typedef int VdpGetProcAddress(uint32_t device, uint32_t function_id, void **function_pointer);
cudaError_t cudaVDPAUGetDevice(int *device, uint32_t vdpDevice,
                               VdpGetProcAddress *vdpGetProcAddress);
cudaError_t cudaGraphicsVDPAURegisterVideoSurface(cudaGraphicsResource_t *resource,
                                                  uint32_t vdpSurface, unsigned int flags);
cudaError_t cudaGraphicsVDPAURegisterOutputSurface(cudaGraphicsResource_t *resource,
                                                   uint32_t vdpSurface, unsigned int flags);
}

// A VDPAU "device" that has nothing: every lookup fails (status 1 is
// VDP_STATUS_NO_IMPLEMENTATION), so the driver never calls into VDPAU.
static int no_vdpau(uint32_t device, uint32_t function_id, void **function_pointer) {
  (void)device;
  (void)function_id;
  if (function_pointer) *function_pointer = NULL;
  return 1;
}

static void note(const char *what, cudaError_t e) {
  printf("%-48s %s\n", what, err_name(e));
  (void)cudaGetLastError();
}

__global__ void twice(int *p) { p[threadIdx.x] *= 2; }

int main() {
  CK(cudaFree(0));

  // OpenGL without a context.
  unsigned int n = 77;
  int devs[4] = {-1, -1, -1, -1};
  note("cudaGLGetDevices all", cudaGLGetDevices(&n, devs, 4, 1 /* cudaGLDeviceListAll */));
  note("cudaGLGetDevices, null count", cudaGLGetDevices(NULL, devs, 4, 1));
  cudaGraphicsResource_t res = NULL;
  note("cudaGraphicsGLRegisterBuffer buffer 0", cudaGraphicsGLRegisterBuffer(&res, 0, 0));
  note("cudaGraphicsGLRegisterBuffer buffer 1", cudaGraphicsGLRegisterBuffer(&res, 1, 0));
  note("cudaGraphicsGLRegisterImage texture 1 (2D)",
       cudaGraphicsGLRegisterImage(&res, 1, 0x0DE1 /* GL_TEXTURE_2D */, 0));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  void *p = NULL;
  note("cudaGLRegisterBufferObject 1", cudaGLRegisterBufferObject(1));
  note("cudaGLSetBufferObjectMapFlags 1", cudaGLSetBufferObjectMapFlags(1, 0));
  note("cudaGLMapBufferObject 1", cudaGLMapBufferObject(&p, 1));
  note("cudaGLMapBufferObjectAsync 1", cudaGLMapBufferObjectAsync(&p, 1, 0));
  note("cudaGLUnmapBufferObjectAsync 1", cudaGLUnmapBufferObjectAsync(1, 0));
  note("cudaGLUnmapBufferObject 1", cudaGLUnmapBufferObject(1));
  note("cudaGLUnregisterBufferObject 1", cudaGLUnregisterBufferObject(1));
  note("cudaGLMapBufferObject, null pointer", cudaGLMapBufferObject(NULL, 1));
#pragma GCC diagnostic pop

  // EGL without a display.
  cudaEglStreamConnection conn = NULL;
  note("cudaEGLStreamConsumerConnect null, null", cudaEGLStreamConsumerConnect(NULL, NULL));
  note("cudaEGLStreamConsumerConnect no stream", cudaEGLStreamConsumerConnect(&conn, NULL));
  note("cudaEGLStreamConsumerConnectWithFlags", cudaEGLStreamConsumerConnectWithFlags(&conn, NULL, 0));
  note("cudaEGLStreamConsumerDisconnect null", cudaEGLStreamConsumerDisconnect(NULL));
  note("cudaEGLStreamProducerConnect no stream", cudaEGLStreamProducerConnect(&conn, NULL, 64, 64));
  note("cudaEGLStreamProducerDisconnect null", cudaEGLStreamProducerDisconnect(NULL));
  note("cudaGraphicsEGLRegisterImage NULL image", cudaGraphicsEGLRegisterImage(&res, NULL, 0));
  alignas(8) unsigned char frame[512];
  memset(frame, 0, sizeof(frame));
  note("cudaGraphicsResourceGetMappedEglFrame NULL",
       cudaGraphicsResourceGetMappedEglFrame(frame, NULL, 0, 0));
  note("cudaGraphicsResourceGetMappedEglFrame, null out",
       cudaGraphicsResourceGetMappedEglFrame(NULL, NULL, 0, 0));

  // VDPAU without a device.
  int vdev = -5;
  note("cudaVDPAUGetDevice bogus device", cudaVDPAUGetDevice(&vdev, 1, no_vdpau));
  note("cudaGraphicsVDPAURegisterVideoSurface 1", cudaGraphicsVDPAURegisterVideoSurface(&res, 1, 0));
  note("cudaGraphicsVDPAURegisterOutputSurface 1", cudaGraphicsVDPAURegisterOutputSurface(&res, 1, 0));

  // Graphics resources that do not exist.
  cudaGraphicsResource_t none = NULL;
  note("cudaGraphicsUnregisterResource NULL", cudaGraphicsUnregisterResource(NULL));
  note("cudaGraphicsMapResources 1 x NULL", cudaGraphicsMapResources(1, &none, 0));
  note("cudaGraphicsUnmapResources 1 x NULL", cudaGraphicsUnmapResources(1, &none, 0));
  note("cudaGraphicsMapResources count 0", cudaGraphicsMapResources(0, NULL, 0));
  note("cudaGraphicsMapResources count -1", cudaGraphicsMapResources(-1, &none, 0));
  note("cudaGraphicsResourceSetMapFlags NULL", cudaGraphicsResourceSetMapFlags(NULL, 0));
  size_t size = 0;
  note("cudaGraphicsResourceGetMappedPointer NULL", cudaGraphicsResourceGetMappedPointer(&p, &size, NULL));
  cudaArray_t arr = NULL;
  note("cudaGraphicsSubResourceGetMappedArray NULL", cudaGraphicsSubResourceGetMappedArray(&arr, NULL, 0, 0));
  cudaMipmappedArray_t mip = NULL;
  note("cudaGraphicsResourceGetMappedMipmappedArray NULL",
       cudaGraphicsResourceGetMappedMipmappedArray(&mip, NULL));

  // The deprecated device selection for GL, after the runtime started.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  note("cudaGLSetGLDevice 0 after initialization", cudaGLSetGLDevice(0));
  note("cudaGLSetGLDevice 99", cudaGLSetGLDevice(99));
#pragma GCC diagnostic pop
  int cur = -1;
  CK(cudaGetDevice(&cur));
  printf("current device afterwards: %d\n", cur);

  // The runtime still works.
  int *d = NULL, h[64];
  for (int i = 0; i < 64; i++) h[i] = i;
  CK(cudaMalloc(&d, sizeof(h)));
  CK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  twice<<<1, 64>>>(d);
  CK_LAUNCH();
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) EXPECT(h[i] == 2 * i, "h[%d] = %d", i, h[i]);
  CK(cudaFree(d));
  printf("launch and copies afterwards: ok\n");
  return sample_pass();
}
