// The distance-aware family (coll/distance_graph.hpp, coll/algorithms/distance_aware.cpp) on the machines of the
// paper's Figures 4 and 5, built here as topo::Placement values, against expectations computed here on their own:
// Prim's minimum weight, every labelled spanning tree (Prufer sequences), every Hamiltonian cycle, and the least
// depth of a minimum-weight tree worked out cluster by cluster. The data movement of both algorithms is also swept
// with every other bcast and allgather (rooted_test.cpp, exchange_test.cpp); here one run each on the figures'
// machines, and the schedules' shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/distance_graph.hpp"
#include "coll/hierarchy.hpp"
#include "datatype/predefined.hpp"
#include "sim_hierarchy.hpp"
#include "sim_network.hpp"
#include "topo/placement.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

// ---- Machines as placements ---------------------------------------------------------------------------------------

// A process bound to one core of `node`, in the given package, NUMA node and board; the machine has no caches, so
// only processes on one core share one.
topo::Placement bound(uint32_t node, int core, int package, int numa, int board) {
  using topo::Level;
  topo::Placement p;
  p.node = node;
  p.instance.fill(topo::kAbsent);
  p.instance[topo::index(Level::Node)] = 0;
  p.instance[topo::index(Level::Package)] = package;
  p.instance[topo::index(Level::NUMANode)] = numa;
  p.instance[topo::index(Level::Core)] = core;
  p.instance[topo::index(Level::PU)] = core;
  p.board = board;
  return p;
}

// Figure 4: 4 NUMA nodes of 3 cores (each NUMA node one package, as on the paper's IG), NUMA nodes 0 and 1 on
// board 0, 2 and 3 on board 1.
constexpr int kFig4Cores = 12;
int fig4_numa(int core) { return core / 3; }
int fig4_board(int core) { return core / 6; }
topo::Placement fig4_on_node(int core, uint32_t node) {
  return bound(node, core, fig4_numa(core), fig4_numa(core), fig4_board(core));
}
topo::Placement fig4_core(int core) { return fig4_on_node(core, 0); }

// Figure 5: a quad-socket dual-core node; one memory controller for all sockets (one NUMA node, as on the paper's
// Zoot), one board.
constexpr int kFig5Cores = 8;
int fig5_socket(int core) { return core / 2; }
topo::Placement fig5_core(int core) { return bound(0, core, fig5_socket(core), 0, 0); }

// One node's processes on `cores` of `machine`.
std::vector<topo::Placement> on_cores(const std::vector<int>& cores, topo::Placement (*machine)(int)) {
  std::vector<topo::Placement> out;
  for (int c : cores) out.push_back(machine(c));
  return out;
}

Distance distance_over(std::vector<topo::Placement> at) {
  return [at = std::move(at)](int x, int y) { return topo::distance(at[x], at[y]); };
}

// Fixed bindings of ranks to cores (the figures' "random binding"): rank r runs on core binding[r].
const std::vector<int> kFig4Binding = {7, 2, 10, 4, 0, 9, 5, 11, 1, 6, 3, 8};
const std::vector<int> kFig5Binding = {5, 2, 7, 0, 3, 6, 1, 4};

// A reproducible stream of small numbers, the same on every standard library.
class Dice {
 public:
  explicit Dice(uint32_t seed) : engine_(seed) {}
  int below(int n) { return static_cast<int>(engine_() % static_cast<uint32_t>(n)); }
  std::vector<int> distinct(int n, int out_of) {  // n different values below out_of, in random order
    std::vector<int> all(static_cast<std::size_t>(out_of));
    std::iota(all.begin(), all.end(), 0);
    for (int i = out_of - 1; i > 0; --i) std::swap(all[i], all[below(i + 1)]);
    all.resize(static_cast<std::size_t>(n));
    return all;
  }
  std::vector<int> any(int n, int out_of) {  // repeats allowed: processes sharing a core
    std::vector<int> out;
    for (int i = 0; i < n; ++i) out.push_back(below(out_of));
    return out;
  }

 private:
  std::mt19937 engine_;
};

// ---- Trees ----------------------------------------------------------------------------------------------------------

using Edge = std::pair<int, int>;

