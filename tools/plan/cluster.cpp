#include "cluster.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>

#include <strings.h>

namespace strata::plan {
namespace {

constexpr std::string_view kNodes = "nodes:";

// A word naming a network level, in any spelling topo::parse_network takes ("rack:2", "strata://Switch:12,6,4,2").
bool network_word(const std::string& word) {
  const std::optional<topo::Level> level = topo::parse_level(word.substr(0, word.rfind(':')));
  return level && topo::network(*level);
}

}  // namespace

Status parse_cluster(const std::string& description, Cluster& out) {
  std::string rest = description;
  const std::size_t start = rest.find_first_not_of(' ');
  int nodes = 1;
  if (start != std::string::npos && rest.compare(start, kNodes.size(), kNodes) == 0) {
    const std::size_t from = start + kNodes.size(), to = std::min(rest.find(' ', from), rest.size());
    const std::string count = rest.substr(from, to - from);
    const auto [stop, ec] = std::from_chars(count.data(), count.data() + count.size(), nodes);
    if (ec != std::errc() || stop != count.data() + count.size() || nodes < 1)
      return error(kErrArg, "\"nodes:" + count + "\" is not a number of nodes (1 or more)");
    rest.erase(0, to);
  } else if (rest.find(kNodes) != std::string::npos) {
    return error(kErrArg, "nodes:N must come first in \"" + description + "\"");
  }
  // The network levels come first, top to bottom as everything here; the node's levels follow them.
  Cluster c;
  c.nodes = nodes;
  std::istringstream words(rest);
  for (std::string word; words >> word;) {
    const bool network = network_word(word);
    if (network && !c.node_description.empty())
      return error(kErrArg, "network level \"" + word + "\" must come before the node's levels (top to bottom)");
    std::string& to = network ? c.network_description : c.node_description;
    to += (to.empty() ? "" : " ") + word;
  }
  if (c.node_description.empty())
    return error(kErrArg, "\"" + description + "\" describes no node (e.g. \"nodes:4 pack:2 core:8\")");
  if (!c.network_description.empty()) {
    std::string why;
    const auto levels = topo::parse_network(c.network_description, why);
    std::optional<topo::Network> network;
    if (levels) network = topo::spread_nodes(*levels, nodes, why);
    if (!network) return error(kErrArg, "network \"" + c.network_description + "\": " + why);
    c.network = std::move(*network);
  }
  // hwloc wants PUs last; "core:16" alone means one PU per core, as in the papers' machines.
  const std::size_t last = c.node_description.rfind(' ') + 1;  // npos + 1 == 0: a single level
  if (strncasecmp(c.node_description.c_str() + last, "pu:", 3) != 0) c.node_description += " pu:1";
  const Status s = topo::Machine::from_synthetic(c.node_description, c.machine);
  if (!s.ok()) return error(kErrArg, s.message + " (hwloc synthetic syntax, e.g. \"pack:2 l3:1 core:16\")");
  c.cores = static_cast<int>(c.machine.instances(topo::Level::Core).size());
  if (c.cores == 0) return error(kErrArg, "\"" + c.node_description + "\" has no cores to bind ranks to");
  if (nodes > INT_MAX / c.cores) return error(kErrArg, "\"" + description + "\" has more ranks than an int holds");
  out = std::move(c);
  return {};
}

std::vector<topo::Placement> rank_placements(const Cluster& cluster, Order order) {
  const std::vector<topo::Instance>& cores = cluster.machine.instances(topo::Level::Core);
  std::vector<topo::Placement> on_node0;  // every node's core placements but for the node id
  for (const topo::Instance& core : cores) on_node0.push_back(topo::place(cluster.machine, core.cpuset, 0));

  std::vector<int> slot(static_cast<std::size_t>(cluster.ranks()));  // rank -> node * cores + core
  std::iota(slot.begin(), slot.end(), 0);
  if (order == Order::kScattered)
    for (int r = 0; r < cluster.ranks(); ++r)
      slot[static_cast<std::size_t>(r)] = r % cluster.nodes * cluster.cores + r / cluster.nodes;
  if (order == Order::kShuffled) {
    // Fisher-Yates on mt19937's output, which the standard fixes (std::shuffle's use of it is the library's own).
    std::mt19937 random(20180);
    for (std::size_t i = slot.size(); i > 1; --i) std::swap(slot[i - 1], slot[random() % i]);
  }
  std::vector<topo::Placement> out;
  out.reserve(slot.size());
  for (int s : slot) {
    topo::Placement p = on_node0[static_cast<std::size_t>(s % cluster.cores)];
    p.node = static_cast<uint32_t>(s / cluster.cores);
    cluster.network.place(p);  // its node's racks and switches (absent without network levels)
    out.push_back(p);
  }
  return out;
}

}  // namespace strata::plan
