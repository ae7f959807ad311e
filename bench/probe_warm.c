/* probe_warm: which public driver calls run the driver code a first
 * library load needs (issue 8, docs/first-launch.md finding 11).
 *
 * NVIDIA's runtime start-up (cudaFree(0)) leaves about 48 pages more of
 * libcuda's code mapped than ours, kernels registered or not, and two of
 * those 64 KiB runs are what the first cuLibraryLoadData + cuLaunchKernel
 * then faults in under ours. Its start-up calls go through private tables;
 * this probe looks for public calls a runtime could make at start-up for
 * its own reasons (its whole table of entry points, the loading mode,
 * device and context properties) that
 * run the same code: after the runtime's cudaFree(0) (whichever
 * libcudart.so.13 LD_LIBRARY_PATH names), each call in turn, the pages of
 * the driver's code it mapped in (bench/pages.h); then the first load and
 * launch of k0.fatbin, and the pages that still faulted.
 *
 *   probe_warm [CALL...]   the named calls only (default: all of them
 *                          but the diagnostic "invalid" pair, which runs
 *                          only when named)
 *
 * "PROBE warm <call> rc <n> pages <n> runs <start+len...>" per call,
 * "PROBE warm first_launch us <t> faults <n> pages <n> runs ..." last. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "probe.h"

extern int cudaFree(void *);

typedef CUresult (*GetProc)(const char *, void **, int, unsigned long long, int *);
static GetProc gpa;

static void *fn(const char *name) {
    void *p = NULL;
    int status = 0;
    if (gpa(name, &p, 13000, 0, &status) || !p) return NULL;
    return p;
}

static struct pages_snap before, after;

/* Asks cuGetProcAddress_v2 for every function the driver exports (by
 * base name: a "_v2"-style suffix dropped), as a runtime that resolves
 * its whole table at start-up does; returns how many were found, -1 when
 * the driver's file cannot be read. */
static long resolve_all(void *drv) {
    Dl_info info;
    void *any = dlsym(drv, "cuInit");
    if (!any || !dladdr(any, &info) || !info.dli_fname) return -1;
    FILE *f = fopen(info.dli_fname, "rb");
    if (!f) return -1;
    long found = 0;
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = NULL;
    char *strs = NULL;
    Elf64_Sym *syms = NULL;
    if (fread(&eh, sizeof eh, 1, f) != 1 || eh.e_shentsize != sizeof(Elf64_Shdr) || !eh.e_shnum) goto out;
    sh = calloc(eh.e_shnum, sizeof *sh);
    if (!sh || fseek(f, (long)eh.e_shoff, SEEK_SET) || fread(sh, sizeof *sh, eh.e_shnum, f) != eh.e_shnum) goto out;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh.e_shnum) continue;
        Elf64_Shdr *st = &sh[sh[i].sh_link];
        strs = malloc(st->sh_size + 1);
        syms = malloc(sh[i].sh_size);
        if (!strs || !syms || fseek(f, (long)st->sh_offset, SEEK_SET) || fread(strs, 1, st->sh_size, f) != st->sh_size ||
            fseek(f, (long)sh[i].sh_offset, SEEK_SET) || fread(syms, 1, sh[i].sh_size, f) != sh[i].sh_size)
            goto out;
        strs[st->sh_size] = 0;
        for (size_t j = 0; j < sh[i].sh_size / sizeof *syms; j++) {
            if (syms[j].st_name >= st->sh_size || ELF64_ST_TYPE(syms[j].st_info) != STT_FUNC) continue;
            char name[256];
            snprintf(name, sizeof name, "%s", strs + syms[j].st_name);
            if (strncmp(name, "cu", 2)) continue;
            char *v = strstr(name, "_v");
            if (v && v[2] >= '0' && v[2] <= '9') *v = 0;
            found += fn(name) != NULL;
        }
        break;
    }
out:
    free(sh);
    free(strs);
    free(syms);
    fclose(f);
    return found;
}

/* Prints the driver-code pages that became present since `before`. */
static void driver_pages(const char *what, long rc, const char *extra) {
    pages_take(&after);
    long n = 0;
    char runs[4000] = "";
    for (long m = 0; m < after.nmaps; m++) {
        const struct pages_map *map = &after.maps[m];
        if (strstr(map->name, "libcuda.so") && strstr(map->name, ":x"))
            n += pages_runs(&after, &before, map, runs + strlen(runs), sizeof runs - strlen(runs));
    }
    printf("PROBE warm %s rc %ld%s pages %ld runs%s\n", what, rc, extra, n, runs);
    /* The next call starts from here. */
    struct pages_snap t = before;
    before = after;
    after = t;
}

