// The grouped family (coll/algorithms/grouped.cpp). The sweeps of reduction_test.cpp and rooted_test.cpp run it with
// the default G; here: the group pattern, results for explicit G (1, 2, 3, 4, p, more than p; dividing p or not) and a
// forced inner algorithm against references folded in rank order, re-runs, tag limits, and the cost analysis of the
// hierarchical reduction paper (Hasanov and Lastovetsky 2016, sections 3.1 and 3.2) checked with the cost model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/algorithms/grouped.hpp"
#include "coll/cost_model.hpp"
#include "coll/execution.hpp"
#include "coll/model_choice.hpp"
#include "datatype/construct.hpp"
#include "datatype/predefined.hpp"
#include "sim_network.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

using Bytes = std::vector<char>;

// ---- The group pattern --------------------------------------------------------------------------------------------

TEST(GroupedPattern, GroupsAreConsecutiveRunsOfNearlyEqualSize) {
  for (int p = 1; p <= 40; ++p)
    for (int count = 1; count <= p; ++count) {
      const Groups g(p, count);
      int next = 0;
      for (int k = 0; k < count; ++k) {
        EXPECT_EQ(g.first(k), next) << p << " / " << count;
        EXPECT_TRUE(g.size(k) == p / count || g.size(k) == p / count + 1);
        EXPECT_GE(g.size(k), g.columns());
        if (k > 0) {
          EXPECT_LE(g.size(k), g.size(k - 1));  // the longer groups first
        }
        for (int r = next; r < next + g.size(k); ++r) {
          EXPECT_EQ(g.of(r), k) << "p " << p << ", G " << count << ", rank " << r;
          EXPECT_EQ(g.index_of(r), r - next);
        }
        next += g.size(k);
      }
      EXPECT_EQ(next, p);
      EXPECT_EQ(g.column(0).size(), static_cast<std::size_t>(count));
    }
}

// The integer nearest sqrt(p), G, satisfies (2G - 1)^2 < 4p < (2G + 1)^2.
TEST(GroupedPattern, DefaultGroupCountIsTheIntegerNearestTheSquareRoot) {
  for (int p = 1; p <= 5000; ++p) {
    const int g = group_count(p, 0);
    EXPECT_LT((2 * g - 1) * (2 * g - 1), 4 * p) << p;
    EXPECT_GT((2 * g + 1) * (2 * g + 1), 4 * p) << p;
  }
  EXPECT_EQ(group_count(16, 0), 4);
  EXPECT_EQ(group_count(50, 0), 7);
  EXPECT_EQ(group_count(10, 3), 3);
  EXPECT_EQ(group_count(10, 25), 10);  // clamped to p
  EXPECT_EQ(group_count(1, 0), 1);
}

// The model tries floor and ceil of sqrt(p) and the node count, each a real grouping (1 < G < p), once, ascending.
TEST(GroupedPattern, ModelTriesTheSquareRootsAndTheNodeCount) {
  EXPECT_EQ(group_choices(16, 1), (std::vector<int>{4}));
  EXPECT_EQ(group_choices(17, 1), (std::vector<int>{4, 5}));
  EXPECT_EQ(group_choices(8, 4), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(group_choices(12, 12), (std::vector<int>{3, 4}));  // one rank per node: G = p is no grouping
  EXPECT_EQ(group_choices(3, 1), (std::vector<int>{2}));
  EXPECT_TRUE(group_choices(2, 2).empty());
  EXPECT_TRUE(group_choices(1, 1).empty());
  for (int p = 3; p <= 300; ++p)
    for (int nodes : {1, 2, 7, p / 2}) {
      const std::vector<int> g = group_choices(p, nodes);
      EXPECT_FALSE(g.empty()) << p;
      EXPECT_TRUE(std::is_sorted(g.begin(), g.end()) && std::adjacent_find(g.begin(), g.end()) == g.end()) << p;
      for (int count : g) EXPECT_TRUE(count > 1 && count < p) << p << " " << count;
    }
}

// ---- Element types and operators ---------------------------------------------------------------------------------

// Affine maps x -> a x + b (mod 1009) as (a, b), composed lower rank first: associative, not commutative.
constexpr int kMod = 1009;

void compose_into(const int* lower, int* acc) {  // acc = lower then acc
  const int a = lower[0] * acc[0] % kMod, b = (acc[0] * lower[1] + acc[1]) % kMod;
  acc[0] = a;
  acc[1] = b;
}

// The "datatype handle" a user function receives is the stride in ints between elements.
void compose(void* in, void* inout, int* len, int* stride) {
  const auto* lower = static_cast<const int*>(in);
  auto* acc = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) compose_into(lower + i * *stride, acc + i * *stride);
}

