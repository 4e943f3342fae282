// Window creation and release (MPI-4.0 12.2): MPI_Win_create, MPI_Win_allocate, MPI_Win_allocate_shared,
// MPI_Win_create_dynamic with MPI_Win_attach / MPI_Win_detach, MPI_Win_shared_query, MPI_Win_free,
// MPI_Win_get_group. The window itself is rma::Window (rma/window.hpp). MPI_Win_create_c, MPI_Win_allocate_c,
// MPI_Win_allocate_shared_c and MPI_Win_shared_query_c (MPI-4.0 2.5.8) take and give an MPI_Aint disp_unit; the
// windows keep an int one, so a larger disp_unit is refused (MPI_ERR_DISP).
#include <strings.h>

#include <climits>

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

// The checks of this process's own window arguments. They travel with its size (rma::create), so that all
// processes return the error together instead of some waiting for the ones that returned early.
Check check_window_args(const char* call, MPI_Comm comm, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                        MPI_Win* win, runtime::Info*& given) {
  Check args(call, comm);
  args.not_null(win, "win");
  if (args.ok() && size < 0) args.fail(MPI_ERR_SIZE, "negative size " + std::to_string(size));
  if (args.ok() && disp_unit <= 0)
    args.fail(MPI_ERR_DISP, "invalid disp_unit " + std::to_string(disp_unit) + " (must be positive)");
  if (args.ok() && disp_unit > INT_MAX)
    args.fail(MPI_ERR_DISP,
              "disp_unit " + std::to_string(disp_unit) + " exceeds INT_MAX, the most Strata's windows take");
  args.info(info, given, true);
  if (win) *win = MPI_WIN_NULL;
  return args;
}

// MPI_Win_create, MPI_Win_allocate and MPI_Win_create_dynamic: `base` is the caller's memory (create), or null.
int create_window(const char* call, rma::Flavor flavor, void* base, MPI_Aint size, MPI_Aint disp_unit,
                  MPI_Info info, MPI_Comm comm, MPI_Win* win, void* baseptr) {
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check.intracomm(comm, c);  // windows need an intracommunicator (MPI-4.0 12.2)
  if (!check.ok()) return check.raise();
  runtime::Info* given = nullptr;
  Check args = check_window_args(call, comm, size, disp_unit, info, win, given);
  if (flavor == rma::Flavor::Allocate) args.not_null(baseptr, "baseptr");
  if (args.ok() && flavor == rma::Flavor::Create && size > 0 && base == nullptr)
    args.fail(MPI_ERR_ARG, "base is NULL but size is " + std::to_string(size));
  std::unique_ptr<rma::Window> w;
  const rma::Contribution mine{args.ok() ? static_cast<std::int64_t>(size) : 0,
                              args.ok() ? static_cast<int>(disp_unit) : 1};
  const runtime::World& world = runtime::state().world;
  if (Status s = rma::create(*c, world, flavor, mine, static_cast<char*>(base), args.status(), w); !s.ok())
    return raise(call, comm, s);
  w->errhandler = MPI_ERRORS_ARE_FATAL;  // a window's default, whatever the communicator's (MPI-4.0 9.3)
  set_hints(*w, given);
  if (flavor == rma::Flavor::Allocate) *static_cast<void**>(baseptr) = w->program_base(w->rank());
  *win = windows().add(w.release());
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Win_create)
extern "C" int PMPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  const runtime::CallScope call_scope;
  return create_window("MPI_Win_create", rma::Flavor::Create, base, size, disp_unit, info, comm, win, nullptr);
}

STRATA_PMPI(Win_create_c)
extern "C" int PMPI_Win_create_c(void* base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                                 MPI_Win* win) {
  const runtime::CallScope call_scope;
  return create_window("MPI_Win_create_c", rma::Flavor::Create, base, size, disp_unit, info, comm, win, nullptr);
}

STRATA_PMPI(Win_allocate)
extern "C" int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                                 MPI_Win* win) {
  const runtime::CallScope call_scope;
  return create_window("MPI_Win_allocate", rma::Flavor::Allocate, nullptr, size, disp_unit, info, comm, win,
                       baseptr);
}

STRATA_PMPI(Win_allocate_c)
extern "C" int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                                   MPI_Win* win) {
  const runtime::CallScope call_scope;
  return create_window("MPI_Win_allocate_c", rma::Flavor::Allocate, nullptr, size, disp_unit, info, comm, win,
                       baseptr);
}

STRATA_PMPI(Win_create_dynamic)
extern "C" int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  const runtime::CallScope call_scope;
  return create_window("MPI_Win_create_dynamic", rma::Flavor::Dynamic, nullptr, 0, 1, info, comm, win, nullptr);
}

