// The reduction family on simulated ranks. Every algorithm x p = 1..17 x roots {0, p/2, p-1} x counts {0, 1, 7, 300}
// x operators (MPI_SUM on int, MPI_MAX on double, MPI_MAXLOC on MPI_DOUBLE_INT, and a non-commutative user operator,
// 2x2 matrix product, on a 4-int type both contiguous and with a gap) x in place or not, against a reference
// folded directly from the inputs in rank order; each case on the shared simulated network and on a stricter one
// that catches buffers reused too early. Also: send buffers untouched, a bounded number of tags, schedules that
// run twice (persistent), and an algorithm that keeps rank order for every operation.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/node_segment.hpp"
#include "coll/execution.hpp"
#include "datatype/construct.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"
#include "sim_hierarchy.hpp"
#include "sim_network.hpp"
#include "sweep_sizes.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

using Bytes = std::vector<char>;

// ---- Operators and their references -------------------------------------------------------------------------------

// 2x2 matrices mod 1009: associative, not commutative. The stride in ints between matrices comes in as the
// "datatype handle", which user functions receive untouched, so one function serves the type with and without a gap.
constexpr int kMod = 1009;

void multiply_into(const int* a, int* b) {  // b = a * b
  const int c[4] = {(a[0] * b[0] + a[1] * b[2]) % kMod, (a[0] * b[1] + a[1] * b[3]) % kMod,
                    (a[2] * b[0] + a[3] * b[2]) % kMod, (a[2] * b[1] + a[3] * b[3]) % kMod};
  std::copy(c, c + 4, b);
}

void matrix_product(void* in, void* inout, int* len, int* stride) {
  auto* a = static_cast<int*>(in);
  auto* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) multiply_into(a + i * *stride, b + i * *stride);
}

struct DoubleInt {
  double value;
  int index;
};

template <class T>
T get(const char* p) {
  T t;
  std::memcpy(&t, p, sizeof t);
  return t;
}

template <class T>
void put(char* p, const T& t) {
  std::memcpy(p, &t, sizeof t);
}

// Field by field: a whole DoubleInt would carry its indeterminate padding into the buffers.
void put_pair(char* p, double value, int index) {
  put<double>(p + offsetof(DoubleInt, value), value);
  put<int>(p + offsetof(DoubleInt, index), index);
}

// One operator on one type: how rank r's element i looks, and the reference `acc = lower op acc`.
struct Case {
  const char* name;
  datatype::TypeRef type;
  datatype::Op op;
  int handle;
  void (*make)(int r, std::size_t i, char* element);
  void (*fold)(const char* lower, char* acc);
  bool (*equal)(const char* x, const char* y);
};

