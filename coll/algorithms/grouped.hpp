// The grouped family's pattern maths, and its builder with the inner algorithm forced (grouped.cpp): for the tests
// and for cost studies that fix the algorithm of every phase, as the hierarchical reduction paper does.
#pragma once
#include <vector>

#include "coll/algorithms.hpp"

namespace strata::coll {

// p ranks cut into G groups of consecutive ranks, the first p % G of them one rank longer than the others.
class Groups {
 public:
  Groups(int ranks, int count) : ranks_(ranks), count_(count) {}

  int count() const { return count_; }
  int size(int g) const { return ranks_ / count_ + (g < longer() ? 1 : 0); }
  int first(int g) const { return g * (ranks_ / count_) + (g < longer() ? g : longer()); }
  int of(int rank) const;
  int index_of(int rank) const { return rank - first(of(rank)); }
  // The positions every group has: index_of(r) >= columns() only for the last rank of a longer group.
  int columns() const { return ranks_ / count_; }
  std::vector<int> members(int g) const;     // ascending
  std::vector<int> column(int index) const;  // the rank at `index` of every group, in group order

 private:
  int longer() const { return ranks_ % count_; }
  int ranks_, count_;
};

// G for p ranks: `requested` (Args::groups) clamped to 1..p, else (0) the integer nearest sqrt(p), where
// G + p/G - 2, the number of flat steps of the two phases, is smallest (hierarchical reduction paper, 3.1).
int group_count(int ranks, int requested);

// The G the cost model tries when none is requested: the integers around sqrt(p) (the paper's optimum for flat
// phases) and the node count (groups then follow nodes in block order), each in 2..p-1 (G = 1 or p is the inner
// algorithm alone). Ascending, without repeats; empty below 3 ranks.
std::vector<int> group_choices(int ranks, int nodes);

// The grouped reduce, allreduce or bcast of `a` into `s`, with `inner` running every phase (it must apply to each);
// null: each phase's own choice by select(), as the registered algorithms do. False, and nothing built, for the
// operations the family does not have.
bool build_grouped(Operation op, const Args& a, Schedule& s, const Algorithm* inner);

}  // namespace strata::coll
