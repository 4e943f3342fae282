// The embedded PMIx server: one job (namespace) on this host, whose ranks may sit on simulated nodes.
//
// PMIx calls the module's upcalls on its own progress thread. They only record what happened (a client
// connected, finalized or aborted) and wake the main loop through wakeup_fd();
// process control stays on the main thread. Records are made *before* the upcall returns, i.e. before
// PMIx releases the client, so when the main loop later reaps a rank, whatever that rank did through PMIx
// is already recorded.
//
// PMIx 4.2 facts this class is built around (all seen on this machine):
// - PMIx 4.2 tells the host nothing when a client dies without PMIx_Finalize (no upcall, no event);
//   newer versions report it through the client_finalized upcall that a real PMIx_Finalize uses. The two
//   are told apart by whether the client process is still running: during a real PMIx_Finalize it is
//   blocked waiting for our answer; a lost connection comes from a process already exiting.
// - Calling an upcall's cbfunc from inside the upcall lets PMIx touch the released client afterwards
//   (crashes). Upcalls here complete synchronously and return PMIX_OPERATION_SUCCEEDED instead, so PMIx
//   finishes the operation (and releases the client) itself.
// - After clients died while connected, PMIx_server_finalize may crash or deadlock (use after free in its
//   lost-connection path). So the server is only finalized after a clean job; otherwise mpiexec exits
//   with the library still up, which is harmless for a process about to end.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tools/mpiexec/placement.hpp"
#include "tools/mpiexec/pmix_job_map.hpp"

namespace strata::mpiexec {

struct AbortRequest {
  int rank;
  int status;  // the code given to PMIx_Abort (MPI_Abort's errorcode)
};

class PmixServer {
 public:
  // Starts the PMIx server library with all its files under `tmpdir` (which the caller removes).
  explicit PmixServer(const std::string& tmpdir);
  ~PmixServer();  // PMIx_server_finalize, after a clean job only (see above)
  PmixServer(const PmixServer&) = delete;
  PmixServer& operator=(const PmixServer&) = delete;

  // Registers namespace `nspace` with its job map, per-rank data and hardware (see pmix_job_map.cpp).
  void register_job(const std::string& nspace, const Placement& placement, const PublishedHardware& hardware);

  // Registers `rank` as an expected client; returns the NAME=VALUE variables its environment needs.
  std::vector<std::string> client_environment(int rank);
  void set_client_pid(int rank, pid_t pid) { state_->clients[rank].pid = pid; }

  // Every client that connected also finalized: PMIx_server_finalize is safe at destruction.
  void mark_clean_job() { clean_job_ = true; }

  // Readable when an upcall recorded something; the main loop then calls abort_request().
  int wakeup_fd() const { return state_->wakeup_fd; }
  std::optional<AbortRequest> abort_request();  // the first PMIx_Abort of the job, if any
  bool connected(int rank) const { return state_->clients[rank].connected.load(); }
  bool finalized(int rank) const { return state_->clients[rank].finalized.load(); }

  // What the upcalls (PMIx progress thread) record. Heap-allocated and, after an unclean job, never
  // freed: PMIx keeps running until the process exits and may still call in.
  struct ClientState {
    std::atomic<pid_t> pid{0};
    std::atomic<bool> connected{false};
    std::atomic<bool> finalized{false};
  };
  struct State {
    int nprocs = 0;
    std::unique_ptr<ClientState[]> clients;
    int wakeup_fd = -1;
    std::mutex mutex;                   // guards abort
    std::optional<AbortRequest> abort;  // the first PMIx_Abort only: it ends the job
  };

 private:
  std::string nspace_;
  std::unique_ptr<State> state_;
  bool clean_job_ = false;
};

}  // namespace strata::mpiexec
