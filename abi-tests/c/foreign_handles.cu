// Handles the runtime saw destroyed, before and after another maker of
// driver handles is loaded (tests/garbage_handles.rs, with the test-double
// driver handing destroyed addresses out again: CUDA_DOUBLE_REUSE=1).
//  1. Alone in the process, the runtime refuses a stream and an event it
//     destroyed: no one else makes handles, so they are stale.
//  2. The program loads argv[1], a library that makes a stream and an
//     event through the driver; the driver hands out the same addresses.
//     Those live handles must work in every call.
#include "report.h"
#include <dlfcn.h>

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    cudaStream_t s;
    cudaEvent_t e;
    CALL("cudaStreamCreateWithFlags", cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CALL("cudaEventCreate", cudaEventCreate(&e));
    CALL("cudaEventDestroy", cudaEventDestroy(e));
    CALL("cudaStreamDestroy", cudaStreamDestroy(s));
    CALL("cudaStreamQuery(destroyed)", cudaStreamQuery(s));
    CALL("cudaEventQuery(destroyed)", cudaEventQuery(e));

    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
        printf("dlopen: %s\n", dlerror());
        return 1;
    }
    void *(*make_stream)(void) = (void *(*)(void))dlsym(lib, "direct_stream");
    void *(*make_event)(void) = (void *(*)(void))dlsym(lib, "direct_event");
    if (!make_stream || !make_event) return 1;
    cudaStream_t ds = (cudaStream_t)make_stream();
    cudaEvent_t de = (cudaEvent_t)make_event();
    printf("driver stream at the destroyed stream's address: %s\n", ds == s ? "yes" : "no");
    printf("driver event at the destroyed event's address: %s\n", de == e ? "yes" : "no");
    CALL("cudaStreamQuery(driver stream)", cudaStreamQuery(ds));
    CALL("cudaEventRecord(driver event, driver stream)", cudaEventRecord(de, ds));
    CALL("cudaEventQuery(driver event)", cudaEventQuery(de));
    CALL("cudaStreamWaitEvent(driver stream, driver event)", cudaStreamWaitEvent(ds, de, 0));
    CALL("cudaStreamSynchronize(driver stream)", cudaStreamSynchronize(ds));
    unsigned flags = 0;
    CALL("cudaStreamGetFlags(driver stream)", cudaStreamGetFlags(ds, &flags));
    printf("  flags = %u\n", flags);
    return 0;
}
