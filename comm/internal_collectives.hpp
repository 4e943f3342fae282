// The few collectives communicator creation needs, written directly over point-to-point (the collective engine
// replaces them later). They run on a View: the members' world ranks and a context that user traffic never uses
// (a communicator's collective context), with tags of their own.
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

// Every member's `mine` (all the same length), in member order. Bruck's allgather: ceil(log2 p) rounds.
std::vector<char> allgather(const View& v, const std::vector<char>& mine, int tag);

// Nonblocking bytes to / from member `to` / `from` of `v`; `r` completes through the progress engine.
void post_send(transport::Request& r, const View& v, int to, const void* buf, std::size_t n, int tag);
void post_recv(transport::Request& r, const View& v, int from, void* buf, std::size_t n, int tag);

// Internal tags: negative, so they can never meet a user tag on a context shared with user-visible operations.
constexpr int kTagAllgather = -100;
constexpr int kTagAgree = -101;
constexpr int kTagIdupBase = -(1 << 16);  // minus a sequence number: one tag per idup pending on a communicator

}  // namespace strata::comm
