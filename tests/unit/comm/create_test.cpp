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

SlotMask everything() { return SlotMask(kMaskWords, ~uint64_t{0}); }

// Claims every free slot, takes the lowest (what a one-member agreement does), and returns it.
int take_lowest(ContextPool& pool) {
  bool contended = false;
  SlotMask claimed = pool.claim(everything(), contended);
  auto slot = ContextPool::lowest(claimed);
  pool.settle(claimed, slot);
  return slot.value_or(-1);
}

TEST(ContextPool, ReservedSlotsAreTakenAndFreedSlotsReused) {
  ContextPool pool;
  for (int s = 0; s < kReservedSlots; ++s) EXPECT_FALSE(pool.is_free(s));
  const int first = take_lowest(pool);
  EXPECT_EQ(first, kReservedSlots);
  EXPECT_FALSE(pool.is_free(first));
  EXPECT_TRUE(pool.is_free(first + 1));  // settling gave the other claimed slots back
  EXPECT_EQ(take_lowest(pool), kReservedSlots + 1);
  pool.release(first);
  EXPECT_EQ(take_lowest(pool), kReservedSlots);
}

TEST(ContextPool, AgreementPicksASlotFreeEverywhere) {
  ContextPool a, b;
  for (int s = kReservedSlots; s < 70; ++s) take_lowest(a);  // a has used slots up to 69
  for (int s = kReservedSlots; s <= 70; ++s) take_lowest(b);  // b up to 70
  bool contended = false;
  SlotMask offer_a = a.claim(everything(), contended), offer_b = b.claim(everything(), contended);
  SlotMask agreed = offer_a;
  for (int w = 0; w < kMaskWords; ++w) agreed[w] &= offer_b[w];
  EXPECT_EQ(*ContextPool::lowest(agreed), 71);
}

// Two creations overlapping on one process: the second cannot be offered what the first holds, and learns that it
// was contended; once the first settles, everything it did not take is free again.
TEST(ContextPool, ClaimsExcludeEachOther) {
  ContextPool pool;
  SlotMask word1(kMaskWords, 0);
  word1[1] = ~uint64_t{0};
  bool contended = true;
  SlotMask first = pool.claim(word1, contended);
  EXPECT_FALSE(contended);
  EXPECT_EQ(first[1], ~uint64_t{0});
  SlotMask second = pool.claim(everything(), contended);
  EXPECT_TRUE(contended);
  EXPECT_EQ(second[1], 0u);
  EXPECT_EQ(*ContextPool::lowest(second), kReservedSlots);
  pool.settle(first, 64 + 5);
  pool.settle(second, std::nullopt);
  for (int s = kReservedSlots; s < 2 * 64; ++s) EXPECT_EQ(pool.is_free(s), s != 64 + 5) << s;
  SlotMask third = pool.claim(everything(), contended);
  EXPECT_FALSE(contended);
  pool.settle(third, std::nullopt);
}

// A one-process communicator's slot comes from the local word, which no claim holds: it is there even while an
// agreement claims everything, and that agreement cannot settle on it.
TEST(ContextPool, LocalSlotsAreOutsideEveryClaim) {
  ContextPool pool;
  bool contended = true;
  SlotMask all = pool.claim(everything(), contended);
  EXPECT_EQ(all[kLocalWord], 0u);
  EXPECT_NE(all[kLocalWord - 1], 0u);
  EXPECT_EQ(pool.take_local(), kLocalWord * 64);
  EXPECT_EQ(pool.take_local(), kLocalWord * 64 + 1);
  pool.settle(all, std::nullopt);
  pool.release(kLocalWord * 64);
  EXPECT_EQ(pool.take_local(), kLocalWord * 64);
  for (int s = 2; s < 64; ++s) EXPECT_EQ(pool.take_local(), kLocalWord * 64 + s);
  EXPECT_FALSE(pool.take_local().has_value());
}

// Blocking creations in several threads: only the one of the lowest parent context (then tag) claims, whatever
// order they started in, so every member process lets the same creation go first.
TEST(ContextPool, BlockingCreationsQueueByParentContext) {
  ContextPool pool;
  pool.enter({9, -101});
  EXPECT_TRUE(pool.first({9, -101}));
  pool.enter({3, -101});
  pool.enter({3, -102});
  EXPECT_TRUE(pool.first({3, -102}));
  EXPECT_FALSE(pool.first({3, -101}));
  EXPECT_FALSE(pool.first({9, -101}));
  pool.leave({3, -102});
  EXPECT_TRUE(pool.first({3, -101}));
  pool.leave({3, -101});
  EXPECT_TRUE(pool.first({9, -101}));
}

TEST(ContextPool, ExhaustionIsReported) {
  ContextPool pool;
  for (int s = kReservedSlots; s < kLocalWord * 64; ++s) EXPECT_EQ(take_lowest(pool), s);
  bool contended = true;
  SlotMask left = pool.claim(everything(), contended);
  EXPECT_FALSE(contended);
  EXPECT_FALSE(ContextPool::lowest(left).has_value());
}
