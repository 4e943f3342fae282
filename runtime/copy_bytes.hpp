// The library's bulk copy of bytes (packing, unpacking, rings, the node's shared memory): memcpy, except where
// glibc's memcpy is slow. From 2112 bytes up to about the L2 size, glibc 2.36 copies with `rep movsb`, which on this
// machine's AMD EPYC runs at 2-3 GB/s instead of 40-50 when the destination lies 1 to 31 bytes past the source modulo
// 4 KiB (and at about 27 GB/s for 33 to 63): measured for 4 KiB to 256 KiB copies. That is the usual case when a
// block leaves page-aligned library memory (a node segment's payload) for a buffer from malloc, which puts large
// blocks 16 bytes into a page. Such copies go through 32-byte vector loads and stores instead: 41-78 GB/s at every
// distance. The kernel's copies (process_vm_readv) have the same slow distances: the transport then takes another way
// (transport/engine.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace strata::runtime {

void copy_by_vectors(void* to, const void* from, std::size_t bytes);

// Whether `rep movsb` from `from` to `to` runs at the slow distances above (for copies of 2 KiB and more).
inline bool slow_rep_movsb_distance(const void* to, const void* from) {
  const std::uintptr_t distance =
      (reinterpret_cast<std::uintptr_t>(to) - reinterpret_cast<std::uintptr_t>(from)) % 4096;
  return distance != 0 && distance < 64;
}

inline void copy_bytes(void* to, const void* from, std::size_t bytes) {
  constexpr std::size_t kRepMovsbFrom = 2048;  // below, glibc's memcpy uses vector moves itself
  // Computed first: inside the condition, GCC 12 warns falsely (-Wstringop-overflow) where a caller is inlined.
  const bool slow = slow_rep_movsb_distance(to, from);
  if (bytes >= kRepMovsbFrom && slow)
    copy_by_vectors(to, from, bytes);
  else
    std::memcpy(to, from, bytes);
}

}  // namespace strata::runtime
