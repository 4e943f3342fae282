#include "tools/mpiexec/binding_report.hpp"

#include "topo/placement.hpp"

namespace strata::mpiexec {

std::string binding_report(const Placement& placement, const topo::Machine& machine, const topo::Network& network,
                           const std::vector<Binding>& bindings) {
  std::string out;
  for (std::size_t rank = 0; rank < bindings.size(); ++rank) {
    const Binding& binding = bindings[rank];
    std::uint32_t node = placement.node_of_rank[rank];
    out += "[mpiexec] rank " + std::to_string(rank) + " on " + placement.node_names[node] + ": ";
    if (binding)
      out += "cpuset " + binding->list() + (machine.simulated() ? " (simulated)" : " (real)");
    else
      out += "unbound";
    out += ":";
    // An unbound rank may run anywhere on its node: topo places it like a binding to the whole machine.
    topo::Placement where = topo::place(machine, binding ? *binding : machine.whole(), node);
    network.place(where);
    for (topo::Level level : topo::kAllLevels)
      if (where.confined(level))
        out += " " + std::string(topo::short_name(level)) + "#" + std::to_string(where.at(level));
    out += "\n";
  }
  return out;
}

}  // namespace strata::mpiexec
