#include "topo/local.hpp"

#include <algorithm>
#include <memory>

#include "runtime/lasting.hpp"

namespace strata::topo {
namespace {

// The hostname of every node id, as the network groups name nodes.
Status node_names(const runtime::World& world, std::vector<std::string>& names) {
  names.assign(*std::max_element(world.node_of_rank.begin(), world.node_of_rank.end()) + 1, std::string());
  for (int r = 0; r < world.size; ++r) {
    std::string& name = names[world.node_of_rank[r]];
    if (!name.empty()) continue;
    std::optional<std::string> host = runtime::rank_hostname(r);
    if (!host)
      return error(kErrOther, "the launcher gave network groups but no hostname for rank " + std::to_string(r));
    name = *host;
  }
  return {};
}

// The launcher's network levels (local.hpp): each a job-level string in PMIX_FABRIC_GROUPS's syntax.
Status load_network(const runtime::World& world, Network& out) {
  struct Source {
    Level level;
    const char* key;
    std::optional<std::string> text;
  } sources[] = {{Level::Rack, "PMIX_FABRIC_GROUPS", runtime::launcher_fabric_groups()},
                 {Level::Switch, kSwitchGroupsKey, runtime::launcher_job_string(kSwitchGroupsKey)}};
  std::vector<std::string> names;
  for (Source& s : sources) {
    if (!s.text) continue;
    if (names.empty())
      if (Status st = node_names(world, names); !st.ok()) return st;
    std::optional<std::vector<int>> groups = parse_groups(*s.text, names);
    if (!groups)
      return error(kErrOther, std::string("the launcher's ") + s.key + " \"" + *s.text +
                                  "\" is not a list of groups like \"0:nodeA,nodeB;1:nodeC\"");
    out.of_node[index(s.level)] = *groups;
  }
  return {};
}

Status load(const runtime::World& world, LocalView& v) {
  if (Status s = load_network(world, v.network); !s.ok()) return s;
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
  v.network.place(v.placement);
  return {};
}

}  // namespace

const LocalView* local_view(const runtime::World& world, Status& status) {
  static auto& view = runtime::lasting<std::unique_ptr<LocalView>>();
  static auto& loaded = runtime::lasting<Status>();
  if (!view && loaded.ok()) {
    auto v = std::make_unique<LocalView>();
    loaded = load(world, *v);
    if (loaded.ok()) view = std::move(v);
  }
  status = loaded;
  return view.get();
}

}  // namespace strata::topo