int main(int argc, char **argv) {
    void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    gpa = drv ? (GetProc)dlsym(drv, "cuGetProcAddress_v2") : NULL;
    if (!gpa) {
        printf("probe_warm: no driver\n");
        return 2;
    }
    if (cudaFree(0)) {
        printf("probe_warm: cudaFree(0) failed\n");
        return 3;
    }
    void *image = slurp("k0.fatbin");
    (void)faults();
    (void)now_us();
    pages_init(&before);
    pages_init(&after);
    pages_take(&before);

    /* The calls, each with arguments valid after the start-up (device 0,
     * its primary context current). */
    int i1 = 0, i2 = 0;
    unsigned u1 = 0;
    size_t z1 = 0, z2 = 0;
    char name[256], bus[64];
    unsigned char uuid[16];
    void *h = NULL;
    int ndone = 0;
#define CALL(label, sym, params, ...)                                   \
    do {                                                              \
        int want = argc < 2;                                          \
        for (int a = 1; a < argc; a++) want |= !strcmp(argv[a], label); \
        CUresult(*f) params = (CUresult(*) params)fn(sym);            \
        if (!want) break;                                             \
        long rc = f ? (long)f(__VA_ARGS__) : -1;                      \
        driver_pages(label, rc, "");                                  \
        ndone++;                                                      \
    } while (0)
    {
        int want = argc < 2;
        for (int a = 1; a < argc; a++) want |= !strcmp(argv[a], "cuGetProcAddress.all");
        if (want) {
            driver_pages("cuGetProcAddress.all", resolve_all(drv), " (entry points found)");
            ndone++;
        }
    }
    CALL("cuModuleGetLoadingMode", "cuModuleGetLoadingMode", (int *), &i1);
    CALL("cuDriverGetVersion", "cuDriverGetVersion", (int *), &i1);
    CALL("cuCtxGetDevice", "cuCtxGetDevice", (int *, void *), &i1, NULL);
    CALL("cuCtxGetFlags", "cuCtxGetFlags", (unsigned *), &u1);
    CALL("cuCtxGetApiVersion", "cuCtxGetApiVersion", (void *, unsigned *), NULL, &u1);
    CALL("cuCtxGetStreamPriorityRange", "cuCtxGetStreamPriorityRange", (int *, int *), &i1, &i2);
    CALL("cuCtxGetCacheConfig", "cuCtxGetCacheConfig", (int *), &i1);
    CALL("cuCtxGetLimit.stack", "cuCtxGetLimit", (size_t *, int), &z1, 0);
    CALL("cuCtxGetLimit.heap", "cuCtxGetLimit", (size_t *, int), &z1, 2);
    CALL("cuDeviceGetName", "cuDeviceGetName", (char *, int, int), name, (int)sizeof name, 0);
    CALL("cuDeviceGetUuid", "cuDeviceGetUuid", (unsigned char *, int), uuid, 0);
    CALL("cuDeviceTotalMem", "cuDeviceTotalMem", (size_t *, int), &z1, 0);
    CALL("cuDeviceGetPCIBusId", "cuDeviceGetPCIBusId", (char *, int, int), bus, (int)sizeof bus, 0);
    CALL("cuMemGetInfo", "cuMemGetInfo", (size_t *, size_t *), &z1, &z2);
    CALL("cuDeviceGetDefaultMemPool", "cuDeviceGetDefaultMemPool", (void **, int), &h, 0);
    CALL("cuStreamQuery.null", "cuStreamQuery", (void *), NULL);
    CALL("cuCtxSynchronize", "cuCtxSynchronize", (void *), NULL);
    CALL("cuCtxGetId", "cuCtxGetId", (void *, unsigned long long *), NULL, (unsigned long long *)&z1);
    CALL("cuDeviceGetExecAffinitySupport", "cuDeviceGetExecAffinitySupport", (int *, int, int), &i1, 0, 0);
    CALL("cuCtxPushCurrent.pop", "cuCtxPopCurrent", (void **), &h);
    CALL("cuCtxPushCurrent", "cuCtxPushCurrent", (void *), h);
    {
        /* Objects a runtime makes for its own use: a stream, an event,
         * device and pinned memory, made and freed. */
        int want = argc < 2;
        for (int a = 1; a < argc; a++) want |= !strcmp(argv[a], "objects");
        CUresult (*sc)(void **, unsigned) = (CUresult(*)(void **, unsigned))fn("cuStreamCreate");
        CUresult (*sd)(void *) = (CUresult(*)(void *))fn("cuStreamDestroy");
        CUresult (*ec)(void **, unsigned) = (CUresult(*)(void **, unsigned))fn("cuEventCreate");
        CUresult (*ed)(void *) = (CUresult(*)(void *))fn("cuEventDestroy");
        CUresult (*ma)(unsigned long long *, size_t) = (CUresult(*)(unsigned long long *, size_t))fn("cuMemAlloc");
        CUresult (*mf)(unsigned long long) = (CUresult(*)(unsigned long long))fn("cuMemFree");
        CUresult (*ha)(void **, size_t, unsigned) = (CUresult(*)(void **, size_t, unsigned))fn("cuMemHostAlloc");
        CUresult (*hf)(void *) = (CUresult(*)(void *))fn("cuMemFreeHost");
        if (want && sc && sd && ec && ed && ma && mf && ha && hf) {
            void *st = NULL, *ev = NULL, *host = NULL;
            unsigned long long dp = 0;
            long rc = sc(&st, 1);
            rc += rc ? 0 : sd(st);
            driver_pages("cuStreamCreate+Destroy", rc, "");
            rc = ec(&ev, 0);
            rc += rc ? 0 : ed(ev);
            driver_pages("cuEventCreate+Destroy", rc, "");
            rc = ma(&dp, 4096);
            rc += rc ? 0 : mf(dp);
            driver_pages("cuMemAlloc+Free", rc, "");
            rc = ha(&host, 4096, 0);
            rc += rc ? 0 : hf(host);
            driver_pages("cuMemHostAlloc+FreeHost", rc, "");
            ndone += 4;
        }
    }
    {
        /* Every device attribute, as a runtime filling cudaDeviceProp. */
        int want = argc < 2;
        for (int a = 1; a < argc; a++) want |= !strcmp(argv[a], "cuDeviceGetAttribute.all");
        CUresult (*f)(int *, int, int) = (CUresult(*)(int *, int, int))fn("cuDeviceGetAttribute");
        if (want && f) {
            long bad = 0;
            for (int attr = 1; attr < 160; attr++) bad += f(&i1, attr, 0) != 0;
            driver_pages("cuDeviceGetAttribute.all", bad, " (failed attributes)");
            ndone++;
        }
    }

    /* Diagnostic only, not for a runtime to copy: the library calls with
     * invalid arguments, refused at once. Do their entry checks run the
     * code the first load needs? (Only with "invalid" named.) */
    {
        int want = 0;
        for (int a = 1; a < argc; a++) want |= !strcmp(argv[a], "invalid");
        CUresult (*lk)(void **, void *, const char *) = (CUresult(*)(void **, void *, const char *))fn("cuLibraryGetKernel");
        CUresult (*ll)(void **, const void *, void *, void *, unsigned, void *, void *, unsigned) =
            (CUresult(*)(void **, const void *, void *, void *, unsigned, void *, void *, unsigned))fn("cuLibraryLoadData");
        if (want && lk && ll) {
            void *x = NULL;
            driver_pages("invalid:cuLibraryGetKernel(NULL library)", lk(&x, NULL, "k"), "");
            driver_pages("invalid:cuLibraryLoadData(NULL image)", ll(&x, NULL, NULL, NULL, 0, NULL, NULL, 0), "");
            ndone += 2;
        }
    }

    /* The first load and launch, as a lazy runtime makes them. */
    CUresult (*load)(void **, const void *, void *, void *, unsigned, void *, void *, unsigned) =
        (CUresult(*)(void **, const void *, void *, void *, unsigned, void *, void *, unsigned))fn("cuLibraryLoadData");
    CUresult (*get)(void **, void *, const char *) = (CUresult(*)(void **, void *, const char *))fn("cuLibraryGetKernel");
    CUresult (*launch)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **,
                       void **) = (CUresult(*)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                               unsigned, void *, void **, void **))fn("cuLaunchKernel");
    if (!image || !load || !get || !launch) {
        printf("probe_warm: no k0.fatbin or no library entry points\n");
        return 2;
    }
    void *lib = NULL, *k = NULL;
    long f0 = faults();
    double t0 = now_us();
    CUresult r = load(&lib, image, NULL, NULL, 0, NULL, NULL, 0);
    if (!r) r = get(&k, lib, "_Z2k0v");
    if (!r) r = launch(k, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL);
    double t1 = now_us();
    long f1 = faults();
    char extra[80];
    snprintf(extra, sizeof extra, " us %.1f faults %ld after %d calls", t1 - t0, f1 - f0, ndone);
    driver_pages("first_launch", r, extra);
    return r != 0;
}
