// Helpers shared by the topo/ unit tests: the papers' machines as hwloc synthetic descriptions, and PU sets
// written by hand (built with Cpuset::add, so that the expectations never go through Cpuset::parse_list).
#pragma once
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "topo/machine.hpp"
#include "topo/placement.hpp"

namespace strata::topo::testing {

// goglin2018, section 5 (Figure 1): two NumaNodes, each with a single package of 4 cores; a dedicated L3 per
// package; an L2 per pair of cores. One L1 per core.
inline const std::string kHierarchicalNode = "pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1";

// ma (distance-aware), section IV-A. IG: 2 boards of 4 sockets; 6 cores per socket sharing an L3 and a memory
// controller (a NUMA node); private L2 and L1 per core.
inline const std::string kIG = "group:2 pack:4 [numa] l3:1 l2:6 l1:1 core:1 pu:1";
// Zoot: 4 sockets of quad-cores, an L2 per pair of cores, one memory controller for all sockets (hwloc then puts a
// single NUMA node under the machine). No L3.
inline const std::string kZoot = "pack:4 l2:2 l1:2 core:1 pu:1";

// bouhrour, Figure 3: each node has 2 NUMA nodes of 3 cores.
inline const std::string kBouhrourNode = "numa:2 core:3 pu:1";

// A set of PUs given by their OS indices (those of a synthetic topology are its logical indices unless the
// description says otherwise).
inline Cpuset pus(std::initializer_list<int> list) {
  Cpuset s;
  for (int pu : list) s.add(pu);
  return s;
}

// PUs first..last, inclusive.
inline Cpuset pu_range(int first, int last) {
  Cpuset s;
  for (int pu = first; pu <= last; ++pu) s.add(pu);
  return s;
}

inline Machine synthetic(const std::string& description) {
  Machine m;
  Status s = Machine::from_synthetic(description, m);
  EXPECT_TRUE(s.ok()) << description << ": " << s.message;
  return m;
}

// Prints a placement as "Node=0 Package=1 ..." so that a failing comparison shows every level.
inline std::string describe(const Placement& p) {
  std::string out = "node " + std::to_string(p.node) + ":";
  for (Level l : kAllLevels) out += " " + std::string(short_name(l)) + "=" + std::to_string(p.at(l));
  return out + " board=" + std::to_string(p.board);
}

}  // namespace strata::topo::testing
