// Where the other processes of my node lie, for queries that are not collective (MPIX_Comm_get_min_hlevel).
// A process's binding is job data: the launcher's PMIX_CPUSET when it simulates the machine, otherwise the CPU
// affinity every process publishes at MPI_Init (a few bytes in the address exchange, no topology loaded then).
#pragma once
#include "runtime/bootstrap.hpp"
#include "topo/placement.hpp"

namespace strata::topo {

// Before the init exchange (runtime::exchange); nothing to do for a singleton.
Status publish_binding(const runtime::World& world);

// The placement of `world_rank`, which must be on my node; cached. nullptr (reason in `status`) if unknown.
const Placement* peer_placement(const runtime::World& world, int world_rank, Status& status);

}  // namespace strata::topo
