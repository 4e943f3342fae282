// The rooted family (barrier, bcast, gather, gatherv, scatter, scatterv) on 1..17 simulated ranks. Every registered
// algorithm runs for roots 0, p/2 and p - 1, counts 0, 1, 7 and 1000 (several 256-byte pipeline segments), types int,
// double, a derived type with gaps and, for gather and scatter, a pair of layouts with one signature, and with and
// without MPI_IN_PLACE where the operation allows it. Results are compared byte for byte with a reference written
// from the inputs: received blocks hold the expected values, gaps and bytes nobody should write keep a sentinel, send
// buffers are unchanged, and no rank uses a tag twice with one peer in one direction. Arguments that only the root
// may read are garbage elsewhere. A barrier is checked by holding one rank back: nobody may leave before it arrives.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/execution.hpp"
#include "coll/node_segment.hpp"
#include "datatype/construct.hpp"
#include "datatype/predefined.hpp"
#include "sim_hierarchy.hpp"
#include "sim_network.hpp"
#include "sweep_sizes.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

// ---- Types and buffers, described independently of the library ----------------------------------------------------

// A datatype as the test knows it: one element's extent and the byte offsets of its basic elements, in order.
struct TypeMap {
  datatype::TypeRef type;
  std::ptrdiff_t extent;
  std::vector<std::ptrdiff_t> at;
  bool is_double;
};

TypeMap int_map() { return {datatype::predefined(datatype::kInt), 4, {0}, false}; }
TypeMap double_map() { return {datatype::predefined(datatype::kDouble), 8, {0}, true}; }
// vector(2, 1, 3, int) resized to 20 bytes: ints at bytes 0 and 12; 4..12 and 16..20 are gaps.
TypeMap gappy_map() {
  datatype::TypeRef vec, out;
  EXPECT_TRUE(datatype::vector(2, 1, 3, datatype::predefined(datatype::kInt), vec).ok());
  EXPECT_TRUE(datatype::resized(vec, 0, 20, out).ok());
  return {out, 20, {0, 12}, false};
}

// The root's side (Gather's recvtype, Scatter's sendtype) and everyone's own side; one own element is `ratio` root
// elements. Bcast uses only the pairs of one type.
struct Types {
  const char* name;
  TypeMap root, own;
  std::size_t ratio;
};
const std::vector<Types>& type_pairs() {
  static const std::vector<Types> pairs = {{"int", int_map(), int_map(), 1},
                                           {"double", double_map(), double_map(), 1},
                                           {"gappy", gappy_map(), gappy_map(), 1},
                                           {"gappy as 2 ints at the root", int_map(), gappy_map(), 2}};
  return pairs;
}

const datatype::TypeRef kJunkType = datatype::predefined(datatype::kDouble);  // for arguments only the root reads
constexpr std::size_t kJunkCount = 77;

// `count` elements of `extent` bytes with guard bytes on both sides, all set to the sentinel.
struct Buffer {
  static constexpr std::size_t kGuard = 64;
  static constexpr unsigned char kSentinel = 0xA5;
  std::vector<unsigned char> bytes;
  explicit Buffer(std::size_t count = 0, std::ptrdiff_t extent = 0)
      : bytes(count * static_cast<std::size_t>(extent) + 2 * kGuard, kSentinel) {}
  unsigned char* data() { return bytes.data() + kGuard; }
};

// Basic element n of rank r's input: distinct for every rank and position.
long value(int rank, std::size_t n) { return rank * 1'000'000L + static_cast<long>(n) + 1; }

// Basic elements [first, first + n) of `b` (elements of `t`) get rank's values from position `from` on.
void fill(Buffer& b, const TypeMap& t, std::size_t first, std::size_t n, int rank, std::size_t from = 0) {
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t e = first + k;
    unsigned char* where = b.data() + (e / t.at.size()) * t.extent + t.at[e % t.at.size()];
    const long v = value(rank, from + k);
    if (t.is_double) {
      const double d = static_cast<double>(v) + 0.25;
      std::memcpy(where, &d, sizeof d);
    } else {
      const int i = static_cast<int>(v);
      std::memcpy(where, &i, sizeof i);
    }
  }
}

