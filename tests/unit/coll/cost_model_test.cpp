// The cost model against the closed forms of the Hockney model in the hierarchical-reduction paper (Hasanov and
// Lastovetsky 2016, Table 1 and section 2): the registry's algorithms are built for p ranks and costed by walking
// their schedules, for several p and m.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/cost_model.hpp"
#include "coll/model_choice.hpp"
#include "datatype/predefined.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

constexpr double kAlpha = 2e-6, kBeta = 1e-9, kGamma = 3e-10;

const CostParameters kOneNode = CostParameters::uniform({kAlpha, kBeta}, kGamma);
const auto kAllClose = [](int, int) { return LinkClass::kSameCache; };

// The predicted time of `name` for `op` on p ranks with m bytes (m / 8 doubles) per rank.
double cost(Operation op, const char* name, int p, std::size_t m) {
  const Algorithm* a = find_algorithm(op, name);
  EXPECT_NE(a, nullptr) << name;
  if (a == nullptr) return -1;
  static std::vector<double> in, out;
  in.assign(m / 8 * static_cast<std::size_t>(p), 1.0);
  out.assign(m / 8 * static_cast<std::size_t>(p), 0.0);
  return predict(
      p,
      [&](int rank, Schedule& s) {
        Args args = typical_call(op, m);
        args.rank = rank;
        args.size = p;
        args.sendbuf = in.data();
        args.recvbuf = out.data();
        a->build(args, s);
      },
      kOneNode, kAllClose);
}

const int kRanks[] = {2, 4, 8, 16, 32};
const std::size_t kBytes[] = {8, 8192, 1 << 20};

// The paper's flat tree: the root receives each rank's vector into one buffer and reduces it before the next.
void textbook_flat_tree(int rank, int p, std::size_t m, Schedule& s) {
  static double scratch[1 << 17];
  const Data in{Buf::user(scratch), m / 8, datatype::predefined(datatype::kDouble)};
  if (rank != 0) {
    s.send(in, 0, 0);
    return;
  }
  const Data buffer{s.scratch(m), m / 8, in.type};
  VertexId last = -1;
  for (int from = 1; from < p; ++from) {
    const VertexId got = last < 0 ? s.recv(buffer, from, 0) : s.recv(buffer, from, 0, {last});
    last = s.reduce(buffer, in, datatype::predefined_op(datatype::kOpSum), 0, {got});
  }
}

TEST(CostModel, FlatTreeReduce) {  // (p - 1)(alpha + m beta + m gamma)
  for (int p : kRanks)
    for (std::size_t m : kBytes) {
      const double closed = (p - 1) * (kAlpha + m * kBeta + m * kGamma);
      const double t = predict(p, [&](int rank, Schedule& s) { textbook_flat_tree(rank, p, m, s); }, kOneNode, kAllClose);
      EXPECT_NEAR(t, closed, 1e-12) << "p " << p << ", m " << m;
      // Strata's linear reduce double-buffers, so the root reduces one vector while the next arrives.
      EXPECT_LE(cost(Operation::kReduce, "linear", p, m), closed + 1e-12) << "p " << p << ", m " << m;
    }
}

TEST(CostModel, BinomialReduce) {  // log2(p)(alpha + m beta + m gamma)
  for (int p : kRanks)
    for (std::size_t m : kBytes)
      EXPECT_NEAR(cost(Operation::kReduce, "binomial", p, m), std::log2(p) * (kAlpha + m * kBeta + m * kGamma),
                  1e-12)
          << "p " << p << ", m " << m;
}

TEST(CostModel, FlatAndBinomialBroadcast) {  // (p - 1)(alpha + m beta) and log2(p)(alpha + m beta)
  for (int p : kRanks)
    for (std::size_t m : kBytes) {
      EXPECT_NEAR(cost(Operation::kBcast, "linear", p, m), (p - 1) * (kAlpha + m * kBeta), 1e-12);
      EXPECT_NEAR(cost(Operation::kBcast, "binomial", p, m), std::log2(p) * (kAlpha + m * kBeta), 1e-12);
    }
}

