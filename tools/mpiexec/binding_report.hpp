// --report-bindings: one line per rank, printed before the ranks start, saying where topo:: will place it
// (the levels whose one instance holds its whole binding, as the library's hardware splits will see them):
//   [mpiexec] rank 3 on node1: cpuset 4-5 (simulated): Node#0 Package#1 NUMANode#1 L3Cache#1 L2Cache#2
//   [mpiexec] rank 9 on node4: unbound: Rack#1 Switch#2 Node#0 Package#0   (with --network: job-wide indexes)
//   [mpiexec] rank 0 on myhost: unbound: Node#0 Package#0 NUMANode#0 L3Cache#0
#pragma once

#include <string>
#include <vector>

#include "tools/mpiexec/binding.hpp"
#include "tools/mpiexec/placement.hpp"
#include "topo/machine.hpp"
#include "topo/network.hpp"

namespace strata::mpiexec {

// The lines, each ending in '\n'.
std::string binding_report(const Placement& placement, const topo::Machine& machine, const topo::Network& network,
                           const std::vector<Binding>& bindings);

}  // namespace strata::mpiexec
