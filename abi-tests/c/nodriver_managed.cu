/* nodriver_managed.cu: a module with a __managed__ variable, no driver.
 *
 * Observed with NVIDIA's libcudart.so.13 13.0.96 (wheel), no libcuda.so.1:
 *   - Registration (__cudaRegisterManagedVar in the constructors) touches no
 *     driver (libcuda.so.1 is not even looked for) and the program exits 0
 *     when main returns at once (`nodriver_managed quit`).
 *   - Touching the variable from the host with no driver CRASHES (SIGSEGV)
 *     under NVIDIA's runtime: the access goes through __cudaInitModule,
 *     which fails, and the generated code then dereferences the still-null
 *     managed pointer. That is not a behaviour to copy or to compare, so
 *     the access is guarded: the program only touches the variable when
 *     cudaGetDeviceCount reports a device, which never happens here.
 *   - cudaGetDeviceCount -> 35, sticky like every other call. */
#include <string.h>
#include "report.h"

__managed__ int managed_counter = 7;

__global__ void bump(void) { managed_counter++; }

int main(int argc, char **argv) {
    printf("main\n");
    fflush(stdout);
    if (argc > 1 && strcmp(argv[1], "quit") == 0) return 0;
    int n = -1;
    CALL("cudaGetDeviceCount", cudaGetDeviceCount(&n));
    SHOW("count = %d", n);
    if (n > 0) {
        SHOW("managed_counter = %d", managed_counter);
    } else {
        SHOW("%s", "managed access skipped (no device)");
    }
    return 0;
}
