#include "coll/comm_cache.hpp"

#include "coll/selection.hpp"

namespace strata::coll {
namespace {

// A collective with more scratch than this is not kept: one huge call must not pin its memory for the
// communicator's lifetime.
constexpr std::size_t kMaxKeptScratch = std::size_t{16} << 20;

}  // namespace

std::shared_ptr<const Hierarchy> CommCache::hierarchy(const comm::Communicator& c, Operation op,
                                                     const std::string& forced) {
  if (!spans_nodes_) spans_nodes_ = spans_nodes(c);
  if (!may_use_topology(op, forced, *spans_nodes_)) return nullptr;
  if (!looked_up_) {
    Status ignored;
    hierarchy_ = hierarchy_of(c, ignored);
    looked_up_ = true;
  }
  return hierarchy_;
}

std::shared_ptr<Collective> CommCache::repeat(Operation op, const CallKey& key) const {
  const auto i = static_cast<std::size_t>(op);
  const std::shared_ptr<Collective>& last = last_[i];
  if (key == kNoKey || keys_[i] != key || !last || last->running()) return nullptr;
  return last;
}

Status CommCache::get(Operation op, const Args& args, const comm::Communicator& c, const std::string& forced,
                      const CallKey& key, std::shared_ptr<Collective>& out) {
  const auto i = static_cast<std::size_t>(op);
  std::shared_ptr<Collective>& last = last_[i];
  keys_[i] = kNoKey;
  if (last && !last->running() && last->args() == args && last->forced() == forced) {
    out = last;
    keys_[i] = key;
    return Status::success();
  }
  std::unique_ptr<Collective> made;
  if (Status s = Collective::create(op, args, channel_of(c), forced, made); !s.ok()) return s;
  out = std::move(made);
  if (out->scratch_bytes() <= kMaxKeptScratch) {
    last = out;
    keys_[i] = key;
  } else {
    last.reset();
  }
  return Status::success();
}

}  // namespace strata::coll
