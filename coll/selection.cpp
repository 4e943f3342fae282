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
// wins. Provisional values from the algorithms' costs (log-depth for small messages, bandwidth-optimal for
// large); bench/run-coll measures them.
struct Rule {
  Operation op;
  std::size_t max_bytes;  // one rank's block
  int min_ranks;
  const char* name;
};

constexpr Rule kRules[] = {
    {Operation::kBarrier, kAny, 1, "dissemination"},
    {Operation::kBcast, 16384, 1, "binomial"},
    {Operation::kBcast, kAny, 4, "scatter_allgather"},
    {Operation::kBcast, kAny, 1, "binomial"},
    {Operation::kGather, 4096, 1, "binomial"},
    {Operation::kGather, kAny, 1, "linear"},
    {Operation::kScatter, 4096, 1, "binomial"},
    {Operation::kScatter, kAny, 1, "linear"},
    {Operation::kAllgather, 8192, 1, "recursive_doubling"},
    {Operation::kAllgather, 8192, 1, "bruck"},
    {Operation::kAllgather, kAny, 1, "ring"},
    {Operation::kAllgatherv, kAny, 1, "ring"},
    {Operation::kAlltoall, 256, 1, "bruck"},
    {Operation::kAlltoall, kAny, 1, "pairwise"},
    {Operation::kAlltoallv, kAny, 1, "pairwise"},
    {Operation::kAlltoallw, kAny, 1, "pairwise"},
    {Operation::kReduce, 65536, 1, "binomial"},
    {Operation::kReduce, kAny, 4, "reduce_scatter_gather"},
    {Operation::kReduce, kAny, 1, "binomial"},
    {Operation::kAllreduce, 8192, 1, "recursive_doubling"},
    {Operation::kAllreduce, kAny, 4, "rabenseifner"},
    {Operation::kAllreduce, kAny, 1, "recursive_doubling"},
    {Operation::kReduceScatter, kAny, 1, "ring"},
    {Operation::kReduceScatter, kAny, 1, "pairwise"},
    {Operation::kReduceScatterBlock, kAny, 1, "ring"},
    {Operation::kReduceScatterBlock, kAny, 1, "pairwise"},
    {Operation::kScan, kAny, 1, "recursive_doubling"},
    {Operation::kExscan, kAny, 1, "recursive_doubling"},
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
    if (rule.op != op || bytes > rule.max_bytes || args.size < rule.min_ranks) continue;
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
