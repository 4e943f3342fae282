// Which (real or simulated) node each rank runs on. Pure arithmetic, so tests can recompute it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/mpiexec/options.hpp"

namespace strata::mpiexec {

struct Placement {
  // Only nodes that host at least one rank. Both map-by policies fill nodes 0, 1, ... in order, so the
  // hosting nodes are always a prefix of node0..node<N-1> and a node's index here is its node id.
  std::vector<std::string> node_names;
  std::vector<std::vector<int>> ranks_on_node;  // increasing ranks
  std::vector<std::uint32_t> node_of_rank;
  std::vector<std::uint16_t> local_rank;  // index of the rank among the ranks of its node
};

// nodes == 0: one node, `real_hostname`. Otherwise simulated nodes named node0..node<nodes-1>:
// MapBy::slot puts ceil(nprocs / nodes) consecutive ranks on each node, MapBy::node puts rank r on r % nodes.
Placement place_ranks(int nprocs, int nodes, MapBy map_by, const std::string& real_hostname);

}  // namespace strata::mpiexec