// A forecast's pace is the busiest rank's own share: the root's sends in a flat or binomial bcast, every rank's
// receives and reductions in a ring allreduce (as many as its sends, plus the reductions), where it equals the time.
TEST(CostModel, PaceIsTheBusiestRanksOwnShare) {
  for (int p : kRanks)
    for (std::size_t m : kBytes) {
      const auto pace = [&](const char* name, Operation op) {
        const Algorithm* a = find_algorithm(op, name);
        std::vector<double> in(m / 8 * static_cast<std::size_t>(p), 1.0), out(in.size());
        return forecast(p, [&](int rank, Schedule& s) {
          Args args = typical_call(op, m);
          args.rank = rank, args.size = p, args.sendbuf = in.data(), args.recvbuf = out.data();
          a->build(args, s);
        }, kOneNode, kAllClose).pace;
      };
      EXPECT_NEAR(pace("linear", Operation::kBcast), (p - 1) * (kAlpha + m * kBeta), 1e-12) << p << " " << m;
      EXPECT_NEAR(pace("binomial", Operation::kBcast), std::log2(p) * (kAlpha + m * kBeta), 1e-12) << p << " " << m;
      const double block = static_cast<double>(m) / p;
      const double ring = 2 * (p - 1) * (kAlpha + block * kBeta) + (p - 1) * block * kGamma;
      if (m >= 8192) {
        EXPECT_NEAR(pace("ring", Operation::kAllreduce), ring, 1e-12) << p << " " << m;
      }
    }
}

TEST(CostModel, RingAllreduce) {  // 2(p - 1)(alpha + m/p beta) + (p - 1) m/p gamma
  for (int p : kRanks)
    for (std::size_t m : {std::size_t{8192}, std::size_t{1} << 20}) {
      const double block = static_cast<double>(m) / p;
      EXPECT_NEAR(cost(Operation::kAllreduce, "ring", p, m),
                  2 * (p - 1) * (kAlpha + block * kBeta) + (p - 1) * block * kGamma, 1e-12)
          << "p " << p << ", m " << m;
    }
}

TEST(CostModel, OtherNodesCostTheirOwnLink) {  // a 2-rank broadcast across nodes pays the network's alpha and beta
  const Algorithm* a = find_algorithm(Operation::kBcast, "binomial");
  ASSERT_NE(a, nullptr);
  double x[128] = {};
  const CostParameters two_nodes = CostParameters::two_level({kAlpha, kBeta}, {10 * kAlpha, 5 * kBeta}, kGamma);
  const double t = predict(
      2,
      [&](int rank, Schedule& s) {
        Args args;
        args.rank = rank;
        args.size = 2;
        args.recvbuf = x;
        args.recvcount = 128;
        args.recvtype = datatype::predefined(datatype::kDouble);
        a->build(args, s);
      },
      two_nodes, [](int a, int b) { return a == b ? LinkClass::kSameNode : LinkClass::kOtherNode; });
  EXPECT_NEAR(t, 10 * kAlpha + 1024 * 5 * kBeta, 1e-12);
}

// A message above its link's eager limit costs the rendezvous line, one at or below it the eager line: a binomial
// bcast on 2 ranks is one message, of one size on either side of the limit (1 KiB); a 4-rank chain pipeline of
// k segments takes 3 + k - 1 steps of one segment each: 2 segments of 2 KiB by rendezvous, 4 of 1 KiB eagerly.
TEST(CostModel, MessagesAboveTheEagerLimitCostTheRendezvousLine) {
  constexpr double kRendezvousAlpha = 7 * kAlpha, kRendezvousBeta = kBeta / 2;
  Link link{kAlpha, kBeta};
  link.eager_limit = 1024;
  link.rendezvous_alpha = kRendezvousAlpha;
  link.rendezvous_beta = kRendezvousBeta;
  const CostParameters p = CostParameters::uniform(link, kGamma);
  auto bcast = [&](const char* name, int ranks, std::size_t bytes, std::size_t segment) {
    const Algorithm* a = find_algorithm(Operation::kBcast, name);
    EXPECT_NE(a, nullptr) << name;
    std::vector<char> x(bytes);
    return predict(
        ranks,
        [&](int rank, Schedule& s) {
          Args args;
          args.rank = rank;
          args.size = ranks;
          args.recvbuf = x.data();
          args.recvcount = bytes;
          args.recvtype = datatype::predefined(datatype::kByte);
          args.segment_bytes = segment;
          a->build(args, s);
        },
        p, kAllClose);
  };
  EXPECT_NEAR(bcast("binomial", 2, 1024, 0), kAlpha + 1024 * kBeta, 1e-12);
  EXPECT_NEAR(bcast("binomial", 2, 1025, 0), kRendezvousAlpha + 1025 * kRendezvousBeta, 1e-12);
  EXPECT_NEAR(bcast("pipeline", 4, 4096, 2048), (4 - 1 + 2 - 1) * (kRendezvousAlpha + 2048 * kRendezvousBeta), 1e-12);
  EXPECT_NEAR(bcast("pipeline", 4, 4096, 1024), (4 - 1 + 4 - 1) * (kAlpha + 1024 * kBeta), 1e-12);
}

