#include "coll/comm_cache.hpp"

namespace strata::coll {
namespace {

// A collective with more scratch than this is not kept: one huge call must not pin its memory for the
// communicator's lifetime.
constexpr std::size_t kMaxKeptScratch = std::size_t{16} << 20;

}  // namespace

Status CommCache::get(Operation op, const Args& args, const comm::Communicator& c, const std::string& forced,
                      std::shared_ptr<Collective>& out) {
  std::shared_ptr<Collective>& last = last_[static_cast<std::size_t>(op)];
  if (last && !last->running() && last->args() == args && last->forced() == forced) {
    out = last;
    return Status::success();
  }
  std::unique_ptr<Collective> made;
  const Channel channel{c.collective_context(), c.rank, c.world_ranks};
  if (Status s = Collective::create(op, args, channel, forced, made); !s.ok()) return s;
  out = std::move(made);
  if (out->scratch_bytes() <= kMaxKeptScratch)
    last = out;
  else
    last.reset();
  return Status::success();
}

}  // namespace strata::coll