std::vector<Case> make_cases() {
  using namespace datatype;
  TypeRef matrix, gapped;
  EXPECT_TRUE(contiguous(4, predefined(kInt), matrix).ok());
  EXPECT_TRUE(resized(matrix, 0, 5 * sizeof(int), gapped).ok());
  auto make_matrix = [](int r, std::size_t i, char* e) {
    for (int j = 0; j < 4; ++j) put<int>(e + j * sizeof(int), static_cast<int>((r + 1) * (j + 3) + i * 7 + j * j) % 10);
  };
  auto fold_matrix = [](const char* lower, char* acc) {
    int a[4], b[4];
    std::memcpy(a, lower, sizeof a);
    std::memcpy(b, acc, sizeof b);
    multiply_into(a, b);
    std::memcpy(acc, b, sizeof b);
  };
  auto equal_matrix = [](const char* x, const char* y) { return std::memcmp(x, y, 4 * sizeof(int)) == 0; };
  return {
      {"sum_int", predefined(kInt), *predefined_op(kOpSum), 0,
       [](int r, std::size_t i, char* e) { put<int>(e, static_cast<int>((r * 31 + i * 7) % 19) - 9); },
       [](const char* lower, char* acc) { put<int>(acc, get<int>(lower) + get<int>(acc)); },
       [](const char* x, const char* y) { return get<int>(x) == get<int>(y); }},
      {"max_double", predefined(kDouble), *predefined_op(kOpMax), 0,
       [](int r, std::size_t i, char* e) { put<double>(e, static_cast<double>((r * 13 + i * 5) % 23) - 11); },
       [](const char* lower, char* acc) { put<double>(acc, std::max(get<double>(lower), get<double>(acc))); },
       [](const char* x, const char* y) { return get<double>(x) == get<double>(y); }},
      {"maxloc_double_int", predefined(kDoubleInt), *predefined_op(kOpMaxloc), 0,
       [](int r, std::size_t i, char* e) {  // few values, so ties (lowest index wins) are common
         put_pair(e, static_cast<double>((r * 5 + i * 3) % 7), static_cast<int>((r * 11 + i) % 13));
       },
       [](const char* lower, char* acc) {
         const auto a = get<DoubleInt>(lower), b = get<DoubleInt>(acc);
         const int index = a.value > b.value ? a.index : b.value > a.value ? b.index : std::min(a.index, b.index);
         put_pair(acc, std::max(a.value, b.value), index);
       },
       [](const char* x, const char* y) {
         const auto a = get<DoubleInt>(x), b = get<DoubleInt>(y);
         return a.value == b.value && a.index == b.index;
       }},
      {"matrix_product", matrix, Op{kOpUser, false, false, matrix_product}, 4, make_matrix, fold_matrix, equal_matrix},
      {"matrix_product_gapped", gapped, Op{kOpUser, false, false, matrix_product}, 5, make_matrix, fold_matrix,
       equal_matrix},
  };
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = make_cases();
  return all;
}

// ---- A stricter network -------------------------------------------------------------------------------------------

// sim::SimNetwork copies a send when it is posted and fills a receive when it is polled, which hides two mistakes a
// real transport punishes: writing a send buffer before the send has completed, and posting a receive before the
// last reader of its buffer has trial. Here a receive is filled the moment both it and its message exist (as RDMA
// into a posted buffer would); a send completes only on the sweep after it was received (as a rendezvous would) and
// must still hold then what it held when posted; receives match messages in the order they were posted (MPI's
// non-overtaking rule). A publish is a send to each of its readers, done once all have read it; a read is a receive
// (sim::SimNetwork checks the node areas' own rules).
class StrictNetwork {
 public:
  explicit StrictNetwork(int ranks);
  coll::Port& port(int rank) { return *ports_[rank]; }
  // Completes the sends received since the last call, checking their buffers.
  void tick();
  std::string error;
  std::size_t moves = 0;

 private:
  struct Transfer {
    bool complete = false;
    void* buf = nullptr;
    std::size_t count = 0;
    datatype::TypeRef type;
    Bytes posted;  // a send's bytes when posted
    std::string what;
    int unreceived = 0;  // a send's or publish's receivers still to take it
    const datatype::Op* op = nullptr;  // a reducing read
    int type_handle = 0;
  };
  struct Key {
    int src, dst, tag;
    auto operator<=>(const Key&) const = default;
  };
  struct Ref {
    int rank, id;
  };
  class StrictPort : public coll::Port {
   public:
    StrictPort(StrictNetwork& net, int rank) : net_(net), rank_(rank) {}
    void prepare(int vertices, int) override { net_.transfers_[rank_].assign(vertices, Transfer{}); }
    void send(int id, int peer, int tag, const void* buf, std::size_t count, const datatype::TypeRef& t) override {
      net_.post(1, {rank_, peer, tag}, {rank_, id}, const_cast<void*>(buf), count, t);
    }
    void recv(int id, int peer, int tag, void* buf, std::size_t count, const datatype::TypeRef& t) override {
      net_.post(0, {peer, rank_, tag}, {rank_, id}, buf, count, t);
    }
    void publish(int id, std::span<const int> readers, int tag, const void* buf, std::size_t count,
                 const datatype::TypeRef& t) override {
      const int n = static_cast<int>(readers.size());
      for (int r : readers) net_.post(n, {rank_, r, kNodeTag + tag}, {rank_, id}, const_cast<void*>(buf), count, t);
    }
    void read(int id, int writer, std::span<const int>, int tag, void* buf, std::size_t count,
              const datatype::TypeRef& t, const datatype::Op* op, int type_handle) override {
      net_.post(0, {writer, rank_, kNodeTag + tag}, {rank_, id}, buf, count, t, op, type_handle);
    }
    bool done(int id, int&, std::string&) override { return net_.transfers_[rank_][id].complete; }

