#include "tools/mpiexec/supervisor.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace strata::mpiexec {
namespace {

constexpr auto kGraceAfterTerm = std::chrono::seconds(1);
// How long after the first failure others are still collected before one is reported.
constexpr auto kSettle = std::chrono::milliseconds(100);

std::string plural_ranks(int n) { return std::to_string(n) + (n == 1 ? " rank" : " ranks"); }

std::string signal_text(int sig) { return "signal " + std::to_string(sig) + " (" + strsignal(sig) + ")"; }

}  // namespace

Supervisor::Supervisor(Job& job, PmixServer& pmix, OutputForwarder& output, StdinForwarder& input, int signal_fd,
                       int timeout_seconds)
    : job_(job),
      pmix_(pmix),
      output_(output),
      input_(input),
      signal_fd_(signal_fd),
      timeout_seconds_(timeout_seconds),
      timeout_at_(Clock::now() + std::chrono::seconds(timeout_seconds)) {}

int Supervisor::run() {
  std::vector<pollfd> fds;
  while (job_.running() > 0 || !failures_.empty()) {
    fds.clear();
    fds.push_back({signal_fd_, POLLIN, 0});
    fds.push_back({pmix_.wakeup_fd(), POLLIN, 0});
    input_.append_pollfds(fds);
    output_.append_pollfds(fds);
    if (poll(fds.data(), fds.size(), poll_timeout_ms()) < 0 && errno != EINTR) {
      std::perror("mpiexec: poll");
      end_job(1, "");
    }
    // Output first: what a rank printed before failing appears before mpiexec's line about it.
    for (size_t i = 2; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == 0 || (fds[i].events & POLLOUT)) {
        input_.on_ready(fds[i]);
      } else {
        output_.on_ready(fds[i].fd);
      }
    }
    if (fds[1].revents) handle_abort();
    if (fds[0].revents) handle_signals();
    judge_failures();
    check_deadlines();
  }

  output_.drain_and_close();
  input_.stop();
  // A failed job may have left descendants of the ranks in their process group.
  if (exit_status_) {
    job_.signal_all(SIGKILL);
    job_.reap_strays(std::chrono::milliseconds(500));
  }
  return exit_status_.value_or(0);
}

void Supervisor::handle_signals() {
  signalfd_siginfo info;
  bool child_ended = false;
  while (read(signal_fd_, &info, sizeof info) == sizeof info) {
    int sig = static_cast<int>(info.ssi_signo);
    if (sig == SIGCHLD) {
      child_ended = true;
    } else if (exit_status_) {
      job_.signal_all(SIGKILL);  // asked twice: stop waiting for the grace period
    } else {
      end_job(128 + sig, "caught " + signal_text(sig) + "; killing " + plural_ranks(job_.running()));
    }
  }
  if (!child_ended) return;
  auto exits = job_.reap();
  // A rank that called PMIx_Abort was recorded before PMIx released it, so checking after the reap
  // reports its abort rather than the exit that followed.
  handle_abort();
  for (const auto& exit : exits)
    if (auto failure = classify(exit)) add_failure(*failure);
}

void Supervisor::handle_abort() {
  if (aborted_) return;
  if (auto request = pmix_.abort_request()) {
    aborted_ = true;
    // An aborted job must not look successful, even after MPI_Abort(comm, 0).
    int status = request->status & 0xff ? request->status & 0xff : 1;
    add_failure({Cause::abort, status, "rank " + std::to_string(request->rank) + " called MPI_Abort with code " +
                                          std::to_string(request->status)});
  }
}

std::optional<Supervisor::Failure> Supervisor::classify(const RankExit& exit) const {
  std::string who = "rank " + std::to_string(exit.rank) + " (pid " + std::to_string(exit.pid) + ")";
  int status = exit.wait_status;
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    return Failure{Cause::signal, 128 + sig, who + " killed by " + signal_text(sig)};
  }
  int code = WEXITSTATUS(status);
  // Connected but not finalized: the others would wait for it forever in their next collective.
  bool vanished = pmix_.connected(exit.rank) && !pmix_.finalized(exit.rank);
  if (code != 0) return Failure{Cause::exit_code, code, who + " exited with code " + std::to_string(code)};
  if (vanished) return Failure{Cause::no_finalize, 1, who + " exited without calling MPI_Finalize"};
  return std::nullopt;
}

void Supervisor::add_failure(Failure failure) {
  if (exit_status_) return;  // the job is already ending: these are ranks we killed
  failures_.push_back(std::move(failure));
  if (!judge_at_) judge_at_ = Clock::now() + kSettle;
}

void Supervisor::judge_failures() {
  if (failures_.empty() || (Clock::now() < *judge_at_ && job_.running() > 0)) return;
  auto likeliest = std::min_element(failures_.begin(), failures_.end(),
                                    [](const Failure& a, const Failure& b) { return a.cause < b.cause; });
  Failure chosen = *likeliest;
  failures_.clear();
  end_job(chosen.exit_status, chosen.why);
}

void Supervisor::check_deadlines() {
  auto now = Clock::now();
  if (kill_at_ && now >= *kill_at_) {
    job_.signal_all(SIGKILL);
    kill_at_.reset();
  }
  if (timeout_seconds_ > 0 && !exit_status_ && now >= timeout_at_)
    end_job(124, "job timed out after " + std::to_string(timeout_seconds_) + " s; killing " +
                     plural_ranks(job_.running()));
}

int Supervisor::poll_timeout_ms() const {
  std::optional<Clock::time_point> next;
  auto consider = [&](std::optional<Clock::time_point> t) {
    if (t && (!next || *t < *next)) next = t;
  };
  consider(kill_at_);
  if (!failures_.empty()) consider(judge_at_);
  if (timeout_seconds_ > 0 && !exit_status_) consider(timeout_at_);
  if (!next) return -1;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(*next - Clock::now()).count();
  return ms < 0 ? 0 : static_cast<int>(ms);
}

void Supervisor::end_job(int exit_status, const std::string& why) {
  if (exit_status_) return;
  exit_status_ = exit_status;
  judge_at_.reset();
  failures_.clear();
  if (!why.empty()) std::fprintf(stderr, "mpiexec: %s\n", why.c_str());
  input_.stop();
  job_.signal_all(SIGTERM);
  kill_at_ = Clock::now() + kGraceAfterTerm;
}

}  // namespace strata::mpiexec
