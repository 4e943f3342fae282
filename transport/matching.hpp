// MPI matching (MPI-4.0 section 3.5): a message matches the earliest posted receive whose (context, source, tag)
// accept it; a new receive matches the earliest arrived message it accepts. Arrival order per sender is the send
// order (each peer has one ordered header channel), which gives non-overtaking.
#pragma once
#include <cstdint>
#include <list>
#include <optional>
#include <vector>

#include "transport/request.hpp"
#include "transport/wire.hpp"

namespace strata::transport {

constexpr int kAnySource = -2;  // MPI_ANY_SOURCE
constexpr int kAnyTag = -1;     // MPI_ANY_TAG

struct Envelope {
  uint32_t context;
  int source;  // rank in the communicator, or kAnySource in a receive
  int tag;     // or kAnyTag in a receive
};

inline bool accepts(const Envelope& want, const Envelope& have) {
  return want.context == have.context && (want.source == kAnySource || want.source == have.source) &&
         (want.tag == kAnyTag || want.tag == have.tag);
}

// An arrived message nobody asked for yet: its header, and the payload when it was sent eagerly.
struct Unexpected {
  Header header;
  std::vector<char> payload;
  Envelope envelope() const { return {header.context, header.src_rank, header.tag}; }
};

class MatchQueues {
 public:
  void post(Request* r) { posted_.push_back(r); }
  Request* take_posted(const Envelope& have);  // nullptr when no posted receive accepts it
  bool remove_posted(Request* r);              // cancel

  // Keeps a message nobody asked for yet, with `len` bytes of eager payload. Its list node and payload buffer are
  // recycled from messages already consumed, so a steady stream of early messages allocates nothing.
  void add_unexpected(const Header& h, const char* payload, std::size_t len);
  const Unexpected* peek_unexpected(const Envelope& want) const;
  std::optional<Unexpected> take_unexpected(const Envelope& want);  // the message leaves the queues (MPI_Mprobe)
  // Hands the earliest arrived message `want` accepts to `use`, then recycles it; false when there is none.
  template <class Use>
  bool consume_unexpected(const Envelope& want, Use&& use) {
    for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
      if (!accepts(want, it->envelope())) continue;
      use(static_cast<const Unexpected&>(*it));
      recycle(it);
      return true;
    }
    return false;
  }

  std::size_t posted_count() const { return posted_.size(); }
  std::size_t unexpected_count() const { return unexpected_.size(); }

 private:
  static Envelope envelope_of(const Request* r) { return {r->context, r->rank, r->tag}; }
  std::vector<Request*> posted_;
  void recycle(std::list<Unexpected>::iterator it);
  std::list<Unexpected> unexpected_;
  std::list<Unexpected> spare_;  // consumed nodes, their payload capacity kept
  std::size_t spare_bytes_ = 0;  // that capacity
};

}  // namespace strata::transport
