// Starting and stopping the library, shared by the world model (MPI_Init / MPI_Finalize, init.cpp) and sessions
// (MPI_Session_init / MPI_Session_finalize, session_calls.cpp): the first of them to start brings up the bootstrap,
// the transport and the built-in communicators. MPI_Finalize with no session open stops them, for good: the world
// model cannot start twice, and the bootstrap and transport are set up once per process. When the last session
// ends instead, they stay up but idle (runtime::Phase::Idle), so that sessions can come and go as MPI-4.0 11.3
// allows; they stop at exit, which is then collective over the job like MPI_Finalize.
#pragma once
#include "runtime/status.hpp"

namespace strata::api {

// A no-op when the library runs; sets the thread level provided for `required` (MPI_THREAD_SINGLE ...).
Status start_library(int required);
// Call when neither the world model nor any session is in use; collective over the job, like MPI_Finalize.
Status stop_library();
// The same case after the last MPI_Session_finalize: the library idles until a new start or the process's exit.
void idle_library();

}  // namespace strata::api
