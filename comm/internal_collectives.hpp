// The few collectives communicator creation needs, on a View: the members' world ranks and a context that user
// traffic never uses (a communicator's collective context), with tags of their own. The allgather runs on the
// collective engine (coll/, as ../shared/DESIGN.md allows comm/ to); the idup agreement's messages are posted here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "transport/request.hpp"

namespace strata::comm {

struct View {
  uint32_t context;              // a collective context of the parent communicator
  int rank;                      // my index in world_ranks
  const std::vector<int>* world_ranks;
  int size() const { return static_cast<int>(world_ranks->size()); }
};

// Every member's `mine` (all the same length), in member order. Bruck's allgather: ceil(log2 p) rounds, tags
// `tag` .. `tag` + ceil(log2 p).
std::vector<char> allgather(const View& v, const std::vector<char>& mine, int tag);

// Nonblocking bytes to / from member `to` / `from` of `v`; `r` completes through the progress engine.
void post_send(transport::Request& r, const View& v, int to, const void* buf, std::size_t n, int tag);
void post_recv(transport::Request& r, const View& v, int from, void* buf, std::size_t n, int tag);

// Internal tags: negative, so they can never meet a user tag on a context shared with user-visible operations.
constexpr int kTagAllgather = -1000;  // up to -1000 + 64
constexpr int kTagAgree = -101;
constexpr int kTagIdupBase = -(1 << 16);  // minus a sequence number: one tag per idup pending on a communicator
// Agreement tags on the world's collective context (comm/intercomm.cpp), below the idup tags: MPI_Intercomm_create's
// are the base minus the user's tag (mod 2^30), MPI_Intercomm_create_from_groups' lie below those, the base minus a
// hash of the string tag (mod 2^29), and MPI_Comm_create_from_group's below those (mod 2^28). Concurrent calls whose
// tags meet there would mix their agreements: MPI asks for distinct tags, and two distinct ones meet with odds of
// 2^-29 (2^-28).
constexpr int kTagIntercommBase = -(1 << 24);
constexpr int kTagFromGroupsBase = kTagIntercommBase - (1 << 30);
constexpr int kTagFromGroupBase = kTagFromGroupsBase - (1 << 29) - 1;  // MPI_Comm_create_from_group's, mod 2^28
// MPI_Comm_create_group's agreement, on the parent's collective context: the base minus the user's tag (mod 2^27),
// below all the others. Not the user's tag itself: the parent's own collectives, which the parent's other processes
// may run meanwhile, take tags from 0 up on that context, and one of their messages could then answer for a member
// (MPICH's comm_group_rand hung, 8 ranks on 2 nodes). Concurrent calls on one parent need distinct tags; two
// distinct ones meet here with odds of 2^-27.
constexpr int kTagCreateGroupBase = kTagFromGroupBase - (1 << 28) - 3;
static_assert(kTagCreateGroupBase - ((1 << 27) - 1) > INT32_MIN, "the lowest tag is an int");
inline int create_group_tag(int user_tag) { return kTagCreateGroupBase - user_tag % (1 << 27); }

}  // namespace strata::comm
