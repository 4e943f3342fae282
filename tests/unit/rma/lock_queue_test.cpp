// The target-side lock queue of MPI_Win_lock (rma/lock_queue.hpp): shared requests are granted together, an
// exclusive one waits for the holders and every later request waits behind it (first come, first served), a
// release grants the waiting run it unblocks in one call and in arrival order, and a granted waiter comes back
// with the origin, lock type and answer tag it was given. The expected grants are written out from the rules.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "rma/lock_queue.hpp"

using namespace strata::rma;

namespace {

using Grant = std::tuple<int, bool, int>;  // origin, exclusive, answer tag
using Grants = std::vector<Grant>;

constexpr bool kShared = false, kExclusive = true;

Grants fields(const std::vector<LockQueue::Waiter>& granted) {
  Grants out;
  for (const LockQueue::Waiter& w : granted) out.emplace_back(w.origin, w.exclusive, w.answer_tag);
  return out;
}

Grants ask(LockQueue& q, int origin, bool exclusive, int tag) { return fields(q.request({origin, exclusive, tag})); }
Grants release(LockQueue& q, int origin) { return fields(q.release(origin)); }

}  // namespace

TEST(LockQueue, SharedRequestsAreAllGrantedAtOnce) {
  LockQueue q;
  EXPECT_EQ(q.shared_holders(), 0);
  EXPECT_EQ(q.exclusive_holder(), -1);
  EXPECT_EQ(ask(q, 1, kShared, 11), (Grants{{1, kShared, 11}}));
  EXPECT_EQ(ask(q, 2, kShared, 12), (Grants{{2, kShared, 12}}));
  EXPECT_EQ(ask(q, 3, kShared, 13), (Grants{{3, kShared, 13}}));
  EXPECT_EQ(q.shared_holders(), 3);
  EXPECT_EQ(q.exclusive_holder(), -1);
  EXPECT_EQ(release(q, 2), Grants{});
  EXPECT_EQ(release(q, 1), Grants{});
  EXPECT_EQ(release(q, 3), Grants{});
  EXPECT_EQ(q.shared_holders(), 0);
}

TEST(LockQueue, ExclusiveWaitsForSharedHoldersAndLaterSharedWaitsBehindIt) {
  LockQueue q;
  ASSERT_EQ(ask(q, 1, kShared, 21), (Grants{{1, kShared, 21}}));
  ASSERT_EQ(ask(q, 2, kShared, 22), (Grants{{2, kShared, 22}}));
  EXPECT_EQ(ask(q, 3, kExclusive, 23), Grants{});  // two shared holders
  EXPECT_EQ(ask(q, 4, kShared, 24), Grants{});     // compatible with the holders, but behind the exclusive one
  EXPECT_EQ(q.shared_holders(), 2);
  EXPECT_EQ(q.exclusive_holder(), -1);
  EXPECT_EQ(release(q, 1), Grants{});  // origin 2 still holds
  EXPECT_EQ(q.shared_holders(), 1);
  EXPECT_EQ(release(q, 2), (Grants{{3, kExclusive, 23}}));
  EXPECT_EQ(q.shared_holders(), 0);
  EXPECT_EQ(q.exclusive_holder(), 3);
  EXPECT_EQ(release(q, 3), (Grants{{4, kShared, 24}}));
  EXPECT_EQ(q.shared_holders(), 1);
  EXPECT_EQ(q.exclusive_holder(), -1);
}

TEST(LockQueue, ExclusiveAfterExclusive) {
  LockQueue q;
  ASSERT_EQ(ask(q, 5, kExclusive, 31), (Grants{{5, kExclusive, 31}}));
  EXPECT_EQ(q.exclusive_holder(), 5);
  EXPECT_EQ(ask(q, 6, kExclusive, 32), Grants{});
  EXPECT_EQ(ask(q, 7, kShared, 33), Grants{});
  EXPECT_EQ(q.exclusive_holder(), 5);
  EXPECT_EQ(release(q, 5), (Grants{{6, kExclusive, 32}}));  // the shared request stays behind the exclusive one
  EXPECT_EQ(q.exclusive_holder(), 6);
  EXPECT_EQ(q.shared_holders(), 0);
  EXPECT_EQ(release(q, 6), (Grants{{7, kShared, 33}}));
  EXPECT_EQ(q.exclusive_holder(), -1);
  EXPECT_EQ(q.shared_holders(), 1);
  EXPECT_EQ(release(q, 7), Grants{});
  EXPECT_EQ(ask(q, 8, kExclusive, 34), (Grants{{8, kExclusive, 34}}));  // free again: granted on arrival
}

TEST(LockQueue, ReleaseOfExclusiveGrantsTheRunOfQueuedSharedInOneCall) {
  LockQueue q;
  ASSERT_EQ(ask(q, 0, kExclusive, 40), (Grants{{0, kExclusive, 40}}));
  EXPECT_EQ(ask(q, 2, kShared, 42), Grants{});
  EXPECT_EQ(ask(q, 3, kShared, 43), Grants{});
  EXPECT_EQ(ask(q, 1, kShared, 41), Grants{});
  EXPECT_EQ(ask(q, 4, kExclusive, 44), Grants{});
  EXPECT_EQ(ask(q, 5, kShared, 45), Grants{});
  // The run stops at the exclusive request: the shared one after it keeps waiting.
  EXPECT_EQ(release(q, 0), (Grants{{2, kShared, 42}, {3, kShared, 43}, {1, kShared, 41}}));
  EXPECT_EQ(q.shared_holders(), 3);
  EXPECT_EQ(q.exclusive_holder(), -1);
  EXPECT_EQ(release(q, 3), Grants{});
  EXPECT_EQ(release(q, 1), Grants{});
  EXPECT_EQ(release(q, 2), (Grants{{4, kExclusive, 44}}));
  EXPECT_EQ(q.exclusive_holder(), 4);
  EXPECT_EQ(release(q, 4), (Grants{{5, kShared, 45}}));
  EXPECT_EQ(q.shared_holders(), 1);
}

TEST(LockQueue, GrantedWaitersCarryTheAnswerTagsGiven) {
  LockQueue q;
  ASSERT_EQ(ask(q, 9, kExclusive, 0), (Grants{{9, kExclusive, 0}}));
  EXPECT_EQ(ask(q, 3, kShared, 123456789), Grants{});
  EXPECT_EQ(ask(q, 4, kShared, -7), Grants{});
  EXPECT_EQ(ask(q, 12, kExclusive, 0x7fff), Grants{});
  const std::vector<LockQueue::Waiter> run = q.release(9);
  ASSERT_EQ(run.size(), 2u);
  EXPECT_EQ(run[0].origin, 3);
  EXPECT_FALSE(run[0].exclusive);
  EXPECT_EQ(run[0].answer_tag, 123456789);
  EXPECT_EQ(run[1].origin, 4);
  EXPECT_FALSE(run[1].exclusive);
  EXPECT_EQ(run[1].answer_tag, -7);
  EXPECT_EQ(release(q, 4), Grants{});
  const std::vector<LockQueue::Waiter> last = q.release(3);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].origin, 12);
  EXPECT_TRUE(last[0].exclusive);
  EXPECT_EQ(last[0].answer_tag, 0x7fff);
}
