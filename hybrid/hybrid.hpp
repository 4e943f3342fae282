// The MPIX_Hybrid object: what the hybrid collectives (collectives.cpp) prepare once per communicator, after the
// paper's comm_package and its translation tables. Everything here is made with PMPI calls.
//
// The leader's flag: a 64-bit counter in a small node window. Each hybrid call that ends with "the leader is done"
// advances every process's local `epoch` alike; the leader publishes its new epoch with a release store and the
// others wait until the counter reaches theirs (the paper's Fig. 11 spin, in the library's progress loop). A
// counter, unlike a boolean, never needs resetting, so back-to-back calls cannot miss a raise. The arrivals counter
// is the same in the other direction (all_written).
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <vector>

struct MPIX_Hybrid_s {
  MPI_Comm comm = MPI_COMM_NULL;    // a duplicate of the user's: our traffic never matches theirs
  MPI_Comm node = MPI_COMM_NULL;    // MPI_COMM_TYPE_SHARED split of comm, ranks in comm order
  MPI_Comm bridge = MPI_COMM_NULL;  // the leaders (node rank 0), in comm order; MPI_COMM_NULL elsewhere
  int rank = 0, size = 0, node_rank = 0, node_size = 0;
  std::vector<int> node_of;        // comm rank -> its node's index (its leader's bridge rank)
  std::vector<int> node_sizes;     // per node index: processes
  std::vector<int> node_first;     // per node index: its lowest comm rank
  std::vector<int> rank_on_node;   // comm rank -> its rank in its node's communicator (comm order within a node)
  bool block_order = false;        // every node's ranks are consecutive in comm, nodes in bridge order

  MPI_Win flag_window = MPI_WIN_NULL;
  std::atomic<std::uint64_t>* flag = nullptr;     // in flag_window, written by the leader only
  std::atomic<std::uint64_t>* arrived = nullptr;  // in flag_window, on its own cache line: the others' arrivals
  std::uint64_t epoch = 0, arrivals = 0;

  bool leader() const { return node_rank == 0; }
  int node_index(int rank) const { return node_of[static_cast<std::size_t>(rank)]; }
};

namespace strata::hybrid {

// The leader raises the flag; the others wait for it. Every process of the node calls it at the same point.
void leader_done(MPIX_Hybrid_s& h);
// The reverse, for "every process must have written": the others count themselves in and go on; the leader waits
// until all have. Cheaper than a barrier, since only the leader acts on the data next.
void all_written(MPIX_Hybrid_s& h);

// Whether `h` is a live hybrid object (made by MPIX_Hybrid_create and not yet freed).
bool is_live(const MPIX_Hybrid_s* h);

}  // namespace strata::hybrid
