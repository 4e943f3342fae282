#include "comm/group.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace strata::comm {
namespace {

std::string out_of_range(int rank, const Group& g) {
  return "rank " + std::to_string(rank) + " out of range (group has " + std::to_string(g.size()) + " members)";
}

std::string describe(std::span<const RankRange> ranges, std::size_t i) {
  const RankRange& r = ranges[i];
  return "ranges[" + std::to_string(i) + "] = (" + std::to_string(r[0]) + ", " + std::to_string(r[1]) + ", " +
         std::to_string(r[2]) + ")";
}

// Checks that `ranks` are valid, distinct ranks of g; on success `chosen[r]` is true exactly for the listed ranks.
Status check_ranks(const Group& g, std::span<const int> ranks, std::vector<char>& chosen) {
  chosen.assign(g.world_ranks.size(), 0);
  for (int r : ranks) {
    if (r < 0 || r >= g.size()) return error(kErrRank, out_of_range(r, g));
    if (chosen[r]) return error(kErrRank, "rank " + std::to_string(r) + " appears twice");
    chosen[r] = 1;
  }
  return Status::success();
}

}  // namespace

int Group::rank_of(int world_rank) const {
  for (std::size_t i = 0; i < world_ranks.size(); ++i)
    if (world_ranks[i] == world_rank) return static_cast<int>(i);
  return kUndefined;
}

MemberIndex::MemberIndex(const Group& g) {
  int largest = -1;
  for (int w : g.world_ranks) largest = std::max(largest, w);
  rank_.assign(static_cast<std::size_t>(largest + 1), kUndefined);
  for (std::size_t i = 0; i < g.world_ranks.size(); ++i) rank_[g.world_ranks[i]] = static_cast<int>(i);
}

Status incl(const Group& g, std::span<const int> ranks, Group& out) {
  std::vector<char> chosen;
  if (Status s = check_ranks(g, ranks, chosen); !s.ok()) return s;
  out.world_ranks.clear();
  out.world_ranks.reserve(ranks.size());
  for (int r : ranks) out.world_ranks.push_back(g.world_ranks[r]);
  return Status::success();
}

Status excl(const Group& g, std::span<const int> ranks, Group& out) {
  std::vector<char> chosen;
  if (Status s = check_ranks(g, ranks, chosen); !s.ok()) return s;
  out.world_ranks.clear();
  out.world_ranks.reserve(g.world_ranks.size() - ranks.size());
  for (std::size_t r = 0; r < g.world_ranks.size(); ++r)
    if (!chosen[r]) out.world_ranks.push_back(g.world_ranks[r]);
  return Status::success();
}

Status expand_ranges(const Group& g, std::span<const RankRange> ranges, std::vector<int>& ranks) {
  // owner[r] = 1 + the index of the range that computed rank r, 0 if none yet. Each range is checked before it is
  // enumerated (bounds are checked on its first and last computed rank: the sequence is monotonic), and
  // enumeration stops at the first duplicate, so the work is O(group size + number of ranges) however large
  // the triplets' numbers are.
  std::vector<std::size_t> owner(g.world_ranks.size(), 0);
  std::vector<int> result;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const int64_t first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) return error(kErrArg, describe(ranges, i) + " has stride 0");
    if ((last > first && stride < 0) || (last < first && stride > 0))
      return error(kErrArg, describe(ranges, i) + " has a stride that never reaches its last rank");
    // MPI-4.0 7.3.2: the last computed rank is first + floor((last - first) / stride) * stride; first and last
    // lie on the stride's side, so the integer quotient is the floor. `last` itself need not be a valid rank.
    const int64_t count = (last - first) / stride + 1;
    const int64_t final_rank = first + (count - 1) * stride;
    if (first < 0 || first >= g.size())
      return error(kErrRank, describe(ranges, i) + ": " + out_of_range(static_cast<int>(first), g));
    if (final_rank < 0 || final_rank >= g.size()) {
      // Name the first computed rank that leaves the group: one stride past the last one that fits.
      const int64_t room = stride > 0 ? g.size() - 1 - first : first;
      const int64_t bad = first + (room / (stride > 0 ? stride : -stride) + 1) * stride;
      return error(kErrRank, describe(ranges, i) + ": " + out_of_range(static_cast<int>(bad), g));
    }
    for (int64_t k = 0; k < count; ++k) {
      const int r = static_cast<int>(first + k * stride);
      if (owner[r] != 0)
        return error(kErrRank, "rank " + std::to_string(r) + " appears twice (in " + describe(ranges, owner[r] - 1) +
                                   " and " + describe(ranges, i) + ")");
      owner[r] = i + 1;
      result.push_back(r);
    }
  }
  ranks = std::move(result);
  return Status::success();
}

Status range_incl(const Group& g, std::span<const RankRange> ranges, Group& out) {
  std::vector<int> ranks;
  if (Status s = expand_ranges(g, ranges, ranks); !s.ok()) return s;
  return incl(g, ranks, out);
}

Status range_excl(const Group& g, std::span<const RankRange> ranges, Group& out) {
  std::vector<int> ranks;
  if (Status s = expand_ranges(g, ranges, ranks); !s.ok()) return s;
  return excl(g, ranks, out);
}

Group set_union(const Group& g1, const Group& g2) {
  const MemberIndex in1(g1);
  Group out{g1.world_ranks};
  for (int w : g2.world_ranks)
    if (!in1.contains(w)) out.world_ranks.push_back(w);
  return out;
}

Group set_intersection(const Group& g1, const Group& g2) {
  const MemberIndex in2(g2);
  Group out;
  for (int w : g1.world_ranks)
    if (in2.contains(w)) out.world_ranks.push_back(w);
  return out;
}

Group set_difference(const Group& g1, const Group& g2) {
  const MemberIndex in2(g2);
  Group out;
  for (int w : g1.world_ranks)
    if (!in2.contains(w)) out.world_ranks.push_back(w);
  return out;
}

Status translate_ranks(const Group& g1, std::span<const int> ranks1, const Group& g2, std::span<int> ranks2) {
  for (int r : ranks1)
    if (r != kProcNull && (r < 0 || r >= g1.size())) return error(kErrRank, out_of_range(r, g1));
  const MemberIndex in2(g2);
  for (std::size_t i = 0; i < ranks1.size(); ++i)
    ranks2[i] = ranks1[i] == kProcNull ? kProcNull : in2.rank_of(g1.world_ranks[ranks1[i]]);
  return Status::success();
}

int compare(const Group& g1, const Group& g2) {
  if (g1.world_ranks == g2.world_ranks) return kIdent;
  if (g1.size() != g2.size()) return kUnequal;
  // Same size and members are distinct within each group: the sets are equal iff every member of g1 is in g2.
  const MemberIndex in2(g2);
  for (int w : g1.world_ranks)
    if (!in2.contains(w)) return kUnequal;
  return kSimilar;
}

}  // namespace strata::comm
