// The exchange family (allgather(v), alltoall(v, w)) on simulated ranks: every algorithm, p = 1..17, counts
// {0, 1, 7, 300}, MPI_INT, MPI_DOUBLE and a strided derived type with gaps (also as the send side of an int
// receive), with and without MPI_IN_PLACE. Results are checked byte for byte against a sequential reference that
// reads the input buffers through its own description of each type, never through the library: received blocks
// hold the senders' values, every other recvbuf byte (gaps, margins) keeps its sentinel, sendbufs are unchanged.
//
// The simulated network packs sends eagerly, which would hide a missing dependency; so every schedule is also
// checked statically: no two vertices that may run together touch the same bytes unless both only read them, and
// no two messages to or from the same peer with the same tag may be in flight together. A schedule started a second
// time (a persistent collective) must give the second run's result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/execution.hpp"
#include "coll/node_segment.hpp"
#include "coll/schedule.hpp"
#include "datatype/construct.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"
#include "sim_hierarchy.hpp"
#include "sim_network.hpp"
#include "sweep_sizes.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

// ---- Types as the reference sees them ----

// A datatype and, independently of the library, where the basic values of one element lie.
struct TestType {
  const char* name;
  datatype::TypeRef type;
  std::ptrdiff_t extent;
  std::vector<std::ptrdiff_t> offsets;  // of each basic value in one element, in type-map order
  bool is_double;                       // basic values are doubles, else ints

  std::size_t basics() const { return offsets.size(); }
};

const TestType& int_type() {
  static const TestType t{"int", datatype::predefined(datatype::kInt), 4, {0}, false};
  return t;
}

const TestType& double_type() {
  static const TestType t{"double", datatype::predefined(datatype::kDouble), 8, {0}, true};
  return t;
}

// vector(2, 1, 3, int) resized to extent 20: ints at bytes 0 and 12 of each 20, gaps at 4..11 and 16..19.
const TestType& strided_type() {
  static const TestType t = [] {
    datatype::TypeRef vec, out;
    EXPECT_TRUE(datatype::vector(2, 1, 3, datatype::predefined(datatype::kInt), vec).ok());
    EXPECT_TRUE(datatype::resized(vec, 0, 20, out).ok());
    return TestType{"strided", out, 20, {0, 12}, false};
  }();
  return t;
}

// The send and receive types of one run: the same signature, `ratio` receive elements per send element.
struct TypePair {
  const TestType* send;
  const TestType* recv;
  std::size_t ratio() const { return send->basics() / recv->basics(); }
  std::string name() const { return std::string(send->name) + "->" + recv->name; }
};

std::vector<TypePair> type_pairs() {
  return {{&int_type(), &int_type()},
          {&double_type(), &double_type()},
          {&strided_type(), &strided_type()},
          {&strided_type(), &int_type()}};
}

// ---- Buffers and the reference ----

using Buffer = std::vector<unsigned char>;
constexpr unsigned char kSentinel = 0xAB;
constexpr std::ptrdiff_t kMargin = 32;  // bytes before and after the part a collective may touch

// `count` elements of `type` at byte `at` from the buffer's base (the pointer the collective gets).
struct Block {
  const TestType* type = nullptr;
  std::size_t count = 0;
  std::ptrdiff_t at = 0;

  std::ptrdiff_t end() const { return at + static_cast<std::ptrdiff_t>(count) * type->extent; }
  std::ptrdiff_t basic(std::size_t element, std::size_t k) const {
    return kMargin + at + static_cast<std::ptrdiff_t>(element) * type->extent + type->offsets[k];
  }
};

std::vector<double> read(const Buffer& b, const Block& x) {
  std::vector<double> values;
  for (std::size_t e = 0; e < x.count; ++e)
    for (std::size_t k = 0; k < x.type->basics(); ++k) {
      if (x.type->is_double) {
        double v;
        std::memcpy(&v, &b[x.basic(e, k)], sizeof v);
        values.push_back(v);
      } else {
        int v;
        std::memcpy(&v, &b[x.basic(e, k)], sizeof v);
        values.push_back(v);
      }
    }
  return values;
}

