// The window layout rules (rma/layout.hpp): contiguous parts back to back, noncontiguous parts page-aligned and
// apart, zero sizes anywhere (all of them included), the lock words on their own page, and the MPI_PROC_NULL
// query rule.
#include <gtest/gtest.h>

#include <vector>

#include "rma/layout.hpp"

using namespace strata::rma;

namespace {

constexpr std::size_t kPage = 4096;

SharedLayout plan(const std::vector<std::int64_t>& sizes, bool noncontig, std::size_t page = kPage) {
  std::vector<Contribution> parts;
  int unit = 1;
  for (std::int64_t s : sizes) parts.push_back({s, unit++});
  SharedLayout out;
  EXPECT_TRUE(plan_layout(parts, noncontig, page, out).ok());
  return out;
}

// What every layout must satisfy: parts in rank order, never overlapping, inside the data, lock words after it.
void expect_sound(const SharedLayout& l, std::size_t page) {
  for (int r = 0; r < l.size(); ++r) {
    EXPECT_LE(l.offsets[r] + l.sizes[r], l.data_bytes) << "rank " << r;
    EXPECT_EQ(l.disp_units[r], r + 1);
    if (r > 0) {
      EXPECT_GE(l.offsets[r], l.offsets[r - 1] + l.sizes[r - 1]) << "rank " << r;
    }
  }
  EXPECT_EQ(l.lock_offset % page, 0u);
  EXPECT_GE(l.lock_offset, l.data_bytes);
  EXPECT_GE(l.segment_bytes, l.lock_offset + l.size() * kLockWordBytes);
  EXPECT_EQ(l.segment_bytes % page, 0u);
}

}  // namespace

TEST(SharedLayout, ContiguousPartsFollowEachOtherWithoutPadding) {
  const SharedLayout l = plan({10, 3, 4096, 1}, false);
  EXPECT_EQ(l.offsets, (std::vector<std::size_t>{0, 10, 13, 4109}));
  EXPECT_EQ(l.data_bytes, 4110u);
  EXPECT_EQ(l.lock_offset, 8192u);
  EXPECT_EQ(l.segment_bytes, 12288u);
  expect_sound(l, kPage);
}

TEST(SharedLayout, NoncontiguousPartsStartOnTheirOwnPages) {
  const SharedLayout l = plan({10, 3, 4096, 4097, 1}, true);
  EXPECT_EQ(l.offsets, (std::vector<std::size_t>{0, 4096, 8192, 12288, 20480}));
  EXPECT_EQ(l.data_bytes, 24576u);
  for (std::size_t o : l.offsets) EXPECT_EQ(o % kPage, 0u);
  // No page holds bytes of two parts.
  for (int r = 1; r < l.size(); ++r)
    EXPECT_GE(l.offsets[r], (l.offsets[r - 1] + l.sizes[r - 1] + kPage - 1) / kPage * kPage);
  expect_sound(l, kPage);
}

TEST(SharedLayout, ZeroSizesTakeNoRoom) {
  const SharedLayout contiguous = plan({0, 8, 0, 0, 8, 0}, false);
  EXPECT_EQ(contiguous.offsets, (std::vector<std::size_t>{0, 0, 8, 8, 8, 16}));
  EXPECT_EQ(contiguous.data_bytes, 16u);
  expect_sound(contiguous, kPage);
  const SharedLayout apart = plan({0, 8, 0, 8}, true);
  EXPECT_EQ(apart.offsets, (std::vector<std::size_t>{0, 0, 4096, 4096}));
  for (std::size_t o : apart.offsets) EXPECT_EQ(o % kPage, 0u);
  expect_sound(apart, kPage);
}

TEST(SharedLayout, AllZeroSizesLeaveOnlyTheLockWords) {
  for (bool noncontig : {false, true}) {
    for (int n : {1, 2, 7, 65, 100}) {
      const SharedLayout l = plan(std::vector<std::int64_t>(n, 0), noncontig);
      EXPECT_EQ(l.data_bytes, 0u);
      EXPECT_EQ(l.lock_offset, 0u);
      EXPECT_EQ(l.segment_bytes, (n * kLockWordBytes + kPage - 1) / kPage * kPage) << n;
      expect_sound(l, kPage);
    }
  }
}

TEST(SharedLayout, SweepOverSizesAndPageSizes) {
  for (std::size_t page : {std::size_t{4096}, std::size_t{65536}}) {
    for (int n = 1; n <= 17; ++n) {
      std::vector<std::int64_t> sizes;
      for (int r = 0; r < n; ++r) sizes.push_back((r * 7919) % 13 == 0 ? 0 : (r * 7919) % 9000);
      for (bool noncontig : {false, true}) {
        const SharedLayout l = plan(sizes, noncontig, page);
        expect_sound(l, page);
        std::size_t expected = 0;
        for (int r = 0; r < n; ++r) {
          if (noncontig) {
            EXPECT_EQ(l.offsets[r] % page, 0u);
          } else {
            EXPECT_EQ(l.offsets[r], expected);
          }
          expected += sizes[r];
        }
      }
    }
  }
}

TEST(SharedLayout, TooLargeIsAnError) {
  SharedLayout out;
  const std::int64_t huge = std::int64_t{1} << 62;
  const strata::Status s = plan_layout({{huge, 1}, {huge, 1}}, false, kPage, out);
  EXPECT_EQ(s.error_class, 49);  // MPI_ERR_SIZE
}

TEST(SharedLayout, ProcNullAnswersForTheLowestNonEmptyPart) {
  EXPECT_EQ(proc_null_target({5, 0, 3}), 0);
  EXPECT_EQ(proc_null_target({0, 0, 3, 4}), 2);
  EXPECT_EQ(proc_null_target({0, 0, 0, 1}), 3);
  EXPECT_EQ(proc_null_target({0, 0, 0}), -1);
  EXPECT_EQ(proc_null_target({0}), -1);
  EXPECT_EQ(proc_null_target({1}), 0);
}