// "" when `t` spans [0, p) from `root`: every other rank's parent chain reaches the root, and the children lists are
// exactly the inverse of the parents.
std::string spanning_from(const DistanceTree& t, int p, int root) {
  if (static_cast<int>(t.parent.size()) != p || static_cast<int>(t.children.size()) != p) return "wrong size";
  if (t.parent[root] != -1) return "the root has a parent";
  for (int v = 0; v < p; ++v) {
    int at = v;
    for (int steps = 0; at != root; ++steps) {
      if (at < 0 || steps >= p) return "rank " + std::to_string(v) + " does not reach the root";
      at = t.parent[at];
    }
  }
  std::vector<std::set<int>> expected(static_cast<std::size_t>(p));
  for (int v = 0; v < p; ++v)
    if (v != root) expected[t.parent[v]].insert(v);
  for (int v = 0; v < p; ++v) {
    const std::set<int> got(t.children[v].begin(), t.children[v].end());
    if (got != expected[v] || got.size() != t.children[v].size())
      return "rank " + std::to_string(v) + "'s children do not match the parents";
  }
  return "";
}

std::vector<Edge> edges_of(const DistanceTree& t) {
  std::vector<Edge> out;
  for (int v = 0; v < static_cast<int>(t.parent.size()); ++v)
    if (t.parent[v] >= 0) out.push_back({t.parent[v], v});
  return out;
}

int weight_of(const std::vector<Edge>& edges, const Distance& d) {
  int w = 0;
  for (const auto& [u, v] : edges) w += d(u, v);
  return w;
}

// Hops from `root` to every vertex of the tree given by its edges.
std::vector<int> depths(int n, const std::vector<Edge>& edges, int root) {
  std::vector<std::vector<int>> near(static_cast<std::size_t>(n));
  for (const auto& [u, v] : edges) near[u].push_back(v), near[v].push_back(u);
  std::vector<int> depth(static_cast<std::size_t>(n), -1);
  depth[root] = 0;
  std::vector<int> queue{root};
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (int next : near[queue[i]])
      if (depth[next] < 0) depth[next] = depth[queue[i]] + 1, queue.push_back(next);
  return depth;
}

int depth_of(int n, const std::vector<Edge>& edges, int root) {
  const std::vector<int> d = depths(n, edges, root);
  return *std::max_element(d.begin(), d.end());
}

// Prim's algorithm from vertex 0: the weight of a minimum spanning tree.
int prim_weight(int n, const Distance& d) {
  std::vector<int> best(static_cast<std::size_t>(n), INT_MAX);
  std::vector<bool> in(static_cast<std::size_t>(n), false);
  best[0] = 0;
  int total = 0;
  for (int round = 0; round < n; ++round) {
    int pick = -1;
    for (int v = 0; v < n; ++v)
      if (!in[v] && (pick < 0 || best[v] < best[pick])) pick = v;
    in[pick] = true;
    total += best[pick];
    for (int v = 0; v < n; ++v)
      if (!in[v]) best[v] = std::min(best[v], d(pick, v));
  }
  return total;
}

// Every labelled tree on n vertices once, as its edges: Prufer sequences of length n - 2, decoded.
void for_each_tree(int n, const std::function<void(const std::vector<Edge>&)>& visit) {
  if (n == 1) return visit({});
  std::vector<int> code(static_cast<std::size_t>(n - 2), 0);
  for (;;) {
    std::vector<int> degree(static_cast<std::size_t>(n), 1);
    for (int x : code) ++degree[x];
    std::vector<Edge> edges;
    for (int x : code) {
      int leaf = 0;
      while (degree[leaf] != 1) ++leaf;
      edges.push_back({leaf, x});
      --degree[leaf], --degree[x];
    }
    std::vector<int> last;
    for (int v = 0; v < n; ++v)
      if (degree[v] == 1) last.push_back(v);
    edges.push_back({last[0], last[1]});
    visit(edges);
    std::size_t i = 0;  // the next sequence, as a base-n counter
    while (i < code.size() && ++code[i] == n) code[i++] = 0;
    if (i == code.size()) return;
  }
}

