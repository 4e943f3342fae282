// MPI_THREAD_MULTIPLE: one lock serializes the library, as MPICH's global critical section does. Every MPI call
// holds it for its whole length (api::Check takes it, the few calls without a Check take a CallScope themselves),
// so the layers below stay single-threaded code. A thread that waits inside a call (wait_until) hands the lock to
// the threads blocked on it between its passes: a thread blocked in MPI_Recv must not keep out the thread that
// sends the message.
//
// Recursive, because user callbacks run inside calls (operators, attribute copy and delete, error handlers,
// generalized requests) and may call MPI. Unfair otherwise: a thread that releases the lock may take it straight
// back, because with more threads than cores a fair lock must wake one particular sleeping thread at every release
// (MPICH's threads test, 2 ranks x 4 threads on 2 cores: 40-65 s with a ticket lock; MPICH itself 13-17 s). Only the
// waiters' hand-over is fair, and it is what keeps threads from starving. Off, one relaxed load, until
// MPI_THREAD_MULTIPLE is granted.
#pragma once
#include <atomic>

namespace strata::runtime {

namespace library_lock_detail {
extern std::atomic<bool> enabled;
extern std::atomic<int> blocked;  // threads asleep on the lock
void lock();
void unlock();
void hand_over();
}  // namespace library_lock_detail

// From MPI_Init_thread / MPI_Session_init / MPI_T_init_thread granting MPI_THREAD_MULTIPLE, while one thread runs.
void enable_library_lock();

// Holds the lock for one MPI call (nothing while it is off).
class CallScope {
 public:
  CallScope() : held_(library_lock_detail::enabled.load(std::memory_order_relaxed)) {
    if (held_) library_lock_detail::lock();
  }
  ~CallScope() {
    if (held_) library_lock_detail::unlock();
  }
  CallScope(CallScope&& other) noexcept : held_(other.held_) { other.held_ = false; }  // a Check returned by value
  CallScope& operator=(CallScope&&) = delete;

 private:
  bool held_;
};

// In a wait loop, between passes: if other threads are blocked on the lock, let one of them in (a no-op otherwise).
inline void let_blocked_threads_in() {
  if (library_lock_detail::enabled.load(std::memory_order_relaxed) &&
      library_lock_detail::blocked.load(std::memory_order_relaxed) > 0)
    library_lock_detail::hand_over();
}

}  // namespace strata::runtime
