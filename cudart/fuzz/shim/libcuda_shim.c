/* The fuzz harness's libcuda.so.1: one export, cuGetProcAddress_v2, that
 * forwards to the entry-point table the harness installs (its fake driver,
 * written in Rust inside the fuzz target, src/driver.rs). The runtime
 * dlopens "libcuda.so.1"; the harness has already opened this file by path,
 * and the dynamic loader answers the name with it (its soname). Not a
 * driver, not NVIDIA code: written for the fuzz target only. */
#include <stddef.h>

typedef int (*get_proc_t)(const char *, void **, int, unsigned long long, int *);

static get_proc_t installed;

__attribute__((visibility("default"))) void fuzz_driver_install(get_proc_t f) { installed = f; }

__attribute__((visibility("default"))) int cuGetProcAddress_v2(const char *symbol, void **pfn,
                                                               int version, unsigned long long flags,
                                                               int *status) {
    if (!installed) {
        if (pfn) *pfn = NULL;
        return 3; /* CUDA_ERROR_NOT_INITIALIZED */
    }
    return installed(symbol, pfn, version, flags, status);
}
