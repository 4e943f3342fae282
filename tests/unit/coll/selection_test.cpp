// Algorithm selection (coll/selection.*): the default table picks an algorithm that applies to every operation,
// size and communicator size, also for a non-commutative operator and sizes that are not powers of two; a few
// picks are checked against the measured table; forced names override it, fall back when they do not apply, and
// an unknown name is an error listing the valid ones. Where the topology may be used, the cost model chooses: every
// rank alike, from its own view of the hierarchy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "coll/algorithms/grouped.hpp"
#include "coll/cost_parameters.hpp"
#include "coll/selection.hpp"
#include "datatype/predefined.hpp"
#include "sim_hierarchy.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

const datatype::Op kSum = *datatype::predefined_op(datatype::kOpSum);
const datatype::Op kNonCommutative{datatype::kOpUser, false, false, nullptr};

Args args_for(Operation op, int p, std::size_t bytes, const datatype::Op& reduction) {
  Args a;
  a.size = p;
  a.sendtype = a.recvtype = datatype::predefined(datatype::kByte);
  a.sendcount = a.recvcount = bytes;
  a.op = &reduction;
  if (op == Operation::kAllgatherv || op == Operation::kReduceScatter || op == Operation::kAlltoallv) {
    a.recvcounts.assign(static_cast<std::size_t>(p), static_cast<int>(bytes));
    a.sendcounts = a.rdispls = a.sdispls = a.recvcounts;
  }
  return a;
}

std::string chosen_for(Operation op, const Args& args, const std::string& forced = "") {
  const Algorithm* a = nullptr;
  const Status s = select(op, args, forced, a);
  EXPECT_TRUE(s.ok()) << s.message;
  return a ? a->name : "(none)";
}

std::string chosen(Operation op, int p, std::size_t bytes, const datatype::Op& reduction = kSum,
                   const std::string& forced = "") {
  return chosen_for(op, args_for(op, p, bytes, reduction), forced);
}

// The same for a communicator inside one node (Args::shared_memory).
std::string chosen_on_one_node(Operation op, int p, std::size_t bytes, const datatype::Op& reduction = kSum) {
  Args a = args_for(op, p, bytes, reduction);
  a.shared_memory = true;
  return chosen_for(op, a);
}

TEST(Selection, EveryCaseGetsAnApplicableAlgorithm) {
  for (int op = 0; op < static_cast<int>(Operation::kCount); ++op)
    for (int p = 1; p <= 17; ++p)
      for (std::size_t bytes : {0u, 8u, 1024u, 65536u, 1u << 20})
        for (const datatype::Op* reduction : {&kSum, &kNonCommutative}) {
          const Args a = args_for(Operation(op), p, bytes, *reduction);
          const Algorithm* algorithm = nullptr;
          ASSERT_TRUE(select(Operation(op), a, "", algorithm).ok());
          ASSERT_NE(algorithm, nullptr);
          EXPECT_TRUE(algorithm->applies == nullptr || algorithm->applies(a))
              << operation_name(Operation(op)) << " p=" << p << " " << bytes << " B: " << algorithm->name;
        }
}

