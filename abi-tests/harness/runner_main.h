/* Part of runner.h (included by it, after runner_args.h): the runner, the
 * forked children that run batches of items, and main(). */

/* ----------------------------------------------------------------- runner */

/* The follow-up (--gpu): does an ordinary allocation still work? */
static void h_follow_up(struct h_ctx *h) {
    void *p = 0;
    cudaError_t e = cudaMalloc(&p, 16);
    if (!e) e = cudaFree(p);
    h->rec->ctx = (int)e;
    h->rec->stage = 4;
}

static void h_run_one(int k, struct h_rec *rec, int gpu, int first, int null_outs) {
    static struct h_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.rec = rec;
    ctx.gpu = gpu;
    ctx.first = first;
    ctx.null_outs = null_outs;
    ctx.bad = h_bad_mode ? h_cases[k].bad : 0;
    ctx.item = k;
    for (int i = 0; i < H_MAXP; i++) ctx.buf[i] = h_buffers[i];
    memset(h_hostbuf, 0, sizeof h_hostbuf);
    h_calls[h_item_call(k)].fn(&ctx);
    if (gpu) h_follow_up(&ctx);
}

static void h_print(int k, const struct h_rec *r, const char *end, int gpu) {
    printf("%s rc=%s pre=%d post=%d get=%d again=%d out=[%s]", h_item_name(k),
           r->stage >= 2 ? r->rc : "-", r->pre, r->post, r->get, r->again, r->outs);
    if (gpu) printf(" ctx=%d", r->ctx);
    if (r->fix[0]) printf(" fix=[%s]", r->fix);
    if (strcmp(end, "exit0") != 0 || r->stage != (gpu ? 4 : 3))
        printf(" end=%s stage=%d\n", end, r->stage);
    else
        printf(" end=exit0\n");
}

