#include "topo/local.hpp"

#include <memory>

namespace strata::topo {
namespace {

constexpr int kErrOther = 16;  // MPI_ERR_OTHER

Status load(const runtime::World& world, LocalView& v) {
  if (auto xml = runtime::launcher_topology_xml()) {
    if (Status s = Machine::from_xml(*xml, v.machine); !s.ok()) return s;
    v.binding = v.machine.whole();
    if (auto list = runtime::launcher_cpuset(world.rank)) {
      auto set = Cpuset::parse_list(*list);
      if (!set || set->empty() || !set->within(v.machine.whole()))
        return error(kErrOther, "the launcher's binding \"" + *list + "\" is not a set of this machine's PUs");
      v.binding = *set;
    }
    v.source = v.binding == v.machine.whole() ? BindingSource::Unbound : BindingSource::Simulated;
  } else {
    if (Status s = Machine::discover(v.machine); !s.ok()) return s;
    v.binding = v.machine.whole();
    Cpuset bound;
    if (hwloc_get_cpubind(v.machine.hwloc(), bound.get(), HWLOC_CPUBIND_PROCESS) == 0 && !bound.empty()) {
      hwloc_bitmap_and(bound.get(), bound.get(), v.machine.whole().get());
      if (!bound.empty()) v.binding = bound;
    }
    v.source = v.binding == v.machine.whole() ? BindingSource::Unbound : BindingSource::Real;
  }
  v.placement = place(v.machine, v.binding, world.node_of_rank[world.rank]);
  return {};
}

}  // namespace

const LocalView* local_view(const runtime::World& world, Status& status) {
  static std::unique_ptr<LocalView> view;
  static Status loaded;
  if (!view && loaded.ok()) {
    auto v = std::make_unique<LocalView>();
    loaded = load(world, *v);
    if (loaded.ok()) view = std::move(v);
  }
  status = loaded;
  return view.get();
}

}  // namespace strata::topo
