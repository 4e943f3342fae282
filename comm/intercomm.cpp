#include "comm/intercomm.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>

#include "comm/create.hpp"
#include "runtime/progress.hpp"
#include "runtime/state.hpp"

namespace strata::comm {
namespace {

constexpr uint32_t kWorldCollectiveContext = 0 * kContextsPerComm + 1;  // MPI_COMM_WORLD holds slot 0
// The agreements' tags on it: comm/internal_collectives.hpp.

int user_tag(int tag) { return kTagIntercommBase - tag % (1 << 30); }
int hashed(const std::string& tag, int base, int bits) {
  return base - static_cast<int>(std::hash<std::string>{}(tag) % (std::size_t{1} << bits)) - 1;
}

// The intercommunicator of `local` and `remote` (world ranks in rank order, I am in `local`), its slot agreed on by
// both groups over the world's collective context with `tag`.
Status make_intercomm(std::vector<int> local, std::vector<int> remote, int me, int tag,
                      std::unique_ptr<Communicator>& out) {
  auto made = make(std::move(local), 0, me);
  made->remote_world_ranks = std::move(remote);
  std::vector<int> everyone;
  View v = joined_view(*made, everyone);
  v.context = kWorldCollectiveContext;
  int slot = 0;
  if (Status s = agree_slot(v, tag, slot); !s.ok()) return s;
  set_slot(*made, slot);
  out = std::move(made);
  return {};
}

// The leaders swap their groups' world ranks over `peer` (a count, then the ranks, in a buffer of world size + 1).
std::vector<int> swap_groups(const Communicator& peer, int remote_leader, int tag, const std::vector<int>& mine,
                             int world_size) {
  const View v{peer.context, peer.rank, &peer.world_ranks};
  std::vector<int> out(static_cast<std::size_t>(world_size) + 1), in(out.size());
  out[0] = static_cast<int>(mine.size());
  std::copy(mine.begin(), mine.end(), out.begin() + 1);
  transport::Request send, recv;
  post_recv(recv, v, remote_leader, in.data(), in.size() * sizeof(int), tag);
  post_send(send, v, remote_leader, out.data(), out.size() * sizeof(int), tag);
  runtime::wait_until([&] { return send.complete && recv.complete; });
  return {in.begin() + 1, in.begin() + 1 + in[0]};
}

}  // namespace

Status create_intercomm(const Communicator& local, int local_leader, const Communicator* peer, int remote_leader,
                        int tag, int leader_error, std::unique_ptr<Communicator>& out) {
  const int world_size = runtime::state().world.size;
  // Every member learns the remote group from its leader: an allgather of fixed-size records over `local`, of
  // which the leader's counts (creation is rare; the records are a few KiB). Its first word is the remote group's
  // size, or minus the leader's error class.
  std::vector<int> record(static_cast<std::size_t>(world_size) + 1, 0);
  if (local.rank == local_leader && peer == nullptr) {
    record[0] = -leader_error;
  } else if (local.rank == local_leader) {
    const std::vector<int> remote = swap_groups(*peer, remote_leader, tag, local.world_ranks, world_size);
    record[0] = static_cast<int>(remote.size());
    std::copy(remote.begin(), remote.end(), record.begin() + 1);
  }
  std::vector<char> blob(record.size() * sizeof(int));
  std::memcpy(blob.data(), record.data(), blob.size());
  const std::vector<char> all =
      allgather({local.collective_context(), local.rank, &local.world_ranks}, blob, kTagAllgather);
  std::memcpy(record.data(), all.data() + static_cast<std::size_t>(local_leader) * blob.size(), blob.size());
  if (record[0] < 0)
    return strata::error(-record[0], "the local leader (rank " + std::to_string(local_leader) +
                                         ") was given an invalid peer_comm or remote_leader");
  std::vector<int> remote(record.begin() + 1, record.begin() + 1 + record[0]);

  return make_intercomm(local.world_ranks, std::move(remote), local.world_rank(local.rank), user_tag(tag), out);
}

Status create_intercomm_from_groups(const std::vector<int>& local, const std::vector<int>& remote,
                                    const std::string& tag, std::unique_ptr<Communicator>& out) {
  return make_intercomm(local, remote, runtime::state().world.rank, hashed(tag, kTagFromGroupsBase, 29), out);
}

Status create_from_string_tag(const std::vector<int>& members, const std::string& tag,
                              std::unique_ptr<Communicator>& out) {
  const int me = runtime::state().world.rank;
  auto made = make(members, 0, me);
  const int rank = static_cast<int>(std::find(members.begin(), members.end(), me) - members.begin());
  int slot = 0;
  if (Status s = agree_slot({kWorldCollectiveContext, rank, &made->world_ranks}, hashed(tag, kTagFromGroupBase, 28),
                            slot);
      !s.ok())
    return s;
  set_slot(*made, slot);
  out = std::move(made);
  return {};
}

Status merge_intercomm(const Communicator& inter, bool high, std::unique_ptr<Communicator>& out) {
  std::vector<int> everyone;
  const View v = joined_view(inter, everyone);
  const std::vector<char> highs = allgather(v, {static_cast<char>(high)}, kTagAllgather);
  const bool remote_high = highs[static_cast<std::size_t>(joined_index(everyone, inter.remote_world_ranks[0]))] != 0;
  const bool local_first = high != remote_high ? !high
                                               : *std::min_element(inter.world_ranks.begin(), inter.world_ranks.end()) <
                                                     *std::min_element(inter.remote_world_ranks.begin(),
                                                                       inter.remote_world_ranks.end());
  std::vector<int> members(local_first ? inter.world_ranks : inter.remote_world_ranks);
  const std::vector<int>& second = local_first ? inter.remote_world_ranks : inter.world_ranks;
  members.insert(members.end(), second.begin(), second.end());
  int slot = 0;
  if (Status s = agree_slot(v, kTagAgree, slot); !s.ok()) return s;
  out = make(std::move(members), slot, inter.world_rank(inter.rank));
  return {};
}

}  // namespace strata::comm
