/* crash-backtrace.so: a native backtrace when a process dies of a fatal
 * signal, for machines without gdb (the GPU machine). Preloaded by
 * pytorch/run.sh into the rerun of a crashed workload:
 *
 *   LD_PRELOAD=crash-backtrace.so:... python3 workload.py
 *
 * On SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT it writes to stderr the
 * signal, the faulting address, the thread id and one line per frame
 * (object, offset in the object, nearest dynamic symbol), then restores
 * the default action and re-raises the signal, so the exit status stays
 * what it was. Only async-signal-tolerant calls are used after the first
 * backtrace() (which is primed at load time, so it does not allocate in the
 * handler).
 *
 * Build: gcc -O1 -g -shared -fPIC crash-backtrace.c -o crash-backtrace.so -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void put(const char *s) {
  ssize_t r = write(2, s, strlen(s));
  (void)r;
}

static void put_hex(uintptr_t v) {
  char b[2 + 16 + 1];
  int i = 18;
  b[i] = 0;
  do {
    b[--i] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v && i > 2);
  b[--i] = 'x';
  b[--i] = '0';
  put(b + i);
}

static void put_dec(long v) {
  char b[24];
  int i = 23;
  int neg = v < 0;
  unsigned long u = neg ? -(unsigned long)v : (unsigned long)v;
  b[i] = 0;
  do {
    b[--i] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (neg) b[--i] = '-';
  put(b + i);
}

static void on_fatal(int sig, siginfo_t *info, void *uctx) {
  (void)uctx;
  void *frames[64];
  int n = backtrace(frames, 64);
  put("\n=== crash-backtrace: signal ");
  put_dec(sig);
  put(" (");
  put(strsignal(sig));
  put("), address ");
  put_hex((uintptr_t)info->si_addr);
  put(", thread ");
  put_dec((long)syscall(SYS_gettid));
  put("\n");
  for (int i = 0; i < n; i++) {
    Dl_info d;
    put("  #");
    put_dec(i);
    put(" ");
    put_hex((uintptr_t)frames[i]);
    if (dladdr(frames[i], &d) && d.dli_fname) {
      put(" ");
      put(d.dli_fname);
      put("+");
      put_hex((uintptr_t)frames[i] - (uintptr_t)d.dli_fbase);
      if (d.dli_sname) {
        put(" ");
        put(d.dli_sname);
        put("+");
        put_hex((uintptr_t)frames[i] - (uintptr_t)d.dli_saddr);
      }
    }
    put("\n");
  }
  put("=== end of crash-backtrace\n");
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void install(void) {
  void *prime[1];
  backtrace(prime, 1); /* loads libgcc_s now, not in the handler */
  static char alt[64 * 1024];
  stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fatal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
  for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}
