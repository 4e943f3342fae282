// What every collective entry point shares: argument checks beyond Check's own, and launching a collective as
// blocking (request == nullptr: run to completion) or nonblocking (a request the progress engine completes).
#pragma once
#include "api/check.hpp"
#include "coll/algorithms.hpp"
#include "coll/comm_cache.hpp"

namespace strata::api {

// The communicator of a collective: an intracommunicator, or an intercommunicator but for scan and exscan, which
// MPI-4.0 6.11 defines on intracommunicators only.
Check& collective_comm(Check& check, MPI_Comm handle, coll::Operation op, comm::Communicator*& out);
// A rank of an intracommunicator; on an intercommunicator MPI_ROOT, MPI_PROC_NULL or a rank of the remote group.
Check& root(Check& check, int root, const comm::Communicator& c);
// A committed type, a count >= 0 and a buffer for them (MPI_IN_PLACE is checked by the callers).
Check& data(Check& check, const void* buf, MPI_Count count, MPI_Datatype type, datatype::TypeRef& out);
// An operator valid on `type` for a reduction.
Check& reduction(Check& check, MPI_Op op, const datatype::Datatype& type, const datatype::Op*& out);
// A count or displacement array of a v or w collective: the int calls' ints, or the large-count calls' MPI_Count
// counts and MPI_Aint displacements (MPI-4.0 2.5.8), read as long long.
class CallArray {
 public:
  CallArray(std::nullptr_t = nullptr) {}
  CallArray(const int* a) : data_(a), kind_(kInt) {}
  CallArray(const long* a) : data_(a), kind_(kLong) {}            // MPI_Aint (intptr_t)
  CallArray(const long long* a) : data_(a), kind_(kLongLong) {}   // MPI_Count
  bool null() const { return data_ == nullptr; }
  long long operator[](std::size_t i) const {
    switch (kind_) {
      case kInt: return static_cast<const int*>(data_)[i];
      case kLong: return static_cast<const long*>(data_)[i];
      default: return static_cast<const long long*>(data_)[i];
    }
  }

 private:
  const void* data_ = nullptr;
  enum Kind { kInt, kLong, kLongLong } kind_ = kInt;
};

// `n` counts (each >= 0) and, unless displs_out is null, displacements, copied. The algorithms take them as ints:
// a large-count call's count or displacement beyond an int fails with MPI_ERR_COUNT.
Check& counts(Check& check, CallArray counts, CallArray displs, int n, std::vector<int>& counts_out,
              std::vector<int>* displs_out, const char* what);

// The collective for `args` (see coll::CommCache; `key` as there), run to completion (request == nullptr) or
// started with a request handed out; raises any error through the communicator's handler.
int launch(Check& check, MPI_Comm handle, comm::Communicator& c, coll::Operation op, coll::Args& args,
           const coll::CallKey& key, MPI_Request* request);
// The same for a collective already at hand and not running; a nonblocking call's request shares it.
int start(Check& check, MPI_Comm handle, comm::Communicator& c, const std::shared_ptr<coll::Collective>& collective,
          MPI_Request* request);

// A persistent collective (MPI-4.0 6.13): built now, with the algorithm the info key strata_coll_<operation> names
// (`info`, may be null), else the communicator's choice; handed out as an inactive persistent request.
int init_persistent(Check& check, MPI_Comm handle, comm::Communicator& c, coll::Operation op, coll::Args& args,
                    const runtime::Info* info, MPI_Request* request);
// What a call of `op` with `args` (its buffers may be null) would run on `c`, and why, without building it.
Status explain(comm::Communicator& c, coll::Operation op, coll::Args& args, coll::Choice& out);

// MPI_Start of such a request (inactive): re-arms the built collective, no allocation, no selection.
void start_persistent(ApiRequest& r);

}  // namespace strata::api
