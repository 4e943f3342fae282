// The epoch rules of shared windows (rma/epochs.hpp): what opens and closes a passive-target epoch, what a flush,
// a fence and a free need, and that a refused call changes nothing.
#include <gtest/gtest.h>

#include "rma/epochs.hpp"

using namespace strata::rma;

TEST(Epochs, NothingOpenAtFirst) {
  Epochs e(3);
  EXPECT_TRUE(e.fence(true).ok());
  EXPECT_TRUE(e.free().ok());
  EXPECT_EQ(e.unlock_all().error_class, strata::kErrRmaSync);
  EXPECT_EQ(e.unlock(1).error_class, strata::kErrRmaSync);
  EXPECT_EQ(e.flush(0).error_class, strata::kErrRmaSync);
  EXPECT_EQ(e.flush_all().error_class, strata::kErrRmaSync);
}

TEST(Epochs, LockAllCoversEveryTarget) {
  Epochs e(4);
  ASSERT_TRUE(e.lock_all().ok());
  for (int t = 0; t < 4; ++t) EXPECT_TRUE(e.flush(t).ok());
  EXPECT_TRUE(e.flush_all().ok());
  EXPECT_EQ(e.lock_all().error_class, strata::kErrRmaSync);  // not twice
  EXPECT_EQ(e.lock(2, LockType::Shared).error_class, strata::kErrRmaSync);
  EXPECT_EQ(e.fence(true).error_class, strata::kErrRmaSync);
  EXPECT_EQ(e.free().error_class, strata::kErrRmaSync);
  EXPECT_EQ(e.unlock(2).error_class, strata::kErrRmaSync);
  EXPECT_TRUE(e.locked_all());  // the refused calls changed nothing
  ASSERT_TRUE(e.unlock_all().ok());
  EXPECT_FALSE(e.locked_all());
  EXPECT_EQ(e.flush(0).error_class, strata::kErrRmaSync);
  EXPECT_TRUE(e.free().ok());
}

TEST(Epochs, LocksArePerTarget) {
  Epochs e(3);
  ASSERT_TRUE(e.lock(1, LockType::Exclusive).ok());
  EXPECT_EQ(e.lock_of(1), LockType::Exclusive);
  EXPECT_EQ(e.lock(1, LockType::Shared).error_class, strata::kErrRmaSync);  // one lock per target at a time
  EXPECT_EQ(e.lock_of(1), LockType::Exclusive);
  ASSERT_TRUE(e.lock(2, LockType::Shared).ok());
  EXPECT_TRUE(e.flush(1).ok());
  EXPECT_TRUE(e.flush(2).ok());
  EXPECT_EQ(e.flush(0).error_class, strata::kErrRmaSync);
  EXPECT_TRUE(e.flush_all().ok());
  EXPECT_EQ(e.lock_all().error_class, strata::kErrRmaSync);
  EXPECT_EQ(e.fence(true).error_class, strata::kErrRmaSync);
  EXPECT_EQ(e.free().error_class, strata::kErrRmaSync);
  EXPECT_EQ(e.unlock(0).error_class, strata::kErrRmaSync);
  ASSERT_TRUE(e.unlock(1).ok());
  EXPECT_EQ(e.unlock(1).error_class, strata::kErrRmaSync);
  EXPECT_EQ(e.free().error_class, strata::kErrRmaSync);  // target 2 is still locked
  ASSERT_TRUE(e.unlock(2).ok());
  EXPECT_EQ(e.lock_of(2), LockType::None);
  EXPECT_TRUE(e.free().ok());
  EXPECT_TRUE(e.lock_all().ok());  // after the per-target epochs closed
}

TEST(Epochs, MessagesSayWhatIsOpen) {
  Epochs e(2);
  ASSERT_TRUE(e.lock(1, LockType::Shared).ok());
  EXPECT_NE(e.lock(1, LockType::Shared).message.find("target rank 1"), std::string::npos);
  EXPECT_NE(e.flush(0).message.find("target rank 0"), std::string::npos);
  EXPECT_NE(Epochs(2).unlock_all().message.find("MPI_Win_lock_all"), std::string::npos);
}
