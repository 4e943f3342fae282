// plan_split(): the whole decision of a hardware split from the members' records, without any transport. The
// records are built from the papers' machines (goglin2018 section 5, Figure 1) through place(), and the expected
// parts are the paper's.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "comm/hw_split.hpp"
#include "../topo/topo_test_util.hpp"

using namespace strata;
using namespace strata::comm;
using namespace strata::topo;
using namespace strata::topo::testing;

namespace {

SplitRequest request(SplitKind kind, int key = 0) {
  SplitRequest r;
  r.kind = kind;
  r.key = key;
  return r;
}

SplitRequest guided(Level level, int key = 0) {
  SplitRequest r = request(SplitKind::HwGuided, key);
  r.target = Target::Level;
  r.level = level;
  r.value = std::string(canonical_name(level));
  return r;
}

std::vector<int> iota_ranks(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

// Section 5.2's bindings: p0, p1 on cores 0, 1; p2, p3 on L2 #1 (cores 2-3); p4..p7 on NUMA node 1 (cores 4-7).
std::vector<Placement> figure2() {
  Machine m = synthetic(kHierarchicalNode);
  std::vector<Placement> p;
  for (const Cpuset& b : {pus({0}), pus({1}), pu_range(2, 3), pu_range(2, 3), pu_range(4, 7), pu_range(4, 7),
                          pu_range(4, 7), pu_range(4, 7)})
    p.push_back(place(m, b, 0));
  return p;
}

std::vector<SplitRecord> records(const std::vector<Placement>& placements, const SplitRequest& r) {
  std::vector<SplitRecord> out;
  for (const Placement& p : placements) out.push_back(make_record(r, p));
  return out;
}

// The plans of every member, as (members per rank, roots per rank).
std::vector<SplitPlan> plans(const std::vector<SplitRecord>& recs, int conduit = -1) {
  std::vector<SplitPlan> out;
  for (int me = 0; me < static_cast<int>(recs.size()); ++me)
    out.push_back(plan_split(recs, me, conduit, iota_ranks(static_cast<int>(recs.size()))));
  return out;
}

using Parts = std::vector<std::vector<int>>;  // members per rank

bool is_root(const SplitPlan& p, int rank) {
  return std::find(p.roots.begin(), p.roots.end(), rank) != p.roots.end();
}

Parts members(const std::vector<SplitPlan>& ps) {
  Parts out;
  for (const SplitPlan& p : ps) out.push_back(p.members);
  return out;
}

}  // namespace

TEST(HwSplitPlan, UnguidedFromTheWholeNodePicksTheHighestStrictLevel) {
  // Step 1 of section 5.2: the node is all of WORLD, so Package (highest of Package/NUMANode/L3) splits it.
  auto ps = plans(records(figure2(), request(SplitKind::HwUnguided)));
  EXPECT_EQ(members(ps), (Parts{{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {4, 5, 6, 7}, {4, 5, 6, 7},
                                {4, 5, 6, 7}, {4, 5, 6, 7}}));
  for (const SplitPlan& p : ps) {
    ASSERT_TRUE(p.status.ok());
    EXPECT_EQ(p.level, Level::Package);
    EXPECT_EQ(p.num_parts, 2);
    EXPECT_EQ(p.roots, (std::vector<int>{0, 4}));
  }
  EXPECT_EQ(ps[3].part, 0);
  EXPECT_EQ(ps[5].part, 1);
  EXPECT_TRUE(is_root(ps[4], 4));
  EXPECT_FALSE(is_root(ps[5], 5));
}

TEST(HwSplitPlan, UnguidedStopsWhereBindingsStop) {
  const std::vector<Placement> all = figure2();
  // Step 2 inside NUMA node 0 ({p0..p3}): L2 pairs. Inside NUMA node 1 ({p4..p7}, bound to the whole NUMA node):
  // nothing below is a strict subset they are confined to, so NULL.
  auto low = plans(records({all[0], all[1], all[2], all[3]}, request(SplitKind::HwUnguided)));
  EXPECT_EQ(members(low), (Parts{{0, 1}, {0, 1}, {2, 3}, {2, 3}}));
  EXPECT_EQ(low[0].level, Level::L2Cache);
  auto high = plans(records({all[4], all[5], all[6], all[7]}, request(SplitKind::HwUnguided)));
  EXPECT_EQ(members(high), (Parts{{}, {}, {}, {}}));
  EXPECT_EQ(high[0].num_parts, 0);
  EXPECT_TRUE(high[0].roots.empty());
  // Step 3: {p0, p1} split into singletons at L1 (above Core); {p2, p3}, bound to the L2, stop.
  auto cores = plans(records({all[0], all[1]}, request(SplitKind::HwUnguided)));
  EXPECT_EQ(members(cores), (Parts{{0}, {1}}));
  EXPECT_EQ(cores[0].level, Level::L1Cache);
  EXPECT_EQ(members(plans(records({all[2], all[3]}, request(SplitKind::HwUnguided)))), (Parts{{}, {}}));
  // Step 4: a single process has no strict subset left.
  EXPECT_EQ(members(plans(records({all[0]}, request(SplitKind::HwUnguided)))), (Parts{{}}));
}

TEST(HwSplitPlan, GuidedGroupsByInstanceAndNullsTheUnconfined) {
  auto ps = plans(records(figure2(), guided(Level::L2Cache)));
  EXPECT_EQ(members(ps), (Parts{{0, 1}, {0, 1}, {2, 3}, {2, 3}, {}, {}, {}, {}}));
  EXPECT_EQ(ps[0].num_parts, 2);
  // A level equal to the whole input group is valid for HW_GUIDED (no strict-subset rule).
  auto node = plans(records(figure2(), guided(Level::Node)));
  EXPECT_EQ(node[7].members, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(HwSplitPlan, KeysOrderRanksAndTiesKeepParentOrder) {
  std::vector<SplitRecord> recs = records(figure2(), guided(Level::Package));
  const int keys[8] = {5, 5, 1, 0, 9, 9, 9, 2};
  for (int r = 0; r < 8; ++r) recs[r].key = keys[r];
  auto ps = plans(recs);
  EXPECT_EQ(ps[0].members, (std::vector<int>{3, 2, 0, 1}));
  EXPECT_EQ(ps[4].members, (std::vector<int>{7, 4, 5, 6}));
  EXPECT_EQ(ps[0].roots, (std::vector<int>{3, 7}));  // the new rank 0 of each part, in parent order
}

TEST(HwSplitPlan, ConduitIsTheRootOfItsPart) {
  auto ps = plans(records(figure2(), guided(Level::Package)), /*conduit world rank*/ 6);
  EXPECT_EQ(ps[0].roots, (std::vector<int>{0, 6}));
  EXPECT_TRUE(is_root(ps[6], 6));
  EXPECT_FALSE(is_root(ps[4], 4));
}

TEST(HwSplitPlan, PartsAreNumberedNodeFirstThenInstance) {
  Machine m = synthetic(kHierarchicalNode);
  // Ranks alternate between two nodes; on each node, ranks sit on cores 4 then 0 (so world order is not
  // hardware order within a node).
  std::vector<Placement> p = {place(m, pus({4}), 1), place(m, pus({4}), 0), place(m, pus({0}), 1),
                              place(m, pus({0}), 0)};
  auto ps = plans(records(p, guided(Level::Package)));
  EXPECT_EQ(ps[0].num_parts, 4);
  EXPECT_EQ(ps[3].part, 0);  // node 0, package 0
  EXPECT_EQ(ps[1].part, 1);  // node 0, package 1
  EXPECT_EQ(ps[2].part, 2);  // node 1, package 0
  EXPECT_EQ(ps[0].part, 3);  // node 1, package 1
}

TEST(HwSplitPlan, UndefinedMembersMakeTheRestAStrictSubset) {
  std::vector<SplitRecord> recs = records(figure2(), request(SplitKind::HwUnguided));
  for (int r = 0; r < 8; r += 2) recs[r].kind = SplitKind::Undefined;
  auto ps = plans(recs);
  EXPECT_EQ(ps[1].level, Level::Node);  // the node's 4 participants are fewer than the parent's 8
  EXPECT_EQ(ps[1].members, (std::vector<int>{1, 3, 5, 7}));
  EXPECT_TRUE(ps[0].members.empty());
}

TEST(HwSplitPlan, DisagreementsAreTheSameErrorEverywhere) {
  std::vector<SplitRecord> recs = records(figure2(), guided(Level::Package));
  recs[5] = make_record(guided(Level::L3Cache), figure2()[5]);
  for (const SplitPlan& p : plans(recs)) {
    EXPECT_EQ(p.status.error_class, 33);  // MPI_ERR_INFO_VALUE
    EXPECT_EQ(p.differing[0], 0);
    EXPECT_EQ(p.differing[1], 5);
    EXPECT_TRUE(p.members.empty());
  }
  recs = records(figure2(), guided(Level::Package));
  recs[2].kind = SplitKind::Shared;
  EXPECT_EQ(plans(recs)[7].status.error_class, 13);  // MPI_ERR_ARG
  recs = records(figure2(), guided(Level::Package));
  recs[6].target = Target::BothKeys;
  EXPECT_EQ(plans(recs)[0].status.error_class, 34);  // MPI_ERR_INFO
  // Unknown values: equal strings agree (and give NULL), different strings do not.
  SplitRequest unknown = request(SplitKind::HwGuided);
  unknown.target = Target::UnknownValue;
  unknown.value = "\"Board\"";
  recs = records(figure2(), unknown);
  EXPECT_TRUE(plans(recs)[0].status.ok());
  EXPECT_TRUE(plans(recs)[0].members.empty());
  unknown.value = "\"Rack\"";
  recs[1] = make_record(unknown, figure2()[1]);
  EXPECT_EQ(plans(recs)[0].status.error_class, 33);
}

TEST(HwSplitPlan, EveryoneUndefinedIsNullWithoutParts) {
  auto ps = plans(records(figure2(), request(SplitKind::Undefined)));
  for (const SplitPlan& p : ps) {
    EXPECT_TRUE(p.status.ok());
    EXPECT_EQ(p.num_parts, 0);
    EXPECT_TRUE(p.members.empty());
  }
}
