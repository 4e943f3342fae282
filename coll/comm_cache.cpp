#include "coll/comm_cache.hpp"

#include <algorithm>

#include "coll/selection.hpp"
#include "runtime/lasting.hpp"
#include "runtime/state.hpp"

namespace strata::coll {
namespace {

// A collective with more scratch than this is not kept: one huge call must not pin its memory for the
// communicator's lifetime. Behind the most recent one, a collective keeps at most kMaxScratchBehind.
constexpr std::size_t kMaxKeptScratch = std::size_t{16} << 20;
constexpr std::size_t kMaxScratchBehind = std::size_t{256} << 10;  // rebuilding costs little beside using that much

}  // namespace

Channel channel_of(const comm::Communicator& c) {
  if (c.inter()) {  // both groups, the one holding the lowest world rank first (args.hpp: inter)
    const bool local_first = inter_local_first(c);
    std::vector<int> both(local_first ? c.world_ranks : c.remote_world_ranks);
    const std::vector<int>& second = local_first ? c.remote_world_ranks : c.world_ranks;
    both.insert(both.end(), second.begin(), second.end());
    return {c.collective_context(), local_first ? c.rank : c.peer_count() + c.rank, std::move(both), nullptr, nullptr};
  }
  Channel channel{c.collective_context(), c.rank, c.world_ranks, nullptr, nullptr};
  if (c.collectives) {
    channel.node = c.collectives->node_memory();
    channel.node_index = c.collectives->node_index();
  }
  return channel;
}

bool inter_local_first(const comm::Communicator& c) {
  return *std::min_element(c.world_ranks.begin(), c.world_ranks.end()) <
         *std::min_element(c.remote_world_ranks.begin(), c.remote_world_ranks.end());
}

bool CommCache::spans_nodes(const comm::Communicator& c) {
  if (!spans_nodes_) spans_nodes_ = coll::spans_nodes(c);
  return *spans_nodes_;
}

// The world ranks of `c`'s members on this node, ascending.
static std::vector<int> node_members(const comm::Communicator& c) {
  const std::vector<uint32_t>& node_of = runtime::state().world.node_of_rank;
  const uint32_t mine = node_of[static_cast<std::size_t>(c.world_rank(c.rank))];
  std::vector<int> members;
  for (int w : c.world_ranks)
    if (node_of[static_cast<std::size_t>(w)] == mine) members.push_back(w);
  std::sort(members.begin(), members.end());
  return members;
}

bool CommCache::has_node_memory(const comm::Communicator& c) {
  if (attached_) return node_ != nullptr;
  if (node_members_.empty()) node_members_ = node_members(c);
  return node_members_.size() >= 2 && node_members_.size() <= NodeSegment::kMostRanks;
}

Status CommCache::attach_node_memory(const comm::Communicator& c) {
  if (attached_) return Status::success();
  if (node_members_.empty()) node_members_ = node_members(c);
  attached_ = true;
  Status s;
  node_ = NodeSegment::attach(runtime::state().world.job_id, c.collective_context(), node_members_, s);
  if (!node_) return s;
  auto index = std::make_shared<std::vector<int>>(c.size, -1);
  for (int r = 0; r < c.size; ++r) {
    auto at = std::lower_bound(node_members_.begin(), node_members_.end(), c.world_rank(r));
    if (at != node_members_.end() && *at == c.world_rank(r)) (*index)[r] = static_cast<int>(at - node_members_.begin());
  }
  node_index_ = std::move(index);
  return s;
}

std::shared_ptr<const Hierarchy> CommCache::hierarchy(const comm::Communicator& c, Operation op,
                                                     const std::string& forced) {
  if (!may_use_topology(op, forced, spans_nodes(c))) return nullptr;
  if (!looked_up_) {
    Status ignored;
    hierarchy_ = hierarchy_of(c, ignored);
    looked_up_ = true;
  }
  return hierarchy_;
}

CommCache::Kept& CommCache::bring_forward(Recent& kept, std::size_t i) {
  const auto at = kept.begin() + static_cast<std::ptrdiff_t>(i);
  std::rotate(kept.begin(), at, at + 1);
  return kept.front();
}

void CommCache::forget_keys() {
  for (Recent& kept : kept_)
    for (Kept& k : kept) k.key = kNoKey;
}

const std::shared_ptr<Collective>& CommCache::repeat(Operation op, const CallKey& key) {
  static auto& none = runtime::lasting<const std::shared_ptr<Collective>>();
  if (key == kNoKey || overrides_version_ != algorithm_overrides_version) return none;
  Recent& kept = kept_[static_cast<std::size_t>(op)];
  for (std::size_t i = 0; i < kept.size(); ++i)
    if (kept[i].collective && kept[i].key == key)
      return kept[i].collective->running() ? none : bring_forward(kept, i).collective;
  return none;
}

Status CommCache::get(Operation op, const Args& args, const comm::Communicator& c, const std::string& forced,
                      const CallKey& key, std::shared_ptr<Collective>& out) {
  // An algorithm override written through MPI_T since (selection.hpp) may choose differently: every rank drops its
  // cached collectives alike, whatever its buffers, so all ranks select again.
  if (overrides_version_ != algorithm_overrides_version) {
    kept_ = {};
    overrides_version_ = algorithm_overrides_version;
  }
  Recent& kept = kept_[static_cast<std::size_t>(op)];
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const Collective* k = kept[i].collective.get();
    if (k != nullptr && !k->running() && k->args() == args && k->forced() == forced) {
      Kept& found = bring_forward(kept, i);
      found.key = key;
      out = found.collective;
      return Status::success();
    }
  }
  std::unique_ptr<Collective> made;
  if (Status s = Collective::create(op, args, channel_of(c), forced, made); !s.ok()) return s;
  out = std::move(made);
  if (out->scratch_bytes() > kMaxKeptScratch) return Status::success();
  // The least recent goes; the one that was most recent stays behind it only with little scratch.
  Kept& front = bring_forward(kept, kept.size() - 1);
  front = {out, key};
  if (kept[1].collective && kept[1].collective->scratch_bytes() > kMaxScratchBehind) kept[1] = {};
  return Status::success();
}

}  // namespace strata::coll
