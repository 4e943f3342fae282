// Intercommunicators (MPI-4.0 7.6): a local and a remote group, disjoint; point-to-point names the remote group's
// ranks (communicator.hpp: peer_world_rank), and messages match on the sender's rank in its own group, so the
// transport needs nothing new. Strata makes them with MPI_Intercomm_create and turns them into intracommunicators
// with MPI_Intercomm_merge; create.cpp dups and splits them (MPI_Comm_create is a split there).
//
// Every process of a job is in MPI_COMM_WORLD (Strata has no dynamic processes), so the union of the two groups can
// agree on a context slot as every creator does: Intercomm_create over the world's collective context with an
// internal tag made from the user's (MPI asks overlapping concurrent calls to use distinct tags); a merge, dup or
// split over the intercommunicator's own collective context, which both groups share (create.hpp: joined_view).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "comm/communicator.hpp"
#include "runtime/status.hpp"

namespace strata::comm {

// Collective over `local` and the remote leader's group. The leaders exchange their groups over `peer` (ranks
// `local_leader` of `local`, `remote_leader` of `peer`) with the user's `tag`; `peer` is read at the leader only.
// A leader whose arguments were wrong passes peer = nullptr and its error class, and every member of `local`
// returns an error of that class.
Status create_intercomm(const Communicator& local, int local_leader, const Communicator* peer, int remote_leader,
                        int tag, int leader_error, std::unique_ptr<Communicator>& out);
// MPI_Intercomm_create_from_groups: collective over both groups (world ranks in rank order; I am in `local`), which
// every member knows, so only the context slot is agreed on, with an internal tag made from the string tag.
Status create_intercomm_from_groups(const std::vector<int>& local, const std::vector<int>& remote,
                                    const std::string& tag, std::unique_ptr<Communicator>& out);
// MPI_Comm_create_from_group (no parent communicator): the intracommunicator of `members` (world ranks in rank order,
// I am one), its slot agreed on the same way. Here, next to the other string-tagged creation, for the tag ranges.
Status create_from_string_tag(const std::vector<int>& members, const std::string& tag,
                              std::unique_ptr<Communicator>& out);
// Collective over both groups of `inter`: the group whose members said `high` = false comes first; if both said
// the same, the group holding the lowest world rank.
Status merge_intercomm(const Communicator& inter, bool high, std::unique_ptr<Communicator>& out);

}  // namespace strata::comm
