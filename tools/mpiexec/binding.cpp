#include "tools/mpiexec/binding.hpp"

#include <hwloc/glibc-sched.h>

#include <algorithm>
#include <string>

namespace strata::mpiexec {
namespace {

// For messages: "2 cores", "4 L2 caches".
std::string level_noun(topo::Level level) {
  switch (level) {
    case topo::Level::Rack: return "rack";  // never bound to (options.cpp refuses it), named for completeness
    case topo::Level::Switch: return "switch";
    case topo::Level::Node: return "node";
    case topo::Level::Package: return "package";
    case topo::Level::NUMANode: return "NUMA node";
    case topo::Level::L3Cache: return "L3 cache";
    case topo::Level::L2Cache: return "L2 cache";
    case topo::Level::L1Cache: return "L1 cache";
    case topo::Level::Core: return "core";
    case topo::Level::PU: return "PU";
  }
  return "level";
}

std::string machine_noun(const topo::Machine& machine) {
  return machine.simulated() ? "the simulated machine" : "this host";
}

std::vector<Binding> bind_to_level(topo::Level level, bool oversubscribe, const topo::Machine& machine,
                                   const Placement& placement) {
  const auto& instances = machine.instances(level);
  std::string noun = level_noun(level);
  if (instances.empty())
    throw UsageError("--bind-to " + std::string(topo::short_name(level)) + ": " + machine_noun(machine) + " has no " +
                     noun);
  std::size_t most = 0;
  for (const auto& ranks : placement.ranks_on_node) most = std::max(most, ranks.size());
  if (most > instances.size() && !oversubscribe)
    throw UsageError("cannot bind " + std::to_string(most) + " ranks per node to " + std::to_string(instances.size()) +
                     " " + noun + (instances.size() == 1 ? "" : "s") + "; use --oversubscribe to bind several ranks to one " +
                     noun);
  std::vector<Binding> bindings;
  for (auto local : placement.local_rank) bindings.emplace_back(instances[local % instances.size()].cpuset);
  return bindings;
}

std::vector<Binding> from_cpu_list(const std::vector<std::string>& entries, const topo::Machine& machine) {
  std::vector<Binding> bindings;
  for (std::size_t rank = 0; rank < entries.size(); ++rank) {
    const std::string& entry = entries[rank];
    std::string which = "--cpu-list entry for rank " + std::to_string(rank) + " ('" + entry + "')";
    auto set = topo::Cpuset::parse_list(entry);
    if (!set || set->empty()) throw UsageError(which + " is not a PU list like 0-3,8");
    if (!set->within(machine.whole()))
      throw UsageError(which + " is not within " + machine_noun(machine) + "'s PUs " + machine.whole().list());
    bindings.emplace_back(*set);
  }
  return bindings;
}

}  // namespace

std::vector<Binding> compute_bindings(const Options& options, const topo::Machine& machine,
                                      const Placement& placement) {
  if (!options.cpu_list.empty()) {
    if (options.cpu_list.size() != static_cast<std::size_t>(options.nprocs))
      throw UsageError("--cpu-list has " + std::to_string(options.cpu_list.size()) + " cpusets for " +
                       std::to_string(options.nprocs) + " ranks; give one per rank, separated by ';'");
    return from_cpu_list(options.cpu_list, machine);
  }
  if (options.bind_to) return bind_to_level(*options.bind_to, options.oversubscribe, machine, placement);
  return std::vector<Binding>(options.nprocs);
}

cpu_set_t affinity_mask(const topo::Machine& machine, const topo::Cpuset& binding) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  hwloc_cpuset_to_glibc_sched_affinity(machine.hwloc(), binding.get(), &mask, sizeof mask);
  return mask;
}

}  // namespace strata::mpiexec
