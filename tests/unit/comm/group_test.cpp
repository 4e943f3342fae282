// Group algebra against a set model: random groups (seeded; sizes 0..40 drawn from world ranks 0..63) go through
// comm/group.* and through direct, deliberately naive readings of MPI-4.0 section 7.3 written here (std::find,
// std::set, an enumeration loop per range). Results and error classes must agree, and a failed call leaves its
// output untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "comm/group.hpp"

using namespace strata;
using namespace strata::comm;

namespace {

using Members = std::vector<int>;

// ---- the model ----------------------------------------------------------------------------------------------

bool has(const Members& m, int w) { return std::find(m.begin(), m.end(), w) != m.end(); }

// Either the members of the result or an MPI error class.
struct Outcome {
  Members members;
  int error_class = 0;
};

Outcome model_incl(const Members& g, const std::vector<int>& ranks) {
  std::set<int> seen;
  Outcome o;
  for (int r : ranks) {
    if (r < 0 || r >= static_cast<int>(g.size()) || !seen.insert(r).second) return {{}, kErrRank};
    o.members.push_back(g[r]);
  }
  return o;
}

Outcome model_excl(const Members& g, const std::vector<int>& ranks) {
  Outcome chosen = model_incl(g, ranks);
  if (chosen.error_class) return chosen;
  Outcome o;
  for (int w : g)
    if (!has(chosen.members, w)) o.members.push_back(w);
  return o;
}

// The ranks a list of triplets denotes, enumerated one by one; std::nullopt with the class on error.
std::optional<std::vector<int>> model_ranges(const Members& g, const std::vector<RankRange>& ranges, int& error_class) {
  std::vector<int> ranks;
  std::set<int> seen;
  for (const RankRange& t : ranges) {
    const long long first = t[0], last = t[1], stride = t[2];
    if (stride == 0 || (stride > 0 && first > last) || (stride < 0 && first < last)) {
      error_class = kErrArg;
      return std::nullopt;
    }
    for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
      if (r < 0 || r >= static_cast<long long>(g.size()) || !seen.insert(static_cast<int>(r)).second) {
        error_class = kErrRank;
        return std::nullopt;
      }
      ranks.push_back(static_cast<int>(r));
    }
  }
  return ranks;
}

Members model_union(const Members& a, const Members& b) {
  Members out = a;
  for (int w : b)
    if (!has(a, w)) out.push_back(w);
  return out;
}

Members model_intersection(const Members& a, const Members& b) {
  Members out;
  for (int w : a)
    if (has(b, w)) out.push_back(w);
  return out;
}

Members model_difference(const Members& a, const Members& b) {
  Members out;
  for (int w : a)
    if (!has(b, w)) out.push_back(w);
  return out;
}

int model_compare(const Members& a, const Members& b) {
  if (a == b) return kIdent;
  if (std::set<int>(a.begin(), a.end()) == std::set<int>(b.begin(), b.end())) return kSimilar;
  return kUnequal;
}

// ---- random inputs ------------------------------------------------------------------------------------------

constexpr int kUniverse = 64;
constexpr int kMaxSize = 40;
constexpr int kTrials = 3000;

Members random_group(std::mt19937& rng, int size = -1) {
  if (size < 0) size = std::uniform_int_distribution<int>(0, kMaxSize)(rng);
  Members all(kUniverse);
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(size);
  return all;
}

