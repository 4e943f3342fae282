// The progress engine: layers register pollers (the transport's rings and completion queues; later the collective
// schedules), and every MPI call that waits or tests drives them. Single-threaded code: under MPI_THREAD_MULTIPLE
// the library lock (runtime/library_lock.hpp) keeps one thread in it at a time.
//
// Waiting policy: a waiter spins briefly (latency), then yields the core on every idle poll, because the machines
// Strata is tested on run more ranks than cores and a spinning rank would starve the one it waits for. The spin is
// bounded in passes and in time: a pass that polls a network endpoint is a system call, so a pass count tuned for
// shared memory (tens of nanoseconds a pass) would spin for milliseconds there. The time bound is short, 3 us: the
// kernel may run two unbound ranks on one core even when there are enough cores, and then each message waits out
// the receiver's spin (an 8-byte ping-pong took 14.7 us a hop with 20 us, 4.6 us with 3 us; 0.1 us apart).
// Oversubscribed, the spin is 2 idle passes (16 until 2026-11-30): there each pass a waiter spins holds a core that
// the ranks it waits for may need. bench/coll.c, 4 launches of each (5 for 0 passes), medians, us, 16 / 2 / 1 passes: 8 ranks
// barrier 21.1 / 16.5 / 13.2, alltoall 8 B 20.3 / 18.8 / 14.8, 1 KiB 36.5 / 23.2 / 26.1, 64 KiB 312 / 263 / 265,
// allreduce 8 B 18.7 / 13.1 / 15.1, 64 KiB 117 / 88 / 111, reduce 1 MiB 1103 / 952 / 933; 4 ranks barrier 10.9 /
// 6.7 / 6.9 (Open MPI 7.3), alltoall 64 KiB 54 / 46 / 43, bcast 1 MiB 108 / 101 / 129. A few cells moved the other
// way by less than launches differ (4 ranks, reduce 64 KiB 16.4 / 23.2 / 23.8 blocking, 18.0 / 16.6 / 17.3
// nonblocking); no spin at all lost more often (4 ranks, bcast 64 KiB 9.7 against 5.2, alltoall 64 KiB 60 against
// 45).
#pragma once
#include <sched.h>

#include <chrono>
#include <vector>

#include "runtime/library_lock.hpp"

namespace strata::runtime {

using Poller = bool (*)(void* context);  // returns true when it made progress

void add_poller(Poller poller, void* context);
void remove_poller(Poller poller, void* context);
bool progress();  // one pass over every poller

// Spin this many idle passes before yielding; small when ranks outnumber cores (set at init).
void set_spin_limit(int passes);
int spin_limit();

class Backoff {
 public:
  void made_progress() { idle_ = 0; }
  void idle() {
    using Clock = std::chrono::steady_clock;
    constexpr auto kLongestSpin = std::chrono::microseconds(3);
    ++idle_;
    if (idle_ > spin_limit()) {
      sched_yield();
    } else if (idle_ == 1) {
      spin_start_ = Clock::now();
    } else if (idle_ % 32 == 0 && Clock::now() - spin_start_ > kLongestSpin) {
      idle_ = spin_limit();  // slow passes: yield from the next one on
    }
  }

 private:
  int idle_ = 0;
  std::chrono::steady_clock::time_point spin_start_;
};

// For the calls that poll once and return (MPI_Iprobe, MPI_Improbe): programs loop on them, so consecutive calls
// that found nothing share one Backoff, every 8th counting as an idle pass, and past the spin they yield the core as
// a blocking wait does. Otherwise a rank polling on an oversubscribed host holds the core its sender needs: HPCC's
// HPL at 4 ranks on 2 cores waited 7 ms per message (a probe loop's round trip: 3.9 ms before, 5-6 us yielding at
// every empty probe, 8.6-8.9 us at every 8th). Every 8th, not every one: a program that probes many times where
// nothing is due (coll_persistent's barrier checks, 5 ranks on 2 cores) ran 7.1 s before, 19 s yielding at every
// empty probe, 8.4-9.1 s at every 8th.
void polled(bool found);

// One pass, for the calls that test and return (the probes call it, then polled; the others test_once). Under
// MPI_THREAD_MULTIPLE a thread blocked on the library lock gets its turn first: a program looping on such a call
// would otherwise take the lock back before the thread it waits for wakes up.
inline bool test_pass() {
  let_blocked_threads_in();
  return progress();
}

// A call that tests and returns (MPI_Test..., MPI_Request_get_status, MPI_Parrived, MPI_Win_test): one pass unless
// found() holds already, and, as for probes (polled), consecutive calls that found nothing yield past the spin. A
// program looping on MPI_Test on an oversubscribed host otherwise holds the core its peers need for a whole time
// slice: tests/mpi/coll_persistent (restarts waited by MPI_Test loops) took 17.9 s at 8 ranks on 2 cores, 2.8 s
// yielding; at 7 ranks on 3 simulated nodes 25.6 s, 4.3 s.
template <class Found>
bool test_once(Found found) {
  if (found()) {
    polled(true);
    return true;
  }
  const bool moved = test_pass();
  const bool hit = found();
  polled(moved || hit);
  return hit;
}

// Drives progress until done() is true. Under MPI_THREAD_MULTIPLE, other threads' calls may run between passes.
template <class Done>
void wait_until(Done done) {
  Backoff backoff;
  while (!done()) {
    let_blocked_threads_in();
    if (progress())
      backoff.made_progress();
    else
      backoff.idle();
  }
}

}  // namespace strata::runtime
