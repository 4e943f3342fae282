// The slow copy distances: the timings' verdict, and STRATA_SLOW_COPY_DISTANCES's text both ways.
#include "runtime/slow_distances.hpp"

#include <gtest/gtest.h>

using namespace strata::runtime;

namespace {

constexpr std::uint64_t bit(int d) { return std::uint64_t{1} << d; }

// Slow distances are those whose best copy took over 8 times distance 0's; distance 0 is never one of them.
TEST(SlowDistances, AreThoseEightTimesSlowerThanDistanceZero) {
  double times[64];
  for (int d = 0; d < 64; ++d) times[d] = d >= 1 && d <= 15 ? 2000 : 100;  // 2026-12-01's processor
  times[40] = 801;
  times[41] = 800;
  EXPECT_EQ(slow_distances_of(times), 0xFFFEu | bit(40));
  for (double& t : times) t = 500;
  EXPECT_EQ(slow_distances_of(times), 0u);
  times[0] = 5000;  // a slow baseline: no distance is slower than it
  EXPECT_EQ(slow_distances_of(times), 0u);
}

TEST(SlowDistances, TextNamesDistancesAndRanges) {
  EXPECT_EQ(parse_distances("none"), 0u);
  EXPECT_EQ(parse_distances("1-15"), 0xFFFEu);
  EXPECT_EQ(parse_distances("1-15,40"), 0xFFFEu | bit(40));
  EXPECT_EQ(parse_distances("63,1"), bit(63) | bit(1));
  EXPECT_EQ(parse_distances("7-7,3-4"), bit(7) | bit(3) | bit(4));
  EXPECT_EQ(parse_distances("1-63"), ~std::uint64_t{1});
  for (const char* bad : {"", "0", "64", "1-64", "0-3", "5-4", "1,", ",1", "1,,2", "1-", "-3", "a", "1 ", " 1", "+1",
                          "1-2-3", "None", "none,1"})
    EXPECT_EQ(parse_distances(bad), std::nullopt) << '"' << bad << '"';
}

TEST(SlowDistances, FormatIsReadBackExactly) {
  EXPECT_EQ(format_distances(0), "none");
  EXPECT_EQ(format_distances(0xFFFEu), "1-15");
  EXPECT_EQ(format_distances(0xFFFEu | bit(40)), "1-15,40");
  EXPECT_EQ(format_distances(bit(62) | bit(63) | bit(5)), "5,62-63");
  EXPECT_EQ(format_distances(~std::uint64_t{0}), "1-63");  // distance 0 is never slow
  for (std::uint64_t mask : {0xFFFEu | bit(40), bit(1) | bit(3) | bit(5), ~std::uint64_t{1}, bit(63), std::uint64_t{0}})
    EXPECT_EQ(parse_distances(format_distances(mask)), mask) << format_distances(mask);
}

}  // namespace
