// The hierarchical model of the hardware-topology paper (Goglin et al. 2018, section 6, ../shared/papers/goglin2018-
// hierarchical-model-hardware-topology-mpi.txt) checked with the cost model: a flat-tree broadcast of m bytes over p
// processes costs (p - 1)(alpha + m beta); over a hierarchy of L levels it costs the sum over the levels of
// (p_i - 1)(alpha_i + m beta_i). For 8 processes on 2 x 2 x 2 and m = 1 that is 7(a + b) against 3(a + b).
//
// The ranks are bound one per core of sim_hierarchy's machine (2 packages x 2 L3 caches x 2 cores per node), so
// every level of the hierarchy cuts a group in two and a bcast among 2 leaders is one message, whatever the rule
// table picks for it. The times are sums of dyadic numbers, so the comparisons are exact.
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/cost_model.hpp"
#include "coll/cost_parameters.hpp"
#include "datatype/predefined.hpp"
#include "sim_hierarchy.hpp"
#include "topo/placement.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

// p ranks in block order, one per core, 8 cores per node.
sim::Layout block_layout(int p) {
  sim::Layout l;
  for (int r = 0; r < p; ++r) {
    l.node.push_back(r / 8);
    l.core.push_back(r % 8);
  }
  return l;
}

// The predicted time of bcast `name` of m bytes from `root` over the layout's ranks.
double bcast_time(const char* name, const sim::Layout& layout, int root, std::size_t m,
                  const CostParameters& parameters) {
  const Algorithm* a = find_algorithm(Operation::kBcast, name);
  EXPECT_NE(a, nullptr) << name;
  if (a == nullptr) return -1;
  const int p = static_cast<int>(layout.node.size());
  const std::vector<topo::Placement> placements = sim::placements(layout);
  static std::vector<char> buffer;
  buffer.assign(m, 0);
  return predict(
      p,
      [&](int rank, Schedule& s) {
        Args args;
        args.rank = rank;
        args.size = p;
        args.root = root;
        args.recvbuf = buffer.data();
        args.recvcount = m;
        args.recvtype = datatype::predefined(datatype::kByte);
        args.hierarchy = sim::hierarchy(layout, rank);
        ASSERT_TRUE(a->applies == nullptr || a->applies(args)) << name;
        a->build(args, s);
      },
      parameters,
      [&](int x, int y) {
        return link_class(topo::distance(placements[static_cast<std::size_t>(x)],
                                         placements[static_cast<std::size_t>(y)]));
      });
}

TEST(HierarchicalBcastModel, FlatTreeAgainstThreeLevelsIsSevenThirds) {
  const Link link{0.5, 0.25};  // alpha + 1 byte * beta = 0.75: exact in binary
  const CostParameters equal = CostParameters::uniform(link, 0);
  const sim::Layout eight = block_layout(8);
  ASSERT_EQ(sim::hierarchy(eight, 0)->levels.size(), 3u);  // Package, L3Cache, core: 2 parts each
  for (int root : {0, 5}) {
    const double flat = bcast_time("linear", eight, root, 1, equal);
    const double hierarchical = bcast_time("hierarchical", eight, root, 1, equal);
    EXPECT_EQ(flat, 7 * (link.alpha + link.beta)) << "root " << root;
    EXPECT_EQ(hierarchical, 3 * (link.alpha + link.beta)) << "root " << root;
    EXPECT_DOUBLE_EQ(flat / hierarchical, 7.0 / 3.0) << "root " << root;
  }
}

// Each level its own link: 16 ranks on 2 nodes, so the four levels are the four link classes, the network's
// alpha ten times the node's.
TEST(HierarchicalBcastModel, EachLevelCostsItsOwnLink) {
  CostParameters per_level;
  per_level.links = {Link{0.5, 0.125}, Link{1, 0.25}, Link{4, 0.5}, Link{40, 2}};
  struct Level {
    LinkClass link;
    int parts;  // p_i
  };
  const Level levels[] = {{LinkClass::kOtherNode, 2}, {LinkClass::kSameNode, 2}, {LinkClass::kSamePackage, 2},
                          {LinkClass::kSameCache, 2}};
  const sim::Layout sixteen = block_layout(16);
  ASSERT_EQ(sim::hierarchy(sixteen, 0)->levels.size(), 4u);
  for (std::size_t m : {std::size_t{1}, std::size_t{64}})
    for (int root : {0, 13}) {
      double model = 0;
      for (const Level& l : levels)
        model += (l.parts - 1) * (per_level.link(l.link).alpha + static_cast<double>(m) * per_level.link(l.link).beta);
      EXPECT_EQ(bcast_time("hierarchical", sixteen, root, m, per_level), model) << "m " << m << ", root " << root;
    }

  // The flat tree pays each rank's own link, one after the other: from rank 0, 8 ranks on the other node, 4 in
  // the other package, 2 under the other L3 cache and 1 under its own.
  const std::size_t m = 1;
  auto cost = [&](LinkClass c) { return per_level.link(c).alpha + static_cast<double>(m) * per_level.link(c).beta; };
  EXPECT_EQ(bcast_time("linear", sixteen, 0, m, per_level),
            8 * cost(LinkClass::kOtherNode) + 4 * cost(LinkClass::kSameNode) + 2 * cost(LinkClass::kSamePackage) +
                cost(LinkClass::kSameCache));
}