struct Kind {
  const char* name;
  datatype::TypeRef type;
  datatype::Op op;
  int ints;  // per element, at its start; the rest of the extent is a gap
};

std::vector<Kind> make_kinds() {
  datatype::TypeRef pair, gapped;
  EXPECT_TRUE(datatype::contiguous(2, datatype::predefined(datatype::kInt), pair).ok());
  EXPECT_TRUE(datatype::resized(pair, 0, 3 * sizeof(int), gapped).ok());
  return {{"sum_int", datatype::predefined(datatype::kInt), *datatype::predefined_op(datatype::kOpSum), 1},
          {"affine_gapped", gapped, datatype::Op{datatype::kOpUser, false, false, compose}, 2}};
}

const std::vector<Kind>& kinds() {
  static const std::vector<Kind> all = make_kinds();
  return all;
}

std::size_t extent(const Kind& k) { return static_cast<std::size_t>(k.type->extent()); }
int* element(Bytes& b, const Kind& k, std::size_t i) { return reinterpret_cast<int*>(b.data() + i * extent(k)); }
const int* element(const Bytes& b, const Kind& k, std::size_t i) {
  return reinterpret_cast<const int*>(b.data() + i * extent(k));
}

// Rank r's input; gaps hold a pattern nobody may change.
Bytes input(const Kind& k, int r, std::size_t count) {
  Bytes b(count * extent(k), '\x5a');
  for (std::size_t i = 0; i < count; ++i)
    for (int j = 0; j < k.ints; ++j) element(b, k, i)[j] = static_cast<int>((r * 7 + i * 3 + j * 5) % 13) + 1;
  return b;
}

// The reference: x0 op x1 op ... op x(p-1), folded in rank order.
Bytes fold_all(const Kind& k, int p, std::size_t count) {
  Bytes acc = input(k, p - 1, count);
  for (int r = p - 2; r >= 0; --r) {
    const Bytes lower = input(k, r, count);
    for (std::size_t i = 0; i < count; ++i) {
      if (k.ints == 1) element(acc, k, i)[0] += element(lower, k, i)[0];
      else compose_into(element(lower, k, i), element(acc, k, i));
    }
  }
  return acc;
}

// ---- Inner algorithms to force ------------------------------------------------------------------------------------

// Open MPI's linear allreduce (the paper's formula 1), which Strata does not register: the linear reduce to rank 0,
// then the linear bcast from it (tag 1, so no reader has to know that the two go opposite ways).
void allreduce_linear(const Args& a, Schedule& s) {
  std::vector<int> ranks(static_cast<std::size_t>(a.size));
  std::iota(ranks.begin(), ranks.end(), 0);
  Args to_root = a;
  to_root.root = 0;
  auto first = static_cast<VertexId>(s.vertices().size());
  find_algorithm(Operation::kReduce, "linear")->build(to_root, s);
  const VertexId reduced[] = {s.embed(first, ranks, 0, {})};
  first = static_cast<VertexId>(s.vertices().size());
  find_algorithm(Operation::kBcast, "linear")->build(to_root, s);
  s.embed(first, ranks, 1, reduced);
}

const Algorithm kAllreduceLinear{Operation::kAllreduce, "linear", allreduce_linear, nullptr};