TEST(Selection, FollowsTheMeasuredTable) {
  EXPECT_EQ(chosen(Operation::kAllreduce, 2, 8), "recursive_doubling");
  EXPECT_EQ(chosen(Operation::kAllreduce, 2, 65536), "ring");
  EXPECT_EQ(chosen(Operation::kAllreduce, 2, 262144), "segmented_ring");
  EXPECT_EQ(chosen(Operation::kAllreduce, 8, 65536), "reduce_bcast");
  EXPECT_EQ(chosen(Operation::kAllreduce, 16, 65536), "rabenseifner");  // beyond what was measured
  EXPECT_EQ(chosen(Operation::kAllreduce, 4, 1 << 20), "segmented_ring");
  EXPECT_EQ(chosen(Operation::kBcast, 8, 8), "linear");
  EXPECT_EQ(chosen(Operation::kBcast, 4, 65536), "linear");
  EXPECT_EQ(chosen(Operation::kBcast, 3, 65536), "binomial");
  EXPECT_EQ(chosen(Operation::kBcast, 16, 8), "binomial");
  EXPECT_EQ(chosen(Operation::kBcast, 8, 1 << 20), "pipeline");
  EXPECT_EQ(chosen(Operation::kAllgather, 2, 8), "ring");
  EXPECT_EQ(chosen(Operation::kAllgather, 5, 1 << 20), "linear");
  EXPECT_EQ(chosen(Operation::kAllgather, 8, 262144), "linear");
  EXPECT_EQ(chosen(Operation::kAllgather, 8, 65536), "ring");
  EXPECT_EQ(chosen(Operation::kAllgather, 16, 262144), "ring");
  EXPECT_EQ(chosen(Operation::kAllgather, 16, 8), "bruck");
  EXPECT_EQ(chosen(Operation::kAlltoall, 4, 1 << 20), "linear");
  EXPECT_EQ(chosen(Operation::kAlltoall, 8, 1 << 20), "linear");
  EXPECT_EQ(chosen(Operation::kAlltoall, 9, 1 << 20), "pairwise");
  EXPECT_EQ(chosen(Operation::kAlltoallv, 8, 2048), "linear");
  EXPECT_EQ(chosen(Operation::kAlltoallv, 9, 2048), "pairwise");
  EXPECT_EQ(chosen(Operation::kScan, 2, 8), "linear");
  EXPECT_EQ(chosen(Operation::kExscan, 8, 8), "recursive_doubling");
  EXPECT_EQ(chosen(Operation::kExscan, 8, 65536), "linear");
  EXPECT_EQ(chosen(Operation::kScan, 9, 1 << 20), "recursive_doubling");
  EXPECT_EQ(chosen(Operation::kBarrier, 16, 0), "dissemination");
}

// A communicator inside one node (Args::shared_memory) takes the node's memory where the table measured it ahead.
TEST(Selection, SmallExchangesOnOneNodeGoThroughItsMemory) {
  EXPECT_EQ(chosen_on_one_node(Operation::kAllgather, 4, 8), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kAllgather, 8, 1024), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kAllgather, 2, 8), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kAllgather, 2, 65536), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kAllgather, 2, 65537), "ring");
  EXPECT_EQ(chosen_on_one_node(Operation::kAllgather, 16, 8), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kAllgather, 17, 8), "bruck");  // past the 16 ranks measured
  EXPECT_EQ(chosen_on_one_node(Operation::kScan, 8, 8), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kExscan, 5, 512), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kExscan, 4, 8), "linear");
  EXPECT_EQ(chosen_on_one_node(Operation::kScan, 8, 1024), "linear");
  EXPECT_EQ(chosen_on_one_node(Operation::kAlltoall, 8, 256), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kAlltoall, 8, 1024), "linear");
  EXPECT_EQ(chosen_on_one_node(Operation::kAlltoall, 4, 8), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kAlltoall, 3, 8), "linear");
  // A reduce reads from the node's memory from 4 ranks on, and at 3 past 2 KiB (smaller ones stream better through
  // the rings there); at 2, linear for small vectors, the node's memory for medium ones and the pipeline past 128 KiB.
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 4, 1 << 20), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 8, 4096), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 8, 8), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 4, 2048), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 3, 2048), "binomial");
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 3, 4096), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 2, 8192), "linear");
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 2, 65536), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 2, 1 << 20), "pipeline");
  // Barriers and small allgathers too, up to 16 ranks.
  EXPECT_EQ(chosen_on_one_node(Operation::kBarrier, 16, 0), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kBarrier, 17, 0), "dissemination");
  EXPECT_EQ(chosen_on_one_node(Operation::kAllgather, 12, 8), "shared_memory");
  EXPECT_EQ(chosen(Operation::kAllgather, 12, 8), "bruck");
  // From 9 ranks: the node's memory past 8 KiB, up to the 16 ranks measured.
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 16, 65536), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 9, 8192), "binomial");
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 17, 65536), "reduce_scatter_gather");
  EXPECT_EQ(chosen(Operation::kReduce, 16, 65536), "reduce_scatter_gather");
  // Across nodes there is no node memory to share: the rules after it serve.
  EXPECT_EQ(chosen(Operation::kAllgather, 4, 8), "linear");
  EXPECT_EQ(chosen(Operation::kAlltoall, 8, 8), "linear");
}

