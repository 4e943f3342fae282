// Request completion (MPI-4.0 sections 3.7.3-3.7.5, 3.8.4, 3.9): Wait/Test and their any/all/some forms, Start,
// Request_free, Request_get_status, Cancel, Get_count. MPI_Isendrecv's and generalized requests differ in a few
// places (derived_requests.hpp), and partitioned ones start their own way (partitioned.hpp).
//
// A request handle is null, inactive (a persistent request not started, or already returned by a Wait/Test), or
// active. Waiting on null or inactive requests returns at once with an empty status.
#include <algorithm>
#include <array>
#include <vector>

#include "api/coll_launch.hpp"
#include "api/derived_requests.hpp"
#include "api/partitioned.hpp"
#include "runtime/progress.hpp"

using namespace strata;
using namespace strata::api;

namespace {

// Looks up a handle that may be MPI_REQUEST_NULL; false (with the check failed) when it is garbage.
bool lookup(Check& check, MPI_Request handle, ApiRequest*& r) {
  r = nullptr;
  return handle == MPI_REQUEST_NULL ? check.ok() : check.request(handle, r).ok();
}

// A request argument that must name a request: neither a NULL pointer nor MPI_REQUEST_NULL.
bool lookup_required(Check& check, const MPI_Request* handle, ApiRequest*& r) {
  r = nullptr;
  if (check.not_null(handle, "request").ok()) check.request(*handle, r);
  return check.ok();
}

// The requests of an array argument, looked up once per call: on the stack for the usual few, since programs call
// MPI_Testany and friends in tight loops (HPCC's RandomAccess: once per update), on the heap beyond.
class RequestList {
 public:
  RequestList() = default;
  RequestList(const RequestList&) = delete;  // data_ may point into local_
  RequestList& operator=(const RequestList&) = delete;
  void assign(int n) {
    size_ = static_cast<std::size_t>(n);
    if (size_ > local_.size()) {
      heap_.assign(size_, nullptr);
      data_ = heap_.data();
    }
    std::fill(data_, data_ + size_, nullptr);
  }
  ApiRequest*& operator[](std::size_t i) { return data_[i]; }
  ApiRequest* operator[](std::size_t i) const { return data_[i]; }
  ApiRequest** begin() const { return data_; }
  ApiRequest** end() const { return data_ + size_; }

