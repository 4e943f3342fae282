#include "tools/mpiexec/launch_plan.hpp"

#include <sched.h>

#include <algorithm>

#include "tools/mpiexec/binding.hpp"
#include "tools/mpiexec/binding_report.hpp"
#include "tools/mpiexec/node_cpus.hpp"
#include "tools/mpiexec/node_machine.hpp"

namespace strata::mpiexec {
namespace {

// Simulated nodes run on their own shares of this host's CPUs (node_cpus.hpp): each rank's affinity, and the
// figures the cost model reads. A single node keeps every CPU, and its ranks are left as they are.
void share_host(const Placement& placement, LaunchPlan& plan) {
  const NodeCpus shares = share_cpus(allowed_cpus(), std::max<std::size_t>(placement.node_names.size(), 1));
  plan.hardware.node_cpus = shares.per_node;
  plan.hardware.host_nodes = shares.nodes_per_group;
  if (shares.of_node.size() < 2) return;
  plan.affinity.resize(placement.node_of_rank.size());
  for (std::size_t rank = 0; rank < plan.affinity.size(); ++rank) {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    for (int cpu : shares.of_node[placement.node_of_rank[rank]]) CPU_SET(cpu, &mask);
    plan.affinity[rank] = mask;
  }
}

}  // namespace

LaunchPlan plan_launch(const Options& options, const std::string& real_hostname) {
  LaunchPlan plan;
  plan.placement = place_ranks(options.nprocs, options.nodes, options.map_by, real_hostname);
  share_host(plan.placement, plan);
  topo::Network network;
  if (!options.network.empty()) {
    std::string why;  // options.cpp has checked that the network fits
    network = *topo::spread_nodes(options.network, options.nodes, why);
    std::vector<std::string> names;  // every node's, hosting ranks or not: the groups list the whole tree
    for (int n = 0; n < options.nodes; ++n) names.push_back("node" + std::to_string(n));
    if (network.present(topo::Level::Rack))
      plan.hardware.rack_groups = topo::format_groups(network.of_node[topo::index(topo::Level::Rack)], names);
    if (network.present(topo::Level::Switch))
      plan.hardware.switch_groups = topo::format_groups(network.of_node[topo::index(topo::Level::Switch)], names);
  }
  bool simulated = options.topology.kind != TopologySpec::Kind::real;
  // A plain launch needs no machine at all: skip hwloc discovery then.
  if (!simulated && !options.bind_to && options.cpu_list.empty() && !options.report_bindings) return plan;

  topo::Machine machine;
  load_node_machine(options.topology, machine);
  std::vector<Binding> bindings = compute_bindings(options, machine, plan.placement);

  if (simulated) {
    plan.hardware.topology_xml = machine.to_xml();
    if (plan.hardware.topology_xml.empty()) throw std::runtime_error("hwloc could not export the machine as XML");
  }
  plan.hardware.cpuset.resize(bindings.size());
  plan.affinity.resize(bindings.size());
  for (std::size_t rank = 0; rank < bindings.size(); ++rank) {
    if (!bindings[rank]) continue;
    plan.hardware.cpuset[rank] = "hwloc:" + bindings[rank]->list();
    if (!simulated) plan.affinity[rank] = affinity_mask(machine, *bindings[rank]);  // replaces the node's share
  }
  if (options.report_bindings) plan.binding_report = binding_report(plan.placement, machine, network, bindings);
  return plan;
}

}  // namespace strata::mpiexec
