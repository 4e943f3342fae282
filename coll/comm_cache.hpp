// What coll/ keeps per communicator (Communicator::collectives, freed with it): its hardware hierarchy, looked up
// once when a topology-aware algorithm may run (hierarchy.hpp), and the last few collectives built for each
// operation. A call with the same arguments as one of those (same buffers, counts, types, root, operator and forced
// algorithm: the loop of an application or a benchmark) reuses it while it is not running, and so skips selection,
// building and every allocation, as a persistent collective does. Several per operation, not one: a loop whose root
// goes round the ranks (the Intel MPI Benchmarks' rooted ones with -root_shift on) rebuilt its schedule at every
// call, and a 2-rank 8-byte bcast took 2.11 us with the root alternating against 0.15 with one root (Open MPI 0.59 /
// 0.19).
//
// The API layer may also skip its argument checks and the building of Args for a call it has seen before: it gives
// each call a CallKey made of its raw arguments, and a call whose key equals the one the cached collective was made
// for restarts it at once (repeat()).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "coll/collective.hpp"
#include "coll/hierarchy.hpp"
#include "comm/communicator.hpp"

namespace strata::coll {

// A call's raw arguments as the API received them (buffers, counts, handles, root, and what tells that no handle
// was freed since), opaque to coll/. The API makes equal keys only for calls that would pass the same checks and
// build equal Args. kNoKey (all zero) never repeats: the v and w calls, whose arrays may change behind the same
// pointers, use it.
using CallKey = std::array<std::uintptr_t, 8>;
inline constexpr CallKey kNoKey{};

// The channel a collective on `c` runs over: its collective context, rank, world ranks and node segment. On an
// intercommunicator, both groups (args.hpp: inter), the local one first if inter_local_first(c).
Channel channel_of(const comm::Communicator& c);
bool inter_local_first(const comm::Communicator& c);

class CommCache {
 public:
  // A collective for these arguments, not running: the cached one if it matches, else a new one, which replaces it
  // (a running one stays alive through its other owners). The caller starts it. `key` is remembered with it.
  Status get(Operation op, const Args& args, const comm::Communicator& c, const std::string& forced,
             const CallKey& key, std::shared_ptr<Collective>& out);
  // The cached collective of `op` when it was made for `key` and is not running, else null. A reference, not a
  // copy: a blocking call runs it where it lies (no other call of `op` can replace it before that call returns), and
  // saves the two atomic updates of a shared count: a sixth of a 2-rank 8-byte bcast's time here.
  // Found, it becomes the operation's most recent collective.
  const std::shared_ptr<Collective>& repeat(Operation op, const CallKey& key);
  // The hierarchy for a call of `op` with `forced` (the communicator's or the persistent init's info value) when a
  // topology-aware algorithm may run it (selection.hpp), else null. Made at the first such call; a failure to read
  // the topology leaves every call to the flat algorithms.
  std::shared_ptr<const Hierarchy> hierarchy(const comm::Communicator& c, Operation op, const std::string& forced);
  // The communicator's node segment (node_segment.hpp), attached at the first call (each member attaches once, at
  // its first collective call on `c`); null when fewer than 2 of its members are on this node.
  Status attach_node_memory(const comm::Communicator& c);
  const std::shared_ptr<NodeSegment>& node_memory() const { return node_; }
  // Whether `c` has a node segment, or will have one once attached (for queries, which do not attach).
  bool has_node_memory(const comm::Communicator& c);
  const std::shared_ptr<const std::vector<int>>& node_index() const { return node_index_; }
  bool spans_nodes(const comm::Communicator& c);
  // The communicator's hints changed (they may force another algorithm): no call repeats without a new check.
  void forget_keys();

 private:
  static constexpr auto kOperations = static_cast<std::size_t>(Operation::kCount);
  // Collectives kept per operation: a root going round up to this many ranks keeps finding its schedule.
  static constexpr std::size_t kKeptPerOperation = 8;
  struct Kept {
    std::shared_ptr<Collective> collective;
    CallKey key{};
  };
  using Recent = std::array<Kept, kKeptPerOperation>;  // the most recently used first
  // Moves kept[i] to the front.
  static Kept& bring_forward(Recent& kept, std::size_t i);
  std::array<Recent, kOperations> kept_;
  std::uint64_t overrides_version_ = 0;  // selection.hpp's algorithm_overrides_version when kept_ was made
  std::optional<bool> spans_nodes_;  // known at the first call
  bool looked_up_ = false;            // hierarchy_ was looked up (it stays null if that failed)
  std::shared_ptr<const Hierarchy> hierarchy_;
  bool attached_ = false;
  std::vector<int> node_members_;  // world ranks of c's members on this node, ascending; found at first need
  std::shared_ptr<NodeSegment> node_;
  std::shared_ptr<const std::vector<int>> node_index_;
};

}  // namespace strata::coll