// ---- Running a case -----------------------------------------------------------------------------------------------

// Every rank's arguments and buffers, and what its receive buffer must hold afterwards.
struct World {
  std::vector<Args> args;
  std::vector<Buffer> send, recv, want;
  explicit World(int p, const Args& base) : args(p, base), send(p), recv(p), want(p) {
    for (int r = 0; r < p; ++r) args[r].rank = r, args[r].size = p;
  }
};

// A send or receive that repeats (direction, peer, tag) could match the other's message.
std::string tag_clash(const Schedule& s) {
  std::set<std::tuple<Kind, int, int>> seen;
  for (const Vertex& v : s.vertices())
    if ((v.kind == Kind::kSend || v.kind == Kind::kRecv) && !seen.insert({v.kind, v.peer, v.tag}).second)
      return std::string(v.kind == Kind::kSend ? "send to " : "receive from ") + std::to_string(v.peer) +
             " with tag " + std::to_string(v.tag) + " twice";
  return "";
}

std::string first_difference(const Buffer& got, const Buffer& want) {
  if (got.bytes.size() != want.bytes.size()) return "buffer sizes differ";
  for (std::size_t i = 0; i < got.bytes.size(); ++i)
    if (got.bytes[i] != want.bytes[i])
      return "byte " + std::to_string(static_cast<long>(i) - static_cast<long>(Buffer::kGuard)) + " is " +
             std::to_string(got.bytes[i]) + ", expected " + std::to_string(want.bytes[i]);
  return "";
}

::testing::AssertionResult run(const Algorithm& algorithm, World& w) {
  const int p = static_cast<int>(w.args.size());
  const std::vector<Buffer> sent = w.send;
  std::string clash;
  const std::string failure = sim::run_all(p, [&](int r, Schedule& s) {
    algorithm.build(w.args[r], s);
    if (std::string c = tag_clash(s); !c.empty() && clash.empty()) clash = "rank " + std::to_string(r) + ": " + c;
  });
  if (!failure.empty()) return ::testing::AssertionFailure() << failure;
  if (!clash.empty()) return ::testing::AssertionFailure() << clash;
  for (int r = 0; r < p; ++r) {
    if (std::string d = first_difference(w.recv[r], w.want[r]); !d.empty())
      return ::testing::AssertionFailure() << "rank " << r << " recvbuf: " << d;
    if (std::string d = first_difference(w.send[r], sent[r]); !d.empty())
      return ::testing::AssertionFailure() << "rank " << r << " sendbuf changed: " << d;
  }
  return ::testing::AssertionSuccess();
}

// ---- The operations' worlds and references ------------------------------------------------------------------------

World bcast_world(const Args& base, const Types& types, std::size_t count) {
  const TypeMap& t = types.own;
  World w(base.size, base);
  for (int r = 0; r < base.size; ++r) {
    w.recv[r] = w.want[r] = Buffer(count, t.extent);
    fill(w.want[r], t, 0, count * t.at.size(), base.root);
    w.args[r].recvbuf = w.recv[r].data();
    w.args[r].recvcount = count;
    w.args[r].recvtype = t.type;
  }
  fill(w.recv[base.root], t, 0, count * t.at.size(), base.root);
  return w;
}