// The clusters of ranks: for each distance w, the groups linked by distances up to w (on these nested machines,
// the ranks sharing a core, a NUMA node, a board).
std::vector<std::vector<int>> clusters(int n, const Distance& d) {
  std::set<int> weights;
  for (int u = 0; u < n; ++u)
    for (int v = u + 1; v < n; ++v) weights.insert(d(u, v));
  std::set<std::vector<int>> out;
  for (int w : weights) {
    std::vector<int> group(static_cast<std::size_t>(n), -1);
    for (int start = 0; start < n; ++start) {
      if (group[start] >= 0) continue;
      std::vector<int> members{start};
      group[start] = start;
      for (std::size_t i = 0; i < members.size(); ++i)
        for (int v = 0; v < n; ++v)
          if (group[v] < 0 && d(members[i], v) <= w) group[v] = start, members.push_back(v);
      std::sort(members.begin(), members.end());
      out.insert(members);
    }
  }
  return {out.begin(), out.end()};
}

// The paper's leader rule: every cluster without the root is entered (reached first from the root) at its lowest
// rank.
bool leaders_enter(const std::vector<std::vector<int>>& sets, const std::vector<int>& depth, int root) {
  for (const std::vector<int>& set : sets) {
    if (std::find(set.begin(), set.end(), root) != set.end()) continue;
    const int entry = *std::min_element(set.begin(), set.end(), [&](int x, int y) { return depth[x] < depth[y]; });
    if (entry != set.front()) return false;
  }
  return true;
}

// Over every spanning tree: the least weight, and the least depth among the trees of that weight, with and without
// the leader rule.
struct Exhaustive {
  int weight = INT_MAX;
  int depth = INT_MAX;
  int depth_with_leaders = INT_MAX;
};

Exhaustive search_trees(int n, int root, const Distance& d) {
  const std::vector<std::vector<int>> sets = clusters(n, d);
  Exhaustive best;
  for_each_tree(n, [&](const std::vector<Edge>& edges) {
    const int w = weight_of(edges, d);
    if (w > best.weight) return;
    if (w < best.weight) best = {w, INT_MAX, INT_MAX};
    const std::vector<int> depth = depths(n, edges, root);
    const int deepest = *std::max_element(depth.begin(), depth.end());
    best.depth = std::min(best.depth, deepest);
    if (leaders_enter(sets, depth, root)) best.depth_with_leaders = std::min(best.depth_with_leaders, deepest);
  });
  return best;
}

// The least depth of a minimum-weight spanning tree of `members` hung from `entry`, on a machine whose distances
// nest. A minimum-weight tree spans every cluster within the cluster (else a dearer edge between clusters could be
// swapped for a cheaper one inside), so each cluster below the top level other than the entry's hangs from one rank x
// of its own, at depth 1 at best, and needs least_depth(cluster, x) below x; a star from the entry to the best x of
// every other cluster reaches all these bounds at once.
int least_depth(const std::vector<int>& members, int entry, const Distance& d) {
  if (members.size() == 1) return 0;
  int top = 0;
  for (int u : members)
    for (int v : members)
      if (u != v) top = std::max(top, d(u, v));
  std::vector<std::vector<int>> parts;  // linked by distances below the top one
  for (int u : members) {
    auto joined = std::find_if(parts.begin(), parts.end(), [&](const std::vector<int>& part) {
      return std::any_of(part.begin(), part.end(), [&](int v) { return d(u, v) < top; });
    });
    if (joined == parts.end()) parts.push_back({u});
    else joined->push_back(u);
  }
  int deepest = 0;
  for (const std::vector<int>& part : parts) {
    if (std::find(part.begin(), part.end(), entry) != part.end()) {
      deepest = std::max(deepest, least_depth(part, entry, d));
      continue;
    }
    int best = INT_MAX;
    for (int x : part) best = std::min(best, least_depth(part, x, d));
    deepest = std::max(deepest, 1 + best);
  }
  return deepest;
}

std::vector<int> all_ranks(int n) {
  std::vector<int> out(static_cast<std::size_t>(n));
  std::iota(out.begin(), out.end(), 0);
  return out;
}

// ---- Figure 4: the broadcast tree ---------------------------------------------------------------------------------

