#include "tools/mpiexec/node_cpus.hpp"

#include <sched.h>

namespace strata::mpiexec {

NodeCpus share_cpus(const std::vector<int>& cpus, std::size_t nodes) {
  NodeCpus out;
  const std::size_t c = cpus.size();
  if (c == 0 || nodes == 0) return out;
  out.of_node.resize(nodes);
  if (nodes <= c) {
    for (std::size_t n = 0; n < nodes; ++n)
      out.of_node[n].assign(cpus.begin() + static_cast<std::ptrdiff_t>(n * c / nodes),
                            cpus.begin() + static_cast<std::ptrdiff_t>((n + 1) * c / nodes));
    out.per_node = static_cast<double>(c) / static_cast<double>(nodes);
    return out;
  }
  out.nodes_per_group = (nodes + c - 1) / c;
  for (std::size_t n = 0; n < nodes; ++n) out.of_node[n] = {cpus[n / out.nodes_per_group]};
  out.per_node = 1.0 / static_cast<double>(out.nodes_per_group);
  return out;
}

std::vector<int> allowed_cpus() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return out;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed)) out.push_back(cpu);
  return out;
}

}  // namespace strata::mpiexec
