#include "runtime/prefault.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace strata::runtime {

void prefault(const void* at, std::size_t bytes, bool for_writing) {
#if defined(MADV_POPULATE_READ) && defined(MADV_POPULATE_WRITE)
  if (bytes == 0) return;
  static const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto from = reinterpret_cast<uintptr_t>(at);
  const uintptr_t start = from & ~(page - 1), end = (from + bytes + page - 1) & ~(page - 1);
  madvise(reinterpret_cast<void*>(start), end - start, for_writing ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
#else
  (void)at, (void)bytes, (void)for_writing;
#endif
}

}  // namespace strata::runtime
