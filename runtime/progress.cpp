#include "runtime/progress.hpp"

#include <algorithm>

namespace strata::runtime {

constexpr unsigned kPollsPerIdle = 8;  // empty polls that count as one idle pass of a wait
namespace {

struct Entry {
  Poller poller;
  void* context;
  bool operator==(const Entry&) const = default;
};
// Reserved when the library loads, not at the first add_poller: that may be inside an MPI_Start, which must not
// allocate (a persistent collective's first start that does not finish at once, after many that did).
std::vector<Entry> g_pollers = [] {
  std::vector<Entry> v;
  v.reserve(16);
  return v;
}();
int g_spin_limit = 1000;

}  // namespace

void add_poller(Poller poller, void* context) { g_pollers.push_back({poller, context}); }

void remove_poller(Poller poller, void* context) {
  g_pollers.erase(std::remove(g_pollers.begin(), g_pollers.end(), Entry{poller, context}), g_pollers.end());
}

bool progress() {
  bool any = false;
  // By index and by value: a poller may remove itself (or add another) while it runs.
  for (std::size_t i = 0; i < g_pollers.size(); ++i) {
    const Entry e = g_pollers[i];
    any |= e.poller(e.context);
  }
  return any;
}

void set_spin_limit(int passes) { g_spin_limit = passes; }
int spin_limit() { return g_spin_limit; }

void polled(bool found) {
  static Backoff backoff;
  static unsigned empty = 0;
  if (found) {
    backoff.made_progress();
    empty = 0;
  } else if (++empty % kPollsPerIdle == 0) {
    backoff.idle();
  }
}

}  // namespace strata::runtime
