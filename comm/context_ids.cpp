#include "comm/context_ids.hpp"

#include <bit>

namespace strata::comm {

ContextPool::ContextPool() : free_(kContextSlots / 64, ~uint64_t{0}) {
  for (int s = 0; s < kReservedSlots; ++s) take(s);
}

std::optional<int> ContextPool::lowest(const SlotMask& agreed) {
  for (std::size_t w = 0; w < agreed.size(); ++w)
    if (agreed[w] != 0) return static_cast<int>(w * 64 + std::countr_zero(agreed[w]));
  return std::nullopt;
}

void ContextPool::take(int slot) { free_[slot / 64] &= ~(uint64_t{1} << (slot % 64)); }
void ContextPool::release(int slot) { free_[slot / 64] |= uint64_t{1} << (slot % 64); }
bool ContextPool::is_free(int slot) const { return (free_[slot / 64] >> (slot % 64)) & 1; }

ContextPool& context_pool() {
  static ContextPool pool;
  return pool;
}

}  // namespace strata::comm
