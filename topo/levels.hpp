// Hardware levels, top to bottom, as MPI_Comm_split_type and the topology-aware collectives name them.
// Canonical names are MPI-5's advised URIs (hwloc://Package); parse_level also accepts the bare names and common
// aliases, case-insensitively (Node, Machine, Socket, NUMA, L3, ...).
//
// Above the node lie the network levels, Rack above Switch (MPI-4.1's own example splits by "Rack"; the
// hierarchical-model paper's section 4.2 puts switches above nodes). hwloc has no such objects, so their canonical
// names are Strata's own URIs in the same form: strata://Rack, strata://Switch (the bare names are accepted too).
// Unlike a node level's, a network level's instance index is job-wide: rack 1 is the same rack on every node
// (topo/network.hpp says where the instances come from).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace strata::topo {

enum class Level : uint8_t { Rack, Switch, Node, Package, NUMANode, L3Cache, L2Cache, L1Cache, Core, PU };
constexpr int kLevelCount = 10;
constexpr std::array<Level, kLevelCount> kAllLevels = {Level::Rack,     Level::Switch,  Level::Node,
                                                       Level::Package,  Level::NUMANode, Level::L3Cache,
                                                       Level::L2Cache,  Level::L1Cache, Level::Core,
                                                       Level::PU};
constexpr int kNetworkLevelCount = 2;  // the levels above Node, which come first
constexpr std::array<Level, kNetworkLevelCount> kNetworkLevels = {Level::Rack, Level::Switch};

constexpr int index(Level l) { return static_cast<int>(l); }
// Whether `l` lies above the node: its instances are job-wide, and no machine (hwloc) knows it.
constexpr bool network(Level l) { return index(l) < index(Level::Node); }

std::string_view canonical_name(Level l);  // "strata://Rack", "strata://Switch", "hwloc://Machine", ...
std::string_view short_name(Level l);      // "Rack", "Switch", "Node", "Package", "NUMANode", ..., "PU"
std::optional<Level> parse_level(std::string_view value);

}  // namespace strata::topo
