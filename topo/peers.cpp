#include "topo/peers.hpp"

#include <sched.h>

#include <map>

#include "runtime/lasting.hpp"
#include "topo/local.hpp"

namespace strata::topo {
namespace {

const std::string kBindingKey = "strata.binding";

// `rank`'s binding on my machine: the launcher's, else the published affinity; the whole machine when unbound.
Status binding_of(const LocalView& me, int rank, Cpuset& out) {
  std::optional<std::string> list;
  if (me.machine.simulated()) {  // the launcher's machine: bindings are the launcher's too
    list = runtime::launcher_cpuset(rank);
  } else {
    std::vector<char> blob;
    if (Status s = runtime::lookup(rank, kBindingKey, blob); !s.ok()) return s;
    list = std::string(blob.begin(), blob.end());
  }
  out = me.machine.whole();
  if (!list || list->empty()) return {};
  auto set = Cpuset::parse_list(*list);
  if (!set) return error(kErrOther, "rank " + std::to_string(rank) + " has a malformed binding \"" + *list + "\"");
  hwloc_bitmap_and(set->get(), set->get(), me.machine.whole().get());
  if (!set->empty()) out = *set;
  return {};
}

}  // namespace

Status publish_binding(const runtime::World& world) {
  if (!world.launched) return {};
  cpu_set_t mask;
  CPU_ZERO(&mask);
  Cpuset affinity;
  if (sched_getaffinity(0, sizeof mask, &mask) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &mask)) affinity.add(cpu);
  const std::string list = affinity.list();
  return runtime::publish(kBindingKey, std::vector<char>(list.begin(), list.end()));
}

const Placement* peer_placement(const runtime::World& world, int world_rank, Status& status) {
  static auto& known = runtime::lasting<std::map<int, Placement>>();
  const LocalView* me = local_view(world, status);
  if (me == nullptr) return nullptr;
  if (world_rank == world.rank) return &me->placement;
  if (world.node_of_rank[world_rank] != me->placement.node) {
    status = error(kErrOther, "rank " + std::to_string(world_rank) + " is on another node");
    return nullptr;
  }
  auto it = known.find(world_rank);
  if (it == known.end()) {
    Cpuset binding;
    if (status = binding_of(*me, world_rank, binding); !status.ok()) return nullptr;
    Placement p = place(me->machine, binding, me->placement.node);
    me->network.place(p);  // the same node, so the same racks and switches as mine
    it = known.emplace(world_rank, p).first;
  }
  return &it->second;
}

}  // namespace strata::topo
