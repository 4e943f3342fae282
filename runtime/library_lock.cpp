#include "runtime/library_lock.hpp"

#include <sched.h>

#include <cstdint>
#include <mutex>

namespace strata::runtime {
namespace library_lock_detail {

std::atomic<bool> enabled{false};
std::atomic<int> blocked{0};

namespace {
std::mutex g_mutex;
std::atomic<std::uint32_t> g_acquisitions{0};  // changes each time some thread takes the lock
thread_local int t_depth = 0;                  // this thread's nesting of held scopes; > 0 means it holds the lock
}  // namespace

void lock() {
  if (t_depth++ > 0) return;
  if (!g_mutex.try_lock()) {
    blocked.fetch_add(1);
    g_mutex.lock();
    blocked.fetch_sub(1);
  }
  g_acquisitions.fetch_add(1, std::memory_order_relaxed);
}

void unlock() {
  if (--t_depth == 0) g_mutex.unlock();
}

void hand_over() {
  if (t_depth == 0) return;  // a wait outside any call (the library's own start-up)
  const int depth = t_depth;
  const std::uint32_t seen = g_acquisitions.load(std::memory_order_relaxed);
  g_mutex.unlock();
  // Until a blocked thread has had the lock: releasing alone would let this thread take it straight back.
  while (g_acquisitions.load(std::memory_order_relaxed) == seen && blocked.load() > 0) sched_yield();
  t_depth = 0;
  lock();
  t_depth = depth;
}

}  // namespace library_lock_detail

void enable_library_lock() { library_lock_detail::enabled.store(true); }

}  // namespace strata::runtime