TEST(DistanceAwareFigure4, DistancesAreTwoFiveSix) {
  const std::vector<topo::Placement> at = on_cores(kFig4Binding, fig4_core);
  std::set<int> seen;
  for (int u = 0; u < kFig4Cores; ++u)
    for (int v = 0; v < kFig4Cores; ++v) {
      if (u == v) continue;
      const int cu = kFig4Binding[u], cv = kFig4Binding[v];
      const int expected = fig4_numa(cu) == fig4_numa(cv) ? 2 : fig4_board(cu) == fig4_board(cv) ? 5 : 6;
      EXPECT_EQ(topo::distance(at[u], at[v]), expected) << "P" << u << " P" << v;
      seen.insert(expected);
    }
  EXPECT_EQ(seen, (std::set<int>{2, 5, 6}));
}

// The tree of Figure 4 (root P5) and of every other root: spanning, of minimum weight (Prim), one edge between the
// boards, and as shallow as a minimum-weight tree can be (least_depth: every NUMA node and board holds as many
// processes as the next, so which rank enters a cluster does not matter).
void check_full_machine(const std::vector<int>& binding, int root) {
  const int p = static_cast<int>(binding.size());
  const Distance d = distance_over(on_cores(binding, fig4_core));
  const DistanceTree tree = distance_tree(p, root, d);
  ASSERT_EQ(spanning_from(tree, p, root), "") << "root " << root;
  const std::vector<Edge> edges = edges_of(tree);
  EXPECT_EQ(weight_of(edges, d), prim_weight(p, d)) << "root " << root;
  const auto across = std::count_if(edges.begin(), edges.end(), [&](const Edge& e) {
    return fig4_board(binding[e.first]) != fig4_board(binding[e.second]);
  });
  EXPECT_EQ(across, 1) << "root " << root;
  EXPECT_EQ(depth_of(p, edges, root), least_depth(all_ranks(p), root, d)) << "root " << root;
}

TEST(DistanceAwareFigure4, TreeFromP5) { check_full_machine(kFig4Binding, 5); }

TEST(DistanceAwareFigure4, EveryRootAndOtherBindings) {
  Dice dice(4);
  for (int trial = 0; trial < 5; ++trial) {
    const std::vector<int> binding = trial == 0 ? kFig4Binding : dice.distinct(kFig4Cores, kFig4Cores);
    for (int root = 0; root < kFig4Cores; ++root) check_full_machine(binding, root);
  }
}

// Up to 8 processes anywhere on the machine (some sharing a core): against every spanning tree. The weight is
// always the least; the depth is the least among the trees that enter each cluster at its lowest rank, which is all
// the paper's edge order can do; least_depth agrees with the exhaustive search, which vouches for it above.
TEST(DistanceAwareTree, SmallLayoutsAgainstEverySpanningTree) {
  Dice dice(7);
  int shallowest = 0, trials = 0;
  for (int n = 1; n <= 8; ++n)
    for (int trial = 0; trial < (n <= 5 ? 6 : 3); ++trial, ++trials) {
      const std::vector<int> cores = trial % 3 == 2 ? dice.any(n, kFig4Cores) : dice.distinct(n, kFig4Cores);
      const int root = dice.below(n);
      const Distance d = distance_over(on_cores(cores, fig4_core));
      const DistanceTree tree = distance_tree(n, root, d);
      ASSERT_EQ(spanning_from(tree, n, root), "") << "n " << n << ", trial " << trial;
      const std::vector<Edge> edges = edges_of(tree);
      const Exhaustive best = search_trees(n, root, d);
      const std::string what = "n " + std::to_string(n) + ", trial " + std::to_string(trial);
      EXPECT_EQ(weight_of(edges, d), best.weight) << what;
      EXPECT_EQ(prim_weight(n, d), best.weight) << what;
      EXPECT_TRUE(leaders_enter(clusters(n, d), depths(n, edges, root), root)) << what;
      EXPECT_EQ(depth_of(n, edges, root), best.depth_with_leaders) << what;
      EXPECT_EQ(least_depth(all_ranks(n), root, d), best.depth) << what;
      if (depth_of(n, edges, root) == best.depth) ++shallowest;
    }
  EXPECT_GT(shallowest, trials / 2);  // most layouts: the paper's claim; the next test shows where it fails
}