const Algorithm* linear(Operation op) {
  return op == Operation::kAllreduce ? &kAllreduceLinear : find_algorithm(op, "linear");
}

// ---- Results ------------------------------------------------------------------------------------------------------

struct Trial {
  Operation op;
  const Kind& kind;
  int p;
  int groups;
  int root;
  bool in_place;
  std::size_t count;
  const Algorithm* inner = nullptr;  // null: each phase's own choice
  int tag_limit = 0;
};

std::string describe(const Trial& t) {
  return std::string(operation_name(t.op)) + " " + t.kind.name + ", p " + std::to_string(t.p) + ", G " +
         std::to_string(t.groups) + ", root " + std::to_string(t.root) + ", count " + std::to_string(t.count) +
         (t.in_place ? ", in place" : "") + (t.inner ? std::string(", inner ") + t.inner->name : "");
}

struct World {
  std::vector<Bytes> send, recv;
  std::vector<Args> args;
};

World set_up(const Trial& t) {
  World w;
  w.send.resize(t.p);
  w.recv.resize(t.p);
  w.args.resize(t.p);
  for (int r = 0; r < t.p; ++r) {
    const bool receives = t.op != Operation::kReduce || r == t.root;
    const bool in_place = t.in_place && receives && t.op != Operation::kBcast;
    if (t.op == Operation::kBcast) {
      w.recv[r] = r == t.root ? input(t.kind, r, t.count) : Bytes(t.count * extent(t.kind), '\x77');
    } else {
      w.send[r] = input(t.kind, r, t.count);
      if (in_place) w.recv[r] = w.send[r];
      else if (receives) w.recv[r] = Bytes(t.count * extent(t.kind), '\x77');
    }
    Args& a = w.args[r];
    a.rank = r;
    a.size = t.p;
    a.root = t.root;
    a.in_place = in_place;
    a.sendbuf = in_place || w.send[r].empty() ? nullptr : w.send[r].data();
    a.recvbuf = w.recv[r].empty() ? nullptr : w.recv[r].data();
    a.sendcount = a.recvcount = t.count;
    a.sendtype = a.recvtype = t.kind.type;
    a.op = &t.kind.op;
    a.type_handle = 3;  // the stride of the gapped type; sum_int ignores it
    a.groups = t.groups;
    a.tag_limit = t.tag_limit;
  }
  return w;
}

// `before` (a receive buffer as set up) with the elements of `result`: its gaps must stay as they were.
Bytes with_elements(Bytes before, const Bytes& result, const Kind& k, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) std::copy_n(element(result, k, i), k.ints, element(before, k, i));
  return before;
}

// "" or the first rank whose result (or send buffer) is wrong.
std::string verify(const Trial& t, const World& w) {
  const World before = set_up(t);
  const Bytes result = t.op == Operation::kBcast ? input(t.kind, t.root, t.count) : fold_all(t.kind, t.p, t.count);
  for (int r = 0; r < t.p; ++r) {
    if (t.op == Operation::kReduce && r != t.root) continue;
    if (w.recv[r] != with_elements(before.recv[r], result, t.kind, t.count))
      return "rank " + std::to_string(r) + ": wrong result";
  }
  for (int r = 0; r < t.p; ++r)
    if (!w.args[r].in_place && w.send[r] != before.send[r])
      return "rank " + std::to_string(r) + "'s send buffer changed";
  return "";
}

// Runs the trial on simulated ranks: "" or what went wrong. `most_tags`: the most tags a rank's schedule uses.
std::string check(const Trial& t, int* most_tags = nullptr) {
  World w = set_up(t);
  const std::string failure = sim::run_all(t.p, [&](int r, Schedule& s) {
    EXPECT_TRUE(build_grouped(t.op, w.args[r], s, t.inner));
    if (most_tags) *most_tags = std::max(*most_tags, s.tags());
  });
  return failure.empty() ? verify(t, w) : failure;
}

