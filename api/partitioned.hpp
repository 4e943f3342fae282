// Partitioned communication (MPI-4.0 chapter 4): what MPI_Start and MPI_Request_free (requests.cpp) need of a
// request made by MPI_Psend_init or MPI_Precv_init. The calls themselves and the protocol are in partitioned.cpp.
#pragma once
#include "api/handles.hpp"

namespace strata::api {

// MPI_Start: clears the partitions' state and lets them go (a send) or come (a receive); the request completes
// once every partition has gone or landed.
void start_partitioned(ApiRequest& r);

}  // namespace strata::api
