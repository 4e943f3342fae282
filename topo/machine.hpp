// One node's hardware as Strata sees it: an hwloc topology (discovered, or a synthetic description or XML file
// that the launcher gave), reduced to the instances of each Level.
//
// - A level's instances are listed in hwloc's logical order; an instance's index is node-unique.
// - NUMA nodes are memory children in hwloc 2: the NUMANode level groups the PUs whose local NUMA node is the
//   same, i.e. one instance per distinct NUMA cpuset (the first NUMA node's logical index names it).
// - A level the machine lacks has no instances (absent); so have the network levels (Rack, Switch), which lie
//   above any one machine. A level whose instances have the same cpusets as a level
//   above it is kept, and marked redundant (e.g. the NUMANode and L3Cache of a machine with one of each per
//   package, or a single NUMA node spanning the machine, which equals the Node).
// - Boards are the hwloc Group objects above the packages (e.g. "group:2 pack:4 ..."); a machine without such
//   groups is one board.
#pragma once
#include <hwloc.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "runtime/status.hpp"
#include "topo/cpuset.hpp"
#include "topo/levels.hpp"

namespace strata::topo {

struct Instance {
  int index;      // node-unique: hwloc logical index of the object
  Cpuset cpuset;  // its PUs
};

class Machine {
 public:
  static Status discover(Machine& out);                                 // the real machine
  static Status from_synthetic(const std::string& description, Machine& out);
  static Status from_xml_file(const std::string& path, Machine& out);
  static Status from_xml(const std::string& xml, Machine& out);        // an XML document in memory

  std::string to_xml() const;  // hwloc v2 XML, readable by from_xml
  const Cpuset& whole() const { return whole_; }
  int pu_count() const { return whole_.weight(); }
  const std::vector<Instance>& instances(Level l) const { return levels_[index(l)]; }
  bool present(Level l) const { return !instances(l).empty(); }
  bool redundant(Level l) const { return redundant_[index(l)]; }
  const std::vector<Cpuset>& boards() const { return boards_; }
  hwloc_topology_t hwloc() const { return topology_.get(); }
  bool simulated() const { return simulated_; }  // synthetic or XML: nothing can really be bound

 private:
  struct Destroy {
    void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
  };
  static Status load(Machine& out, bool simulated, int (*configure)(hwloc_topology_t, const void*), const void* arg,
                     const std::string& what);
  void index_levels();

  std::unique_ptr<hwloc_topology, Destroy> topology_;
  bool simulated_ = false;
  Cpuset whole_;
  std::array<std::vector<Instance>, kLevelCount> levels_;
  std::array<bool, kLevelCount> redundant_{};
  std::vector<Cpuset> boards_;
};

}  // namespace strata::topo