// The paper's claim "minimum depth among all minimum weight spanning trees" needs alike clusters. Root P0 on board
// 0; board 1 holds P1 alone on NUMA node 2 and P2, P3, P4 on NUMA node 3. The root reaches board 1 through its
// lowest rank P1, so P2 hangs below P1 and P3, P4 below P2: depth 3. Entering board 1 at P2 instead (P1, P3, P4 all
// below it) weighs the same and has depth 2.
TEST(DistanceAwareTree, LowestRankEntryCanCostALevel) {
  const std::vector<int> cores = {0, 6, 9, 10, 11};
  const Distance d = distance_over(on_cores(cores, fig4_core));
  const DistanceTree tree = distance_tree(5, 0, d);
  const Exhaustive best = search_trees(5, 0, d);
  EXPECT_EQ(weight_of(edges_of(tree), d), best.weight);
  EXPECT_EQ(depth_of(5, edges_of(tree), 0), best.depth_with_leaders);
  EXPECT_EQ(best.depth, least_depth(all_ranks(5), 0, d));
  EXPECT_EQ(depth_of(5, edges_of(tree), 0), best.depth + 1);
}

// Children are served by the longest path of distances below them: root 0 has a near leaf (P1, distance 1) and a
// farther child (P2, distance 2) with P3 below it (distance 1).
TEST(DistanceAwareTree, LongestPathFirst) {
  const Distance d = [](int x, int y) {
    const std::set<int> pair{x, y};
    if (pair == std::set<int>{0, 1} || pair == std::set<int>{2, 3}) return 1;
    if (pair == std::set<int>{0, 2}) return 2;
    return 3;
  };
  const DistanceTree tree = distance_tree(4, 0, d);
  EXPECT_EQ(tree.children[0], (std::vector<int>{2, 1}));
  EXPECT_EQ(tree.children[2], (std::vector<int>{3}));
}

// ---- Across nodes: every rank's own part of the tree from its own view --------------------------------------------

// For each root and rank, the rank's parent and children from `view(rank)` are those of the tree computed from
// `all`. Returns how many of the views' trees differ from the full one somewhere else (the views are partial).
int compare_views(const std::vector<topo::Placement>& all,
                  const std::function<std::vector<topo::Placement>(int)>& view, const std::string& what) {
  const int p = static_cast<int>(all.size());
  int partial = 0;
  for (int root = 0; root < p; ++root) {
    const DistanceTree full = distance_tree(p, root, distance_over(all));
    for (int r = 0; r < p; ++r) {
      const DistanceTree mine = distance_tree(p, root, distance_over(view(r)));
      EXPECT_EQ(mine.parent[r], full.parent[r]) << what << ", root " << root << ", rank " << r;
      const std::set<int> got(mine.children[r].begin(), mine.children[r].end());
      const std::set<int> want(full.children[r].begin(), full.children[r].end());
      EXPECT_EQ(got, want) << what << ", root " << root << ", rank " << r;
      if (mine.parent != full.parent) ++partial;
    }
  }
  return partial;
}

// The simulated layouts of the sweeps, with each rank's view as the algorithm gets it (Hierarchy::placements).
TEST(DistanceAwareAcrossNodes, SimulatedLayouts) {
  int partial = 0;
  for (int p = 1; p <= 17; ++p)
    for (const sim::Layout& layout : sim::layouts(p))
      partial += compare_views(sim::placements(layout), [&](int r) { return sim::hierarchy(layout, r)->placements; },
                               layout.name + ", p " + std::to_string(p));
  EXPECT_GT(partial, 0);
}

// 2 or 3 nodes of Figure 4's machine, ranks on random nodes and cores; a rank sees the other nodes' ranks as
// coll::elsewhere does.
TEST(DistanceAwareAcrossNodes, RandomLayoutsOnFigure4Nodes) {
  Dice dice(11);
  int partial = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const int nodes = 2 + trial % 2, p = 4 + dice.below(13);
    std::vector<topo::Placement> all;
    for (int r = 0; r < p; ++r) {
      const int core = dice.below(kFig4Cores);
      all.push_back(fig4_on_node(core, static_cast<uint32_t>(dice.below(nodes))));
    }
    const auto view = [&](int r) {
      std::vector<topo::Placement> seen = all;
      for (topo::Placement& x : seen)
        if (x.node != all[r].node) x = elsewhere(x.node);
      return seen;
    };
    partial += compare_views(all, view, "trial " + std::to_string(trial));
  }
  EXPECT_GT(partial, 0);
}

