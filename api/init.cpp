// Environment management (MPI-4.0 chapter 11): init, finalize, abort, versions, processor name, threads.
#include <rdma/fabric.h>
#include <pmix.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "api/attributes.hpp"
#include "api/check.hpp"
#include "api/cost_probe.hpp"
#include "api/library.hpp"
#include "api/p2p.hpp"
#include "api/windows.hpp"
#include "runtime/state.hpp"
#include "runtime/clock.hpp"
#include "runtime/crash_signals.hpp"
#include "topo/peers.hpp"
#include "transport/engine.hpp"

using namespace strata;
using namespace strata::api;

namespace {

comm::Communicator g_world, g_self;

int copy_string(const std::string& s, char* out, int max, int* resultlen) {
  const int n = std::min<int>(static_cast<int>(s.size()), max - 1);
  std::memcpy(out, s.data(), n);
  out[n] = '\0';
  *resultlen = n;
  return MPI_SUCCESS;
}

int initialize(const char* call, int required, int* provided) {
  runtime::State& st = runtime::state();
  if (st.world_model || st.world_finalized)
    return raise(call, MPI_COMM_WORLD, MPI_ERR_OTHER,
                 st.world_model ? "MPI is already initialized" : "called after MPI_Finalize");
  if (Status s = start_library(required); !s.ok()) return raise(call, MPI_COMM_NULL, s);
  st.world_model = true;
  st.thread_level_requested = std::clamp(required, MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE);
  if (provided) *provided = st.thread_level;
  return MPI_SUCCESS;
}

}  // namespace

namespace strata::api {

Status start_library(int required) {
  runtime::State& st = runtime::state();
  // The library runs at the highest level the world model and the sessions asked for; MPI_THREAD_MULTIPLE turns on
  // the library lock (runtime/library_lock.hpp), which nothing turns off again.
  const int level = std::clamp(required, MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE);
  if (level == MPI_THREAD_MULTIPLE) runtime::enable_library_lock();
  if (st.up()) {
    st.thread_level = std::max(st.thread_level, level);
    st.phase = runtime::Phase::Running;
    return {};
  }
  st.thread_level = level;
  if (st.phase == runtime::Phase::After)
    return error(MPI_ERR_OTHER, "MPI has stopped (MPI_Finalize with no session open) and Strata cannot start it "
                                "again in this process");
  runtime::drop_foreign_crash_handlers();
  if (Status s = runtime::bootstrap_init(st.world); !s.ok()) return s;
  if (Status s = topo::publish_binding(st.world); !s.ok()) return s;
  if (Status s = transport::engine().init(st.world); !s.ok()) return s;
  g_world = comm::make_world(st.world);
  g_self = comm::make_self(st.world);
  g_world.errhandler = g_self.errhandler = MPI_ERRORS_ARE_FATAL;
  comms().put(index_of(MPI_COMM_WORLD), &g_world);
  comms().put(index_of(MPI_COMM_SELF), &g_self);
  st.main_thread = std::this_thread::get_id();
  st.phase = runtime::Phase::Running;
  probe_cost_parameters(g_world);
  return {};
}

void idle_library() {
  runtime::state().phase = runtime::Phase::Idle;
  static const pid_t owner = [] {  // a child forked meanwhile inherits the handler, but not the job's place
    std::atexit([] {
      if (runtime::state().phase == runtime::Phase::Idle && getpid() == owner) (void)stop_library();
    });
    return getpid();
  }();
}

Status stop_library() {
  release_windows_at_finalize();  // windows the program did not free (MPI-4.0 11.2.2 leaves them to us)
  finish_buffered_sends();        // buffered messages still in the attached buffer are delivered
  Status s = transport::engine().finalize();
  runtime::bootstrap_finalize();
  comms().put(index_of(MPI_COMM_WORLD), nullptr);
  comms().put(index_of(MPI_COMM_SELF), nullptr);
  runtime::state().phase = runtime::Phase::After;
  return s;
}

}  // namespace strata::api

STRATA_PMPI(Init)
extern "C" int PMPI_Init(int*, char***) { return initialize("MPI_Init", MPI_THREAD_SINGLE, nullptr); }

STRATA_PMPI(Init_thread)
extern "C" int PMPI_Init_thread(int*, char***, int required, int* provided) {
  if (provided == nullptr) return raise("MPI_Init_thread", MPI_COMM_NULL, MPI_ERR_ARG, "provided is NULL");
  return initialize("MPI_Init_thread", required, provided);
}

