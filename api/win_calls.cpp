// Shared-memory windows: MPI_Win_allocate_shared, MPI_Win_shared_query, MPI_Win_free, MPI_Win_get_group (MPI-4.0
// 12.2.3, 12.2.5, 12.2.7). The window itself is rma::Window (rma/window.hpp).
#include <strings.h>

#include "api/attributes.hpp"
#include "api/windows.hpp"
#include "comm/group.hpp"
#include "runtime/state.hpp"

using namespace strata;
using namespace strata::api;

namespace {

constexpr const char* kNoncontigKey = "alloc_shared_noncontig";

bool info_true(const runtime::Info* info, const char* key) {
  const std::string* v = info ? info->get(key) : nullptr;
  return v && strcasecmp(v->c_str(), "true") == 0;
}

}  // namespace

STRATA_PMPI(Win_allocate_shared)
extern "C" int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                                        MPI_Win* win) {
  constexpr const char* call = "MPI_Win_allocate_shared";
  const runtime::World& world = runtime::state().world;
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check.intracomm(comm, c);  // MPI_Win_allocate_shared needs an intracommunicator
  if (check.ok())
    if (Status s = rma::check_single_node(c->world_ranks, world.node_of_rank); !s.ok())
      check.fail(s.error_class, s.message + "; this process is on " + world.hostname);
  if (!check.ok()) return check.raise();

  // Checks of this process's own arguments travel with its size (rma::allocate_shared), so that all processes
  // return the error together instead of some waiting for the ones that returned early.
  runtime::Info* given = nullptr;
  Check args(call, comm);
  args.not_null(win, "win").not_null(baseptr, "baseptr");
  if (args.ok() && size < 0) args.fail(MPI_ERR_SIZE, "negative size " + std::to_string(size));
  if (args.ok() && disp_unit <= 0)
    args.fail(MPI_ERR_DISP, "invalid disp_unit " + std::to_string(disp_unit) + " (must be positive)");
  args.info(info, given, true);
  if (win) *win = MPI_WIN_NULL;

  std::unique_ptr<rma::Window> w;
  const rma::Contribution mine{args.ok() ? static_cast<std::int64_t>(size) : 0, args.ok() ? disp_unit : 1};
  if (Status s = rma::allocate_shared(*c, world, mine, info_true(given, kNoncontigKey), args.status(), w); !s.ok())
    return raise(call, comm, s);
  w->errhandler = MPI_ERRORS_ARE_FATAL;  // a window's default, whatever the communicator's (MPI-4.0 9.3)
  w->hints = given ? given->dup() : runtime::Info{};
  w->hints.set(kNoncontigKey, w->noncontig ? "true" : "false");  // the layout in force (rank 0's hint decides)
  *static_cast<void**>(baseptr) = w->base(w->rank());
  *win = windows().add(w.release());
  return MPI_SUCCESS;
}

STRATA_PMPI(Win_shared_query)
extern "C" int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  constexpr const char* call = "MPI_Win_shared_query";
  rma::Window* w = nullptr;
  Check check(call);
  check_window(check, win, w).not_null(size, "size").not_null(disp_unit, "disp_unit").not_null(baseptr, "baseptr");
  if (check.ok() && rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size()))
    check.fail(MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (" + describe_window(win) + " has " +
                                 std::to_string(w->size()) + " processes)");
  if (!check.ok()) return raise_on_window(call, win, check.status());
  // MPI_PROC_NULL: the lowest rank with a non-zero size; none at all: size 0 and MPI_Alloc_mem(0)'s NULL.
  const int target = rank == MPI_PROC_NULL ? rma::proc_null_target(w->layout.sizes) : rank;
  *size = target < 0 ? 0 : static_cast<MPI_Aint>(w->layout.sizes[target]);
  *disp_unit = w->layout.disp_units[target < 0 ? 0 : target];
  *static_cast<void**>(baseptr) = target < 0 ? nullptr : w->base(target);
  return MPI_SUCCESS;
}

STRATA_PMPI(Win_free)
extern "C" int PMPI_Win_free(MPI_Win* win) {
  constexpr const char* call = "MPI_Win_free";
  rma::Window* w = nullptr;
  Check check(call);
  check.not_null(win, "win");
  if (check.ok()) check_window(check, *win, w);
  if (check.ok())
    if (Status s = w->epochs.free(); !s.ok()) check.fail(s.error_class, s.message);
  if (!check.ok()) return raise_on_window(call, win ? *win : MPI_WIN_NULL, check.status());
  const int attr_rc = delete_attributes(*win, w->attributes);  // while the window still works (MPI-4.0 7.7.3)
  Status s = rma::free_window(*w);
  if (s.ok() && attr_rc != MPI_SUCCESS)
    s = error(error_class_of(attr_rc), "an attribute delete callback returned error " + std::to_string(attr_rc));
  const MPI_Errhandler handler = w->errhandler;
  windows().remove(*win);
  delete w;
  *win = MPI_WIN_NULL;
  const int rc = raise(call, MPI_COMM_SELF, s);  // the window is gone: MPI_COMM_SELF's handler
  release_errhandler(handler);
  return rc;
}

STRATA_PMPI(Win_get_group)
extern "C" int PMPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_get_group");
  check_window(check, win, w).not_null(group, "group");
  if (!check.ok()) return raise_on_window("MPI_Win_get_group", win, check.status());
  *group = add_group(comm::Group{w->comm->world_ranks});  // a new group the caller frees
  return MPI_SUCCESS;
}
