// The main loop: forwards stdio, watches the ranks and PMIx, and decides how the job ends.
//
// Policy: the job ends at the first failure (a rank exiting non-zero, killed by a signal, calling
// MPI_Abort, or exiting without MPI_Finalize after MPI_Init), at --timeout, or on SIGINT/SIGTERM/SIGHUP.
// mpiexec then prints one line saying why, sends SIGTERM to the ranks, and SIGKILL one second later, so
// a job always ends within about two seconds of its first failure.
//
// "First" is by cause, not by the order waitpid happens to return. When a rank dies inside a collective,
// its peers hear of it through PMIx and may exit (or abort) in reaction, sometimes before mpiexec has
// reaped the rank that started it; and PMIx 4.2 does not tell the host who died first. So the first
// failure opens a short window (kSettle) in which further failures are collected, and the likeliest cause
// among them is reported: a rank killed by a signal, then an MPI_Abort, then a rank that vanished without
// MPI_Finalize, then a non-zero exit code (deliberate exits are the usual reaction); ties go to the
// earliest seen.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "tools/mpiexec/job.hpp"
#include "tools/mpiexec/output_forwarder.hpp"
#include "tools/mpiexec/pmix_server.hpp"
#include "tools/mpiexec/stdin_forwarder.hpp"

namespace strata::mpiexec {

class Supervisor {
 public:
  // signal_fd: a signalfd for SIGCHLD, SIGINT, SIGTERM and SIGHUP (blocked in every thread).
  Supervisor(Job& job, PmixServer& pmix, OutputForwarder& output, StdinForwarder& input, int signal_fd,
             int timeout_seconds);

  // Runs until every rank has been reaped; returns mpiexec's exit status.
  int run();

 private:
  using Clock = std::chrono::steady_clock;
  // Likeliest cause first (see above).
  enum class Cause { signal, abort, no_finalize, exit_code };
  struct Failure {
    Cause cause;
    int exit_status;  // what mpiexec will exit with
    std::string why;
  };

  void handle_signals();
  void handle_abort();
  std::optional<Failure> classify(const RankExit& exit) const;
  void add_failure(Failure failure);
  void judge_failures();
  void check_deadlines();
  int poll_timeout_ms() const;
  // The first call decides the exit status and prints `why`; later calls change nothing.
  void end_job(int exit_status, const std::string& why);

  Job& job_;
  PmixServer& pmix_;
  OutputForwarder& output_;
  StdinForwarder& input_;
  int signal_fd_;
  int timeout_seconds_;
  Clock::time_point timeout_at_;
  std::vector<Failure> failures_;               // seen, not yet reported
  std::optional<Clock::time_point> judge_at_;  // when the likeliest of them is reported
  std::optional<Clock::time_point> kill_at_;   // SIGKILL time once the job is ending
  std::optional<int> exit_status_;             // set once the job is ending
  bool aborted_ = false;                       // the PMIx_Abort was taken into account
};

}  // namespace strata::mpiexec
