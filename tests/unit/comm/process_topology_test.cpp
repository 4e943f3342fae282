// The pure parts of the virtual process topologies (MPI-4.0 chapter 8): MPI_Dims_create's balance rule against an
// exhaustive search, and the Cartesian rank, coordinate, shift and subgrid functions against direct definitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "comm/process_topology.hpp"

using namespace strata::comm;

namespace {

// The most balanced non-increasing factorisation of n into k factors by exhaustive search: the smallest
// largest-minus-smallest spread (what MPI-4.0 8.5.2 asks: "as close to each other as possible"), ties going to
// the larger factors counted from the smallest (MPICH's choice).
std::vector<int> most_balanced(int n, int k) {
  std::vector<int> best, current;
  std::function<void(int, int)> search = [&](int left, int most) {
    if (static_cast<int>(current.size()) == k) {
      if (left != 1) return;
      const auto key = [](const std::vector<int>& d) {
        return std::make_pair(d.front() - d.back(), std::vector<int>(d.rbegin(), d.rend()));
      };
      if (best.empty() || key(current).first < key(best).first ||
          (key(current).first == key(best).first && key(current).second > key(best).second))
        best = current;
      return;
    }
    for (int f = std::min(left, most); f >= 1; --f)
      if (left % f == 0) {
        current.push_back(f);
        search(left / f, f);
        current.pop_back();
      }
  };
  search(n, n);
  return best;
}

}  // namespace

TEST(DimsCreate, TheStandardsExamples) {  // MPI-4.0 8.5.2, Example 8.1
  std::vector<int> d = {0, 0};
  ASSERT_TRUE(dims_create(6, d).ok());
  EXPECT_EQ(d, (std::vector<int>{3, 2}));
  d = {0, 0};
  ASSERT_TRUE(dims_create(7, d).ok());
  EXPECT_EQ(d, (std::vector<int>{7, 1}));
  d = {0, 3, 0};
  ASSERT_TRUE(dims_create(6, d).ok());
  EXPECT_EQ(d, (std::vector<int>{2, 3, 1}));
  d = {0, 3, 0};
  EXPECT_FALSE(dims_create(7, d).ok());
  d = {0, 0, 0};
  ASSERT_TRUE(dims_create(5040, d).ok());  // the tie MPICH's dims5 test decides
  EXPECT_EQ(d, (std::vector<int>{21, 16, 15}));
}

TEST(DimsCreate, MostBalancedNonIncreasingAndExact) {
  for (int n = 1; n <= 400; ++n)
    for (int k = 1; k <= 4; ++k) {
      std::vector<int> d(static_cast<std::size_t>(k), 0);
      ASSERT_TRUE(dims_create(n, d).ok());
      EXPECT_EQ(std::accumulate(d.begin(), d.end(), 1, std::multiplies<>()), n);
      EXPECT_TRUE(std::is_sorted(d.rbegin(), d.rend())) << n << " into " << k;
      EXPECT_EQ(d, most_balanced(n, k)) << n << " into " << k;
    }
}

TEST(Cart, RanksAreRowMajorAndCoordsInvertThem) {
  const CartTopology t{{3, 4, 2}, {false, true, false}};
  EXPECT_EQ(t.size(), 24);
  for (int r = 0; r < 24; ++r) {
    const std::vector<int> c = cart_coords(t, r);
    EXPECT_EQ(c, (std::vector<int>{r / 8, r / 2 % 4, r % 2}));
    EXPECT_EQ(cart_rank(t, c), r);
  }
  EXPECT_EQ(cart_rank(t, {1, -1, 0}), cart_rank(t, {1, 3, 0}));  // periodic: wraps
  EXPECT_EQ(cart_rank(t, {1, 9, 1}), cart_rank(t, {1, 1, 1}));
  EXPECT_EQ(cart_rank(t, {3, 0, 0}), kProcNull);  // not periodic: off the grid
}

TEST(Cart, ShiftsWrapOrFallOffTheEdge) {
  const CartTopology t{{4, 3}, {false, true}};
  int source = 0, dest = 0;
  cart_shift(t, cart_rank(t, {0, 0}), 0, 1, source, dest);  // along the open dimension
  EXPECT_EQ(source, kProcNull);
  EXPECT_EQ(dest, cart_rank(t, {1, 0}));
  cart_shift(t, cart_rank(t, {3, 2}), 0, 2, source, dest);
  EXPECT_EQ(source, cart_rank(t, {1, 2}));
  EXPECT_EQ(dest, kProcNull);
  cart_shift(t, cart_rank(t, {2, 0}), 1, 1, source, dest);  // along the periodic one
  EXPECT_EQ(source, cart_rank(t, {2, 2}));
  EXPECT_EQ(dest, cart_rank(t, {2, 1}));
  cart_shift(t, cart_rank(t, {2, 0}), 1, -4, source, dest);
  EXPECT_EQ(source, cart_rank(t, {2, 1}));
  EXPECT_EQ(dest, cart_rank(t, {2, 2}));
}

TEST(Cart, SubgridsGroupByTheDroppedCoordinates) {
  const CartTopology t{{2, 3, 4}, {true, false, true}};
  const std::vector<bool> remain = {false, true, false};
  const CartTopology sub = cart_sub(t, remain);
  EXPECT_EQ(sub.dims, (std::vector<int>{3}));
  EXPECT_EQ(sub.periods, (std::vector<bool>{false}));
  for (int a = 0; a < 24; ++a)
    for (int b = 0; b < 24; ++b) {
      const std::vector<int> ca = cart_coords(t, a), cb = cart_coords(t, b);
      const bool same_part = ca[0] == cb[0] && ca[2] == cb[2];
      EXPECT_EQ(cart_sub_color(t, a, remain) == cart_sub_color(t, b, remain), same_part);
    }
}

TEST(Graph, NeighboursFromTheCumulativeIndex) {  // MPI-4.0 8.5.3's example: 4 nodes
  const GraphTopology g{{2, 3, 4, 6}, {1, 3, 0, 3, 0, 2}};
  EXPECT_EQ(g.neighbors(0), (std::vector<int>{1, 3}));
  EXPECT_EQ(g.neighbors(1), (std::vector<int>{0}));
  EXPECT_EQ(g.neighbors(2), (std::vector<int>{3}));
  EXPECT_EQ(g.neighbors(3), (std::vector<int>{0, 2}));
}
