// A vertex's successor list (coll/successors.hpp) against a std::vector fed the same values: inline up to two, on
// the heap past them, and copies and moves from either that keep every value, in order, and leave the source usable.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "coll/successors.hpp"

using strata::coll::Successors;

namespace {

std::vector<int> contents(const Successors<int>& s) { return {s.begin(), s.end()}; }

Successors<int> filled(int n) {
  Successors<int> s;
  for (int i = 0; i < n; ++i) s.push_back(7 * i + 3);
  return s;
}

std::vector<int> expected(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(7 * i + 3);
  return v;
}

TEST(Successors, HoldWhatWasPushedInOrder) {
  for (int n : {0, 1, 2, 3, 4, 5, 17, 100}) {
    const Successors<int> s = filled(n);
    EXPECT_EQ(contents(s), expected(n)) << n;
    EXPECT_EQ(s.size(), static_cast<std::size_t>(n));
    EXPECT_EQ(s.empty(), n == 0);
  }
}

TEST(Successors, CopiesAreIndependent) {
  for (int n : {0, 2, 3, 9}) {
    Successors<int> original = filled(n);
    Successors<int> copy = original;
    for (int& x : copy) x = -x;
    copy.push_back(1000);
    EXPECT_EQ(contents(original), expected(n)) << n;
    std::vector<int> negated;
    for (int x : expected(n)) negated.push_back(-x);
    negated.push_back(1000);
    EXPECT_EQ(contents(copy), negated) << n;
    for (int m : {0, 1, 5}) {  // assigned over lists of every kind (inline, on the heap)
      Successors<int> target = filled(m);
      target = original;
      EXPECT_EQ(contents(target), expected(n)) << n << " over " << m;
    }
  }
}

TEST(Successors, MovesTakeTheValuesAndLeaveAnEmptyList) {
  for (int n : {0, 1, 2, 3, 9}) {
    Successors<int> from = filled(n);
    Successors<int> to = std::move(from);
    EXPECT_EQ(contents(to), expected(n)) << n;
    EXPECT_TRUE(from.empty());  // NOLINT(bugprone-use-after-move): the state after a move is part of the contract
    from.push_back(5);          // and it is still usable
    EXPECT_EQ(contents(from), std::vector<int>{5});
    for (int m : {0, 4}) {
      Successors<int> target = filled(m);
      Successors<int> source = filled(n);
      target = std::move(source);
      EXPECT_EQ(contents(target), expected(n)) << n << " over " << m;
    }
  }
}

TEST(Successors, AreSmallerThanAVector) {
  EXPECT_LT(sizeof(Successors<int>), sizeof(std::vector<int>));
}

}  // namespace
