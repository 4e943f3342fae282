// MPIX_Hybrid_allgather, MPIX_Hybrid_bcast, MPIX_Hybrid_allreduce: the paper's Fig. 10, one copy of the result
// per node (node_buf, from MPIX_Hybrid_alloc), leaders alone between nodes.
//
// The paper's two synchronisations are two counters in shared memory (hybrid.hpp): "every process has written" is
// the others' arrivals, which only the leader waits for, and "the leader is done" is its flag. Their release and
// acquire order the stores to node_buf in Strata's unified memory, so node_buf's window need not be passed in.
#include <atomic>
#include <string>
#include <vector>

#include "api/check.hpp"
#include "api/errors.hpp"
#include "api/pmpi.hpp"
#include "hybrid/hybrid.hpp"
#include "hybrid/try.hpp"

using namespace strata;

namespace {

using hybrid::leader_done;

// The checks every hybrid collective makes; MPI_SUCCESS or the raised error code.
int check_call(const char* call, MPIX_Hybrid h, int count, MPI_Datatype datatype, const void* node_buf) {
  if (!hybrid::is_live(h)) return api::raise(call, MPI_COMM_SELF, MPI_ERR_ARG, "hybrid is not a live hybrid object");
  api::Check check(call, h->comm);
  const datatype::Datatype* type = nullptr;
  check.count(count).type(datatype, type).committed(datatype, type);
  if (check.ok() && count > 0 && node_buf == nullptr) check.fail(MPI_ERR_BUFFER, "node_buf is NULL");
  return check.ok() ? MPI_SUCCESS : check.raise();
}

MPI_Aint extent_of(MPI_Datatype datatype) {
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_get_extent(datatype, &lb, &extent);
  return extent;
}

// Ranks not in node order: each leader sends its node's blocks, scattered at their ranks' places, to every other
// leader, and receives theirs the same way (one indexed type per node, made per call).
int exchange_scattered_blocks(MPIX_Hybrid_s& h, int count, MPI_Datatype datatype, void* node_buf) {
  const auto nodes = h.node_sizes.size();
  std::vector<std::vector<int>> places(nodes);
  for (int r = 0; r < h.size; ++r) places[static_cast<std::size_t>(h.node_index(r))].push_back(r * count);
  std::vector<MPI_Datatype> types(nodes, MPI_DATATYPE_NULL);
  for (std::size_t n = 0; n < nodes; ++n) {
    STRATA_TRY(PMPI_Type_create_indexed_block(static_cast<int>(places[n].size()), count, places[n].data(), datatype,
                                              &types[n]));
    STRATA_TRY(PMPI_Type_commit(&types[n]));
  }
  const auto me = static_cast<std::size_t>(h.node_index(h.rank));
  std::vector<int> sendcounts(nodes, 1), recvcounts(nodes, 1), displs(nodes, 0);
  sendcounts[me] = recvcounts[me] = 0;
  const std::vector<MPI_Datatype> sendtypes(nodes, types[me]);
  const int rc = PMPI_Alltoallw(node_buf, sendcounts.data(), displs.data(), sendtypes.data(), node_buf,
                                recvcounts.data(), displs.data(), types.data(), h.bridge);
  for (MPI_Datatype& t : types) PMPI_Type_free(&t);
  return rc;
}

int allgather(const void* sendbuf, int count, MPI_Datatype datatype, void* node_buf, MPIX_Hybrid_s& h) {
  char* mine = static_cast<char*>(node_buf) + static_cast<MPI_Aint>(h.rank) * count * extent_of(datatype);
  if (sendbuf != MPI_IN_PLACE)
    STRATA_TRY(PMPI_Sendrecv(sendbuf, count, datatype, 0, 0, mine, count, datatype, 0, 0, MPI_COMM_SELF,
                             MPI_STATUS_IGNORE));
  hybrid::all_written(h);  // every block of the node is written (its release orders this rank's stores)
  if (h.leader() && h.node_sizes.size() > 1) {
    if (!h.block_order) {
      STRATA_TRY(exchange_scattered_blocks(h, count, datatype, node_buf));
    } else {
      std::vector<int> counts, displs;
      for (std::size_t n = 0; n < h.node_sizes.size(); ++n) {
        counts.push_back(h.node_sizes[n] * count);
        displs.push_back(h.node_first[n] * count);
      }
      STRATA_TRY(PMPI_Allgatherv(MPI_IN_PLACE, 0, datatype, node_buf, counts.data(), displs.data(), datatype,
                                 h.bridge));
    }
  }
  leader_done(h);
  return MPI_SUCCESS;
}

int bcast(void* node_buf, int count, MPI_Datatype datatype, int root, MPIX_Hybrid_s& h) {
  const int root_node = h.node_index(root);
  const int root_in_node = h.rank_on_node[static_cast<std::size_t>(root)];
  const bool on_root_node = h.node_index(h.rank) == root_node;
  // A root that does not lead tells its leader the data is in place: one message, as a non-conduit root costs.
  if (on_root_node && root_in_node != 0) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (h.rank == root) STRATA_TRY(PMPI_Send(nullptr, 0, MPI_BYTE, 0, 0, h.node));
    if (h.leader()) STRATA_TRY(PMPI_Recv(nullptr, 0, MPI_BYTE, root_in_node, 0, h.node, MPI_STATUS_IGNORE));
  }
  if (h.leader() && h.node_sizes.size() > 1) STRATA_TRY(PMPI_Bcast(node_buf, count, datatype, root_node, h.bridge));
  leader_done(h);
  return MPI_SUCCESS;
}