// Where each rank's block lies at the root: `own[r]` own elements at `displ[r]` root elements. The v variants give
// ranks 0, c/2 or c elements and lay the blocks out backwards with one element of gap between them.
struct Blocks {
  std::vector<std::size_t> own;
  std::vector<int> displ;
  std::size_t root_elements = 0;
};
Blocks blocks(int p, std::size_t count, std::size_t ratio, bool v) {
  Blocks b;
  for (int r = 0; r < p; ++r) b.own.push_back(v ? (r + 1) % 3 * count / 2 : count);
  b.displ.resize(p);
  for (int r = v ? p - 1 : 0; r >= 0 && r < p; r += v ? -1 : 1) {
    b.displ[r] = static_cast<int>(b.root_elements);
    b.root_elements += b.own[r] * ratio + (v ? 1 : 0);
  }
  return b;
}
std::vector<int> as_ints(const std::vector<std::size_t>& counts, std::size_t ratio) {
  std::vector<int> out;
  for (std::size_t c : counts) out.push_back(static_cast<int>(c * ratio));
  return out;
}

World gather_world(const Args& base, const Types& types, std::size_t count, bool v) {
  const int p = base.size, root = base.root;
  const TypeMap &at_root = types.root, &own = types.own;
  const Blocks b = blocks(p, count, types.ratio, v);
  World w(p, base);
  for (int r = 0; r < p; ++r) {
    Args& a = w.args[r];
    a.recvbuf = nullptr, a.recvcount = kJunkCount, a.recvtype = kJunkType;
    if (r == root && base.in_place) {
      a.sendbuf = nullptr, a.sendcount = kJunkCount, a.sendtype = kJunkType;
      continue;
    }
    w.send[r] = Buffer(b.own[r], own.extent);
    fill(w.send[r], own, 0, b.own[r] * own.at.size(), r);
    a.sendbuf = w.send[r].data(), a.sendcount = b.own[r], a.sendtype = own.type;
  }
  w.recv[root] = w.want[root] = Buffer(b.root_elements, at_root.extent);
  for (int r = 0; r < p; ++r)
    fill(w.want[root], at_root, b.displ[r] * at_root.at.size(), b.own[r] * own.at.size(), r);
  if (base.in_place) fill(w.recv[root], at_root, b.displ[root] * at_root.at.size(), b.own[root] * own.at.size(), root);
  Args& a = w.args[root];
  a.recvbuf = w.recv[root].data(), a.recvcount = count * types.ratio, a.recvtype = at_root.type;
  if (v) a.recvcounts = as_ints(b.own, types.ratio), a.rdispls = b.displ;
  return w;
}

World scatter_world(const Args& base, const Types& types, std::size_t count, bool v) {
  const int p = base.size, root = base.root;
  const TypeMap &at_root = types.root, &own = types.own;
  const Blocks b = blocks(p, count, types.ratio, v);
  World w(p, base);
  for (int r = 0; r < p; ++r) {
    Args& a = w.args[r];
    a.sendbuf = nullptr, a.sendcount = kJunkCount, a.sendtype = kJunkType;
    if (r == root && base.in_place) {
      a.recvbuf = nullptr, a.recvcount = kJunkCount, a.recvtype = kJunkType;
      continue;
    }
    w.recv[r] = w.want[r] = Buffer(b.own[r], own.extent);
    fill(w.want[r], own, 0, b.own[r] * own.at.size(), root, b.displ[r] * at_root.at.size());
    a.recvbuf = w.recv[r].data(), a.recvcount = b.own[r], a.recvtype = own.type;
  }
  w.send[root] = Buffer(b.root_elements, at_root.extent);
  fill(w.send[root], at_root, 0, b.root_elements * at_root.at.size(), root);
  Args& a = w.args[root];
  a.sendbuf = w.send[root].data(), a.sendcount = count * types.ratio, a.sendtype = at_root.type;
  if (v) a.sendcounts = as_ints(b.own, types.ratio), a.sdispls = b.displ;
  return w;
}

// ---- The sweep ----------------------------------------------------------------------------------------------------

using MakeWorld = World (*)(const Args&, const Types&, std::size_t);

