// Requests the api layer completes itself rather than the transport engine: MPI_Isendrecv's (a send and a receive
// that complete together, isendrecv.cpp) and generalized requests (MPI_Grequest_start, grequest.cpp). The request
// calls (requests.cpp) hand them here where they differ from a send or a receive.
#pragma once
#include <vector>

#include "api/p2p.hpp"

namespace strata::api {

struct SendRecvParts {
  ApiRequest send, recv;
  std::vector<char> packed;  // MPI_Isendrecv_replace: the outgoing data, packed before the receive overwrites it
};

struct Generalized {
  MPI_Grequest_query_function* query;
  MPI_Grequest_free_function* free;
  MPI_Grequest_cancel_function* cancel;
  void* extra_state;
};

// MPI_Cancel of an active MPI_Isendrecv: both parts.
void cancel_parts(ApiRequest& r);

// A completed generalized request's status, from its query_fn, into r.status (Wait, Test, Request_get_status); a
// failing query_fn becomes the request's error.
void query_generalized(ApiRequest& r);
// Its free_fn, as the request is released; a failure becomes the request's error unless it has one.
void free_generalized(ApiRequest& r);
// MPI_Cancel: its cancel_fn, told whether the request is complete.
int cancel_generalized(ApiRequest& r);
// MPI_Request_free: released now if complete, else when MPI_Grequest_complete comes (the handle stays valid for it).
int release_generalized(MPI_Request* handle, ApiRequest* r);

}  // namespace strata::api
