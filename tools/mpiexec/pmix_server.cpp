#include "tools/mpiexec/pmix_server.hpp"

#include <pmix_server.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "tools/mpiexec/pmix_info_list.hpp"
#include "tools/mpiexec/pmix_job_map.hpp"

namespace strata::mpiexec {
namespace {

// PMIx allows one server per process and its upcalls carry no pointer of ours, so they find the
// state here.
PmixServer::State* g_state = nullptr;

// Upcalls only ever see our own namespace (tools and other jobs cannot connect), so the rank alone names
// the client. Returns null for a rank outside the job.
PmixServer::ClientState* client_of(const pmix_proc_t* proc) {
  if (!g_state || proc->rank >= static_cast<pmix_rank_t>(g_state->nprocs)) return nullptr;
  return &g_state->clients[proc->rank];
}

void wake_main_loop() {
  std::uint64_t one = 1;
  (void)!write(g_state->wakeup_fd, &one, sizeof one);
}

// False once `pid` has begun to exit. The kernel marks a task PF_EXITING before it closes its files, so a
// client whose PMIx socket just closed is never taken for a running one. pid 0: not launched yet.
bool process_is_running(pid_t pid) {
  if (pid <= 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  auto paren = text.rfind(')');  // the fields follow the command name, which may hold spaces
  if (paren == std::string::npos) return false;
  std::istringstream fields(text.substr(paren + 1));
  std::string state, ppid, pgrp, session, tty, tpgid;
  unsigned long flags = 0;
  if (!(fields >> state >> ppid >> pgrp >> session >> tty >> tpgid >> flags)) return false;
  constexpr unsigned long kPfExiting = 0x4;  // PF_EXITING, linux/sched.h
  return state != "Z" && state != "X" && !(flags & kPfExiting);
}

// The upcalls complete at once and return PMIX_OPERATION_SUCCEEDED (see pmix_server.hpp for why).
pmix_status_t client_connected(const pmix_proc_t* proc, void*, pmix_info_t[], size_t, pmix_op_cbfunc_t, void*) {
  if (auto* client = client_of(proc)) client->connected = true;
  return PMIX_OPERATION_SUCCEEDED;
}

pmix_status_t client_connected_v1(const pmix_proc_t* proc, void* object, pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return client_connected(proc, object, nullptr, 0, cbfunc, cbdata);
}

// Only a client that is still running has really called PMIx_Finalize (it is waiting for our answer);
// some PMIx versions also report a client that died without finalizing through this upcall.
pmix_status_t client_finalized(const pmix_proc_t* proc, void*, pmix_op_cbfunc_t, void*) {
  auto* client = client_of(proc);
  if (client && process_is_running(client->pid)) client->finalized = true;
  return PMIX_OPERATION_SUCCEEDED;
}

// The procs argument (whom to kill) is ignored: any abort ends the whole job, as MPI_Abort does in
// practice with every launcher.
pmix_status_t abort_job(const pmix_proc_t* proc, void*, int status, const char[], pmix_proc_t[], size_t,
                        pmix_op_cbfunc_t, void*) {
  if (client_of(proc)) {
    {
      std::lock_guard lock(g_state->mutex);
      if (!g_state->abort) g_state->abort = AbortRequest{static_cast<int>(proc->rank), status};
    }
    wake_main_loop();
  }
  return PMIX_OPERATION_SUCCEEDED;
}

// A single server hosts every participant, so by the time PMIx calls us the fence is complete and `data`
// already holds everything collected: hand it straight back. PMIx owns `data` only for the duration of
// this call, hence the copy, released through release_fn once PMIx has consumed it. (PMIx defers its
// own processing of the callback to its event loop, so calling it from here is safe.)
pmix_status_t fence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char* data, size_t ndata,
                    pmix_modex_cbfunc_t cbfunc, void* cbdata) {
  char* copy = nullptr;
  if (ndata > 0) {
    copy = static_cast<char*>(std::malloc(ndata));
    if (!copy) return PMIX_ERR_NOMEM;
    std::memcpy(copy, data, ndata);
  }
  cbfunc(PMIX_SUCCESS, copy, ndata, cbdata, [](void* p) { std::free(p); }, copy);
  return PMIX_SUCCESS;
}

// Registration calls complete through a callback; mpiexec has nothing else to do meanwhile, so wait.
void op_done(pmix_status_t status, void* cbdata) { static_cast<std::promise<pmix_status_t>*>(cbdata)->set_value(status); }

template <typename Start>
void wait_for(Start start, const char* what) {
  std::promise<pmix_status_t> done;
  auto result = done.get_future();
  pmix_status_t rc = start(&done);
  if (rc == PMIX_SUCCESS) rc = result.get();  // else the callback will not run
  check_pmix(rc, what);
}

}  // namespace

PmixServer::PmixServer(const std::string& tmpdir) : state_(std::make_unique<State>()) {
  state_->wakeup_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (state_->wakeup_fd < 0) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
  g_state = state_.get();

  static pmix_server_module_t module{};
  module.client_connected = client_connected_v1;
  module.client_connected2 = client_connected;
  module.client_finalized = client_finalized;
  module.abort = abort_job;
  module.fence_nb = fence;

  // Both temp dirs point into our private directory: nothing of the job outlives mpiexec in /tmp.
  InfoList info;
  info.add(PMIX_SERVER_TMPDIR, tmpdir);
  info.add(PMIX_SYSTEM_TMPDIR, tmpdir);
  InfoArray array = info.to_array();
  check_pmix(PMIx_server_init(&module, array.data(), array.size()), "PMIx_server_init");
}

PmixServer::~PmixServer() {
  if (!clean_job_) {
    (void)state_.release();  // deliberately kept: PMIx's thread may still call the upcalls
    return;
  }
  PMIx_server_finalize();
  g_state = nullptr;
  close(state_->wakeup_fd);
}

void PmixServer::register_job(const std::string& nspace, const Placement& placement,
                              const PublishedHardware& hardware) {
  nspace_ = nspace;
  int nprocs = static_cast<int>(placement.node_of_rank.size());
  state_->clients = std::make_unique<ClientState[]>(nprocs);
  state_->nprocs = nprocs;  // from now on the upcalls accept these ranks
  InfoArray info = job_map_info(placement, hardware);
  pmix_nspace_t name;
  PMIX_LOAD_NSPACE(name, nspace.c_str());
  // Every rank is local to this one server, whatever simulated node it is on.
  wait_for([&](void* cbdata) { return PMIx_server_register_nspace(name, nprocs, info.data(), info.size(), op_done, cbdata); },
           "PMIx_server_register_nspace");
}

std::vector<std::string> PmixServer::client_environment(int rank) {
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, nspace_.c_str(), static_cast<pmix_rank_t>(rank));
  wait_for([&](void* cbdata) { return PMIx_server_register_client(&proc, getuid(), getgid(), nullptr, op_done, cbdata); },
           "PMIx_server_register_client");
  char** env = nullptr;
  check_pmix(PMIx_server_setup_fork(&proc, &env), "PMIx_server_setup_fork");
  std::vector<std::string> vars;
  for (char** p = env; p && *p; ++p) {
    vars.emplace_back(*p);
    std::free(*p);
  }
  std::free(env);
  return vars;
}

std::optional<AbortRequest> PmixServer::abort_request() {
  std::uint64_t count;
  while (read(state_->wakeup_fd, &count, sizeof count) > 0) {
  }
  std::lock_guard lock(state_->mutex);
  return state_->abort;
}

}  // namespace strata::mpiexec
