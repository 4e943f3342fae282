// Groups (MPI-4.0 section 7.3): an ordered set of processes, named by their world ranks. The group calls are pure
// functions over this value; api/ maps them onto MPI_Group handles.
//
// Every function that takes group ranks from the user validates all of them before building anything, and reports
// the first bad one in a Status whose message names the value ("rank 9 out of range (group has 4 members)"). The
// algebra runs in linear time: membership questions go through an index of the other group (a table by world
// rank), never a nested loop, so groups of MPI_COMM_WORLD's size stay cheap.
#pragma once
#include <array>
#include <span>
#include <vector>

#include "runtime/status.hpp"

namespace strata::comm {

// The mpi.h values of the constants the group calls return (mpi.h is not included below api/; api/group_calls.cpp
// checks at compile time that they agree).
constexpr int kUndefined = -32766;  // MPI_UNDEFINED
constexpr int kProcNull = -1;       // MPI_PROC_NULL
constexpr int kIdent = 0;           // MPI_IDENT
constexpr int kSimilar = 2;         // MPI_SIMILAR
constexpr int kUnequal = 3;         // MPI_UNEQUAL

struct Group {
  std::vector<int> world_ranks;  // the members in group order: group rank i is world rank world_ranks[i]

  int size() const { return static_cast<int>(world_ranks.size()); }
  // The group rank of `world_rank`, or kUndefined if it is not a member. A linear scan: for many look-ups in one
  // group, build a MemberIndex.
  int rank_of(int world_rank) const;
};

// world rank -> group rank, for repeated membership questions about one group. World ranks are dense (0 .. size of
// the world - 1), so the index is a table up to the group's largest one: one allocation, no hashing (a hash map's
// nodes made MPI_Group_translate_ranks into a large group several times slower than into a small one).
class MemberIndex {
 public:
  explicit MemberIndex(const Group& g);
  int rank_of(int world_rank) const {  // kUndefined if absent
    return world_rank >= 0 && static_cast<std::size_t>(world_rank) < rank_.size() ? rank_[world_rank] : kUndefined;
  }
  bool contains(int world_rank) const { return rank_of(world_rank) != kUndefined; }

 private:
  std::vector<int> rank_;
};

// One triplet of MPI_Group_range_incl / MPI_Group_range_excl: {first, last, stride}.
using RankRange = std::array<int, 3>;

// MPI_Group_incl: the members of g at `ranks`, in that order. Errors (kErrRank): a rank outside 0..size-1, a rank
// listed twice.
Status incl(const Group& g, std::span<const int> ranks, Group& out);
// MPI_Group_excl: the members of g not at `ranks`, in g's order. Same errors as incl.
Status excl(const Group& g, std::span<const int> ranks, Group& out);

// The group ranks a list of ranges denotes (MPI-4.0 7.3.2): triplet (first, last, stride) stands for first,
// first + stride, ..., first + floor((last - first) / stride) * stride. Errors: stride 0, or a stride whose sign
// leads away from `last` (kErrArg); a computed rank outside the group, a rank computed by two ranges (kErrRank).
Status expand_ranges(const Group& g, std::span<const RankRange> ranges, std::vector<int>& ranks);
// MPI_Group_range_incl / MPI_Group_range_excl: incl / excl of expand_ranges(ranges).
Status range_incl(const Group& g, std::span<const RankRange> ranges, Group& out);
Status range_excl(const Group& g, std::span<const RankRange> ranges, Group& out);

// Set operations, ordered as MPI-4.0 7.3.2 says: union is g1's members then g2's members not in g1 (in g2's
// order); intersection and difference keep g1's order.
Group set_union(const Group& g1, const Group& g2);
Group set_intersection(const Group& g1, const Group& g2);
Group set_difference(const Group& g1, const Group& g2);

// MPI_Group_translate_ranks: for each rank of g1 in `ranks1`, its rank in g2 (kUndefined if not a member;
// kProcNull maps to kProcNull). Checks every input first (kErrRank for one outside g1), so `ranks2` is written
// only on success. ranks2.size() must equal ranks1.size().
Status translate_ranks(const Group& g1, std::span<const int> ranks1, const Group& g2, std::span<int> ranks2);

// MPI_Group_compare: kIdent (same members, same order), kSimilar (same members, another order), else kUnequal.
int compare(const Group& g1, const Group& g2);

}  // namespace strata::comm
