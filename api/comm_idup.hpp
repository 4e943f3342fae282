// What MPI_Comm_free needs to know about pending MPI_Comm_idup calls (comm_idup.cpp).
#pragma once

namespace strata::api {

// MPI-4.0 7.4.3: freeing a communicator lets pending operations on it complete. A pending idup's agreement still
// exchanges messages on the parent's collective context, so the parent's slot must not be reused until it
// finishes. True if `slot` is in use by a pending idup: its release is then deferred until they all finish.
bool defer_slot_release(int slot);

}  // namespace strata::api