void write(Buffer& b, const Block& x, const std::vector<double>& values) {
  std::size_t i = 0;
  for (std::size_t e = 0; e < x.count; ++e)
    for (std::size_t k = 0; k < x.type->basics(); ++k, ++i) {
      if (x.type->is_double) {
        const double v = values.at(i);
        std::memcpy(&b[x.basic(e, k)], &v, sizeof v);
      } else {
        const int v = static_cast<int>(values.at(i));
        std::memcpy(&b[x.basic(e, k)], &v, sizeof v);
      }
    }
  ASSERT_EQ(i, values.size()) << "reference: signatures differ";
}

// Distinct values from `first` on, one per basic value.
void fill(Buffer& b, const Block& x, double first) {
  std::vector<double> values(x.count * x.type->basics());
  std::iota(values.begin(), values.end(), first);
  write(b, x, values);
}

Buffer sentinel_buffer(const std::vector<Block>& blocks) {
  std::ptrdiff_t end = 0;
  for (const Block& x : blocks) end = std::max(end, x.end());
  return Buffer(static_cast<std::size_t>(end + 2 * kMargin), kSentinel);
}

// One rank's buffers and where the collective's blocks lie in them: `in[j]` receives from rank j; `out[j]` goes to
// rank j (alltoall family) or `out[0]` is the contribution (allgather family).
struct RankData {
  std::vector<Block> out, in;
  Buffer send, recv;
  void* sendbuf() { return send.data() + kMargin; }
  void* recvbuf() { return recv.data() + kMargin; }
};

// Lays out blocks of `units[j]` units (of `unit` bytes) in a scrambled order that depends on `salt`, one unit of
// gap after each: the offsets in bytes, per block.
std::vector<std::ptrdiff_t> scrambled(const std::vector<std::size_t>& units, std::ptrdiff_t unit, int salt) {
  const int p = static_cast<int>(units.size());
  std::vector<std::ptrdiff_t> at(units.size());
  std::ptrdiff_t cursor = 0;
  for (int k = 0; k < p; ++k) {  // descending from a rotated start: neither sorted nor reversed for p > 2
    const int j = ((salt - k) % p + p) % p;
    at[j] = cursor;
    cursor += static_cast<std::ptrdiff_t>(units[j] + 1) * unit;
  }
  return at;
}

// Irregular counts with zeros, from a pair (i, j) and a base count (all zero when the base is 0).
std::size_t irregular(std::size_t count, int i, int j) {
  if (count == 0 || (i + 2 * j) % 5 == 2) return 0;
  return count + static_cast<std::size_t>((i * j + j) % 3);
}

// ---- Allgather(v) ----

enum class Variant { kPlain, kV, kW };

// Rank j contributes `counts[j]` send elements; every rank receives them in block j. Plain: blocks one after the
// other; v: scrambled with gaps, differently on each rank (only the counts must agree).
std::vector<RankData> gather_layout(int p, const TypePair& types, const std::vector<std::size_t>& counts,
                                    Variant variant, bool in_place) {
  std::vector<std::size_t> recv_counts;
  for (std::size_t c : counts) recv_counts.push_back(c * types.ratio());
  const std::ptrdiff_t extent = types.recv->extent;
  std::vector<RankData> ranks(p);
  for (int r = 0; r < p; ++r) {
    RankData& d = ranks[r];
    std::vector<std::ptrdiff_t> at(p);
    if (variant == Variant::kPlain)
      for (int j = 0; j < p; ++j) at[j] = static_cast<std::ptrdiff_t>(j * recv_counts[0]) * extent;
    else
      at = scrambled(recv_counts, extent, r + 1);
    for (int j = 0; j < p; ++j) d.in.push_back({types.recv, recv_counts[j], at[j]});
    d.out.push_back({types.send, counts[r], 0});
    d.send = sentinel_buffer(d.out);
    d.recv = sentinel_buffer(d.in);
    if (in_place)
      fill(d.recv, d.in[r], 1000.0 * r + 1);
    else
      fill(d.send, d.out[0], 1000.0 * r + 1);
  }
  return ranks;
}

std::vector<Buffer> gather_reference(const std::vector<RankData>& ranks, bool in_place) {
  std::vector<Buffer> expected;
  for (const RankData& d : ranks) {
    Buffer e = d.recv;
    for (std::size_t j = 0; j < ranks.size(); ++j) {
      const RankData& from = ranks[j];
      write(e, d.in[j], in_place ? read(from.recv, from.in[j]) : read(from.send, from.out[0]));
    }
    expected.push_back(std::move(e));
  }
  return expected;
}

