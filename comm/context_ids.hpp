// Context ids: every communicator owns kContextsPerComm consecutive ids (point-to-point, collectives, partitioned),
// one "slot". A new communicator's slot must be free at every one of its members, so creation agrees on it
// (comm/slot_agreement.hpp): each member offers a mask of free slots, the masks are ANDed across the members, and
// all take the lowest slot free everywhere (MPICH's scheme). Disjoint new communicators made by one split share
// that slot safely, since no process belongs to two of them.
//
// Creations may overlap in time on one process (an MPI_Comm_idup pending while a blocking dup runs), so an offer
// is a claim: the offered slots leave the free set until the agreement settles, and no other creation can take
// them meanwhile. A freed slot becomes free again locally; it is reused once free everywhere.
//
// Under MPI_THREAD_MULTIPLE, blocking creations run in several threads at once. Each would claim every free slot,
// so one process's claims would go to one creation and another's to another, and neither would ever find a common
// slot. So they queue by priority (the parent's context, then the tag: the same on every member, as in MPICH):
// only the first claims, the others offer nothing until it is done.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace strata::comm {

constexpr int kContextSlots = 8192;  // communicators alive at once per process
constexpr int kReservedSlots = 2;    // MPI_COMM_WORLD, MPI_COMM_SELF
constexpr int kMaskWords = kContextSlots / 64;
// The last word is for communicators of one process (MPI_Comm_dup(MPI_COMM_SELF), splits into singletons): their
// slot matters to nobody else, so it needs no agreement. Agreements never offer this word, so a one-process creation
// neither waits for another creation's claim (which may last as long as that creation waits for other processes,
// under MPI_THREAD_MULTIPLE forever) nor takes a slot an agreement may be settling on.
constexpr int kLocalWord = kMaskWords - 1;
constexpr int kSharedWords = kLocalWord;  // the words agreements offer: 0 .. kLocalWord - 1

using SlotMask = std::vector<uint64_t>;  // bit set = slot free (or offered)

class ContextPool {
 public:
  ContextPool();
  static std::optional<int> lowest(const SlotMask& agreed);  // the lowest slot set in `agreed`

  // The free slots of `wanted` (outside kLocalWord), now claimed by the caller; `contended` says whether another
  // creation's claim holds some of `wanted`.
  SlotMask claim(const SlotMask& wanted, bool& contended);
  // Ends a claim: `slot` (one of the claimed slots) is taken, the others are free again.
  void settle(const SlotMask& claimed, std::optional<int> slot);
  std::optional<int> take_local();  // a free slot of kLocalWord, now taken
  void release(int slot);  // a communicator's slot, at MPI_Comm_free
  bool is_free(int slot) const;

  using Priority = std::pair<uint32_t, int>;  // a blocking creation's parent context and tag
  void enter(Priority p) { blocking_.insert(p); }
  void leave(Priority p) { blocking_.erase(p); }
  bool first(Priority p) const { return *blocking_.begin() == p; }  // after enter(p)

 private:
  SlotMask free_;
  SlotMask claimed_;  // claimed by agreements in progress
  std::set<Priority> blocking_;
};

ContextPool& context_pool();

}  // namespace strata::comm