// Up to this many bytes a node reduces to its leader alone (one MPI_Reduce, the paper's method 1); above it, every
// process of the node reduces one slice straight into node_buf (MPI_Reduce_scatter), so the node's cores share the
// arithmetic the leader would otherwise do alone.
constexpr MPI_Aint kSlicedReduceBytes = 256 * 1024;

// Step 1 with slices: process i's share of the node's reduction lands at its place in node_buf; the leader goes on
// once every slice is written.
int reduce_in_slices(const void* sendbuf, void* node_buf, int count, MPI_Datatype datatype, MPI_Op op,
                     MPIX_Hybrid_s& h) {
  std::vector<int> counts(static_cast<std::size_t>(h.node_size), count / h.node_size);
  for (int i = 0; i < count % h.node_size; ++i) ++counts[static_cast<std::size_t>(i)];
  MPI_Aint first = 0;
  for (int i = 0; i < h.node_rank; ++i) first += counts[static_cast<std::size_t>(i)];
  char* slice = static_cast<char*>(node_buf) + first * extent_of(datatype);
  STRATA_TRY(PMPI_Reduce_scatter(sendbuf, slice, counts.data(), datatype, op, h.node));
  hybrid::all_written(h);
  return MPI_SUCCESS;
}

int allreduce(const void* sendbuf, void* node_buf, int count, MPI_Datatype datatype, MPI_Op op, MPIX_Hybrid_s& h) {
  int type_size = 0;
  STRATA_TRY(PMPI_Type_size(datatype, &type_size));
  if (h.node_size > 1 && static_cast<MPI_Aint>(count) * type_size > kSlicedReduceBytes)
    STRATA_TRY(reduce_in_slices(sendbuf, node_buf, count, datatype, op, h));
  else
    STRATA_TRY(PMPI_Reduce(sendbuf, h.leader() ? node_buf : nullptr, count, datatype, op, 0, h.node));
  if (h.leader() && h.node_sizes.size() > 1)
    STRATA_TRY(PMPI_Allreduce(MPI_IN_PLACE, node_buf, count, datatype, op, h.bridge));
  leader_done(h);
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPIX(Hybrid_allgather)
extern "C" int PMPIX_Hybrid_allgather(const void* sendbuf, int count, MPI_Datatype datatype, void* node_buf,
                                      MPIX_Hybrid hybrid) {
  const char* call = "MPIX_Hybrid_allgather";
  if (int rc = check_call(call, hybrid, count, datatype, node_buf); rc != MPI_SUCCESS) return rc;
  if (sendbuf == nullptr && count > 0) return api::raise(call, hybrid->comm, MPI_ERR_BUFFER, "sendbuf is NULL");
  return allgather(sendbuf, count, datatype, node_buf, *hybrid);
}

STRATA_PMPIX(Hybrid_bcast)
extern "C" int PMPIX_Hybrid_bcast(void* node_buf, int count, MPI_Datatype datatype, int root, MPIX_Hybrid hybrid) {
  const char* call = "MPIX_Hybrid_bcast";
  if (int rc = check_call(call, hybrid, count, datatype, node_buf); rc != MPI_SUCCESS) return rc;
  if (root < 0 || root >= hybrid->size)
    return api::raise(call, hybrid->comm, MPI_ERR_ROOT,
                      "root " + std::to_string(root) + " is not a rank of the communicator (size " +
                          std::to_string(hybrid->size) + ")");
  return bcast(node_buf, count, datatype, root, *hybrid);
}

STRATA_PMPIX(Hybrid_allreduce)
extern "C" int PMPIX_Hybrid_allreduce(const void* sendbuf, void* node_buf, int count, MPI_Datatype datatype,
                                      MPI_Op op, MPIX_Hybrid hybrid) {
  const char* call = "MPIX_Hybrid_allreduce";
  if (int rc = check_call(call, hybrid, count, datatype, node_buf); rc != MPI_SUCCESS) return rc;
  if (sendbuf == MPI_IN_PLACE)
    return api::raise(call, hybrid->comm, MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE (each process's input is its own)");
  if (sendbuf == nullptr && count > 0) return api::raise(call, hybrid->comm, MPI_ERR_BUFFER, "sendbuf is NULL");
  int commutative = 1;
  if (int rc = PMPI_Op_commutative(op, &commutative); rc != MPI_SUCCESS) return rc;
  if (!commutative && !hybrid->block_order)
    return api::raise(call, hybrid->comm, MPI_ERR_OP,
                      "a non-commutative operator needs each node's ranks consecutive in the communicator");
  return allreduce(sendbuf, node_buf, count, datatype, op, *hybrid);
}