// Every algorithm registered for `op`, every p in 1..17 (sweep_sizes), roots 0, p/2, p - 1, every count and type
// pair, with and without MPI_IN_PLACE when `in_place` allows; stops at the first failure.
// The topology-aware algorithms run on each of the simulated layouts (sim_hierarchy.hpp), with and without node
// shared memory (which their levels inside a node may then choose).
void sweep(Operation op, MakeWorld make, bool in_place, bool one_type_only) {
  int algorithms = 0;
  for (const Algorithm* algorithm : algorithms_for(op)) {
    ++algorithms;
    const bool knomial = std::string_view(algorithm->name) == "knomial";
    const bool topology = algorithm->topology_aware;
    const std::vector<int> radixes = knomial ? std::vector{0, 3, 100} : std::vector{0};  // 0: the default, 4
    for (int radix : radixes)
      for (int p : sim::sweep_sizes())
        for (const sim::Layout& layout : topology ? sim::layouts(p) : std::vector<sim::Layout>{sim::Layout{}})
          for (bool node_memory : topology ? std::vector{false, true} : std::vector{true})
            for (int root : std::set<int>{0, p / 2, p - 1})
              for (std::size_t count : {0, 1, 7, 1000})
                for (const Types& types : type_pairs()) {
                  if (one_type_only && types.ratio != 1) continue;
                  for (bool place : in_place ? std::vector{false, true} : std::vector{false}) {
                    Args base;
                    base.size = p, base.root = root, base.in_place = place, base.segment_bytes = 256;
                    base.radix = radix;
                    base.node_memory = base.shared_memory = node_memory;
                    World w = make(base, types, count);
                    if (topology)
                      for (int r = 0; r < p; ++r) w.args[r].hierarchy = sim::hierarchy(layout, r);
                    ASSERT_TRUE(run(*algorithm, w))
                        << operation_name(op) << " " << algorithm->name << " radix " << radix << ", p " << p << ", "
                        << layout.name << ", root " << root << ", count " << count << ", " << types.name
                        << (place ? ", in place" : "") << (node_memory ? ", node memory" : "");
                  }
                }
  }
  EXPECT_GT(algorithms, 0) << operation_name(op);
}

TEST(RootedRegistry, ListsEveryAlgorithm) {
  EXPECT_EQ(algorithm_names(Operation::kBarrier),
            "linear, dissemination, recursive_doubling, shared_memory, hierarchical");
  EXPECT_EQ(algorithm_names(Operation::kBcast),
            "linear, binomial, knomial, pipeline, scatter_allgather, shared_memory, hierarchical, multi_lane, "
            "distance_aware, grouped");
  EXPECT_EQ(algorithm_names(Operation::kGather), "linear, binomial, hierarchical");
  EXPECT_EQ(algorithm_names(Operation::kGatherv), "linear");
  EXPECT_EQ(algorithm_names(Operation::kScatter), "linear, binomial, hierarchical");
  EXPECT_EQ(algorithm_names(Operation::kScatterv), "linear");
}

TEST(RootedSweep, Bcast) { sweep(Operation::kBcast, bcast_world, false, true); }
TEST(RootedSweep, Gather) {
  sweep(Operation::kGather, [](const Args& a, const Types& t, std::size_t c) { return gather_world(a, t, c, false); },
        true, false);
}
TEST(RootedSweep, Gatherv) {
  sweep(Operation::kGatherv, [](const Args& a, const Types& t, std::size_t c) { return gather_world(a, t, c, true); },
        true, false);
}
TEST(RootedSweep, Scatter) {
  sweep(Operation::kScatter, [](const Args& a, const Types& t, std::size_t c) { return scatter_world(a, t, c, false); },
        true, false);
}
TEST(RootedSweep, Scatterv) {
  sweep(Operation::kScatterv, [](const Args& a, const Types& t, std::size_t c) { return scatter_world(a, t, c, true); },
        true, false);
}

// ---- Barrier: nobody leaves early ---------------------------------------------------------------------------------

