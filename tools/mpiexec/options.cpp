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

MapBy map_by_value(std::string_view text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "slot") return MapBy::slot;
  if (lower == "node") return MapBy::node;
  throw UsageError("--map-by must be 'slot' or 'node', got '" + std::string(text) + "'");
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

    bool is_flag = name == "--tag-output" || name == "--oversubscribe" || name == "--allow-run-as-root";
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
    } else if (name == "--oversubscribe" || name == "--allow-run-as-root") {
      // Accepted so scripts written for Open MPI run unchanged; a single host needs neither.
    } else {
      throw UsageError("unknown option '" + std::string(arg) + "' (see mpiexec --help)");
    }
  }

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
         "  --timeout S        kill the job after S seconds (exit status 124)\n"
         "  --tag-output       prefix output lines with [1,<rank>]<stdout>: or <stderr>:\n"
         "  -x VAR[=VALUE]     export VAR (mpiexec's value, or VALUE) to the ranks\n"
         "  --nodes N          spread the ranks over N simulated nodes node0..node<N-1>\n"
         "  --map-by slot|node with --nodes: blocks of consecutive ranks (slot, default) or round robin\n"
         "  --oversubscribe, --allow-run-as-root   accepted and ignored\n"
         "  -h, --help         this text\n";
}

}  // namespace strata::mpiexec
