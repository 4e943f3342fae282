// distance(): the scale of ma et al., section IV-A. Two processes (bound to cores) are at
//   1 if they share any cache (L1, L2 or L3), else
//   2 same socket and same memory controller, 3 same memory controller only, 4 same socket only,
//   5 same board, 6 different boards;
// and, on different nodes (the "natural extension" beyond the node; Strata's choice, used for bouhrour Figure 3),
// 7 on the same switch, 8 in the same rack, 9 sharing no network level (always, without network levels).
// Expectations are the paper's own examples (IG, Zoot), or follow from the four conditions by hand.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "topo/network.hpp"
#include "topo/placement.hpp"
#include "topo_test_util.hpp"

using namespace strata::topo;
using namespace strata::topo::testing;

namespace {

int core_distance(const Machine& m, int a, int b, uint32_t node_a = 0, uint32_t node_b = 0) {
  return distance(place(m, pus({a}), node_a), place(m, pus({b}), node_b));
}

// ---- IG: 2 boards x 4 sockets x 6 cores, L3 and memory controller per socket ---------------------------------------

TEST(DistanceIG, PaperExamples) {
  Machine m = synthetic(kIG);
  // "Distances between processes bound to the 6 cores of the same socket are equally distance '1'."
  EXPECT_EQ(core_distance(m, 0, 5), 1);
  // "between core#0 and core#12, are assigned the distance '5'."
  EXPECT_EQ(core_distance(m, 0, 12), 5);
  // "between core#0 and core#24 are at distance '6'."
  EXPECT_EQ(core_distance(m, 0, 24), 6);
}

TEST(DistanceIG, AllPairs) {
  Machine m = synthetic(kIG);
  for (int a = 0; a < 48; ++a)
    for (int b = 0; b < 48; ++b) {
      const int want = a / 6 == b / 6 ? 1 : a / 24 == b / 24 ? 5 : 6;
      EXPECT_EQ(core_distance(m, a, b), want) << "IG cores " << a << " and " << b;
    }
}

TEST(DistanceIG, CrossSocketPlacement) {
  // Section V: rank r on core c = (r mod 8) * 6 + floor(r / 8). Neighbour ranks sit on different sockets: distance 5
  // when those sockets share a board (sockets 0-3 and 4-7), else 6.
  Machine m = synthetic(kIG);
  auto core_of = [](int r) { return (r % 8) * 6 + r / 8; };
  for (int r = 0; r + 1 < 48; ++r) {
    const int sa = r % 8, sb = (r + 1) % 8;
    EXPECT_EQ(core_distance(m, core_of(r), core_of(r + 1)), sa / 4 == sb / 4 ? 5 : 6) << "ranks " << r << ", " << r + 1;
  }
}

TEST(DistanceIG, EightSetsAtDistanceOne) {
  // Section IV-C: with 48 processes on IG's 48 cores, processes on the same socket (distance 1) form 8 sets of 6,
  // whatever the placement; here the cross-socket one.
  Machine m = synthetic(kIG);
  std::vector<Placement> p;
  for (int r = 0; r < 48; ++r) p.push_back(place(m, pus({(r % 8) * 6 + r / 8}), 0));
  std::set<std::set<int>> sets;
  for (int r = 0; r < 48; ++r) {
    std::set<int> s;
    for (int q = 0; q < 48; ++q)
      if (distance(p[r], p[q]) == 1) s.insert(q);
    sets.insert(s);
  }
  ASSERT_EQ(sets.size(), 8u);
  for (const auto& s : sets) {
    EXPECT_EQ(s.size(), 6u);
    for (int q : s) EXPECT_EQ(q % 8, *s.begin() % 8);  // ranks r = 8k + s land on socket s
  }
}

// ---- Zoot: 4 sockets x 4 cores, L2 per pair of cores, a single memory controller ----------------------------------

TEST(DistanceZoot, PaperExamples) {
  Machine m = synthetic(kZoot);
  // "different cores on the same die, sharing a L2 cache (distance '1')"
  EXPECT_EQ(core_distance(m, 0, 1), 1);
  EXPECT_EQ(core_distance(m, 14, 15), 1);
  // "different dies on the same socket (distance '2')": same socket, same (the only) memory controller
  EXPECT_EQ(core_distance(m, 0, 2), 2);
  EXPECT_EQ(core_distance(m, 1, 3), 2);
  // "or on different sockets (distance '3')": the memory controller is still shared
  EXPECT_EQ(core_distance(m, 0, 4), 3);
  EXPECT_EQ(core_distance(m, 3, 12), 3);
}

TEST(DistanceZoot, AllPairs) {
  Machine m = synthetic(kZoot);
  for (int a = 0; a < 16; ++a)
    for (int b = 0; b < 16; ++b) {
      const int want = a / 2 == b / 2 ? 1 : a / 4 == b / 4 ? 2 : 3;
      EXPECT_EQ(core_distance(m, a, b), want) << "Zoot cores " << a << " and " << b;
    }
}

TEST(DistanceZoot, RoundRobinOsNumbering) {
  // Section III: Zoot's OS numbers consecutive PUs on different sockets, so binding rank i to P#i (round-robin or
  // 'user:0..15') puts every pair of neighbour ranks on two sockets: distance 3.
  Machine m = synthetic("pack:4 l2:2 l1:2 core:1 pu:1(indexes=0,4,8,12,1,5,9,13,2,6,10,14,3,7,11,15)");
  for (int i = 0; i + 1 < 16; ++i) EXPECT_EQ(core_distance(m, i, i + 1), 3) << "P#" << i << " and P#" << i + 1;
  // P#0 and P#4 are the first two cores of socket 0 (one L2); P#0 and P#8 are on its two dies.
  EXPECT_EQ(core_distance(m, 0, 4), 1);
  EXPECT_EQ(core_distance(m, 0, 8), 2);
}

// ---- a package with two NUMA nodes --------------------------------------------------------------------------------

TEST(DistanceTwoNumaPerPackage, SamePackageOtherNumaIsFour) {
  // Each package: two L3, each with its own NUMA node and 2 cores. Cores 0 and 2: same package, different memory
  // controllers, no common cache: (2) without (3) is 4. Cores 0 and 4: different packages and NUMA nodes on the
  // one board: 5.
  Machine m = synthetic("pack:2 l3:2 [numa] core:2 pu:1");
  EXPECT_EQ(core_distance(m, 0, 1), 1);  // common L3
  EXPECT_EQ(core_distance(m, 0, 2), 4);
  EXPECT_EQ(core_distance(m, 1, 3), 4);
  EXPECT_EQ(core_distance(m, 0, 4), 5);
  EXPECT_EQ(core_distance(m, 3, 7), 5);
}

TEST(DistanceTwoNumaPerPackage, SubPackageGroupsAreNotBoards) {
  // hwloc expresses two NUMA nodes per package without caches as Groups inside each package ("pack:2 group:2 [numa]",
  // which is also what "pack:2 numa:2" becomes). No cache is shared, so: cores 0 and 1 (same package, same NUMA) 2;
  // cores 0 and 2 (same package, other NUMA) 4; cores 0 and 4 (other package, other NUMA) fall to condition (4):
  // the machine is one physical board (a group inside a package cannot hold packages), so 5.
  for (const char* description : {"pack:2 group:2 [numa] core:2 pu:1", "pack:2 numa:2 core:2 pu:1"}) {
    SCOPED_TRACE(description);
    Machine m = synthetic(description);
    EXPECT_EQ(core_distance(m, 0, 1), 2);
    EXPECT_EQ(core_distance(m, 0, 2), 4);
    EXPECT_EQ(core_distance(m, 0, 4), 5);
    EXPECT_EQ(core_distance(m, 2, 7), 5);
  }
}

TEST(DistanceBoards, NestedGroups) {
  // Boards above packages, and sub-package groups below: the boards decide 5 against 6.
  Machine m = synthetic("group:2 pack:2 group:2 [numa] core:2 pu:1");  // 16 cores, 8 per board
  EXPECT_EQ(core_distance(m, 0, 2), 4);
  EXPECT_EQ(core_distance(m, 0, 4), 5);   // packages 0 and 1, board 0
  EXPECT_EQ(core_distance(m, 0, 8), 6);   // board 0 against board 1
  EXPECT_EQ(core_distance(m, 12, 15), 4);
}

TEST(DistanceHierarchicalNode, PaperNode) {
  // goglin2018's node: an L2 per pair of cores, an L3 per package (one NUMA node each).
  Machine m = synthetic(kHierarchicalNode);
  EXPECT_EQ(core_distance(m, 0, 0), 1);  // same core
  EXPECT_EQ(core_distance(m, 0, 1), 1);  // L2
  EXPECT_EQ(core_distance(m, 0, 3), 1);  // L3
  EXPECT_EQ(core_distance(m, 0, 4), 5);  // another package and NUMA node, same board
}

// ---- beyond the node: bouhrour Figure 3 ---------------------------------------------------------------------------------

TEST(DistanceNodes, PersistentCollectivesFigure3) {
  // 18 ranks on 3 nodes of 2 NUMA x 3 cores; rank r on node r/6, core r%6.
  Machine m = synthetic(kBouhrourNode);
  for (int r = 0; r < 18; ++r)
    for (int s = 0; s < 18; ++s) {
      const int d = core_distance(m, r % 6, s % 6, static_cast<uint32_t>(r / 6), static_cast<uint32_t>(s / 6));
      if (r / 6 != s / 6) {
        EXPECT_EQ(d, kOtherNodeDistance) << "ranks " << r << " and " << s;
      } else {
        EXPECT_LT(d, 7) << "ranks " << r << " and " << s;
        EXPECT_GE(d, 1) << "ranks " << r << " and " << s;
      }
    }
  // Same core numbers on different nodes are still distance 9 (no network level in common: none here).
  EXPECT_EQ(kOtherNodeDistance, 9);
  EXPECT_EQ(core_distance(m, 0, 0, 0, 1), 9);
  // Within a node, the same NUMA node is closer than the other one.
  EXPECT_LT(core_distance(m, 0, 1), core_distance(m, 0, 3));
}

TEST(DistanceNodes, NetworkLevelsOrderTheOtherNodes) {
  // 8 nodes, "rack:2 switch:2": nodes 0-1 on switch 0, 2-3 on switch 1 (rack 0), 4-5 and 6-7 on rack 1.
  Machine m = synthetic(kBouhrourNode);
  std::string why;
  const auto levels = parse_network("rack:2 switch:2", why);
  ASSERT_TRUE(levels) << why;
  const auto net = spread_nodes(*levels, 8, why);
  ASSERT_TRUE(net) << why;
  auto at = [&](int core, uint32_t node) {
    Placement p = place(m, pus({core}), node);
    net->place(p);
    return p;
  };
  for (uint32_t a = 0; a < 8; ++a)
    for (uint32_t b = 0; b < 8; ++b) {
      const int d = distance(at(0, a), at(1, b));
      const int want = a == b ? distance(at(0, a), at(1, a)) : a / 2 == b / 2 ? 7 : a / 4 == b / 4 ? 8 : 9;
      EXPECT_EQ(d, want) << "nodes " << a << " and " << b;
    }
  // Only a Rack level: other nodes of the rack are 8, the others 9.
  const auto racks = spread_nodes(*parse_network("rack:2", why), 4, why);
  ASSERT_TRUE(racks);
  Placement p0 = place(m, pus({0}), 0), p1 = place(m, pus({0}), 1), p2 = place(m, pus({0}), 2);
  for (Placement* p : {&p0, &p1, &p2}) racks->place(*p);
  EXPECT_EQ(distance(p0, p1), 8);
  EXPECT_EQ(distance(p0, p2), 9);
}

TEST(DistanceNodes, IsSymmetric) {
  Machine m = synthetic(kIG);
  for (int a : {0, 5, 6, 23, 24, 47})
    for (int b : {0, 5, 6, 23, 24, 47}) EXPECT_EQ(core_distance(m, a, b), core_distance(m, b, a));
}

}  // namespace