Args gather_args(RankData& d, int r, int p, Variant variant, bool in_place) {
  Args a;
  a.rank = r;
  a.size = p;
  a.in_place = in_place;
  if (!in_place) {
    a.sendbuf = d.sendbuf();
    a.sendcount = d.out[0].count;
    a.sendtype = d.out[0].type->type;
  }
  a.recvbuf = d.recvbuf();
  a.recvtype = d.in[0].type->type;
  a.recvcount = d.in[0].count;
  if (variant == Variant::kV)
    for (const Block& x : d.in) {
      a.recvcounts.push_back(static_cast<int>(x.count));
      a.rdispls.push_back(static_cast<int>(x.at / x.type->extent));
    }
  return a;
}

// ---- Alltoall(v, w) ----

// What rank i sends rank j, in basic values (the pair's signature); in place, both directions must agree.
std::size_t exchange_basics(Variant variant, std::size_t count, int i, int j, bool in_place) {
  if (variant == Variant::kPlain) return count;
  return in_place ? irregular(count, std::min(i, j), std::max(i, j)) : irregular(count, i, j);
}

// The w variant's types: ints or doubles by pair (symmetric, for in place), and for ints the layout chosen
// separately by the sending and the receiving side, so the two often differ.
const TestType* w_type(int self, int peer, bool sending) {
  if ((self + peer) % 2 == 1) return &double_type();
  return (sending ? self * 3 + peer : self + 2 * peer) % 3 == 0 ? &strided_type() : &int_type();
}

std::vector<RankData> exchange_layout(int p, const TypePair& types, std::size_t count, Variant variant,
                                      bool in_place) {
  std::vector<RankData> ranks(p);
  for (int r = 0; r < p; ++r) {
    RankData& d = ranks[r];
    // Block j of the send side holds what goes to j, block j of the receive side what comes from j; sizes in basic
    // values of a pair's signature (a strided element holds two).
    for (int j = 0; j < p; ++j) {
      const TestType* st = variant == Variant::kW ? w_type(r, j, true) : types.send;
      const TestType* rt = variant == Variant::kW ? w_type(r, j, false) : types.recv;
      const std::size_t unit = variant == Variant::kW ? 2 : types.send->basics();  // w: whole strided elements
      const std::size_t out_basics = exchange_basics(variant, count, r, j, in_place) * unit;
      const std::size_t in_basics = exchange_basics(variant, count, j, r, in_place) * unit;
      d.out.push_back({st, out_basics / st->basics(), 0});
      d.in.push_back({rt, in_basics / rt->basics(), 0});
    }
    // Where the blocks lie: one after the other (plain), scrambled in elements (v) or in 8-byte units (w).
    const auto place = [&](std::vector<Block>& blocks, int salt) {
      if (variant == Variant::kPlain) {
        for (int j = 0; j < p; ++j)
          blocks[j].at = j * static_cast<std::ptrdiff_t>(blocks[0].count) * blocks[0].type->extent;
        return;
      }
      const std::ptrdiff_t unit = variant == Variant::kV ? blocks[0].type->extent : 8;
      std::vector<std::size_t> units;
      for (const Block& x : blocks)
        units.push_back(static_cast<std::size_t>((x.end() - x.at + unit - 1) / unit));
      const std::vector<std::ptrdiff_t> at = scrambled(units, unit, salt);
      for (int j = 0; j < p; ++j) blocks[j].at = at[j];
    };
    place(d.out, r + 2);
    place(d.in, r);
    d.send = sentinel_buffer(d.out);
    d.recv = sentinel_buffer(d.in);
    for (int j = 0; j < p; ++j) {
      if (in_place)
        fill(d.recv, d.in[j], 100000.0 * r + 1000.0 * j + 1);
      else
        fill(d.send, d.out[j], 100000.0 * r + 1000.0 * j + 1);
    }
  }
  return ranks;
}

