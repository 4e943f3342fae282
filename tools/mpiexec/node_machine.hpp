// The machine every node of the job has: the one --topology describes (simulated: nothing is really bound),
// else this host's, discovered by hwloc.
#pragma once

#include "tools/mpiexec/options.hpp"
#include "topo/machine.hpp"

namespace strata::mpiexec {

// Throws UsageError when --topology's description or file cannot be loaded, std::runtime_error when this
// host's topology cannot be discovered.
void load_node_machine(const TopologySpec& spec, topo::Machine& out);

}  // namespace strata::mpiexec