   private:
    StrictNetwork& net_;
    int rank_;
  };

  static constexpr int kNodeTag = 1 << 20;  // publish and read keys, apart from messages
  // `receivers` 0: a receive; else a send (1) or publish taken by that many.
  // A reducing read combines the message into its buffer with `op`.
  void post(int receivers, Key key, Ref ref, void* buf, std::size_t count, const datatype::TypeRef& type,
            const datatype::Op* op = nullptr, int type_handle = 0);
  void match(Ref send, Ref recv, const Key& key);

  std::vector<std::unique_ptr<StrictPort>> ports_;
  std::vector<std::vector<Transfer>> transfers_;
  std::map<Key, std::deque<Ref>> sends_, recvs_;  // posted, not yet matched, oldest first
  std::vector<Ref> received_;                      // sends matched, not yet complete
};

StrictNetwork::StrictNetwork(int ranks) : transfers_(ranks) {
  for (int r = 0; r < ranks; ++r) ports_.push_back(std::make_unique<StrictPort>(*this, r));
}

void StrictNetwork::post(int receivers, Key key, Ref ref, void* buf, std::size_t count, const datatype::TypeRef& type,
                         const datatype::Op* op, int type_handle) {
  const bool sending = receivers > 0;
  Transfer& t = transfers_[ref.rank][ref.id];
  if (t.unreceived == 0)  // else a publish's next reader
    t = Transfer{false, buf, count, type, {}, {}, receivers, op, type_handle};
  if (sending && t.posted.empty()) {
    t.posted.resize(datatype::wire_bytes(*type, count));
    datatype::pack(buf, count, *type, t.posted.data());
  }
  auto& waiting = sending ? recvs_[key] : sends_[key];
  if (waiting.empty()) {
    (sending ? sends_ : recvs_)[key].push_back(ref);
    return;
  }
  const Ref other = waiting.front();
  waiting.pop_front();
  sending ? match(ref, other, key) : match(other, ref, key);
}

void StrictNetwork::match(Ref send, Ref recv, const Key& key) {
  Transfer& s = transfers_[send.rank][send.id];
  Transfer& r = transfers_[recv.rank][recv.id];
  const std::string what = "message from rank " + std::to_string(key.src) + " to rank " + std::to_string(key.dst) +
                           " (tag " + std::to_string(key.tag) + ")";
  s.what = what;
  if (s.posted.size() > datatype::wire_bytes(*r.type, r.count) && error.empty())
    error = what + ": " + std::to_string(s.posted.size()) + " bytes into a smaller receive";
  if (r.op == nullptr) {
    datatype::unpack(s.posted.data(), std::min(s.posted.size(), datatype::wire_bytes(*r.type, r.count)), r.count,
                     *r.type, r.buf);
  } else {  // sim::SimNetwork checks that the layout is contiguous
    Bytes in(static_cast<std::size_t>(r.type->extent()) * r.count);
    datatype::unpack(s.posted.data(), s.posted.size(), r.count, *r.type, in.data() - r.type->lb);
    datatype::reduce(*r.op, in.data() - r.type->lb, r.buf, r.count, *r.type, r.type_handle);
  }
  r.complete = true;
  if (--s.unreceived == 0) received_.push_back(send);
  ++moves;
}

void StrictNetwork::tick() {
  for (const Ref& ref : received_) {
    Transfer& s = transfers_[ref.rank][ref.id];
    Bytes now(s.posted.size());
    datatype::pack(s.buf, s.count, *s.type, now.data());
    if (now != s.posted && error.empty()) error = s.what + ": send buffer changed while in flight";
    s.complete = true;
    ++moves;
  }
  received_.clear();
}