// Runs every rank's execution that has started until no message moves any more.
void drain(sim::SimNetwork& net, std::vector<std::unique_ptr<Execution>>& runs, const std::vector<bool>& started) {
  for (std::size_t moved = 1; moved != 0;) {
    const std::size_t before = net.messages_sent + net.messages_received;
    for (std::size_t r = 0; r < runs.size(); ++r)
      if (started[r]) runs[r]->progress();
    moved = net.messages_sent + net.messages_received - before;
  }
}

TEST(RootedBarrier, NobodyLeavesBeforeTheLastArrives) {
  for (const Algorithm* algorithm : algorithms_for(Operation::kBarrier)) {
    const bool topology = algorithm->topology_aware;
    for (int p = 1; p <= 17; ++p)
      for (const sim::Layout& layout : topology ? sim::layouts(p) : std::vector<sim::Layout>{sim::Layout{}})
        for (int late = 0; late < p; ++late) {
          const std::string what = std::string(algorithm->name) + ", p " + std::to_string(p) + " " + layout.name +
                                   ", late rank " + std::to_string(late);
          sim::SimNetwork net(p);
          std::vector<Schedule> schedules(p);
          std::vector<std::unique_ptr<Execution>> runs;
          std::vector<bool> started(p, false);
          for (int r = 0; r < p; ++r) {
            Args a;
            a.rank = r, a.size = p;
            if (topology) a.hierarchy = sim::hierarchy(layout, r);
            algorithm->build(a, schedules[r]);
            ASSERT_EQ(tag_clash(schedules[r]), "") << what << ", rank " << r;
            runs.push_back(std::make_unique<Execution>(schedules[r], net.port(r)));
          }
          for (int r = 0; r < p; ++r)
            if (r != late) runs[r]->start(), started[r] = true;
          drain(net, runs, started);
          for (int r = 0; r < p; ++r)
            if (r != late && runs[r]->finished()) ADD_FAILURE() << what << ": rank " << r << " left early";
          runs[late]->start(), started[late] = true;
          drain(net, runs, started);
          for (int r = 0; r < p; ++r) ASSERT_TRUE(runs[r]->finished()) << what << ": rank " << r << " never left";
          for (const auto& [key, queue] : net.mailbox)
            ASSERT_TRUE(queue.empty()) << what << ": a message was left over";
        }
  }
}

// ---- Shapes: the algorithms are what their names say --------------------------------------------------------------

Schedule build(Operation op, const char* name, const Args& a) {
  Schedule s;
  find_algorithm(op, name)->build(a, s);
  return s;
}
std::vector<std::size_t> send_counts(const Schedule& s) {
  std::vector<std::size_t> out;
  for (const Vertex& v : s.vertices())
    if (v.kind == Kind::kSend) out.push_back(v.a.count);
  return out;
}

// Segments are cut from the packed bytes (so ranks that describe the buffer with different types cut alike).
TEST(RootedShape, PipelineSegmentsAreBytesOfThePackedBuffer) {
  const auto dbl = datatype::predefined(datatype::kDouble), i32 = datatype::predefined(datatype::kInt);
  struct Case {
    std::size_t segment_bytes;
    datatype::TypeRef type;
    std::size_t count;
    std::vector<std::size_t> segments;
  } cases[] = {{100, dbl, 30, {100, 100, 40}},
               {2, dbl, 3, std::vector<std::size_t>(12, 2)},
               {0, i32, 20000, {65536, 14464}}};  // 0: 64 KiB
  for (const Case& c : cases) {
    Args a;
    a.size = 3, a.recvcount = c.count, a.recvtype = c.type, a.segment_bytes = c.segment_bytes;
    EXPECT_EQ(send_counts(build(Operation::kBcast, "pipeline", a)), c.segments) << c.segment_bytes;
  }
}

