// This process's hardware view: its node's machine, its binding and its placement. Read once, on first use, from
// the launcher when it simulates a machine (the PMIx keys of runtime/bootstrap.hpp: the machine, and a binding
// where nothing is really bound), else from hwloc (discovery and hwloc_get_cpubind), so the code path after this
// point is the same whoever launched the job.
#pragma once
#include "runtime/bootstrap.hpp"
#include "topo/placement.hpp"

namespace strata::topo {

enum class BindingSource { Unbound, Real, Simulated };

struct LocalView {
  Machine machine;
  Cpuset binding;  // the whole machine when unbound
  BindingSource source = BindingSource::Unbound;
  Placement placement;
};

// nullptr (with the reason in `status`) when the launcher's machine cannot be loaded or its binding is malformed.
const LocalView* local_view(const runtime::World& world, Status& status);

}  // namespace strata::topo
