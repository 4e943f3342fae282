// Communicator creation logic that needs no processes: the split membership rule (MPI-4.0 7.4.2) against a
// direct reading of it, and the context-slot pool.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "comm/context_ids.hpp"
#include "comm/create.hpp"

using namespace strata::comm;

TEST(SplitMembers, KeysOrderAndTiesKeepParentOrder) {
  const std::vector<int> colors = {0, 1, 0, 0, 1, kUndefined};
  const std::vector<int> keys = {5, 0, 5, 1, 0, 0};
  EXPECT_EQ(split_members(colors, keys, 0), (std::vector<int>{3, 0, 2}));
  EXPECT_EQ(split_members(colors, keys, 1), (std::vector<int>{1, 4}));
}

TEST(SplitMembers, RandomSplitsMatchTheDefinition) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const int p = 1 + static_cast<int>(rng() % 17);
    std::vector<int> colors(p), keys(p);
    for (int r = 0; r < p; ++r) {
      colors[r] = rng() % 5 == 0 ? kUndefined : static_cast<int>(rng() % 3);
      keys[r] = static_cast<int>(rng() % 4) - 2;
    }
    for (int color = 0; color < 3; ++color) {
      // Definition: member a precedes b iff key[a] < key[b], or the keys tie and a < b.
      std::vector<int> expected;
      for (int r = 0; r < p; ++r)
        if (colors[r] == color) expected.push_back(r);
      std::sort(expected.begin(), expected.end(),
                [&](int a, int b) { return keys[a] != keys[b] ? keys[a] < keys[b] : a < b; });
      EXPECT_EQ(split_members(colors, keys, color), expected);
    }
  }
}

TEST(ContextPool, ReservedSlotsAreTakenAndFreedSlotsReused) {
  ContextPool pool;
  for (int s = 0; s < kReservedSlots; ++s) EXPECT_FALSE(pool.is_free(s));
  auto first = ContextPool::lowest(pool.free_mask());
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, kReservedSlots);
  pool.take(*first);
  EXPECT_EQ(*ContextPool::lowest(pool.free_mask()), kReservedSlots + 1);
  pool.release(*first);
  EXPECT_EQ(*ContextPool::lowest(pool.free_mask()), kReservedSlots);
}

TEST(ContextPool, AgreementPicksASlotFreeEverywhere) {
  ContextPool a, b;
  for (int s = kReservedSlots; s < 70; ++s) a.take(s);   // a has used the first word up
  b.take(70);                                            // b uses the slot right after
  SlotMask agreed = a.free_mask();
  for (std::size_t w = 0; w < agreed.size(); ++w) agreed[w] &= b.free_mask()[w];
  EXPECT_EQ(*ContextPool::lowest(agreed), 71);
}

TEST(ContextPool, ExhaustionIsReported) {
  ContextPool pool;
  for (int s = kReservedSlots; s < kContextSlots; ++s) pool.take(s);
  EXPECT_FALSE(ContextPool::lowest(pool.free_mask()).has_value());
}