// A recursive-doubling allgather of kAllgatherBlock bytes per rank on 4 ranks: two steps, in which every rank
// sends and receives once (the tests of the network ports and of the processors below).
constexpr std::size_t kAllgatherBlock = 4096;

void build_allgather_of_4(int rank, Schedule& s) {
  static char in[kAllgatherBlock], out[4 * kAllgatherBlock];
  Args args;
  args.rank = rank;
  args.size = 4;
  args.sendbuf = in;
  args.recvbuf = out;
  args.sendcount = args.recvcount = kAllgatherBlock;
  args.sendtype = args.recvtype = datatype::predefined(datatype::kByte);
  const Algorithm* a = find_algorithm(Operation::kAllgather, "recursive_doubling");
  ASSERT_NE(a, nullptr);
  a->build(args, s);
}

// Ranks 0, 2 on one node and 1, 3 on the other: the first step of a recursive-doubling allgather has two exchanges
// across nodes, which queue at the nodes' single network ports; the second stays inside the nodes.
TEST(CostModel, NodesShareTheirNetworkPort) {
  const Link node{kAlpha, kBeta}, network{10 * kAlpha, 5 * kBeta};
  const CostParameters two_nodes = CostParameters::two_level(node, network, kGamma);
  const std::size_t m = kAllgatherBlock;
  const auto build = build_allgather_of_4;
  auto node_of = [](int rank) { return rank % 2; };
  auto link_of = [&](int x, int y) { return node_of(x) == node_of(y) ? LinkClass::kSameNode : LinkClass::kOtherNode; };
  EXPECT_NEAR(predict(4, build, two_nodes, link_of, node_of),
              2 * (network.alpha + m * network.beta) + node.alpha + 2 * m * node.beta, 1e-12);
  // Without node ports both exchanges of the first step run at once.
  EXPECT_NEAR(predict(4, build, two_nodes, link_of),
              network.alpha + m * network.beta + node.alpha + 2 * m * node.beta, 1e-12);
}

// Four ranks of one node exchange in a recursive-doubling allgather: two steps of four transfers at once. With
// fewer processors than ranks the transfers queue for them (each takes one of the receiving node's), so one
// processor runs the eight one after another and two run them two by two; a fractional count runs as that many
// rounded up, each as much slower (0.5: one at half speed); without a node map nothing queues.
TEST(CostModel, RanksQueueForTheirNodesProcessors) {
  const std::size_t m = kAllgatherBlock;
  const auto build = build_allgather_of_4;
  auto one_node = [](int) { return 0; };
  const double first = kAlpha + m * kBeta, second = kAlpha + 2 * m * kBeta;  // the two steps' transfers
  for (double cores : {0.0, 0.5, 1.0, 1.5, 2.0, 4.0, 8.0}) {
    CostParameters p = kOneNode;
    p.cores_per_node = cores;
    const int processors = static_cast<int>(std::ceil(cores));
    const int rounds = cores == 0 ? 1 : (4 + processors - 1) / processors;  // a step's transfers, `processors` at once
    const double slower = cores == 0 ? 1 : processors / cores;
    EXPECT_NEAR(predict(4, build, p, kAllClose, one_node), rounds * (first + second) * slower, 1e-12) << cores;
    EXPECT_NEAR(predict(4, build, p, kAllClose), first + second, 1e-12) << cores;
  }
}

// Nodes on one host share its processors. Three ranks on node 0 and one on node 1, one processor each: node 0's
// three transfers of a step run one after another, so each step takes three transfers' time. The same two nodes
// as one host pool their two processors: a step's four transfers run two by two.
TEST(CostModel, NodesOfAHostShareItsProcessors) {
  const std::size_t m = kAllgatherBlock;
  const auto build = build_allgather_of_4;
  auto node_of = [](int rank) { return rank < 3 ? 0 : 1; };
  const double first = kAlpha + m * kBeta, second = kAlpha + 2 * m * kBeta;
  CostParameters p = kOneNode;
  p.cores_per_node = 1;
  for (int apart : {0, 1}) {
    p.nodes_per_host = apart;
    EXPECT_NEAR(predict(4, build, p, kAllClose, node_of), 3 * (first + second), 1e-12) << apart;
  }
  p.nodes_per_host = 2;
  EXPECT_NEAR(predict(4, build, p, kAllClose, node_of), 2 * (first + second), 1e-12);
  p.cores_per_node = 0.5;  // one processor for the host, at full speed
  EXPECT_NEAR(predict(4, build, p, kAllClose, node_of), 4 * (first + second), 1e-12);
}

