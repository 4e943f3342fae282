// Generalized requests (MPI-4.0 13.2): operations the program runs itself and completes with MPI_Grequest_complete,
// waited for and tested like any request; MPI calls the program's query_fn for the status, free_fn as the request
// goes, cancel_fn on MPI_Cancel. Also the status setters a query_fn uses (13.3).
#include "api/derived_requests.hpp"
#include "datatype/pack.hpp"

using namespace strata;
using namespace strata::api;

namespace {

// A callback's failure as the request's error, unless it has one already. A code the program added is its own, so
// the call returns it as it is; any other gets a new code whose message names the callback, of the code's class, or
// MPI_ERR_OTHER for a value that is no error code at all.
void record_failure(ApiRequest& r, int rc, const char* which) {
  if (rc == MPI_SUCCESS || r.status.error != 0) return;
  r.status.error = callback_error_class(rc);
  r.added_code = is_added_code(rc) ? rc : 0;
  r.failure = std::string("the generalized request's ") + which + " returned error " + std::to_string(rc);
}

}  // namespace

namespace strata::api {

void query_generalized(ApiRequest& r) {
  MPI_Status s;
  write_empty_status(&s);
  s.MPI_ERROR = MPI_SUCCESS;
  const int rc = r.generalized->query(r.generalized->extra_state, &s);
  r.status = {s.MPI_SOURCE, s.MPI_TAG, 0, static_cast<std::size_t>(s.strata_bytes), s.strata_cancelled != 0};
  r.added_code = 0;  // each query says anew whether the request failed
  record_failure(r, rc, "query_fn");
}

void free_generalized(ApiRequest& r) {
  record_failure(r, r.generalized->free(r.generalized->extra_state), "free_fn");
}

int cancel_generalized(ApiRequest& r) {
  const int rc = r.generalized->cancel(r.generalized->extra_state, r.complete);
  return rc == MPI_SUCCESS ? MPI_SUCCESS
                           : raise_callback_error("MPI_Cancel", r.comm, rc, "the generalized request's cancel_fn");
}

int release_generalized(MPI_Request* handle, ApiRequest* r) {
  if (!r->complete) {  // MPI_Grequest_complete still comes, with this handle
    r->freed = true;
    *handle = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
  }
  const int rc = r->generalized->free(r->generalized->extra_state);
  requests().remove(*handle);
  delete r;
  *handle = MPI_REQUEST_NULL;
  return rc == MPI_SUCCESS
             ? MPI_SUCCESS
             : raise_callback_error("MPI_Request_free", MPI_COMM_SELF, rc, "the generalized request's free_fn");
}

}  // namespace strata::api

STRATA_PMPI(Grequest_start)
extern "C" int PMPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                                   MPI_Grequest_cancel_function* cancel_fn, void* extra_state,
                                   MPI_Request* request) {
  Check check("MPI_Grequest_start");
  check.not_null(reinterpret_cast<const void*>(query_fn), "query_fn")
      .not_null(reinterpret_cast<const void*>(free_fn), "free_fn")
      .not_null(reinterpret_cast<const void*>(cancel_fn), "cancel_fn")
      .not_null(request, "request");
  if (!check.ok()) return check.raise();
  auto* r = new ApiRequest;
  r->kind = transport::RequestKind::Recv;
  r->comm = MPI_COMM_SELF;  // no communicator: errors go to MPI_COMM_SELF's handler
  r->active = true;
  r->complete = false;
  r->generalized = std::make_shared<Generalized>(Generalized{query_fn, free_fn, cancel_fn, extra_state});
  *request = add_request(r);
  return MPI_SUCCESS;
}

STRATA_PMPI(Grequest_complete)
extern "C" int PMPI_Grequest_complete(MPI_Request request) {
  Check check("MPI_Grequest_complete");
  ApiRequest* r = requests().get(request);
  if (r == nullptr || !r->generalized)
    check.fail(MPI_ERR_REQUEST, "request " + std::to_string(request) + " is not a generalized request");
  else if (r->complete)
    check.fail(MPI_ERR_REQUEST, "the generalized request " + std::to_string(request) + " is already complete");
  if (!check.ok()) return check.raise();
  r->complete = true;
  if (r->freed) {  // MPI_Request_free came first: the request goes now
    const int rc = r->generalized->free(r->generalized->extra_state);
    requests().remove(request);
    delete r;
    if (rc != MPI_SUCCESS)
      return check.callback_failed(rc, "the free_fn").raise();
  }
  return MPI_SUCCESS;
}

STRATA_PMPI(Status_set_cancelled)
extern "C" int PMPI_Status_set_cancelled(MPI_Status* status, int flag) {
  Check check("MPI_Status_set_cancelled");
  check.not_null(status, "status");
  if (check.ok() && status == MPI_STATUS_IGNORE) check.fail(MPI_ERR_ARG, "status is MPI_STATUS_IGNORE");
  if (!check.ok()) return check.raise();
  status->strata_cancelled = flag != 0;
  return MPI_SUCCESS;
}

namespace {

template <class Count>
int set_elements(const char* call, MPI_Status* status, MPI_Datatype datatype, Count count) {
  Check check(call);
  const datatype::Datatype* t = nullptr;
  check.not_null(status, "status");
  if (check.ok() && status == MPI_STATUS_IGNORE) check.fail(MPI_ERR_ARG, "status is MPI_STATUS_IGNORE");
  check.type(datatype, t);
  if (check.ok() && count < 0) check.fail(MPI_ERR_COUNT, "negative count " + std::to_string(count));
  if (!check.ok()) return check.raise();
  // Stored as bytes, as a receive's status is: MPI_Get_elements gives `count` back, MPI_Get_count its share.
  status->strata_bytes = static_cast<MPI_Count>(datatype::bytes_of_elements(*t, static_cast<std::size_t>(count)));
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Status_set_elements)
extern "C" int PMPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  const runtime::CallScope call_scope;
  return set_elements("MPI_Status_set_elements", status, datatype, count);
}

STRATA_PMPI(Status_set_elements_x)
extern "C" int PMPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  const runtime::CallScope call_scope;
  return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}
