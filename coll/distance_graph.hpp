// The broadcast tree and the allgather ring of the distance-aware collectives paper (Algorithms 1 and 2,
// ../shared/papers/ma-distance-aware-adaptive-collectives.txt), built from the distances between a communicator's
// ranks. Pure functions of the ranks' distances, apart from any data (algorithms/distance_aware.cpp moves the data
// along them, with topo::distance over the hierarchy's placements).
//
// Cost: both look at every pair of ranks, O(p^2) time (the edges are sorted by counting: distances take few values)
// and O(p^2) memory, once per built schedule (comm_cache.hpp reuses a schedule for equal calls; the builders in
// algorithms/distance_aware.cpp reuse their last tree and ring for the same placements).
#pragma once
#include <functional>
#include <vector>

namespace strata::coll {

// The distance between two different ranks; symmetric. Smaller is closer.
using Distance = std::function<int(int, int)>;

// A spanning tree over ranks [0, p), oriented from its root.
struct DistanceTree {
  std::vector<int> parent;                 // -1 at the root
  std::vector<std::vector<int>> children;  // the subtree that takes longest to finish first (distance_graph.cpp)
};

// Algorithm 1: Kruskal's minimum spanning tree, the edges taken by distance, among equal distances the root's
// edges first (by the other end's rank), then the others by (smaller rank, bigger rank). The root thereby reaches
// every set of equally close ranks directly, through the set's lowest rank, and each such set's lowest rank does
// the same inside its set.
DistanceTree distance_tree(int p, int root, const Distance& distance);

// Algorithm 2: a path grown greedily from the edges by distance, then by (smaller rank, bigger rank), taking an
// edge when it joins two different paths at their ends; its two ends then close it into a ring. Returns the ranks
// in ring order, from the path's end with the lower rank; each rank's right neighbour is the next one.
std::vector<int> distance_ring(int p, const Distance& distance);

}  // namespace strata::coll