int pick(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// Distinct valid ranks, in random order (a random subset of 0..size-1).
std::vector<int> random_valid_ranks(std::mt19937& rng, int size) {
  std::vector<int> ranks(size);
  std::iota(ranks.begin(), ranks.end(), 0);
  std::shuffle(ranks.begin(), ranks.end(), rng);
  ranks.resize(pick(rng, 0, size));
  return ranks;
}

// Mostly valid ranks, sometimes with a duplicate or an out-of-range value.
std::vector<int> random_ranks(std::mt19937& rng, int size) {
  std::vector<int> ranks = random_valid_ranks(rng, size);
  switch (pick(rng, 0, 3)) {
    case 0:
      if (!ranks.empty()) ranks.insert(ranks.begin() + pick(rng, 0, static_cast<int>(ranks.size())), ranks[0]);
      break;
    case 1:
      ranks.insert(ranks.begin() + pick(rng, 0, static_cast<int>(ranks.size())),
                   pick(rng, 0, 1) ? pick(rng, -5, -1) : pick(rng, size, size + 5));
      break;
    default:
      break;
  }
  return ranks;
}

// Triplets that denote distinct valid ranks: sequences over unused ranks, with `last` sometimes past the final
// computed rank (by less than one stride) to exercise the floor in MPI-4.0's formula.
std::vector<RankRange> random_valid_ranges(std::mt19937& rng, int size) {
  std::vector<RankRange> ranges;
  std::vector<char> used(size, 0);
  const int n = size == 0 ? 0 : pick(rng, 0, 5);
  for (int i = 0; i < n; ++i) {
    int stride = pick(rng, 1, 4) * (pick(rng, 0, 1) ? 1 : -1);
    const int first = pick(rng, 0, size - 1);
    if (used[first]) continue;
    int final_rank = first;
    const int length = pick(rng, 1, 6);
    used[first] = 1;
    for (int k = 1; k < length; ++k) {
      const int next = final_rank + stride;
      if (next < 0 || next >= size || used[next]) break;
      used[next] = 1;
      final_rank = next;
    }
    if (first == final_rank && pick(rng, 0, 1)) stride = -stride;  // a single rank: either sign works
    const int slack = pick(rng, 0, std::abs(stride) - 1);
    ranges.push_back({first, final_rank + (stride > 0 ? slack : -slack), stride});
  }
  return ranges;
}

// Any triplets near the group's bounds: valid or not.
std::vector<RankRange> random_ranges(std::mt19937& rng, int size) {
  if (pick(rng, 0, 1)) return random_valid_ranges(rng, size);
  std::vector<RankRange> ranges(pick(rng, 0, 4));
  for (RankRange& t : ranges) t = {pick(rng, -2, size + 1), pick(rng, -2, size + 1), pick(rng, -4, 4)};
  return ranges;
}

const Members kSentinel = {-99};  // what a failed call must leave in its output

// ---- properties ---------------------------------------------------------------------------------------------

TEST(Group, RankOfAndIndex) {
  Group g{{5, 9, 2}};
  EXPECT_EQ(g.size(), 3);
  EXPECT_EQ(g.rank_of(9), 1);
  EXPECT_EQ(g.rank_of(7), kUndefined);
  MemberIndex index(g);
  EXPECT_EQ(index.rank_of(2), 2);
  EXPECT_FALSE(index.contains(7));
  EXPECT_EQ(Group{}.rank_of(0), kUndefined);
}

TEST(Group, InclExclMatchModel) {
  std::mt19937 rng(101);
  int failures = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const Group g{random_group(rng)};
    const std::vector<int> ranks = random_ranks(rng, g.size());
    for (bool include : {true, false}) {
      const Outcome want = include ? model_incl(g.world_ranks, ranks) : model_excl(g.world_ranks, ranks);
      Group out{kSentinel};
      const Status s = include ? incl(g, ranks, out) : excl(g, ranks, out);
      ASSERT_EQ(s.error_class, want.error_class) << "trial " << trial << ": " << s.message;
      if (s.ok())
        ASSERT_EQ(out.world_ranks, want.members) << "trial " << trial;
      else {
        ASSERT_EQ(out.world_ranks, kSentinel);
        ASSERT_FALSE(s.message.empty());
        ++failures;
      }
    }
  }
  EXPECT_GT(failures, kTrials / 4);  // the generator exercises the error paths too
}

TEST(Group, RangesMatchModel) {
  std::mt19937 rng(202);
  int valid = 0, invalid_arg = 0, invalid_rank = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const Group g{random_group(rng)};
    const std::vector<RankRange> ranges = random_ranges(rng, g.size());
    int want_class = 0;
    const std::optional<std::vector<int>> want_ranks = model_ranges(g.world_ranks, ranges, want_class);

    std::vector<int> ranks = {-99};
    const Status s = expand_ranges(g, ranges, ranks);
    ASSERT_EQ(s.error_class, want_class) << "trial " << trial << ": " << s.message;
    Group in{kSentinel}, ex{kSentinel};
    const Status si = range_incl(g, ranges, in), se = range_excl(g, ranges, ex);
    ASSERT_EQ(si.error_class, want_class);
    ASSERT_EQ(se.error_class, want_class);
    if (want_ranks) {
      ++valid;
      ASSERT_EQ(ranks, *want_ranks) << "trial " << trial;
      ASSERT_EQ(in.world_ranks, model_incl(g.world_ranks, *want_ranks).members);
      ASSERT_EQ(ex.world_ranks, model_excl(g.world_ranks, *want_ranks).members);
    } else {
      (want_class == kErrArg ? invalid_arg : invalid_rank)++;
      ASSERT_EQ(ranks, std::vector<int>{-99});
      ASSERT_EQ(in.world_ranks, kSentinel);
      ASSERT_EQ(ex.world_ranks, kSentinel);
    }
  }
  EXPECT_GT(valid, kTrials / 3);
  EXPECT_GT(invalid_arg, 50);
  EXPECT_GT(invalid_rank, 50);
}

