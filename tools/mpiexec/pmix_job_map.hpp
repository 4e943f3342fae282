// What PMIx_server_register_nspace is told about the job: sizes, the node and process maps, per-node and
// per-rank data. The header comment of pmix_job_map.cpp explains how simulated nodes reach the clients.
#pragma once

#include "tools/mpiexec/placement.hpp"
#include "tools/mpiexec/pmix_info_list.hpp"

namespace strata::mpiexec {

InfoArray job_map_info(const Placement& placement);

}  // namespace strata::mpiexec
