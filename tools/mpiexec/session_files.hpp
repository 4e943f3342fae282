// Files that belong to one job and must not outlive it: the private temp dir holding PMIx's rendezvous
// files, and the shared-memory segments the library names /dev/shm/strata_<nspace>_*.
// Removed by the destructor, so every exit path of main() cleans up.
#pragma once

#include <string>

namespace strata::mpiexec {

class SessionFiles {
 public:
  // Creates a fresh directory under $TMPDIR (or /tmp).
  explicit SessionFiles(const std::string& nspace);
  ~SessionFiles() { remove(); }
  SessionFiles(const SessionFiles&) = delete;
  SessionFiles& operator=(const SessionFiles&) = delete;

  const std::string& tmpdir() const { return tmpdir_; }
  void remove();  // idempotent

 private:
  std::string tmpdir_;
  std::string shm_prefix_;
};

// "strata_<nspace with every non-alphanumeric replaced by '_'>_": the library's segment name prefix.
std::string shm_prefix(const std::string& nspace);

}  // namespace strata::mpiexec
