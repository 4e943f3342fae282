// Hardware levels, top to bottom, as MPI_Comm_split_type and the topology-aware collectives name them.
// Canonical names are MPI-5's advised URIs (hwloc://Package); parse_level also accepts the bare names and common
// aliases, case-insensitively (Node, Machine, Socket, NUMA, L3, ...).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace strata::topo {

enum class Level : uint8_t { Node, Package, NUMANode, L3Cache, L2Cache, L1Cache, Core, PU };
constexpr int kLevelCount = 8;
constexpr std::array<Level, kLevelCount> kAllLevels = {Level::Node,    Level::Package, Level::NUMANode,
                                                       Level::L3Cache, Level::L2Cache, Level::L1Cache,
                                                       Level::Core,    Level::PU};

constexpr int index(Level l) { return static_cast<int>(l); }

std::string_view canonical_name(Level l);  // "hwloc://Machine", "hwloc://Package", ...
std::string_view short_name(Level l);      // "Node", "Package", "NUMANode", "L3Cache", ..., "PU"
std::optional<Level> parse_level(std::string_view value);

}  // namespace strata::topo