TEST(Group, SetOperationsMatchModel) {
  std::mt19937 rng(303);
  for (int trial = 0; trial < kTrials; ++trial) {
    const Group a{random_group(rng)};
    // Overlapping groups half the time: b drawn from a's members plus some others.
    Group b{random_group(rng)};
    if (pick(rng, 0, 1)) {
      Members mixed = a.world_ranks;
      std::shuffle(mixed.begin(), mixed.end(), rng);
      mixed.resize(pick(rng, 0, a.size()));
      for (int w : b.world_ranks)
        if (!has(mixed, w) && pick(rng, 0, 2) == 0) mixed.push_back(w);
      std::shuffle(mixed.begin(), mixed.end(), rng);
      b.world_ranks = mixed;
    }
    ASSERT_EQ(set_union(a, b).world_ranks, model_union(a.world_ranks, b.world_ranks));
    ASSERT_EQ(set_intersection(a, b).world_ranks, model_intersection(a.world_ranks, b.world_ranks));
    ASSERT_EQ(set_difference(a, b).world_ranks, model_difference(a.world_ranks, b.world_ranks));
    ASSERT_EQ(compare(a, b), model_compare(a.world_ranks, b.world_ranks));
  }
}

TEST(Group, CompareIdentSimilarUnequal) {
  std::mt19937 rng(404);
  for (int trial = 0; trial < 500; ++trial) {
    const Group a{random_group(rng)};
    Group shuffled = a;
    std::shuffle(shuffled.world_ranks.begin(), shuffled.world_ranks.end(), rng);
    EXPECT_EQ(compare(a, a), kIdent);
    EXPECT_EQ(compare(a, shuffled), shuffled.world_ranks == a.world_ranks ? kIdent : kSimilar);
    if (a.size() > 0) {
      Group fewer{Members(a.world_ranks.begin() + 1, a.world_ranks.end())};
      EXPECT_EQ(compare(a, fewer), kUnequal);
      Group swapped = a;
      swapped.world_ranks[0] = kUniverse + 1;  // same size, one member differs
      EXPECT_EQ(compare(a, swapped), kUnequal);
    }
  }
  EXPECT_EQ(compare(Group{}, Group{}), kIdent);
}

TEST(Group, TranslateMatchesModel) {
  std::mt19937 rng(505);
  int failures = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const Group a{random_group(rng)}, b{random_group(rng)};
    std::vector<int> ranks1(pick(rng, 0, 10));
    for (int& r : ranks1) r = pick(rng, 0, 9) == 0 ? kProcNull : pick(rng, 0, std::max(0, a.size() - 1));
    const bool make_bad = pick(rng, 0, 4) == 0;
    if (make_bad) ranks1.push_back(pick(rng, 0, 1) ? a.size() + pick(rng, 0, 3) : -2 - pick(rng, 0, 3));
    bool model_ok = true;
    std::vector<int> want;
    for (int r : ranks1) {
      if (r == kProcNull) {
        want.push_back(kProcNull);
      } else if (r < 0 || r >= a.size()) {
        model_ok = false;
        break;
      } else {
        auto it = std::find(b.world_ranks.begin(), b.world_ranks.end(), a.world_ranks[r]);
        want.push_back(it == b.world_ranks.end() ? kUndefined : static_cast<int>(it - b.world_ranks.begin()));
      }
    }
    std::vector<int> ranks2(ranks1.size(), -99);
    const Status s = translate_ranks(a, ranks1, b, ranks2);
    ASSERT_EQ(s.ok(), model_ok) << "trial " << trial << ": " << s.message;
    if (s.ok()) {
      ASSERT_EQ(ranks2, want);
    } else {
      ++failures;
      ASSERT_EQ(s.error_class, kErrRank);
      ASSERT_EQ(ranks2, std::vector<int>(ranks1.size(), -99));  // nothing written on failure
    }
  }
  EXPECT_GT(failures, 100);
}