/* Whether `name` is in the comma-separated `list`. */
static int h_in_list(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return 1;
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

static const char *h_only, *h_skip, *h_what;

/* A bad-input case's kind: its id after the last '=' (FUNC#PARAM=WHAT). */
static int h_what_in(const char *list, int k) {
    const char *eq = strrchr(h_cases[k].id, '=');
    return eq && h_in_list(list, eq + 1);
}

/* An item is named by its export and, with --bad, by its case id. */
static int h_named(const char *list, int k) {
    return h_in_list(list, h_calls[h_item_call(k)].name) ||
           (h_bad_mode && h_in_list(list, h_cases[k].id));
}

static int h_selected(int k) {
    return (!h_only || h_named(h_only, k)) && !(h_skip && h_named(h_skip, k)) &&
           (!h_what || (h_bad_mode && h_what_in(h_what, k)));
}

static int h_gcd(int a, int b) { return b ? h_gcd(b, a % b) : a; }

static double h_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ the children */

/* Why a batch child stopped before the end of its batch (h_slot.why). */
enum h_stop {
    H_GO_ON = 0,
    H_STOP_CTX,    /* the follow-up cudaMalloc/cudaFree failed (ctx != 0) */
    H_STOP_STICKY, /* an error is still set after cudaGetLastError */
    H_STOP_SYNC,   /* cudaDeviceSynchronize failed: an asynchronous error */
    H_STOP_DEVICE, /* the current device is no longer 0 */
    H_STOP_BUDGET, /* --budget spent: the rest is not run */
    H_STOP_TEST,   /* a test hook (HARNESS_TEST_FRESH) */
};
static const char *const h_stop_what[] = {
    "", "the context is unusable (ctx)", "an error is sticky", "cudaDeviceSynchronize failed",
    "the current device changed", "budget spent", "test hook",
};

/* What one child is doing, in memory shared with the parent. */
enum { H_BETWEEN = 0, H_IN_CASE = 1, H_IN_CHECK = 2 };
struct h_slot {
    int phase; /* H_IN_CASE: in the case at run position `pos`; H_IN_CHECK:
                  in the check after it; H_BETWEEN: neither */
    int pos;
    int why; /* enum h_stop: why it stopped before the end of its batch */
    int err; /* the error or device behind `why` */
};

static void h_store(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static int h_load(const int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

/* Batch mode, after a case and before the next one in the same process:
 * may the next one run here? Nothing of it goes into the case's line. */
static int h_check(int k, const struct h_rec *r, int gpu, int *err) {
    int e;
#ifdef HARNESS_TEST_HOOKS
    if (h_test_hook("HARNESS_TEST_FRESH", k)) return H_STOP_TEST;
#else
    (void)k;
#endif
    if (gpu && r->ctx != 0) {
        *err = r->ctx;
        return H_STOP_CTX;
    }
    (void)cudaGetLastError();
    if ((e = (int)cudaPeekAtLastError()) != 0) {
        *err = e;
        return H_STOP_STICKY;
    }
    if (!gpu) return H_GO_ON;
    /* Work the case left queued fails here, not in a later case. */
    if ((e = (int)cudaDeviceSynchronize()) != 0) {
        *err = e;
        return H_STOP_SYNC;
    }
    int dev = -1;
    if ((e = (int)cudaGetDevice(&dev)) != 0 || dev != 0) {
        *err = e ? e : dev;
        return H_STOP_DEVICE;
    }
    return H_GO_ON;
}

/* A child: the items exec[lo] ... exec[hi - 1], one after the other in
 * this process. One item (hi == lo + 1) is exactly the per-case
 * child of before: the item, then _exit, under one alarm. */
static void h_child(const int *exec, int lo, int hi, struct h_rec *recs, struct h_slot *slot,
                    int gpu, int first, int null_outs, unsigned timeout_s, double deadline) {
    /* Whatever a runtime prints goes to stderr, not the report. */
    dup2(2, 1);
    signal(SIGALRM, SIG_DFL);
    for (int p = lo; p < hi; p++) {
        int k = exec[p];
        if (p > lo) {
            if (deadline > 0 && h_now() > deadline) {
                h_store(&slot->why, H_STOP_BUDGET);
                break;
            }
            /* pre reads as in a fresh child: nothing left over. */
            (void)cudaGetLastError();
        }
        h_store(&slot->pos, p);
        h_store(&recs[k].state, 1);
        h_store(&slot->phase, H_IN_CASE);
        alarm(timeout_s);
        h_run_one(k, &recs[k], gpu, first, null_outs);
        h_store(&recs[k].state, 2);
        if (p + 1 == hi) break; /* the alarm stays set until the exit */
        h_store(&slot->phase, H_IN_CHECK);
        int err = 0, why = h_check(k, &recs[k], gpu, &err);
        alarm(0);
        h_store(&slot->phase, H_BETWEEN);
        if (why) {
            slot->err = err;
            h_store(&slot->why, why);
            break;
        }
    }
    fflush(stdout);
    _exit(0);
}

/* How a child ended: exitN, timeout (its alarm) or signalN. */
static void h_end_of(int status, char *end, size_t cap) {
    if (WIFEXITED(status))
        snprintf(end, cap, "exit%d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        snprintf(end, cap, "timeout");
    else if (WIFSIGNALED(status))
        snprintf(end, cap, "signal%d", WTERMSIG(status));
    else
        snprintf(end, cap, "status%d", status);
}

/* Lines come out in run order, each as soon as it and every line before
 * it are known (a run killed from outside keeps its prefix). */
static void h_flush_lines(int *printed, const int *order, int n, char (*ends)[32],
                          const struct h_rec *recs, int gpu) {
    while (*printed < n && strcmp(ends[order[*printed]], "pending") != 0) {
        int k = order[(*printed)++];
        if (strcmp(ends[k], "skipped") != 0 && strcmp(ends[k], "notrun") != 0)
            h_print(k, &recs[k], ends[k], gpu);
    }
    fflush(stdout);
}

/* A job: one child at a time, working through a chunk (positions lo ...
 * hi - 1 of exec); `next` is the first position not yet done (a fresh
 * child goes on from there), `start` where the child began, `seen` the
 * first position not yet known to be done. */
struct h_job {
    pid_t pid;
    int hi, next, start, seen;
};

int main(int argc, char **argv) {
    int gpu = 0, first = 0, null_outs = 0, nofork = 0, jobs = 0, timeout_s = 0, list = 0;
    int spread = 0, batch = -1, recheck = 0;
    double budget = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gpu")) gpu = 1;
        else if (!strcmp(argv[i], "--first")) first = 1;
        else if (!strcmp(argv[i], "--null-outs")) null_outs = 1;
        else if (!strcmp(argv[i], "--nofork")) nofork = 1;
        else if (!strcmp(argv[i], "--bad")) h_bad_mode = 1;
        else if (!strcmp(argv[i], "--spread")) spread = 1;
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) jobs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout_s = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc) budget = atof(argv[++i]);
        else if (!strcmp(argv[i], "--batch") && i + 1 < argc) batch = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--recheck")) recheck = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) h_only = argv[++i];
        else if (!strcmp(argv[i], "--skip") && i + 1 < argc) h_skip = argv[++i];
        else if (!strcmp(argv[i], "--what") && i + 1 < argc) h_what = argv[++i];
        else if (!strcmp(argv[i], "--list")) list = 1;
        else {
            fprintf(stderr, "usage: %s [--gpu] [--first] [--null-outs] [--bad] [--jobs N] "
                            "[--timeout S] [--budget S] [--batch N] [--recheck] [--spread] [--only a,b] "
                            "[--skip a,b] [--what a,b] [--nofork] [--list]\n", argv[0]);
            return 2;
        }
    }
    if (batch < 0) batch = h_bad_mode && gpu && !first && !nofork ? 0 : 1;
    if (first && batch != 1) {
        fprintf(stderr, "--first: every item must be its child's first call (--batch 1)\n");
        return 2;
    }
    const int n = h_nitems();
    if (list) {
        for (int k = 0; k < n; k++)
            if (h_selected(k)) printf("%s\n", h_item_name(k));
        return 0;
    }
    if (jobs <= 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = gpu ? (int)(ncpu > 16 ? 16 : ncpu) : (int)(ncpu > 4 ? 4 : ncpu);
        if (jobs < 1) jobs = 1;
    }
    if (timeout_s <= 0) timeout_s = gpu ? 20 : 10;
    /* Large blocks always get a mapping of their own, and lose it when
     * freed: glibc would otherwise raise this threshold at the first such
     * free, so that host memory freed just before a call (the test
     * double's "device" memory) would stay mapped in a long-lived batch
     * child and be unmapped in a fresh one. Children inherit it. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    h_noaccess = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (h_noaccess == MAP_FAILED) { perror("mmap"); return 1; }

    struct h_rec *recs = (struct h_rec *)mmap(0, sizeof(struct h_rec) * (size_t)n,
                                              PROT_READ | PROT_WRITE,
                                              MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    struct h_slot *slots = (struct h_slot *)mmap(0, sizeof(struct h_slot) * (size_t)jobs,
                                                 PROT_READ | PROT_WRITE,
                                                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (recs == MAP_FAILED || slots == MAP_FAILED) { perror("mmap"); return 1; }
    /* ends[k]: pending (not known yet), skipped (not selected), notrun
     * (budget spent), or how the item ended. */
    char (*ends)[32] = (char (*)[32])calloc((size_t)n, 32);
    char *rechecked = (char *)calloc((size_t)n + 1, 1);
    int selected = 0;
    for (int k = 0; k < n; k++) {
        recs[k].pre = recs[k].post = recs[k].get = recs[k].again = recs[k].ctx = -1;
        strcpy(ends[k], h_selected(k) ? "pending" : "skipped");
        selected += h_selected(k);
    }
    printf("# harness mode=%s%s%s%s %s=%d\n", gpu ? "gpu" : "nodriver",
           first ? " first" : "", null_outs ? " null-outs" : "", h_bad_mode ? " bad" : "",
           h_bad_mode ? "cases" : "calls", n);
    fflush(stdout);

    /* The order the items start in: the table's, or with --spread a fixed
     * stride through it (about n/1.618, coprime with n), so that a run the
     * budget cuts short is still a sample of every function and kind. */
    int *order = (int *)calloc((size_t)n + 1, sizeof(int));
    int stride = 1;
    if (spread && n > 2) {
        stride = (int)((double)n * 0.618);
        while (h_gcd(stride, n) != 1) stride++;
    }
    for (int i = 0; i < n; i++) order[i] = (int)(((long long)i * stride) % n);
    /* todo: the selected items in that order (their run positions). */
    int *todo = (int *)calloc((size_t)n + 1, sizeof(int));
    int ntodo = 0, nalone = 0;
    for (int i = 0; i < n; i++)
        if (h_selected(order[i])) {
            todo[ntodo++] = order[i];
            nalone += h_calls[h_item_call(order[i])].isolate;
        }
    /* The chunks children run: a batch of up to `batch` items, the next
     * ones in run order that do not run alone, or an item that runs alone
     * (isolated, or --batch 1), where it comes in run order. By default
     * (0) two batches per job. exec: the items chunk after chunk; chunk c
     * is exec[chunk_lo[c]] ... exec[chunk_hi[c] - 1]. */
    if (batch == 0) {
        int per = 2 * jobs;
        batch = (ntodo - nalone + per - 1) / per;
        if (batch < 1) batch = 1;
    }
    int *exec = (int *)calloc((size_t)ntodo + 1, sizeof(int));
    int *filling = (int *)calloc((size_t)ntodo + 1, sizeof(int));
    int *chunk_lo = (int *)calloc((size_t)ntodo + 1, sizeof(int));
    int *chunk_hi = (int *)calloc((size_t)ntodo + 1, sizeof(int));
    int nexec = 0, nopen = 0, nchunks = 0;
    for (int p = 0; p <= ntodo; p++) {
        const int alone = p < ntodo && (batch == 1 || h_calls[h_item_call(todo[p])].isolate);
        if (p < ntodo && !alone) filling[nopen++] = todo[p];
        if (nopen > 0 && (p == ntodo || nopen == batch)) {
            chunk_lo[nchunks] = nexec;
            for (int i = 0; i < nopen; i++) exec[nexec++] = filling[i];
            chunk_hi[nchunks++] = nexec;
            nopen = 0;
        }
        if (alone) {
            chunk_lo[nchunks] = nexec;
            exec[nexec++] = todo[p];
            chunk_hi[nchunks++] = nexec;
        }
    }

    const double t0 = h_now();
    int printed = 0, spent = 0;

    int started_batches = 0, started_alone = 0, restarts = 0;
    if (nofork) {
        /* Every item in this process, in run order. */
        for (int p = 0; p < ntodo; p++) {
            int k = todo[p];
            if (budget > 0 && h_now() - t0 > budget) {
                strcpy(ends[k], "notrun");
                spent = 1;
                continue;
            }
            h_run_one(k, &recs[k], gpu, first, null_outs);
            strcpy(ends[k], "exit0");
            h_flush_lines(&printed, order, n, ends, recs, gpu);
        }
    } else {
        /* SIGCHLD stays pending for sigtimedwait: the parent wakes when a
         * child ends, and every 20 ms to print what batch children did. */
        sigset_t chld, old;
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld, &old);
        struct h_job *job = (struct h_job *)calloc((size_t)jobs, sizeof(struct h_job));
        int next_chunk = 0, running = 0;
        const double deadline = budget > 0 ? t0 + budget : 0;
        for (;;) {
            for (int j = 0; j < jobs; j++) {
                while (!job[j].pid) {
                    int lo, restart = job[j].next < job[j].hi;
                    if (restart)
                        lo = job[j].next;
                    else if (next_chunk < nchunks) {
                        lo = chunk_lo[next_chunk];
                        job[j].hi = chunk_hi[next_chunk++];
                    } else
                        break;
                    const int hi = job[j].hi;
                    job[j].next = job[j].start = job[j].seen = lo;
                    if (budget > 0 && h_now() - t0 > budget) {
                        for (int p = lo; p < hi; p++) strcpy(ends[exec[p]], "notrun");
                        job[j].next = hi;
                        spent = 1;
                        continue;
                    }
                    memset(&slots[j], 0, sizeof slots[j]);
                    fflush(stdout);
                    fflush(stderr);
                    pid_t pid = fork();
                    if (pid < 0) { perror("fork"); return 1; }
                    if (pid == 0) {
                        sigprocmask(SIG_SETMASK, &old, 0);
                        h_child(exec, lo, hi, recs, &slots[j], gpu, first, null_outs,
                                (unsigned)timeout_s, deadline);
                    }
                    job[j].pid = pid;
                    running++;
                    if (restart) restarts++;
                    else if (hi - lo > 1) started_batches++;
                    else started_alone++;
                }
            }
            if (running == 0) break;
            struct timespec tick = {0, 20 * 1000 * 1000};
            (void)sigtimedwait(&chld, 0, &tick);
            int status;
            pid_t pid;
            while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
                int j = 0;
                while (j < jobs && job[j].pid != pid) j++;
                if (j == jobs) continue;
                struct h_job *b = &job[j];
                const struct h_slot *sl = &slots[j];
                char end[32];
                h_end_of(status, end, sizeof end);
                const int clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
                /* The last item this child started. */
                int p = b->start - 1;
                while (p + 1 < b->hi && h_load(&recs[exec[p + 1]].state) >= 1) p++;
                for (int q = b->seen; q < p; q++) strcpy(ends[exec[q]], "exit0");
                int why = h_load(&sl->why);
                if (why < H_GO_ON || why > H_STOP_TEST) why = H_GO_ON;
                if (p < b->start) {
                    /* It ended before its first item: that item takes the blame. */
                    strcpy(ends[exec[b->start]], end);
                    printf("# batch: the child for %s ended (%s) before it began\n",
                           h_item_name(exec[b->start]), end);
                    b->next = b->start + 1;
                } else if (recheck && p > b->start && !rechecked[exec[p]] &&
                           !(clean && h_load(&recs[exec[p]].state) == 2)) {
                    /* --recheck: it ended abnormally after other items in
                     * its child; it runs again, first in a fresh child, and
                     * that run's result is its line. */
                    const int k = exec[p];
                    rechecked[k] = 1;
                    printf("# batch: %s ended (%s) after %d other items in its child: "
                           "again in a fresh child\n", h_item_name(k), end, p - b->start);
                    memset(&recs[k], 0, sizeof recs[k]);
                    recs[k].pre = recs[k].post = recs[k].get = recs[k].again = recs[k].ctx = -1;
                    b->next = p;
                } else {
                    const int k = exec[p];
                    const int done = h_load(&recs[k].state) == 2;
                    /* An item whose record is complete ended normally if
                     * its child went on or exited cleanly; else (its child
                     * died after the follow-up, in the check before the
                     * next item or on the way out) it has the child's end,
                     * as a per-item child that died there would. */
                    strcpy(ends[k], done && clean ? "exit0" : end);
                    if (done && !clean && h_load(&sl->phase) == H_IN_CHECK)
                        printf("# batch: %s: its child ended (%s) in the check after it\n",
                               h_item_name(k), end);
                    b->next = p + 1;
                    if (why && why != H_STOP_BUDGET && b->next < b->hi)
                        printf("# batch: after %s: %s (%d); a fresh child goes on\n",
                               h_item_name(k), h_stop_what[why], sl->err);
                }
                if (why == H_STOP_BUDGET) {
                    for (int q = b->next; q < b->hi; q++) strcpy(ends[exec[q]], "notrun");
                    b->next = b->hi;
                    spent = 1;
                }
                b->pid = 0;
                running--;
            }
            /* Items batch children finished while they go on. */
            for (int j = 0; j < jobs; j++) {
                struct h_job *b = &job[j];
                if (!b->pid) continue;
                while (b->seen + 1 < b->hi && h_load(&recs[exec[b->seen + 1]].state) >= 1)
                    strcpy(ends[exec[b->seen++]], "exit0");
            }
            h_flush_lines(&printed, order, n, ends, recs, gpu);
        }
        sigprocmask(SIG_SETMASK, &old, 0);
    }
    h_flush_lines(&printed, order, n, ends, recs, gpu);
    int ran = 0;
    for (int p = 0; p < ntodo; p++) ran += strcmp(ends[todo[p]], "notrun") != 0;
    printf("# done: ran %d of %d in %.1f s%s\n", ran, selected, h_now() - t0,
           spent ? " (budget spent)" : "");
    if (nofork)
        printf("# children: 0 started (--nofork)\n");
    else
        printf("# children: %d started (batches of up to %d: %d; alone: %d; restarts: %d)\n",
               started_batches + started_alone + restarts, batch, started_batches,
               started_alone, restarts);
    return 0;
}