// Between nodes a transfer takes a processor at both ends. Ranks 0, 1 on node 0 and 2, 3 on node 1, one processor
// each: 0 sends to 2 while 3 sends to 1, so each node both sends and receives (its network port has one of each)
// and the two transfers queue for the processors, one after the other. Inside a node only the receiver's counts:
// 0 to 1 and 2 to 3 run side by side.
TEST(CostModel, TransfersBetweenNodesTakeBothEndsProcessors) {
  static char block[kAllgatherBlock];
  const Data data{Buf::user(block), kAllgatherBlock, datatype::predefined(datatype::kByte)};
  auto node_of = [](int rank) { return rank / 2; };
  auto link_of = [&](int x, int y) { return node_of(x) == node_of(y) ? LinkClass::kSameNode : LinkClass::kOtherNode; };
  const Link node{kAlpha, kBeta}, network{10 * kAlpha, 5 * kBeta};
  CostParameters p = CostParameters::two_level(node, network, kGamma);
  p.cores_per_node = 1;
  const double across = network.alpha + kAllgatherBlock * network.beta;
  const auto crossing = [&](int rank, Schedule& s) {
    const int peer[] = {2, 3, 0, 1};
    if (rank == 0 || rank == 3) s.send(data, peer[rank], 0);
    else s.recv(data, peer[rank], 0);
  };
  EXPECT_NEAR(predict(4, crossing, p, link_of, node_of), 2 * across, 1e-12);
  const auto inside = [&](int rank, Schedule& s) {
    if (rank % 2 == 0) s.send(data, rank + 1, 0);
    else s.recv(data, rank - 1, 0);
  };
  EXPECT_NEAR(predict(4, inside, p, link_of, node_of), kAlpha + kAllgatherBlock * kBeta, 1e-12);
}

// Where a host's ranks outnumber its processors, a transfer's receiver acts on it handoff x (ranks per processor)
// after its data is there. A chain 0 -> 1 -> 2 -> 3 inside one node pays that on each of its 3 hops; a write into
// the node's memory and its one read, one hop. Only the receiver waits: a send's own completion does not move. A
// reader that finds its block written takes it at once: told by a message sent after the write, it waits for the
// message only (one turn, not two).
TEST(CostModel, ReceiversWaitTheirTurnWhereRanksShareAProcessor) {
  static char block[kAllgatherBlock];
  const Data data{Buf::user(block), kAllgatherBlock, datatype::predefined(datatype::kByte)};
  const auto chain = [&](int rank, Schedule& s) {
    const VertexId got = rank > 0 ? s.recv(data, rank - 1, 0) : kNoVertex;
    if (rank < 3) s.send(data, rank + 1, 0, {got});
  };
  const auto write_read = [&](int rank, Schedule& s) {
    if (rank == 0) s.publish(data, {1}, 0);
    if (rank == 1) s.read(data, 0, {1}, 0);
  };
  const auto told_then_read = [&](int rank, Schedule& s) {
    if (rank == 0) s.send(data, 1, 1, {s.publish(data, {1}, 0)});
    if (rank == 1) s.read(data, 0, {1}, 0, {s.recv(data, 0, 1)});
  };
  auto one_node = [](int) { return 0; };
  constexpr double kHandoff = 5e-6;
  const double hop = kAlpha + kAllgatherBlock * kBeta;
  for (double cores : {0.0, 1.0, 2.0, 4.0, 8.0}) {
    CostParameters p = kOneNode;
    p.cores_per_node = cores;
    p.handoff = kHandoff;
    const double chain_turns = cores > 0 && cores < 4 ? 4 / cores : 0;  // ranks per processor, where they share
    EXPECT_NEAR(predict(4, chain, p, kAllClose, one_node), 3 * hop + 3 * chain_turns * kHandoff, 1e-12) << cores;
    EXPECT_NEAR(predict(4, chain, p, kAllClose), 3 * hop, 1e-12) << cores << ": without a node map";
    p.handoff = 0;
    EXPECT_NEAR(predict(4, chain, p, kAllClose, one_node), 3 * hop, 1e-12) << cores << ": without a handoff";
    p.handoff = kHandoff;
    const double copy = p.node_memory.time(kAllgatherBlock);
    const double pair_turns = cores > 0 && cores < 2 ? 2 / cores : 0;
    EXPECT_NEAR(predict(2, write_read, p, kAllClose, one_node), 2 * copy + pair_turns * kHandoff, 1e-12) << cores;
    EXPECT_NEAR(predict(2, told_then_read, p, kAllClose, one_node), 2 * copy + hop + pair_turns * kHandoff, 1e-12)
        << cores;
  }
}

