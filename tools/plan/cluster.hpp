// The cluster strata-plan plans for: identical nodes, each an hwloc synthetic machine, one rank bound to each core,
// maybe under network levels (racks, switches) described as `mpiexec --network` takes them.
//
// A node is read by hwloc itself (topo::Machine::from_synthetic), as `mpiexec --topology synthetic:...` would give
// it to a job, and each rank is placed by topo::place on its core's cpuset: the redundant levels, boards and NUMA
// nodes then follow the library's own rules rather than a second reading of the description. The network levels are
// read and spread over the nodes by topo::parse_network and topo::spread_nodes, as mpiexec does, so a plan and a job
// launched with the same words see the same racks and switches.
#pragma once
#include <string>
#include <vector>

#include "runtime/status.hpp"
#include "topo/machine.hpp"
#include "topo/network.hpp"
#include "topo/placement.hpp"

namespace strata::plan {

struct Cluster {
  int nodes = 1;
  std::string network_description;  // as mpiexec --network takes it, e.g. "rack:2 switch:4"; empty: none
  topo::Network network;            // its instances of every node (empty: every other node is just elsewhere)
  std::string node_description;     // hwloc synthetic, e.g. "pack:2 l3:1 core:16 pu:1"
  topo::Machine machine;         // one node
  int cores = 0;                 // per node

  int ranks() const { return nodes * cores; }
};

// "nodes:64 rack:2 switch:4 pack:2 l3:1 core:16": an optional leading nodes:N (default 1), then optional network
// levels in mpiexec --network's syntax (topo/network.hpp: top to bottom, "switch:12,6,4,2" for uneven switches;
// the tree must fit the N nodes), then one node's synthetic description, which must have cores ("pu:1" is added
// when it does not end with PUs). Errors (MPI_ERR_ARG) say what is wrong.
Status parse_cluster(const std::string& description, Cluster& out);

enum class Order { kBlock, kScattered, kShuffled };

// Where each rank lies: in block order rank r on core r % cores of node r / cores; scattered, dealt round robin over
// the nodes (rank r on node r % nodes, core r / nodes: mpiexec --map-by node, bench/run-topology's other shape);
// shuffled, the block order's slots dealt by a fixed-seed permutation (the same on every run and platform). Each
// node's racks and switches come with it.
std::vector<topo::Placement> rank_placements(const Cluster& cluster, Order order);

}  // namespace strata::plan
