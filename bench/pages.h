/* pages.h: which pages of the process became present over a stretch of
 * code (issue 8, the first-launch gap): a snapshot of the present bit of
 * every page of every accessible mapping (/proc/self/pagemap, bit 63),
 * taken before and after; the pages present after and not before are
 * the ones that stretch faulted in (or the kernel mapped around a fault),
 * listed per mapping. The snapshots allocate nothing on the heap (their
 * buffers are mmap'd, the files read with read(2)), so they leave the
 * heap the measured code finds as it was.
 *
 *   struct pages_snap a, b;
 *   pages_init(&a); pages_init(&b);   // buffers present in both snapshots
 *   pages_take(&a); ...measured...; pages_take(&b);
 *   pages_report(&a, &b, "first");   // after the measurement's output
 *
 * Output per mapping with a change: "PROBE <group> pages <mapping> <new>"
 * and "PROBE <group> pages_runs <mapping> <start>+<length>..." (the new
 * pages as runs, offsets into the mapping in pages, hex), "PROBE <group>
 * pages_gone <mapping> <n>" for pages no longer present. Names: the
 * file's name (":x" for code), [heap], [stack], or "anon". Mappings
 * larger than PAGES_MAX_MAPPING and those without access (the driver's
 * address reservations) are left out and counted. */
#ifndef BENCH_PAGES_H
#define BENCH_PAGES_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGES_MAX_MAPPINGS 4096
#define PAGES_MAX_MAPPING (512ul << 20)
#define PAGES_MAX_PRESENT (1ul << 21)
#define PAGES_MAPS_BYTES (1ul << 20)
#define PAGES_READ (1ul << 17)

struct pages_map {
    uint64_t lo, hi;
    char name[80];
};

struct pages_snap {
    struct pages_map *maps; /* PAGES_MAX_MAPPINGS */
    uint64_t *present;      /* page numbers, ascending */
    char *buf;              /* /proc/self/maps, PAGES_MAPS_BYTES */
    uint64_t *entries;      /* pagemap entries, PAGES_READ of them */
    long nmaps, npresent, skipped;
    int ok, truncated; /* truncated: a buffer ran out (the counts are then low) */
};

static inline void *pages_mmap(size_t n) {
    /* Populated: the buffers' pages are present before the first
     * snapshot, so they are no difference between two. */
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Reads /proc/self/maps into the snapshot's list (name: the path's last
 * component, or the bracketed name, or "anon"). */
static inline long pages_read_maps(struct pages_snap *s, char *buf) {
    int fd = open("/proc/self/maps", O_RDONLY);
    if (fd < 0) return -1;
    size_t n = 0;
    ssize_t r;
    while (n < PAGES_MAPS_BYTES - 1 && (r = read(fd, buf + n, PAGES_MAPS_BYTES - 1 - n)) > 0) n += (size_t)r;
    close(fd);
    buf[n] = 0;
    long count = 0;
    for (char *line = buf; *line && count < PAGES_MAX_MAPPINGS;) {
        char *end = strchr(line, '\n');
        if (end) *end = 0;
        unsigned long lo, hi;
        char perms[8];
        int off = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perms, &off) >= 3) {
            if (perms[0] == '-' && perms[1] == '-' && perms[2] == '-') {
                s->skipped++;
            } else if (hi - lo > PAGES_MAX_MAPPING) {
                s->skipped++;
            } else {
                struct pages_map *m = &s->maps[count++];
                m->lo = lo;
                m->hi = hi;
                const char *path = off ? line + off : "";
                const char *slash = strrchr(path, '/');
                const char *name = *path ? (slash ? slash + 1 : path) : "anon";
                snprintf(m->name, sizeof m->name, "%s%s", name, perms[2] == 'x' ? ":x" : "");
            }
        }
        if (!end) break;
        line = end + 1;
    }
    return count;
}

/* Maps the snapshot's buffers; before the first snapshot of a pair. */
static inline void pages_init(struct pages_snap *s) {
    memset(s, 0, sizeof *s);
    s->maps = (struct pages_map *)pages_mmap(PAGES_MAX_MAPPINGS * sizeof(struct pages_map));
    s->present = (uint64_t *)pages_mmap(PAGES_MAX_PRESENT * sizeof(uint64_t));
    s->buf = (char *)pages_mmap(PAGES_MAPS_BYTES);
    s->entries = (uint64_t *)pages_mmap(PAGES_READ * sizeof(uint64_t));
}

