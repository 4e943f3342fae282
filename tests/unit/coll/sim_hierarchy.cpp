#include "sim_hierarchy.hpp"

#include <map>
#include <mutex>
#include <numeric>
#include <tuple>

namespace strata::coll::sim {
namespace {

constexpr int kCores = 8;  // per node: core c in L3 c / 2, package c / 4

// A fixed shuffle of 0..p-1 (a multiplicative step coprime with p, then a rotation).
std::vector<int> shuffled(int p) {
  int step = 5;
  while (std::gcd(step, p) != 1) ++step;
  std::vector<int> out(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) out[static_cast<std::size_t>(i)] = (i * step + 3) % p;
  return out;
}

}  // namespace

std::vector<Layout> layouts(int p) {
  std::vector<Layout> out(4);
  out[0].name = "2 nodes, block order";
  out[1].name = "3 nodes, shuffled, one rank unbound";
  out[2].name = "1 node, shuffled";
  out[3].name = "4 nodes, block order, two ranks per core on odd nodes";
  const std::vector<int> perm = shuffled(p);
  const int half = (p + 1) / 2;
  for (int r = 0; r < p; ++r) {
    out[0].node.push_back(r < half ? 0 : 1);
    out[0].core.push_back((r < half ? r : r - half) % kCores);
    const int s = perm[static_cast<std::size_t>(r)];
    out[1].node.push_back(s % 3);
    out[1].core.push_back(r == p / 2 ? -1 : (s / 3) % kCores);
    out[2].node.push_back(0);
    out[2].core.push_back(s % kCores);
    const int node = r * 4 / p, first = (node * p + 3) / 4, local = r - first;
    out[3].node.push_back(node);
    out[3].core.push_back((node % 2 == 1 ? local / 2 : local) % kCores);
  }
  return out;
}

std::vector<topo::Placement> placements(const Layout& layout, const Network& network) {
  using topo::Level;
  std::vector<topo::Placement> out;
  for (std::size_t r = 0; r < layout.node.size(); ++r) {
    topo::Placement p;
    p.node = static_cast<uint32_t>(layout.node[r]);
    const int c = layout.core[r];
    for (Level l : topo::kAllLevels) {
      int at = topo::kNotConfined;
      if (l == Level::Rack) at = network.rack.empty() ? topo::kAbsent : network.rack[r];
      else if (l == Level::Switch) at = network.switch_of.empty() ? topo::kAbsent : network.switch_of[r];
      else if (l == Level::Node) at = 0;
      else if (l == Level::NUMANode) at = topo::kAbsent;
      else if (c >= 0) at = l == Level::Package ? c / 4 : l == Level::L3Cache ? c / 2 : c;
      p.instance[topo::index(l)] = at;
    }
    out.push_back(p);
  }
  return out;
}

// Made once per layout, rank and network: the sweeps ask again for every case (sizes, roots, counts, types), and
// making hierarchies (their splits' allocations) was most of a hierarchical reduction sweep's time, 7 times as much
// under the sanitizers.
std::shared_ptr<const Hierarchy> hierarchy(const Layout& layout, int r, const Network& network) {
  using Key = std::tuple<std::vector<int>, std::vector<int>, int, std::vector<int>, std::vector<int>>;
  static std::mutex lock;
  static std::map<Key, std::shared_ptr<const Hierarchy>> made;
  Key key{layout.node, layout.core, r, network.rack, network.switch_of};
  std::lock_guard<std::mutex> hold(lock);
  std::shared_ptr<const Hierarchy>& h = made[std::move(key)];
  if (h) return h;
  std::vector<topo::Placement> seen = placements(layout, network);
  const uint32_t mine = seen[static_cast<std::size_t>(r)].node;
  for (topo::Placement& p : seen)
    if (p.node != mine) p = elsewhere(p);
  return h = std::make_shared<const Hierarchy>(make_hierarchy(seen, r));
}

}  // namespace strata::coll::sim