std::vector<Buffer> exchange_reference(const std::vector<RankData>& ranks, bool in_place) {
  std::vector<Buffer> expected;
  for (const RankData& d : ranks) expected.push_back(d.recv);
  for (std::size_t i = 0; i < ranks.size(); ++i)
    for (std::size_t j = 0; j < ranks.size(); ++j) {
      const RankData& from = ranks[i];
      write(expected[j], ranks[j].in[i], in_place ? read(from.recv, from.in[j]) : read(from.send, from.out[j]));
    }
  return expected;
}

Args exchange_args(RankData& d, int r, int p, Variant variant, bool in_place) {
  Args a;
  a.rank = r;
  a.size = p;
  a.in_place = in_place;
  a.recvbuf = d.recvbuf();
  if (!in_place) a.sendbuf = d.sendbuf();
  // Displacements: in elements of the one type (v) or in bytes (w).
  const auto fill_side = [&](const std::vector<Block>& blocks, std::size_t& count, datatype::TypeRef& type,
                             std::vector<int>& counts, std::vector<int>& displs,
                             std::vector<datatype::TypeRef>& types) {
    count = blocks[0].count;
    type = blocks[0].type->type;
    if (variant == Variant::kPlain) return;
    for (const Block& x : blocks) {
      counts.push_back(static_cast<int>(x.count));
      displs.push_back(static_cast<int>(variant == Variant::kV ? x.at / x.type->extent : x.at));
      if (variant == Variant::kW) types.push_back(x.type->type);
    }
  };
  fill_side(d.in, a.recvcount, a.recvtype, a.recvcounts, a.rdispls, a.recvtypes);
  if (!in_place) fill_side(d.out, a.sendcount, a.sendtype, a.sendcounts, a.sdispls, a.sendtypes);
  return a;
}

// ---- One run: inputs, the reference's expectation, each rank's Args ----

struct Scenario {
  Operation op;
  bool in_place;
  std::vector<RankData> ranks;
  std::vector<Buffer> expected;
  std::vector<Buffer> sent;  // the send buffers as they were before the run

  Variant variant() const {
    switch (op) {
      case Operation::kAllgatherv:
      case Operation::kAlltoallv: return Variant::kV;
      case Operation::kAlltoallw: return Variant::kW;
      default: return Variant::kPlain;
    }
  }
  bool gather() const { return op == Operation::kAllgather || op == Operation::kAllgatherv; }
  int size() const { return static_cast<int>(ranks.size()); }
  const sim::Layout* layout = nullptr;  // the hierarchical algorithms: where the ranks run

  Args args(int r) {
    Args a = gather() ? gather_args(ranks[r], r, size(), variant(), in_place)
                      : exchange_args(ranks[r], r, size(), variant(), in_place);
    if (layout) a.hierarchy = sim::hierarchy(*layout, r);
    return a;
  }
};

Scenario make_scenario(Operation op, int p, std::size_t count, const TypePair& types, bool in_place) {
  Scenario sc{op, in_place, {}, {}, {}};
  if (sc.gather()) {
    std::vector<std::size_t> counts(p, count);
    if (sc.variant() == Variant::kV)
      for (int j = 0; j < p; ++j) counts[j] = irregular(count, j, j);
    sc.ranks = gather_layout(p, types, counts, sc.variant(), in_place);
    sc.expected = gather_reference(sc.ranks, in_place);
  } else {
    sc.ranks = exchange_layout(p, types, count, sc.variant(), in_place);
    sc.expected = exchange_reference(sc.ranks, in_place);
  }
  for (const RankData& d : sc.ranks) sc.sent.push_back(d.send);
  return sc;
}

// Every rank's buffers against the reference: "" or the first difference.
std::string compare(const Scenario& sc) {
  for (int r = 0; r < sc.size(); ++r) {
    if (sc.ranks[r].send != sc.sent[r]) return "rank " + std::to_string(r) + ": sendbuf changed";
    const Buffer& got = sc.ranks[r].recv;
    for (std::size_t i = 0; i < got.size(); ++i)
      if (got[i] != sc.expected[r][i])
        return "rank " + std::to_string(r) + ": recvbuf byte " + std::to_string(static_cast<long>(i) - kMargin) +
               " is " + std::to_string(got[i]) + ", expected " + std::to_string(sc.expected[r][i]);
  }
  return "";
}

