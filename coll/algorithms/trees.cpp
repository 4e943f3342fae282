#include "coll/algorithms/trees.hpp"

#include <algorithm>

namespace strata::coll {

TreeNode knomial_node(int vrank, int p, int k) {
  TreeNode node;
  // `level`: the weight of vrank's lowest nonzero base-k digit, which its parent clears; for the root, the first
  // power of k >= p. Below it, vrank's subtree holds vrank + j m for every lower weight m and digit j.
  long long level = 1;
  while (level < p && vrank % (k * level) == 0) level *= k;
  if (vrank != 0) node.parent = static_cast<int>(vrank - vrank % (k * level));
  node.span = static_cast<int>(std::min<long long>(vrank == 0 ? p : level, p - vrank));
  for (long long m = level / k; m >= 1; m /= k)
    for (long long j = 1; j < k && vrank + j * m < p; ++j) {
      const long long child = vrank + j * m;
      node.children.push_back({static_cast<int>(child), static_cast<int>(std::min<long long>(m, p - child))});
    }
  return node;
}

}  // namespace strata::coll
