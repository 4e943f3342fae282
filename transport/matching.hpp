// MPI matching (MPI-4.0 section 3.5): a message matches the earliest posted receive whose (context, source, tag)
// accept it; a new receive matches the earliest arrived message it accepts. Arrival order per sender is the send
// order (each peer has one ordered header channel), which gives non-overtaking.
//
// Arrived messages wait in one list per (context, source), so a receive from one rank never scans the backlog of
// another: a fast sender may be thousands of messages ahead (a stream of eager collectives), and a receive naming
// a slower one must still cost O(1). MPI_ANY_SOURCE compares the first candidates of the context's lists by arrival
// number, and costs O(1) where the context has nothing queued. A layer that takes its messages by probing (a
// window's channel, rma/channel.cpp) watches its context instead of probing after every arrival: a program with
// hundreds of windows (Global Arrays keeps one per array) then pays per message for the one window it reaches.
#pragma once
#include <cstdint>
#include <list>
#include <optional>
#include <unordered_map>
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
  uint64_t arrival = 0;  // order of arrival among all unexpected messages
  Envelope envelope() const { return {header.context, header.src_rank, header.tag}; }
};

class MatchQueues {
 public:
  // Room for many posted receives from the start, so that posting one allocates nothing (persistent collectives'
  // starts promise that) until more than kPostedReserve are outstanding at once.
  static constexpr std::size_t kPostedReserve = 1024;
  MatchQueues() { posted_.reserve(kPostedReserve); }
  MatchQueues(const MatchQueues&) = delete;  // last_queue_ points into this one's map
  MatchQueues& operator=(const MatchQueues&) = delete;
  void post(Request* r) { posted_.push_back(r); }
  Request* take_posted(const Envelope& have);  // nullptr when no posted receive accepts it
  bool remove_posted(Request* r);              // cancel

  // Keeps a message nobody asked for yet, with `len` bytes of eager payload. Its list node and payload buffer are
  // recycled from messages already consumed, so a steady stream of early messages allocates nothing.
  void add_unexpected(const Header& h, const char* payload, std::size_t len);
  const Unexpected* peek_unexpected(const Envelope& want) const;
  std::optional<Unexpected> take_unexpected(const Envelope& want);  // the message leaves the queues (MPI_Mprobe)
  // Drops the arrived message from `src_world` with sender's request `cookie` and envelope `have` (a cancelled
  // send); false when it is not there (matched, or taken by MPI_Mprobe).
  bool remove_unexpected(const Envelope& have, int src_world, uint64_t cookie);
  // Hands the earliest arrived message `want` accepts to `use`, then recycles it; false when there is none.
  template <class Use>
  bool consume_unexpected(const Envelope& want, Use&& use) {
    const Found found = find(want);
    if (found.queue == nullptr) return false;
    use(static_cast<const Unexpected&>(*found.it));
    recycle(found);
    return true;
  }

  // notify(arg) runs for each message queued as unexpected in `context` from now on, and at once when some are
  // queued already; an empty Watcher stops that. It runs inside the transport's progress: it may only take note.
  struct Watcher {
    void (*notify)(void*) = nullptr;
    void* arg = nullptr;
  };
  void watch(uint32_t context, Watcher w);

  std::size_t posted_count() const { return posted_.size(); }
  std::size_t unexpected_count() const { return unexpected_count_; }
  uint64_t arrivals() const { return arrivals_; }  // messages ever queued as unexpected

 private:
  struct Queue;
  struct Context {
    std::vector<Queue*> queues;  // one per source that ever sent in this context
    std::size_t queued = 0;      // messages in them
    Watcher watcher;
  };
  struct Queue {
    std::list<Unexpected> messages;  // in arrival order
    Context* context = nullptr;
  };
  using List = std::list<Unexpected>;
  struct Found {
    Queue* queue = nullptr;  // null: none
    List::iterator it;
  };
  static Envelope envelope_of(const Request* r) { return {r->context, r->rank, r->tag}; }
  static uint64_t key(uint32_t context, int source) { return uint64_t{context} << 32 | static_cast<uint32_t>(source); }
  Found find(const Envelope& want);  // the earliest arrived message `want` accepts
  void recycle(const Found& found);
  Queue* queue_of(uint64_t k, bool make);  // null when there is none and !make
  void unqueue(const Found& found);  // counts the message out; the caller moves or erases its node
  void erase(const Found& found);
  std::vector<Request*> posted_;
  std::unordered_map<uint64_t, Queue> unexpected_;  // by key(context, source), each in arrival order; never erased
  std::unordered_map<uint32_t, Context> contexts_;  // never erased (communicators' contexts are few and reused)
  // The list used last: a stream from one sender (an eager collective's root running ahead) queues and takes every
  // message from the same list, and skips hashing the key twice per message. The map never erases or moves a list.
  uint64_t last_key_ = 0;
  Queue* last_queue_ = nullptr;
  std::size_t unexpected_count_ = 0;
  uint64_t arrivals_ = 0;
  std::list<Unexpected> spare_;  // consumed nodes, their payload capacity kept
  std::size_t spare_bytes_ = 0;  // that capacity
};

}  // namespace strata::transport
