// The progress engine's entry points for the calls that wait and those that test: how many passes each runs over the
// registered pollers, and what they return.
#include <gtest/gtest.h>

#include "runtime/progress.hpp"

using namespace strata;

namespace {

// A poller that counts its passes and sets `ready` at pass `ready_at`.
struct Counter {
  int passes = 0;
  int ready_at = -1;
  bool ready = false;
  static bool poll(void* self) {
    Counter& c = *static_cast<Counter*>(self);
    ++c.passes;
    if (c.passes == c.ready_at) c.ready = true;
    return c.passes == c.ready_at;
  }
};

class Progress : public testing::Test {
 protected:
  void SetUp() override { runtime::add_poller(&Counter::poll, &counter); }
  void TearDown() override { runtime::remove_poller(&Counter::poll, &counter); }
  Counter counter;
};

TEST_F(Progress, TestOnceRunsNoPassWhenFoundAlready) {
  counter.ready = true;
  EXPECT_TRUE(runtime::test_once([&] { return counter.ready; }));
  EXPECT_EQ(counter.passes, 0);
}

TEST_F(Progress, TestOnceRunsOnePassAndReportsWhatItFound) {
  counter.ready_at = 3;
  EXPECT_FALSE(runtime::test_once([&] { return counter.ready; }));
  EXPECT_FALSE(runtime::test_once([&] { return counter.ready; }));
  EXPECT_EQ(counter.passes, 2);
  EXPECT_TRUE(runtime::test_once([&] { return counter.ready; }));  // the pass that made it ready
  EXPECT_EQ(counter.passes, 3);
}

TEST_F(Progress, ManyEmptyTestsStillRunOnePassEach) {
  // Past the spin the empty tests yield the processor; they never skip the pass.
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(runtime::test_once([&] { return counter.ready; }));
  EXPECT_EQ(counter.passes, 1000);
}

TEST_F(Progress, WaitUntilRunsPassesUntilDone) {
  counter.ready_at = 50;
  runtime::wait_until([&] { return counter.ready; });
  EXPECT_EQ(counter.passes, 50);
}

}  // namespace