// Builds and runs every rank's schedule on a StrictNetwork, progressing the ranks from the last to the first.
std::string run_strict(int ranks, const std::function<void(int, coll::Schedule&)>& build) {
  StrictNetwork net(ranks);
  std::vector<coll::Schedule> schedules(ranks);
  std::vector<std::unique_ptr<coll::Execution>> runs;
  for (int r = 0; r < ranks; ++r) {
    build(r, schedules[r]);
    runs.push_back(std::make_unique<coll::Execution>(schedules[r], net.port(r)));
  }
  for (int r = ranks - 1; r >= 0; --r) runs[r]->start();
  for (bool all = false; !all;) {
    all = true;
    const std::size_t before = net.moves;
    for (int r = ranks - 1; r >= 0; --r) all = runs[r]->progress() && all;
    net.tick();
    if (!net.error.empty()) return net.error;
    if (!all && net.moves == before) return "deadlock";
  }
  return net.error;
}

// ---- One run ------------------------------------------------------------------------------------------------------

// Rank r's input: `n` elements, the bytes between them (padding, gaps) a fixed pattern.
Bytes input(const Case& k, int r, std::size_t n) {
  const auto extent = static_cast<std::size_t>(k.type->extent());
  Bytes b(n * extent, '\x5a');
  for (std::size_t i = 0; i < n; ++i) k.make(r, i, b.data() + i * extent);
  return b;
}

// Reduce_scatter's uneven blocks: some empty, the others of assorted sizes around `count`.
std::vector<int> uneven_counts(std::size_t count, int p) {
  std::vector<int> counts(p, 0);
  if (count > 0)
    for (int i = 0; i < p; ++i) counts[i] = static_cast<int>((count + 7 * i) % (count + 3));
  return counts;
}

struct Trial {
  const Algorithm& algo;
  const Case& k;
  int p;
  std::size_t count;
  int root;
  bool in_place;
  const sim::Layout* layout = nullptr;  // the hierarchical algorithms: where the ranks run
  bool node_memory = false;             // whether the ranks share the node's memory (Args::shared_memory)
};

std::string describe(const Trial& trial) {
  std::ostringstream out;
  out << operation_name(trial.algo.operation) << " " << trial.algo.name << ", " << trial.k.name << ", p=" << trial.p
      << ", count=" << trial.count << ", root=" << trial.root << (trial.in_place ? ", in place" : "")
      << (trial.layout ? ", " + trial.layout->name : "") << (trial.node_memory ? ", node memory" : "");
  return out.str();
}

// The arguments of every rank, with its input and output buffers.
struct World {
  std::vector<Bytes> send, recv;
  std::vector<Args> args;
  std::vector<int> blocks;  // reduce_scatter(_block): the count of each rank's block
  std::size_t total = 0;    // input elements per rank
};

World set_up(const Trial& trial) {
  World w;
  const Operation op = trial.algo.operation;
  w.total = trial.count;
  if (op == Operation::kReduceScatterBlock) w.blocks.assign(trial.p, static_cast<int>(trial.count));
  if (op == Operation::kReduceScatter) w.blocks = uneven_counts(trial.count, trial.p);
  if (!w.blocks.empty()) w.total = static_cast<std::size_t>(std::accumulate(w.blocks.begin(), w.blocks.end(), 0));
  const auto extent = static_cast<std::size_t>(trial.k.type->extent());
  w.send.resize(trial.p);
  w.recv.resize(trial.p);
  w.args.resize(trial.p);
  for (int r = 0; r < trial.p; ++r) {
    const bool rooted = op == Operation::kReduce;
    const bool in_place = trial.in_place && (!rooted || r == trial.root);
    const std::size_t out = w.blocks.empty() ? trial.count : static_cast<std::size_t>(w.blocks[r]);
    w.send[r] = input(trial.k, r, w.total);
    if (in_place) w.recv[r] = w.send[r];
    else if (!rooted || r == trial.root) w.recv[r] = Bytes(out * extent, '\x77');
    Args& a = w.args[r];
    a.rank = r;
    a.size = trial.p;
    a.root = trial.root;
    a.in_place = in_place;
    a.sendbuf = in_place ? nullptr : w.send[r].data();
    a.recvbuf = w.recv[r].empty() ? nullptr : w.recv[r].data();  // Reduce: nothing at the other ranks
    a.sendcount = a.recvcount = op == Operation::kReduceScatter ? 0 : trial.count;
    a.sendtype = a.recvtype = trial.k.type;
    a.recvcounts = w.blocks;
    a.op = &trial.k.op;
    a.type_handle = trial.k.handle;
    a.segment_bytes = 16;  // segmented_ring: many chunks even at 300 elements, more than its window of 4
    a.node_memory = a.shared_memory = trial.node_memory;
    if (trial.layout) a.hierarchy = sim::hierarchy(*trial.layout, r);
  }
  return w;
}

