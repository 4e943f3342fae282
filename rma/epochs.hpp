// Which synchronisation epochs are open on one process's view of a window, and whether a synchronisation call fits
// them (MPI-4.0 12.5). Pure bookkeeping, unit-tested; the memory side lives in window.cpp. Misuse gives
// MPI_ERR_RMA_SYNC with what is open and what was expected:
//   - passive target: MPI_Win_lock_all / MPI_Win_unlock_all, or MPI_Win_lock / MPI_Win_unlock per target; the two
//     kinds never overlap, and one target is locked at most once at a time;
//   - flush calls need a passive-target epoch covering their target (any one for the _all forms);
//   - MPI_Win_fence may not come inside a passive-target or a post/start epoch; a fence without
//     MPI_MODE_NOSUCCEED opens an access epoch to every target, which the next synchronisation call ends;
//   - MPI_Win_start / MPI_Win_complete and MPI_Win_post / MPI_Win_wait (or MPI_Win_test) pair up, one of each
//     kind open at a time, and a start may not come inside a passive-target epoch;
//   - an RMA operation needs an access epoch covering its target (access());
//   - MPI_Win_free needs every passive-target and post/start epoch closed.
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

  Status fence(bool opens_epoch);  // opens_epoch: the assert lacks MPI_MODE_NOSUCCEED
  Status start(std::vector<int> targets);
  Status complete();
  Status post(std::vector<int> origins);
  Status wait();  // also a successful MPI_Win_test

  // Checks only.
  Status access(int target) const;
  Status passive_access(int target) const;  // the request-based operations need a passive-target epoch (12.4)
  Status flush(int target) const;
  Status flush_all() const;
  Status free() const;

  bool locked_all() const { return lock_all_; }
  const std::vector<int>& access_group() const { return access_group_; }
  const std::vector<int>& exposure_group() const { return exposure_group_; }
  bool exposed() const { return exposed_; }
  LockType lock_of(int target) const { return locks_[target]; }

 private:
  int locked_targets() const;
  Status passive_open(const char* call) const;
  bool lock_all_ = false;
  std::vector<LockType> locks_;
  bool fence_epoch_ = false;
  bool started_ = false, exposed_ = false;
  std::vector<int> access_group_, exposure_group_;
};

}  // namespace strata::rma
