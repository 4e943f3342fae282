#include "api/errors.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "api/handles.hpp"
#include "runtime/state.hpp"
#include "runtime/bootstrap.hpp"

namespace strata::api {
namespace {

constexpr int kClassSpan = 128;
constexpr int kSlots = 1024;

struct Recorded {
  int code = 0;
  std::string message;
};
Recorded g_recent[kSlots];
int g_next_slot = 0;

const char* class_string(int cls) {
  static const char* const kNames[] = {
      "MPI_SUCCESS: no errors",
      "MPI_ERR_BUFFER: invalid buffer pointer",
      "MPI_ERR_COUNT: invalid count argument",
      "MPI_ERR_TYPE: invalid datatype",
      "MPI_ERR_TAG: invalid tag",
      "MPI_ERR_COMM: invalid communicator",
      "MPI_ERR_RANK: invalid rank",
      "MPI_ERR_REQUEST: invalid request",
      "MPI_ERR_ROOT: invalid root",
      "MPI_ERR_GROUP: invalid group",
      "MPI_ERR_OP: invalid operation",
      "MPI_ERR_TOPOLOGY: invalid topology",
      "MPI_ERR_DIMS: invalid dimension argument",
      "MPI_ERR_ARG: invalid argument of some other kind",
      "MPI_ERR_UNKNOWN: unknown error",
      "MPI_ERR_TRUNCATE: message truncated on receive",
      "MPI_ERR_OTHER: known error not in this list",
      "MPI_ERR_INTERN: internal MPI (implementation) error",
      "MPI_ERR_PENDING: pending request",
      "MPI_ERR_IN_STATUS: error code is in status",
      "MPI_ERR_ACCESS: permission denied",
      "MPI_ERR_AMODE: error related to the amode passed to MPI_FILE_OPEN",
      "MPI_ERR_ASSERT: invalid assert argument",
      "MPI_ERR_BAD_FILE: invalid file name",
      "MPI_ERR_BASE: invalid base argument",
      "MPI_ERR_CONVERSION: error in a user-supplied data conversion function",
      "MPI_ERR_DISP: invalid displacement argument",
      "MPI_ERR_DUP_DATAREP: data representation identifier already registered",
      "MPI_ERR_FILE_EXISTS: file exists",
      "MPI_ERR_FILE_IN_USE: file operation could not be completed, file in use",
      "MPI_ERR_FILE: invalid file handle",
      "MPI_ERR_INFO_KEY: key longer than MPI_MAX_INFO_KEY",
      "MPI_ERR_INFO_NOKEY: invalid key passed to MPI_INFO_DELETE",
      "MPI_ERR_INFO_VALUE: value longer than MPI_MAX_INFO_VAL",
      "MPI_ERR_INFO: invalid info argument",
      "MPI_ERR_IO: other I/O error",
      "MPI_ERR_KEYVAL: invalid keyval",
      "MPI_ERR_LOCKTYPE: invalid locktype argument",
      "MPI_ERR_NAME: invalid service name passed to MPI_LOOKUP_NAME",
      "MPI_ERR_NO_MEM: MPI_ALLOC_MEM failed because memory is exhausted",
      "MPI_ERR_NOT_SAME: collective argument not identical on all processes",
      "MPI_ERR_NO_SPACE: not enough space",
      "MPI_ERR_NO_SUCH_FILE: file does not exist",
      "MPI_ERR_PORT: invalid port name passed to MPI_COMM_CONNECT",
      "MPI_ERR_QUOTA: quota exceeded",
      "MPI_ERR_READ_ONLY: read-only file or file system",
      "MPI_ERR_RMA_CONFLICT: conflicting accesses to window",
      "MPI_ERR_RMA_SYNC: wrong synchronization of RMA calls",
      "MPI_ERR_SERVICE: invalid service name passed to MPI_UNPUBLISH_NAME",
      "MPI_ERR_SIZE: invalid size argument",
      "MPI_ERR_SPAWN: error in spawning processes",
      "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation",
      "MPI_ERR_UNSUPPORTED_OPERATION: operation not supported",
      "MPI_ERR_WIN: invalid window argument",
      "MPI_ERR_RMA_RANGE: target memory is not part of the window",
      "MPI_ERR_RMA_ATTACH: memory cannot be attached",
      "MPI_ERR_RMA_SHARED: memory cannot be shared",
      "MPI_ERR_RMA_FLAVOR: passed window has wrong flavor",
      "MPI_ERR_SESSION: invalid session handle",
      "MPI_ERR_PROC_ABORTED: operation failed because a peer process has aborted",
      "MPI_ERR_VALUE_TOO_LARGE: value is too large to store",
  };
  constexpr int n = sizeof kNames / sizeof kNames[0];
  return cls >= 0 && cls < n ? kNames[cls] : nullptr;
}

int make_code(int cls, const std::string& message) {
  // Programs compare the multiple-completion calls' result with MPI_ERR_IN_STATUS itself (MPI-4.0 3.7.5).
  if (cls == MPI_ERR_IN_STATUS) return cls;
  const int slot = g_next_slot;
  g_next_slot = (g_next_slot + 1) % kSlots;
  const int code = cls + kClassSpan * (1 + slot);
  g_recent[slot] = {code, message};
  return code;
}

enum class Handler { Fatal, Return };

Handler handler_for(MPI_Comm comm) {
  if (runtime::state().phase != runtime::Phase::Running) {
    const char* initial = std::getenv("STRATA_INITIAL_ERRHANDLER");
    return initial && (std::strcmp(initial, "return") == 0 || std::strcmp(initial, "mpi_errors_return") == 0)
               ? Handler::Return
               : Handler::Fatal;
  }
  const comm::Communicator* c = comms().get(comm);
  if (c == nullptr) c = comms().get(MPI_COMM_SELF);
  return c->errhandler == MPI_ERRORS_RETURN ? Handler::Return : Handler::Fatal;
}

}  // namespace

int error_class_of(int code) { return code < kClassSpan ? code : code % kClassSpan; }

std::string error_string(int code) {
  const int cls = error_class_of(code);
  const char* base = class_string(cls);
  if (code >= kClassSpan) {
    const Recorded& r = g_recent[(code / kClassSpan - 1) % kSlots];
    if (r.code == code) return r.message + " [" + (base ? base : "unknown error class") + "]";
  }
  return base ? base : "";
}

int raise(const char* call, MPI_Comm comm, int error_class, const std::string& message) {
  const int code = make_code(error_class, std::string(call) + ": " + message);
  if (handler_for(comm) == Handler::Return) return code;
  const runtime::State& st = runtime::state();
  if (st.phase == runtime::Phase::Running)
    std::fprintf(stderr, "Strata: fatal error on rank %d: %s\n", st.world.rank, error_string(code).c_str());
  else
    std::fprintf(stderr, "Strata: fatal error: %s\n", error_string(code).c_str());
  std::fflush(stderr);
  if (st.phase == runtime::Phase::Running) runtime::abort_job(error_class, "fatal MPI error");
  _Exit(error_class);
}

int raise(const char* call, MPI_Comm comm, const Status& s) {
  return s.ok() ? MPI_SUCCESS : raise(call, comm, s.error_class, s.message);
}

}  // namespace strata::api
