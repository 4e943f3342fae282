// A reader-writer lock in one 64-bit word of a window's shared segment: what MPI_Win_lock(SHARED / EXCLUSIVE)
// takes on a target, and what MPI_Win_lock_all takes (shared) on every target. The word counts shared holders,
// or is kExclusive; a waiter drives MPI progress between attempts, so a holder that waits on this process
// (a barrier, a message) is never starved of it.
#pragma once
#include <atomic>
#include <cstdint>

namespace strata::rma {

class LockWord {
 public:
  explicit LockWord(std::int64_t* word) : word_(word) {}
  bool try_shared();
  bool try_exclusive();
  void acquire_shared();     // waits
  void acquire_exclusive();  // waits
  void release_shared();
  void release_exclusive();

 private:
  static constexpr std::int64_t kExclusive = -1;
  std::atomic_ref<std::int64_t> ref() const { return std::atomic_ref<std::int64_t>(*word_); }
  std::int64_t* word_;
};

static_assert(std::atomic_ref<std::int64_t>::is_always_lock_free, "lock words are shared between processes");

}  // namespace strata::rma
