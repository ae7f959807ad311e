/* garbage_handles.cu: stream and event handles the runtime never made.
 * Garbage addresses (nothing mapped there) are refused with
 * cudaErrorInvalidResourceHandle instead of reaching the driver, which
 * would read them and crash (NVIDIA's runtime crashes there on the H200);
 * handles the driver made directly (as another runtime in the process
 * makes them) work in every call. Linked against the test-double driver
 * (-lcuda); run only with it. */
#include <cuda.h>
#include "report.h"

__global__ void noop(void) {}

#define DRV(name, expr)                                                       \
    do {                                                                      \
        CUresult drv_err_ = (expr);                                           \
        printf("%s -> %d\n", name, (int)drv_err_);                            \
    } while (0)

#define REPORT(name, expr)                                                    \
    do {                                                                      \
        abi_report(name, (expr));                                             \
        abi_report_last();                                                    \
    } while (0)

int main(void) {
    cudaStream_t bad_stream = (cudaStream_t)0xdeadbeef;
    cudaEvent_t bad_event = (cudaEvent_t)0xdeadbeef;
    cudaEvent_t ev;
    REPORT("cudaEventCreate", cudaEventCreate(&ev));

    REPORT("cudaEventQuery(garbage)", cudaEventQuery(bad_event));
    REPORT("cudaEventSynchronize(garbage)", cudaEventSynchronize(bad_event));
    REPORT("cudaStreamQuery(garbage)", cudaStreamQuery(bad_stream));
    REPORT("cudaStreamSynchronize(garbage)", cudaStreamSynchronize(bad_stream));
    REPORT("cudaEventRecord(event, garbage stream)", cudaEventRecord(ev, bad_stream));
    REPORT("cudaStreamWaitEvent(0, garbage event)", cudaStreamWaitEvent(0, bad_event, 0));
    noop<<<1, 1, 0, bad_stream>>>();
    abi_report_last();

    /* Graph, node, executable-graph and array handles nobody made. */
    size_t count = 0;
    REPORT("cudaGraphGetNodes(garbage)", cudaGraphGetNodes((cudaGraph_t)0xdeadbeef, NULL, &count));
    cudaHostNodeParams hp;
    REPORT("cudaGraphHostNodeGetParams(garbage)", cudaGraphHostNodeGetParams((cudaGraphNode_t)0xdeadbeef, &hp));
    REPORT("cudaGraphLaunch(garbage)", cudaGraphLaunch((cudaGraphExec_t)0xdeadbeef, 0));
    cudaChannelFormatDesc cd;
    cudaExtent ex;
    unsigned int af;
    REPORT("cudaArrayGetInfo(garbage)", cudaArrayGetInfo(&cd, &ex, &af, (cudaArray_t)0xdeadbeef));
    char buf[16];
    REPORT("cudaMemcpyFromArray2D(garbage)", cudaMemcpy2DFromArray(buf, 16, (cudaArray_const_t)0xdeadbeef, 0, 0, 4, 1, cudaMemcpyDeviceToHost));
    REPORT("cudaMemcpy(low addresses)", cudaMemcpy((void *)0x1000, (void *)0x2000, 4, cudaMemcpyDefault));

    /* Handles made through the driver, as another runtime makes them. */
    CUstream ds;
    CUevent de;
    DRV("cuStreamCreate", cuStreamCreate(&ds, 0));
    DRV("cuEventCreate", cuEventCreate(&de, 0));
    for (int round = 0; round < 2; round++) {
        REPORT("cudaEventRecord(driver event, driver stream)", cudaEventRecord((cudaEvent_t)de, (cudaStream_t)ds));
        REPORT("cudaStreamWaitEvent(driver stream, driver event)", cudaStreamWaitEvent((cudaStream_t)ds, (cudaEvent_t)de, 0));
        noop<<<1, 1, 0, (cudaStream_t)ds>>>();
        abi_report_last();
        REPORT("cudaStreamQuery(driver stream)", cudaStreamQuery((cudaStream_t)ds));
        REPORT("cudaEventSynchronize(driver event)", cudaEventSynchronize((cudaEvent_t)de));
        REPORT("cudaEventQuery(driver event)", cudaEventQuery((cudaEvent_t)de));
    }
    REPORT("cudaEventDestroy", cudaEventDestroy(ev));
    DRV("cuEventDestroy", cuEventDestroy(de));
    DRV("cuStreamDestroy", cuStreamDestroy(ds));
    printf("done\n");
    return 0;
}
