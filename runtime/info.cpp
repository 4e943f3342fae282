#include "runtime/info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace strata::runtime {
namespace {

const char* const kThreadLevels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                     "MPI_THREAD_MULTIPLE"};

// The process's arguments as the kernel recorded them (NUL-separated in /proc/self/cmdline).
std::vector<std::string> own_arguments() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  std::size_t start = 0;
  while (start < all.size()) {
    std::size_t end = all.find('\0', start);
    if (end == std::string::npos) end = all.size();
    args.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return args;
}

// Sets a reserved key, if the value fits (a longer command line or path is left out rather than cut: an info
// value is never truncated).
void set_if_fits(Info& info, std::string_view key, const std::string& value) {
  if (!value.empty() && check_value(value).ok()) (void)info.set(key, value);
}

}  // namespace

Status check_key(std::string_view key) {
  if (key.empty()) return error(kErrInfoKey, "empty info key");
  if (key.size() > kMaxInfoKey)
    return error(kErrInfoKey, "info key \"" + std::string(key.substr(0, 32)) + "...\" is " +
                                  std::to_string(key.size()) + " characters long (MPI_MAX_INFO_KEY is " +
                                  std::to_string(kMaxInfoKey) + ")");
  return Status::success();
}

Status check_value(std::string_view value) {
  if (value.size() > kMaxInfoVal)
    return error(kErrInfoValue, "info value \"" + std::string(value.substr(0, 32)) + "...\" is " +
                                    std::to_string(value.size()) + " characters long (MPI_MAX_INFO_VAL is " +
                                    std::to_string(kMaxInfoVal) + ")");
  return Status::success();
}

Status Info::set(std::string_view key, std::string_view value) {
  if (Status s = check_key(key); !s.ok()) return s;
  if (Status s = check_value(value); !s.ok()) return s;
  for (auto& [k, v] : entries_)
    if (k == key) {
      v = value;
      return Status::success();
    }
  entries_.emplace_back(key, value);
  return Status::success();
}

const std::string* Info::get(std::string_view key) const {
  for (const auto& [k, v] : entries_)
    if (k == key) return &v;
  return nullptr;
}

Status Info::erase(std::string_view key) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->first == key) {
      entries_.erase(it);
      return Status::success();
    }
  return error(kErrInfoNokey, "no info key \"" + std::string(key) + "\"");
}

Status Info::nthkey(int n, std::string& key) const {
  if (n < 0 || n >= nkeys())
    return error(kErrArg, "key number " + std::to_string(n) + " out of range (the info object has " +
                              std::to_string(nkeys()) + " keys)");
  key = entries_[n].first;
  return Status::success();
}

Info environment_info(const EnvFacts& facts) {
  Info info;
  const std::vector<std::string> argv = facts.argv.empty() ? own_arguments() : facts.argv;
  if (!argv.empty()) {
    set_if_fits(info, "command", argv[0]);
    std::string args;
    for (std::size_t i = 1; i < argv.size(); ++i) args += (i > 1 ? " " : "") + argv[i];
    set_if_fits(info, "argv", args);
  }
  if (facts.maxprocs > 0) set_if_fits(info, "maxprocs", std::to_string(facts.maxprocs));
  std::string host = facts.host;
  struct utsname u;
  const bool have_uname = uname(&u) == 0;
  if (host.empty() && have_uname) host = u.nodename;
  set_if_fits(info, "host", host);
  if (have_uname) set_if_fits(info, "arch", u.machine);
  if (char* cwd = getcwd(nullptr, 0)) {
    set_if_fits(info, "wdir", cwd);
    std::free(cwd);
  }
  if (const char* level = thread_level_name(facts.thread_level)) set_if_fits(info, "thread_level", level);
  return info;
}

const char* thread_level_name(int level) { return level >= 0 && level < 4 ? kThreadLevels[level] : nullptr; }

int thread_level_of(const std::string& name) {
  for (int level = 0; level < 4; ++level)
    if (name == kThreadLevels[level]) return level;
  return -1;
}

}  // namespace strata::runtime
