#include "comm/create.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "comm/context_ids.hpp"
#include "comm/internal_collectives.hpp"
#include "comm/slot_agreement.hpp"
#include "runtime/progress.hpp"

namespace strata::comm {

Status agree_slot(const View& v, int tag, int& slot) {
  SlotAgreement agreement(v.context, v.rank, *v.world_ranks, tag, SlotAgreement::Offer::Everything, 0);
  runtime::wait_until([&] {
    agreement.poll();
    return agreement.done();
  });
  slot = agreement.slot();
  return agreement.status();
}

std::unique_ptr<Communicator> make(std::vector<int> world_ranks, int slot, int my_world_rank) {
  auto c = std::make_unique<Communicator>();
  set_slot(*c, slot);
  c->size = static_cast<int>(world_ranks.size());
  c->rank = static_cast<int>(std::find(world_ranks.begin(), world_ranks.end(), my_world_rank) - world_ranks.begin());
  c->world_ranks = std::move(world_ranks);
  return c;
}

View joined_view(const Communicator& c, std::vector<int>& members) {
  members = c.world_ranks;
  if (!c.inter()) return {c.collective_context(), c.rank, &members};
  members.insert(members.end(), c.remote_world_ranks.begin(), c.remote_world_ranks.end());
  std::sort(members.begin(), members.end());
  return {c.collective_context(), joined_index(members, c.world_rank(c.rank)), &members};
}

int joined_index(const std::vector<int>& sorted_members, int world_rank) {
  return static_cast<int>(std::lower_bound(sorted_members.begin(), sorted_members.end(), world_rank) -
                          sorted_members.begin());
}

namespace {

View parent_view(const Communicator& parent) { return {parent.collective_context(), parent.rank, &parent.world_ranks}; }

}  // namespace

std::vector<int> split_members(const std::vector<int>& colors, const std::vector<int>& keys, int color) {
  std::vector<int> members;
  for (int r = 0; r < static_cast<int>(colors.size()); ++r)
    if (colors[r] == color) members.push_back(r);
  std::stable_sort(members.begin(), members.end(), [&](int a, int b) { return keys[a] < keys[b]; });
  return members;
}

Status create_dup(const Communicator& parent, std::unique_ptr<Communicator>& out) {
  std::vector<int> joined;
  int slot = 0;
  if (Status s = agree_slot(joined_view(parent, joined), kTagAgree, slot); !s.ok()) return s;
  out = make(parent.world_ranks, slot, parent.world_rank(parent.rank));
  out->remote_world_ranks = parent.remote_world_ranks;
  out->topology = parent.topology;
  return {};
}

Status create_split(const Communicator& parent, int color, int key, std::unique_ptr<Communicator>& out) {
  const int mine[2] = {color, key};
  std::vector<char> blob(sizeof mine);
  std::memcpy(blob.data(), mine, sizeof mine);
  std::vector<int> joined;
  const View v = joined_view(parent, joined);
  const std::vector<char> all = allgather(v, blob, kTagAllgather);
  // The world ranks of the members of `group` (either side) that chose my color, in split order.
  const auto part = [&](const std::vector<int>& group) {
    std::vector<int> colors, keys;
    for (int r = 0; r < static_cast<int>(group.size()); ++r) {
      const int at = parent.inter() ? joined_index(joined, group[r]) : r;
      int chosen[2];
      std::memcpy(chosen, all.data() + at * sizeof chosen, sizeof chosen);
      colors.push_back(chosen[0]);
      keys.push_back(chosen[1]);
    }
    std::vector<int> world_ranks;
    for (int r : split_members(colors, keys, color)) world_ranks.push_back(group[r]);
    return world_ranks;
  };
  int slot = 0;  // every part of the split gets the same slot: the parts are disjoint
  if (Status s = agree_slot(v, kTagAgree, slot); !s.ok()) return s;
  std::vector<int> local, remote;
  if (color != kUndefined) {
    local = part(parent.world_ranks);
    if (parent.inter()) remote = part(parent.remote_world_ranks);
  }
  // Outside every part, or (intercommunicator) a color the other group did not choose: the slot stays ours.
  if (color == kUndefined || (parent.inter() && remote.empty())) {
    context_pool().release(slot);
    out.reset();
    return {};
  }
  out = make(std::move(local), slot, parent.world_rank(parent.rank));
  out->remote_world_ranks = std::move(remote);
  return {};
}

Status create_from_members(const Communicator& parent, const std::vector<int>& members,
                           std::unique_ptr<Communicator>& out) {
  int slot = 0;
  if (Status s = agree_slot(parent_view(parent), kTagAgree, slot); !s.ok()) return s;
  const int me = parent.world_rank(parent.rank);
  if (std::find(members.begin(), members.end(), me) == members.end()) {
    context_pool().release(slot);
    out.reset();
    return {};
  }
  out = make(members, slot, me);
  return {};
}

Status create_from_group(const Communicator& parent, const std::vector<int>& members, int tag,
                         std::unique_ptr<Communicator>& out) {
  const int me = parent.world_rank(parent.rank);
  View v{parent.collective_context(), static_cast<int>(std::find(members.begin(), members.end(), me) - members.begin()),
         &members};
  int slot = 0;
  if (Status s = agree_slot(v, create_group_tag(tag), slot); !s.ok()) return s;
  out = make(members, slot, me);
  return {};
}

std::unique_ptr<SlotAgreement> start_dup(Communicator& parent, std::unique_ptr<Communicator>& out) {
  std::vector<int> joined;
  const View v = joined_view(parent, joined);
  const uint32_t sequence = parent.idups_started++;
  const int tag = kTagIdupBase - static_cast<int>(sequence % (1u << 20));
  // Spread the first words offered by idups of different parents and of successive idups on one parent.
  const int first_word = static_cast<int>((static_cast<uint32_t>(parent.slot()) * 7 + sequence) % kMaskWords);
  out = make(parent.world_ranks, 0, parent.world_rank(parent.rank));
  out->remote_world_ranks = parent.remote_world_ranks;
  out->topology = parent.topology;
  return std::make_unique<SlotAgreement>(v.context, v.rank, std::move(joined), tag,
                                         SlotAgreement::Offer::OneWordPerRound, first_word);
}

void set_slot(Communicator& c, int slot) { c.context = static_cast<uint32_t>(slot) * kContextsPerComm; }

void release(const Communicator& c) { context_pool().release(c.slot()); }

}  // namespace strata::comm