std::string run_and_compare(const Algorithm& algorithm, Scenario& sc) {
  const std::string failure = sim::run_all(sc.size(), [&](int r, Schedule& s) { algorithm.build(sc.args(r), s); });
  return failure.empty() ? compare(sc) : failure;
}

// ---- Static checks of a built schedule ----

// The bytes `d` touches, as sorted [begin, end) ranges in its area, found by unpacking a stream of marks into an
// empty copy of its span.
struct Footprint {
  Buf::Area area = Buf::Area::kUser;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
};

Footprint footprint(const Data& d) {
  Footprint f{d.buf.area, {}};
  const datatype::Datatype& t = *d.type;
  if (d.count == 0 || t.size == 0) return f;
  const std::ptrdiff_t span = static_cast<std::ptrdiff_t>(d.count - 1) * t.extent();
  const std::ptrdiff_t low = std::min<std::ptrdiff_t>(span, 0) + t.true_lb;
  const std::ptrdiff_t high = std::max<std::ptrdiff_t>(span, 0) + t.true_ub;
  Buffer marks(static_cast<std::size_t>(high - low), 0);
  const Buffer stream(datatype::wire_bytes(t, d.count), 0xFF);
  datatype::unpack(stream.data(), stream.size(), d.count, t,
                   reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(marks.data()) - low));
  const std::uintptr_t origin = d.buf.at + low;
  for (std::size_t i = 0; i < marks.size();) {
    if (marks[i] == 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < marks.size() && marks[j] != 0) ++j;
    f.ranges.push_back({origin + i, origin + j});
    i = j;
  }
  return f;
}

bool overlap(const Footprint& x, const Footprint& y) {
  if (x.area != y.area) return false;
  for (std::size_t i = 0, j = 0; i < x.ranges.size() && j < y.ranges.size();) {
    if (x.ranges[i].second <= y.ranges[j].first) ++i;
    else if (y.ranges[j].second <= x.ranges[i].first) ++j;
    else return true;
  }
  return false;
}

// What a vertex reads and writes.
struct Access {
  std::vector<Footprint> reads, writes;
};

Access access(const Vertex& v) {
  switch (v.kind) {
    case Kind::kSend: return {{footprint(v.a)}, {}};
    case Kind::kRecv: return {{}, {footprint(v.a)}};
    case Kind::kPublish: return {{footprint(v.a)}, {}};
    case Kind::kRead: return {{}, {footprint(v.a)}};
    case Kind::kCopy: return {{footprint(v.a)}, {footprint(v.b)}};
    case Kind::kReduce: return {{footprint(v.a), footprint(v.b)}, {footprint(v.b)}};
    default: return {};
  }
}

bool any_overlap(const std::vector<Footprint>& xs, const std::vector<Footprint>& ys) {
  for (const Footprint& x : xs)
    for (const Footprint& y : ys)
      if (overlap(x, y)) return true;
  return false;
}

std::string kind_name(Kind k) {
  static const char* const kNames[] = {"send", "recv", "publish", "read", "reduce", "copy", "callback", "nop"};
  static_assert(std::size(kNames) == static_cast<std::size_t>(Kind::kNop) + 1);
  return kNames[static_cast<int>(k)];
}

// "" when every two vertices that may run at the same time neither touch the same bytes (unless both only read)
// nor are messages with the same peer, direction and tag; else the first such pair.
std::string check_schedule(const Schedule& s) {
  const std::vector<Vertex>& vs = s.vertices();
  const std::size_t n = vs.size();
  // ordered[u][v]: v waits, directly or not, for u (a vertex can only wait for earlier ids).
  std::vector<std::vector<char>> ordered(n, std::vector<char>(n, 0));
  for (std::size_t u = n; u-- > 0;)
    for (VertexId v : vs[u].next) {
      ordered[u][v] = 1;
      for (std::size_t w = 0; w < n; ++w) ordered[u][w] |= ordered[v][w];
    }
  std::vector<Access> acc;
  for (const Vertex& v : vs) acc.push_back(access(v));
  for (std::size_t u = 0; u < n; ++u)
    for (std::size_t v = u + 1; v < n; ++v) {
      if (ordered[u][v]) continue;
      const std::string pair = kind_name(vs[u].kind) + " " + std::to_string(u) + " and " + kind_name(vs[v].kind) +
                               " " + std::to_string(v);
      if (any_overlap(acc[u].writes, acc[v].reads) || any_overlap(acc[u].writes, acc[v].writes) ||
          any_overlap(acc[u].reads, acc[v].writes))
        return pair + " race on the same bytes";
      const bool message = vs[u].kind == Kind::kSend || vs[u].kind == Kind::kRecv;
      if (message && vs[u].kind == vs[v].kind && vs[u].peer == vs[v].peer && vs[u].tag == vs[v].tag)
        return pair + " share peer " + std::to_string(vs[u].peer) + " and tag " + std::to_string(vs[u].tag);
    }
  return "";
}

