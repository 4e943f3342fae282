// The ranks as Unix processes: starting them, reaping them, signalling them.
//
// All ranks share one new process group, so a signal to the group also reaches whatever they forked.
// Each rank also asks for SIGKILL when mpiexec dies (PR_SET_PDEATHSIG), so even `kill -9 mpiexec` leaves
// no rank behind. mpiexec is a child subreaper: what the ranks forked and left behind becomes mpiexec's
// child, so after a failed job it can be reaped too instead of lingering as a zombie of init.
#pragma once

#include <sched.h>
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace strata::mpiexec {

struct LaunchSpec {
  std::string path;                              // resolved program
  std::vector<std::string> argv;
  std::vector<std::vector<std::string>> env;     // per rank: the complete NAME=VALUE environment
  int rank0_stdin = -1;                          // read end of the stdin pipe; other ranks get /dev/null
  std::vector<std::optional<cpu_set_t>> affinity;  // by rank, a real binding; none (or empty): mpiexec's own
};

// Read ends of a rank's stdout and stderr pipes (non-blocking, close-on-exec, owned by the caller).
struct RankOutput {
  int rank;
  int stdout_fd;
  int stderr_fd;
};

struct RankExit {
  int rank;
  pid_t pid;
  int wait_status;  // as from waitpid
};

class Job {
 public:
  Job() = default;
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;
  // Kills and reaps any rank still running: on error paths nothing is left behind.
  ~Job();

  // Forks and execs every rank, calling on_started(rank, pid) right after each fork. Throws
  // std::runtime_error if a pipe or fork fails (ranks already started are killed by the destructor).
  std::vector<RankOutput> launch(const LaunchSpec& spec, const std::function<void(int, pid_t)>& on_started);

  // Ranks that ended since the last call (never blocks).
  std::vector<RankExit> reap();

  // Sends `sig` to the process group and to every rank still running.
  void signal_all(int sig);

  // After SIGKILL to the group: reaps the ranks' orphaned descendants, waiting at most `limit` for them.
  void reap_strays(std::chrono::milliseconds limit);

  int running() const { return running_; }
  bool is_running(int rank) const { return pids_[rank] > 0; }
  int size() const { return static_cast<int>(pids_.size()); }

 private:
  std::vector<pid_t> pids_;  // by rank; -1 once reaped
  pid_t pgid_ = 0;
  int running_ = 0;
};

}  // namespace strata::mpiexec
