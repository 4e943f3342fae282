// Context ids: every communicator owns kContextsPerComm consecutive ids (point-to-point, then collectives), i.e.
// one "slot". A new communicator's slot must be free at every one of its members, so creation agrees on it: each
// member contributes its mask of free slots, the masks are ANDed across the members, and all take the lowest slot
// free everywhere (MPICH's scheme). Disjoint new communicators made by one split share that slot safely, since no
// process belongs to two of them. A freed slot becomes free again locally; it is reused once free everywhere.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace strata::comm {

constexpr int kContextSlots = 8192;  // communicators alive at once per process
constexpr int kReservedSlots = 2;    // MPI_COMM_WORLD, MPI_COMM_SELF

using SlotMask = std::vector<uint64_t>;  // bit set = slot free

class ContextPool {
 public:
  ContextPool();
  const SlotMask& free_mask() const { return free_; }
  static std::optional<int> lowest(const SlotMask& agreed);  // the lowest slot free in `agreed`
  void take(int slot);
  void release(int slot);
  bool is_free(int slot) const;

 private:
  SlotMask free_;
};

ContextPool& context_pool();

}  // namespace strata::comm