 private:
  std::array<ApiRequest*, 16> local_;
  std::vector<ApiRequest*> heap_;
  ApiRequest** data_ = local_.data();
  std::size_t size_ = 0;
};

Check& check_array(Check& check, int count, const MPI_Request* array, RequestList& out) {
  if (count < 0) return check.fail(MPI_ERR_COUNT, "negative count " + std::to_string(count));
  if (count > 0) check.not_null(array, "array_of_requests");
  out.assign(count);
  for (int i = 0; i < count && check.ok(); ++i) lookup(check, array[i], out[i]);
  return check;
}

bool pending(const ApiRequest* r) { return r != nullptr && r->active; }
bool done(const ApiRequest* r) { return pending(r) && r->complete; }
// Every active request of the list complete (null and inactive ones count as complete): MPI_Waitall, MPI_Testall.
bool all_done(const RequestList& rs) {
  return std::none_of(rs.begin(), rs.end(), [](const ApiRequest* r) { return pending(r) && !r->complete; });
}

// A completed request that failed where the error's handler ends the job. MPI_Waitall raises its error at once
// instead of waiting for the others first, which may never complete (a receive truncated by a mismatch on one rank
// leaves the next message of its sender unmatched, and its peers wait for each other): the job ends either way,
// and now it does, naming the failed request's own error rather than MPI_ERR_IN_STATUS.
const ApiRequest* fatal_failure(const RequestList& rs) {
  const auto fatal = [](const ApiRequest* r) { return done(r) && r->status.error != 0 && error_ends_job(r->comm); };
  const auto it = std::find_if(rs.begin(), rs.end(), fatal);
  return it == rs.end() ? nullptr : *it;
}

// Returns a completed request to the user: its status, its error, and its release (non-persistent ones).
int retire(const char* call, MPI_Request* handle, ApiRequest* r, MPI_Status* status) {
  if (r->generalized) {  // never persistent: released here
    query_generalized(*r);
    free_generalized(*r);
  }
  write_status(*r, status);
  int rc = request_error(call, *r);
  r->active = false;
  if (!r->persistent) {
    requests().remove(*handle);
    delete r;
    *handle = MPI_REQUEST_NULL;
  }
  return rc;
}

MPI_Status* status_at(MPI_Status* statuses, int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

// For the calls that return several statuses: per-request errors go into the statuses, and the call then raises
// MPI_ERR_IN_STATUS on the communicator of the first failed request (`failed_comm`, MPI_COMM_NULL while none).
void retire_into(const char* call, MPI_Request* handle, ApiRequest* r, MPI_Status* st, MPI_Comm& failed_comm) {
  const bool error = r->status.error != 0;
  const MPI_Comm comm = r->comm;
  const int rc = retire(call, handle, r, st);
  if (error && failed_comm == MPI_COMM_NULL) failed_comm = comm;
  if (st != MPI_STATUS_IGNORE) st->MPI_ERROR = error ? rc : MPI_SUCCESS;
}

int raise_in_status(const char* call, MPI_Comm failed_comm) {
  return failed_comm == MPI_COMM_NULL
             ? MPI_SUCCESS
             : raise(call, failed_comm, MPI_ERR_IN_STATUS, "a request failed; its status holds the error");
}

// Waitall/Testall once every request is done: each active one is retired, the others get an empty status.
int retire_all(const char* call, int count, MPI_Request* handles, const RequestList& rs,
               MPI_Status* statuses) {
  MPI_Comm failed = MPI_COMM_NULL;
  for (int i = 0; i < count; ++i) {
    if (pending(rs[i])) {
      retire_into(call, &handles[i], rs[i], status_at(statuses, i), failed);
    } else {
      write_empty_status(status_at(statuses, i));
    }
  }
  return raise_in_status(call, failed);
}

// MPI_Start of one checked, inactive persistent request: a point-to-point, partitioned or collective one. False
// when a buffered send finds no room in the attached buffer: `r` stays inactive, its status saying why.
bool start_persistent_request(ApiRequest& r) {
  if (r.collective)
    start_persistent(r);
  else if (r.partitioned)
    start_partitioned(r);
  else if (r.buffered)
    return start_buffered(r);
  else
    start(r);
  return true;
}

}  // namespace

STRATA_PMPI(Start)
extern "C" int PMPI_Start(MPI_Request* request) {
  Check check("MPI_Start");
  ApiRequest* r = nullptr;
  lookup_required(check, request, r);
  if (check.ok() && !r->persistent) check.fail(MPI_ERR_REQUEST, "request is not persistent");
  if (check.ok() && r->active) check.fail(MPI_ERR_REQUEST, "request is already active");
  if (!check.ok()) return check.raise();
  return start_persistent_request(*r) ? MPI_SUCCESS : request_error("MPI_Start", *r);
}

STRATA_PMPI(Startall)
extern "C" int PMPI_Startall(int count, MPI_Request array_of_requests[]) {
  Check check("MPI_Startall");
  RequestList rs;
  check_array(check, count, array_of_requests, rs);
  for (int i = 0; i < count && check.ok(); ++i) {
    if (rs[i] == nullptr || !rs[i]->persistent)
      check.fail(MPI_ERR_REQUEST, "request " + std::to_string(i) + " is not a persistent request");
    else if (rs[i]->active)
      check.fail(MPI_ERR_REQUEST, "request " + std::to_string(i) + " is already active");
  }
  if (!check.ok()) return check.raise();
  // Every request that can start does; the first that cannot is the call's error.
  ApiRequest* failed = nullptr;
  for (int i = 0; i < count; ++i)
    if (!start_persistent_request(*rs[i]) && failed == nullptr) {
      failed = rs[i];
      failed->failure = "request " + std::to_string(i) + ": " + failed->failure;
    }
  return failed == nullptr ? MPI_SUCCESS : request_error("MPI_Startall", *failed);
}

STRATA_PMPI(Wait)
extern "C" int PMPI_Wait(MPI_Request* request, MPI_Status* status) {
  Check check("MPI_Wait");
  ApiRequest* r = nullptr;
  check.not_null(request, "request").status_out(status);
  if (check.ok()) lookup(check, *request, r);
  if (!check.ok()) return check.raise();
  if (!pending(r)) {
    write_empty_status(status);
    return MPI_SUCCESS;
  }
  wait(*r);
  return retire("MPI_Wait", request, r, status);
}

STRATA_PMPI(Test)
extern "C" int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  Check check("MPI_Test");
  ApiRequest* r = nullptr;
  check.not_null(request, "request").not_null(flag, "flag").status_out(status);
  if (check.ok()) lookup(check, *request, r);
  if (!check.ok()) return check.raise();
  if (!pending(r)) {
    *flag = 1;
    write_empty_status(status);
    return MPI_SUCCESS;
  }
  *flag = runtime::test_once([r] { return r->complete; });
  return *flag ? retire("MPI_Test", request, r, status) : MPI_SUCCESS;
}

