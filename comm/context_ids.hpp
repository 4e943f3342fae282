// Context ids: every communicator owns kContextsPerComm consecutive ids (point-to-point, collectives, partitioned),
// one "slot". A new communicator's slot must be free at every one of its members, so creation agrees on it
// (comm/slot_agreement.hpp): each member offers a mask of free slots, the masks are ANDed across the members, and
// all take the lowest slot free everywhere (MPICH's scheme). Disjoint new communicators made by one split share
// that slot safely, since no process belongs to two of them.
//
// Creations may overlap in time on one process (an MPI_Comm_idup pending while a blocking dup runs), so an offer
// is a claim: the offered slots leave the free set until the agreement settles, and no other creation can take
// them meanwhile. A freed slot becomes free again locally; it is reused once free everywhere.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace strata::comm {

constexpr int kContextSlots = 8192;  // communicators alive at once per process
constexpr int kReservedSlots = 2;    // MPI_COMM_WORLD, MPI_COMM_SELF
constexpr int kMaskWords = kContextSlots / 64;

using SlotMask = std::vector<uint64_t>;  // bit set = slot free (or offered)

class ContextPool {
 public:
  ContextPool();
  static std::optional<int> lowest(const SlotMask& agreed);  // the lowest slot set in `agreed`

  // The free slots of `wanted`, now claimed by the caller; `contended` says whether another creation's claim
  // holds some of `wanted`.
  SlotMask claim(const SlotMask& wanted, bool& contended);
  // Ends a claim: `slot` (one of the claimed slots) is taken, the others are free again.
  void settle(const SlotMask& claimed, std::optional<int> slot);
  void release(int slot);  // a communicator's slot, at MPI_Comm_free
  bool is_free(int slot) const;

 private:
  SlotMask free_;
  SlotMask claimed_;  // claimed by agreements in progress
};

ContextPool& context_pool();

}  // namespace strata::comm
