#include "topo/levels.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace strata::topo {
namespace {

struct Names {
  std::string_view canonical, short_name;
};
constexpr std::array<Names, kLevelCount> kNames = {{{"strata://Rack", "Rack"},
                                                    {"strata://Switch", "Switch"},
                                                    {"hwloc://Machine", "Node"},
                                                    {"hwloc://Package", "Package"},
                                                    {"hwloc://NUMANode", "NUMANode"},
                                                    {"hwloc://L3Cache", "L3Cache"},
                                                    {"hwloc://L2Cache", "L2Cache"},
                                                    {"hwloc://L1Cache", "L1Cache"},
                                                    {"hwloc://Core", "Core"},
                                                    {"hwloc://PU", "PU"}}};

struct Alias {
  std::string_view name;  // lower case, without the hwloc:// (or, for network levels, strata://) prefix
  Level level;
};
constexpr Alias kAliases[] = {
    {"rack", Level::Rack},        {"switch", Level::Switch},
    {"machine", Level::Node},     {"node", Level::Node},         {"package", Level::Package},
    {"socket", Level::Package},   {"numanode", Level::NUMANode}, {"numa", Level::NUMANode},
    {"l3cache", Level::L3Cache},  {"l3", Level::L3Cache},        {"l2cache", Level::L2Cache},
    {"l2", Level::L2Cache},       {"l1cache", Level::L1Cache},   {"l1", Level::L1Cache},
    {"l1dcache", Level::L1Cache}, {"core", Level::Core},         {"pu", Level::PU}};

}  // namespace

std::string_view canonical_name(Level l) { return kNames[index(l)].canonical; }
std::string_view short_name(Level l) { return kNames[index(l)].short_name; }

std::optional<Level> parse_level(std::string_view value) {
  std::string lower(value);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  constexpr std::string_view kHwloc = "hwloc://", kStrata = "strata://";
  std::string_view name = lower;
  const bool hwloc = name.starts_with(kHwloc), strata = name.starts_with(kStrata);
  if (hwloc) name.remove_prefix(kHwloc.size());
  if (strata) name.remove_prefix(kStrata.size());
  for (const Alias& a : kAliases)  // hwloc:// names hwloc's objects only, strata:// the network levels only
    if (a.name == name && !(hwloc && network(a.level)) && !(strata && !network(a.level))) return a.level;
  return std::nullopt;
}

}  // namespace strata::topo
