// What every communicator constructor does to a new communicator before handing it out (comm_create_calls.cpp,
// comm_idup.cpp).
#pragma once
#include "api/pmpi.hpp"
#include "comm/communicator.hpp"

namespace strata::api {

// `c` inherits the parent's error handler (MPI-4.0 9.3) and, for a dup, its hints and attributes (copy callbacks
// run here). On failure the error is raised on the parent and nothing is left attached to `c`.
int inherit(const char* call, MPI_Comm parent_handle, const comm::Communicator& parent, comm::Communicator& c,
            bool dup);
// Undoes a successful inherit() (attributes deleted, error handler released), for a communicator never handed out.
void disinherit(comm::Communicator& c);

}  // namespace strata::api
