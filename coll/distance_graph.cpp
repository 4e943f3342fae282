#include "coll/distance_graph.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace strata::coll {
namespace {

struct Edge {
  int weight;
  int u, v;
};

// Kruskal's sets (the paper's MAKE-SET, FIND-SET, UNION).
class DisjointSets {
 public:
  explicit DisjointSets(int n) : head_(static_cast<std::size_t>(n)) { std::iota(head_.begin(), head_.end(), 0); }
  int find(int x) {
    while (head_[x] != x) x = head_[x] = head_[head_[x]];  // path halving
    return x;
  }
  // Joins the sets of x and y; false when they were one already.
  bool unite(int x, int y) {
    x = find(x), y = find(y);
    if (x == y) return false;
    head_[y] = x;
    return true;
  }

 private:
  std::vector<int> head_;
};

// Stable by weight. Distances take a handful of small values (topo::distance: 1 to 9), so this counts them: at 2048
// ranks (2 million edges) a comparison sort took most of the time strata-plan spent on a distance-aware bcast.
std::vector<Edge> stable_sort_by_weight(std::vector<Edge> edges) {
  if (edges.empty()) return edges;
  const auto [lightest, heaviest] = std::minmax_element(
      edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.weight < y.weight; });
  const long span = static_cast<long>(heaviest->weight) - lightest->weight + 1;
  if (span > static_cast<long>(edges.size())) {  // few edges or far-apart weights: counting would cost more
    std::stable_sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.weight < y.weight; });
    return edges;
  }
  const int base = lightest->weight;
  std::vector<std::size_t> first(static_cast<std::size_t>(span) + 1, 0);  // where each weight's edges start
  for (const Edge& e : edges) ++first[static_cast<std::size_t>(e.weight - base) + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<Edge> sorted(edges.size());
  for (const Edge& e : edges) sorted[first[static_cast<std::size_t>(e.weight - base)]++] = e;
  return sorted;
}

// Every pair once, in the order the paper gives equally long edges; the stable sort by weight keeps that order
// among equal weights. `root` < 0: no edges come first, all are by (smaller rank, bigger rank).
std::vector<Edge> sorted_edges(int p, int root, const Distance& distance) {
  std::vector<Edge> edges;
  edges.reserve(static_cast<std::size_t>(p) * static_cast<std::size_t>(p - 1) / 2);
  if (root >= 0)
    for (int v = 0; v < p; ++v)
      if (v != root) edges.push_back({distance(root, v), root, v});
  for (int u = 0; u < p; ++u)
    for (int v = u + 1; v < p; ++v)
      if (u != root && v != root) edges.push_back({distance(u, v), u, v});
  return stable_sort_by_weight(std::move(edges));
}

// The undirected tree: for each rank, its neighbours and the distance to each.
using Neighbours = std::vector<std::vector<std::pair<int, int>>>;

Neighbours kruskal(int p, int root, const Distance& distance) {
  Neighbours near(static_cast<std::size_t>(p));
  DisjointSets sets(p);
  int taken = 0;
  for (const Edge& e : sorted_edges(p, root, distance)) {
    if (taken == p - 1) break;
    if (!sets.unite(e.u, e.v)) continue;
    near[e.u].push_back({e.v, e.weight});
    near[e.v].push_back({e.u, e.weight});
    ++taken;
  }
  return near;
}

}  // namespace

// Children order: a child's subtree finishes, at the earliest, after the longest path of distances below this rank
// through it (the distance to the child, then the child's own longest path down), distance standing for the time
// one message takes on that link. The child with the longest such path is served first, as the rooted family's
// trees serve their largest subtrees first; equal ones in rank order. Across nodes a rank sees another node's
// subtree flattened (hierarchy.hpp), so there the order is an estimate; it changes when messages go, never which.
DistanceTree distance_tree(int p, int root, const Distance& distance) {
  const Neighbours near = kruskal(p, root, distance);
  DistanceTree tree{std::vector<int>(static_cast<std::size_t>(p), -1), std::vector<std::vector<int>>(p)};
  std::vector<int> weight_from_parent(static_cast<std::size_t>(p), 0);
  std::vector<int> order{root};  // breadth first from the root: every parent before its children
  for (std::size_t i = 0; i < order.size(); ++i)
    for (const auto& [next, weight] : near[order[i]])
      if (next != tree.parent[order[i]]) {
        tree.parent[next] = order[i];
        weight_from_parent[next] = weight;
        tree.children[order[i]].push_back(next);
        order.push_back(next);
      }
  std::vector<int> longest_below(static_cast<std::size_t>(p), 0);
  for (std::size_t i = order.size(); i-- > 1;) {
    const int v = order[i], up = tree.parent[v];
    longest_below[up] = std::max(longest_below[up], weight_from_parent[v] + longest_below[v]);
  }
  for (std::vector<int>& children : tree.children)
    std::sort(children.begin(), children.end(), [&](int x, int y) {
      const int path_x = weight_from_parent[x] + longest_below[x], path_y = weight_from_parent[y] + longest_below[y];
      return path_x != path_y ? path_x > path_y : x < y;
    });
  return tree;
}

std::vector<int> distance_ring(int p, const Distance& distance) {
  std::vector<std::vector<int>> near(static_cast<std::size_t>(p));
  DisjointSets sets(p);
  int taken = 0;
  for (const Edge& e : sorted_edges(p, -1, distance)) {
    if (taken == p - 1) break;
    // A rank with two neighbours is inside a path already; two ranks of one set are the two ends of one path,
    // which only the final closing edge may join.
    if (near[e.u].size() == 2 || near[e.v].size() == 2 || !sets.unite(e.u, e.v)) continue;
    near[e.u].push_back(e.v);
    near[e.v].push_back(e.u);
    ++taken;
  }
  // Each edge joined two paths into one, so p - 1 of them leave one path; walk it from its lower end.
  int at = 0;
  while (near[at].size() == 2) ++at;
  std::vector<int> ring{at};
  for (int previous = -1; ring.size() < static_cast<std::size_t>(p);) {
    const int next = near[at][0] != previous ? near[at][0] : near[at][1];
    previous = at;
    at = next;
    ring.push_back(at);
  }
  return ring;
}

}  // namespace strata::coll
