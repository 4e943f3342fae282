// The hardware hierarchy the topology-aware algorithms walk (coll/hierarchy.hpp): its cuts against groups worked
// out by hand for the simulated machine of sim_hierarchy.hpp (2 packages x 2 L3 x 2 cores per node).
#include <gtest/gtest.h>

#include "coll/hierarchy.hpp"
#include "sim_hierarchy.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

using Parts = std::vector<std::vector<int>>;

sim::Layout layout(std::vector<int> node, std::vector<int> core) { return {"", std::move(node), std::move(core)}; }

// 8 ranks, 4 per node in block order on cores 0-3 (package 0): node, then L3 (cores 0-1, 2-3), then cores.
TEST(Hierarchy, TwoNodesInBlockOrder) {
  const sim::Layout l = layout({0, 0, 0, 0, 1, 1, 1, 1}, {0, 1, 2, 3, 0, 1, 2, 3});
  const auto h = sim::hierarchy(l, 5);
  ASSERT_EQ(h->levels.size(), 3u);
  EXPECT_EQ(h->levels[0].name, "Node");
  EXPECT_EQ(h->levels[0].parts, (Parts{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(h->levels[0].mine, 1);
  EXPECT_EQ(h->levels[1].name, "L3Cache");  // the package holds all four: not a cut
  EXPECT_EQ(h->levels[1].members, (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(h->levels[1].parts, (Parts{{4, 5}, {6, 7}}));
  EXPECT_EQ(h->levels[2].name, "L2Cache");
  EXPECT_EQ(h->levels[2].parts, (Parts{{4}, {5}}));
  EXPECT_EQ(h->levels[2].mine, 1);
}

// Ranks shuffled over one node's cores; rank 2 unbound is a part of its own at the first cut.
TEST(Hierarchy, ShuffledRanksAndAnUnboundOne) {
  const sim::Layout l = layout({0, 0, 0, 0, 0, 0}, {7, 0, -1, 4, 1, 6});
  const auto h = sim::hierarchy(l, 3);
  ASSERT_EQ(h->levels.size(), 2u);
  EXPECT_EQ(h->levels[0].name, "Package");
  EXPECT_EQ(h->levels[0].parts, (Parts{{1, 4}, {0, 3, 5}, {2}}));  // hardware order, then the unbound rank
  EXPECT_EQ(h->levels[1].name, "L3Cache");
  EXPECT_EQ(h->levels[1].parts, (Parts{{3}, {0, 5}}));  // core 4 in L3 2; cores 6, 7 in L3 3
  EXPECT_EQ(h->levels[1].mine, 0);
  const auto unbound = sim::hierarchy(l, 2);
  ASSERT_EQ(unbound->levels.size(), 1u);
  EXPECT_EQ(unbound->levels[0].mine, 2);
}

// A rank sees other nodes' ranks by node only, and the cuts below the node are its own node's.
TEST(Hierarchy, OtherNodesAreSeenWhole) {
  const sim::Layout l = layout({1, 0, 1, 0}, {0, 0, 4, 4});
  const auto h = sim::hierarchy(l, 1);
  ASSERT_EQ(h->levels.size(), 2u);
  EXPECT_EQ(h->levels[0].parts, (Parts{{1, 3}, {0, 2}}));  // node 0 first
  EXPECT_EQ(h->levels[1].name, "Package");
  EXPECT_EQ(h->levels[1].members, (std::vector<int>{1, 3}));
}

// With network levels (mpiexec --network "rack:2 switch:2", 8 nodes, one rank each on core 0 except two on node 5):
// the cuts go rack, switch, node, then inside the node; a rank sees other nodes by node, rack and switch.
TEST(Hierarchy, NetworkLevelsComeBeforeTheNode) {
  const sim::Layout l = layout({0, 1, 2, 3, 4, 5, 5, 6, 7}, {0, 0, 0, 0, 0, 0, 4, 0, 0});
  sim::Network net;
  for (int node : l.node) {
    net.rack.push_back(node / 4);
    net.switch_of.push_back(node / 2);
  }
  const auto h = sim::hierarchy(l, 6, net);
  ASSERT_EQ(h->levels.size(), 4u);
  EXPECT_EQ(h->levels[0].name, "Rack");
  EXPECT_EQ(h->levels[0].parts, (Parts{{0, 1, 2, 3}, {4, 5, 6, 7, 8}}));
  EXPECT_EQ(h->levels[0].mine, 1);
  EXPECT_EQ(h->levels[1].name, "Switch");
  EXPECT_EQ(h->levels[1].parts, (Parts{{4, 5, 6}, {7, 8}}));
  EXPECT_EQ(h->levels[2].name, "Node");
  EXPECT_EQ(h->levels[2].parts, (Parts{{4}, {5, 6}}));
  EXPECT_EQ(h->levels[2].mine, 1);
  EXPECT_EQ(h->levels[3].name, "Package");  // cores 0 and 4: packages 0 and 1
  EXPECT_EQ(h->levels[3].parts, (Parts{{5}, {6}}));
  EXPECT_TRUE(h->spans_nodes());
  EXPECT_EQ(topo::distance(h->placements[4], h->placements[5]), 7);  // same switch
  EXPECT_EQ(topo::distance(h->placements[5], h->placements[8]), 8);  // same rack
  EXPECT_EQ(topo::distance(h->placements[0], h->placements[8]), 9);  // other rack
  // A one-switch communicator of the same job starts at the node.
  EXPECT_FALSE(sim::hierarchy(layout({0, 0}, {0, 4}), 0)->spans_nodes());
}

TEST(Hierarchy, SingleProcessAndNoCut) {
  EXPECT_EQ(sim::hierarchy(layout({0}, {3}), 0)->levels.size(), 1u);
  const auto same_core = sim::hierarchy(layout({0, 0, 0}, {2, 2, 2}), 1);  // nothing tells them apart
  ASSERT_EQ(same_core->levels.size(), 1u);
  EXPECT_EQ(same_core->levels[0].name, "");
  EXPECT_EQ(same_core->levels[0].parts, (Parts{{0}, {1}, {2}}));
}

TEST(Hierarchy, LeaderIsTheRootOrTheLowestRank) {
  EXPECT_EQ(leader({3, 5, 9}, 5), 5);
  EXPECT_EQ(leader({3, 5, 9}, 4), 3);
}

}  // namespace