// "" or the first result that differs from the reference folded, in rank order, from the inputs in `w.send`.
std::string verify(const Trial& trial, const World& w) {
  const auto extent = static_cast<std::size_t>(trial.k.type->extent());
  std::vector<Bytes> prefix(w.send);  // prefix[r] = x0 op x1 op ... op xr, element by element
  for (int r = 1; r < trial.p; ++r)
    for (std::size_t i = 0; i < w.total; ++i)
      trial.k.fold(prefix[r - 1].data() + i * extent, prefix[r].data() + i * extent);
  for (int r = 0; r < trial.p; ++r) {
    const char* expected = nullptr;
    std::size_t n = trial.count;
    switch (trial.algo.operation) {
      case Operation::kReduce:
        if (r == trial.root) expected = prefix[trial.p - 1].data();
        break;
      case Operation::kAllreduce: expected = prefix[trial.p - 1].data(); break;
      case Operation::kScan: expected = prefix[r].data(); break;
      case Operation::kExscan:  // rank 0's recvbuf is undefined
        if (r > 0) expected = prefix[r - 1].data();
        break;
      default: {  // reduce_scatter(_block): rank r's block of the whole reduction
        const int before = std::accumulate(w.blocks.begin(), w.blocks.begin() + r, 0);
        expected = prefix[trial.p - 1].data() + static_cast<std::size_t>(before) * extent;
        n = static_cast<std::size_t>(w.blocks[r]);
      }
    }
    for (std::size_t i = 0; expected != nullptr && i < n; ++i)
      if (!trial.k.equal(w.recv[r].data() + i * extent, expected + i * extent))
        return "rank " + std::to_string(r) + ", element " + std::to_string(i) + " wrong";
  }
  return "";
}

// Runs the algorithm on p simulated ranks and returns "" or the first thing wrong.
std::string check(const Trial& trial) {
  World w = set_up(trial);
  int most_tags = 0;
  const std::string failure = sim::run_all(trial.p, [&](int r, Schedule& s) {
    trial.algo.build(w.args[r], s);
    most_tags = std::max(most_tags, s.tags());
  });
  if (!failure.empty()) return failure;
  if (const std::string strict = verify(trial, w); !strict.empty()) return strict;
  // Again on the strict network, from fresh receive buffers.
  w = set_up(trial);
  if (const std::string strict = run_strict(trial.p, [&](int r, Schedule& s) { trial.algo.build(w.args[r], s); });
      !strict.empty())
    return "strict network: " + strict;
  // Few tags, whatever p and count: each run takes a block of them (the segmented ring: a ring's per chunk in flight).
  // The topology-aware ones: a half of the block for the way down.
  // The shared-memory slices: a tag per slice and piece, and the results' (a reduce-scatter's: none; its blocks have
  // fewer than count + 3 elements). The pipeline: a tag per segment of 16 bytes.
  const std::string name = trial.algo.name;
  const std::size_t chunk = NodeSegment::kBlockBytes / trial.k.type->size;
  const bool scatters = trial.algo.operation == Operation::kReduceScatter ||
                        trial.algo.operation == Operation::kReduceScatterBlock;
  const auto slice_tags = static_cast<int>((trial.p + 1) * ((trial.count / trial.p + 1 + chunk - 1) / chunk));
  const auto scattered_slice_tags = static_cast<int>(trial.p * ((trial.count + 3 + chunk - 1) / chunk));
  const std::size_t per_segment = std::max<std::size_t>(1, 16 / trial.k.type->size);
  const auto segment_tags = static_cast<int>(std::max<std::size_t>(1, (trial.count + per_segment - 1) / per_segment));
  if (most_tags > (name == "segmented_ring"              ? 32
                   : name == "shared_memory_slices"      ? slice_tags
                   : name == "shared_memory" && scatters ? scattered_slice_tags
                   : name == "pipeline"                  ? segment_tags
                   : trial.algo.topology_aware           ? kTagsPerCollective
                                                         : 8))
    return std::to_string(most_tags) + " tags";
  for (int r = 0; r < trial.p; ++r)
    if (w.send[r] != input(trial.k, r, w.total)) return "rank " + std::to_string(r) + "'s send buffer changed";
  return verify(trial, w);
}