constexpr Operation kOperations[] = {Operation::kReduce, Operation::kAllreduce, Operation::kBcast};

std::vector<int> roots_for(Operation op, int p) {
  if (op == Operation::kAllreduce) return {0};
  std::vector<int> roots{0, p / 2, p - 1};
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  return roots;
}

TEST(GroupedResults, ExplicitGroupCounts) {
  int failures = 0;
  for (Operation op : kOperations)
    for (const Kind& kind : kinds())
      for (int p : {1, 2, 5, 7, 10, 16})
        for (int groups : {1, 2, 3, 4, p, p + 5})  // 3 and 4 leave groups of two sizes at p = 5, 7, 10
          for (const Algorithm* inner : {static_cast<const Algorithm*>(nullptr), linear(op)})
            for (int root : roots_for(op, p))
              for (bool in_place : {false, true})
                for (std::size_t count : {0, 1, 5}) {
                  const Trial t{op, kind, p, groups, root, in_place, count, inner};
                  const std::string failure = check(t);
                  if (failure.empty()) continue;
                  ADD_FAILURE() << describe(t) << ": " << failure;
                  if (++failures == 5) return;
                }
}

// Large messages make select() pick other inner algorithms (Rabenseifner, the segmented ring, the pipeline).
TEST(GroupedResults, LargeMessages) {
  for (Operation op : kOperations)
    for (int p : {7, 12})
      for (int groups : {0, 3}) {
        const Trial t{op, kinds()[0], p, groups, p - 1, op == Operation::kAllreduce, 70000};
        EXPECT_EQ(check(t), "") << describe(t);
      }
}

// Every phase runs with the call's tag limit from tag 0 (no pair of ranks meets in two phases): a pipelined bcast
// inside, which would take a tag per segment, stays within it.
TEST(GroupedResults, StaysWithinTheTagLimit) {
  for (int limit : {4, 16}) {
    const Trial t{Operation::kBcast, kinds()[0], 10, 3, 4, false, 100000, nullptr, limit};
    int most_tags = 0;
    EXPECT_EQ(check(t, &most_tags), "") << describe(t);
    EXPECT_LE(most_tags, limit);
  }
}

// A persistent collective builds once and starts again: the second run reduces the new inputs.
TEST(GroupedResults, SchedulesRunTwice) {
  const Kind& kind = kinds()[1];
  for (Operation op : {Operation::kReduce, Operation::kAllreduce})
    for (int groups : {0, 3})
      for (bool in_place : {false, true}) {
        const int p = 7;
        const Trial t{op, kind, p, groups, p - 1, in_place, 4};
        World w = set_up(t);
        std::vector<Schedule> schedules(p);
        std::vector<std::unique_ptr<Execution>> runs;
        sim::SimNetwork net(p);
        for (int r = 0; r < p; ++r) {
          build_grouped(op, w.args[r], schedules[r], nullptr);
          runs.push_back(std::make_unique<Execution>(schedules[r], net.port(r)));
        }
        const World before = set_up(t);
        for (int round = 0; round < 2; ++round) {
          // Round 1: rank r's input is rank p-1-r's of round 0 (in place, written into recvbuf).
          auto input_of = [&](int r) { return input(kind, round == 0 ? r : p - 1 - r, t.count); };
          Bytes result = input_of(p - 1);
          for (int r = p - 2; r >= 0; --r) {
            const Bytes lower = input_of(r);
            for (std::size_t i = 0; i < t.count; ++i) compose_into(element(lower, kind, i), element(result, kind, i));
          }
          for (int r = 0; r < p; ++r) {
            const Bytes mine = input_of(r);
            Bytes& in = w.args[r].in_place ? w.recv[r] : w.send[r];
            std::copy(mine.begin(), mine.end(), in.begin());
          }
          for (auto& e : runs) e->start();
          for (bool all = false; !all;) {
            all = true;
            for (auto& e : runs) all = e->progress() && all;
          }
          for (auto& e : runs) ASSERT_EQ(e->error(), 0) << e->message();
          for (int r = 0; r < p; ++r) {
            if (op == Operation::kReduce && r != t.root) continue;
            EXPECT_EQ(w.recv[r], with_elements(before.recv[r], result, kind, t.count))
                << describe(t) << ", round " << round << ", rank " << r;
          }
        }
      }
}

