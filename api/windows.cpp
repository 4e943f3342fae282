// The window table, its checks and errors raised on windows (see windows.hpp).
#include "api/windows.hpp"

#include "runtime/lasting.hpp"
#include "runtime/state.hpp"

namespace strata::api {

HandleTable<rma::Window>& windows() {
  static auto& table = runtime::lasting<HandleTable<rma::Window>>(STRATA_KIND_WIN);
  return table;
}

std::string describe_window(MPI_Win handle) {
  if (handle == MPI_WIN_NULL) return "MPI_WIN_NULL";
  const rma::Window* w = windows().get(handle);
  if (w == nullptr) return "invalid window handle " + std::to_string(handle);
  return w->name.empty() ? "window " + std::to_string(handle) : "window " + w->name;
}

Check& check_window(Check& check, MPI_Win handle, rma::Window*& out) {
  if (!check.ok()) return check;
  out = windows().get(handle);
  if (out == nullptr)
    check.fail(MPI_ERR_WIN, handle == MPI_WIN_NULL ? std::string("window is MPI_WIN_NULL")
                                                   : describe_window(handle) + " (not a window, or freed)");
  return check;
}

int raise_on_window(const char* call, MPI_Win win, int error_class, const std::string& message) {
  const rma::Window* w = runtime::state().phase == runtime::Phase::Running ? windows().get(win) : nullptr;
  if (w == nullptr) return raise(call, MPI_COMM_SELF, error_class, message);
  return run_errhandler(w->errhandler, &win, make_error(call, error_class, message));
}

int raise_on_window(const char* call, MPI_Win win, const Status& s) {
  return s.ok() ? MPI_SUCCESS : raise_on_window(call, win, s.error_class, s.message);
}

void release_windows_at_finalize() {
  for (int i = 1;; ++i) {
    const MPI_Win handle = STRATA_HANDLE(STRATA_KIND_WIN, i);
    if (windows().slot(handle) == nullptr) break;  // past the table's end
    rma::Window* w = windows().get(handle);
    if (w == nullptr) continue;
    rma::release(*w);
    release_errhandler(w->errhandler);
    windows().remove(handle);
    delete w;
  }
}

void set_hints(rma::Window& w, const runtime::Info* given) {
  w.hints = given ? given->dup() : runtime::Info{};
  if (w.flavor == rma::Flavor::Shared) w.hints.set("alloc_shared_noncontig", w.noncontig ? "true" : "false");
  for (const auto& [key, value] : {std::pair{"accumulate_ordering", "rar,raw,war,waw"},
                                   std::pair{"accumulate_ops", "same_op_no_op"}})
    if (w.hints.get(key) == nullptr) w.hints.set(key, value);
}

}  // namespace strata::api
