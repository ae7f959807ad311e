// static_two_copies: the driver's current context, asked of libcuda.so.1
// directly (the program and the plugin each compare what their runtime
// made current).
#pragma once
#include <dlfcn.h>

static void *current_context(void) {
  typedef int (*ctx_get_fn)(void **);
  void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!drv) return nullptr;
  ctx_get_fn get = (ctx_get_fn)dlsym(drv, "cuCtxGetCurrent");
  void *ctx = nullptr;
  if (get) get(&ctx);
  dlclose(drv);
  return ctx;
}
