// Hardware hierarchies for N simulated ranks, for the topology-aware algorithms' sweeps: each rank's Hierarchy as
// coll::hierarchy_of would make it on a real job (ranks on other nodes known by their node and network levels
// only). Every node is the same machine: 2 packages x 2 L3 caches x 2 cores, no NUMA level.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "coll/hierarchy.hpp"
#include "topo/placement.hpp"

namespace strata::coll::sim {

// Where each of p ranks runs: its node and core (-1: unbound).
struct Layout {
  std::string name;
  std::vector<int> node, core;
};

// Optionally, each rank's rack and switch (job-wide indexes; empty: the job has no such network level).
struct Network {
  std::vector<int> rack, switch_of;
};

// The layouts the sweeps use for p ranks: two nodes in block order, three nodes with shuffled ranks and one unbound
// rank, one node with shuffled ranks bound to cores, and four nodes in block order whose bindings differ (one rank
// per core on even nodes, two on odd ones).
std::vector<Layout> layouts(int p);

// The placements of a layout's ranks, as hwloc would give them on the machine above.
std::vector<topo::Placement> placements(const Layout& layout, const Network& network = {});

// Rank r's view of the layout's hierarchy.
std::shared_ptr<const Hierarchy> hierarchy(const Layout& layout, int r, const Network& network = {});

}  // namespace strata::coll::sim
