// RMA operations on windows whose memory every process maps (MPI_Win_allocate_shared, and MPI_Win_allocate when the
// communicator lies on one node): the origin moves the data itself with loads and stores, so an operation is complete
// at origin and target when the call returns and the target never has to make progress (true passive target, as
// MPICH's and Open MPI's shared-memory windows). Accumulates take the target part's accumulate lock, a second
// word in its lock line (rma/lock.hpp), for their element-wise atomicity (MPI-4.0 12.7.1); the last-writer order of
// accumulates from one origin is program order.
#pragma once
#include "rma/window.hpp"

namespace strata::rma {

void direct_put(Window& w, const OriginBuffer& origin, const TargetAccess& at);
void direct_get(Window& w, const OriginBuffer& origin, const TargetAccess& at);
void direct_accumulate(Window& w, const OriginBuffer& origin, const TargetAccess& at, int op);
void direct_get_accumulate(Window& w, const OriginBuffer& origin, const OriginBuffer& result, const TargetAccess& at,
                           int op);
void direct_compare_swap(Window& w, const void* origin, const void* compare, const OriginBuffer& result,
                         const TargetAccess& at);

}  // namespace strata::rma
