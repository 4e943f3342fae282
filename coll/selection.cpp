#include "coll/selection.hpp"

#include <array>
#include <cctype>
#include <cstdlib>
#include <limits>

namespace strata::coll {
namespace {

constexpr int kErrArg = 13;  // MPI_ERR_ARG
constexpr std::size_t kAny = std::numeric_limits<std::size_t>::max();

// The default table: for each operation, rules in order; the first whose bounds hold and whose algorithm applies
// wins (a ring refuses a non-commutative operator, recursive doubling allgather a size that is not a power of two:
// the next rule then serves the call).
//
// Measured with bench/run-coll-algorithms (every algorithm forced by name; blocking, MPI_DOUBLE sums, MPI_BYTE
// blocks; 2 cores, so 4 and 8 ranks are oversubscribed and each message may wait for the scheduler), us per call,
// the winner first, then the runner-up and the rule-of-thumb choice where they differ:
//   bcast      8 B:   2: knomial 0.16, binomial 0.17      4: binomial 0.37, knomial 0.40      8: binomial 0.81
//              1 KiB: 2: knomial 0.19, binomial 0.22      4: binomial 0.54                    8: binomial 1.43
//              64 KiB: 2: linear 8.5, binomial 8.9        4: scatter_allgather 19.8, linear 25.7
//                                                         8: scatter_allgather 40, binomial 74
//              1 MiB: 2: binomial 81, scatter_ag 84       4: linear 244, binomial 254, scatter_ag 278
//                                                         8: binomial 487, scatter_ag 661
//   reduce     8 B:   2: binomial 0.22   4: linear 8.1, binomial 10.3    8: binomial 18, linear 51
//              1 KiB: binomial everywhere (0.29, 7.7, 12.1)
//              64 KiB: linear everywhere (11.0 / 45 / 83; binomial 11.2 / 49 / 98)
//              1 MiB: 2: linear 134, binomial 159     4: reduce_scatter_gather 410, linear 436     8: linear 1204
//   allreduce  8 B, 1 KiB: 2: ring 0.48 / 0.60, recursive_doubling 0.59 / 0.84     4, 8: recursive_doubling 4.5, 20
//              64 KiB: ring everywhere (15 / 30 / 98; segmented_ring 22 / 30 / 114, rabenseifner 25 / 62 / 153)
//              1 MiB: 2: ring 139, rabenseifner 301   4: rabenseifner 505, ring 508   8: rabenseifner 1616, ring 1832
//   allgather  8 B:   2: linear 0.53   4: recursive_doubling 4.7, bruck 5.1, linear 6.3   8: linear 15, bruck 22
//              1 KiB: 2: recursive_doubling 0.76, linear 0.78   4: linear 4.3   8: linear 15.6, bruck 22
//              64 KiB: 2: linear 14, ring 15   4: recursive_doubling 77, linear 79
//                                              8: recursive_doubling 330, linear 382
//              1 MiB: linear everywhere (136 / 941 / 6745; ring 136 / 1488 / 7202)
//   alltoall   8 B - 64 KiB: linear everywhere (0.55 - 16 at 2; 4.1 - 82 at 4; 15 - 325 at 8; bruck, pairwise slower)
//              1 MiB: pairwise everywhere (136 / 1371 / 7236; linear 140 / 1489 / 8019)
//   barrier    2: recursive_doubling 0.24 = dissemination   4: recursive_doubling 5.2, linear 6.5, dissemination 10
//              8: linear 14, dissemination 17, recursive_doubling 20
// A second run (after the transport's per-source matching, which made 4- and 8-rank streams of small messages 10x
// faster) kept these winners within its noise (10 - 30% between runs), except that binomial reduce then led at 4
// ranks for every size and the 64 KiB allreduce at 4 and 8 ranks split between ring and segmented_ring.
// Linear algorithms win small and medium cases here because, with more ranks than cores, fewer steps mean fewer
// waits for the scheduler; they cost O(p) at one rank, so they are chosen only up to the 8 ranks measured, and
// logarithmic or bandwidth-optimal algorithms (by their costs in algorithms/*.cpp) serve larger communicators.
// Thresholds between two measured sizes sit at their geometric middle (8 KiB between 1 and 64 KiB, 256 KiB between
// 64 KiB and 1 MiB). The v and w variants, reduce_scatter and the scans are not benchmarked: their rules follow the
// costs.
struct Rule {
  Operation op;
  std::size_t max_bytes;  // one rank's block
  int min_ranks, max_ranks;
  const char* name;
};

constexpr int kMany = std::numeric_limits<int>::max();

constexpr Rule kRules[] = {
    {Operation::kBarrier, kAny, 1, 4, "recursive_doubling"},
    {Operation::kBarrier, kAny, 5, 8, "linear"},
    {Operation::kBarrier, kAny, 9, kMany, "dissemination"},
    {Operation::kBcast, 8192, 1, kMany, "binomial"},
    {Operation::kBcast, 262144, 4, kMany, "scatter_allgather"},
    {Operation::kBcast, kAny, 1, kMany, "binomial"},
    {Operation::kGather, 4096, 1, kMany, "binomial"},
    {Operation::kGather, kAny, 1, kMany, "linear"},
    {Operation::kScatter, 4096, 1, kMany, "binomial"},
    {Operation::kScatter, kAny, 1, kMany, "linear"},
    {Operation::kAllgather, 8192, 1, 8, "linear"},
    {Operation::kAllgather, 8192, 9, kMany, "bruck"},
    {Operation::kAllgather, 262144, 3, kMany, "recursive_doubling"},
    {Operation::kAllgather, kAny, 1, 8, "linear"},
    {Operation::kAllgather, kAny, 9, kMany, "ring"},
    {Operation::kAllgatherv, kAny, 1, kMany, "ring"},
    {Operation::kAlltoall, 65536, 1, 8, "linear"},
    {Operation::kAlltoall, 256, 9, kMany, "bruck"},
    {Operation::kAlltoall, kAny, 1, kMany, "pairwise"},
    {Operation::kAlltoallv, kAny, 1, kMany, "pairwise"},
    {Operation::kAlltoallw, kAny, 1, kMany, "pairwise"},
    {Operation::kReduce, 8192, 1, kMany, "binomial"},
    {Operation::kReduce, kAny, 1, 8, "linear"},
    {Operation::kReduce, kAny, 9, kMany, "reduce_scatter_gather"},
    {Operation::kAllreduce, 8192, 2, 2, "ring"},
    {Operation::kAllreduce, 8192, 1, kMany, "recursive_doubling"},
    {Operation::kAllreduce, 262144, 1, kMany, "ring"},
    {Operation::kAllreduce, kAny, 1, 4, "ring"},
    {Operation::kAllreduce, kAny, 1, kMany, "rabenseifner"},
    {Operation::kReduceScatter, kAny, 1, kMany, "ring"},
    {Operation::kReduceScatter, kAny, 1, kMany, "pairwise"},
    {Operation::kReduceScatterBlock, kAny, 1, kMany, "ring"},
    {Operation::kReduceScatterBlock, kAny, 1, kMany, "pairwise"},
    {Operation::kScan, kAny, 1, kMany, "recursive_doubling"},
    {Operation::kExscan, kAny, 1, kMany, "recursive_doubling"},
};

bool applies(const Algorithm& a, const Args& args) { return a.applies == nullptr || a.applies(args); }

// A forced name must exist; when it does not apply to this call (a non-commutative operator for a ring, a size
// it does not support), the call falls back to the automatic choice, as MPICH does: a global override must not
// break the calls it cannot serve. `out` stays null then.
Status forced_algorithm(Operation op, const Args& args, const std::string& name, const char* source,
                        const Algorithm*& out) {
  out = find_algorithm(op, name);
  if (out == nullptr)
    return error(kErrArg, std::string(source) + " asks for " + operation_name(op) + " algorithm \"" + name +
                              "\", which does not exist; valid names: " + algorithm_names(op));
  if (!applies(*out, args)) out = nullptr;
  return Status::success();
}

// Per-operation names, made once: selection runs on every call.
using PerOperation = std::array<std::string, static_cast<std::size_t>(Operation::kCount)>;

template <class Make>
PerOperation per_operation(Make make) {
  PerOperation out;
  for (int i = 0; i < static_cast<int>(Operation::kCount); ++i) out[i] = make(static_cast<Operation>(i));
  return out;
}

const std::string& environment_name(Operation op) {  // STRATA_COLL_<OPERATION>
  static const PerOperation names = per_operation([](Operation o) {
    std::string name = std::string("STRATA_COLL_") + operation_name(o);
    for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return name;
  });
  return names[static_cast<std::size_t>(op)];
}

// The environment's choice per operation, read once (as MPICH reads its control variables at start).
const std::string& environment_choice(Operation op) {
  static const PerOperation choices = per_operation([](Operation o) {
    const char* value = std::getenv(environment_name(o).c_str());
    return std::string(value ? value : "");
  });
  return choices[static_cast<std::size_t>(op)];
}

}  // namespace

// Every rank must pick the same algorithm, so this uses only what every rank knows alike: at a gather's leaves the
// receive arguments are not significant, and in the v/w exchanges each rank knows only its own counts.
std::size_t message_bytes(Operation op, const Args& args) {
  auto bytes = [](std::size_t count, const datatype::TypeRef& type) { return type ? count * type->size : 0; };
  switch (op) {
    case Operation::kBarrier: case Operation::kGatherv: case Operation::kScatterv: case Operation::kAlltoallv:
    case Operation::kAlltoallw:
      return 0;
    case Operation::kGather:
      return args.in_place ? bytes(args.recvcount, args.recvtype) : bytes(args.sendcount, args.sendtype);
    case Operation::kScatter:
      return args.in_place ? bytes(args.sendcount, args.sendtype) : bytes(args.recvcount, args.recvtype);
    case Operation::kAllgatherv: case Operation::kReduceScatter: {  // the average block; the counts are global
      std::size_t total = 0;
      for (int n : args.recvcounts) total += static_cast<std::size_t>(n);
      return args.recvcounts.empty() ? 0 : bytes(total, args.recvtype) / args.recvcounts.size();
    }
    default:
      return bytes(args.recvcount, args.recvtype);
  }
}

const std::string& info_key(Operation op) {
  static const PerOperation keys =
      per_operation([](Operation o) { return std::string("strata_coll_") + operation_name(o); });
  return keys[static_cast<std::size_t>(op)];
}

Status select(Operation op, const Args& args, const std::string& forced, const Algorithm*& out) {
  out = nullptr;
  const std::string& env = environment_choice(op);
  Status s;
  if (!forced.empty())
    s = forced_algorithm(op, args, forced, "the communicator's info", out);
  else if (!env.empty())
    s = forced_algorithm(op, args, env, environment_name(op).c_str(), out);
  if (!s.ok() || out != nullptr) return s;
  const std::size_t bytes = message_bytes(op, args);
  for (const Rule& rule : kRules) {
    if (rule.op != op || bytes > rule.max_bytes || args.size < rule.min_ranks || args.size > rule.max_ranks)
      continue;
    const Algorithm* a = find_algorithm(op, rule.name);
    if (a != nullptr && applies(*a, args)) {
      out = a;
      return Status::success();
    }
  }
  out = first_applicable(op, args);
  if (out == nullptr) return error(kErrArg, std::string("no ") + operation_name(op) + " algorithm applies");
  return Status::success();
}

}  // namespace strata::coll
