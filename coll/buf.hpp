// Where a schedule's data lies: user memory (an address fixed when the schedule is built, as the MPI call gave it)
// or the schedule's scratch (an offset, so that each run of the schedule has scratch of its own).
#pragma once
#include <cstddef>
#include <cstdint>

namespace strata::coll {

struct Buf {
  enum class Area : uint8_t { kUser, kScratch };
  Area area = Area::kUser;
  std::uintptr_t at = 0;  // kUser: the address; kScratch: the offset into scratch

  static Buf user(const void* p) { return {Area::kUser, reinterpret_cast<std::uintptr_t>(p)}; }
  static Buf scratch(std::size_t offset) { return {Area::kScratch, offset}; }
  Buf operator+(std::ptrdiff_t bytes) const { return {area, at + static_cast<std::uintptr_t>(bytes)}; }
};

}  // namespace strata::coll
