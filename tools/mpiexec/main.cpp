// mpiexec: launches one MPI job on this host as an embedded PMIx server. See README.md.
#include <fcntl.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>

#include "tools/mpiexec/job.hpp"
#include "tools/mpiexec/launch_plan.hpp"
#include "tools/mpiexec/options.hpp"
#include "tools/mpiexec/output_forwarder.hpp"
#include "tools/mpiexec/pmix_server.hpp"
#include "tools/mpiexec/session_files.hpp"
#include "tools/mpiexec/stdin_forwarder.hpp"
#include "tools/mpiexec/supervisor.hpp"

extern char** environ;

namespace strata::mpiexec {
namespace {

// If mpiexec was started with fd 0, 1 or 2 closed, the next fd we open would take its number and the
// ranks would read or write our pipes by accident.
void ensure_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl(fd, F_GETFD) < 0) open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
}

// Signals become events on a signalfd. They must be blocked before PMIx starts its thread, which then
// inherits the mask, so none of them is ever delivered to that thread instead.
int block_signals_into_fd() {
  sigset_t handled;
  sigemptyset(&handled);
  for (int sig : {SIGCHLD, SIGINT, SIGTERM, SIGHUP}) sigaddset(&handled, sig);
  sigprocmask(SIG_BLOCK, &handled, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a reader that went away is an EPIPE error, handled where it happens
  return signalfd(-1, &handled, SFD_NONBLOCK | SFD_CLOEXEC);
}

// PMIx strips the domain from the host name it reports (unless told otherwise); match it, so the one
// real node of the job map is the node PMIx's clients believe they are on.
std::string short_hostname() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  std::string host = name;
  if (auto dot = host.find('.'); dot != std::string::npos && !std::isdigit(static_cast<unsigned char>(host[0])))
    host.resize(dot);
  return host;
}

// mpiexec's environment, then -x settings, then PMIx's variables: later entries win. Inherited PMIX_*
// variables (mpiexec itself started by another launcher) describe the outer job and are dropped, except
// PMIX_MCA_* settings, which are the user's configuration.
std::vector<std::string> rank_environment(const Options& options, const std::vector<std::string>& pmix_vars) {
  std::map<std::string, std::string> by_name;
  std::vector<std::string> order;
  auto set = [&](const std::string& name, const std::string& value) {
    if (!by_name.contains(name)) order.push_back(name);
    by_name[name] = value;
  };
  for (char** e = environ; *e; ++e) {
    std::string entry = *e;
    auto eq = entry.find('=');
    bool outer_pmix = entry.starts_with("PMIX_") && !entry.starts_with("PMIX_MCA_");
    if (eq != std::string::npos && !outer_pmix) set(entry.substr(0, eq), entry.substr(eq + 1));
  }
  for (const auto& [name, value] : options.exported_env) set(name, value);
  set("STRATA_JOB_SIZE", std::to_string(options.nprocs));  // MPI_Info_create_env's maxprocs before MPI_Init
  for (const auto& var : pmix_vars) {
    auto eq = var.find('=');
    if (eq != std::string::npos) set(var.substr(0, eq), var.substr(eq + 1));
  }
  std::vector<std::string> env;
  for (const auto& name : order) env.push_back(name + "=" + by_name[name]);
  return env;
}

int run(const Options& options, const LaunchPlan& plan, int signal_fd) {
  std::string nspace = "strata-" + std::to_string(getpid());
  SessionFiles session(nspace);
  PmixServer pmix(session.tmpdir());
  pmix.register_job(nspace, plan.placement, plan.hardware);

  LaunchSpec spec{options.program_path, options.program_argv, {}, -1, plan.affinity};
  for (int rank = 0; rank < options.nprocs; ++rank)
    spec.env.push_back(rank_environment(options, pmix.client_environment(rank)));

  StdinForwarder input;
  spec.rank0_stdin = input.rank0_fd();
  OutputForwarder output(options.tag_output);
  // Declared last, destroyed first: on an error path its destructor kills the ranks while the PMIx
  // server and the session files still exist.
  Job job;
  auto started = [&](int rank, pid_t pid) { pmix.set_client_pid(rank, pid); };
  for (const auto& rank : job.launch(spec, started)) {
    output.add(rank.stdout_fd, rank.rank, 1);
    output.add(rank.stderr_fd, rank.rank, 2);
  }
  input.close_rank0_fd();
  int status = Supervisor(job, pmix, output, input, signal_fd, options.timeout_seconds).run();
  if (status == 0) pmix.mark_clean_job();
  return status;
}

}  // namespace
}  // namespace strata::mpiexec

int main(int argc, char** argv) {
  using namespace strata::mpiexec;
  ensure_standard_fds();
  Options options;
  LaunchPlan plan;
  try {
    options = parse_options(argc, argv);
    if (options.help) {
      std::fputs(usage_text().c_str(), stdout);
      return 0;
    }
    plan = plan_launch(options, short_hostname());
  } catch (const UsageError& e) {
    std::fprintf(stderr, "mpiexec: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpiexec: %s\n", e.what());
    return 1;
  }
  std::fputs(plan.binding_report.c_str(), stderr);
  int signal_fd = block_signals_into_fd();
  try {
    return run(options, plan, signal_fd);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpiexec: %s\n", e.what());
    return 1;
  }
}