// A long bcast on one node goes through its memory where the model predicts it faster, but never at two ranks (one
// reader saves no copy of the root's), nor where a rule was measured against it (4 ranks up to 4 KiB, 5-8 ranks up
// to 256 B).
TEST(Selection, LongBcastsOnOneNodeGoThroughItsMemoryFromThreeRanks) {
  EXPECT_EQ(chosen_on_one_node(Operation::kBcast, 4, 1 << 20), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kBcast, 8, 1 << 20), "shared_memory");
  EXPECT_EQ(chosen_on_one_node(Operation::kBcast, 2, 1 << 20), "pipeline");
  EXPECT_EQ(chosen_on_one_node(Operation::kBcast, 4, 4096), "linear");  // measured against it: kept
  EXPECT_EQ(chosen_on_one_node(Operation::kBcast, 4, 16384), "shared_memory");
  for (int ranks : {5, 7}) {
    EXPECT_EQ(chosen_on_one_node(Operation::kBcast, ranks, 256), "linear") << ranks << " ranks";  // kept too
    EXPECT_EQ(chosen_on_one_node(Operation::kBcast, ranks, 1024), "shared_memory") << ranks << " ranks";
  }
  EXPECT_EQ(chosen_on_one_node(Operation::kBcast, 8, 8), "shared_memory");  // its readers mark their own lines
  EXPECT_EQ(chosen(Operation::kBcast, 4, 1 << 20), "pipeline");  // no node memory
}

// Two ranks that take turns on one processor gain nothing from a pipeline's segments, each of which waits for the
// scheduler: where the job's ranks outnumber their processors, a bcast between two goes as one message, of any size.
// Elsewhere, and at more ranks, the table is unchanged.
TEST(Selection, TwoRanksSharingProcessorsBcastInOneMessage) {
  for (std::size_t bytes : {std::size_t{8}, std::size_t{65536}, std::size_t{1} << 20, std::size_t{8} << 20}) {
    Args a = args_for(Operation::kBcast, 2, bytes, kSum);
    a.shared_processors = true;
    EXPECT_EQ(chosen_for(Operation::kBcast, a), "linear") << bytes << " B";
    a.shared_memory = true;  // the node's memory makes no difference at 2 ranks
    EXPECT_EQ(chosen_for(Operation::kBcast, a), "linear") << bytes << " B";
  }
  EXPECT_EQ(chosen(Operation::kBcast, 2, 1 << 20), "pipeline");
  Args eight = args_for(Operation::kBcast, 8, 1 << 20, kSum);
  eight.shared_processors = true;
  EXPECT_EQ(chosen_for(Operation::kBcast, eight), "pipeline");
}

// Likewise a reduce or allreduce between two such ranks: not by the segments of a pipeline or segmented ring but
// through the node's memory (one copy each way), recursive doubling for short allreduces, and without the node's
// memory in one message a step.
TEST(Selection, TwoRanksSharingProcessorsReduceThroughTheNodeMemory) {
  auto sharing = [](Operation op, std::size_t bytes, bool node_memory, const datatype::Op& reduction = kSum) {
    Args a = args_for(op, 2, bytes, reduction);
    a.shared_processors = true;
    a.shared_memory = node_memory;
    return chosen_for(op, a);
  };
  EXPECT_EQ(sharing(Operation::kReduce, 1 << 20, true), "shared_memory");
  EXPECT_EQ(sharing(Operation::kReduce, 1 << 20, false), "linear");
  EXPECT_EQ(sharing(Operation::kReduce, 8, true), "linear");  // as without sharing
  EXPECT_EQ(sharing(Operation::kAllreduce, 65536, true), "recursive_doubling");
  EXPECT_EQ(sharing(Operation::kAllreduce, 131072, true), "shared_memory_slices");
  EXPECT_EQ(sharing(Operation::kAllreduce, 1 << 20, true, kNonCommutative), "shared_memory_slices");
  EXPECT_EQ(sharing(Operation::kAllreduce, 1 << 20, false), "ring");
  // With a processor each the table is unchanged.
  EXPECT_EQ(chosen_on_one_node(Operation::kReduce, 2, 1 << 20), "pipeline");
  EXPECT_EQ(chosen(Operation::kAllreduce, 2, 1 << 20), "segmented_ring");
}