// The library stops here unless a session is still in use (MPI-4.0 11.3: sessions outlive the world model).
STRATA_PMPI(Finalize)
extern "C" int PMPI_Finalize(void) {
  runtime::State& st = runtime::state();
  Check check("MPI_Finalize", MPI_COMM_WORLD);
  if (check.ok() && !st.world_model)
    check.fail(MPI_ERR_OTHER, st.world_finalized ? "called twice" : "MPI_Init was not called");
  if (!check.ok()) return check.raise();
  // MPI-4.0 11.2.2: MPI_COMM_SELF's attributes are deleted first, as if it were freed, while MPI still works;
  // then MPI_COMM_WORLD's.
  int attr_rc = delete_attributes(MPI_COMM_SELF, g_self.attributes);
  if (int rc = delete_attributes(MPI_COMM_WORLD, g_world.attributes); attr_rc == MPI_SUCCESS) attr_rc = rc;
  st.world_model = false;
  st.world_finalized = true;
  if (st.sessions == 0)
    if (Status s = stop_library(); !s.ok()) return raise("MPI_Finalize", MPI_COMM_NULL, s);
  return attr_rc == MPI_SUCCESS ? MPI_SUCCESS
                                : raise("MPI_Finalize", MPI_COMM_NULL, error_class_of(attr_rc),
                                        "an attribute delete callback failed");
}

STRATA_PMPI(Initialized)
extern "C" int PMPI_Initialized(int* flag) {
  if (flag == nullptr) return raise("MPI_Initialized", MPI_COMM_NULL, MPI_ERR_ARG, "flag is NULL");
  *flag = runtime::state().world_model || runtime::state().world_finalized;
  return MPI_SUCCESS;
}

STRATA_PMPI(Finalized)
extern "C" int PMPI_Finalized(int* flag) {
  if (flag == nullptr) return raise("MPI_Finalized", MPI_COMM_NULL, MPI_ERR_ARG, "flag is NULL");
  *flag = runtime::state().world_finalized;
  return MPI_SUCCESS;
}

STRATA_PMPI(Abort)
extern "C" int PMPI_Abort(MPI_Comm comm, int errorcode) {
  const runtime::State& st = runtime::state();
  // Erroneous outside MPI_Init .. MPI_Finalize, but still honoured.
  const char* when = st.phase == runtime::Phase::After    ? " after MPI_Finalize"
                     : st.phase == runtime::Phase::Before ? " before MPI_Init"
                     : st.phase == runtime::Phase::Idle   ? " between sessions"
                                                          : "";
  std::fprintf(stderr, "Strata: MPI_Abort(%s, %d) called on rank %d%s\n", describe_comm(comm).c_str(), errorcode,
               st.world.rank, when);
  std::fflush(stderr);
  std::fflush(stdout);
  runtime::abort_job(errorcode, "MPI_Abort called");
}

STRATA_PMPI(Wtime)
extern "C" double PMPI_Wtime(void) { return runtime::wtime(); }

// Profiling tools intercept MPI_Pcontrol; without one the level means nothing (MPI-4.0 15.2.4), at any time.
STRATA_PMPI(Pcontrol)
extern "C" int PMPI_Pcontrol(const int, ...) { return MPI_SUCCESS; }

STRATA_PMPI(Wtick)
extern "C" double PMPI_Wtick(void) { return runtime::wtick(); }

STRATA_PMPI(Get_version)
extern "C" int PMPI_Get_version(int* version, int* subversion) {
  if (version == nullptr || subversion == nullptr)
    return raise("MPI_Get_version", MPI_COMM_NULL, MPI_ERR_ARG, "version or subversion is NULL");
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

STRATA_PMPI(Get_library_version)
extern "C" int PMPI_Get_library_version(char* version, int* resultlen) {
  if (version == nullptr || resultlen == nullptr)
    return raise("MPI_Get_library_version", MPI_COMM_NULL, MPI_ERR_ARG, "version or resultlen is NULL");
  const std::string text = "Strata " STRATA_VERSION " (MPI " + std::to_string(MPI_VERSION) + "." +
                           std::to_string(MPI_SUBVERSION) + "; libfabric " + std::to_string(FI_MAJOR_VERSION) + "." +
                           std::to_string(FI_MINOR_VERSION) + ", " + PMIx_Get_version() + ")";
  return copy_string(text, version, MPI_MAX_LIBRARY_VERSION_STRING, resultlen);
}

STRATA_PMPI(Get_processor_name)
extern "C" int PMPI_Get_processor_name(char* name, int* resultlen) {
  Check check("MPI_Get_processor_name");
  check.not_null(name, "name").not_null(resultlen, "resultlen");
  if (!check.ok()) return check.raise();
  return copy_string(runtime::state().world.hostname, name, MPI_MAX_PROCESSOR_NAME, resultlen);
}

STRATA_PMPI(Query_thread)
extern "C" int PMPI_Query_thread(int* provided) {
  Check check("MPI_Query_thread");
  check.not_null(provided, "provided");
  if (!check.ok()) return check.raise();
  *provided = runtime::state().thread_level;
  return MPI_SUCCESS;
}

STRATA_PMPI(Is_thread_main)
extern "C" int PMPI_Is_thread_main(int* flag) {
  Check check("MPI_Is_thread_main");
  check.not_null(flag, "flag");
  if (!check.ok()) return check.raise();
  *flag = std::this_thread::get_id() == runtime::state().main_thread;
  return MPI_SUCCESS;
}
