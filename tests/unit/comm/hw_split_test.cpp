// plan_split(): the whole decision of a hardware split from the members' records, without any transport. The
// records are built from the papers' machines (goglin2018 section 5, Figure 1) through place(), and the expected
// parts are the paper's.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "comm/hw_split.hpp"
#include "topo/network.hpp"
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

// ---- network levels above the node (topo/network.hpp) -------------------------------------------------------------

namespace {

// 8 nodes of kHierarchicalNode under "rack:2 switch:2" (nodes 0-1 on switch 0, 2-3 on switch 1: rack 0; switches 2,
// 3: rack 1), two ranks per node on cores 0 and 4, world rank 2n + i on node n; with `network` false, no levels.
std::vector<Placement> racked(bool network = true) {
  Machine m = synthetic(kHierarchicalNode);
  std::string why;
  const Network net = network ? *spread_nodes(*parse_network("rack:2 switch:2", why), 8, why) : Network{};
  std::vector<Placement> out;
  for (uint32_t n = 0; n < 8; ++n)
    for (int core : {0, 4}) {
      Placement p = place(m, pus({core}), n);
      net.place(p);
      out.push_back(p);
    }
  return out;
}

}  // namespace

TEST(HwSplitNetwork, GuidedRackAndSwitchGroupNodesByTheirJobWideInstance) {
  auto by_rack = plans(records(racked(), guided(Level::Rack)));
  auto by_switch = plans(records(racked(), guided(Level::Switch)));
  for (int r = 0; r < 16; ++r) {
    const int node = r / 2, rack = node / 4, sw = node / 2;
    std::vector<int> same_rack, same_switch;
    for (int s = 0; s < 16; ++s) {
      if (s / 2 / 4 == rack) same_rack.push_back(s);
      if (s / 2 / 2 == sw) same_switch.push_back(s);
    }
    EXPECT_EQ(by_rack[r].members, same_rack) << "rank " << r;
    EXPECT_EQ(by_rack[r].num_parts, 2);
    EXPECT_EQ(by_rack[r].part, rack);  // a network part's index is the instance's job-wide index
    EXPECT_EQ(by_switch[r].members, same_switch) << "rank " << r;
    EXPECT_EQ(by_switch[r].num_parts, 4);
    EXPECT_EQ(by_switch[r].part, sw);
  }
  EXPECT_EQ(by_rack[0].roots, (std::vector<int>{0, 8}));
  EXPECT_EQ(by_switch[0].roots, (std::vector<int>{0, 4, 8, 12}));
}

TEST(HwSplitNetwork, AbsentNetworkLevelsGiveNull) {
  for (Level l : kNetworkLevels) {
    auto ps = plans(records(racked(false), guided(l)));
    for (const SplitPlan& p : ps) {
      EXPECT_TRUE(p.status.ok());
      EXPECT_TRUE(p.members.empty()) << short_name(l);
      EXPECT_EQ(p.num_parts, 0);
    }
  }
}

TEST(HwSplitNetwork, UnguidedWalksRackSwitchNodeThenTheMachine) {
  // From the 16 ranks: Rack; from one rack's 8 ranks: Switch; from a switch's 4: Node; from a node's 2: Package.
  std::vector<Placement> all = racked();
  std::vector<int> group(16);
  for (int i = 0; i < 16; ++i) group[i] = i;
  const Level walk[] = {Level::Rack, Level::Switch, Level::Node, Level::Package};
  const int me = 11;  // node 5: rack 1, switch 2
  const std::vector<std::vector<int>> expected = {
      {8, 9, 10, 11, 12, 13, 14, 15}, {8, 9, 10, 11}, {10, 11}, {11}};
  for (int depth = 0; depth < 4; ++depth) {
    std::vector<Placement> sub;
    for (int r : group) sub.push_back(all[r]);
    const auto at = static_cast<int>(std::find(group.begin(), group.end(), me) - group.begin());
    const SplitPlan plan = plan_split(records(sub, request(SplitKind::HwUnguided, 0)), at, -1,
                                      iota_ranks(static_cast<int>(sub.size())));
    ASSERT_TRUE(plan.level) << "depth " << depth;
    EXPECT_EQ(*plan.level, walk[depth]) << "depth " << depth;
    std::vector<int> members;
    for (int i : plan.members) members.push_back(group[i]);
    EXPECT_EQ(members, expected[depth]) << "depth " << depth;
    group = members;
  }
}

