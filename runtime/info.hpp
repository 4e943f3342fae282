// Info objects (MPI-4.0 chapter 10): string keys with string values, kept in insertion order because
// MPI_Info_get_nthkey numbers the keys (setting an existing key replaces its value in place and keeps its
// position). Limits are enforced with errors, never by truncation.
//
// Also the content of MPI_INFO_ENV (MPI-4.0 section 11.4, "The Info Object for the Environment"), which
// MPI_Info_create_env builds too.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/status.hpp"

namespace strata::runtime {

// The mpi.h values (mpi.h is not included below api/; api/info_calls.cpp checks at compile time that they agree).
constexpr std::size_t kMaxInfoKey = 255;   // MPI_MAX_INFO_KEY: the longest key, terminator excluded
constexpr std::size_t kMaxInfoVal = 1024;  // MPI_MAX_INFO_VAL: the longest value, terminator excluded

// kErrInfoKey unless 1 <= key.size() <= kMaxInfoKey; kErrInfoValue unless value.size() <= kMaxInfoVal.
Status check_key(std::string_view key);
Status check_value(std::string_view value);

class Info {
 public:
  // Adds the key at the end, or replaces the value of an existing key where it stands.
  Status set(std::string_view key, std::string_view value);
  // The value of `key`, or nullptr if absent (a bad key is simply absent: callers check keys with check_key).
  const std::string* get(std::string_view key) const;
  // Removes `key`; kErrInfoNokey if it is absent.
  Status erase(std::string_view key);
  int nkeys() const { return static_cast<int>(entries_.size()); }
  // The n-th key in insertion order; kErrArg unless 0 <= n < nkeys().
  Status nthkey(int n, std::string& key) const;
  Info dup() const { return *this; }

 private:
  // A vector with linear look-up: info objects carry a handful of hints, and the order is part of the interface.
  std::vector<std::pair<std::string, std::string>> entries_;
};

// What MPI_INFO_ENV describes. Empty / negative fields are unknown and their keys are left out.
struct EnvFacts {
  std::vector<std::string> argv;  // argv[0] is the command; empty: read /proc/self/cmdline
  int maxprocs = -1;              // the job size, when known
  std::string host;               // empty: the kernel's host name
  int thread_level = -1;          // MPI_THREAD_SINGLE (0) .. MPI_THREAD_MULTIPLE (3), when known
};

// The reserved keys of MPI-4.0 11.4 that can be known, in the standard's order: command, argv (the arguments
// after the command, space separated), maxprocs, host, arch (uname's machine), wdir (the working directory),
// thread_level (MPI_THREAD_SINGLE, ...). `soft` and `file` describe mpiexec arguments no launcher passes on.
Info environment_info(const EnvFacts& facts);

// "MPI_THREAD_SINGLE" ... "MPI_THREAD_MULTIPLE" for levels 0 .. 3 (nullptr otherwise), and back (-1 if no level).
const char* thread_level_name(int level);
int thread_level_of(const std::string& name);

}  // namespace strata::runtime
