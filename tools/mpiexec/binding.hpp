// Which PUs each rank may run on, from --bind-to or --cpu-list, checked against the node's machine before
// anything starts. The same bindings are published (PMIX_CPUSET) whether the machine is simulated or real;
// only on the real one are they also applied (job.cpp, sched_setaffinity in the forked child).
#pragma once

#include <sched.h>

#include <optional>
#include <vector>

#include "tools/mpiexec/options.hpp"
#include "tools/mpiexec/placement.hpp"
#include "topo/cpuset.hpp"
#include "topo/machine.hpp"

namespace strata::mpiexec {

// nullopt: unbound, the rank may run anywhere on its node.
using Binding = std::optional<topo::Cpuset>;

// By rank. --bind-to LEVEL: local rank i of every node gets the i-th instance of LEVEL (topo's instance
// order), or instance i % count with --oversubscribe. --cpu-list: entry r for rank r. Neither: all unbound.
// Throws UsageError naming the bad level or entry.
std::vector<Binding> compute_bindings(const Options& options, const topo::Machine& machine,
                                      const Placement& placement);

// The binding as a sched_setaffinity mask (PU numbers of a discovered machine are OS CPU numbers).
cpu_set_t affinity_mask(const topo::Machine& machine, const topo::Cpuset& binding);

}  // namespace strata::mpiexec
