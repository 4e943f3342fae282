// How simulated nodes share this host's real processors. A simulated node stands for a machine of its own, so its
// ranks run on their own share of the CPUs mpiexec may use: N nodes on C CPUs take C / N each (CPUs
// [n C / N, (n + 1) C / N) for node n) when N <= C, else k = ceil(N / C) consecutive nodes share one CPU (node n on
// the (n / k)-th). Without it the kernel lets one node's ranks take the others' CPUs, and the same collective
// measures 2 to 3 times apart from run to run. The figures published for the cost model (runtime::kNodeCpusKey and
// kHostNodesKey, coll/cost_model.hpp: cores_per_node, nodes_per_host) describe exactly these shares.
#pragma once

#include <cstddef>
#include <vector>

namespace strata::mpiexec {

struct NodeCpus {
  std::vector<std::vector<int>> of_node;  // by node: the CPUs its ranks run on
  double per_node = 0;                    // the CPUs of a node, on average (C / N, or 1 / k)
  std::size_t nodes_per_group = 1;        // how many consecutive nodes share their CPUs (k; 1 when N <= C)
};

// The shares of `nodes` nodes on `cpus` (the CPU numbers, ascending); no shares (empty of_node) without CPUs.
NodeCpus share_cpus(const std::vector<int>& cpus, std::size_t nodes);

// The CPUs this process may run on (sched_getaffinity), ascending; empty when they cannot be read.
std::vector<int> allowed_cpus();

}  // namespace strata::mpiexec