// ---- Figure 5: the allgather ring ---------------------------------------------------------------------------------

int ring_weight(const std::vector<int>& ring, const Distance& d) {
  int w = 0;
  for (std::size_t i = 0; i < ring.size() && ring.size() > 1; ++i) w += d(ring[i], ring[(i + 1) % ring.size()]);
  return w;
}

// The least weight of a Hamiltonian cycle, over all of them (rank 0 first; each cycle is met in both directions).
int least_cycle(int n, const Distance& d) {
  std::vector<int> order = all_ranks(n);
  int best = INT_MAX;
  do best = std::min(best, ring_weight(order, d));
  while (std::next_permutation(order.begin() + 1, order.end()));
  return best;
}

bool visits_each_once(const std::vector<int>& ring, int n) {
  std::vector<int> sorted = ring;
  std::sort(sorted.begin(), sorted.end());
  return sorted == all_ranks(n);
}

TEST(DistanceAwareFigure5, DistancesAreTwoAndThree) {
  const std::vector<topo::Placement> at = on_cores(kFig5Binding, fig5_core);
  for (int u = 0; u < kFig5Cores; ++u)
    for (int v = 0; v < kFig5Cores; ++v) {
      if (u == v) continue;
      EXPECT_EQ(topo::distance(at[u], at[v]), fig5_socket(kFig5Binding[u]) == fig5_socket(kFig5Binding[v]) ? 2 : 3)
          << "P" << u << " P" << v;
    }
}

// Figure 5: a Hamiltonian cycle; the two processes of each socket side by side; as few socket crossings as a cycle
// through 4 sockets can have (4: it must leave each socket once); the least weight of all 2520 cycles.
TEST(DistanceAwareFigure5, Ring) {
  const int p = kFig5Cores;
  const Distance d = distance_over(on_cores(kFig5Binding, fig5_core));
  const std::vector<int> ring = distance_ring(p, d);
  ASSERT_TRUE(visits_each_once(ring, p));
  const auto socket = [](int rank) { return fig5_socket(kFig5Binding[rank]); };
  int crossings = 0;
  for (int i = 0; i < p; ++i) {
    const int here = ring[i], next = ring[(i + 1) % p], before = ring[(i + p - 1) % p];
    EXPECT_TRUE(socket(next) == socket(here) || socket(before) == socket(here)) << "P" << here << " left alone";
    crossings += socket(next) != socket(here) ? 1 : 0;
  }
  std::set<int> sockets;
  for (int r = 0; r < p; ++r) sockets.insert(socket(r));
  EXPECT_EQ(crossings, static_cast<int>(sockets.size()));
  EXPECT_EQ(ring_weight(ring, d), least_cycle(p, d));
}

TEST(DistanceAwareRing, SmallLayoutsAgainstEveryCycle) {
  Dice dice(5);
  for (int n = 1; n <= 8; ++n)
    for (int trial = 0; trial < 6; ++trial) {
      const bool fig4 = trial % 2 == 0;
      const int cores = fig4 ? kFig4Cores : kFig5Cores;
      const std::vector<int> at = trial % 3 == 2 || n > cores ? dice.any(n, cores) : dice.distinct(n, cores);
      const Distance d = distance_over(on_cores(at, fig4 ? fig4_core : fig5_core));
      const std::vector<int> ring = distance_ring(n, d);
      ASSERT_TRUE(visits_each_once(ring, n)) << "n " << n << ", trial " << trial;
      EXPECT_EQ(ring_weight(ring, d), least_cycle(n, d)) << "n " << n << ", trial " << trial;
    }
}

// ---- The algorithms: applicability, schedules, one run on each figure's machine -----------------------------------

Args args_on(const std::vector<topo::Placement>& at, int rank) {
  Args a;
  a.rank = rank;
  a.size = static_cast<int>(at.size());
  a.hierarchy = std::make_shared<const Hierarchy>(make_hierarchy(at, rank));
  return a;
}