// ---- The sweeps ----

const Algorithm& algorithm(Operation op, const char* name) {
  const Algorithm* a = find_algorithm(op, name);
  if (a == nullptr) {
    ADD_FAILURE() << operation_name(op) << " has no algorithm " << name;
    static const Algorithm none{op, "none", [](const Args&, Schedule&) {}, nullptr};
    return none;
  }
  return *a;
}

bool claims(const Algorithm& alg, int p) {
  Args probe;
  probe.size = p;
  probe.node_memory = probe.shared_memory = true;  // the simulated ranks share a node
  probe.recvtype = int_type().type;
  return alg.applies == nullptr || alg.applies(probe);
}

// Calls `check(p, count, types, in_place)` for every p in 1..17 (sweep_sizes) the algorithm claims, count, type pair
// and in-place choice that applies; stops at the first failure (one report per algorithm is enough).
void for_each_case(const Algorithm& alg, std::initializer_list<std::size_t> counts,
                   const std::function<std::string(int, std::size_t, const TypePair&, bool)>& check) {
  for (int p : sim::sweep_sizes()) {
    if (!claims(alg, p)) continue;
    for (std::size_t count : counts)
      for (const TypePair& types : type_pairs())
        for (bool in_place : {false, true}) {
          if (in_place && types.send != types.recv) continue;  // in place has no send type
          if (alg.operation == Operation::kAlltoallw && types.send != &int_type()) continue;  // picks its own
          const std::string failure = check(p, count, types, in_place);
          EXPECT_EQ(failure, "") << operation_name(alg.operation) << " " << alg.name << ": p " << p << ", count "
                                 << count << ", " << types.name() << (in_place ? ", in place" : "");
          if (!failure.empty()) return;
        }
  }
}

void sweep(Operation op, const char* name) {
  for_each_case(algorithm(op, name), {0, 1, 7, 300},
                [&](int p, std::size_t count, const TypePair& types, bool in_place) {
                  Scenario sc = make_scenario(op, p, count, types, in_place);
                  return run_and_compare(algorithm(op, name), sc);
                });
}

TEST(ExchangeAllgather, Linear) { sweep(Operation::kAllgather, "linear"); }
TEST(ExchangeAllgather, Ring) { sweep(Operation::kAllgather, "ring"); }
TEST(ExchangeAllgather, RecursiveDoubling) { sweep(Operation::kAllgather, "recursive_doubling"); }
TEST(ExchangeAllgather, Bruck) { sweep(Operation::kAllgather, "bruck"); }
TEST(ExchangeAllgather, SharedMemory) { sweep(Operation::kAllgather, "shared_memory"); }
// The topology-aware ones, on each simulated layout they apply to (the distance-aware ring: one node only); every
// one of them must take the layouts on one node.
void sweep_layouts(const Algorithm& alg) {
  for (int p : sim::sweep_sizes())
    for (const sim::Layout& layout : sim::layouts(p)) {
      Args probe;
      probe.size = p;
      probe.hierarchy = sim::hierarchy(layout, 0);
      const bool one_node =
          std::all_of(layout.node.begin(), layout.node.end(), [&](int n) { return n == layout.node.front(); });
      if (alg.applies != nullptr && !alg.applies(probe)) {
        EXPECT_FALSE(one_node) << alg.name << " refuses " << layout.name << ", p " << p;
        continue;
      }
      for (std::size_t count : {0, 1, 7, 300})
        for (const TypePair& types : type_pairs())
          for (bool in_place : {false, true}) {
            if (in_place && types.send != types.recv) continue;
            Scenario sc = make_scenario(Operation::kAllgather, p, count, types, in_place);
            sc.layout = &layout;
            const std::string failure = run_and_compare(alg, sc);
            ASSERT_EQ(failure, "") << alg.name << ": p " << p << ", " << layout.name << ", count " << count << ", "
                                   << types.name() << (in_place ? ", in place" : "");
          }
    }
}
TEST(ExchangeAllgather, TopologyAware) {
  int swept = 0;
  for (const Algorithm* alg : algorithms_for(Operation::kAllgather))
    if (alg->topology_aware) sweep_layouts(*alg), ++swept;
  EXPECT_GT(swept, 0);
}

