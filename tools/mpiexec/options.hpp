// mpiexec command line: Open MPI / MPICH conventions for the options scripts actually use.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "topo/levels.hpp"
#include "topo/network.hpp"

namespace strata::mpiexec {

// How ranks are spread over simulated nodes (--map-by).
enum class MapBy {
  slot,  // block: ceil(n / nodes) consecutive ranks per node
  node,  // round robin: rank % nodes
};

// --topology: the machine every (simulated) node has. Loaded by node_machine.cpp, after parsing.
struct TopologySpec {
  enum class Kind { real, synthetic, xml } kind = Kind::real;  // real: this host, discovered by hwloc
  std::string text;                                           // the description or the file name
};

struct Options {
  int nprocs = 1;           // MPICH's default; Open MPI would use the number of cores
  int timeout_seconds = 0;  // 0: no time limit
  bool tag_output = false;
  int nodes = 0;  // 0: no simulation, every rank on the one real host
  MapBy map_by = MapBy::slot;
  TopologySpec topology;
  std::vector<topo::NetworkLevel> network;  // --network, top to bottom; empty: none. Fits `nodes` (checked).
  std::string network_text;                 // --network as given, for messages
  std::optional<topo::Level> bind_to;  // --bind-to; nullopt: none (MPICH's default)
  std::vector<std::string> cpu_list;   // --cpu-list entries, one per rank; checked in binding.cpp
  bool oversubscribe = false;          // lets --bind-to put several ranks on one instance
  bool report_bindings = false;
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
