// place(): for each level, the one instance that holds the whole binding (DESIGN.md: a process belongs to an instance
// only if its binding lies entirely inside it; an unbound process belongs only to instances spanning the node).
// Expected instance numbers are the ones the papers name (goglin2018 section 5.1 and 5.2, Figure 2; bouhrour Figure 3).
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <set>
#include <utility>

#include "topo/placement.hpp"
#include "topo_test_util.hpp"

using namespace strata::topo;
using namespace strata::topo::testing;

namespace {

constexpr int N = kNotConfined;
constexpr int A = kAbsent;

// Expected instance per level of the node, in kAllLevels order: Node, Package, NUMANode, L3, L2, L1, Core, PU.
// place() leaves the network levels (Rack, Switch) absent: they come from topo::Network (network_test.cpp).
using Expected = std::array<int, kLevelCount - kNetworkLevelCount>;

void expect_placement(const Placement& p, const Expected& want, const std::string& what) {
  for (Level l : kAllLevels) {
    const int w = network(l) ? kAbsent : want[index(l) - kNetworkLevelCount];
    EXPECT_EQ(p.at(l), w) << what << ", level " << short_name(l) << "; got " << describe(p);
    EXPECT_EQ(p.confined(l), w >= 0) << what << ", level " << short_name(l);
    EXPECT_EQ(p.present(l), w != kAbsent) << what << ", level " << short_name(l);
  }
}

// ---- goglin2018 section 5.1: uniform binding, process p_i on core i -------------------------------------------------

TEST(HierarchicalModelPlacement, UniformCoreBinding) {
  Machine m = synthetic(kHierarchicalNode);
  for (int i = 0; i < 8; ++i) {
    const Placement p = place(m, pus({i}), 0);
    // newcomm[1] = {p_4i..p_4i+3} for NumaNode i (and its package and L3); newcomm[2] = {p_2i, p_2i+1} for L2 i;
    // newcomm[3] = {p_i} for Core i.
    expect_placement(p, {0, i / 4, i / 4, i / 4, i / 2, i, i, i}, "p" + std::to_string(i));
    EXPECT_EQ(p.node, 0u);
    EXPECT_EQ(p.board, 0);
  }
}

TEST(HierarchicalModelPlacement, UniformBindingOnFourNodes) {
  // Section 5.1: 32 processes on 4 nodes, p_x on core i of node k with x = 8k + i.
  Machine m = synthetic(kHierarchicalNode);
  for (int x = 0; x < 32; ++x) {
    const int k = x / 8, i = x % 8;
    const Placement p = place(m, pus({i}), static_cast<uint32_t>(k));
    EXPECT_EQ(p.node, static_cast<uint32_t>(k));
    expect_placement(p, {0, i / 4, i / 4, i / 4, i / 2, i, i, i}, "p" + std::to_string(x));
  }
}

TEST(HierarchicalModelPlacement, RedundancyTravelsWithThePlacement) {
  Machine m = synthetic(kHierarchicalNode);
  const Placement p = place(m, pus({5}), 0);
  EXPECT_FALSE(p.redundant[index(Level::Package)]);
  EXPECT_TRUE(p.redundant[index(Level::NUMANode)]);
  EXPECT_TRUE(p.redundant[index(Level::L3Cache)]);
  EXPECT_FALSE(p.redundant[index(Level::L2Cache)]);
}

// ---- goglin2018 section 5.2, Figure 2: non-uniform binding ------------------------------------------------------------

TEST(HierarchicalModelPlacement, Figure2NonUniformBinding) {
  Machine m = synthetic(kHierarchicalNode);
  // Ranks 0 and 1 on cores 0 and 1: confined everywhere (newcomm[2] = {p_i} for Core i in [0, 1]).
  expect_placement(place(m, pus({0}), 0), {0, 0, 0, 0, 0, 0, 0, 0}, "rank 0 on core 0");
  expect_placement(place(m, pus({1}), 0), {0, 0, 0, 0, 0, 1, 1, 1}, "rank 1 on core 1");
  // Ranks 2 and 3 on L2 #1 (cores 2 or 3): in NumaNode 0 and L2 1, "not bound deeper than the L2 cache level".
  for (int r : {2, 3})
    expect_placement(place(m, pus({2, 3}), 0), {0, 0, 0, 0, 1, N, N, N}, "rank " + std::to_string(r) + " on L2 1");
  // Ranks 4..7 on NumaNode 1 (cores 4..7): Package 1, NumaNode 1, L3 1; "the hierarchy cannot be determined" below.
  for (int r = 4; r < 8; ++r)
    expect_placement(place(m, pu_range(4, 7), 0), {0, 1, 1, 1, N, N, N, N},
                     "rank " + std::to_string(r) + " on NumaNode 1");
}

TEST(HierarchicalModelPlacement, Figure2Groups) {
  // Grouping Figure 2's processes by their instance at each level gives the paper's communicators: two NumaNode
  // groups {0..3} {4..7}; two L2 groups {0,1} {2,3} (ranks 4..7 in none); two Core groups {0} {1}.
  Machine m = synthetic(kHierarchicalNode);
  const std::array<Cpuset, 8> binding = {pus({0}),       pus({1}),       pus({2, 3}),    pus({2, 3}),
                                         pu_range(4, 7), pu_range(4, 7), pu_range(4, 7), pu_range(4, 7)};
  auto groups = [&](Level l) {
    std::map<int, std::set<int>> g;
    for (int r = 0; r < 8; ++r) {
      const Placement p = place(m, binding[r], 0);
      if (p.confined(l)) g[p.at(l)].insert(r);
    }
    return g;
  };
  EXPECT_EQ(groups(Level::NUMANode), (std::map<int, std::set<int>>{{0, {0, 1, 2, 3}}, {1, {4, 5, 6, 7}}}));
  EXPECT_EQ(groups(Level::L2Cache), (std::map<int, std::set<int>>{{0, {0, 1}}, {1, {2, 3}}}));
  EXPECT_EQ(groups(Level::Core), (std::map<int, std::set<int>>{{0, {0}}, {1, {1}}}));
}

// ---- unbound, straddling and outside bindings -------------------------------------------------------------------------

TEST(Placement, UnboundOnTheHierarchicalNode) {
  // Binding = the whole machine: only the Node holds it (two packages, two NUMA nodes, ...).
  Machine m = synthetic(kHierarchicalNode);
  const Placement p = place(m, m.whole(), 0);
  expect_placement(p, {0, N, N, N, N, N, N, N}, "unbound");
  EXPECT_EQ(p.board, 0);
}

TEST(Placement, UnboundOnZootBelongsToItsOnlyNumaNode) {
  // Zoot's single memory controller: one NUMA node spanning the machine, so an unbound process is in it. No L3.
  Machine m = synthetic(kZoot);
  expect_placement(place(m, m.whole(), 0), {0, N, 0, A, N, N, N, N}, "unbound on Zoot");
}

TEST(Placement, UnboundOnOneSocketMachine) {
  // DESIGN.md's example: the only Package of a one-socket machine spans the node (so do its NUMA node and L3).
  Machine m = synthetic("pack:1 l3:1 core:4 pu:1");
  expect_placement(place(m, m.whole(), 0), {0, 0, 0, 0, A, A, N, N}, "unbound on one socket");
}

TEST(Placement, UnboundOnIG) {
  Machine m = synthetic(kIG);
  const Placement p = place(m, m.whole(), 0);
  expect_placement(p, {0, N, N, N, N, N, N, N}, "unbound on IG");
  EXPECT_EQ(p.board, kNotConfined);  // the machine is two boards
}

TEST(Placement, BindingStraddlingTwoL2) {
  // Cores 1 and 2 are under L2 0 and L2 1 respectively, both in package/NUMA/L3 0.
  Machine m = synthetic(kHierarchicalNode);
  expect_placement(place(m, pus({1, 2}), 0), {0, 0, 0, 0, N, N, N, N}, "cores 1-2");
  // Cores 5 and 6: L2 2 and L2 3, in package 1.
  expect_placement(place(m, pus({5, 6}), 0), {0, 1, 1, 1, N, N, N, N}, "cores 5-6");
  // Cores 3 and 4 straddle the two packages.
  expect_placement(place(m, pus({3, 4}), 0), {0, N, N, N, N, N, N, N}, "cores 3-4");
}

TEST(Placement, BindingStraddlingTwoZootSockets) {
  Machine m = synthetic(kZoot);
  expect_placement(place(m, pus({2, 3}), 0), {0, 0, 0, A, 1, N, N, N}, "cores 2-3");
  expect_placement(place(m, pus({3, 4}), 0), {0, N, 0, A, N, N, N, N}, "cores 3-4");
}

TEST(Placement, MachineWithoutL3) {
  Machine m = synthetic(kZoot);
  EXPECT_FALSE(m.present(Level::L3Cache));
  for (int core : {0, 7, 15}) {
    const Placement p = place(m, pus({core}), 0);
    EXPECT_EQ(p.at(Level::L3Cache), kAbsent);
    EXPECT_FALSE(p.present(Level::L3Cache));
    EXPECT_FALSE(p.confined(Level::L3Cache));
    expect_placement(p, {0, core / 4, 0, A, core / 2, core, core, core}, "Zoot core " + std::to_string(core));
  }
}

TEST(Placement, BindingOutsideTheMachine) {
  Machine m = synthetic(kHierarchicalNode);  // PUs 0..7
  for (const Cpuset& b : {pus({8}), pus({7, 8}), pus({100})}) {
    const Placement p = place(m, b, 0);
    expect_placement(p, {N, N, N, N, N, N, N, N}, "binding " + b.list());
    EXPECT_EQ(p.board, kNotConfined);
  }
  // Absent levels stay absent.
  Machine zoot = synthetic(kZoot);  // PUs 0..15
  expect_placement(place(zoot, pus({16}), 0), {N, N, N, A, N, N, N, N}, "Zoot PU 16");
}

TEST(Placement, EmptyBindingIsConfinedNowhere) {
  Machine m = synthetic(kHierarchicalNode);
  const Placement p = place(m, Cpuset(), 0);
  expect_placement(p, {N, N, N, N, N, N, N, N}, "empty binding");
  EXPECT_EQ(p.board, kNotConfined);
}

TEST(Placement, SmtBindings) {
  // data/two_packages_smt.xml's shape: a core has 2 PUs; a process bound to one hardware thread is in its core.
  Machine m = synthetic("pack:2 [numa] l3:1 l2:2 core:2 pu:2");
  expect_placement(place(m, pus({5}), 0), {0, 0, 0, 0, 1, A, 2, 5}, "PU 5");
  expect_placement(place(m, pus({4, 5}), 0), {0, 0, 0, 0, 1, A, 2, N}, "core 2");
  expect_placement(place(m, pus({5, 6}), 0), {0, 0, 0, 0, 1, A, N, N}, "PUs 5-6 (two cores of L2 1)");
}

// ---- ma's IG: boards -------------------------------------------------------------------------------------------------

TEST(Placement, IGCoreBinding) {
  Machine m = synthetic(kIG);
  for (int c = 0; c < 48; ++c) {
    const Placement p = place(m, pus({c}), 0);
    expect_placement(p, {0, c / 6, c / 6, c / 6, c, c, c, c}, "IG core " + std::to_string(c));
    EXPECT_EQ(p.board, c / 24) << "IG core " << c;
  }
  // A binding to one whole board.
  const Placement board1 = place(m, pu_range(24, 47), 0);
  expect_placement(board1, {0, N, N, N, N, N, N, N}, "IG board 1");
  EXPECT_EQ(board1.board, 1);
}

// ---- bouhrour Figure 3: 18 processes on 3 nodes x 2 NUMA x 3 cores ------------------------------------------------------

TEST(Placement, PersistentCollectivesFigure3) {
  Machine m = synthetic(kBouhrourNode);
  ASSERT_EQ(m.instances(Level::NUMANode).size(), 2u);
  std::map<std::pair<uint32_t, int>, std::set<int>> numa_groups;
  for (int r = 0; r < 18; ++r) {
    const uint32_t node = static_cast<uint32_t>(r / 6);
    const int core = r % 6;
    const Placement p = place(m, pus({core}), node);
    EXPECT_EQ(p.node, node);
    EXPECT_EQ(p.at(Level::Node), 0) << "rank " << r;  // the Node instance is node-unique, so 0 on every node
    EXPECT_EQ(p.at(Level::NUMANode), core / 3) << "rank " << r;
    EXPECT_EQ(p.at(Level::Core), core) << "rank " << r;
    numa_groups[{p.node, p.at(Level::NUMANode)}].insert(r);
  }
  // "6 communicators at NUMA-node level (2 communicators per node)", 3 processes each.
  ASSERT_EQ(numa_groups.size(), 6u);
  for (const auto& [key, members] : numa_groups) EXPECT_EQ(members.size(), 3u);
  EXPECT_EQ((numa_groups[{2, 1}]), (std::set<int>{15, 16, 17}));
}

}  // namespace