// Blocks larger than an area go in pieces, a tag each, where both sides cut them at the same bytes (one packed
// element size, or in place); otherwise the node's memory does not apply.
TEST(ExchangeAllgather, SharedMemoryInPieces) {
  const std::size_t count = 2 * NodeSegment::kBlockBytes / sizeof(int) + 5;  // 3 pieces of ints, 2 of doubles
  for (Operation op : {Operation::kAllgather, Operation::kAllgatherv})
    for (int p : {1, 2, 3, 5})
      for (const TypePair& types : type_pairs())
        for (bool in_place : {false, true}) {
          if (in_place && types.send != types.recv) continue;
          const Algorithm& alg = algorithm(op, "shared_memory");
          Scenario sc = make_scenario(op, p, count, types, in_place);
          Args probe = sc.args(0);
          probe.node_memory = probe.shared_memory = true;
          const bool cut_alike = in_place || datatype::wire_bytes(*types.send->type, 1) ==
                                                 datatype::wire_bytes(*types.recv->type, 1);
          const std::string what = std::string(operation_name(op)) + ", p " + std::to_string(p) + ", " +
                                   types.name() + (in_place ? ", in place" : "");
          EXPECT_EQ(alg.applies(probe), cut_alike) << what;
          if (cut_alike) {
            EXPECT_EQ(run_and_compare(alg, sc), "") << what;
          }
        }
}
TEST(ExchangeAllgatherv, Linear) { sweep(Operation::kAllgatherv, "linear"); }
TEST(ExchangeAllgatherv, Ring) { sweep(Operation::kAllgatherv, "ring"); }
TEST(ExchangeAllgatherv, SharedMemory) { sweep(Operation::kAllgatherv, "shared_memory"); }
TEST(ExchangeAlltoall, Linear) { sweep(Operation::kAlltoall, "linear"); }
TEST(ExchangeAlltoall, Pairwise) { sweep(Operation::kAlltoall, "pairwise"); }
TEST(ExchangeAlltoall, Bruck) { sweep(Operation::kAlltoall, "bruck"); }
TEST(ExchangeAlltoall, SharedMemory) { sweep(Operation::kAlltoall, "shared_memory"); }
TEST(ExchangeAlltoallv, Linear) { sweep(Operation::kAlltoallv, "linear"); }
TEST(ExchangeAlltoallv, Pairwise) { sweep(Operation::kAlltoallv, "pairwise"); }
TEST(ExchangeAlltoallw, Linear) { sweep(Operation::kAlltoallw, "linear"); }
TEST(ExchangeAlltoallw, Pairwise) { sweep(Operation::kAlltoallw, "pairwise"); }

// Every rank's schedule, for every algorithm and case (small counts: the footprints are per byte), is free of
// races and of tag clashes.
TEST(ExchangeSchedules, NoRacesNorTagClashes) {
  for (const Algorithm& alg : exchange_algorithms())
    for_each_case(alg, {1, 3}, [&](int p, std::size_t count, const TypePair& types, bool in_place) {
      Scenario sc = make_scenario(alg.operation, p, count, types, in_place);
      for (int r = 0; r < p; ++r) {
        Schedule s;
        alg.build(sc.args(r), s);
        if (std::string failure = check_schedule(s); !failure.empty())
          return "rank " + std::to_string(r) + ": " + failure;
      }
      return std::string();
    });
}

