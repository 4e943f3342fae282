#include "tools/mpiexec/options.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string_view>

namespace strata::mpiexec {
namespace {

// Strict positive integer: "4" yes; "", "0", "-1", "4x", "1e3" no.
int positive_int(std::string_view option, std::string_view text) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value <= 0)
    throw UsageError(std::string(option) + " needs a positive integer, got '" + std::string(text) + "'");
  return value;
}

std::string lower_case(std::string_view text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

MapBy map_by_value(std::string_view text) {
  std::string lower = lower_case(text);
  if (lower == "slot") return MapBy::slot;
  if (lower == "node") return MapBy::node;
  throw UsageError("--map-by must be 'slot' or 'node', got '" + std::string(text) + "'");
}

// synthetic:"<description>" (the shell has usually removed the quotes already) or xml:FILE.
TopologySpec topology_value(std::string_view text) {
  TopologySpec spec;
  std::string_view rest;
  if (text.starts_with("synthetic:")) {
    spec.kind = TopologySpec::Kind::synthetic;
    rest = text.substr(10);
    if (rest.size() >= 2 && rest.front() == '"' && rest.back() == '"') rest = rest.substr(1, rest.size() - 2);
  } else if (text.starts_with("xml:")) {
    spec.kind = TopologySpec::Kind::xml;
    rest = text.substr(4);
  }
  if (spec.kind == TopologySpec::Kind::real || rest.empty())
    throw UsageError("--topology needs synthetic:\"<hwloc synthetic description>\" or xml:FILE, got '" +
                     std::string(text) + "'");
  spec.text = rest;
  return spec;
}

// Open MPI's level names, plus whatever topo::parse_level accepts (l3cache, socket, hwloc://Core, ...).
// Node is refused: binding to the whole node is no binding, which is spelled "none".
std::optional<topo::Level> bind_to_value(std::string_view text) {
  std::string lower = lower_case(text);
  if (lower == "none") return std::nullopt;
  std::optional<topo::Level> level = lower == "hwthread" ? topo::Level::PU : topo::parse_level(lower);
  if (!level || *level == topo::Level::Node || topo::network(*level))
    throw UsageError("--bind-to must be none, hwthread, core, l1, l2, l3, numa or package, got '" + std::string(text) +
                     "'");
  return level;
}

// "rack:2 switch:4": topo::parse_network's rules (topo/network.hpp); fitted to --nodes after all options are read.
std::vector<topo::NetworkLevel> network_value(std::string_view text) {
  std::string why;
  std::optional<std::vector<topo::NetworkLevel>> levels = topo::parse_network(text, why);
  if (!levels) throw UsageError("--network \"" + std::string(text) + "\": " + why);
  return *levels;
}

// "0,1;2-3;4-7": one entry per rank; an empty entry is kept so that it is reported as malformed.
std::vector<std::string> cpu_list_value(std::string_view text) {
  std::vector<std::string> entries;
  while (true) {
    auto semicolon = text.find(';');
    entries.emplace_back(text.substr(0, semicolon));
    if (semicolon == std::string_view::npos) return entries;
    text.remove_prefix(semicolon + 1);
  }
}

// -x VAR=VAL sets VAL; -x VAR passes mpiexec's own value on (and is a no-op when VAR is unset, like
// forwarding nothing).
void add_export(Options& options, std::string_view spec) {
  auto eq = spec.find('=');
  std::string name(spec.substr(0, eq));
  if (name.empty()) throw UsageError("-x needs VAR or VAR=VALUE, got '" + std::string(spec) + "'");
  if (eq != std::string_view::npos) {
    options.exported_env.emplace_back(name, std::string(spec.substr(eq + 1)));
  } else if (const char* value = std::getenv(name.c_str())) {
    options.exported_env.emplace_back(name, value);
  }
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string find_program(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return is_executable_file(name) ? name : std::string{};
  const char* path_env = std::getenv("PATH");
  std::string_view path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";  // execvp's default
  while (true) {
    auto colon = path.find(':');
    std::string dir(path.substr(0, colon));
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;  // empty entry = cwd
    if (is_executable_file(candidate)) return candidate;
    if (colon == std::string_view::npos) return {};
    path.remove_prefix(colon + 1);
  }
}

Options parse_options(int argc, char** argv) {
  Options options;
  // MPICH's and Open MPI's launchers take the time limit from MPIEXEC_TIMEOUT too; --timeout overrides it.
  if (const char* limit = std::getenv("MPIEXEC_TIMEOUT"); limit != nullptr && *limit != '\0')
    options.timeout_seconds = positive_int("MPIEXEC_TIMEOUT", limit);
  int i = 1;
  for (; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg.empty() || arg[0] != '-') break;  // the program: everything after it is its own

    // Long options also come as --name=value.
    std::string_view name = arg;
    std::string_view inline_value;
    bool has_inline = false;
    if (arg.starts_with("--")) {
      if (auto eq = arg.find('='); eq != std::string_view::npos) {
        name = arg.substr(0, eq);
        inline_value = arg.substr(eq + 1);
        has_inline = true;
      }
    }
    auto value = [&]() -> std::string_view {
      if (has_inline) return inline_value;
      if (i + 1 >= argc) throw UsageError(std::string(name) + " needs a value");
      return argv[++i];
    };

    bool is_flag = name == "--tag-output" || name == "--oversubscribe" || name == "--allow-run-as-root" ||
                   name == "--report-bindings";
    if (has_inline && is_flag) throw UsageError(std::string(name) + " takes no value");

    if (name == "-h" || name == "--help") {
      options.help = true;
      return options;
    } else if (name == "-n" || name == "-np" || name == "--n" || name == "--np") {
      options.nprocs = positive_int(name, value());
    } else if (name == "--timeout") {
      options.timeout_seconds = positive_int(name, value());
    } else if (name == "--tag-output") {
      options.tag_output = true;
    } else if (name == "-x") {
      add_export(options, value());
    } else if (name == "--nodes") {
      options.nodes = positive_int(name, value());
    } else if (name == "--map-by") {
      options.map_by = map_by_value(value());
    } else if (name == "--topology") {
      options.topology = topology_value(value());
    } else if (name == "--network") {
      options.network_text = value();
      options.network = network_value(options.network_text);
    } else if (name == "--bind-to") {
      options.bind_to = bind_to_value(value());
    } else if (name == "--cpu-list") {
      options.cpu_list = cpu_list_value(value());
    } else if (name == "--report-bindings") {
      options.report_bindings = true;
    } else if (name == "--oversubscribe") {
      options.oversubscribe = true;
    } else if (name == "--allow-run-as-root") {
      // Accepted so scripts written for Open MPI run unchanged; mpiexec does not care who runs it.
    } else {
      throw UsageError("unknown option '" + std::string(arg) + "' (see mpiexec --help)");
    }
  }

  if (!options.network.empty()) {
    if (options.nodes == 0)
      throw UsageError("--network \"" + options.network_text +
                       "\" needs --nodes N (the network spreads simulated nodes)");
    std::string why;
    if (!topo::spread_nodes(options.network, options.nodes, why))
      throw UsageError("--network \"" + options.network_text + "\" does not fit --nodes " +
                       std::to_string(options.nodes) + ": " + why);
  }
  if (options.bind_to && !options.cpu_list.empty())
    throw UsageError("--cpu-list and --bind-to " + std::string(topo::short_name(*options.bind_to)) +
                     " exclude each other: give one binding per rank, or one level for all");
  if (i >= argc) throw UsageError("no program given (see mpiexec --help)");
  options.program_argv.assign(argv + i, argv + argc);
  options.program_path = find_program(options.program_argv[0]);
  if (options.program_path.empty())
    throw UsageError("program '" + options.program_argv[0] + "' not found or not executable");
  return options;
}

std::string usage_text() {
  return "usage: mpiexec [options] program [args...]\n"
         "  -n, -np N          number of ranks (default 1)\n"
         "  --timeout S        kill the job after S seconds (exit status 124; default: $MPIEXEC_TIMEOUT, if set)\n"
         "  --tag-output       prefix output lines with [1,<rank>]<stdout>: or <stderr>:\n"
         "  -x VAR[=VALUE]     export VAR (mpiexec's value, or VALUE) to the ranks\n"
         "  --nodes N          spread the ranks over N simulated nodes node0..node<N-1>; each node's ranks\n"
         "                     run on its own share of this host's CPUs (as real nodes would not share\n"
         "                     cores), unless --bind-to or --cpu-list binds them\n"
         "  --map-by slot|node with --nodes: blocks of consecutive ranks (slot, default) or round robin\n"
         "  --network \"LEVEL:N ...\"\n"
         "                     with --nodes: a network tree above the nodes, top to bottom, levels rack then\n"
         "                     switch (each at most once), e.g. \"rack:2 switch:2\" = 2 racks of 2 switches each;\n"
         "                     the nodes go to the lowest level's instances in blocks of consecutive node ids,\n"
         "                     so --nodes must be a multiple of the product of the fan-outs\n"
         "  --topology synthetic:\"DESC\" | xml:FILE\n"
         "                     every (simulated) node has this machine: an hwloc synthetic description\n"
         "                     (e.g. \"pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1\") or an hwloc XML file;\n"
         "                     published as PMIX_HWLOC_XML_V2, and nothing is really bound\n"
         "  --bind-to LEVEL    none (default), hwthread|pu, core, l1, l2, l3, numa, package|socket:\n"
         "                     local rank i of each node gets the i-th instance of LEVEL (PMIX_CPUSET);\n"
         "                     really bound (sched_setaffinity) unless --topology simulates the machine\n"
         "  --cpu-list \"L0;L1;...\"\n"
         "                     one cpuset per rank (hwloc lists like 0-3,8, OS PU numbers), instead of --bind-to\n"
         "  --oversubscribe    let --bind-to put several ranks on one instance (local rank i -> instance i % count)\n"
         "  --report-bindings  print each rank's binding and the levels it lies in to stderr before starting\n"
         "  --allow-run-as-root   accepted and ignored\n"
         "  -h, --help         this text\n";
}

}  // namespace strata::mpiexec