// Among nodes' leaders a level takes the flat algorithm the model predicts cheapest, not the rule table's one-node
// pick (at 2 ranks and 1 MiB a pipeline of 64 KiB segments, each a rendezvous over the network). With one rank per
// node the hierarchy is that single level, so the hierarchical bcast costs what the cheapest flat bcast costs: on 2
// nodes one message of the other_node link. The built-in figures are the job's, with which the level chooses.
TEST(HierarchicalBcastModel, LevelsAmongNodesTakeTheCheapestFlatAlgorithm) {
  const CostParameters& job = job_cost_parameters();
  for (int nodes : {2, 4, 5}) {
    sim::Layout one_per_node;
    for (int n = 0; n < nodes; ++n) {
      one_per_node.node.push_back(n);
      one_per_node.core.push_back(0);
    }
    for (std::size_t m : {std::size_t{8}, std::size_t{65536}, std::size_t{1} << 20}) {
      double cheapest = -1;
      for (const char* flat : {"linear", "binomial", "knomial", "pipeline", "scatter_allgather"}) {
        const double t = bcast_time(flat, one_per_node, 0, m, job);
        if (cheapest < 0 || t < cheapest) cheapest = t;
      }
      EXPECT_DOUBLE_EQ(bcast_time("hierarchical", one_per_node, 0, m, job), cheapest)
          << nodes << " nodes, " << m << " B";
      if (nodes == 2) {
        EXPECT_DOUBLE_EQ(cheapest, job.link(LinkClass::kOtherNode).time(m)) << m << " B";
      }
    }
  }
}

// Inside a node the hierarchical bcast cuts by package and cache only where the node's memory does not serve the
// node's processes better (node_as_one_level): with it, a large message is written once by the node's leader and
// read by every other process of the node; without it, or for a small message to a node of 4 processes (the rule
// table keeps linear there, measured against the node's memory), each process receives from its leader at the
// deepest level that separates them. Root 0; each rank's transfers are listed from the schedule it builds for itself.
TEST(HierarchicalBcast, TheNodeIsOneLevelWhereItsMemoryServes) {
  const Algorithm* hierarchical = find_algorithm(Operation::kBcast, "hierarchical");
  ASSERT_NE(hierarchical, nullptr);
  static std::vector<char> buffer;
  // Every (kind, peer) of rank r's transfers.
  auto transfers_of = [&](const sim::Layout& layout, int r, std::size_t m, bool node_memory) {
    buffer.assign(m, 0);
    Args args;
    args.rank = r;
    args.size = static_cast<int>(layout.node.size());
    args.root = 0;
    args.recvbuf = buffer.data();
    args.recvcount = m;
    args.recvtype = datatype::predefined(datatype::kByte);
    args.hierarchy = sim::hierarchy(layout, r);
    args.node_memory = node_memory;
    Schedule s;
    hierarchical->build(args, s);
    std::set<std::pair<Kind, int>> out;
    for (const Vertex& v : s.vertices())
      if (transfers(v.kind)) out.insert({v.kind, v.peer});
    return out;
  };
  using Transfers = std::set<std::pair<Kind, int>>;
  const std::size_t large = std::size_t{8} << 20;
  // 16 ranks on 2 nodes of 8 cores: rank 5 sits under rank 4's L3 cache, in the package rank 4 leads; rank 13
  // likewise on the second node.
  const sim::Layout sixteen = block_layout(16);
  EXPECT_EQ(transfers_of(sixteen, 5, large, true), (Transfers{{Kind::kRead, 0}}));
  EXPECT_EQ(transfers_of(sixteen, 13, large, true), (Transfers{{Kind::kRead, 8}}));
  EXPECT_EQ(transfers_of(sixteen, 5, large, false), (Transfers{{Kind::kRecv, 4}}));
  // The node's leader writes the message once for its 7 other processes, after receiving it from the root.
  const Transfers leader = transfers_of(sixteen, 8, large, true);
  EXPECT_TRUE(leader.count({Kind::kRecv, 0}) == 1 && leader.count({Kind::kPublish, -1}) == 1 && leader.size() == 2)
      << leader.size() << " kinds of transfer";
  // 8 ranks on 2 nodes of 4 cores (two L3 caches of 2 each): rank 3 shares rank 2's cache, rank 7 rank 6's.
  sim::Layout eight;
  for (int r = 0; r < 8; ++r) {
    eight.node.push_back(r / 4);
    eight.core.push_back(r % 4);
  }
  EXPECT_EQ(transfers_of(eight, 3, large, true), (Transfers{{Kind::kRead, 0}}));
  EXPECT_EQ(transfers_of(eight, 3, 8, true), (Transfers{{Kind::kRecv, 2}}));
  EXPECT_EQ(transfers_of(eight, 7, 8, true), (Transfers{{Kind::kRecv, 6}}));
}

}  // namespace
