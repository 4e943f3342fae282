// Window synchronisation (MPI-4.0 12.5): MPI_Win_fence, MPI_Win_sync, MPI_Win_lock / unlock, MPI_Win_lock_all /
// unlock_all and the flush calls. With loads and stores as the only accesses every access is complete when it is
// made, so a flush is a memory fence; the epoch rules (rma/epochs.hpp) are still checked, as MPI_ERR_RMA_SYNC.
// MPI_PROC_NULL is accepted as the target of lock, unlock and flush, and does nothing.
#include "api/windows.hpp"

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

}  // namespace

STRATA_PMPI(Win_fence)
extern "C" int PMPI_Win_fence(int assert, MPI_Win win) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_fence");
  check_assert(check_window(check, win, w), assert, kFenceAsserts,
               "MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED");
  if (!check.ok()) return raise_on_window("MPI_Win_fence", win, check.status());
  // The assertions only allow optimisations; a barrier is always correct, and the only one needed with stores.
  return raise_on_window("MPI_Win_fence", win, rma::fence(*w));
}

STRATA_PMPI(Win_sync)
extern "C" int PMPI_Win_sync(MPI_Win win) {
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
extern "C" int PMPI_Win_unlock_all(MPI_Win win) { return on_window("MPI_Win_unlock_all", win, rma::unlock_all); }

STRATA_PMPI(Win_flush)
extern "C" int PMPI_Win_flush(int rank, MPI_Win win) {
  return on_target("MPI_Win_flush", rank, win, [&](rma::Window& w) { return rma::flush(w, rank); });
}

STRATA_PMPI(Win_flush_local)
extern "C" int PMPI_Win_flush_local(int rank, MPI_Win win) {
  return on_target("MPI_Win_flush_local", rank, win, [&](rma::Window& w) { return rma::flush(w, rank); });
}

STRATA_PMPI(Win_flush_all)
extern "C" int PMPI_Win_flush_all(MPI_Win win) { return on_window("MPI_Win_flush_all", win, rma::flush_all); }

STRATA_PMPI(Win_flush_local_all)
extern "C" int PMPI_Win_flush_local_all(MPI_Win win) {
  return on_window("MPI_Win_flush_local_all", win, rma::flush_all);
}
