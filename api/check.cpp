#include "api/check.hpp"

#include <climits>

#include "runtime/state.hpp"

namespace strata::api {

std::string describe_comm(MPI_Comm handle) {
  if (handle == MPI_COMM_NULL) return "MPI_COMM_NULL";
  const comm::Communicator* c = comms().get(handle);
  if (c != nullptr) return c->name.empty() ? "communicator " + std::to_string(handle) : c->name;
  // The predefined ones keep their names where they are not (or no longer) valid: before MPI_Init, after MPI_Finalize.
  if (handle == MPI_COMM_WORLD) return "MPI_COMM_WORLD";
  if (handle == MPI_COMM_SELF) return "MPI_COMM_SELF";
  return "invalid communicator handle " + std::to_string(handle);
}

Check::Check(const char* call, MPI_Comm comm, When when) : call_(call), comm_(comm) {
  if (when == kAnyTime) return;
  const runtime::Phase phase = runtime::state().phase;
  if (phase == runtime::Phase::Before) fail(MPI_ERR_OTHER, "called before MPI_Init (or MPI_Session_init)");
  if (phase == runtime::Phase::After) fail(MPI_ERR_OTHER, "called after MPI_Finalize (MPI has stopped)");
  if (phase == runtime::Phase::Idle)
    fail(MPI_ERR_OTHER, "called after the last MPI_Session_finalize (MPI is not initialized)");
}

Check& Check::fail(int error_class, const std::string& message) {
  if (status_.ok()) status_ = error(error_class, message);
  return *this;
}

Check& Check::callback_failed(int rc, const std::string& what) {
  if (!ok()) return *this;
  fail(callback_error_class(rc), what + " returned error " + std::to_string(rc));
  if (is_added_code(rc)) added_code_ = rc;
  return *this;
}

Check& Check::comm(MPI_Comm handle, comm::Communicator*& out) {
  if (!ok()) return *this;
  out = comms().get(handle);
  if (out == nullptr) fail(MPI_ERR_COMM, describe_comm(handle) + " is not a valid communicator");
  return *this;
}

Check& Check::intracomm(MPI_Comm handle, comm::Communicator*& out) {
  if (comm(handle, out).ok() && out->inter())
    fail(MPI_ERR_COMM, describe_comm(handle) + " is an intercommunicator; this call takes an intracommunicator");
  return *this;
}

Check& Check::intercomm(MPI_Comm handle, comm::Communicator*& out) {
  if (comm(handle, out).ok() && !out->inter())
    fail(MPI_ERR_COMM, describe_comm(handle) + " is not an intercommunicator");
  return *this;
}

Check& Check::info(MPI_Info handle, runtime::Info*& out, bool null_allowed) {
  if (!ok()) return *this;
  out = handle == MPI_INFO_NULL ? nullptr : info_of(handle);
  if (out == nullptr && !(null_allowed && handle == MPI_INFO_NULL))
    fail(MPI_ERR_INFO, "invalid info handle " + std::to_string(handle));
  return *this;
}

Check& Check::request(MPI_Request handle, ApiRequest*& out) {
  out = nullptr;
  if (!ok()) return *this;
  if (handle == MPI_REQUEST_NULL) return fail(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
  out = requests().get(handle);
  if (out == nullptr) fail(MPI_ERR_REQUEST, "invalid request handle " + std::to_string(handle));
  return *this;
}

Check& Check::count(MPI_Count count) {
  if (ok() && count < 0) fail(MPI_ERR_COUNT, "negative count " + std::to_string(count));
  return *this;
}

Check& Check::type(MPI_Datatype handle, const datatype::Datatype*& out) {
  if (!ok()) return *this;
  out = datatype_of(handle);
  if (out == nullptr)
    fail(MPI_ERR_TYPE, handle == MPI_DATATYPE_NULL ? std::string("datatype is MPI_DATATYPE_NULL")
                                                   : "invalid datatype handle " + std::to_string(handle));
  return *this;
}

Check& Check::type(MPI_Datatype handle, datatype::TypeRef& out) {
  if (!ok()) return *this;
  out = datatype_ref(handle);
  if (out == nullptr) {
    const datatype::Datatype* none = nullptr;
    type(handle, none);  // the same message
  }
  return *this;
}

std::string describe_type(MPI_Datatype handle) {
  const datatype::Datatype* t = datatype_of(handle);
  if (t == nullptr) return handle == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "datatype " + std::to_string(handle);
  return t->name.empty() ? "datatype " + std::to_string(handle) : t->name;
}

Check& Check::committed(MPI_Datatype handle) {
  return ok() ? committed(handle, datatype_of(handle)) : *this;
}

Check& Check::committed(MPI_Datatype handle, const datatype::Datatype* t) {
  if (ok() && t != nullptr && !t->committed)
    fail(MPI_ERR_TYPE, describe_type(handle) + " is not committed (MPI_Type_commit)");
  return *this;
}

Check& Check::buffer(const void* buf, MPI_Count count, const datatype::Datatype* type) {
  if (!ok() || count <= 0 || type->size == 0) return *this;
  if (buf == nullptr && type->true_lb == 0)
    fail(MPI_ERR_BUFFER, "NULL buffer with count " + std::to_string(count));
  else if (type->size > static_cast<std::size_t>(LLONG_MAX) / static_cast<std::size_t>(count))
    fail(MPI_ERR_COUNT, "count " + std::to_string(count) + " of a " + std::to_string(type->size) +
                            "-byte datatype exceeds MPI_Count");
  return *this;
}

static std::string rank_range(const comm::Communicator& c) {
  return " (" + (c.name.empty() ? std::string("the communicator") : c.name) + " has " +
         std::to_string(c.peer_count()) + (c.inter() ? " ranks in its remote group)" : " ranks)");
}

Check& Check::dest(int rank, const comm::Communicator& c) {
  if (ok() && rank != MPI_PROC_NULL && (rank < 0 || rank >= c.peer_count()))
    fail(MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + rank_range(c));
  return *this;
}

Check& Check::source(int rank, const comm::Communicator& c) {
  if (ok() && rank != MPI_ANY_SOURCE && rank != MPI_PROC_NULL && (rank < 0 || rank >= c.peer_count()))
    fail(MPI_ERR_RANK, "invalid source rank " + std::to_string(rank) + rank_range(c));
  return *this;
}

Check& Check::send_tag(int tag) {
  if (ok() && (tag < 0 || tag > kTagUpperBound))
    fail(MPI_ERR_TAG, "invalid tag " + std::to_string(tag) + " (must be 0..MPI_TAG_UB)");
  return *this;
}

Check& Check::recv_tag(int tag) {
  if (ok() && tag != MPI_ANY_TAG && (tag < 0 || tag > kTagUpperBound))
    fail(MPI_ERR_TAG, "invalid tag " + std::to_string(tag) + " (must be 0..MPI_TAG_UB or MPI_ANY_TAG)");
  return *this;
}

Check& Check::not_null(const void* pointer, const char* what) {
  if (ok() && pointer == nullptr) fail(MPI_ERR_ARG, std::string(what) + " is NULL");
  return *this;
}

Check& Check::status_out(const MPI_Status* status) {
  if (ok() && status == nullptr) fail(MPI_ERR_ARG, "status is NULL (MPI_STATUS_IGNORE asks for none)");
  return *this;
}

Check& Check::statuses_out(const MPI_Status* statuses, int count) {
  if (ok() && statuses == nullptr && count > 0)
    fail(MPI_ERR_ARG, "array_of_statuses is NULL (MPI_STATUSES_IGNORE asks for none)");
  return *this;
}

}  // namespace strata::api