TEST(HwSplitNetwork, ANodeNoGroupListsIsNullAtThatLevelOnly) {
  std::vector<Placement> p = racked();
  p[0].instance[index(Level::Switch)] = kNotConfined;  // node 0 missing from the switch groups
  p[1].instance[index(Level::Switch)] = kNotConfined;
  auto ps = plans(records(p, guided(Level::Switch)));
  EXPECT_TRUE(ps[0].members.empty());
  EXPECT_EQ(ps[2].members, (std::vector<int>{2, 3}));
  EXPECT_EQ(ps[2].num_parts, 4);
}

// The hierarchical-model paper's NTW24E5 (section 7.4): 24 nodes on switches of 12, 6, 4 and 2 nodes; per node 2
// sockets (one L3 each) of 2 NUMA nodes of 6 cores with an L2 each; one process per core, 576 in all. Its roots
// communicators, level by level: "1 communicator of 4 processes" (switches), "4 communicators of various sizes
// (12, 6, 4 and 2 processes)" (nodes), "24 communicators of 2" (sockets), "48 communicators of 2" (NUMA nodes),
// "96 communicators of 6" (L2 caches). The walk is MPIX_Comm_hsplit_with_roots's: an unguided split of every part.
TEST(HwSplitNetwork, Ntw24e5RootsCommunicatorSizes) {
  Machine m = synthetic("pack:2 l3:1 group:2 [numa] l2:6 l1:1 core:1 pu:1");
  std::string why;
  const Network net = *spread_nodes(*parse_network("switch:12,6,4,2", why), 24, why);
  std::vector<Placement> all;
  for (uint32_t n = 0; n < 24; ++n)
    for (int core = 0; core < 24; ++core) {
      Placement p = place(m, pus({core}), n);
      net.place(p);
      all.push_back(p);
    }
  const Level levels[] = {Level::Switch, Level::Node, Level::Package, Level::NUMANode, Level::L2Cache};
  const std::vector<std::vector<int>> roots_sizes = {{4},
                                                     {12, 6, 4, 2},
                                                     std::vector<int>(24, 2),
                                                     std::vector<int>(48, 2),
                                                     std::vector<int>(96, 6)};
  std::vector<std::vector<int>> groups = {iota_ranks(576)};  // world ranks, the current parts in world order
  for (int depth = 0; depth < 5; ++depth) {
    std::vector<std::vector<int>> next;
    std::vector<int> sizes;
    for (const std::vector<int>& g : groups) {
      std::vector<Placement> sub;
      for (int r : g) sub.push_back(all[r]);
      const SplitPlan plan = plan_split(records(sub, request(SplitKind::HwUnguided)), 0, -1,
                                        iota_ranks(static_cast<int>(g.size())));
      ASSERT_TRUE(plan.level) << "depth " << depth;
      EXPECT_EQ(*plan.level, levels[depth]) << "depth " << depth;
      sizes.push_back(static_cast<int>(plan.roots.size()));
      for (const std::vector<int>& part : plan.parts) {
        std::vector<int>& world = next.emplace_back();
        for (int i : part) world.push_back(g[i]);
      }
    }
    EXPECT_EQ(sizes, roots_sizes[depth]) << "depth " << depth;
    groups = next;
  }
  for (const std::vector<int>& g : groups) EXPECT_EQ(g.size(), 1u);  // one process per L2: the walk ends
}