// Between nodes a rendezvous message waits a turn more before its data moves: the receiver's, to answer the
// request. Two nodes of 2 ranks on one processor each (a turn: 2 x handoff), rank 0 sending to rank 2: an eager
// message costs its line and the receiver's turn, a rendezvous one its line and two turns. The handshake of a
// second message, posted with the first, runs while the first one's data moves, so two cost two lines and two
// turns. Inside a node a rendezvous message pays only the receiver's turn after the data.
TEST(CostModel, RendezvousBetweenNodesWaitsForTheReceiversTurn) {
  constexpr std::size_t kLimit = 1024;
  static char block[2 * kLimit];
  const Data eager{Buf::user(block), kLimit, datatype::predefined(datatype::kByte)};
  const Data large{Buf::user(block), 2 * kLimit, eager.type};
  Link link{kAlpha, kBeta};
  link.eager_limit = kLimit;
  link.rendezvous_alpha = 7 * kAlpha;
  link.rendezvous_beta = kBeta / 2;
  CostParameters p = CostParameters::two_level(link, link, kGamma);
  p.cores_per_node = 1;
  p.handoff = 5e-6;
  const double turn = 2 * p.handoff;
  auto node_of = [](int rank) { return rank / 2; };
  auto link_of = [&](int x, int y) { return node_of(x) == node_of(y) ? LinkClass::kSameNode : LinkClass::kOtherNode; };
  auto messages = [](const Data& data, int count, int to) {
    return [&data, count, to](int rank, Schedule& s) {
      for (int tag = 0; tag < count; ++tag) {
        if (rank == 0) s.send(data, to, tag);
        if (rank == to) s.recv(data, 0, tag);
      }
    };
  };
  EXPECT_NEAR(predict(4, messages(eager, 1, 2), p, link_of, node_of), link.time(kLimit) + turn, 1e-12);
  EXPECT_NEAR(predict(4, messages(large, 1, 2), p, link_of, node_of), link.time(2 * kLimit) + 2 * turn, 1e-12);
  EXPECT_NEAR(predict(4, messages(large, 2, 2), p, link_of, node_of), 2 * link.time(2 * kLimit) + 2 * turn, 1e-12);
  EXPECT_NEAR(predict(4, messages(large, 1, 1), p, link_of, node_of), link.time(2 * kLimit) + turn, 1e-12);
  // Up to answer_above, past the line's break, a message costs the second line and waits for no answer (an eager
  // message in pieces between nodes).
  link.answer_above = 2 * kLimit;
  p = CostParameters::two_level(link, link, kGamma);
  p.cores_per_node = 1;
  p.handoff = 5e-6;
  EXPECT_NEAR(predict(4, messages(large, 1, 2), p, link_of, node_of), link.time(2 * kLimit) + turn, 1e-12);
}

}  // namespace

// The shared-memory bcast is one copy in and one copy out per reader, each half a message's beta: the readers take a
// chunk side by side once it is written, and the writer writes chunk j + 1 while they take chunk j. With m bytes in
// c chunks of b: the last chunk is written at c (alpha + b beta / 2), and read alpha + b beta / 2 later.
TEST(CostModelSharedMemory, OneWriteThenReadsSideBySide) {
  for (int p : {2, 4, 8, 16})
    for (std::size_t m : {std::size_t{8}, std::size_t{1} << 16, std::size_t{1} << 20}) {
      Args probe = typical_call(Operation::kBcast, m);
      probe.size = p;
      probe.node_memory = probe.shared_memory = true;
      ASSERT_TRUE(find_algorithm(Operation::kBcast, "shared_memory")->applies(probe));
      const std::size_t area = std::size_t{128} << 10;  // NodeSegment::kBlockBytes
      const std::size_t chunks = (m + area - 1) / area, last = m - (chunks - 1) * area;
      const double write = kAlpha + static_cast<double>(std::min(m, area)) * kBeta / 2;
      const double expected = static_cast<double>(chunks - 1) * write + (kAlpha + last * kBeta / 2) * 2;
      const double predicted = predict(
          p,
          [&](int rank, Schedule& s) {
            Args args = probe;
            args.rank = rank;
            find_algorithm(Operation::kBcast, "shared_memory")->build(args, s);
          },
          kOneNode, kAllClose);
      EXPECT_NEAR(predicted, expected, 1e-12) << "p " << p << ", m " << m;
    }
}