TEST(GroupedRegistry, ThreeTopologyObliviousAlgorithms) {
  for (Operation op : kOperations) {
    const Algorithm* a = find_algorithm(op, "grouped");
    ASSERT_NE(a, nullptr) << operation_name(op);
    EXPECT_FALSE(a->topology_aware);
    Args args;
    args.op = &kinds()[1].op;  // non-commutative: served, in rank order
    EXPECT_TRUE(a->applies == nullptr || a->applies(args));
  }
  Schedule s;
  EXPECT_FALSE(build_grouped(Operation::kGather, Args{}, s, nullptr));
}

// ---- Costs --------------------------------------------------------------------------------------------------------

constexpr double kAlpha = 2e-6, kBeta = 1e-9, kGamma = 3e-10;
constexpr std::size_t kBytes = 8192;  // m: 1024 doubles
constexpr double kTransfer = kAlpha + kBytes * kBeta;  // a + mb
constexpr double kReduce = kBytes * kGamma;            // mg
static_assert(kTransfer >= kReduce, "the closed forms below assume transfers dominate reductions");

// The predicted time of the grouped `op` on p ranks with G groups, m bytes per rank, `inner` in every phase.
double cost(Operation op, int p, int groups, const Algorithm* inner, double gamma = kGamma) {
  static std::vector<double> in, out;
  in.assign(kBytes / 8, 1.0);
  out.assign(kBytes / 8, 0.0);
  return predict(
      p,
      [&](int rank, Schedule& s) {
        Args a = typical_call(op, kBytes);
        a.rank = rank;
        a.size = p;
        a.sendbuf = in.data();
        a.recvbuf = out.data();
        a.groups = groups;
        build_grouped(op, a, s, inner);
      },
      CostParameters::uniform({kAlpha, kBeta}, gamma), [](int, int) { return LinkClass::kSameCache; });
}

// Strata's linear reduce to rank 0 of n ranks, where a transfer takes at least as long as a reduction: the root posts
// its receives of x(n-1) (into its result) and of two more vectors (into its two buffers) at once, and the model
// serves transfers ready together in rank order, so those three arrive back to back; the reduction that frees the
// first buffer delays the fourth arrival by mg, then arrivals follow each other again while the root reduces the one
// before; the last arrival's reduction and the root's own close: (n - 1)(a + mb) + min(n - 1, 3) mg. (The paper's
// flat tree uses one buffer: (n - 1)(a + mb + mg).)
double linear_reduce(int n) { return (n - 1) * kTransfer + std::min(n - 1, 3) * kReduce; }

// The linear reduce, then the root's n - 1 sends of the linear bcast.
double linear_allreduce(int n) { return linear_reduce(n) + (n - 1) * kTransfer; }

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The G in 1..p of least predicted time (the first when several tie) and that time.
struct Best {
  int groups = 0;
  double time = 0;
};
Best cheapest(Operation op, int p, const Algorithm* inner, std::vector<double>* times = nullptr) {
  Best best{0, 1e300};
  for (int g = 1; g <= p; ++g) {
    const double t = cost(op, p, g, inner);
    if (times) times->push_back(t);
    if (t < best.time - 1e-15) best = {g, t};
  }
  return best;
}

constexpr int kSquares[] = {16, 64, 100};

