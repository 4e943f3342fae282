/* core_latency: the round trip of one cache line between processors 0 and 1, in ns (no MPI).
 *
 *   core_latency            prints e.g. "58"; "0" on a machine with one processor
 *
 * This machine's two processors are virtual: the host places them on one core complex (a round trip of about
 * 60 ns) or on two (about 340 ns), and moves them between the two states every few seconds to minutes. Collectives
 * through shared memory pay that latency on every line a reader takes from a writer, so a launch's figures depend
 * on the state it ran in; the bench scripts measure it around each launch (bench/lib.sh, bench_rounds). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { WARM_UP = 2000, ROUND_TRIPS = 20000 };  /* the first round trips wait for the other thread to start */

static _Atomic long line;

static int pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set);
}

static void *answer(void *unused) {
  (void)unused;
  pin(1);
  for (long i = 1; i < 2 * (WARM_UP + ROUND_TRIPS); i += 2) {
    while (atomic_load_explicit(&line, memory_order_acquire) != i) {}
    atomic_store_explicit(&line, i + 1, memory_order_release);
  }
  return NULL;
}

int main(void) {
  if (pin(0) != 0 || pin(1) != 0 || pin(0) != 0) { /* no processor 1 to answer from */
    puts("0");
    return 0;
  }
  pthread_t other;
  if (pthread_create(&other, NULL, answer, NULL) != 0) return 1;
  struct timespec t0, t1;
  for (long i = 1; i < 2 * (WARM_UP + ROUND_TRIPS); i += 2) {
    if (i == 2 * WARM_UP + 1) clock_gettime(CLOCK_MONOTONIC, &t0);
    atomic_store_explicit(&line, i, memory_order_release);
    while (atomic_load_explicit(&line, memory_order_acquire) != i + 1) {}
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  pthread_join(other, NULL);
  printf("%.0f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / ROUND_TRIPS);
  return 0;
}
