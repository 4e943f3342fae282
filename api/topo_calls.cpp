// Strata's view of the hardware, for tools and tests (MPIX_Get_hw_placement; format documented in mpi.h).
#include <set>
#include <string>

#include "api/check.hpp"
#include "runtime/state.hpp"
#include "topo/local.hpp"

using namespace strata;
using namespace strata::api;

namespace {

const char* binding_name(topo::BindingSource s) {
  switch (s) {
    case topo::BindingSource::Real: return "real";
    case topo::BindingSource::Simulated: return "simulated";
    case topo::BindingSource::Unbound: return "none";
  }
  return "none";
}

// How many instances of network level `l` the job has (its distinct groups).
std::size_t network_instances(const topo::Network& network, topo::Level l) {
  std::set<int> groups;
  for (int g : network.of_node[topo::index(l)])
    if (g >= 0) groups.insert(g);
  return groups.size();
}

runtime::Info describe(const runtime::World& world, const topo::LocalView& v) {
  runtime::Info info;
  const topo::Placement& p = v.placement;
  info.set("node", std::to_string(p.node));
  info.set("hostname", world.hostname);
  info.set("binding", binding_name(v.source));
  info.set("cpuset", v.binding.list());
  std::string redundant;
  for (topo::Level l : topo::kAllLevels) {
    if (!p.present(l)) continue;
    const std::string count = std::to_string(topo::network(l) ? network_instances(v.network, l)
                                                              : v.machine.instances(l).size());
    info.set(topo::canonical_name(l), (p.confined(l) ? std::to_string(p.at(l)) : "none") + "/" + count);
    if (p.redundant[topo::index(l)]) redundant += (redundant.empty() ? "" : " ") + std::string(topo::canonical_name(l));
  }
  info.set("redundant", redundant);
  return info;
}

}  // namespace

STRATA_PMPIX(Get_hw_placement)
extern "C" int PMPIX_Get_hw_placement(MPI_Info* placement) {
  Check check("MPIX_Get_hw_placement");
  check.not_null(placement, "placement");
  if (!check.ok()) return check.raise();
  const runtime::World& world = runtime::state().world;
  Status status;
  const topo::LocalView* view = topo::local_view(world, status);
  if (view == nullptr) return raise("MPIX_Get_hw_placement", MPI_COMM_SELF, status);
  *placement = add_info(describe(world, *view));
  return MPI_SUCCESS;
}
