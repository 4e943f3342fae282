#include "coll/algorithms.hpp"

#include <string>

#include "coll/node_segment.hpp"

namespace strata::coll {

const char* operation_name(Operation op) {
  static constexpr const char* kNames[] = {
      "barrier",   "bcast",     "gather",    "gatherv",        "scatter",              "scatterv",
      "allgather", "allgatherv", "alltoall", "alltoallv",      "alltoallw",            "reduce",
      "allreduce", "reduce_scatter",         "reduce_scatter_block", "scan",           "exscan",
      "neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw"};
  static_assert(std::size(kNames) == static_cast<std::size_t>(Operation::kCount));
  return kNames[static_cast<int>(op)];
}

std::vector<int> all_ranks_but(int rank, int p) {
  std::vector<int> out;
  for (int r = 0; r < p; ++r)
    if (r != rank) out.push_back(r);
  return out;
}

void set_send(Args& a, const Data& d) {
  a.sendbuf = reinterpret_cast<const void*>(d.buf.at);
  a.send_area = d.buf.area;
  a.sendcount = d.count;
  a.sendtype = d.type;
}

void set_recv(Args& a, const Data& d) {
  a.recvbuf = reinterpret_cast<void*>(d.buf.at);
  a.recv_area = d.buf.area;
  a.recvcount = d.count;
  a.recvtype = d.type;
}

Data block_v(Buf base, const std::vector<int>& counts, const std::vector<int>& displs, const datatype::TypeRef& type,
             std::size_t i) {
  return {base + static_cast<std::ptrdiff_t>(displs[i]) * type->extent(), static_cast<std::size_t>(counts[i]), type};
}

bool shares_node_memory(const Args& a) { return a.shared_memory && a.size <= NodeSegment::kMostRanks; }

bool rooted(Operation op) {
  switch (op) {
    case Operation::kBcast: case Operation::kGather: case Operation::kGatherv: case Operation::kScatter:
    case Operation::kScatterv: case Operation::kReduce:
      return true;
    default:
      return false;
  }
}

// Every family's table, in one list.
template <class Fn>
static void for_each_algorithm(Fn&& fn) {
  for (auto family : {rooted_algorithms, exchange_algorithms, reduction_algorithms, hierarchical_algorithms,
                      distance_aware_algorithms, grouped_algorithms})
    for (const Algorithm& a : family()) fn(a);
}

const Algorithm* find_algorithm(Operation op, std::string_view name) {
  const Algorithm* found = nullptr;
  for_each_algorithm([&](const Algorithm& a) {
    if (a.operation == op && name == a.name) found = &a;
  });
  return found;
}

const Algorithm* first_applicable(Operation op, const Args& args) {
  const Algorithm* found = nullptr;
  for_each_algorithm([&](const Algorithm& a) {
    if (found == nullptr && a.operation == op && (a.applies == nullptr || a.applies(args))) found = &a;
  });
  return found;
}

std::vector<const Algorithm*> algorithms_for(Operation op) {
  std::vector<const Algorithm*> out;
  for_each_algorithm([&](const Algorithm& a) {
    if (a.operation == op) out.push_back(&a);
  });
  return out;
}

std::string algorithm_names(Operation op) {
  std::string out;
  for_each_algorithm([&](const Algorithm& a) {
    if (a.operation == op) out += (out.empty() ? "" : ", ") + std::string(a.name);
  });
  return out;
}

}  // namespace strata::coll