// Section 3.1: the hierarchical flat-tree reduce costs F(G) = (G + p/G - 2)(a + mb + mg), least at G = sqrt(p). When G
// divides p, Strata's schedule costs the linear reduce of p/G ranks, then that of G ranks: the paper's F(G) exactly
// without reductions (g = 0), and with them (G + p/G - 2)(a + mb) plus at most three reductions per phase. When it
// does not, the leaders of the shorter groups are ready early and the model serves their transfers first, which
// changes which reductions overlap: the root still receives ceil(p/G) - 1 then G - 1 vectors one after the other, and
// at most six reductions are not hidden behind them.
TEST(GroupedCost, ReduceWithLinearInsideFollowsTheClosedForm) {
  const Algorithm* inner = find_algorithm(Operation::kReduce, "linear");
  for (int p : {16, 64, 100, 50})
    for (int g = 1; g <= p; ++g) {
      const double t = cost(Operation::kReduce, p, g, inner);
      if (p % g != 0) {
        const double steps = (ceil_div(p, g) + g - 2) * kTransfer;
        EXPECT_GE(t, steps - 1e-12) << "p " << p << ", G " << g;
        EXPECT_LE(t, steps + 6 * kReduce + 1e-12) << "p " << p << ", G " << g;
        continue;
      }
      EXPECT_NEAR(t, linear_reduce(p / g) + linear_reduce(g), 1e-12) << "p " << p << ", G " << g;
      EXPECT_NEAR(cost(Operation::kReduce, p, g, inner, 0), (g + p / g - 2) * kTransfer, 1e-12) << p << ", " << g;
      EXPECT_LE(t, (g + p / g - 2) * (kTransfer + kReduce) + 1e-12) << "p " << p << ", G " << g;
    }
}

TEST(GroupedCost, ReduceWithLinearInsideIsCheapestAtTheSquareRoot) {
  const Algorithm* inner = find_algorithm(Operation::kReduce, "linear");
  for (int p : kSquares) {
    const int root = static_cast<int>(std::lround(std::sqrt(p)));
    const Best best = cheapest(Operation::kReduce, p, inner);
    EXPECT_EQ(best.groups, root) << p;
    // F(sqrt p) = (2 sqrt(p) - 2)(a + mb) and three reductions per phase.
    EXPECT_NEAR(best.time, (2 * root - 2) * kTransfer + 6 * kReduce, 1e-12) << p;
    EXPECT_GT(cost(Operation::kReduce, p, root - 1, inner), best.time) << p;
    EXPECT_GT(cost(Operation::kReduce, p, root + 1, inner), best.time) << p;
  }
  // p = 50 (not a square): G + ceil(p/G) is least, ceil(2 sqrt p) = 15, on a plateau around sqrt(50) = 7.07 that
  // holds the nearest divisor, 5 (the first minimum), and the nearest integer, 7 (the default): G = 5 .. 10 all take
  // 13 transfers, and here the same three reductions per phase.
  std::vector<double> times;
  const Best best = cheapest(Operation::kReduce, 50, inner, &times);
  const double plateau = (std::ceil(2 * std::sqrt(50.0)) - 2) * kTransfer + 6 * kReduce;
  EXPECT_EQ(best.groups, 5);
  for (int g = 5; g <= 10; ++g) EXPECT_NEAR(times[g - 1], plateau, 1e-12) << g;
  for (int g : {4, 11}) EXPECT_GE(times[g - 1], plateau + kTransfer - 1e-12) << g;
}

