// Cpuset::parse_list: hwloc's list syntax ("0-3,8"), optionally prefixed by "hwloc:" as in PMIX_CPUSET. Ranges are
// inclusive; a malformed list gives nullopt rather than a partial set.
#include <gtest/gtest.h>

#include "topo/cpuset.hpp"
#include "topo_test_util.hpp"

using namespace strata::topo;
using strata::topo::testing::pus;

namespace {

TEST(CpusetParse, SinglePu) {
  auto s = Cpuset::parse_list("0");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, pus({0}));
  EXPECT_EQ(s->weight(), 1);
}

TEST(CpusetParse, RangeAndSingle) {
  auto s = Cpuset::parse_list("0-3,8");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, pus({0, 1, 2, 3, 8}));
  EXPECT_EQ(s->weight(), 5);
  EXPECT_EQ(s->list(), "0-3,8");
}

TEST(CpusetParse, HwlocPrefix) {
  auto s = Cpuset::parse_list("hwloc:2-3");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, pus({2, 3}));
}

TEST(CpusetParse, MoreValidLists) {
  auto one_range = Cpuset::parse_list("5-5");
  ASSERT_TRUE(one_range.has_value());
  EXPECT_EQ(*one_range, pus({5}));

  auto unordered = Cpuset::parse_list("7,1,4-5");
  ASSERT_TRUE(unordered.has_value());
  EXPECT_EQ(*unordered, pus({1, 4, 5, 7}));

  auto overlapping = Cpuset::parse_list("0-2,1-3");
  ASSERT_TRUE(overlapping.has_value());
  EXPECT_EQ(*overlapping, pus({0, 1, 2, 3}));

  auto large = Cpuset::parse_list("100");
  ASSERT_TRUE(large.has_value());
  EXPECT_EQ(*large, pus({100}));
}

TEST(CpusetParse, RejectsMalformed) {
  for (const char* bad : {"", "a", "3-1", "1,,2", "1,", "-1", ",1", "1-", "1-2-3", "hwloc:", " 1", "1 ", "0x1",
                          "1;2", "1-a", "hwloc:a", "hwloc:-1", "2-1,0", "0,3-1"}) {
    EXPECT_FALSE(Cpuset::parse_list(bad).has_value()) << "\"" << bad << "\"";
  }
}

TEST(CpusetList, EmptyAndRoundTrip) {
  EXPECT_EQ(Cpuset().list(), "");
  EXPECT_TRUE(Cpuset().empty());
  EXPECT_EQ(pus({0, 1, 2, 3, 8}).list(), "0-3,8");
  auto back = Cpuset::parse_list(pus({2, 4, 5, 6, 9}).list());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, pus({2, 4, 5, 6, 9}));
}

TEST(CpusetRelations, WithinAndIntersects) {
  EXPECT_TRUE(pus({2, 3}).within(pus({0, 1, 2, 3})));
  EXPECT_FALSE(pus({3, 4}).within(pus({0, 1, 2, 3})));
  EXPECT_TRUE(pus({3, 4}).intersects(pus({0, 1, 2, 3})));
  EXPECT_FALSE(pus({4, 5}).intersects(pus({0, 1, 2, 3})));
}

}  // namespace
