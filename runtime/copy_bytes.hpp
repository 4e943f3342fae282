// The library's bulk copy of bytes (packing, unpacking, rings, the node's shared memory): memcpy, except where
// glibc's memcpy is slow: `rep movsb` at a slow distance (slow_distances.hpp), the usual case when a block leaves
// page-aligned library memory (a node segment's payload) for a buffer from malloc, which puts large blocks 16 bytes
// into a page. Such copies go through 32-byte vector loads and stores instead: 41-78 GB/s at every distance.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/slow_distances.hpp"

namespace strata::runtime {

void copy_by_vectors(void* to, const void* from, std::size_t bytes);
void stream_bytes(void* to, const void* from, std::size_t bytes);  // streaming stores: past this core's cache

// Whether `rep movsb` from `from` to `to` runs at a slow distance (for copies of 2 KiB and more).
inline bool slow_rep_movsb_distance(const void* to, const void* from) {
  const std::uintptr_t distance =
      (reinterpret_cast<std::uintptr_t>(to) - reinterpret_cast<std::uintptr_t>(from)) % 4096;
  return distance < 64 && (slow_rep_movsb_distances() >> distance & 1) != 0;
}

inline void copy_bytes(void* to, const void* from, std::size_t bytes) {
  constexpr std::size_t kRepMovsbFrom = 2048;  // below, glibc's memcpy uses vector moves itself
  if (bytes < kRepMovsbFrom || !slow_rep_movsb_distance(to, from))
    std::memcpy(to, from, bytes);
  else
    copy_by_vectors(to, from, bytes);
}

// Copies into memory that another process reads next (a ring record's payload, a node-memory block). Large ones
// go with ordinary stores while those are fast, and with streaming stores (straight to memory) while they are not:
// on this VM the two processors exchange cache lines in 60-120 ns, then in 400-600 ns, for seconds to minutes at a
// time (bench/core_latency.c). In the slow state each line of such memory was last read by the reader's distant
// cache, so the writer's store must first take it back, and the reader's load must fetch it from the writer's cache
// again. Two processes passing 1 MiB through a 256 KiB ring in 64 KiB records took 160-255 us there against 50-90
// in the fast state, and 76-92 in both with streaming stores (a store to memory, a load from memory); 2-rank
// collectives through Strata's rings, before: bcast of 1 MiB (pipeline) 55-90 / 200-280 us, allgather and alltoall
// of 64 KiB 8-11 / 20-41 (Open MPI 96-139, 11-22 in both). The writer sees the state in its own copy's
// speed (64 KiB: 4-5 us fast, 13.6 slow; streamed 3.2-3.7 in both), so it times each ordinary copy, streams while
// that was slow, and times an ordinary one again every 32nd copy.
class OutboundCopy {
 public:
  void copy(void* to, const void* from, std::size_t bytes);

 private:
  static constexpr std::size_t kTimedFrom = 16 * 1024;  // smaller copies: ordinary stores, untimed
  static constexpr double kSlowNsPerByte = 0.13;        // 7.7 GB/s: between the two states' 15 and 5
  static constexpr uint32_t kRetryEvery = 32;
  bool streaming_ = false;  // the last timed copy was slow
  uint32_t streamed_ = 0;
};

}  // namespace strata::runtime
