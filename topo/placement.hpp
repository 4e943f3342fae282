// Where a process lies on its node: for each level, the one instance that holds its whole binding, if any
// (DESIGN.md: a process belongs to an instance only if its binding lies entirely inside it; an unbound process,
// whose binding is the whole machine, belongs only to instances spanning the node). And the distance between two
// processes, on the scale of the distance-aware collectives paper (../shared/papers/ma-...), extended above the node.
// The network levels (Rack, Switch) are set from topo::Network (network.hpp), not from the machine: place() leaves
// them absent.
#pragma once
#include <array>
#include <cstdint>

#include "topo/cpuset.hpp"
#include "topo/levels.hpp"
#include "topo/machine.hpp"

namespace strata::topo {

constexpr int kAbsent = -2;       // the machine lacks the level
constexpr int kNotConfined = -1;  // the binding spans several instances (or lies outside all of them)

struct Placement {
  uint32_t node = 0;
  std::array<int, kLevelCount> instance{};  // node-unique index (job-wide for network levels), kAbsent, kNotConfined
  std::array<bool, kLevelCount> redundant{};
  int board = kNotConfined;                 // the board holding the binding

  bool confined(Level l) const { return instance[index(l)] >= 0; }
  bool present(Level l) const { return instance[index(l)] != kAbsent; }
  int at(Level l) const { return instance[index(l)]; }
  bool operator==(const Placement&) const = default;
};

Placement place(const Machine& machine, const Cpuset& binding, uint32_t node);

// The paper's section IV-A scale, for two processes on one node: 1 sharing a cache (or a core), 2 same package
// and NUMA node, 3 same NUMA node only, 4 same package only, 5 same board, 6 different boards. Beyond the node (the
// paper's "natural extension"), by the lowest network level both nodes are confined to: 7 the same switch, 8 the
// same rack, 9 none (the only value across nodes when the job has no network levels).
constexpr int kSameSwitchDistance = 7, kSameRackDistance = 8, kOtherNodeDistance = 9;
int distance(const Placement& a, const Placement& b);

}  // namespace strata::topo
