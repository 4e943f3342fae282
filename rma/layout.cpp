// The window layout rules (see layout.hpp).
#include "rma/layout.hpp"

#include <limits>
#include <string>

namespace strata::rma {
namespace {

constexpr std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

Status plan_layout(const std::vector<Contribution>& parts, bool noncontig, std::size_t page, SharedLayout& out) {
  // Nothing may come near the top of the address space: offsets are later added to a mapping's address.
  constexpr std::size_t kLimit = std::numeric_limits<std::size_t>::max() / 4;
  out = SharedLayout{};
  std::size_t cursor = 0;
  for (const Contribution& c : parts) {
    const auto size = static_cast<std::size_t>(c.size);
    if (noncontig) cursor = round_up(cursor, page);
    if (size > kLimit - cursor)
      return error(kErrSize, "the window's parts add up to more than " + std::to_string(kLimit) + " bytes");
    out.offsets.push_back(cursor);
    out.sizes.push_back(size);
    out.disp_units.push_back(c.disp_unit);
    cursor += size;
  }
  out.data_bytes = noncontig ? round_up(cursor, page) : cursor;
  out.lock_offset = round_up(out.data_bytes, page);
  out.segment_bytes = out.lock_offset + round_up(parts.size() * kLockWordBytes, page);
  return {};
}

int proc_null_target(const std::vector<std::size_t>& sizes) {
  for (std::size_t r = 0; r < sizes.size(); ++r)
    if (sizes[r] > 0) return static_cast<int>(r);
  return -1;
}

}  // namespace strata::rma