const Algorithm& named(Operation op) {
  const Algorithm* a = find_algorithm(op, "distance_aware");
  EXPECT_NE(a, nullptr) << operation_name(op);
  EXPECT_TRUE(a->topology_aware);
  return *a;
}

TEST(DistanceAwareAlgorithms, WhereTheyApply) {
  const Algorithm& bcast = named(Operation::kBcast);
  const Algorithm& allgather = named(Operation::kAllgather);
  Args a = args_on(on_cores(kFig4Binding, fig4_core), 0);
  EXPECT_TRUE(bcast.applies(a));
  EXPECT_TRUE(allgather.applies(a));
  a.tag_limit = kFig4Cores - 2;  // the ring's p - 1 steps need p - 1 tags
  EXPECT_FALSE(allgather.applies(a));
  a.tag_limit = kFig4Cores - 1;
  EXPECT_TRUE(allgather.applies(a));
  a.hierarchy = nullptr;
  EXPECT_FALSE(bcast.applies(a));
  EXPECT_FALSE(allgather.applies(a));
  std::vector<topo::Placement> two_nodes = on_cores(kFig4Binding, fig4_core);
  two_nodes[3] = fig4_on_node(0, 1);
  const Args across = args_on(two_nodes, 0);
  EXPECT_TRUE(bcast.applies(across));
  EXPECT_FALSE(allgather.applies(across));
}

struct Messages {
  std::set<int> from, to;
  std::vector<std::size_t> segments;  // bytes received, in order
  int tags = 0;
};

Messages messages(const Schedule& s) {
  Messages m;
  for (const Vertex& v : s.vertices()) {
    if (v.kind == Kind::kRecv) m.from.insert(v.peer), m.segments.push_back(v.a.count * v.a.type->size);
    if (v.kind == Kind::kSend) m.to.insert(v.peer);
  }
  m.tags = s.tags();
  return m;
}

// Each rank receives from its tree parent and sends to its tree children (the tree of full knowledge), 1000 ints
// in 1024-byte segments: 4 of them.
TEST(DistanceAwareAlgorithms, BcastTalksAlongTheTreeInSegments) {
  const std::vector<topo::Placement> at = on_cores(kFig4Binding, fig4_core);
  const DistanceTree tree = distance_tree(kFig4Cores, 5, distance_over(at));
  for (int r = 0; r < kFig4Cores; ++r) {
    Args a = args_on(at, r);
    a.root = 5, a.recvcount = 1000, a.recvtype = datatype::predefined(datatype::kInt), a.segment_bytes = 1024;
    std::vector<int> buffer(1000);
    a.recvbuf = buffer.data();
    Schedule s;
    named(Operation::kBcast).build(a, s);
    const Messages m = messages(s);
    EXPECT_EQ(m.to, std::set<int>(tree.children[r].begin(), tree.children[r].end())) << "rank " << r;
    if (r == 5) {
      EXPECT_TRUE(m.from.empty());
      continue;
    }
    EXPECT_EQ(m.from, std::set<int>{tree.parent[r]}) << "rank " << r;
    EXPECT_EQ(m.segments, (std::vector<std::size_t>{1024, 1024, 1024, 4000 - 3 * 1024})) << "rank " << r;
  }
}

// Segments grow rather than outnumber the tags; nothing to do for count 0 or one rank.
TEST(DistanceAwareAlgorithms, BcastLimits) {
  const std::vector<topo::Placement> at = on_cores(kFig4Binding, fig4_core);
  std::vector<int> buffer(1000);
  Args a = args_on(at, 1);
  a.root = 5, a.recvbuf = buffer.data(), a.recvtype = datatype::predefined(datatype::kInt);
  a.recvcount = 1000, a.segment_bytes = 16, a.tag_limit = 3;
  Schedule limited;
  named(Operation::kBcast).build(a, limited);
  const Messages m = messages(limited);
  EXPECT_LE(m.tags, 3);
  EXPECT_EQ(std::accumulate(m.segments.begin(), m.segments.end(), std::size_t{0}), 4000u);
  a.recvcount = 0;
  Schedule empty;
  named(Operation::kBcast).build(a, empty);
  EXPECT_TRUE(empty.vertices().empty());
  Args alone = args_on({fig4_core(3)}, 0);
  alone.recvbuf = buffer.data(), alone.recvcount = 10, alone.recvtype = a.recvtype;
  Schedule single;
  named(Operation::kBcast).build(alone, single);
  EXPECT_TRUE(single.vertices().empty());
}

