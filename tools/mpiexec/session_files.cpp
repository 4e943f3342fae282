#include "tools/mpiexec/session_files.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace strata::mpiexec {

namespace fs = std::filesystem;

std::string shm_prefix(const std::string& nspace) {
  std::string prefix = "strata_";
  for (char c : nspace) prefix += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return prefix + "_";
}

SessionFiles::SessionFiles(const std::string& nspace) : shm_prefix_(shm_prefix(nspace)) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/strata-mpiexec-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data()))
    throw std::runtime_error("cannot create a temp dir from " + pattern + ": " + std::strerror(errno));
  tmpdir_ = buffer.data();
}

void SessionFiles::remove() {
  std::error_code ignored;
  if (!tmpdir_.empty()) fs::remove_all(tmpdir_, ignored);
  tmpdir_.clear();
  for (const auto& entry : fs::directory_iterator("/dev/shm", ignored))
    if (entry.path().filename().string().starts_with(shm_prefix_)) fs::remove(entry.path(), ignored);
}

}  // namespace strata::mpiexec