STRATA_PMPI(Waitall)
extern "C" int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  Check check("MPI_Waitall");
  RequestList rs;
  if (!check_array(check, count, array_of_requests, rs).statuses_out(array_of_statuses, count).ok())
    return check.raise();
  runtime::wait_until([&] { return all_done(rs) || fatal_failure(rs) != nullptr; });
  if (const ApiRequest* fatal = fatal_failure(rs)) return request_error("MPI_Waitall", *fatal);  // ends the job
  return retire_all("MPI_Waitall", count, array_of_requests, rs, array_of_statuses);
}

STRATA_PMPI(Testall)
extern "C" int PMPI_Testall(int count, MPI_Request array_of_requests[], int* flag, MPI_Status array_of_statuses[]) {
  Check check("MPI_Testall");
  RequestList rs;
  check_array(check, count, array_of_requests, rs).not_null(flag, "flag").statuses_out(array_of_statuses, count);
  if (!check.ok()) return check.raise();
  *flag = runtime::test_once([&] { return all_done(rs); });
  if (!*flag) return MPI_SUCCESS;
  return retire_all("MPI_Testall", count, array_of_requests, rs, array_of_statuses);
}

namespace {

int complete_any(const char* call, int count, MPI_Request* handles, int* index, int* flag, MPI_Status* status, bool block) {
  Check check(call);
  RequestList rs;
  check_array(check, count, handles, rs).not_null(index, "index").status_out(status);
  if (!check.ok()) return check.raise();
  auto first_done = [&] {
    for (int i = 0; i < count; ++i)
      if (done(rs[i])) return i;
    return -1;
  };
  if (std::none_of(rs.begin(), rs.end(), pending)) {  // nothing active: MPI_UNDEFINED and an empty status
    *index = MPI_UNDEFINED;
    if (flag) *flag = 1;
    write_empty_status(status);
    return MPI_SUCCESS;
  }
  int i = -1;
  if (block)
    runtime::wait_until([&] { return (i = first_done()) >= 0; });
  else
    runtime::test_once([&] { return (i = first_done()) >= 0; });
  if (flag) *flag = i >= 0;
  if (i < 0) {
    *index = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  *index = i;
  return retire(call, &handles[i], rs[i], status);
}

int complete_some(const char* call, int count, MPI_Request* handles, int* outcount, int* indices, MPI_Status* statuses,
            bool block) {
  Check check(call);
  RequestList rs;
  check_array(check, count, handles, rs).not_null(outcount, "outcount").statuses_out(statuses, count);
  if (count > 0) check.not_null(indices, "array_of_indices");
  if (!check.ok()) return check.raise();
  if (std::none_of(rs.begin(), rs.end(), pending)) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  auto any_done = [&] { return std::any_of(rs.begin(), rs.end(), done); };
  if (block)
    runtime::wait_until(any_done);
  else
    runtime::test_once(any_done);
  int n = 0;
  MPI_Comm failed = MPI_COMM_NULL;
  for (int i = 0; i < count; ++i) {
    if (!done(rs[i])) continue;
    indices[n] = i;
    retire_into(call, &handles[i], rs[i], status_at(statuses, n), failed);
    ++n;
  }
  *outcount = n;
  return raise_in_status(call, failed);
}

}  // namespace

STRATA_PMPI(Waitany)
extern "C" int PMPI_Waitany(int count, MPI_Request array_of_requests[], int* index, MPI_Status* status) {
  const runtime::CallScope call_scope;
  return complete_any("MPI_Waitany", count, array_of_requests, index, nullptr, status, true);
}

STRATA_PMPI(Testany)
extern "C" int PMPI_Testany(int count, MPI_Request array_of_requests[], int* index, int* flag, MPI_Status* status) {
  const runtime::CallScope call_scope;
  if (flag == nullptr) return raise("MPI_Testany", MPI_COMM_SELF, MPI_ERR_ARG, "flag is NULL");
  return complete_any("MPI_Testany", count, array_of_requests, index, flag, status, false);
}

STRATA_PMPI(Waitsome)
extern "C" int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int* outcount, int array_of_indices[],
                             MPI_Status array_of_statuses[]) {
  const runtime::CallScope call_scope;
  return complete_some("MPI_Waitsome", incount, array_of_requests, outcount, array_of_indices, array_of_statuses, true);
}