// Figure 4's bcast of 5000 ints from P5 in 1 KiB segments: every rank ends with the root's data.
TEST(DistanceAwareAlgorithms, BcastRunsOnFigure4) {
  const std::vector<topo::Placement> at = on_cores(kFig4Binding, fig4_core);
  const int p = kFig4Cores, root = 5;
  std::vector<std::vector<int>> buffers(p, std::vector<int>(5000, -1));
  std::iota(buffers[root].begin(), buffers[root].end(), 100);
  const std::string failure = sim::run_all(p, [&](int r, Schedule& s) {
    Args a = args_on(at, r);
    a.root = root, a.recvbuf = buffers[r].data(), a.recvcount = 5000, a.segment_bytes = 1024;
    a.recvtype = datatype::predefined(datatype::kInt);
    named(Operation::kBcast).build(a, s);
  });
  ASSERT_EQ(failure, "");
  for (int r = 0; r < p; ++r) EXPECT_EQ(buffers[r], buffers[root]) << "rank " << r;
}

// Each rank passes blocks to its right neighbour on Algorithm 2's ring and hears from its left one, p - 1 times.
TEST(DistanceAwareAlgorithms, AllgatherTalksAroundTheRing) {
  const std::vector<topo::Placement> at = on_cores(kFig5Binding, fig5_core);
  const int p = kFig5Cores;
  const std::vector<int> ring = distance_ring(p, distance_over(at));
  std::vector<int> buffer(3 * p);
  for (int i = 0; i < p; ++i) {
    Args a = args_on(at, ring[i]);
    a.in_place = true, a.recvbuf = buffer.data(), a.recvcount = 3, a.recvtype = datatype::predefined(datatype::kInt);
    Schedule s;
    named(Operation::kAllgather).build(a, s);
    const Messages m = messages(s);
    EXPECT_EQ(m.to, std::set<int>{ring[(i + 1) % p]}) << "P" << ring[i];
    EXPECT_EQ(m.from, std::set<int>{ring[(i + p - 1) % p]}) << "P" << ring[i];
    EXPECT_EQ(m.segments.size(), static_cast<std::size_t>(p - 1)) << "P" << ring[i];
  }
}

// Figure 5's allgather of 3 ints per rank, with and without MPI_IN_PLACE.
TEST(DistanceAwareAlgorithms, AllgatherRunsOnFigure5) {
  const std::vector<topo::Placement> at = on_cores(kFig5Binding, fig5_core);
  const int p = kFig5Cores;
  std::vector<int> expected;
  for (int r = 0; r < p; ++r)
    for (int k = 0; k < 3; ++k) expected.push_back(10 * r + k);
  for (bool in_place : {false, true}) {
    std::vector<std::vector<int>> send(p), recv(p, std::vector<int>(3 * p, -1));
    for (int r = 0; r < p; ++r) {
      send[r] = {10 * r, 10 * r + 1, 10 * r + 2};
      if (in_place) std::copy(send[r].begin(), send[r].end(), recv[r].begin() + 3 * r);
    }
    const std::string failure = sim::run_all(p, [&](int r, Schedule& s) {
      Args a = args_on(at, r);
      a.in_place = in_place;
      if (!in_place) a.sendbuf = send[r].data(), a.sendcount = 3, a.sendtype = datatype::predefined(datatype::kInt);
      a.recvbuf = recv[r].data(), a.recvcount = 3, a.recvtype = datatype::predefined(datatype::kInt);
      named(Operation::kAllgather).build(a, s);
    });
    ASSERT_EQ(failure, "") << (in_place ? "in place" : "");
    for (int r = 0; r < p; ++r) EXPECT_EQ(recv[r], expected) << "rank " << r << (in_place ? ", in place" : "");
  }
}

}  // namespace
