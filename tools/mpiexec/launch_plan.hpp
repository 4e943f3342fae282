// Everything the command line asks for, decided and checked before anything starts (no PMIx server, no
// fork, no session file yet), so that bad input ends in one "mpiexec: ..." line and exit status 2.
#pragma once

#include <sched.h>

#include <optional>
#include <string>
#include <vector>

#include "tools/mpiexec/options.hpp"
#include "tools/mpiexec/placement.hpp"
#include "tools/mpiexec/pmix_job_map.hpp"

namespace strata::mpiexec {

struct LaunchPlan {
  Placement placement;
  PublishedHardware hardware;                      // the simulated machine and the bindings, for PMIx
  std::vector<std::optional<cpu_set_t>> affinity;  // by rank: a real binding, else its simulated node's CPUs
  std::string binding_report;                      // --report-bindings lines; empty without the option
};

// Throws UsageError for bad input (see node_machine.hpp and binding.hpp).
LaunchPlan plan_launch(const Options& options, const std::string& real_hostname);

}  // namespace strata::mpiexec