bool applies(const Algorithm& algo, const Case& k) {
  Args a;
  a.op = &k.op;
  a.hierarchy = std::make_shared<const Hierarchy>();  // the sweep gives the topology-aware algorithms one
  a.node_memory = a.shared_memory = true;              // and the shared-memory ones the node's memory
  a.sendtype = a.recvtype = k.type;
  return algo.applies == nullptr || algo.applies(a);
}

std::vector<const Algorithm*> all_algorithms() {
  std::vector<const Algorithm*> out;
  for (const Algorithm& a : reduction_algorithms()) out.push_back(&a);
  for (Operation op : {Operation::kReduce, Operation::kAllreduce})
    for (const Algorithm* a : algorithms_for(op))
      if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  return out;
}

// The layouts a trial runs on: the simulated ones for a topology-aware algorithm, else none.
std::vector<sim::Layout> layouts_for(const Algorithm& algo, int p) {
  if (algo.topology_aware) return sim::layouts(p);
  return {sim::Layout{}};
}

// With and without the node's shared memory for the topology-aware algorithms (their levels inside a node may
// choose it); always for those made of it.
std::vector<bool> node_memory_for(const Algorithm& algo) {
  if (algo.topology_aware) return {false, true};
  return {std::string_view(algo.name).starts_with("shared_memory")};
}

// ---- The sweep ----------------------------------------------------------------------------------------------------

class ReductionSweep : public testing::TestWithParam<const Algorithm*> {};

