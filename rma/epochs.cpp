// The epoch rules of epochs.hpp.
#include "rma/epochs.hpp"

#include <string>

namespace strata::rma {
namespace {

Status sync_error(const std::string& message) { return error(kErrRmaSync, message); }

}  // namespace

int Epochs::locked_targets() const {
  int n = 0;
  for (LockType t : locks_) n += t != LockType::None;
  return n;
}

Status Epochs::lock_all() {
  if (lock_all_) return sync_error("an MPI_Win_lock_all epoch is already open on this window");
  if (started_) return sync_error("an MPI_Win_start epoch is open on this window (MPI_Win_complete first)");
  if (int n = locked_targets(); n > 0)
    return sync_error(std::to_string(n) + " target(s) are locked by MPI_Win_lock; unlock them first");
  lock_all_ = true;
  fence_epoch_ = false;
  return {};
}

Status Epochs::unlock_all() {
  if (!lock_all_) return sync_error("no MPI_Win_lock_all epoch is open on this window");
  lock_all_ = false;
  return {};
}

Status Epochs::lock(int target, LockType type) {
  if (lock_all_) return sync_error("an MPI_Win_lock_all epoch is open on this window");
  if (started_) return sync_error("an MPI_Win_start epoch is open on this window (MPI_Win_complete first)");
  if (locks_[target] != LockType::None)
    return sync_error("target rank " + std::to_string(target) + " is already locked by this process");
  locks_[target] = type;
  fence_epoch_ = false;
  return {};
}

Status Epochs::unlock(int target) {
  if (locks_[target] == LockType::None)
    return sync_error("target rank " + std::to_string(target) + " is not locked by this process (MPI_Win_lock)");
  locks_[target] = LockType::None;
  return {};
}

Status Epochs::passive_open(const char* call) const {
  if (lock_all_) return sync_error(std::string("an MPI_Win_lock_all epoch is open on this window (") + call + ")");
  if (int n = locked_targets(); n > 0)
    return sync_error(std::to_string(n) + " target(s) are locked by MPI_Win_lock (" + call + ")");
  return {};
}

Status Epochs::fence(bool opens_epoch) {
  if (Status s = passive_open("MPI_Win_fence"); !s.ok()) return s;
  if (started_) return sync_error("an MPI_Win_start epoch is open on this window (MPI_Win_complete first)");
  if (exposed_) return sync_error("an MPI_Win_post epoch is open on this window (MPI_Win_wait first)");
  fence_epoch_ = opens_epoch;
  return {};
}

Status Epochs::start(std::vector<int> targets) {
  if (started_) return sync_error("an MPI_Win_start epoch is already open on this window");
  if (Status s = passive_open("MPI_Win_start"); !s.ok()) return s;
  fence_epoch_ = false;
  started_ = true;
  access_group_ = std::move(targets);
  return {};
}

Status Epochs::complete() {
  if (!started_) return sync_error("no MPI_Win_start epoch is open on this window");
  started_ = false;
  access_group_.clear();
  return {};
}

Status Epochs::post(std::vector<int> origins) {
  if (exposed_) return sync_error("an MPI_Win_post epoch is already open on this window");
  fence_epoch_ = false;
  exposed_ = true;
  exposure_group_ = std::move(origins);
  return {};
}

Status Epochs::wait() {
  if (!exposed_) return sync_error("no MPI_Win_post epoch is open on this window");
  exposed_ = false;
  exposure_group_.clear();
  return {};
}

Status Epochs::passive_access(int target) const {
  if (lock_all_ || locks_[target] != LockType::None) return {};
  return sync_error("request-based RMA operations need a passive-target epoch covering target rank " +
                    std::to_string(target) + " (MPI_Win_lock or MPI_Win_lock_all first; MPI-4.0 12.4)");
}

Status Epochs::access(int target) const {
  if (lock_all_ || locks_[target] != LockType::None || fence_epoch_) return {};
  for (int t : access_group_)
    if (t == target) return {};
  return sync_error("no access epoch covers target rank " + std::to_string(target) +
                    " (MPI_Win_fence, MPI_Win_start, MPI_Win_lock or MPI_Win_lock_all first)");
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
  if (started_) return sync_error("an MPI_Win_start epoch is still open (MPI_Win_complete first)");
  if (exposed_) return sync_error("an MPI_Win_post epoch is still open (MPI_Win_wait first)");
  return {};
}

}  // namespace strata::rma
