// Window synchronisation (MPI-4.0 12.5): MPI_Win_fence, MPI_Win_sync, MPI_Win_lock / unlock, MPI_Win_lock_all /
// unlock_all, the flush calls, and MPI_Win_post / start / complete / wait / test. The epoch rules
// (rma/epochs.hpp) are checked, as MPI_ERR_RMA_SYNC; completion is rma/window.cpp's. MPI_PROC_NULL is accepted as
// the target of lock, unlock and flush, and does nothing.
#include "api/windows.hpp"
#include <algorithm>

#include "api/handles.hpp"
#include "comm/group.hpp"

using namespace strata;
using namespace strata::api;

namespace {

constexpr int kFenceAsserts = MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;

Check& check_assert(Check& check, int assert, int allowed, const char* allowed_names) {
  if (check.ok() && (assert & ~allowed) != 0)
    check.fail(MPI_ERR_ASSERT, "invalid assert " + std::to_string(assert) + " (allowed: 0 or " + allowed_names + ")");
  return check;
}

// A target rank of the window, or MPI_PROC_NULL.
Check& check_target(Check& check, int rank, MPI_Win win, const rma::Window* w) {
  if (check.ok() && rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size()))
    check.fail(MPI_ERR_RANK, "invalid target rank " + std::to_string(rank) + " (" + describe_window(win) + " has " +
                                 std::to_string(w->size()) + " processes)");
  return check;
}

// The calls that take only the window: check it, run `op` on it, raise what fails.
template <class Op>
int on_window(const char* call, MPI_Win win, Op op) {
  rma::Window* w = nullptr;
  Check check(call);
  check_window(check, win, w);
  if (!check.ok()) return raise_on_window(call, win, check.status());
  return raise_on_window(call, win, op(*w));
}

// The calls that take a target rank too; MPI_PROC_NULL does nothing.
template <class Op>
int on_target(const char* call, int rank, MPI_Win win, Op op) {
  rma::Window* w = nullptr;
  Check check(call);
  check_window(check, win, w);
  check_target(check, rank, win, w);  // apart: w is only known after check_window
  if (!check.ok()) return raise_on_window(call, win, check.status());
  return rank == MPI_PROC_NULL ? MPI_SUCCESS : raise_on_window(call, win, op(*w));
}

// A group of MPI_Win_post / MPI_Win_start as ranks of the window: MPI_ERR_GROUP for a process outside it.
Check& check_group(Check& check, MPI_Group group, const rma::Window* w, std::vector<int>& ranks) {
  if (!check.ok()) return check;
  const comm::Group* g = group_of(group);
  if (g == nullptr) return check.fail(MPI_ERR_GROUP, "invalid group handle " + std::to_string(group));
  for (int world : g->world_ranks) {
    const auto& members = w->comm->world_ranks;
    const auto it = std::find(members.begin(), members.end(), world);
    if (it == members.end())
      return check.fail(MPI_ERR_GROUP, "the group holds world rank " + std::to_string(world) +
                                           ", which is not in the window's group");
    ranks.push_back(static_cast<int>(it - members.begin()));
  }
  return check;
}

// MPI_Win_post and MPI_Win_start: a window, a group and an assert.
template <class Op>
int on_group(const char* call, MPI_Group group, int assert, int allowed, const char* allowed_names, MPI_Win win,
             Op op) {
  rma::Window* w = nullptr;
  std::vector<int> ranks;
  Check check(call);
  check_assert(check_window(check, win, w), assert, allowed, allowed_names);
  check_group(check, group, w, ranks);
  if (!check.ok()) return raise_on_window(call, win, check.status());
  return raise_on_window(call, win, op(*w, std::move(ranks)));
}

}  // namespace

STRATA_PMPI(Win_post)
extern "C" int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_group("MPI_Win_post", group, assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT,
                  "MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT", win, rma::post);
}

STRATA_PMPI(Win_start)
extern "C" int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_group("MPI_Win_start", group, assert, MPI_MODE_NOCHECK, "MPI_MODE_NOCHECK", win, rma::start);
}

