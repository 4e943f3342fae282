// The lock of one target's window part in a window without shared memory (MPI-4.0 12.5.3): the target grants
// MPI_Win_lock requests in arrival order, any number of shared holders or one exclusive holder. A request that
// can not be granted waits, and so does every later one (first come, first served: an exclusive request is not
// starved by a stream of shared ones). Pure bookkeeping, unit-tested; rma/channel.cpp sends the grants.
#pragma once
#include <deque>
#include <vector>

namespace strata::rma {

class LockQueue {
 public:
  struct Waiter {
    int origin;
    bool exclusive;
    int answer_tag;
  };

  // A request arrives: the requests granted now (it, or none).
  std::vector<Waiter> request(const Waiter& w);
  // `origin` releases its hold: the requests granted now, in order.
  std::vector<Waiter> release(int origin);

  int shared_holders() const { return shared_; }
  int exclusive_holder() const { return exclusive_; }  // -1 when none

 private:
  bool grantable(const Waiter& w) const { return exclusive_ < 0 && (!w.exclusive || shared_ == 0); }
  std::vector<Waiter> grant_waiting();
  int shared_ = 0;
  int exclusive_ = -1;
  std::deque<Waiter> waiting_;
};

}  // namespace strata::rma