TEST(RootedShape, TagsFitACollectivesBlock) {
  constexpr int kBlock = 1 << 12;  // kTagsPerCollective
  Args a;
  a.size = 3, a.recvcount = 3 * kBlock + 1, a.recvtype = datatype::predefined(datatype::kInt), a.segment_bytes = 4;
  const Schedule s = build(Operation::kBcast, "pipeline", a);  // 4-byte segments would need 3 * kBlock + 1 tags
  EXPECT_LE(s.tags(), kBlock);
  EXPECT_EQ(send_counts(s).front(), (4 * a.recvcount + kBlock - 1) / kBlock);
  const Algorithm* ring = find_algorithm(Operation::kBcast, "scatter_allgather");
  a.size = kBlock;
  EXPECT_TRUE(ring->applies(a));
  a.size = kBlock + 1;
  EXPECT_FALSE(ring->applies(a));
}

// The shared-memory bcast: the root writes each chunk of a node area once, every other rank reads it once; a buffer
// larger than an area crosses it in chunks, and every rank ends with the root's bytes.
TEST(RootedShape, SharedMemoryBcastWritesEachChunkOnceForEveryReader) {
  const auto byte = datatype::predefined(datatype::kByte);
  const std::size_t n = 2 * NodeSegment::kBlockBytes + 1000;  // three chunks
  for (int p : {2, 3, 5}) {
    for (int root : {0, p - 1}) {
      std::vector<std::vector<char>> buf(p, std::vector<char>(n));
      for (std::size_t i = 0; i < n; ++i) buf[root][i] = static_cast<char>(i * 7 + 3);
      std::vector<Schedule> built(p);
      const std::string failure = sim::run_all(p, [&](int r, Schedule& s) {
        Args a;
        a.size = p, a.rank = r, a.root = root, a.recvbuf = buf[r].data(), a.recvcount = n, a.recvtype = byte;
        a.node_memory = a.shared_memory = true;
        find_algorithm(Operation::kBcast, "shared_memory")->build(a, s);
        built[r] = s;
      });
      ASSERT_EQ(failure, "") << "p " << p << ", root " << root;
      for (int r = 0; r < p; ++r) {
        EXPECT_EQ(buf[r], buf[root]) << "rank " << r;
        std::size_t publishes = 0, reads = 0;
        for (const Vertex& v : built[r].vertices()) {
          publishes += v.kind == Kind::kPublish;
          reads += v.kind == Kind::kRead;
          if (transfers(v.kind) && v.kind != Kind::kSend && v.kind != Kind::kRecv) {
            EXPECT_EQ(built[r].group(v).size(), std::size_t(p - 1));
          }
        }
        EXPECT_EQ(publishes, r == root ? 3u : 0u) << "rank " << r;
        EXPECT_EQ(reads, r == root ? 0u : 3u) << "rank " << r;
      }
    }
  }
}

// It applies only where the call's ranks share the node's memory, and while its chunks have tags enough.
TEST(RootedShape, SharedMemoryBcastNeedsNodeMemoryAndTags) {
  const Algorithm* shared = find_algorithm(Operation::kBcast, "shared_memory");
  Args a;
  a.size = 4, a.recvcount = 10, a.recvtype = datatype::predefined(datatype::kInt);
  EXPECT_FALSE(shared->applies(a));
  a.node_memory = a.shared_memory = true;
  EXPECT_TRUE(shared->applies(a));
  a.tag_limit = 2;
  a.recvcount = 2 * NodeSegment::kBlockBytes / 4;
  EXPECT_TRUE(shared->applies(a));
  a.recvcount += 1;
  EXPECT_FALSE(shared->applies(a));
  a.recvcount = 1, a.size = NodeSegment::kMostRanks + 1;
  EXPECT_FALSE(shared->applies(a));
}

