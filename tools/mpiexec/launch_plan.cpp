#include "tools/mpiexec/launch_plan.hpp"

#include <sched.h>

#include <algorithm>

#include "tools/mpiexec/binding.hpp"
#include "tools/mpiexec/binding_report.hpp"
#include "tools/mpiexec/node_machine.hpp"

namespace strata::mpiexec {
namespace {

// The real processors this launch may run on (its affinity), shared evenly by the nodes that host ranks (simulated
// nodes all run on this host), so perhaps less than one each. 0 when the affinity cannot be read.
double node_cpus(const Placement& placement) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 0;
  return CPU_COUNT(&allowed) / static_cast<double>(std::max<std::size_t>(placement.node_names.size(), 1));
}

}  // namespace

LaunchPlan plan_launch(const Options& options, const std::string& real_hostname) {
  LaunchPlan plan;
  plan.placement = place_ranks(options.nprocs, options.nodes, options.map_by, real_hostname);
  plan.hardware.node_cpus = node_cpus(plan.placement);
  plan.hardware.host_nodes = plan.placement.node_names.size();  // every node runs on this host
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
    if (!simulated) plan.affinity[rank] = affinity_mask(machine, *bindings[rank]);
  }
  if (options.report_bindings) plan.binding_report = binding_report(plan.placement, machine, network, bindings);
  return plan;
}

}  // namespace strata::mpiexec
