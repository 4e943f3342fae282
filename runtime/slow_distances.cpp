#include "runtime/slow_distances.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace strata::runtime {
namespace {

// 16 KiB copies (rep movsb's range) at every distance, each distance's best of 3, so that a preempted copy does not
// count.
std::uint64_t measure() {
  constexpr std::size_t kBytes = 16 * 1024;
  std::vector<char> area(2 * kBytes + 3 * 4096, 1);  // two page-aligned buffers, 64 bytes to spare after `to`
  char* from = area.data() + (4096 - reinterpret_cast<std::uintptr_t>(area.data()) % 4096);
  char* to = from + kBytes + 4096;
  using Clock = std::chrono::steady_clock;
  double best_ns[64];
  for (int d = 0; d < 64; ++d) {
    best_ns[d] = 1e30;
    for (int attempt = 0; attempt < 4; ++attempt) {  // the first warms the lines
      const Clock::time_point start = Clock::now();
      std::memcpy(to + d, from, kBytes);
      asm volatile("" : : "r"(to) : "memory");  // the copy is not optimised away
      const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
      if (attempt > 0) best_ns[d] = std::min(best_ns[d], ns);
    }
  }
  return slow_distances_of(best_ns);
}

}  // namespace

std::uint64_t slow_distances_of(const double (&best_ns)[64]) {
  std::uint64_t slow = 0;
  for (int d = 1; d < 64; ++d)
    if (best_ns[d] > 8 * best_ns[0]) slow |= std::uint64_t{1} << d;
  return slow;
}

std::optional<std::uint64_t> parse_distances(std::string_view text) {
  if (text == "none") return 0;
  const auto distance = [](std::string_view digits) -> std::optional<int> {
    int n = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (error != std::errc{} || end != digits.data() + digits.size() || n < 1 || n > 63) return std::nullopt;
    return n;
  };
  std::uint64_t slow = 0;
  for (;;) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    const std::size_t dash = item.find('-');
    const std::optional<int> first = distance(item.substr(0, dash));
    const std::optional<int> last = dash == std::string_view::npos ? first : distance(item.substr(dash + 1));
    if (!first || !last || *last < *first) return std::nullopt;
    for (int d = *first; d <= *last; ++d) slow |= std::uint64_t{1} << d;
    if (comma == std::string_view::npos) return slow;
    text.remove_prefix(comma + 1);
  }
}

std::string format_distances(std::uint64_t slow) {
  std::string text;
  for (int d = 1; d < 64; ++d) {
    if ((slow >> d & 1) == 0) continue;
    int last = d;
    while (last + 1 < 64 && (slow >> (last + 1) & 1) != 0) ++last;
    text += (text.empty() ? "" : ",") + std::to_string(d) + (last > d ? "-" + std::to_string(last) : "");
    d = last;
  }
  return text.empty() ? "none" : text;
}

std::uint64_t slow_rep_movsb_distances() {
  static const std::uint64_t slow = [] {
    const char* setting = std::getenv("STRATA_SLOW_COPY_DISTANCES");
    if (setting == nullptr || *setting == '\0') return measure();
    if (std::optional<std::uint64_t> given = parse_distances(setting)) return *given;
    std::fprintf(stderr,
                 "strata: STRATA_SLOW_COPY_DISTANCES=\"%s\" is not a list of distances in 1-63 (\"1-15,40\") or "
                 "\"none\"; measuring them instead\n",
                 setting);
    return measure();
  }();
  return slow;
}

}  // namespace strata::runtime
