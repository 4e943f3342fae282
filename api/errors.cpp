#include "api/errors.hpp"

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <vector>

#include "api/handles.hpp"
#include "runtime/bootstrap.hpp"
#include "runtime/lasting.hpp"
#include "runtime/state.hpp"

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
      // The tools interface's classes (MPI-4.0 15.3.10), 61 .. 78 in mpi.h: MPI_T_ calls return them as they are.
      "MPI_T_ERR_MEMORY: out of memory",
      "MPI_T_ERR_NOT_INITIALIZED: the tools interface is not initialized (MPI_T_init_thread)",
      "MPI_T_ERR_CANNOT_INIT: the tools interface cannot be initialized",
      "MPI_T_ERR_NOT_ACCESSIBLE: the variable or event is not accessible now",
      "MPI_T_ERR_INVALID_INDEX: index of a variable, category, enumeration, event or source is invalid",
      "MPI_T_ERR_INVALID_ITEM: item index of an enumeration is out of range",
      "MPI_T_ERR_INVALID_HANDLE: invalid tools interface handle",
      "MPI_T_ERR_OUT_OF_HANDLES: no more handles available",
      "MPI_T_ERR_OUT_OF_SESSIONS: no more performance variable sessions available",
      "MPI_T_ERR_INVALID_SESSION: invalid performance variable session",
      "MPI_T_ERR_CVAR_SET_NOT_NOW: the control variable cannot be set at this moment",
      "MPI_T_ERR_CVAR_SET_NEVER: the control variable cannot be set until the end of execution",
      "MPI_T_ERR_PVAR_NO_STARTSTOP: the performance variable cannot be started or stopped",
      "MPI_T_ERR_PVAR_NO_WRITE: the performance variable cannot be written or reset",
      "MPI_T_ERR_PVAR_NO_ATOMIC: the performance variable cannot be read and reset atomically",
      "MPI_T_ERR_INVALID_NAME: no variable, category or event has this name",
      "MPI_T_ERR_INVALID: invalid use of the tools interface or invalid argument",
      "MPI_T_ERR_NOT_SUPPORTED: the requested tools interface functionality is not supported",
  };
  constexpr int n = sizeof kNames / sizeof kNames[0];
  static_assert(n == MPI_T_ERR_NOT_SUPPORTED + 1, "one string per predefined class, the last one MPI_T_'s");
  return cls >= 0 && cls < n ? kNames[cls] : nullptr;
}

int make_code(int cls, const std::string& message) {
  // Programs compare the multiple-completion calls' result with MPI_ERR_IN_STATUS itself (MPI-4.0 3.7.5).
  if (cls == MPI_ERR_IN_STATUS) return cls;
  if (cls >= MPI_ERR_LASTCODE) return cls;  // an added class: returned as it is, its string set by the user
  const int slot = g_next_slot;
  g_next_slot = (g_next_slot + 1) % kSlots;
  const int code = cls + kClassSpan * (1 + slot);
  g_recent[slot] = {code, message};
  return code;
}

// The handler an error on `comm` goes to, and the communicator it is raised on.
MPI_Errhandler handler_for(MPI_Comm& comm) {
  if (runtime::state().phase != runtime::Phase::Running) {
    const char* initial = std::getenv("STRATA_INITIAL_ERRHANDLER");
    return initial && (std::strcmp(initial, "return") == 0 || std::strcmp(initial, "mpi_errors_return") == 0)
               ? MPI_ERRORS_RETURN
               : MPI_ERRORS_ARE_FATAL;
  }
  const comm::Communicator* c = comms().get(comm);
  if (c == nullptr) {
    comm = MPI_COMM_SELF;
    c = comms().get(MPI_COMM_SELF);
  }
  return c->errhandler;
}

[[noreturn]] void die(int code, int error_class) {
  const runtime::State& st = runtime::state();
  if (st.phase == runtime::Phase::Running)
    std::fprintf(stderr, "Strata: fatal error on rank %d: %s\n", st.world.rank, error_string(code).c_str());
  else
    std::fprintf(stderr, "Strata: fatal error: %s\n", error_string(code).c_str());
  std::fflush(stderr);
  std::fflush(stdout);  // what the program printed before the error, which _Exit and the job's abort would drop
  if (st.phase == runtime::Phase::Running) runtime::abort_job(error_class, "fatal MPI error");
  _Exit(error_class);
}

constexpr int kFirstUserClass = MPI_ERR_LASTCODE + 1;
constexpr int kFirstUserCode = kFirstUserClass + (1 << 27);
int g_next_class = kFirstUserClass;
std::vector<int> g_user_code_class;  // class of user code kFirstUserCode + i
int g_last_used = MPI_ERR_LASTCODE;
std::vector<std::pair<int, std::string>> g_user_strings;  // (class or code, string)

