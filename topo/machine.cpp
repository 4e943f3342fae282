#include "topo/machine.hpp"

#include <cstdlib>
#include <fstream>

namespace strata::topo {
namespace {

// Only for the levels inside a node (index_levels skips the network levels, which hwloc does not know).
hwloc_obj_type_t hwloc_type(Level l) {
  switch (l) {
    case Level::Rack:
    case Level::Switch: break;
    case Level::Node: return HWLOC_OBJ_MACHINE;
    case Level::Package: return HWLOC_OBJ_PACKAGE;
    case Level::NUMANode: return HWLOC_OBJ_NUMANODE;
    case Level::L3Cache: return HWLOC_OBJ_L3CACHE;
    case Level::L2Cache: return HWLOC_OBJ_L2CACHE;
    case Level::L1Cache: return HWLOC_OBJ_L1CACHE;
    case Level::Core: return HWLOC_OBJ_CORE;
    case Level::PU: return HWLOC_OBJ_PU;
  }
  return HWLOC_OBJ_MACHINE;
}

bool same_cpusets(const std::vector<Instance>& a, const std::vector<Instance>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i].cpuset == b[i].cpuset)) return false;
  return true;
}

}  // namespace

Status Machine::load(Machine& out, bool simulated, int (*configure)(hwloc_topology_t, const void*), const void* arg,
                     const std::string& what) {
  hwloc_topology_t t = nullptr;
  if (hwloc_topology_init(&t) != 0) return error(kErrOther, "hwloc_topology_init failed");
  std::unique_ptr<hwloc_topology, Destroy> owned(t);
  if (configure && configure(t, arg) != 0) return error(kErrOther, "invalid " + what);
  if (hwloc_topology_load(t) != 0) return error(kErrOther, "hwloc could not load " + what);
  out.topology_ = std::move(owned);
  out.simulated_ = simulated;
  out.index_levels();
  return {};
}

Status Machine::discover(Machine& out) { return load(out, false, nullptr, nullptr, "this machine's topology"); }

Status Machine::from_synthetic(const std::string& description, Machine& out) {
  auto configure = [](hwloc_topology_t t, const void* d) {
    return hwloc_topology_set_synthetic(t, static_cast<const std::string*>(d)->c_str());
  };
  return load(out, true, configure, &description, "synthetic topology \"" + description + "\"");
}

Status Machine::from_xml_file(const std::string& path, Machine& out) {
  if (!std::ifstream(path).good()) return error(kErrOther, "cannot read topology file " + path);
  auto configure = [](hwloc_topology_t t, const void* p) {
    return hwloc_topology_set_xml(t, static_cast<const std::string*>(p)->c_str());
  };
  return load(out, true, configure, &path, "XML topology file " + path);
}

Status Machine::from_xml(const std::string& xml, Machine& out) {
  auto configure = [](hwloc_topology_t t, const void* x) {
    const auto* s = static_cast<const std::string*>(x);
    return hwloc_topology_set_xmlbuffer(t, s->c_str(), static_cast<int>(s->size() + 1));
  };
  return load(out, true, configure, &xml, "XML topology");
}

std::string Machine::to_xml() const {
  char* buffer = nullptr;
  int length = 0;
  if (hwloc_topology_export_xmlbuffer(topology_.get(), &buffer, &length, 0) != 0) return {};
  std::string xml(buffer, length > 0 ? static_cast<std::size_t>(length - 1) : 0);
  hwloc_free_xmlbuffer(topology_.get(), buffer);
  return xml;
}

void Machine::index_levels() {
  hwloc_topology_t t = topology_.get();
  whole_ = Cpuset(hwloc_get_root_obj(t)->cpuset);
  for (Level l : kAllLevels) {
    std::vector<Instance>& out = levels_[index(l)];
    out.clear();
    if (network(l)) continue;  // above the node: never a machine's (topo/network.hpp)
    const int n = hwloc_get_nbobjs_by_type(t, hwloc_type(l));
    for (int i = 0; i < n; ++i) {
      hwloc_obj_t obj = hwloc_get_obj_by_type(t, hwloc_type(l), static_cast<unsigned>(i));
      if (obj->cpuset == nullptr || hwloc_bitmap_iszero(obj->cpuset)) continue;  // e.g. a CPU-less NUMA node
      Cpuset set(obj->cpuset);
      bool seen = false;  // NUMA nodes sharing a locality (DDR + HBM) are one instance
      for (const Instance& inst : out) seen |= inst.cpuset == set;
      if (!seen) out.push_back({static_cast<int>(obj->logical_index), set});
    }
  }
  redundant_.fill(false);
  for (int l = 0; l < kLevelCount; ++l)
    for (int above = 0; above < l && !redundant_[l]; ++above)
      redundant_[l] = !levels_[l].empty() && same_cpusets(levels_[l], levels_[above]);
  boards_.clear();
  // Boards hold packages: only groups above the packages count (groups inside one, e.g. sub-NUMA clusters, don't).
  const int package_depth = hwloc_get_type_depth(t, HWLOC_OBJ_PACKAGE);
  for (int depth = 0; depth < package_depth; ++depth)  // groups may sit at several depths
    if (hwloc_get_depth_type(t, depth) == HWLOC_OBJ_GROUP)
      for (unsigned i = 0; i < hwloc_get_nbobjs_by_depth(t, depth); ++i)
        boards_.emplace_back(hwloc_get_obj_by_depth(t, depth, i)->cpuset);
  if (boards_.empty()) boards_.push_back(whole_);
}

}  // namespace strata::topo
