// The distance-aware family: bcast down a tree and allgather around a ring, both built from the distances between
// the processes (distance-aware collectives paper, section IV; the constructions in distance_graph.hpp), so that
// whatever the rank order, data crosses the slow links (other package, other board, other node) as few times as
// it can. Distances are topo::distance over Hierarchy::placements.
//
//   bcast      Algorithm 1's tree (Figure 4), pipelined: segment k leaves a rank for its children as soon as it
//              has arrived there
//   allgather  Algorithm 2's ring (Figure 5): p - 1 steps, each passing the block just received to the right;
//              communicators on one node only
//
// What a rank knows. The placements are exact for the ranks on this rank's node; the others are known by their node
// only (hierarchy.hpp), so they look unbound: 7 from this node's ranks, 6 from the other ranks of their own node.
// Yet every rank computes its own parent and children in the tree exactly, as it would knowing every binding:
//  - an edge is shorter than 7 exactly when both its ends are on one node, so Kruskal takes every edge inside a node
//    before any edge between nodes. Until then no two nodes are joined, so what it takes inside a node depends only
//    on that node's own edges in their own order: each node's part of the tree is the tree Kruskal makes of the
//    node alone, which its ranks compute from exact distances. Every node is connected by then (all its pairs are
//    closer than 7).
//  - among the edges of length 7 the root's come first, by the other end's rank: the first one reaching a node is
//    the edge to its lowest rank, and once each node has been reached all ranks are connected, so the edges between
//    nodes are root -> lowest rank of each other node, which every rank knows from the node map alone.
// The tree's parent and children of a rank are then its edges inside its node (exact) and, at the root and at each
// node's lowest rank, the edges between nodes. A rank misjudges only the shape of other nodes' subtrees, which
// orders its sends (distance_graph.cpp) but not what they are.
//
// Depth. The paper claims this tree is the shallowest of the minimum-weight trees. That holds where the sets of
// equally close ranks are alike (Figure 4), not always: a set entered through its lowest rank can be a level deeper
// than through another of its ranks (distance_aware_test.cpp, LowestRankEntryCanCostALevel). Picking the better
// entry of another node would need that node's bindings, so the paper's order stays.
//
// The ring has no such argument: a rank sees another node's ranks all 6 apart and would chain them in rank order,
// while they chain themselves by their bindings, so neighbours across nodes would disagree on who is next. Hence
// the allgather applies only to communicators on one node; the hierarchical allgather serves those spanning nodes.
//
// Pipeline (the path P5 -> P1 -> P7 -> P10 of Figure 4, three segments; a rank with several children sends them
// each segment in the order of distance_tree's children):
//
//   step:        1    2    3    4    5
//   P5 -> P1     s0   s1   s2
//   P1 -> P7          s0   s1   s2
//   P7 -> P10              s0   s1   s2
//
// Tags: segment k travels with tag k on every link, and the ring's step k with tag k: a rank exchanges one message
// per tag with each peer in each direction.
#include <algorithm>
#include <utility>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/distance_graph.hpp"
#include "coll/hierarchy.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"
#include "runtime/lasting.hpp"
#include "topo/placement.hpp"

