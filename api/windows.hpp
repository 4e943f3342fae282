// Window handles: the table of windows (rma::Window), the argument check of a window handle, and
// errors raised on a window, which go to the window's error handler (MPI-4.0 9.3: MPI_ERRORS_ARE_FATAL unless set;
// an invalid window handle's error goes to MPI_COMM_SELF's handler).
#pragma once
#include <string>

#include "api/check.hpp"
#include "rma/window.hpp"

namespace strata::api {

HandleTable<rma::Window>& windows();

// MPI_ERR_WIN for MPI_WIN_NULL, a freed window and a handle of another kind.
Check& check_window(Check& check, MPI_Win handle, rma::Window*& out);
std::string describe_window(MPI_Win handle);  // its name, or "window <handle>"

int raise_on_window(const char* call, MPI_Win win, const Status& s);
int raise_on_window(const char* call, MPI_Win win, int error_class, const std::string& message);

// The window's hints from the user's (MPI_Win_create ..., MPI_Win_set_info), with those in force whatever was asked:
// a shared window's layout (alloc_shared_noncontig, which cannot change) and the defaults of MPI-4.0 12.2.1
// (accumulate_ordering "rar,raw,war,waw", accumulate_ops "same_op_no_op") where the user gave none.
void set_hints(rma::Window& w, const runtime::Info* given);

// MPI_Finalize: windows the program did not free are released here (their segments are long unlinked; this unmaps
// them and gives their context slots back).
void release_windows_at_finalize();

}  // namespace strata::api
