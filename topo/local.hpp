// This process's hardware view: its node's machine, its binding and its placement. Read once, on first use, from
// the launcher when it simulates a machine (the PMIx keys of runtime/bootstrap.hpp: the machine, and a binding
// where nothing is really bound), else from hwloc (discovery and hwloc_get_cpubind), so the code path after this
// point is the same whoever launched the job. The network levels above the nodes come from the launcher's job-level
// PMIx data in both cases: Rack from PMIX_FABRIC_GROUPS (a resource manager's fabric groups: sets of nodes wired
// together above their switches, e.g. a dragonfly group or a rack), Switch from kSwitchGroupsKey, which only our
// mpiexec gives (PMIx 4.2's PMIX_SWITCH_PEERS is per process and fabric device, from a fabric plugin; not read).
#pragma once
#include "runtime/bootstrap.hpp"
#include "topo/network.hpp"
#include "topo/placement.hpp"

namespace strata::topo {

enum class BindingSource { Unbound, Real, Simulated };

struct LocalView {
  Machine machine;
  Cpuset binding;  // the whole machine when unbound
  BindingSource source = BindingSource::Unbound;
  Network network;  // the network levels above every node of the job (absent unless the launcher gave them)
  Placement placement;
};

// nullptr (with the reason in `status`) when the launcher's machine cannot be loaded or its binding is malformed.
const LocalView* local_view(const runtime::World& world, Status& status);

}  // namespace strata::topo
