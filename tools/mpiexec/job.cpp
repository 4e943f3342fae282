#include "tools/mpiexec/job.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace strata::mpiexec {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what + ": " + std::strerror(errno)); }

// argv/envp as execve wants them; built before fork because the child of a multi-threaded process may only
// make async-signal-safe calls.
std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

// Runs in the child between fork and exec: async-signal-safe calls only.
[[noreturn]] void exec_rank(const char* path, char* const argv[], char* const envp[], pid_t pgid, pid_t parent,
                            int in_fd, int out_fd, int err_fd, const cpu_set_t* affinity) {
  setpgid(0, pgid);  // pgid 0: this first rank founds the group
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // mpiexec died before the line above took effect

  // mpiexec blocks the signals it handles and ignores SIGPIPE; the program must start with defaults.
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigaction(SIGPIPE, &dfl, nullptr);

  if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) _exit(127);
  // A plain system call (hwloc_set_cpubind may allocate, which a forked child of a threaded process must not).
  if (affinity && sched_setaffinity(0, sizeof *affinity, affinity) != 0) {
    const char msg[] = "mpiexec: cannot bind a rank: sched_setaffinity failed\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(127);
  }
  execve(path, argv, envp);
  const char msg[] = "mpiexec: cannot execute ";
  (void)!write(2, msg, sizeof msg - 1);
  (void)!write(2, path, std::strlen(path));
  (void)!write(2, "\n", 1);
  _exit(127);
}

}  // namespace

std::vector<RankOutput> Job::launch(const LaunchSpec& spec, const std::function<void(int, pid_t)>& on_started) {
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  int nprocs = static_cast<int>(spec.env.size());
  auto argv = c_strings(spec.argv);
  int dev_null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (dev_null < 0) fail("open /dev/null");

  std::vector<RankOutput> outputs;
  pid_t parent = getpid();
  for (int rank = 0; rank < nprocs; ++rank) {
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) < 0) fail("pipe");
    if (pipe2(err, O_CLOEXEC) < 0) fail("pipe");
    auto envp = c_strings(spec.env[rank]);
    int in_fd = rank == 0 && spec.rank0_stdin >= 0 ? spec.rank0_stdin : dev_null;
    const cpu_set_t* affinity = nullptr;
    if (rank < static_cast<int>(spec.affinity.size()) && spec.affinity[rank]) affinity = &*spec.affinity[rank];

    pid_t pid = fork();
    if (pid < 0) fail("fork");
    if (pid == 0)
      exec_rank(spec.path.c_str(), argv.data(), envp.data(), pgid_, parent, in_fd, out[1], err[1], affinity);

    // Also set the group from this side, so it is in place before we might signal it (the usual race).
    if (pgid_ == 0) pgid_ = pid;
    setpgid(pid, pgid_);
    pids_.push_back(pid);
    ++running_;
    on_started(rank, pid);
    close(out[1]);
    close(err[1]);
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(err[0], F_SETFL, O_NONBLOCK);
    outputs.push_back({rank, out[0], err[0]});
  }
  close(dev_null);
  return outputs;
}

Job::~Job() {
  if (running_ == 0) return;
  signal_all(SIGKILL);
  for (pid_t pid : pids_)
    if (pid > 0) waitpid(pid, nullptr, 0);
}

std::vector<RankExit> Job::reap() {
  std::vector<RankExit> exits;
  int status = 0;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    for (int rank = 0; rank < size(); ++rank) {
      if (pids_[rank] != pid) continue;
      pids_[rank] = -1;
      --running_;
      exits.push_back({rank, pid, status});
    }
  }
  return exits;
}

void Job::reap_strays(std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (true) {
    pid_t pid = waitpid(-1, nullptr, WNOHANG);
    if (pid < 0) return;  // ECHILD: nothing left
    if (pid > 0) continue;
    if (std::chrono::steady_clock::now() >= deadline) return;
    usleep(10000);
  }
}

void Job::signal_all(int sig) {
  if (pgid_ > 0) kill(-pgid_, sig);
  for (pid_t pid : pids_)
    if (pid > 0) kill(pid, sig);
}

}  // namespace strata::mpiexec