namespace strata::coll {
namespace {

// The chain pipeline's segment (rooted.cpp): messages of 64 KiB still go eagerly through the shared-memory rings
// (selection.cpp's measurements), and a 1 MiB buffer makes 16 segments, enough to keep a tree of a few levels (four
// in Figure 4) busy on every level at once.
constexpr std::size_t kDefaultSegmentBytes = 64 * 1024;

// The distances as this rank knows them (exact on its node, 7 across nodes); valid while `a` is.
Distance distances(const Args& a) {
  const std::vector<topo::Placement>& at = a.hierarchy->placements;
  return [&at](int x, int y) { return topo::distance(at[x], at[y]); };
}

// The last tree or ring built, and the placements and root it was built for. predict() (the cost model) builds
// every rank's schedule in one process, and ranks that see the same placements (a node's ranks, in the model's view)
// then share one construction instead of each sorting p^2 edges again: at 2048 ranks, one per node instead of one
// per rank. One for the process: the library lock serializes MPI calls.
template <class Shape>
struct LastBuilt {
  std::vector<topo::Placement> placements;
  int root = -1;
  Shape shape;
};

template <class Shape, class Build>
const Shape& reuse_or_build(LastBuilt<Shape>& last, const Args& a, int root, Build build) {
  const std::vector<topo::Placement>& at = a.hierarchy->placements;
  if (last.root != root || last.placements != at) last = {at, root, build()};
  return last.shape;
}

const DistanceTree& tree_of(const Args& a) {
  static auto& last = runtime::lasting<LastBuilt<DistanceTree>>();
  return reuse_or_build(last, a, a.root, [&] { return distance_tree(a.size, a.root, distances(a)); });
}

const std::vector<int>& ring_of(const Args& a) {
  static auto& last = runtime::lasting<LastBuilt<std::vector<int>>>();
  return reuse_or_build(last, a, -1, [&] { return distance_ring(a.size, distances(a)); });
}

// ---- Bcast --------------------------------------------------------------------------------------------------------

// Bytes per segment: Args::segment_bytes or the default, larger when a huge buffer would need more segments than
// the schedule has tags (a tag reused while its first message may be in flight could mismatch them).
std::size_t segment_bytes(const Args& a, std::size_t bytes) {
  const std::size_t wanted = a.segment_bytes > 0 ? a.segment_bytes : kDefaultSegmentBytes;
  const auto tags = static_cast<std::size_t>(tag_limit(a));
  return std::max(wanted, (bytes + tags - 1) / tags);
}

// This rank's place in the tree.
struct TreeEdges {
  int parent;
  std::vector<int> children;
};

// `bytes` (packed or contiguous) down the tree, after `start` at the root. Returns the vertex after which every
// segment has arrived here (`start` at the root).
VertexId pipeline_down(const Args& a, const TreeEdges& me, const Data& bytes, VertexId start, Schedule& s) {
  const std::size_t per_segment = segment_bytes(a, bytes.count);
  std::vector<VertexId> arrived;
  int tag = 0;
  for (std::size_t first = 0; first < bytes.count; first += per_segment, ++tag) {
    const Data segment = elements(bytes, first, std::min(per_segment, bytes.count - first));
    const VertexId got = me.parent < 0 ? start : s.recv(segment, me.parent, tag);
    for (int child : me.children) s.send(segment, child, tag, {got});
    arrived.push_back(got);
  }
  return me.parent < 0 ? start : s.join(arrived);
}

// Segments are cut from the packed bytes, so that every rank cuts alike whatever type it describes the buffer with
// (MPI asks only for matching signatures): a contiguous buffer is cut in place; any other is packed into scratch at
// the root first, and unpacked at the others once every segment has arrived.
void bcast(const Args& a, Schedule& s) {
  const Data all{a.recv_buf(), a.recvcount, a.recvtype};
  if (a.size == 1 || all.count == 0 || all.type->size == 0) return;
  const DistanceTree& tree = tree_of(a);
  const TreeEdges me{tree.parent[a.rank], tree.children[a.rank]};
  const datatype::TypeRef bytes = datatype::predefined(datatype::kByte);
  const std::size_t n = datatype::wire_bytes(*all.type, all.count);
  if (datatype::contiguous(*all.type, all.count)) {
    pipeline_down(a, me, {all.buf + all.type->true_lb, n, bytes}, kNoVertex, s);
    return;
  }
  const Data packed = s.temp(n, bytes);
  if (a.rank == a.root) {
    pipeline_down(a, me, packed, s.copy(all, packed), s);
    return;
  }
  s.copy(packed, all, {pipeline_down(a, me, packed, kNoVertex, s)});
}

// ---- Allgather ----------------------------------------------------------------------------------------------------

// At step k a rank passes on the block that started k places to its left on the ring (its own at step 0) and
// receives the one from k + 1 places left, into that rank's place in recvbuf.
void allgather(const Args& a, Schedule& s) {
  if (a.recvcount == 0 || a.recvtype->size == 0) return;
  const int p = a.size;
  const std::vector<int>& ring = ring_of(a);
  const int at = static_cast<int>(std::find(ring.begin(), ring.end(), a.rank) - ring.begin());
  const auto on_ring = [&](int offset) { return ring[((at + offset) % p + p) % p]; };
  const Data all{a.recv_buf(), static_cast<std::size_t>(p) * a.recvcount, a.recvtype};
  const auto block = [&](int r) { return elements(all, static_cast<std::size_t>(r) * a.recvcount, a.recvcount); };
  const Data mine = a.in_place ? block(a.rank) : Data{a.send_buf(), a.sendcount, a.sendtype};
  if (!a.in_place) s.copy(mine, block(a.rank));
  VertexId received = kNoVertex;
  for (int step = 0; step + 1 < p; ++step) {
    s.send(step == 0 ? mine : block(on_ring(-step)), on_ring(1), step, {received});
    received = s.recv(block(on_ring(-step - 1)), on_ring(-1), step);
  }
}

// ---- Registry -----------------------------------------------------------------------------------------------------

bool has_placements(const Args& a) {
  return a.hierarchy != nullptr && a.hierarchy->placements.size() == static_cast<std::size_t>(a.size);
}

bool ring_on_one_node(const Args& a) {
  if (!has_placements(a) || a.size - 1 > tag_limit(a)) return false;
  const std::vector<topo::Placement>& at = a.hierarchy->placements;
  return std::all_of(at.begin(), at.end(), [&](const topo::Placement& x) { return x.node == at.front().node; });
}

constexpr Algorithm kAlgorithms[] = {
    {Operation::kBcast, "distance_aware", bcast, has_placements, true},
    {Operation::kAllgather, "distance_aware", allgather, ring_on_one_node, true},
};

}  // namespace

std::span<const Algorithm> distance_aware_algorithms() { return kAlgorithms; }

}  // namespace strata::coll