TEST_P(ReductionSweep, MatchesTheRankOrderedReference) {
  const Algorithm& algo = *GetParam();
  int failures = 0;
  for (const Case& k : cases()) {
    if (!applies(algo, k)) continue;
    for (int p : sim::sweep_sizes()) {
      std::vector<int> roots{0};
      if (algo.operation == Operation::kReduce) roots = {0, p / 2, p - 1};
      roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
      const std::vector<sim::Layout> layouts = layouts_for(algo, p);
      for (const sim::Layout& layout : layouts)
        for (bool node_memory : node_memory_for(algo))
          for (std::size_t count : {0, 1, 7, 300})
            for (int root : roots)
              for (bool in_place : {false, true}) {
                const sim::Layout* where = layout.node.empty() ? nullptr : &layout;
                const Trial trial{algo, k, p, count, root, in_place, where, node_memory};
                const std::string failure = check(trial);
                if (failure.empty()) continue;
                ADD_FAILURE() << describe(trial) << ": " << failure;
                if (++failures == 5) return;
              }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Reduction, ReductionSweep, testing::ValuesIn(all_algorithms()),
                         [](const testing::TestParamInfo<const Algorithm*>& info) {
                           return std::string(operation_name(info.param->operation)) + "_" + info.param->name;
                         });

// A level of a hierarchical allreduce with a large vector runs a segmented ring on the schedule's scratch.
TEST(ReductionHierarchical, LevelsWithLargeVectors) {
  const Algorithm& algo = *find_algorithm(Operation::kAllreduce, "hierarchical");
  for (const sim::Layout& layout : sim::layouts(5))
    for (bool in_place : {false, true}) {
      const Trial trial{algo, cases()[0], 5, 70000, 0, in_place, &layout};
      EXPECT_EQ(check(trial), "") << describe(trial);
    }
}

// The shared-memory reduce, allreduce, scan and exscan on vectors of three areas' chunks: reduced straight from the
// node's memory (contiguous types) or read into scratch first (gapped ones), in rank order either way. The slices:
// each slice in several pieces, more than a writer has areas (each rank's slice, and the vector, outgrow them).
TEST(ReductionSharedMemory, LongVectorsInChunks) {
  for (const auto& [op, name] : {std::pair{Operation::kReduce, "shared_memory"},
                                 {Operation::kAllreduce, "shared_memory"},
                                 {Operation::kAllreduce, "shared_memory_slices"},
                                 {Operation::kScan, "shared_memory"},
                                 {Operation::kExscan, "shared_memory"}}) {
    const Algorithm& algo = *find_algorithm(op, name);
    for (const Case& k : cases())
      for (int p : {3, 5})
        for (bool in_place : {false, true}) {
          if (!applies(algo, k)) continue;
          const std::size_t areas = std::string_view(name) == "shared_memory" ? 7 : 6 * p;  // 6 pieces per slice
          const std::size_t count = areas * NodeSegment::kBlockBytes / k.type->size + 7;
          const Trial trial{algo, k, p, count, p / 2, in_place, nullptr, true};
          EXPECT_EQ(check(trial), "") << describe(trial);
        }
  }
}

// ---- Association ---------------------------------------------------------------------------------------------------

// x0 + ... + x(m-1) as recursive doubling in MPICH and Open MPI associates it: the first 2 rem inputs in pairs
// (rem = m - pof2), then the pof2 runs paired again and again.
double recursive_doubling_sum(const std::vector<double>& x) {
  const std::size_t rem = x.size() - std::bit_floor(x.size());
  std::vector<double> runs;
  for (std::size_t i = 0; i < x.size(); i += i < 2 * rem ? 2 : 1) runs.push_back(i < 2 * rem ? x[i] + x[i + 1] : x[i]);
  for (std::vector<double> next; runs.size() > 1; runs.swap(next), next.clear())
    for (std::size_t i = 0; i < runs.size(); i += 2) next.push_back(runs[i] + runs[i + 1]);
  return runs[0];
}

// The algorithms that fold every input in one place sum doubles bit for bit as recursive doubling does, so that a
// program's results on one node match other MPI libraries' (hypre's regression tests compare them to 0 ulp). The
// inputs have full mantissas and both signs, so almost every addition rounds, and another association differs.
TEST(ReductionAssociation, SumsOfDoublesMatchRecursiveDoubling) {
  const Case spread{"sum_double_spread", datatype::predefined(datatype::kDouble),
                    *datatype::predefined_op(datatype::kOpSum), 0,
                    [](int r, std::size_t i, char* e) {
                      uint64_t h = (static_cast<uint64_t>(r) << 32 | i) * 0x9e3779b97f4a7c15ULL;  // a hash of (r, i)
                      h ^= h >> 29;
                      const double mantissa = 1.0 + std::ldexp(static_cast<double>(h >> 12), -52);
                      put<double>(e, std::ldexp(h & 4 ? -mantissa : mantissa, static_cast<int>(h & 3)));
                    },
                    nullptr, nullptr};
  for (const auto& [op, name] : {std::pair{Operation::kAllreduce, "recursive_doubling"},
                                 {Operation::kAllreduce, "shared_memory"},
                                 {Operation::kAllreduce, "shared_memory_slices"},
                                 {Operation::kReduce, "shared_memory"}})
    for (int p = 1; p <= 17; ++p) {
      const std::size_t count = 2 * static_cast<std::size_t>(p) + 3;  // every slice gets elements
      const Trial trial{*find_algorithm(op, name), spread, p, count, p - 1, false, nullptr, true};
      World w = set_up(trial);
      ASSERT_EQ(sim::run_all(p, [&](int r, Schedule& s) { trial.algo.build(w.args[r], s); }), "") << describe(trial);
      for (std::size_t i = 0; i < count; ++i) {
        std::vector<double> x;
        for (int r = 0; r < p; ++r) x.push_back(get<double>(w.send[r].data() + i * sizeof(double)));
        const double want = recursive_doubling_sum(x);
        for (int r = op == Operation::kReduce ? p - 1 : 0; r < p; ++r)
          EXPECT_EQ(get<double>(w.recv[r].data() + i * sizeof(double)), want)
              << describe(trial) << ", rank " << r << ", element " << i;
      }
    }
}

// A persistent collective builds once and starts again: the second run must see the new inputs, scratch reset.
TEST(ReductionPersistent, SchedulesRunTwice) {
  const Case& k = cases()[3];  // the matrix product, so the order shows too
  for (const Algorithm* algo : all_algorithms()) {
    if (!applies(*algo, k)) continue;
    for (int p : {5, 8}) {
      const std::vector<sim::Layout> layouts = layouts_for(*algo, p);
      const Trial trial{*algo, k, p, 7, p - 1, false, layouts.back().node.empty() ? nullptr : &layouts.back(),
                        node_memory_for(*algo).back()};
      World w = set_up(trial);
      std::vector<Schedule> schedules(p);
      std::vector<std::unique_ptr<Execution>> runs;
      sim::SimNetwork net(p);
      for (int r = 0; r < p; ++r) {
        algo->build(w.args[r], schedules[r]);
        runs.push_back(std::make_unique<Execution>(schedules[r], net.port(r)));
      }
      for (int round = 0; round < 2; ++round) {
        if (round == 1) {  // new inputs in the same buffers: rank r's are rank p-1-r's of the first round
          const std::vector<Bytes> before = w.send;
          for (int r = 0; r < p; ++r) std::copy(before[p - 1 - r].begin(), before[p - 1 - r].end(), w.send[r].begin());
        }
        for (auto& e : runs) e->start();
        for (bool all = false; !all;) {
          all = true;
          for (auto& e : runs) all = e->progress() && all;
        }
        for (auto& e : runs) ASSERT_EQ(e->error(), 0) << e->message();
        EXPECT_EQ(verify(trial, w), "") << describe(trial) << ", round " << round;
      }
    }
  }
}

// ---- The registry -------------------------------------------------------------------------------------------------

TEST(ReductionRegistry, EveryOperationServesNonCommutativeOperators) {
  const Case& k = cases()[3];
  for (Operation op : {Operation::kReduce, Operation::kAllreduce, Operation::kReduceScatter,
                       Operation::kReduceScatterBlock, Operation::kScan, Operation::kExscan}) {
    int usable = 0;
    for (const Algorithm& a : reduction_algorithms()) usable += a.operation == op && applies(a, k);
    EXPECT_GT(usable, 0) << operation_name(op);
  }
}

TEST(ReductionRegistry, RingsAndPairwiseRefuseNonCommutativeOperators) {
  const Case& k = cases()[3];
  EXPECT_FALSE(applies(*find_algorithm(Operation::kAllreduce, "segmented_ring"), k));
  for (Operation op : {Operation::kAllreduce, Operation::kReduceScatter, Operation::kReduceScatterBlock}) {
    EXPECT_FALSE(applies(*find_algorithm(op, "ring"), k)) << operation_name(op);
    EXPECT_TRUE(applies(*find_algorithm(op, "ring"), cases()[0])) << operation_name(op);
  }
  EXPECT_FALSE(applies(*find_algorithm(Operation::kReduceScatter, "pairwise"), k));
}

TEST(ReductionRegistry, NamesPerOperation) {
  EXPECT_EQ(algorithm_names(Operation::kReduce),
            "linear, binomial, pipeline, reduce_scatter_gather, shared_memory, hierarchical, grouped");
  EXPECT_EQ(algorithm_names(Operation::kAllreduce),
            "reduce_bcast, recursive_doubling, ring, rabenseifner, segmented_ring, shared_memory, "
            "shared_memory_slices, hierarchical, multi_leader, grouped");
  EXPECT_EQ(algorithm_names(Operation::kReduceScatter), "ring, pairwise, reduce_scatterv, shared_memory");
  EXPECT_EQ(algorithm_names(Operation::kReduceScatterBlock), "ring, pairwise, reduce_scatterv, shared_memory");
  EXPECT_EQ(algorithm_names(Operation::kScan), "linear, recursive_doubling, shared_memory");
  EXPECT_EQ(algorithm_names(Operation::kExscan), "linear, recursive_doubling, shared_memory");
}

}  // namespace