// Messages each rank sends: the counts the header comment's costs assume.
TEST(ExchangeSchedules, MessagesPerRank) {
  const auto ceil_log2 = [](int p) {
    int k = 0;
    while ((1 << k) < p) ++k;
    return k;
  };
  for (const Algorithm& alg : exchange_algorithms())
    for (int p = 1; p <= 17; ++p) {
      if (!claims(alg, p)) continue;
      const std::string name = alg.name;
      const int expected = name == "bruck" || name == "recursive_doubling" ? ceil_log2(p)
                           : name == "shared_memory"                      ? 0  // one publish instead
                                                                          : p - 1;
      Scenario sc = make_scenario(alg.operation, p, 2, {&int_type(), &int_type()}, false);
      for (int r = 0; r < p; ++r) {
        Schedule s;
        alg.build(sc.args(r), s);
        const auto sends = std::count_if(s.vertices().begin(), s.vertices().end(),
                                         [](const Vertex& v) { return v.kind == Kind::kSend; });
        EXPECT_EQ(sends, expected) << operation_name(alg.operation) << " " << name << ", p " << p << ", rank " << r;
      }
    }
}

// Runs started executions round-robin until all have finished: "" or what went wrong.
std::string finish(std::vector<std::unique_ptr<Execution>>& runs) {
  for (auto& run : runs) run->start();
  for (int sweep = 0; sweep < 10000; ++sweep) {
    bool all = true;
    for (auto& run : runs) {
      if (!run->finished()) run->progress();
      if (run->error() != 0) return run->message();
      all = all && run->finished();
    }
    if (all) return "";
  }
  return "no progress";
}

// A persistent collective builds once and starts again: a second run with new inputs must not see the first's
// (scratch left over, a dependency that only held on the first run).
TEST(ExchangeSchedules, RestartWithNewData) {
  for (const Algorithm& alg : exchange_algorithms())
    for (int p : {4, 6})
      for (bool in_place : {false, true}) {
        if (!claims(alg, p)) continue;
        Scenario sc = make_scenario(alg.operation, p, 3, {&strided_type(), &strided_type()}, in_place);
        std::vector<Schedule> schedules(p);
        for (int r = 0; r < p; ++r) alg.build(sc.args(r), schedules[r]);
        sim::SimNetwork net(p);
        std::vector<std::unique_ptr<Execution>> runs;
        for (int r = 0; r < p; ++r) runs.push_back(std::make_unique<Execution>(schedules[r], net.port(r)));
        // First run on other data: every byte of both buffers flipped.
        std::vector<RankData> original = sc.ranks;
        for (RankData& d : sc.ranks) {
          for (unsigned char& c : d.send) c = static_cast<unsigned char>(~c);
          for (unsigned char& c : d.recv) c = static_cast<unsigned char>(~c);
        }
        const std::string trace = std::string(operation_name(alg.operation)) + " " + alg.name + ", p " +
                                  std::to_string(p) + (in_place ? ", in place" : "");
        ASSERT_EQ(finish(runs), "") << trace;
        for (int r = 0; r < p; ++r) {
          std::copy(original[r].send.begin(), original[r].send.end(), sc.ranks[r].send.begin());
          std::copy(original[r].recv.begin(), original[r].recv.end(), sc.ranks[r].recv.begin());
        }
        ASSERT_EQ(finish(runs), "") << trace;
        EXPECT_EQ(compare(sc), "") << trace;
      }
}

TEST(ExchangeRegistry, ListsTheFamily) {
  std::vector<std::string> names;
  for (const Algorithm& a : exchange_algorithms())
    names.push_back(std::string(operation_name(a.operation)) + ":" + a.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "allgather:linear", "allgather:ring", "allgather:recursive_doubling", "allgather:bruck",
                       "allgather:shared_memory", "allgatherv:linear", "allgatherv:ring", "allgatherv:shared_memory",
                       "alltoall:linear", "alltoall:pairwise", "alltoall:bruck", "alltoall:shared_memory",
                       "alltoallv:linear", "alltoallv:pairwise", "alltoallw:linear", "alltoallw:pairwise"}));
  // recursive_doubling claims exactly the powers of two.
  const Algorithm& doubling = algorithm(Operation::kAllgather, "recursive_doubling");
  for (int p = 1; p <= 17; ++p) EXPECT_EQ(claims(doubling, p), (p & (p - 1)) == 0) << "p " << p;
}

}  // namespace
