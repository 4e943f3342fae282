// The shared memory a communicator's collectives use on one node (schedule.hpp's publish and read): areas where a
// writer leaves a block once for several readers of its node.
//
// Lifetime. Every member of the communicator on this node attaches at its first collective call on it (api/), so
// each attaches exactly once and before any message of that call can depend on it; the name is unlinked by the
// last of them to attach, so nothing stays in /dev/shm once all are there, and its name starts with
// transport::shm_prefix(job), which mpiexec removes if the job dies first. The name holds the communicator's
// collective context and its node members' world ranks: a later communicator can only take the same name with the
// same members, who must all have made this communicator's first collective call before they can make it.
//
// Areas. Each writer owns 8 areas per rotating slot and 16 per persistent one (tags and runs take them in turn, so a
// pipelined writer fills the next ones while its readers empty the previous, and a persistent collective's next
// starts need not wait for them). A slot belongs to one run at a time: blocking and nonblocking collectives take the
// rotating slots in turn (their starts follow the same order everywhere, so a run only waits for older ones), and a
// persistent collective keeps a slot of its own, since its starts may come in any order across ranks. An area holds
// one block at a time: a writer publishes once every reader of the previous block has taken it. A block is named by
// its `use` (the run and the tag) and its readers, so a reader never takes another run's or another group's block.
//
// Running ahead. A writer of a stream of blocking calls (a reduce's leaf) can publish 128 runs ahead of its slowest
// reader: 16 rotating slots, and each slot's 8 areas in turn on its successive runs. Until 2026-11-29 a slot's 4
// areas served its runs' tags alike, 16 runs ahead: where ranks share a core, a leaf then stopped every 16 calls for
// its root to be scheduled. A stream of 8-byte reduces through the node's memory on 4 ranks of one core took 0.69 us
// (binomial 0.43), 0.36 with 4 areas taken in turn and 0.31 with 8; on 8 ranks of 2 cores 0.89-1.24, 0.51-0.64 and
// 0.47-0.48. The cost is paid once, in the first calls: a process maps up to 8 times the areas it did (see Mapping).
// 200 reduces on 8 ranks, each between barriers, took 7 ms for 64 KiB and 84 ms for 1 MiB, now 31 and 117-130 ms
// (4 areas in turn: 18.5 and 83 ms); a barrier, an allreduce or an allgather waits for every rank and gains nothing.
//
// Mapping. A block's pages are mapped into a process with one madvise (MADV_POPULATE_WRITE for its writer,
// MADV_POPULATE_READ for a reader) the first time that process uses them, not by a page fault per 4 KiB page, which
// costs 8-14 us on this machine (a VM): madvise maps 4 MiB in 1.2 ms for writing and 0.23 ms for reading pages that
// exist, against 15 and 8 ms by faults. The first write of a page the host has never backed stays dear (about 7 us
// a page): the first 1 MiB reduce on 8 ranks in each rotating slot takes 14 ms (14-20 without madvise), later ones
// 0.6. The pages stay unreserved until then: only the areas runs use take memory.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/status.hpp"

namespace strata::coll {

class NodeSegment {
 public:
  static constexpr int kRotatingSlots = 16;
  static constexpr int kAreasPerWriter = 8;  // per rotating slot: tag t of its k-th run uses area (t + k) % 8
  // Per persistent slot: a persistent collective's starts reuse its slot, and a root's loop of starts may run this
  // many ahead of its slowest reader (measured: with 4, a loop of 4-byte persistent reduces on 4 ranks took 1.9x
  // the nonblocking time; with 16 the blocking time).
  static constexpr int kPersistentAreasPerWriter = 16;
  static constexpr int kPersistentSlots = 16;  // persistent collectives after these use messages only
  static constexpr int kMostRanks = 64;        // a node's readers are a 64-bit mask
  static constexpr std::size_t kAreaBytes = std::size_t{128} << 10;

  struct alignas(64) Area {
    static constexpr std::size_t kInlineBytes = 32;
    std::atomic<uint64_t> use{0};          // the block there (0: none yet); set last, with release
    std::atomic<uint32_t> acks{0};         // readers that took it
    uint32_t readers = 0;                  // how many must take it
    std::atomic<uint64_t> mask{0};         // which (node-local indexes); read by any reader polling the area
    uint64_t bytes = 0;                    // packed size
    // A block this small travels in the line a reader polls: one line moves between the cores instead of two, which
    // counts where they sit on different core complexes (bench/core_latency.c).
    alignas(16) char inline_block[kInlineBytes];
    char* payload(std::size_t block_bytes) {
      return block_bytes <= kInlineBytes ? inline_block : reinterpret_cast<char*>(this) + sizeof(Area);
    }
    bool free() const { return acks.load(std::memory_order_acquire) == readers; }
  };
  static_assert(sizeof(Area) == 64, "an area's description and small block share one cache line");

  // Attaches to the segment of a communicator on this node: `context` its collective context, `node_members` the
  // world ranks of its members on this node (ascending). Null with an empty status when fewer than 2 or more than
  // kMostRanks members are here (nothing to share).
  static std::shared_ptr<NodeSegment> attach(const std::string& job, uint32_t context,
                                             const std::vector<int>& node_members, Status& status);
  ~NodeSegment();
  NodeSegment(const NodeSegment&) = delete;
  NodeSegment& operator=(const NodeSegment&) = delete;

  // The area of the writer with node-local index `writer` in `slot` for tag `tag` of run `run`.
  Area& area(int slot, int writer, int tag, uint64_t run);
  static int areas_per_writer(int slot) {
    return slot < kRotatingSlots ? kAreasPerWriter : kPersistentAreasPerWriter;
  }
  int members() const { return members_; }

  // Maps the first `bytes` of the block in `a` into this process, once per area and size (see Mapping above).
  void map(Area& a, std::size_t bytes, bool for_writing);

 private:
  NodeSegment() = default;
  void* base_ = nullptr;
  std::size_t bytes_ = 0;
  int members_ = 0;
  std::vector<uint32_t> mapped_;  // per area: the block bytes already mapped in this process
};

// The slot of a run with tag block `tag_base` (collective.hpp), or -1 (a persistent collective past the slots).
int node_slot(int tag_base);
// Whether the persistent collective with index `index` on its communicator gets a slot.
inline bool persistent_has_slot(uint32_t index) { return index < NodeSegment::kPersistentSlots; }

}  // namespace strata::coll
