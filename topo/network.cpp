#include "topo/network.hpp"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <sstream>

namespace strata::topo {
namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string lower_name(Level l) {
  std::string name(short_name(l));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name;
}

std::string level_list() {
  std::string out;
  for (Level l : kNetworkLevels) out += (out.empty() ? "" : ", ") + lower_name(l);
  return out;
}

// Strict non-negative integer: "0", "12"; not "", "-1", "1x".
std::optional<int> whole_number(std::string_view text) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    const auto at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

}  // namespace

std::optional<std::vector<NetworkLevel>> parse_network(std::string_view text, std::string& why) {
  std::vector<NetworkLevel> levels;
  std::istringstream words{std::string(text)};
  for (std::string word; words >> word;) {
    const auto colon = word.rfind(':');  // the last one: "strata://Switch:4"
    const std::string name = word.substr(0, colon);
    const std::optional<Level> level = parse_level(name);
    if (!level || !network(*level)) {
      why = "unknown network level " + quoted(name) + " in " + quoted(word) + " (levels, top to bottom: " +
            level_list() + ")";
      return std::nullopt;
    }
    std::vector<int> counts;  // one number: the fan-out; several: node counts
    if (colon != std::string::npos)
      for (std::string_view number : split(std::string_view(word).substr(colon + 1), ',')) {
        const std::optional<int> n = whole_number(number);
        counts.push_back(n ? *n : 0);
      }
    if (counts.empty() || std::find(counts.begin(), counts.end(), 0) != counts.end()) {
      why = "level " + quoted(name) + " needs a positive integer fan-out (" + lower_name(*level) +
            ":N, or node counts N,N,... on the lowest level), got " + quoted(word);
      return std::nullopt;
    }
    for (const NetworkLevel& above : levels) {
      if (above.level == *level) {
        why = "level " + lower_name(*level) + " appears twice";
        return std::nullopt;
      }
      if (index(above.level) > index(*level)) {
        why = "level " + lower_name(*level) + " must come before " + lower_name(above.level) +
              " (levels, top to bottom: " + level_list() + ")";
        return std::nullopt;
      }
    }
    if (!levels.empty() && !levels.back().node_counts.empty()) {
      why = "only the lowest level may list node counts, not " + lower_name(levels.back().level);
      return std::nullopt;
    }
    if (counts.size() == 1)
      levels.push_back({*level, counts[0], {}});
    else
      levels.push_back({*level, static_cast<int>(counts.size()), counts});
  }
  if (levels.empty()) {
    why = "no levels given (e.g. \"rack:2 switch:4\"; levels, top to bottom: " + level_list() + ")";
    return std::nullopt;
  }
  if (NetworkLevel& lowest = levels.back(); !lowest.node_counts.empty()) {  // its fan-out: per instance above
    const long long above = lowest_instances({levels.begin(), levels.end() - 1});
    if (lowest.fanout % above != 0) {
      why = std::to_string(lowest.fanout) + " " + lower_name(lowest.level) +
            " node counts cannot be shared evenly by " + std::to_string(above) + " " +
            lower_name(levels[levels.size() - 2].level) + " instances";
      return std::nullopt;
    }
    lowest.fanout = static_cast<int>(lowest.fanout / above);
  }
  return levels;
}

long long lowest_instances(const std::vector<NetworkLevel>& levels) {
  long long product = 1;
  for (const NetworkLevel& l : levels) product *= l.fanout;
  return product;
}

int Network::instance(Level l, uint32_t node) const {
  if (!present(l)) return kAbsent;
  const std::vector<int>& nodes = of_node[index(l)];
  return node < nodes.size() ? nodes[node] : kNotConfined;
}

bool Network::empty() const {
  return std::all_of(of_node.begin(), of_node.end(), [](const std::vector<int>& v) { return v.empty(); });
}

void Network::place(Placement& p) const {
  for (Level l : kNetworkLevels) {
    p.instance[index(l)] = instance(l, p.node);
    p.redundant[index(l)] = false;
  }
}

std::optional<Network> spread_nodes(const std::vector<NetworkLevel>& levels, int nodes, std::string& why) {
  const long long lowest = lowest_instances(levels);
  const std::vector<int>& counts = levels.back().node_counts;
  const long long listed = std::accumulate(counts.begin(), counts.end(), 0LL);
  if (!counts.empty() && listed != nodes) {
    why = "the " + lower_name(levels.back().level) + " node counts add up to " + std::to_string(listed) + ", not " +
          std::to_string(nodes) + " nodes";
    return std::nullopt;
  }
  if (counts.empty() && (nodes <= 0 || nodes % lowest != 0)) {
    why = std::to_string(nodes) + " nodes cannot be spread evenly over " + std::to_string(lowest) + " " +
          lower_name(levels.back().level) + " instances (the node count must be a multiple of the product of the " +
          "fan-outs)";
    return std::nullopt;
  }
  // The lowest level's instance of every node, then each level above it by equal blocks of those instances.
  std::vector<long long> lowest_of(static_cast<std::size_t>(nodes));
  for (int n = 0, instance = 0, left = counts.empty() ? 0 : counts[0]; n < nodes; ++n) {
    if (counts.empty()) {
      lowest_of[n] = n / (nodes / lowest);
      continue;
    }
    while (left == 0) left = counts[++instance];
    lowest_of[n] = instance;
    --left;
  }
  Network net;
  long long instances = 1;
  for (const NetworkLevel& l : levels) {
    instances *= l.fanout;  // of this level in the whole job; each holds lowest / instances lowest instances
    std::vector<int>& of_node = net.of_node[index(l.level)];
    for (int n = 0; n < nodes; ++n) of_node.push_back(static_cast<int>(lowest_of[n] / (lowest / instances)));
  }
  return net;
}

std::string format_groups(const std::vector<int>& instance_of_node, const std::vector<std::string>& node_names) {
  std::vector<int> groups(instance_of_node);
  std::sort(groups.begin(), groups.end());
  groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
  std::string out;
  for (int g : groups) {
    if (g < 0) continue;
    std::string members;
    for (std::size_t n = 0; n < instance_of_node.size(); ++n)
      if (instance_of_node[n] == g) members += (members.empty() ? "" : ",") + node_names[n];
    out += (out.empty() ? "" : ";") + std::to_string(g) + ":" + members;
  }
  return out;
}

std::optional<std::vector<int>> parse_groups(std::string_view text, const std::vector<std::string>& node_names) {
  std::vector<int> of_node(node_names.size(), kNotConfined);
  for (std::string_view group : split(text, ';')) {
    const auto colon = group.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    const std::optional<int> number = whole_number(group.substr(0, colon));
    if (!number) return std::nullopt;
    for (std::string_view name : split(group.substr(colon + 1), ',')) {
      if (name.empty()) return std::nullopt;
      for (std::size_t n = 0; n < node_names.size(); ++n) {
        if (node_names[n] != name) continue;
        if (of_node[n] != kNotConfined) return std::nullopt;
        of_node[n] = *number;
      }
    }
  }
  return of_node;
}

}  // namespace strata::topo
