#include "comm/context_ids.hpp"

#include <bit>

#include "runtime/lasting.hpp"

namespace strata::comm {
namespace {

uint64_t bit(int slot) { return uint64_t{1} << (slot % 64); }

}  // namespace

ContextPool::ContextPool() : free_(kMaskWords, ~uint64_t{0}), claimed_(kMaskWords, 0) {
  for (int s = 0; s < kReservedSlots; ++s) free_[s / 64] &= ~bit(s);
}

std::optional<int> ContextPool::lowest(const SlotMask& agreed) {
  for (std::size_t w = 0; w < agreed.size(); ++w)
    if (agreed[w] != 0) return static_cast<int>(w * 64 + std::countr_zero(agreed[w]));
  return std::nullopt;
}

SlotMask ContextPool::claim(const SlotMask& wanted, bool& contended) {
  SlotMask got(kMaskWords);
  contended = false;
  for (int w = 0; w < kSharedWords; ++w) {
    contended |= (wanted[w] & claimed_[w]) != 0;
    got[w] = wanted[w] & free_[w];
    free_[w] &= ~got[w];
    claimed_[w] |= got[w];
  }
  return got;
}

void ContextPool::settle(const SlotMask& claimed, std::optional<int> slot) {
  for (int w = 0; w < kMaskWords; ++w) {
    uint64_t back = claimed[w];
    if (slot && *slot / 64 == w) back &= ~bit(*slot);
    free_[w] |= back;
    claimed_[w] &= ~claimed[w];
  }
}

std::optional<int> ContextPool::take_local() {
  uint64_t& word = free_[kLocalWord];
  if (word == 0) return std::nullopt;
  const int bit_index = std::countr_zero(word);
  word &= word - 1;
  return kLocalWord * 64 + bit_index;
}

void ContextPool::release(int slot) { free_[slot / 64] |= bit(slot); }
bool ContextPool::is_free(int slot) const { return (free_[slot / 64] & bit(slot)) != 0; }

ContextPool& context_pool() {
  static auto& pool = runtime::lasting<ContextPool>();
  return pool;
}

}  // namespace strata::comm
