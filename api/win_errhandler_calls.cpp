// Window error handlers (MPI-4.0 9.3.2): the communicators' machinery (api/errors.hpp) with handlers made for
// windows. A window starts with MPI_ERRORS_ARE_FATAL; errors of the window calls go to the window's handler.
#include "api/windows.hpp"

using namespace strata;
using namespace strata::api;

STRATA_PMPI(Win_create_errhandler)
extern "C" int PMPI_Win_create_errhandler(MPI_Win_errhandler_function* function, MPI_Errhandler* errhandler) {
  Check check("MPI_Win_create_errhandler");
  check.not_null(reinterpret_cast<void*>(function), "win_errhandler_fn").not_null(errhandler, "errhandler");
  if (!check.ok()) return check.raise();
  *errhandler = errhandlers().add(new ErrhandlerObject{function, 1, STRATA_KIND_WIN});
  return MPI_SUCCESS;
}

STRATA_PMPI(Win_set_errhandler)
extern "C" int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_set_errhandler");
  check_window(check, win, w);
  if (check.ok() && !is_errhandler(errhandler))
    check.fail(MPI_ERR_ARG, "invalid error handler " + std::to_string(errhandler));
  if (check.ok() && !is_errhandler_for(errhandler, STRATA_KIND_WIN))
    check.fail(MPI_ERR_ARG, "error handler " + std::to_string(errhandler) +
                                " was made for communicators (MPI_Comm_create_errhandler), not windows");
  if (!check.ok()) return raise_on_window("MPI_Win_set_errhandler", win, check.status());
  retain_errhandler(errhandler);
  release_errhandler(w->errhandler);
  w->errhandler = errhandler;
  return MPI_SUCCESS;
}

STRATA_PMPI(Win_get_errhandler)
extern "C" int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_get_errhandler");
  check_window(check, win, w).not_null(errhandler, "errhandler");
  if (!check.ok()) return raise_on_window("MPI_Win_get_errhandler", win, check.status());
  retain_errhandler(w->errhandler);  // a new reference: the caller frees it with MPI_Errhandler_free
  *errhandler = w->errhandler;
  return MPI_SUCCESS;
}

STRATA_PMPI(Win_call_errhandler)
extern "C" int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_call_errhandler");
  check_window(check, win, w);
  if (!check.ok()) return raise_on_window("MPI_Win_call_errhandler", win, check.status());
  run_errhandler(w->errhandler, &win, errorcode);
  return MPI_SUCCESS;  // the handler returned (MPI-4.0 9.5)
}