// Section 3.2: allreduce inside the groups, then among the ranks at each index (Fig. 2). With the paper's linear
// allreduce (a linear reduce and a linear bcast) in both phases, F(G) = 2(G + p/G - 2)(a + mb) + (G + p/G - 2) mg
// (formula 4, of which the paper prints the derivative), and F(sqrt p) = 4(sqrt(p) - 1)(a + mb) + 2(sqrt(p) - 1) mg
// (formula 5). Strata's linear reduce double-buffers, so it does not match the mg term: without reductions formulas
// 4 and 5 hold exactly; with them, each phase costs the closed form of what Strata does (linear_allreduce). The index
// 0 ranks, the bcast roots, finish the first phase last, and their column decides the end.
TEST(GroupedCost, AllreduceWithLinearInsideFollowsTheClosedForm) {
  for (int p : kSquares)
    for (int g = 1; g <= p; ++g) {
      if (p % g != 0) continue;
      const int steps = g + p / g - 2;
      EXPECT_NEAR(cost(Operation::kAllreduce, p, g, &kAllreduceLinear), linear_allreduce(p / g) + linear_allreduce(g),
                  1e-12)
          << "p " << p << ", G " << g;
      EXPECT_NEAR(cost(Operation::kAllreduce, p, g, &kAllreduceLinear, 0), 2 * steps * kTransfer, 1e-12)
          << "p " << p << ", G " << g;
      EXPECT_LE(cost(Operation::kAllreduce, p, g, &kAllreduceLinear), 2 * steps * kTransfer + steps * kReduce + 1e-12)
          << "p " << p << ", G " << g;
    }
}

TEST(GroupedCost, AllreduceWithLinearInsideIsCheapestAtTheSquareRoot) {
  for (int p : kSquares) {
    const int root = static_cast<int>(std::lround(std::sqrt(p)));
    const Best best = cheapest(Operation::kAllreduce, p, &kAllreduceLinear);
    EXPECT_EQ(best.groups, root) << p;
    EXPECT_NEAR(cost(Operation::kAllreduce, p, root, &kAllreduceLinear, 0), 4 * (root - 1) * kTransfer, 1e-12)
        << "formula 5 without reductions, p " << p;
    EXPECT_NEAR(best.time, 4 * (root - 1) * kTransfer + 6 * kReduce, 1e-12) << p;
  }
  // p = 50: the reduce's plateau, G = 5 .. 10, with twice the transfers; the last ranks of the longer groups, which
  // get the result from the next group's first rank, do not lengthen it.
  std::vector<double> times;
  const Best best = cheapest(Operation::kAllreduce, 50, &kAllreduceLinear, &times);
  const double plateau = 2 * (std::ceil(2 * std::sqrt(50.0)) - 2) * kTransfer + 6 * kReduce;
  EXPECT_EQ(best.groups, 5);
  for (int g = 5; g <= 10; ++g) EXPECT_NEAR(times[g - 1], plateau, 1e-12) << g;
  for (int g : {4, 11}) EXPECT_GE(times[g - 1], plateau + kTransfer - 1e-12) << g;
}

// The paper's remark on tree algorithms (section 3.2: recursive doubling and Rabenseifner gain nothing): with a
// logarithmic inner allreduce, grouping changes nothing when p and G are powers of two, since
// log2(p/G) + log2(G) = log2(p). Strata's reduce_bcast (a binomial reduce, then a binomial bcast) costs
// log2(n)(2(a + mb) + mg) on n ranks.
TEST(GroupedCost, AllreduceWithReduceBcastInsideDoesNotDependOnG) {
  const Algorithm* inner = find_algorithm(Operation::kAllreduce, "reduce_bcast");
  for (int p : {16, 64})
    for (int g = 1; g <= p; g *= 2)
      EXPECT_NEAR(cost(Operation::kAllreduce, p, g, inner), std::log2(p) * (2 * kTransfer + kReduce), 1e-12)
          << "p " << p << ", G " << g;
}

// Args::groups = 0 takes round(sqrt(p)) groups: the same schedules, so the same time, as asking for them.
TEST(GroupedCost, DefaultGroupCountIsTheModelsOptimum) {
  const Algorithm* inner = find_algorithm(Operation::kReduce, "linear");
  for (int p : {16, 50, 64, 100}) {
    const int root = static_cast<int>(std::lround(std::sqrt(p)));
    EXPECT_EQ(cost(Operation::kReduce, p, 0, inner), cost(Operation::kReduce, p, root, inner)) << p;
    EXPECT_NEAR(cost(Operation::kReduce, p, 0, inner), cheapest(Operation::kReduce, p, inner).time, 1e-12) << p;
  }
}

}  // namespace
