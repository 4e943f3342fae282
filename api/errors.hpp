// Error codes, messages and handlers.
//
// A returned error code is its class plus 128 * (1 + slot), where slot indexes a ring of recent messages: so
// MPI_Error_class recovers the class and MPI_Error_string the detailed message ("MPI_Send: invalid destination
// rank 9 ..."), as MPICH does. Which handler runs (MPI-4.0 section 9.3): the communicator's, MPI_COMM_SELF's for
// calls with no (valid) communicator, and the initial handler before MPI_Init / after MPI_Finalize
// (MPI_ERRORS_ARE_FATAL, or MPI_ERRORS_RETURN when STRATA_INITIAL_ERRHANDLER=return).
#pragma once
#include <string>

#include "api/pmpi.hpp"
#include "runtime/status.hpp"

namespace strata::api {

int error_class_of(int code);
std::string error_string(int code);

// Makes a code for `s`, runs the error handler of `comm` (or the one the rules above choose) and returns the code.
int raise(const char* call, MPI_Comm comm, const Status& s);
int raise(const char* call, MPI_Comm comm, int error_class, const std::string& message);

}  // namespace strata::api