// Whether ranks share processors: the most ranks on any node against the processors each node has.
TEST(Selection, RanksShareProcessorsWhereANodeHasMoreRanksThanProcessors) {
  EXPECT_FALSE(ranks_share_processors({0, 0}, 2));
  EXPECT_TRUE(ranks_share_processors({0, 0, 0}, 2));
  EXPECT_TRUE(ranks_share_processors({0, 1, 1, 2}, 1));  // one node of three is crowded
  EXPECT_FALSE(ranks_share_processors({0, 1, 2, 3}, 1));
  EXPECT_TRUE(ranks_share_processors({0, 0, 1, 1}, 0.5));  // simulated nodes sharing a processor
  EXPECT_FALSE(ranks_share_processors({0, 0, 0, 0}, 0));   // processors not known
  EXPECT_FALSE(ranks_share_processors({}, 2));
}

TEST(Selection, LongAllreducesOnOneNodeReduceBySlicesInItsMemory) {
  const auto on_one_node = [](int p, std::size_t bytes, const datatype::Op& reduction) {
    return chosen_on_one_node(Operation::kAllreduce, p, bytes, reduction);
  };
  EXPECT_EQ(on_one_node(4, 65536, kSum), "shared_memory_slices");
  EXPECT_EQ(on_one_node(8, 1 << 20, kSum), "shared_memory_slices");
  EXPECT_EQ(on_one_node(8, 1 << 20, kNonCommutative), "shared_memory_slices");  // folded in rank order
  EXPECT_EQ(on_one_node(8, 8, kSum), "shared_memory");
  EXPECT_EQ(on_one_node(2, 65536, kSum), "ring");
  EXPECT_EQ(on_one_node(3, 65536, kSum), "reduce_bcast");
  EXPECT_EQ(on_one_node(3, 1 << 20, kSum), "shared_memory_slices");
  EXPECT_EQ(on_one_node(16, 1 << 20, kSum), "shared_memory_slices");
  EXPECT_EQ(on_one_node(12, 131072, kSum), "shared_memory_slices");
  EXPECT_EQ(on_one_node(16, 65536, kSum), "rabenseifner");
  EXPECT_EQ(on_one_node(9, 32768, kSum), "recursive_doubling");
  EXPECT_EQ(chosen(Operation::kAllreduce, 16, 32768), "recursive_doubling");  // with or without the node's memory
  EXPECT_EQ(chosen(Operation::kAllreduce, 17, 32768), "rabenseifner");
  EXPECT_EQ(on_one_node(17, 1 << 20, kSum), "segmented_ring");  // past the ranks measured
  EXPECT_EQ(chosen(Operation::kAllreduce, 16, 1 << 20), "segmented_ring");  // no node memory
}

TEST(Selection, NonCommutativeOperatorsAvoidTheRings) {
  EXPECT_EQ(chosen(Operation::kAllreduce, 2, 65536, kNonCommutative), "reduce_bcast");
  EXPECT_EQ(chosen(Operation::kAllreduce, 8, 1 << 20, kNonCommutative), "rabenseifner");
  EXPECT_EQ(chosen(Operation::kReduceScatterBlock, 6, 1024, kNonCommutative), "reduce_scatterv");
}

TEST(Selection, ForcedNames) {
  EXPECT_EQ(chosen(Operation::kAllreduce, 8, 8, kSum, "ring"), "ring");
  EXPECT_EQ(chosen(Operation::kAllreduce, 8, 8, kNonCommutative, "ring"), "recursive_doubling");  // falls back
  const Algorithm* a = nullptr;
  const Status s = select(Operation::kBcast, args_for(Operation::kBcast, 4, 8, kSum), "fastest", a);
  EXPECT_EQ(s.error_class, 13);  // MPI_ERR_ARG
  EXPECT_NE(s.message.find("valid names: linear, binomial, knomial, pipeline, scatter_allgather"), std::string::npos)
      << s.message;
}

// ---- The cost model's choice ---------------------------------------------------------------------------------

