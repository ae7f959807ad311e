/* probe_startup: the runtime's start-up (cudaFree(0)) in a program with no
 * kernels at all (plain C, nothing registered), then every page of the
 * process present, as runs per mapping (bench/pages.h, group
 * "startup_present"). Compared with `probe_first` under PROBE_PAGES=2 (the
 * same start-up in a program with one kernel registered): which of the
 * driver's code a runtime's start-up runs because the program has kernels
 * (issue 8, docs/first-launch.md finding 11). */
#include <stdio.h>

#include "pages.h"

extern int cudaFree(void *);

int main(void) {
    static struct pages_snap after;
    int e = cudaFree(0);
    pages_init(&after);
    pages_take(&after);
    pages_list(&after, "startup_present");
    printf("PROBE startup cudaFree0 %d\n", e);
    return e != 0;
}