TEST(RootedShape, TreesSendLogarithmicallyFromTheRoot) {
  for (int p = 1; p <= 17; ++p) {
    Args a;
    a.size = p, a.root = p - 1, a.rank = p - 1, a.recvcount = 1, a.recvtype = datatype::predefined(datatype::kInt);
    const auto log = [p](double k) { return static_cast<std::size_t>(std::ceil(std::log(p) / std::log(k) - 1e-9)); };
    EXPECT_EQ(send_counts(build(Operation::kBcast, "binomial", a)).size(), log(2)) << p;
    EXPECT_LE(send_counts(build(Operation::kBcast, "knomial", a)).size(), 3 * log(4)) << p;
    EXPECT_EQ(send_counts(build(Operation::kBcast, "linear", a)).size(), static_cast<std::size_t>(p - 1)) << p;
    a.rank = 0;
    EXPECT_EQ(send_counts(build(Operation::kBarrier, "dissemination", a)).size(), log(2)) << p;
  }
}

// ---- Multi-lane bcast: who carries the sends across the network ---------------------------------------------------

// The messages between nodes of a bcast of one int by `algorithm` on `nodes` nodes of `per_node` ranks in block
// order, as (sender, receiver) pairs.
std::set<std::pair<int, int>> sends_between_nodes(const char* algorithm, int nodes, int per_node, int root) {
  sim::Layout l;
  for (int r = 0; r < nodes * per_node; ++r) l.node.push_back(r / per_node), l.core.push_back(r % per_node);
  std::set<std::pair<int, int>> out;
  for (int r = 0; r < nodes * per_node; ++r) {
    Args a;
    a.size = nodes * per_node, a.rank = r, a.root = root;
    a.recvcount = 1, a.recvtype = datatype::predefined(datatype::kInt);
    a.hierarchy = sim::hierarchy(l, r);
    Schedule s;
    find_algorithm(Operation::kBcast, algorithm)->build(a, s);
    for (const Vertex& v : s.vertices())
      if (v.kind == Kind::kSend && v.peer / per_node != r / per_node) out.insert({r, v.peer});
  }
  return out;
}

// 4 nodes of 2: the binomial tree over the nodes, vranks relative to the root's node, sends node 0 -> 2 and 0 -> 1,
// then 2 -> 3. The hierarchical bcast's root node sends both; the multi-lane one's first child gets it from the
// root's node's leader and the second from the node's other rank, and node 2's one send leaves from its other rank
// (its leader took the data from the network).
TEST(MultiLaneBcast, ANodesRanksShareItsSendsAcrossTheNetwork) {
  using Sends = std::set<std::pair<int, int>>;
  EXPECT_EQ(sends_between_nodes("hierarchical", 4, 2, 0), (Sends{{0, 4}, {0, 2}, {4, 6}}));
  EXPECT_EQ(sends_between_nodes("multi_lane", 4, 2, 0), (Sends{{0, 4}, {1, 2}, {5, 6}}));
  // Root 3 (node 1, whose leader it is; rank 2 is its other lane): nodes 1 -> 3, 1 -> 2, then 3 -> 0 from rank 7.
  EXPECT_EQ(sends_between_nodes("multi_lane", 4, 2, 3), (Sends{{3, 6}, {2, 4}, {7, 0}}));
  // 8 nodes of 2 from root 0: node 0 sends to 4, 2 and 1 (lanes 0, 1, then 0 again); node 4 to 6 and 5 (two sends
  // for two ranks: leader first); node 2 to 3 and node 6 to 7, each from its second rank.
  EXPECT_EQ(sends_between_nodes("multi_lane", 8, 2, 0),
            (Sends{{0, 8}, {1, 4}, {0, 2}, {8, 12}, {9, 10}, {5, 6}, {13, 14}}));
  // 4 nodes of 1: a single lane each, the binomial tree over the nodes.
  EXPECT_EQ(sends_between_nodes("multi_lane", 4, 1, 0), (Sends{{0, 2}, {0, 1}, {2, 3}}));
  // 2 nodes of 4: the root's node has one send, which its leader makes.
  EXPECT_EQ(sends_between_nodes("multi_lane", 2, 4, 0), (Sends{{0, 4}}));
}
}  // namespace
