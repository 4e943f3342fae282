// The registry of collective algorithms: every algorithm is a pure builder with a name, selectable by that name
// (selection.hpp picks among the applicable ones). Each family of algorithms lives in algorithms/<family>.cpp and
// lists itself through one function below.
#pragma once
#include <span>
#include <string_view>
#include <vector>

#include "coll/args.hpp"
#include "coll/schedule.hpp"

namespace strata::coll {

enum class Operation : int {
  kBarrier, kBcast, kGather, kGatherv, kScatter, kScatterv, kAllgather, kAllgatherv, kAlltoall, kAlltoallv,
  kAlltoallw, kReduce, kAllreduce, kReduceScatter, kReduceScatterBlock, kScan, kExscan,
  kNeighborAllgather, kNeighborAllgatherv, kNeighborAlltoall, kNeighborAlltoallv, kNeighborAlltoallw,
  kCount
};

const char* operation_name(Operation op);  // "bcast", "allreduce", ... (the info key suffix)

struct Algorithm {
  Operation operation;
  const char* name;                  // "binomial", "ring", ...
  void (*build)(const Args&, Schedule&);
  bool (*applies)(const Args&);      // nullptr: any arguments (e.g. false for a non-commutative op it would reorder)
  bool topology_aware = false;       // needs Args::hierarchy
  bool grouped = false;              // takes Args::groups (G); the cost model tries several when it is 0
};

// The tags a schedule built for `a` may use.
inline int tag_limit(const Args& a) { return a.tag_limit > 0 ? a.tag_limit : kTagsPerCollective; }

// Every rank of p but `rank`: the readers of a block a rank leaves in the node's shared memory for all the others.
std::vector<int> all_ranks_but(int rank, int p);
// Whether the call's ranks share the node's memory (Args::shared_memory) and fit its 64-bit reader masks: where
// the shared_memory algorithms may run, before their own limits on sizes and tags.
bool shares_node_memory(const Args& a);

// For an algorithm built inside another (a level, a group's phase): `d` as the call's send or receive side.
void set_send(Args& a, const Data& d);
void set_recv(Args& a, const Data& d);
// Block i of a v layout (counts and displacements in elements of `type`) or of a w layout (displacements in bytes,
// a type per block).
Data block_v(Buf base, const std::vector<int>& counts, const std::vector<int>& displs, const datatype::TypeRef& type,
             std::size_t i);
template <class Displacement>
Data block_w(Buf base, const std::vector<int>& counts, const std::vector<Displacement>& displs,
             const std::vector<datatype::TypeRef>& types, std::size_t i) {
  return {base + static_cast<std::ptrdiff_t>(displs[i]), static_cast<std::size_t>(counts[i]), types[i]};
}

// The families (algorithms/*.cpp).
std::span<const Algorithm> rooted_algorithms();      // barrier, bcast, gather(v), scatter(v)
std::span<const Algorithm> exchange_algorithms();    // allgather(v), alltoall(v, w)
std::span<const Algorithm> reduction_algorithms();   // reduce, allreduce, reduce_scatter(_block), scan, exscan
// Topology-aware: barrier, bcast, gather, scatter, allgather, reduce, allreduce over the communicator's hardware
// hierarchy (Args::hierarchy); they apply only where the caller looked it up.
std::span<const Algorithm> hierarchical_algorithms();
// Topology-aware: bcast and allgather on trees and rings built from the processes' distances (distance-aware
// collectives paper), from Args::hierarchy's placements.
std::span<const Algorithm> distance_aware_algorithms();
// Topology-oblivious: reduce, allreduce and bcast on G groups of ranks then across the groups (hierarchical
// reduction paper), Args::groups.
std::span<const Algorithm> grouped_algorithms();

// The one algorithm for the operation on an intercommunicator (Args::inter), outside the registry: nothing else
// applies there, and it applies nowhere else.
const Algorithm& intercomm_algorithm(Operation op);

// The operations with a root: bcast, reduce, gather(v), scatter(v).
bool rooted(Operation op);

// The neighbourhood collectives (MPI-4.0 8.6): one algorithm each, outside the registry (Args::sources ...).
bool neighbourhood(Operation op);
const Algorithm& neighbourhood_algorithm(Operation op);

// Every algorithm registered for the operation, in registry order.
std::vector<const Algorithm*> algorithms_for(Operation op);

// The algorithm of that name for the operation, or nullptr.
const Algorithm* find_algorithm(Operation op, std::string_view name);
// The first algorithm of the registry for the operation that applies to `args`, or nullptr.
const Algorithm* first_applicable(Operation op, const Args& args);
// "a, b, c": the names for the operation, for error messages.
std::string algorithm_names(Operation op);

}  // namespace strata::coll