constexpr Operation kCostable[] = {Operation::kBarrier, Operation::kBcast, Operation::kReduce, Operation::kAllreduce,
                                   Operation::kAllgather};

Choice choice_of(Operation op, const sim::Layout& layout, int rank, std::size_t bytes) {
  Args a = args_for(op, static_cast<int>(layout.node.size()), bytes, kSum);
  a.rank = rank;
  a.hierarchy = sim::hierarchy(layout, rank);
  a.in_place = op == Operation::kReduce && rank == a.root;  // the root's alone
  // Node memory as a job has it: only where the rank's node holds others of the communicator.
  a.node_memory = std::count(layout.node.begin(), layout.node.end(), layout.node[rank]) > 1;
  Choice c;
  const Status s = choose(op, a, "", c);
  EXPECT_TRUE(s.ok()) << s.message;
  return c;
}

// Each rank sees its own node in detail and the others by node only, yet all must run the same algorithm.
TEST(SelectionByModel, EveryRankChoosesAlike) {
  for (int p : {2, 5, 8, 13})
    for (const sim::Layout& layout : sim::layouts(p))
      for (Operation op : kCostable)
        for (std::size_t bytes : {8u, 65536u, 1u << 20}) {
          const Choice first = choice_of(op, layout, 0, bytes);
          ASSERT_NE(first.algorithm, nullptr);
          EXPECT_EQ(first.reason, "cost model");
          ASSERT_FALSE(first.candidates.empty());
          EXPECT_EQ(first.candidates.front().algorithm, first.algorithm);
          for (std::size_t i = 1; i < first.candidates.size(); ++i) {  // by time to the picosecond, then pace
            const Candidate &before = first.candidates[i - 1], &after = first.candidates[i];
            const long long ps_before = std::llround(before.seconds * 1e12);
            const long long ps_after = std::llround(after.seconds * 1e12);
            EXPECT_LE(ps_before, ps_after);
            if (ps_before == ps_after) {
              EXPECT_LE(std::llround(before.pace * 1e12), std::llround(after.pace * 1e12));
            }
          }
          for (int r = 1; r < p; ++r)
            EXPECT_EQ(choice_of(op, layout, r, bytes).algorithm, first.algorithm)
                << operation_name(op) << " " << bytes << " B, p " << p << ", " << layout.name << ", rank " << r;
        }
}

// The messages that cross between nodes when every rank builds the chosen algorithm's schedule.
int network_messages(Operation op, const sim::Layout& layout, std::size_t bytes) {
  const int p = static_cast<int>(layout.node.size());
  const Algorithm* algorithm = choice_of(op, layout, 0, bytes).algorithm;
  std::vector<char> buffer(bytes * static_cast<std::size_t>(p));
  int crossing = 0;
  for (int r = 0; r < p; ++r) {
    Args a = args_for(op, p, bytes, kSum);
    a.rank = r;
    a.sendbuf = a.recvbuf = buffer.data();
    a.hierarchy = sim::hierarchy(layout, r);
    Schedule s;
    algorithm->build(a, s);
    for (const Vertex& v : s.vertices())
      if (v.kind == Kind::kSend && layout.node[static_cast<std::size_t>(v.peer)] != layout.node[r]) ++crossing;
  }
  return crossing;
}

// Ranks alternating between two nodes: a binomial tree in rank order would cross the network with half of its
// messages; the choice crosses it once, as the paper's hierarchical and distance-aware trees do.
TEST(SelectionByModel, ScatteredRanksCrossTheNetworkOnce) {
  sim::Layout alternating;
  alternating.name = "2 nodes, alternating";
  for (int r = 0; r < 8; ++r) {
    alternating.node.push_back(r % 2);
    alternating.core.push_back(r / 2);
  }
  for (std::size_t bytes : {8u, 65536u})
    EXPECT_EQ(network_messages(Operation::kBcast, alternating, bytes), 1)
        << bytes << " B: " << choice_of(Operation::kBcast, alternating, 0, bytes).algorithm->name;
}

