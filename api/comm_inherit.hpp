// What every communicator constructor does to a new communicator before handing it out (comm_create_calls.cpp,
// comm_idup.cpp, hw_split_calls.cpp).
#pragma once
#include <memory>

#include "api/pmpi.hpp"
#include "comm/communicator.hpp"

namespace strata::api {

// `c` inherits the parent's error handler (MPI-4.0 9.3) and, for a dup, its hints and attributes (copy callbacks
// run here). On failure the error is raised on the parent and nothing is left attached to `c`.
int inherit(const char* call, MPI_Comm parent_handle, const comm::Communicator& parent, comm::Communicator& c,
            bool dup);
// Registers `c` (inheriting from the parent) and returns its handle in *newcomm; MPI_COMM_NULL for nullptr.
int publish(const char* call, MPI_Comm parent_handle, const comm::Communicator& parent,
            std::unique_ptr<comm::Communicator> c, bool dup, MPI_Comm* newcomm);
// Undoes a successful inherit() (attributes deleted, error handler released), for a communicator never handed out.
void disinherit(comm::Communicator& c);

}  // namespace strata::api
