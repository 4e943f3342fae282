// The cluster strata-plan plans for: identical nodes, each an hwloc synthetic machine, one rank bound to each core.
//
// A node is read by hwloc itself (topo::Machine::from_synthetic), as `mpiexec --topology synthetic:...` would give
// it to a job, and each rank is placed by topo::place on its core's cpuset: the redundant levels, boards and NUMA
// nodes then follow the library's own rules rather than a second reading of the description.
#pragma once
#include <string>
#include <vector>

#include "runtime/status.hpp"
#include "topo/machine.hpp"
#include "topo/placement.hpp"

namespace strata::plan {

struct Cluster {
  int nodes = 1;
  std::string node_description;  // hwloc synthetic, e.g. "pack:2 l3:1 core:16 pu:1"
  topo::Machine machine;         // one node
  int cores = 0;                 // per node

  int ranks() const { return nodes * cores; }
};

// "nodes:64 pack:2 l3:1 core:16": an optional leading nodes:N (default 1), then one node's synthetic description,
// which must have cores ("pu:1" is added when it does not end with PUs). Errors (MPI_ERR_ARG) say what is wrong.
Status parse_cluster(const std::string& description, Cluster& out);

enum class Order { kBlock, kShuffled };

// Where each rank lies: in block order rank r on core r % cores of node r / cores; shuffled, the same slots dealt by
// a fixed-seed permutation (the same on every run and platform).
std::vector<topo::Placement> rank_placements(const Cluster& cluster, Order order);

}  // namespace strata::plan
