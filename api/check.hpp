// Argument checks shared by the entry points. A Check records the first failure and skips later checks, so a call
// reads as one chain and reports the first bad argument:
//   Check check("MPI_Send", comm);
//   check.comm(comm, c).count(count).type(datatype, t).buffer(buf, count, t).dest(dest, *c).send_tag(tag);
//   if (!check.ok()) return check.raise();
// Constructed first in an entry point, a Check also holds the library lock for the rest of the call
// (runtime/library_lock.hpp).
#pragma once
#include <string>

#include "api/errors.hpp"
#include "api/handles.hpp"
#include "runtime/library_lock.hpp"

namespace strata::api {

constexpr int kTagUpperBound = 0x7fffffff;  // MPI_TAG_UB

class Check {
 public:
  // Most calls need MPI running; MPI-4.0 Table 11.1 names the few that work at any time (kAnyTime).
  enum When { kRunning, kAnyTime };
  Check(const char* call, MPI_Comm comm = MPI_COMM_SELF, When when = kRunning);
  bool ok() const { return status_.ok(); }
  int raise() const {
    return added_code_ != 0 ? invoke_errhandler(comm_, added_code_) : api::raise(call_, comm_, status_);
  }
  const Status& status() const { return status_; }  // for errors raised on another kind of object (a window)
  Check& fail(int error_class, const std::string& message);
  // A user callback (`what`) returned `rc`: raised as raise_callback_error (errors.hpp) says.
  Check& callback_failed(int rc, const std::string& what);

  Check& comm(MPI_Comm handle, comm::Communicator*& out);
  // The same, refusing an intercommunicator (collectives and constructors other than MPI_Intercomm_merge).
  Check& intracomm(MPI_Comm handle, comm::Communicator*& out);
  // The same, requiring an intercommunicator (MPI_Comm_remote_size, MPI_Intercomm_merge, ...).
  Check& intercomm(MPI_Comm handle, comm::Communicator*& out);
  Check& count(MPI_Count count);  // >= 0 (the int calls' counts widen to it)
  Check& type(MPI_Datatype handle, const datatype::Datatype*& out);
  Check& type(MPI_Datatype handle, datatype::TypeRef& out);
  Check& committed(MPI_Datatype handle);  // after type(): communication needs a committed type
  Check& committed(MPI_Datatype handle, const datatype::Datatype* type);  // the same, the type already looked up
  // A buffer for `count` elements: not NULL unless the type's data lies at absolute addresses (MPI_BOTTOM), and
  // count * size within MPI_Count.
  Check& buffer(const void* buf, MPI_Count count, const datatype::Datatype* type);
  Check& dest(int rank, const comm::Communicator& c);    // a rank of c or MPI_PROC_NULL
  Check& source(int rank, const comm::Communicator& c);  // also MPI_ANY_SOURCE
  Check& send_tag(int tag);
  Check& recv_tag(int tag);                              // also MPI_ANY_TAG
  Check& not_null(const void* pointer, const char* what);
  // Where a call writes a status: MPI_STATUS_IGNORE or memory, never NULL (which only Open MPI takes for
  // MPI_STATUS_IGNORE; MPICH refuses it too). An array of `count` statuses, or MPI_STATUSES_IGNORE, likewise.
  Check& status_out(const MPI_Status* status);
  Check& statuses_out(const MPI_Status* statuses, int count);
  // A valid info handle (or MPI_INFO_NULL where allowed, giving nullptr).
  Check& info(MPI_Info handle, runtime::Info*& out, bool null_allowed);
  // A request handle that names a request: neither MPI_REQUEST_NULL nor garbage.
  Check& request(MPI_Request handle, ApiRequest*& out);

 private:
  runtime::CallScope scope_;  // under MPI_THREAD_MULTIPLE, the call holds the library lock while its Check lives
  const char* call_;
  MPI_Comm comm_;
  Status status_;
  int added_code_ = 0;  // the failure is this code, which the program added: raised as it is
};

std::string describe_comm(MPI_Comm handle);
std::string describe_type(MPI_Datatype handle);  // its name, or "datatype <handle>"

}  // namespace strata::api
