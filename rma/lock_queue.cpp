// The target-side lock queue (see lock_queue.hpp).
#include "rma/lock_queue.hpp"

namespace strata::rma {

std::vector<LockQueue::Waiter> LockQueue::request(const Waiter& w) {
  waiting_.push_back(w);
  return grant_waiting();
}

std::vector<LockQueue::Waiter> LockQueue::release(int origin) {
  if (exclusive_ == origin)
    exclusive_ = -1;
  else if (shared_ > 0)
    --shared_;
  return grant_waiting();
}

std::vector<LockQueue::Waiter> LockQueue::grant_waiting() {
  std::vector<Waiter> granted;
  while (!waiting_.empty() && grantable(waiting_.front())) {
    const Waiter w = waiting_.front();
    waiting_.pop_front();
    if (w.exclusive)
      exclusive_ = w.origin;
    else
      ++shared_;
    granted.push_back(w);
  }
  return granted;
}

}  // namespace strata::rma
