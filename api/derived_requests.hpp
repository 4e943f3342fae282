// Requests the api layer completes itself rather than the transport engine: MPI_Isendrecv's (a send and a receive
// that complete together, isendrecv.cpp), request-based RMA (rma_calls.cpp) and generalized requests
// (MPI_Grequest_start, grequest.cpp). The request calls (requests.cpp) hand them here where they differ from a send
// or a receive.
#pragma once
#include <functional>
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

// Completes `r` once `finish(r)` returns true (it may set r's status first): at once if it does now, else in
// progress, which polls it until then. A request freed while active (MPI_Request_free) is deleted as it completes.
void complete_when(ApiRequest* r, std::function<bool(ApiRequest&)> finish);

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