STRATA_PMPI(Win_attach)
extern "C" int PMPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_attach");
  check_window(check, win, w);
  if (check.ok() && size < 0) check.fail(MPI_ERR_SIZE, "negative size " + std::to_string(size));
  if (check.ok() && size > 0 && base == nullptr) check.fail(MPI_ERR_ARG, "base is NULL");
  if (!check.ok()) return raise_on_window("MPI_Win_attach", win, check.status());
  return raise_on_window("MPI_Win_attach", win, rma::attach(*w, base, static_cast<std::size_t>(size)));
}

STRATA_PMPI(Win_detach)
extern "C" int PMPI_Win_detach(MPI_Win win, const void* base) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_detach");
  check_window(check, win, w);
  if (!check.ok()) return raise_on_window("MPI_Win_detach", win, check.status());
  return raise_on_window("MPI_Win_detach", win, rma::detach(*w, base));
}

namespace {

int allocate_shared(const char* call, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                    MPI_Win* win) {
  const runtime::World& world = runtime::state().world;
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check.intracomm(comm, c);  // MPI_Win_allocate_shared needs an intracommunicator
  if (check.ok())
    if (Status s = rma::check_single_node(c->world_ranks, world.node_of_rank); !s.ok())
      check.fail(s.error_class, s.message + "; this process is on " + world.hostname);
  if (!check.ok()) return check.raise();

  runtime::Info* given = nullptr;
  Check args = check_window_args(call, comm, size, disp_unit, info, win, given);
  args.not_null(baseptr, "baseptr");

  std::unique_ptr<rma::Window> w;
  const rma::Contribution mine{args.ok() ? static_cast<std::int64_t>(size) : 0,
                              args.ok() ? static_cast<int>(disp_unit) : 1};
  if (Status s = rma::allocate_shared(*c, world, mine, info_true(given, kNoncontigKey), args.status(), w); !s.ok())
    return raise(call, comm, s);
  w->errhandler = MPI_ERRORS_ARE_FATAL;  // a window's default, whatever the communicator's (MPI-4.0 9.3)
  set_hints(*w, given);  // with the layout in force (rank 0's hint decides)
  *static_cast<void**>(baseptr) = w->program_base(w->rank());
  *win = windows().add(w.release());
  return MPI_SUCCESS;
}

template <class Unit>
int shared_query(const char* call, MPI_Win win, int rank, MPI_Aint* size, Unit* disp_unit, void* baseptr) {
  rma::Window* w = nullptr;
  Check check(call);
  check_window(check, win, w).not_null(size, "size").not_null(disp_unit, "disp_unit").not_null(baseptr, "baseptr");
  if (check.ok() && w->flavor != rma::Flavor::Shared)
    check.fail(MPI_ERR_RMA_FLAVOR, describe_window(win) + " is not a shared-memory window (MPI_Win_allocate_shared)");
  if (check.ok() && rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size()))
    check.fail(MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (" + describe_window(win) + " has " +
                                 std::to_string(w->size()) + " processes)");
  if (!check.ok()) return raise_on_window(call, win, check.status());
  // MPI_PROC_NULL: the lowest rank with a non-zero size; none at all: size 0 and MPI_Alloc_mem(0)'s NULL.
  const int target = rank == MPI_PROC_NULL ? rma::proc_null_target(w->layout.sizes) : rank;
  *size = target < 0 ? 0 : static_cast<MPI_Aint>(w->layout.sizes[target]);
  *disp_unit = w->layout.disp_units[target < 0 ? 0 : target];
  *static_cast<void**>(baseptr) = target < 0 ? nullptr : w->program_base(target);
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Win_allocate_shared)
extern "C" int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                                        MPI_Win* win) {
  const runtime::CallScope call_scope;
  return allocate_shared("MPI_Win_allocate_shared", size, disp_unit, info, comm, baseptr, win);
}

STRATA_PMPI(Win_allocate_shared_c)
extern "C" int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                                          void* baseptr, MPI_Win* win) {
  const runtime::CallScope call_scope;
  return allocate_shared("MPI_Win_allocate_shared_c", size, disp_unit, info, comm, baseptr, win);
}

STRATA_PMPI(Win_shared_query)
extern "C" int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  const runtime::CallScope call_scope;
  return shared_query("MPI_Win_shared_query", win, rank, size, disp_unit, baseptr);
}

STRATA_PMPI(Win_shared_query_c)
extern "C" int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint* size, MPI_Aint* disp_unit, void* baseptr) {
  const runtime::CallScope call_scope;
  return shared_query("MPI_Win_shared_query_c", win, rank, size, disp_unit, baseptr);
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
