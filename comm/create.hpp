// Creating communicators (MPI-4.0 section 7.4). Every creator is collective over `parent` (or, for
// create_from_group, over the group's members) and returns nullptr where the caller gets MPI_COMM_NULL.
// Membership is decided first, from data every member has; then one context slot is agreed on over all the
// participants, and every new communicator of the call uses it.
#pragma once
#include <memory>
#include <vector>

#include "comm/communicator.hpp"
#include "comm/group.hpp"
#include "comm/internal_collectives.hpp"
#include "comm/slot_agreement.hpp"

namespace strata::comm {

// Pure: the members (parent ranks, in new-rank order) of the part `color` of a split, given everyone's
// (color, key): sorted by key, ties kept in parent rank order (MPI-4.0 7.4.2).
std::vector<int> split_members(const std::vector<int>& colors, const std::vector<int>& keys, int color);

// Dup and split take intercommunicators too (MPI-4.0 7.4.2): a split pairs the parts of both groups that chose
// the same color, and a color only one group chose gives MPI_COMM_NULL.
Status create_dup(const Communicator& parent, std::unique_ptr<Communicator>& out);
Status create_split(const Communicator& parent, int color, int key, std::unique_ptr<Communicator>& out);
// members: world ranks in new-rank order; every rank of parent calls it (MPI_Comm_create).
Status create_from_members(const Communicator& parent, const std::vector<int>& members,
                           std::unique_ptr<Communicator>& out);
// Only the members call it (MPI_Comm_create_group); `tag` separates concurrent calls on one parent.
Status create_from_group(const Communicator& parent, const std::vector<int>& members, int tag,
                         std::unique_ptr<Communicator>& out);

// MPI_Comm_idup: `out` gets everything but its context at once; the returned agreement, polled until done,
// gives the slot, and set_slot() finishes `out`. Distinct idups pending on one parent use distinct tags.
std::unique_ptr<SlotAgreement> start_dup(Communicator& parent, std::unique_ptr<Communicator>& out);
void set_slot(Communicator& c, int slot);

void release(const Communicator& c);  // frees its context slot here (MPI_Comm_free)

// A communicator of `world_ranks` (in rank order) on context slot `slot`, seen from world rank `my_world_rank`.
std::unique_ptr<Communicator> make(std::vector<int> world_ranks, int slot, int my_world_rank);
// Everyone `c` joins, on its collective context: its group in rank order, or for an intercommunicator both groups
// in world-rank order (the same list on both sides). The view points into `members`.
View joined_view(const Communicator& c, std::vector<int>& members);
int joined_index(const std::vector<int>& sorted_members, int world_rank);  // where world_rank is in such a list
// Agrees on a context slot over the participants of `v` (blocking) and takes it here.
Status agree_slot(const View& v, int tag, int& slot);

}  // namespace strata::comm