const std::string* user_string(int code) {
  for (const auto& [c, text] : g_user_strings)
    if (c == code) return &text;
  return nullptr;
}

}  // namespace

int add_error_class() {
  if (g_next_class >= kFirstUserCode) return -1;
  g_last_used = std::max(g_last_used, g_next_class);
  return g_next_class++;
}

int add_error_code(int error_class) {
  const int code = kFirstUserCode + static_cast<int>(g_user_code_class.size());
  g_user_code_class.push_back(error_class);
  g_last_used = std::max(g_last_used, code);
  return code;
}

bool is_added_code(int code) {
  return (code >= kFirstUserClass && code < g_next_class) ||
         (code >= kFirstUserCode && code - kFirstUserCode < static_cast<int>(g_user_code_class.size()));
}

bool is_valid_code(int code) {
  if (code < 0) return false;
  if (code >= kFirstUserClass) return is_added_code(code);
  return class_string(error_class_of(code)) != nullptr;
}

void set_error_string(int code, const std::string& text) {
  for (auto& [c, t] : g_user_strings)
    if (c == code) {
      t = text;
      return;
    }
  g_user_strings.push_back({code, text});
}

int last_used_code() { return g_last_used; }

HandleTable<ErrhandlerObject>& errhandlers() {
  static auto& table = runtime::lasting<HandleTable<ErrhandlerObject>>(STRATA_KIND_ERRHANDLER);
  static bool reserved = [] {  // the predefined handlers' indices are never handed out
    for (MPI_Errhandler h : {MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_ERRORS_ABORT}) table.put(index_of(h), nullptr);
    return true;
  }();
  (void)reserved;
  return table;
}

bool is_errhandler(MPI_Errhandler h) {
  return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT || errhandlers().get(h);
}

bool is_errhandler_for(MPI_Errhandler h, int kind) {
  const ErrhandlerObject* e = errhandlers().get(h);
  return e ? e->kind == kind : is_errhandler(h);
}

void retain_errhandler(MPI_Errhandler h) {
  if (ErrhandlerObject* e = errhandlers().get(h)) ++e->references;
}

void release_errhandler(MPI_Errhandler h) {
  ErrhandlerObject* e = errhandlers().get(h);
  if (e && --e->references == 0) {
    errhandlers().remove(h);
    delete e;
  }
}

int run_errhandler(MPI_Errhandler h, int* handle, int code) {
  if (h == MPI_ERRORS_RETURN) return code;
  if (const ErrhandlerObject* e = errhandlers().get(h)) {
    e->function(handle, &code);
    return code;
  }
  die(code, error_class_of(code));  // MPI_ERRORS_ARE_FATAL, MPI_ERRORS_ABORT: Strata ends the whole job
}

bool error_ends_job(MPI_Comm comm) {
  const MPI_Errhandler h = handler_for(comm);
  return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_ABORT;
}

int invoke_errhandler(MPI_Comm comm, int code) {
  const MPI_Errhandler h = handler_for(comm);
  return run_errhandler(h, &comm, code);
}

int callback_error_class(int rc) { return is_valid_code(rc) ? error_class_of(rc) : MPI_ERR_OTHER; }

int raise_callback_error(const char* call, MPI_Comm comm, int rc, const std::string& what) {
  if (is_added_code(rc)) return invoke_errhandler(comm, rc);
  return raise(call, comm, callback_error_class(rc), what + " returned error " + std::to_string(rc));
}

int make_error(const char* call, int error_class, const std::string& message) {
  return make_code(error_class, std::string(call) + ": " + message);
}

int error_class_of(int code) {
  if (code >= kFirstUserCode && code - kFirstUserCode < static_cast<int>(g_user_code_class.size()))
    return g_user_code_class[code - kFirstUserCode];
  if (code >= kFirstUserClass) return code;  // an added class is its own class
  return code % kClassSpan;
}

std::string error_string(int code) {
  if (const std::string* text = user_string(code)) return *text;
  const int cls = error_class_of(code);
  if (is_added_code(code)) return "";  // added, with no string (yet)
  const char* base = class_string(cls);
  if (code >= kClassSpan) {
    const Recorded& r = g_recent[(code / kClassSpan - 1) % kSlots];
    if (r.code == code) return r.message + " [" + (base ? base : "unknown error class") + "]";
  }
  return base ? base : "";
}

int raise(const char* call, MPI_Comm comm, int error_class, const std::string& message) {
  return invoke_errhandler(comm, make_error(call, error_class, message));
}

int raise(const char* call, MPI_Comm comm, const Status& s) {
  return s.ok() ? MPI_SUCCESS : raise(call, comm, s.error_class, s.message);
}

}  // namespace strata::api
