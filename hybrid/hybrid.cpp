// MPIX_Hybrid_create / free / get_comms / alloc: the one-off part of the hybrid collectives (the paper's
// Wrapper_MPI_ShmemBridgeComm_create, Wrapper_Sharedmemory_alloc and translation tables, in one object).
//
// The one thing not done through PMPI is the children's wait for the leader's flag: it uses the library's waiting
// policy (runtime/progress.hpp), which no MPI call offers.
//
// Errors in the arguments are raised on the user's communicator (create) or on the hybrid object's duplicate of it,
// which keeps the handler the user's communicator had at creation. A failing PMPI call inside has already run that
// handler (our communicators inherit it); its code is passed on.
#include "hybrid/hybrid.hpp"

#include <algorithm>
#include <new>
#include <set>
#include <string>

#include "api/errors.hpp"
#include "api/pmpi.hpp"
#include "hybrid/try.hpp"
#include "runtime/lasting.hpp"
#include "runtime/progress.hpp"

namespace strata::hybrid {
namespace {

std::set<const MPIX_Hybrid_s*>& live() {
  static auto& objects = runtime::lasting<std::set<const MPIX_Hybrid_s*>>();
  return objects;
}

// Rank tables (the paper's translation tables): each comm rank's node index and rank on its node, and each node's
// size and first rank, from one allgather of the node index (the leader's bridge rank, spread over its node).
int make_tables(MPIX_Hybrid_s& h) {
  int node_index = 0;
  if (h.leader()) STRATA_TRY(PMPI_Comm_rank(h.bridge, &node_index));
  STRATA_TRY(PMPI_Bcast(&node_index, 1, MPI_INT, 0, h.node));
  h.node_of.assign(static_cast<std::size_t>(h.size), 0);
  STRATA_TRY(PMPI_Allgather(&node_index, 1, MPI_INT, h.node_of.data(), 1, MPI_INT, h.comm));
  int nodes = 0;
  for (int n : h.node_of) nodes = std::max(nodes, n + 1);
  h.node_sizes.assign(static_cast<std::size_t>(nodes), 0);
  h.node_first.assign(static_cast<std::size_t>(nodes), -1);
  h.rank_on_node.assign(static_cast<std::size_t>(h.size), 0);
  for (int r = 0; r < h.size; ++r) {
    const auto n = static_cast<std::size_t>(h.node_index(r));
    if (h.node_first[n] < 0) h.node_first[n] = r;
    h.rank_on_node[static_cast<std::size_t>(r)] = h.node_sizes[n]++;
  }
  h.block_order = true;
  for (int r = 0; r < h.size; ++r) {
    const auto n = static_cast<std::size_t>(h.node_index(r));
    const bool outside = r - h.node_first[n] >= h.node_sizes[n];
    if (outside || (n > 0 && h.node_first[n] < h.node_first[n - 1])) h.block_order = false;
  }
  return MPI_SUCCESS;
}

int make_flag(MPIX_Hybrid_s& h) {
  void* base = nullptr;
  const MPI_Aint bytes = h.leader() ? 128 : 0;  // two cache lines: the flag, then the arrivals
  STRATA_TRY(PMPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, h.node, &base, &h.flag_window));
  MPI_Aint size = 0;
  int unit = 0;
  STRATA_TRY(PMPI_Win_shared_query(h.flag_window, 0, &size, &unit, &base));
  char* lines = static_cast<char*>(base);
  if (h.leader()) {  // the owner constructs them, before anybody looks (the barrier)
    new (lines) std::atomic<std::uint64_t>(0);
    new (lines + 64) std::atomic<std::uint64_t>(0);
  }
  STRATA_TRY(PMPI_Barrier(h.node));
  h.flag = std::launder(reinterpret_cast<std::atomic<std::uint64_t>*>(lines));
  h.arrived = std::launder(reinterpret_cast<std::atomic<std::uint64_t>*>(lines + 64));
  return MPI_SUCCESS;
}

int create(MPI_Comm comm, MPIX_Hybrid_s& h) {
  STRATA_TRY(PMPI_Comm_dup(comm, &h.comm));
  STRATA_TRY(PMPI_Comm_rank(h.comm, &h.rank));
  STRATA_TRY(PMPI_Comm_size(h.comm, &h.size));
  STRATA_TRY(PMPI_Comm_split_type(h.comm, MPI_COMM_TYPE_SHARED, h.rank, MPI_INFO_NULL, &h.node));
  STRATA_TRY(PMPI_Comm_rank(h.node, &h.node_rank));
  STRATA_TRY(PMPI_Comm_size(h.node, &h.node_size));
  STRATA_TRY(PMPI_Comm_split(h.comm, h.leader() ? 0 : MPI_UNDEFINED, h.rank, &h.bridge));
  STRATA_TRY(make_tables(h));
  return make_flag(h);
}

int release(MPIX_Hybrid_s& h) {
  if (h.flag_window != MPI_WIN_NULL) STRATA_TRY(PMPI_Win_free(&h.flag_window));
  if (h.bridge != MPI_COMM_NULL) STRATA_TRY(PMPI_Comm_free(&h.bridge));
  if (h.node != MPI_COMM_NULL) STRATA_TRY(PMPI_Comm_free(&h.node));
  if (h.comm != MPI_COMM_NULL) STRATA_TRY(PMPI_Comm_free(&h.comm));
  return MPI_SUCCESS;
}

}  // namespace