TEST(Group, MessagesNameTheBadValue) {
  const Group g{{10, 11, 12, 13}};
  Group out;
  EXPECT_EQ(incl(g, std::vector<int>{1, 7}, out).message, "rank 7 out of range (group has 4 members)");
  EXPECT_EQ(excl(g, std::vector<int>{3, 1, 3}, out).message, "rank 3 appears twice");
  const std::vector<RankRange> backwards = {{{3, 1, 1}}};
  Status s = range_incl(g, backwards, out);
  EXPECT_EQ(s.error_class, kErrArg);
  EXPECT_NE(s.message.find("(3, 1, 1) has a stride that never reaches its last rank"), std::string::npos) << s.message;
  const std::vector<RankRange> zero = {{{0, 3, 0}}};
  s = range_excl(g, zero, out);
  EXPECT_EQ(s.error_class, kErrArg);
  EXPECT_NE(s.message.find("stride 0"), std::string::npos) << s.message;
  const std::vector<RankRange> overlap = {{{0, 2, 1}}, {{3, 1, -2}}};
  s = range_incl(g, overlap, out);
  EXPECT_EQ(s.error_class, kErrRank);
  EXPECT_NE(s.message.find("rank 1 appears twice"), std::string::npos) << s.message;
  const std::vector<RankRange> outside = {{{2, 9, 3}}};
  s = range_incl(g, outside, out);
  EXPECT_EQ(s.error_class, kErrRank);
  EXPECT_NE(s.message.find("rank 5 out of range (group has 4 members)"), std::string::npos) << s.message;
}

TEST(Group, RangeExamplesFromTheStandard) {
  const Group g{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}};
  Group out;
  // (0, 9, 4) computes 0, 4, 8: last need not be reached; (7, 5, -1) computes 7, 6, 5.
  const std::vector<RankRange> ranges = {{{0, 9, 4}}, {{7, 5, -1}}, {{3, 3, -5}}};
  ASSERT_TRUE(range_incl(g, ranges, out).ok());
  EXPECT_EQ(out.world_ranks, (Members{0, 4, 8, 7, 6, 5, 3}));
  ASSERT_TRUE(range_excl(g, ranges, out).ok());
  EXPECT_EQ(out.world_ranks, (Members{1, 2, 9}));
  // Huge triplets are rejected by their bounds without being enumerated.
  const std::vector<RankRange> huge = {{{0, 2147483647, 1}}};
  EXPECT_EQ(range_incl(g, huge, out).error_class, kErrRank);
  const std::vector<RankRange> huge_stride = {{{9, -5, -2147483647}}, {{0, 2147483646, 2147483647}}};
  ASSERT_TRUE(range_incl(g, huge_stride, out).ok());
  EXPECT_EQ(out.world_ranks, (Members{9, 0}));
  const std::vector<RankRange> extreme = {{{9, -2147483647 - 1, -2147483647}}};  // computes 9, -2147483638
  EXPECT_EQ(range_incl(g, extreme, out).error_class, kErrRank);
}

TEST(Group, LargeGroupsStayFast) {
  // 200 000 members: the algebra is linear, so this runs in milliseconds (a quadratic loop would take minutes).
  Group a, b;
  for (int i = 0; i < 200000; ++i) a.world_ranks.push_back(i);
  for (int i = 199999; i >= 0; i -= 2) b.world_ranks.push_back(i);
  EXPECT_EQ(set_union(a, b).size(), 200000);
  EXPECT_EQ(set_intersection(a, b).size(), 100000);
  EXPECT_EQ(set_difference(a, b).size(), 100000);
  EXPECT_EQ(compare(a, set_union(b, a)), kSimilar);
  std::vector<int> all(200000), out(200000);
  std::iota(all.begin(), all.end(), 0);
  ASSERT_TRUE(translate_ranks(a, all, b, out).ok());
  EXPECT_EQ(out[199999], 0);
  EXPECT_EQ(out[0], kUndefined);
  Group c;
  ASSERT_TRUE(excl(a, all, c).ok());
  EXPECT_EQ(c.size(), 0);
}

}  // namespace
