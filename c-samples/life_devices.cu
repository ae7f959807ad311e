// life_devices: which device the runtime picks. cudaSetValidDevices (its
// documented errors, and the device a new thread then starts on),
// cudaChooseDevice, and CUDA_VISIBLE_DEVICES, which the driver reads at
// cuInit: each value runs in a fresh child process (set before its first
// CUDA call) that reports the device count, cudaSetDevice/cudaMalloc and
// whether its device 0 is the parent's device 0 (by UUID).
// Links with -lcuda.
#include <cuda.h>
#define SAMPLE_NAME "life_devices"
#include "common/check.h"
#include "common/life.h"
#include <string>
#include <thread>

static void uuid_text(const cudaUUID_t &u, char *out) {
  static const char hex[] = "0123456789abcdef";
  static const int dash[] = {4, 6, 8, 10};
  int k = 0;
  for (int i = 0; i < 16; i++) {
    for (int d : dash)
      if (i == d) out[k++] = '-';
    unsigned char c = (unsigned char)u.bytes[i];
    out[k++] = hex[c >> 4];
    out[k++] = hex[c & 15];
  }
  out[k] = 0;
}

// Child: what this process sees with the CUDA_VISIBLE_DEVICES it got.
static int visible_child(void) {
  int n = -1;
  cudaError_t e = cudaGetDeviceCount(&n);
  printf("cudaGetDeviceCount -> %s, count %d\n", cudaGetErrorName(e), e == cudaSuccess ? n : -1);
  LIFE(cudaSetDevice(0));
  void *p = NULL;
  LIFE(cudaMalloc(&p, 16));
  if (e == cudaSuccess && n > 0) {
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    char u[40];
    uuid_text(prop.uuid, u);
    const char *parent = getenv("LIFE_PARENT_UUID0");
    printf("device 0 is the parent's device 0: %s\n", parent && !strcmp(parent, u) ? "yes" : "no");
    if (n > 1) {
      CK(cudaGetDeviceProperties(&prop, n - 1));
      uuid_text(prop.uuid, u);
      printf("device %d is the parent's device 0: %s\n", n - 1,
             parent && !strcmp(parent, u) ? "yes" : "no");
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(argv[1], "visible")) return visible_child();
    sample_fail("unknown mode %s", argv[1]);
  }
  CKD(cuInit(0));
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  printf("devices: %s\n", n == 1 ? "1" : "more than 1");
  life_state("after cudaGetDeviceCount");

  printf("[cudaSetValidDevices]\n");
  int zero[1] = {0};
  LIFE(cudaSetValidDevices(zero, 1));
  life_state("after cudaSetValidDevices({0}, 1)");
  int dev = -1;
  std::thread([&dev] { cudaGetDevice(&dev); }).join();
  printf("a new thread starts on device %d\n", dev);
  SOFT(dev == 0, "new thread on device %d after cudaSetValidDevices({0})", dev);
  LIFE(cudaSetValidDevices(NULL, 0));
  LIFE(cudaSetValidDevices(NULL, 1));
  int bad_dev[1] = {n};
  LIFE(cudaSetValidDevices(bad_dev, 1));
  int neg[1] = {-1};
  LIFE(cudaSetValidDevices(neg, 1));
  int *many = (int *)calloc(n + 1, sizeof(int));
  LIFE(cudaSetValidDevices(many, n + 1));
  free(many);
  LIFE(cudaGetLastError());
  if (n > 1) {
    int last[1] = {n - 1};
    LIFE(cudaSetValidDevices(last, 1));
    std::thread([&dev] { cudaGetDevice(&dev); }).join();
    printf("with the last device valid only, a new thread starts on the last device: %s\n",
           dev == n - 1 ? "yes" : "no");
  }
  LIFE(cudaSetValidDevices(NULL, 0));
  life_state("after the cudaSetValidDevices calls");

  printf("[cudaChooseDevice]\n");
  cudaDeviceProp want;
  memset(&want, 0, sizeof want);
  dev = -1;
  LIFE(cudaChooseDevice(&dev, &want));
  printf("nothing asked: device %d\n", dev);
  want.major = 9;
  want.minor = 0;
  dev = -1;
  LIFE(cudaChooseDevice(&dev, &want));
  printf("compute capability 9.0: device %d\n", dev);
  want.major = 99;
  dev = -1;
  LIFE(cudaChooseDevice(&dev, &want));
  printf("compute capability 99.0: device %d\n", dev);
  want.major = 0;
  want.totalGlobalMem = (size_t)1 << 50;
  dev = -1;
  LIFE(cudaChooseDevice(&dev, &want));
  printf("1 PiB of memory: device %d\n", dev);
  LIFE(cudaChooseDevice(NULL, &want));
  LIFE(cudaChooseDevice(&dev, NULL));
  life_state("after cudaChooseDevice");

  printf("[CUDA_VISIBLE_DEVICES]\n");
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  char u[40];
  uuid_text(prop.uuid, u);
  setenv("LIFE_PARENT_UUID0", u, 1);
  char full[48], prefix[16], missing[16], two[32], bad_first[32];
  snprintf(full, sizeof full, "GPU-%s", u);
  snprintf(prefix, sizeof prefix, "GPU-%.8s", u);
  snprintf(missing, sizeof missing, "%d", n);
  snprintf(two, sizeof two, "0,%d", n);
  snprintf(bad_first, sizeof bad_first, "%d,0", n);
  struct {
    const char *value;
    const char *title;
  } cases[] = {
      {NULL, "unset"},
      {"0", "\"0\""},
      {"", "\"\" (empty)"},
      {missing, "the device count (no such device)"},
      {two, "\"0,<count>\" (a valid one, then none)"},
      {bad_first, "\"<count>,0\" (an invalid one first)"},
      {"-1", "\"-1\""},
      {full, "\"GPU-<uuid of device 0>\""},
      {prefix, "\"GPU-<first 8 hex digits>\""},
      {"GPU-ffffffff", "\"GPU-ffffffff\" (no such uuid)"},
  };
  for (auto &c : cases) {
    char title[128];
    snprintf(title, sizeof title, "CUDA_VISIBLE_DEVICES=%s", c.title);
    int rc = life_child(title, "visible", "CUDA_VISIBLE_DEVICES", c.value, 60);
    SOFT(rc == 0, "child for %s exited %d", c.title, rc);
  }
  return life_finish();
}
