// The epoch rules of epochs.hpp.
#include "rma/epochs.hpp"

#include <string>

namespace strata::rma {
namespace {

constexpr int kErrRmaSync = 47;  // MPI_ERR_RMA_SYNC

Status sync_error(const std::string& message) { return error(kErrRmaSync, message); }

}  // namespace

int Epochs::locked_targets() const {
  int n = 0;
  for (LockType t : locks_) n += t != LockType::None;
  return n;
}

Status Epochs::lock_all() {
  if (lock_all_) return sync_error("an MPI_Win_lock_all epoch is already open on this window");
  if (int n = locked_targets(); n > 0)
    return sync_error(std::to_string(n) + " target(s) are locked by MPI_Win_lock; unlock them first");
  lock_all_ = true;
  return {};
}

Status Epochs::unlock_all() {
  if (!lock_all_) return sync_error("no MPI_Win_lock_all epoch is open on this window");
  lock_all_ = false;
  return {};
}

Status Epochs::lock(int target, LockType type) {
  if (lock_all_) return sync_error("an MPI_Win_lock_all epoch is open on this window");
  if (locks_[target] != LockType::None)
    return sync_error("target rank " + std::to_string(target) + " is already locked by this process");
  locks_[target] = type;
  return {};
}

Status Epochs::unlock(int target) {
  if (locks_[target] == LockType::None)
    return sync_error("target rank " + std::to_string(target) + " is not locked by this process (MPI_Win_lock)");
  locks_[target] = LockType::None;
  return {};
}

Status Epochs::fence() const {
  if (lock_all_) return sync_error("an MPI_Win_lock_all epoch is open on this window");
  if (int n = locked_targets(); n > 0)
    return sync_error(std::to_string(n) + " target(s) are locked by MPI_Win_lock");
  return {};
}

Status Epochs::flush(int target) const {
  if (lock_all_ || locks_[target] != LockType::None) return {};
  return sync_error("no passive-target epoch covers target rank " + std::to_string(target) +
                    " (MPI_Win_lock or MPI_Win_lock_all first)");
}

Status Epochs::flush_all() const {
  if (lock_all_ || locked_targets() > 0) return {};
  return sync_error("no passive-target epoch is open on this window (MPI_Win_lock or MPI_Win_lock_all first)");
}

Status Epochs::free() const {
  if (lock_all_) return sync_error("an MPI_Win_lock_all epoch is still open (MPI_Win_unlock_all first)");
  if (int n = locked_targets(); n > 0)
    return sync_error(std::to_string(n) + " target(s) are still locked (MPI_Win_unlock first)");
  return {};
}

}  // namespace strata::rma
