// Error codes, messages and handlers.
//
// A returned error code is its class plus 128 * (1 + slot), where slot indexes a ring of recent messages: so
// MPI_Error_class recovers the class and MPI_Error_string the detailed message ("MPI_Send: invalid destination
// rank 9 ..."), as MPICH does. Which handler runs (MPI-4.0 section 9.3): the communicator's, MPI_COMM_SELF's for
// calls with no (valid) communicator, and the initial handler before MPI_Init / after MPI_Finalize
// (MPI_ERRORS_ARE_FATAL, or MPI_ERRORS_RETURN when STRATA_INITIAL_ERRHANDLER=return).
#pragma once
#include <string>

#include "api/handles.hpp"
#include "api/pmpi.hpp"
#include "runtime/status.hpp"

namespace strata::api {

int error_class_of(int code);
std::string error_string(int code);

// User error classes, codes and strings (MPI_Add_error_class/code/string). They lie above MPI_ERR_LASTCODE, as
// MPI_LASTUSEDCODE >= MPI_ERR_LASTCODE requires (MPI-4.0 9.5): classes from kFirstUserClass, codes from
// kFirstUserCode, each code's class kept in a table.
int add_error_class();
int add_error_code(int error_class);
bool is_valid_code(int code);  // a predefined or added class or code
bool is_added_code(int code);  // added by MPI_Add_error_class or MPI_Add_error_code
void set_error_string(int code, const std::string& text);
int last_used_code();

// Error handlers: the three predefined ones and user ones (MPI_Comm_create_errhandler, MPI_Win_create_errhandler).
// A communicator or window holds a reference to its handler, so MPI_Errhandler_free only drops the user's.
struct ErrhandlerObject {
  MPI_Comm_errhandler_function* function;  // MPI_Win_errhandler_function has the same C type (both handles are int)
  int references;
  int kind = STRATA_KIND_COMM;  // the objects it may be attached to (MPI-4.0 9.3): STRATA_KIND_COMM or _WIN
};
HandleTable<ErrhandlerObject>& errhandlers();
bool is_errhandler(MPI_Errhandler handle);
bool is_errhandler_for(MPI_Errhandler handle, int kind);  // a predefined one, or a user one made for `kind`
void retain_errhandler(MPI_Errhandler handle);
void release_errhandler(MPI_Errhandler handle);

// Whether an error raised on `comm` now would end the job: the handler the rules above choose is
// MPI_ERRORS_ARE_FATAL or MPI_ERRORS_ABORT.
bool error_ends_job(MPI_Comm comm);
// Runs comm's handler on `code` (MPI_Comm_call_errhandler) and returns `code` if the handler returns.
int invoke_errhandler(MPI_Comm comm, int code);
// Runs handler `h` for the object `*handle` (a communicator or a window) on `code`; returns `code` if it returns.
int run_errhandler(MPI_Errhandler h, int* handle, int code);
// The error code for "<call>: <message>" of `error_class`, its message recorded for MPI_Error_string.
int make_error(const char* call, int error_class, const std::string& message);

// Makes a code for `s`, runs the error handler of `comm` (or the one the rules above choose) and returns the code.
int raise(const char* call, MPI_Comm comm, const Status& s);
int raise(const char* call, MPI_Comm comm, int error_class, const std::string& message);
// A user callback's failure `rc` (attribute copy and delete, generalized requests): a code the program added is its
// own, raised and returned as it is; any other value gets a new code of its class (MPI_ERR_OTHER when it is no code
// at all) whose message is `what` and the value.
int raise_callback_error(const char* call, MPI_Comm comm, int rc, const std::string& what);
int callback_error_class(int rc);

}  // namespace strata::api