STRATA_PMPI(Win_complete)
extern "C" int PMPI_Win_complete(MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_window("MPI_Win_complete", win, rma::complete);
}

STRATA_PMPI(Win_wait)
extern "C" int PMPI_Win_wait(MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_window("MPI_Win_wait", win, rma::wait);
}

STRATA_PMPI(Win_test)
extern "C" int PMPI_Win_test(MPI_Win win, int* flag) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_test");
  check_window(check, win, w).not_null(flag, "flag");
  if (!check.ok()) return raise_on_window("MPI_Win_test", win, check.status());
  bool done = false;
  const int rc = raise_on_window("MPI_Win_test", win, rma::test(*w, done));
  *flag = done;
  return rc;
}

STRATA_PMPI(Win_fence)
extern "C" int PMPI_Win_fence(int assert, MPI_Win win) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_fence");
  check_assert(check_window(check, win, w), assert, kFenceAsserts,
               "MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED");
  if (!check.ok()) return raise_on_window("MPI_Win_fence", win, check.status());
  // The assertions only allow optimisations; a barrier is always correct, and the only one needed with stores.
  return raise_on_window("MPI_Win_fence", win, rma::fence(*w, (assert & MPI_MODE_NOSUCCEED) == 0));
}

STRATA_PMPI(Win_sync)
extern "C" int PMPI_Win_sync(MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_window("MPI_Win_sync", win, [](rma::Window&) {
    rma::sync();
    return Status{};
  });
}

STRATA_PMPI(Win_lock)
extern "C" int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_lock");
  check_window(check, win, w);
  check_target(check, rank, win, w);  // apart: w is only known after check_window
  if (check.ok() && lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
    check.fail(MPI_ERR_LOCKTYPE, "invalid lock_type " + std::to_string(lock_type) +
                                     " (must be MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE)");
  check_assert(check, assert, MPI_MODE_NOCHECK, "MPI_MODE_NOCHECK");
  if (!check.ok()) return raise_on_window("MPI_Win_lock", win, check.status());
  if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
  const rma::LockType type = lock_type == MPI_LOCK_SHARED ? rma::LockType::Shared : rma::LockType::Exclusive;
  return raise_on_window("MPI_Win_lock", win, rma::lock(*w, rank, type, assert & MPI_MODE_NOCHECK));
}

STRATA_PMPI(Win_unlock)
extern "C" int PMPI_Win_unlock(int rank, MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_target("MPI_Win_unlock", rank, win, [&](rma::Window& w) { return rma::unlock(w, rank); });
}

STRATA_PMPI(Win_lock_all)
extern "C" int PMPI_Win_lock_all(int assert, MPI_Win win) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_lock_all");
  check_assert(check_window(check, win, w), assert, MPI_MODE_NOCHECK, "MPI_MODE_NOCHECK");
  if (!check.ok()) return raise_on_window("MPI_Win_lock_all", win, check.status());
  return raise_on_window("MPI_Win_lock_all", win, rma::lock_all(*w, assert & MPI_MODE_NOCHECK));
}

STRATA_PMPI(Win_unlock_all)
extern "C" int PMPI_Win_unlock_all(MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_window("MPI_Win_unlock_all", win, rma::unlock_all);
}

STRATA_PMPI(Win_flush)
extern "C" int PMPI_Win_flush(int rank, MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_target("MPI_Win_flush", rank, win, [&](rma::Window& w) { return rma::flush(w, rank); });
}

STRATA_PMPI(Win_flush_local)
extern "C" int PMPI_Win_flush_local(int rank, MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_target("MPI_Win_flush_local", rank, win, [&](rma::Window& w) { return rma::flush(w, rank); });
}

STRATA_PMPI(Win_flush_all)
extern "C" int PMPI_Win_flush_all(MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_window("MPI_Win_flush_all", win, rma::flush_all);
}

STRATA_PMPI(Win_flush_local_all)
extern "C" int PMPI_Win_flush_local_all(MPI_Win win) {
  const runtime::CallScope call_scope;
  return on_window("MPI_Win_flush_local_all", win, rma::flush_all);
}