void leader_done(MPIX_Hybrid_s& h) {
  ++h.epoch;
  if (h.node_size == 1) return;
  if (h.leader()) {
    h.flag->store(h.epoch, std::memory_order_release);
    return;
  }
  // The library's own wait: it drives progress (this process's pending messages) and yields the core only when
  // ranks outnumber cores. Yielding after a few spins regardless cost 17 us per call at 2 ranks on a loaded host.
  runtime::wait_until([&] { return h.flag->load(std::memory_order_acquire) >= h.epoch; });
}

void all_written(MPIX_Hybrid_s& h) {
  ++h.arrivals;
  if (h.node_size == 1) return;
  if (!h.leader()) {
    h.arrived->fetch_add(1, std::memory_order_release);
    return;
  }
  const std::uint64_t all = h.arrivals * static_cast<std::uint64_t>(h.node_size - 1);
  runtime::wait_until([&] { return h.arrived->load(std::memory_order_acquire) >= all; });
}

bool is_live(const MPIX_Hybrid_s* h) { return h != nullptr && live().count(h) != 0; }

}  // namespace strata::hybrid

using namespace strata;

STRATA_PMPIX(Hybrid_create)
extern "C" int PMPIX_Hybrid_create(MPI_Comm comm, MPIX_Hybrid* hybrid) {
  if (hybrid == nullptr) return api::raise("MPIX_Hybrid_create", comm, MPI_ERR_ARG, "hybrid is NULL");
  int inter = 0;
  if (int rc = PMPI_Comm_test_inter(comm, &inter); rc != MPI_SUCCESS) return rc;  // also checks comm
  if (inter) return api::raise("MPIX_Hybrid_create", comm, MPI_ERR_COMM, "comm is an intercommunicator");
  auto* h = new MPIX_Hybrid_s;
  if (int rc = hybrid::create(comm, *h); rc != MPI_SUCCESS) {
    hybrid::release(*h);
    delete h;
    return rc;
  }
  hybrid::live().insert(h);
  *hybrid = h;
  return MPI_SUCCESS;
}

STRATA_PMPIX(Hybrid_free)
extern "C" int PMPIX_Hybrid_free(MPIX_Hybrid* hybrid) {
  if (hybrid == nullptr || !hybrid::is_live(*hybrid))
    return api::raise("MPIX_Hybrid_free", MPI_COMM_SELF, MPI_ERR_ARG,
                      hybrid == nullptr ? "hybrid is NULL" : "*hybrid is not a live hybrid object");
  MPIX_Hybrid_s* h = *hybrid;
  hybrid::live().erase(h);
  const int rc = hybrid::release(*h);
  delete h;
  *hybrid = MPIX_HYBRID_NULL;
  return rc;
}

STRATA_PMPIX(Hybrid_get_comms)
extern "C" int PMPIX_Hybrid_get_comms(MPIX_Hybrid hybrid, MPI_Comm* node_comm, MPI_Comm* bridge_comm) {
  if (!hybrid::is_live(hybrid))
    return api::raise("MPIX_Hybrid_get_comms", MPI_COMM_SELF, MPI_ERR_ARG, "hybrid is not a live hybrid object");
  if (node_comm != nullptr) *node_comm = hybrid->node;
  if (bridge_comm != nullptr) *bridge_comm = hybrid->bridge;
  return MPI_SUCCESS;
}

STRATA_PMPIX(Hybrid_alloc)
extern "C" int PMPIX_Hybrid_alloc(MPIX_Hybrid hybrid, MPI_Aint bytes, void* baseptr, MPI_Win* win) {
  const char* call = "MPIX_Hybrid_alloc";
  if (!hybrid::is_live(hybrid)) return api::raise(call, MPI_COMM_SELF, MPI_ERR_ARG, "hybrid is not a live object");
  if (bytes < 0)
    return api::raise(call, hybrid->comm, MPI_ERR_SIZE, "bytes is negative (" + std::to_string(bytes) + ")");
  if (baseptr == nullptr || win == nullptr)
    return api::raise(call, hybrid->comm, MPI_ERR_ARG, baseptr == nullptr ? "baseptr is NULL" : "win is NULL");
  void* base = nullptr;
  const MPI_Aint mine = hybrid->leader() ? bytes : 0;  // one copy per node, all of it the leader's
  if (int rc = PMPI_Win_allocate_shared(mine, 1, MPI_INFO_NULL, hybrid->node, &base, win); rc != MPI_SUCCESS)
    return rc;
  MPI_Aint size = 0;
  int unit = 0;
  if (int rc = PMPI_Win_shared_query(*win, 0, &size, &unit, &base); rc != MPI_SUCCESS) return rc;
  *static_cast<void**>(baseptr) = base;
  return MPI_SUCCESS;
}
