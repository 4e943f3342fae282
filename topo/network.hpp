// The network levels above the nodes (Rack, Switch: topo/levels.hpp): which instance of each one every node is in.
//
// Two spellings reach this file:
// - mpiexec --network "rack:2 switch:2": a tree, top to bottom, each level at most once and in order; here 2 racks
//   of 2 switches each. The N simulated nodes are spread over the lowest level's instances in block order, N / 4
//   consecutive node ids per switch, so N must be a multiple of the product of the fan-outs (parse_network and
//   spread_nodes check both). Instance indexes are job-wide: switch s of rack r is switch 2r+s.
//   Real fabrics are rarely that regular (the hierarchical-model paper's NTW24E5 has switches of 12, 6, 4 and 2
//   nodes), so the lowest level may instead list the node count of each of its instances, job-wide, in block
//   order: "switch:12,6,4,2" (4 switches: nodes 0-11, 12-17, 18-21, 22-23). The counts must sum to N, and their
//   number must be a multiple of the product of the fan-outs above, whose instances take them in equal blocks
//   ("rack:2 switch:12,6,4,2": rack 0 has switches 0 and 1, rack 1 switches 2 and 3).
// - What a launcher publishes (tools/mpiexec/pmix_job_map.cpp): one level's groups in PMIx's PMIX_FABRIC_GROUPS
//   syntax, "0:node0,node1;1:node2,node3" (group number, colon, node names; groups separated by semicolons).
//   format_groups writes it, parse_groups reads it back as an instance per node id.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topo/levels.hpp"
#include "topo/placement.hpp"

namespace strata::topo {

// The job-level key that carries the Switch level's groups (tools/mpiexec/pmix_job_map.cpp says why Rack travels
// as the standard PMIX_FABRIC_GROUPS and Switch under this key of ours).
inline constexpr const char* kSwitchGroupsKey = "strata.fabric.switch";

struct NetworkLevel {
  Level level;
  int fanout;  // instances of this level inside one instance of the level above (or in the job, for the first)
  std::vector<int> node_counts;  // the lowest level only, if listed: nodes of each instance, job-wide
};

// "rack:2 switch:4" or "switch:12,6,4,2" (names case-insensitive, any spelling parse_level takes for a network
// level). nullopt with the reason in `why` ("unknown level 'foo' ...") for an empty description, an unknown or
// non-network level, a fan-out that is not a positive integer (or a list of them), a list on a level that is not
// the lowest or whose length the levels above do not divide, a repeated level or levels out of order.
std::optional<std::vector<NetworkLevel>> parse_network(std::string_view text, std::string& why);

// How many instances the lowest level has in all (the product of the fan-outs).
long long lowest_instances(const std::vector<NetworkLevel>& levels);

// Every level present in the job, and for each the instance of every node id (kNotConfined: a node that no
// instance lists, e.g. one the resource manager left out).
struct Network {
  std::array<std::vector<int>, kNetworkLevelCount> of_node;  // by level index; empty: the level is absent

  bool present(Level l) const { return network(l) && !of_node[index(l)].empty(); }
  int instance(Level l, uint32_t node) const;  // kAbsent when absent, kNotConfined for an unlisted node
  bool empty() const;
  // Sets `p`'s network levels from its node.
  void place(Placement& p) const;
};

// The tree of `levels` over `nodes` node ids in block order; nullopt with the reason in `why` when `nodes` is not
// a multiple of lowest_instances(levels), or not the sum of the lowest level's listed node counts.
std::optional<Network> spread_nodes(const std::vector<NetworkLevel>& levels, int nodes, std::string& why);

// PMIX_FABRIC_GROUPS syntax for one level: `instance_of_node[n]` is node n's group, `node_names[n]` its name.
std::string format_groups(const std::vector<int>& instance_of_node, const std::vector<std::string>& node_names);

// The group of every node id, from the PMIX_FABRIC_GROUPS syntax and the node names (`node_names[n]`: node id n's
// hostname); names of no node of this job are ignored. nullopt for malformed text or a node listed twice.
std::optional<std::vector<int>> parse_groups(std::string_view text, const std::vector<std::string>& node_names);

}  // namespace strata::topo