STRATA_PMPI(Testsome)
extern "C" int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int* outcount, int array_of_indices[],
                             MPI_Status array_of_statuses[]) {
  const runtime::CallScope call_scope;
  return complete_some("MPI_Testsome", incount, array_of_requests, outcount, array_of_indices, array_of_statuses, false);
}

STRATA_PMPI(Request_get_status)
extern "C" int PMPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  Check check("MPI_Request_get_status");
  ApiRequest* r = nullptr;
  check.not_null(flag, "flag").status_out(status);
  if (!lookup(check, request, r)) return check.raise();
  if (!pending(r)) {
    *flag = 1;
    write_empty_status(status);
    return MPI_SUCCESS;
  }
  *flag = runtime::test_once([r] { return r->complete; });
  if (!*flag) return MPI_SUCCESS;
  if (r->generalized) query_generalized(*r);
  write_status(*r, status);  // the request stays as it is
  return request_error("MPI_Request_get_status", *r);  // as MPI_Test would
}

STRATA_PMPI(Request_free)
extern "C" int PMPI_Request_free(MPI_Request* request) {
  Check check("MPI_Request_free");
  ApiRequest* r = nullptr;
  lookup_required(check, request, r);
  if (check.ok() && pending(r) && r->collective)
    check.fail(MPI_ERR_REQUEST, "cannot free an active collective request (nonblocking or persistent)");
  if (check.ok() && pending(r) && !r->complete && r->partitioned)  // MPI-4.0 4.2.2
    check.fail(MPI_ERR_REQUEST, "cannot free an active partitioned request before it completes");
  if (!check.ok()) return check.raise();
  if (r->generalized) return release_generalized(request, r);
  requests().remove(*request);
  *request = MPI_REQUEST_NULL;
  if (pending(r) && !r->complete)
    r->freed = true;  // the operation goes on; the engine releases the request when it completes
  else
    delete r;
  return MPI_SUCCESS;
}

STRATA_PMPI(Cancel)
extern "C" int PMPI_Cancel(MPI_Request* request) {
  Check check("MPI_Cancel");
  ApiRequest* r = nullptr;
  lookup_required(check, request, r);
  if (check.ok() && pending(r) && r->collective)
    check.fail(MPI_ERR_REQUEST, "cannot cancel an active collective request (nonblocking or persistent)");
  if (check.ok() && pending(r) && !r->complete && r->partitioned)  // MPI-4.0 4.2.2
    check.fail(MPI_ERR_REQUEST, "cannot cancel an active partitioned request");
  // MPI_Cancel takes back a send or a receive (MPI-4.0 3.8.4); nothing takes back a one-sided operation. Open MPI 4.1
  // answers MPI_ERR_REQUEST, MPICH 4.0.2 an internal error.
  if (check.ok() && pending(r) && r->one_sided)
    check.fail(MPI_ERR_REQUEST, "cannot cancel a request-based RMA operation (MPI_Rput, MPI_Rget, MPI_Raccumulate, "
                                "MPI_Rget_accumulate)");
  if (!check.ok()) return check.raise();
  // A receive or send that no one has matched yet is cancelled (a send once its receiver's progress has taken it
  // back); a matched one, or a send already gone out eagerly, completes as usual (MPI-4.0 3.8.4 allows both).
  if (r->generalized && pending(r)) return cancel_generalized(*r);  // also when complete: cancel_fn is told
  if (!pending(r) || r->complete) return MPI_SUCCESS;
  if (r->parts)
    cancel_parts(*r);
  else
    transport::engine().cancel(r);
  return MPI_SUCCESS;
}

STRATA_PMPI(Test_cancelled)
extern "C" int PMPI_Test_cancelled(const MPI_Status* status, int* flag) {
  Check check("MPI_Test_cancelled");
  check.not_null(status, "status").not_null(flag, "flag");
  if (!check.ok()) return check.raise();
  *flag = status->strata_cancelled;
  return MPI_SUCCESS;
}
