// mpiexec command line: Open MPI / MPICH conventions for the options scripts actually use.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace strata::mpiexec {

// How ranks are spread over simulated nodes (--map-by).
enum class MapBy {
  slot,  // block: ceil(n / nodes) consecutive ranks per node
  node,  // round robin: rank % nodes
};

struct Options {
  int nprocs = 1;           // MPICH's default; Open MPI would use the number of cores
  int timeout_seconds = 0;  // 0: no time limit
  bool tag_output = false;
  int nodes = 0;  // 0: no simulation, every rank on the one real host
  MapBy map_by = MapBy::slot;
  std::vector<std::pair<std::string, std::string>> exported_env;  // -x, in command-line order
  std::string program_path;                // resolved like execvp, before anything is forked
  std::vector<std::string> program_argv;   // argv[0] as the user wrote it
  bool help = false;
};

// A command-line mistake. main() prints "mpiexec: <what()>" and exits with status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Options parse_options(int argc, char** argv);
std::string usage_text();

// Where execvp would find `name`: itself if it contains a '/', else the first executable regular file in
// $PATH. Empty if there is none.
std::string find_program(const std::string& name);

}  // namespace strata::mpiexec
