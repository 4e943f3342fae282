#include "tools/mpiexec/placement.hpp"

namespace strata::mpiexec {

Placement place_ranks(int nprocs, int nodes, MapBy map_by, const std::string& real_hostname) {
  Placement placement;
  placement.node_of_rank.resize(nprocs);
  placement.local_rank.resize(nprocs);
  int per_node = nodes > 0 ? (nprocs + nodes - 1) / nodes : nprocs;
  for (int rank = 0; rank < nprocs; ++rank) {
    int node = 0;
    if (nodes > 0) node = map_by == MapBy::slot ? rank / per_node : rank % nodes;
    if (node >= static_cast<int>(placement.ranks_on_node.size())) {
      placement.ranks_on_node.resize(node + 1);
      placement.node_names.push_back(nodes > 0 ? "node" + std::to_string(node) : real_hostname);
    }
    auto& on_node = placement.ranks_on_node[node];
    placement.node_of_rank[rank] = static_cast<std::uint32_t>(node);
    placement.local_rank[rank] = static_cast<std::uint16_t>(on_node.size());
    on_node.push_back(rank);
  }
  return placement;
}

}  // namespace strata::mpiexec
