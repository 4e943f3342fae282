#include "coll/hierarchy.hpp"

#include <algorithm>
#include <numeric>

#include "comm/hw_split.hpp"
#include "runtime/state.hpp"
#include "topo/local.hpp"
#include "topo/peers.hpp"

namespace strata::coll {
namespace {

// The cut of `group` at the next level: plan_split's parts, then the members it left out, each alone.
Hierarchy::Level cut(const std::vector<topo::Placement>& placements, const std::vector<int>& group, int me) {
  comm::SplitRequest request;
  request.kind = comm::SplitKind::HwUnguided;
  std::vector<comm::SplitRecord> records;
  for (int r : group) {
    request.key = r;
    records.push_back(comm::make_record(request, placements[static_cast<std::size_t>(r)]));
  }
  std::vector<int> positions(group.size());
  std::iota(positions.begin(), positions.end(), 0);
  const auto at = static_cast<int>(std::find(group.begin(), group.end(), me) - group.begin());
  const comm::SplitPlan plan = comm::plan_split(records, at, -1, positions);

  Hierarchy::Level level;
  level.members = group;
  std::vector<bool> placed(group.size(), false);
  if (plan.level) {
    level.name = topo::short_name(*plan.level);
    for (const std::vector<int>& part : plan.parts) {
      std::vector<int>& ranks = level.parts.emplace_back();
      for (int i : part) {
        ranks.push_back(group[static_cast<std::size_t>(i)]);
        placed[static_cast<std::size_t>(i)] = true;
      }
    }
  }
  for (std::size_t i = 0; i < group.size(); ++i)
    if (!placed[i]) level.parts.push_back({group[i]});
  for (std::size_t p = 0; p < level.parts.size(); ++p)
    if (std::binary_search(level.parts[p].begin(), level.parts[p].end(), me)) level.mine = static_cast<int>(p);
  return level;
}

}  // namespace

topo::Placement elsewhere(uint32_t node, const topo::Network& network) {
  topo::Placement p;  // every level below the node is unknown here
  p.node = node;
  p.instance.fill(topo::kNotConfined);
  p.instance[topo::index(topo::Level::Node)] = 0;
  network.place(p);
  return p;
}

topo::Placement elsewhere(const topo::Placement& seen) {
  topo::Placement p = elsewhere(seen.node);
  for (topo::Level l : topo::kNetworkLevels) p.instance[topo::index(l)] = seen.at(l);
  return p;
}

bool Hierarchy::spans_nodes() const {
  const std::optional<topo::Level> first = topo::parse_level(levels.front().name);
  return first && (*first == topo::Level::Node || topo::network(*first));
}

Hierarchy make_hierarchy(const std::vector<topo::Placement>& placements, int me) {
  Hierarchy h;
  h.placements = placements;
  std::vector<int> group(placements.size());
  std::iota(group.begin(), group.end(), 0);
  for (;;) {
    h.levels.push_back(cut(placements, group, me));
    const Hierarchy::Level& level = h.levels.back();
    const std::vector<int>& mine = level.parts[static_cast<std::size_t>(level.mine)];
    if (mine.size() <= 1) return h;
    group = mine;
  }
}

bool spans_nodes(const comm::Communicator& c) {
  const std::vector<uint32_t>& node_of = runtime::state().world.node_of_rank;
  for (int w : c.world_ranks)
    if (node_of[static_cast<std::size_t>(w)] != node_of[static_cast<std::size_t>(c.world_ranks.front())]) return true;
  return false;
}

std::shared_ptr<const Hierarchy> hierarchy_of(const comm::Communicator& c, Status& status) {
  const runtime::World& world = runtime::state().world;
  const uint32_t my_node = world.node_of_rank[static_cast<std::size_t>(c.world_rank(c.rank))];
  const topo::LocalView* local = topo::local_view(world, status);
  if (local == nullptr) return nullptr;
  std::vector<topo::Placement> placements(static_cast<std::size_t>(c.size));
  for (int r = 0; r < c.size; ++r) {
    const int w = c.world_rank(r);
    const uint32_t node = world.node_of_rank[static_cast<std::size_t>(w)];
    if (node != my_node) {
      placements[static_cast<std::size_t>(r)] = elsewhere(node, local->network);
      continue;
    }
    const topo::Placement* known = topo::peer_placement(world, w, status);
    if (known == nullptr) return nullptr;
    placements[static_cast<std::size_t>(r)] = *known;
  }
  return std::make_shared<const Hierarchy>(make_hierarchy(placements, c.rank));
}

int leader(const std::vector<int>& part, int root) {
  return std::find(part.begin(), part.end(), root) != part.end() ? root : part.front();
}

}  // namespace strata::coll
