#include "comm/slot_agreement.hpp"

#include "comm/internal_collectives.hpp"

namespace strata::comm {
namespace {

constexpr uint64_t kUncontended = 1;

}  // namespace

SlotAgreement::SlotAgreement(uint32_t context, int rank, std::vector<int> world_ranks, int tag, Offer offer,
                             int first_word)
    : context_(context), rank_(rank), world_ranks_(std::move(world_ranks)), tag_(tag), offer_(offer),
      first_word_(first_word % kSharedWords) {
  send_.complete = recv_.complete = true;
  exhausted_.set(kLocalWord);  // never offered
  if (world_ranks_.size() == 1) {
    if (const std::optional<int> local = context_pool().take_local()) {
      slot_ = *local;
      done_ = true;
      return;
    }
  }
  if (offer_ == Offer::Everything) context_pool().enter(priority());
  start_round();
}

SlotAgreement::~SlotAgreement() {
  if (!done_) {  // abandoned (at exit): give the claim back
    context_pool().settle(claimed_, std::nullopt);
    finish();
  }
}

void SlotAgreement::finish() {
  done_ = true;
  if (offer_ == Offer::Everything) context_pool().leave(priority());
}

int SlotAgreement::word() const { return (first_word_ + round_) % kSharedWords; }

SlotMask SlotAgreement::wanted() const {
  if (offer_ == Offer::Everything) return SlotMask(kMaskWords, ~uint64_t{0});
  SlotMask one(kMaskWords, 0);
  one[word()] = ~uint64_t{0};
  return one;
}

void SlotAgreement::start_round() {
  bool contended = true;
  if (offer_ == Offer::Everything && !context_pool().first(priority()))
    claimed_.assign(kMaskWords, 0);
  else
    claimed_ = context_pool().claim(wanted(), contended);
  if (offer_ == Offer::Everything)
    acc_ = claimed_;
  else
    acc_.assign(1, claimed_[word()]);
  acc_.push_back(contended ? 0 : kUncontended);
  incoming_.assign(acc_.size(), 0);
  distance_ = 1;
  if (world_ranks_.size() == 1)
    finish_round();
  else
    post_step();
}

void SlotAgreement::post_step() {
  const int p = static_cast<int>(world_ranks_.size());
  const View v{context_, rank_, &world_ranks_};
  const std::size_t bytes = acc_.size() * sizeof(uint64_t);
  post_recv(recv_, v, (rank_ - distance_ + p) % p, incoming_.data(), bytes, tag_);
  post_send(send_, v, (rank_ + distance_) % p, acc_.data(), bytes, tag_);
}

bool SlotAgreement::poll() {
  if (done_ || !send_.complete || !recv_.complete) return false;
  if (next_round_) {
    next_round_ = false;
    start_round();
    return true;
  }
  for (std::size_t i = 0; i < acc_.size(); ++i) acc_[i] &= incoming_[i];
  distance_ *= 2;
  if (distance_ < static_cast<int>(world_ranks_.size()))
    post_step();
  else
    finish_round();
  return true;
}

void SlotAgreement::finish_round() {
  SlotMask common(kMaskWords, 0);
  if (offer_ == Offer::Everything)
    std::copy(acc_.begin(), acc_.end() - 1, common.begin());
  else
    common[word()] = acc_[0];
  const std::optional<int> slot = ContextPool::lowest(common);
  context_pool().settle(claimed_, slot);
  claimed_.assign(kMaskWords, 0);
  if (slot) {
    slot_ = *slot;
    finish();
    return;
  }
  if (acc_.back() & kUncontended) {  // every member saw these slots taken: they are really in use
    if (offer_ == Offer::Everything)
      exhausted_.set();
    else
      exhausted_.set(word());
  }
  if (exhausted_.all()) {
    status_ = error(kErrOther, "no free context id: " + std::to_string(kContextSlots) +
                                   " communicators are alive on some member");
    finish();
    return;
  }
  ++round_;
  next_round_ = true;  // not at once: a lone member would recurse while another creation holds the slots
}

}  // namespace strata::comm