// 4 nodes of 2 ranks in block order: the binomial, hierarchical and multi-lane bcasts send the same messages over
// the same links, the multi-lane one with the root's node's second rank carrying one of the root's two sends between
// nodes. Where the ranks outnumber the processors (half a processor per node, two nodes to a host, as 8 ranks on 4
// simulated nodes of this 2-processor machine), each tree's time is its processors' total work, so all three are
// predicted alike, and the multi-lane bcast comes first by its pace: the root's own messages, one across the network
// and one inside its node (binomial: two across and one inside). With a processor per rank the multi-lane tree's
// extra hop inside the node shows, and the tie is gone.
TEST(SelectionByModel, OfEqualTimesTheLowerPaceComesFirst) {
  sim::Layout block;
  for (int r = 0; r < 8; ++r) block.node.push_back(r / 2), block.core.push_back(r % 2);
  const Link node{2e-6, 1e-10}, network{8e-6, 3e-10};
  CostParameters shared = CostParameters::two_level(node, network, 0);
  shared.cores_per_node = 0.5, shared.nodes_per_host = 2;
  std::vector<const Algorithm*> trees;
  for (const char* name : {"binomial", "hierarchical", "multi_lane"})
    trees.push_back(find_algorithm(Operation::kBcast, name));
  Args a = args_for(Operation::kBcast, 8, 8, kSum);
  a.hierarchy = sim::hierarchy(block, 0);
  const std::vector<topo::Placement> view = shared_view(*a.hierarchy);
  const std::vector<Candidate> ranked = rank_by_model(a, trees, view, shared);
  ASSERT_EQ(ranked.size(), 3u);
  EXPECT_STREQ(ranked[0].algorithm->name, "multi_lane");
  EXPECT_NEAR(ranked[0].pace, network.time(8) + node.time(8), 1e-15);
  for (const Candidate& c : {ranked[1], ranked[2]}) {
    EXPECT_EQ(std::llround(c.seconds * 1e12), std::llround(ranked[0].seconds * 1e12)) << c.algorithm->name;
    EXPECT_NEAR(c.pace, 2 * network.time(8) + node.time(8), 1e-15) << c.algorithm->name;
  }
  const std::vector<Candidate> apart = rank_by_model(a, trees, view, CostParameters::two_level(node, network, 0));
  EXPECT_STREQ(apart[0].algorithm->name, "binomial");  // the order given, among the two tied
  EXPECT_STREQ(apart[2].algorithm->name, "multi_lane");
  EXPECT_GT(apart[2].seconds, apart[0].seconds + node.time(8) / 2);
}

// The grouped family is costed at each G group_choices() gives, and keeps its best one; a requested G is kept as is.
TEST(SelectionByModel, GroupedKeepsItsCheapestGroupCount) {
  for (int p : {8, 13})
    for (const sim::Layout& layout : sim::layouts(p))
      for (Operation op : {Operation::kBcast, Operation::kReduce, Operation::kAllreduce})
        for (std::size_t bytes : {8u, 65536u}) {
          const Algorithm* grouped = find_algorithm(op, "grouped");
          Args a = args_for(op, p, bytes, kSum);
          a.hierarchy = sim::hierarchy(layout, 0);
          const std::vector<topo::Placement> view = shared_view(*a.hierarchy);
          const CostParameters parameters = job_cost_parameters();
          const std::vector<Candidate> chosen = rank_by_model(a, {grouped}, view, parameters);
          ASSERT_EQ(chosen.size(), 1u);
          std::set<uint32_t> nodes;
          for (const topo::Placement& place : view) nodes.insert(place.node);
          const std::vector<int> tried = group_choices(p, static_cast<int>(nodes.size()));
          ASSERT_NE(std::find(tried.begin(), tried.end(), chosen[0].groups), tried.end()) << chosen[0].groups;
          for (int g : tried) {
            a.groups = g;
            const double at_g = rank_by_model(a, {grouped}, view, parameters).front().seconds;
            EXPECT_LE(chosen[0].seconds, at_g) << layout.name << " " << operation_name(op) << " G " << g;
            if (g == chosen[0].groups) {
              EXPECT_EQ(chosen[0].seconds, at_g);
            }
          }
          a.groups = 3;
          EXPECT_EQ(rank_by_model(a, {grouped}, view, parameters).front().groups, 3);
        }
}

}  // namespace