/* Takes a snapshot; s->ok is 0 when pagemap cannot be read. */
static inline void pages_take(struct pages_snap *s) {
    s->ok = s->truncated = 0;
    s->npresent = s->skipped = 0;
    int fd = open("/proc/self/pagemap", O_RDONLY);
    if (!s->maps || !s->present || !s->buf || !s->entries || fd < 0) {
        if (fd >= 0) close(fd);
        return;
    }
    s->nmaps = pages_read_maps(s, s->buf);
    if (s->nmaps < 0) {
        s->nmaps = 0;
        close(fd);
        return;
    }
    if (s->nmaps >= PAGES_MAX_MAPPINGS) s->truncated = 1;
    for (long i = 0; i < s->nmaps; i++) {
        for (uint64_t page = s->maps[i].lo >> 12; page < s->maps[i].hi >> 12;) {
            uint64_t want = (s->maps[i].hi >> 12) - page;
            if (want > PAGES_READ) want = PAGES_READ;
            ssize_t got = pread(fd, s->entries, want * 8, (off_t)(page * 8));
            if (got <= 0) break;
            for (long j = 0; j < got / 8; j++) {
                if (!((s->entries[j] >> 63) & 1)) continue;
                if ((unsigned long)s->npresent < PAGES_MAX_PRESENT)
                    s->present[s->npresent++] = page + (uint64_t)j;
                else
                    s->truncated = 1;
            }
            page += (uint64_t)got / 8;
        }
    }
    close(fd);
    s->ok = 1;
}

/* The pages of `map` present in `from` and not in `other`: their count,
 * and in `runs` (of `size` bytes) as runs of consecutive pages
 * (" start+length", offsets in pages from the mapping's start, hex): a
 * page fault maps up to 16 around the faulting one (the kernel's
 * fault-around), so each run is one fault or a few. */
static inline long pages_runs(const struct pages_snap *from, const struct pages_snap *other,
                              const struct pages_map *map, char *runs, size_t size) {
    long count = 0;
    size_t used = 0;
    uint64_t base = map->lo >> 12, run_start = 0, run_len = 0;
    long j = 0;
    runs[0] = 0;
    for (long i = 0; i <= from->npresent; i++) {
        int last = i == from->npresent;
        uint64_t p = last ? 0 : from->present[i];
        if (!last) {
            if (p < base || p >= map->hi >> 12) continue;
            while (j < other->npresent && other->present[j] < p) j++;
            if (j < other->npresent && other->present[j] == p) continue;
            count++;
            if (run_len && p == run_start + run_len) {
                run_len++;
                continue;
            }
        }
        if (run_len && used + 40 < size)
            used += (size_t)snprintf(runs + used, size - used, " %lx+%lu", (unsigned long)(run_start - base),
                                     (unsigned long)run_len);
        run_start = p;
        run_len = 1;
    }
    return count;
}

/* Prints, per mapping of the later snapshot (of the earlier one for pages
 * gone), how many pages became present and how many went. */
static inline void pages_report(const struct pages_snap *a, const struct pages_snap *b, const char *group) {
    if (!a->ok || !b->ok) {
        printf("PROBE %s pages unreadable\n", group);
        return;
    }
    printf("PROBE %s pages_total before=%ld after=%ld mappings=%ld skipped=%ld%s\n", group, a->npresent,
           b->npresent, b->nmaps, b->skipped, a->truncated || b->truncated ? " truncated" : "");
    /* New pages (in b, not in a) by mapping of b; gone pages by mapping of a. */
    for (int pass = 0; pass < 2; pass++) {
        const struct pages_snap *from = pass ? a : b, *other = pass ? b : a;
        for (long m = 0; m < from->nmaps; m++) {
            char at[4000];
            long count = pages_runs(from, other, &from->maps[m], at, sizeof at);
            if (!count) continue;
            printf("PROBE %s %s %s %ld\n", group, pass ? "pages_gone" : "pages", from->maps[m].name, count);
            if (!pass) printf("PROBE %s pages_runs %s%s\n", group, from->maps[m].name, at);
        }
    }
}

/* Prints every page present in `s`, as runs per mapping (the pages of a
 * report against an empty snapshot). */
static inline void pages_list(const struct pages_snap *s, const char *group) {
    static struct pages_snap none;
    none.ok = 1;
    pages_report(&none, s, group);
}

#endif
