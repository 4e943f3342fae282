// Which synchronisation epochs are open on one process's view of a window, and whether a synchronisation call fits
// them (MPI-4.0 12.5). Pure bookkeeping, unit-tested; the memory side lives in window.cpp. Misuse gives
// MPI_ERR_RMA_SYNC with what is open and what was expected:
//   - passive target: MPI_Win_lock_all / MPI_Win_unlock_all, or MPI_Win_lock / MPI_Win_unlock per target; the two
//     kinds never overlap, and one target is locked at most once at a time;
//   - flush calls need a passive-target epoch covering their target (any one for the _all forms);
//   - MPI_Win_fence may not come inside a passive-target epoch (fence epochs and lock epochs do not mix; with
//     only loads and stores there is no RMA operation that could make a lock after a fence erroneous);
//   - MPI_Win_free needs every passive-target epoch closed.
#pragma once
#include <vector>

#include "runtime/status.hpp"

namespace strata::rma {

enum class LockType { None, Shared, Exclusive };

class Epochs {
 public:
  explicit Epochs(int size) : locks_(size, LockType::None) {}

  // Each checks and, when it returns success, records the change.
  Status lock_all();
  Status unlock_all();
  Status lock(int target, LockType type);
  Status unlock(int target);

  // Checks only.
  Status fence() const;
  Status flush(int target) const;
  Status flush_all() const;
  Status free() const;

  bool locked_all() const { return lock_all_; }
  LockType lock_of(int target) const { return locks_[target]; }

 private:
  int locked_targets() const;
  bool lock_all_ = false;
  std::vector<LockType> locks_;
};

}  // namespace strata::rma
