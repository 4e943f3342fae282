// Starting and stopping the library, shared by the world model (MPI_Init / MPI_Finalize, init.cpp) and sessions
// (MPI_Session_init / MPI_Session_finalize, session_calls.cpp): the first of them to start brings up the bootstrap,
// the transport and the built-in communicators; when the last has ended they go. Strata cannot start again after
// that (MPI-4.0 allows it; the bootstrap and transport are set up once per process).
#pragma once
#include "runtime/status.hpp"

namespace strata::api {

// A no-op when the library runs; sets the thread level provided for `required` (MPI_THREAD_SINGLE ...).
Status start_library(int required);
// Call when neither the world model nor any session is in use; collective over the job, like MPI_Finalize.
Status stop_library();

}  // namespace strata::api
