// The cost model's parameters measured at MPI_Init when the user asks (STRATA_COST_PROBE=1): cost_probe.cpp.
#pragma once
#include "comm/communicator.hpp"

namespace strata::api {

// Collective over MPI_COMM_WORLD (`world`), called by every rank at the end of MPI_Init; returns at once unless
// STRATA_COST_PROBE=1 and STRATA_COST_FILE is unset.
void probe_cost_parameters(const comm::Communicator& world);

}  // namespace strata::api
