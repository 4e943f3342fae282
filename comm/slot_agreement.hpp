// Agreeing on a context slot, one round at a time, without blocking: MPI_Comm_idup progresses it from the progress
// engine, the blocking creators run the same machine to completion.
//
// A round: every member claims the free slots it offers (comm/context_ids.hpp), the offers are ANDed by
// dissemination (ceil(log2 p) exchanges), the lowest common slot is taken and the rest given back. A blocking
// creation offers every slot; a nonblocking one offers one 64-slot word, a different word each round. So while an
// idup is pending on a process, a blocking creation there still finds every slot outside that one word, and
// several pending idups rarely want the same word. A round that finds nothing is repeated (on the next word); the
// agreement fails only once every word has come back empty in rounds where no member's offer was cut by another
// creation's claim, i.e. when the slots are really exhausted. A blocking creation that is not first in the pool's
// queue (threads creating at once, context_ids.hpp) offers nothing in its rounds until it is. A one-member
// agreement takes a slot of the local word at once when one is free.
#pragma once
#include <bitset>
#include <cstdint>
#include <optional>
#include <vector>

#include "comm/context_ids.hpp"
#include "runtime/status.hpp"
#include "transport/request.hpp"

namespace strata::comm {

class SlotAgreement {
 public:
  enum class Offer { Everything, OneWordPerRound };

  // Over the members `world_ranks` (I am `rank`), on `context` with `tag`, both unique to this agreement among
  // those in progress; `first_word` is where a OneWordPerRound agreement starts (the same on every member).
  SlotAgreement(uint32_t context, int rank, std::vector<int> world_ranks, int tag, Offer offer, int first_word);
  SlotAgreement(const SlotAgreement&) = delete;  // the transport holds pointers into it
  SlotAgreement& operator=(const SlotAgreement&) = delete;
  ~SlotAgreement();

  bool poll();  // advances as far as messages allow; true if it moved
  bool done() const { return done_; }
  const Status& status() const { return status_; }
  int slot() const { return slot_; }  // once done and ok: taken here

 private:
  void start_round();
  void post_step();
  void finish_round();
  void finish();
  ContextPool::Priority priority() const { return {context_, tag_}; }
  SlotMask wanted() const;
  int word() const;

  uint32_t context_;
  int rank_;
  std::vector<int> world_ranks_;
  int tag_;
  Offer offer_;
  int first_word_;

  int round_ = 0;
  bool next_round_ = false;  // the last round found nothing: start another at the next poll
  int distance_ = 1;
  SlotMask claimed_;
  std::vector<uint64_t> acc_, incoming_;  // offered words, then a flag word (bit 0: nobody was contended)
  transport::Request send_, recv_;
  std::bitset<kMaskWords> exhausted_;     // words found empty without contention

  bool done_ = false;
  Status status_;
  int slot_ = -1;
};

}  // namespace strata::comm
