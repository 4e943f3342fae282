// The shared-memory reader-writer lock of lock.hpp.
#include "rma/lock.hpp"

#include "runtime/progress.hpp"

namespace strata::rma {

bool LockWord::try_shared() {
  std::int64_t v = ref().load(std::memory_order_relaxed);
  while (v != kExclusive)
    if (ref().compare_exchange_weak(v, v + 1, std::memory_order_acquire, std::memory_order_relaxed)) return true;
  return false;
}

bool LockWord::try_exclusive() {
  std::int64_t expected = 0;
  return ref().compare_exchange_strong(expected, kExclusive, std::memory_order_acquire, std::memory_order_relaxed);
}

void LockWord::acquire_shared() {
  if (!try_shared()) runtime::wait_until([&] { return try_shared(); });
}

void LockWord::acquire_exclusive() {
  if (!try_exclusive()) runtime::wait_until([&] { return try_exclusive(); });
}

void LockWord::release_shared() { ref().fetch_sub(1, std::memory_order_release); }

void LockWord::release_exclusive() { ref().store(0, std::memory_order_release); }

}  // namespace strata::rma
