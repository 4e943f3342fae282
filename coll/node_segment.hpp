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
// Areas. An area is one line: a block's description, and the block itself when it has at most 32 bytes; a larger
// block goes in a payload of 128 KiB that the area names. Each writer owns, per rotating slot, 8 areas and 4
// payloads, per persistent slot 16 areas with a payload each, and a pool of 16 payloads. Tags and runs take a slot's
// areas in turn, so a pipelined writer fills the next ones while its readers empty the previous, and a persistent
// collective's next starts need not wait for them. A slot belongs to one run at a time: blocking and nonblocking
// collectives take the rotating slots in turn (their starts follow the same order everywhere, so a run only waits
// for older ones), and a persistent collective keeps a slot of its own, since its starts may come in any order
// across ranks. An area holds one block at a time: a writer publishes once every reader of the previous block has
// taken it, and a block in a payload also waits for the payload's previous block (the writer remembers where that
// went). A block is named by its `use` (the run and the tag) and its readers, so a reader never takes another run's
// or another group's block.
//
// Payloads. A run of a rotating slot that starts while no other one is under way in this process (each blocking
// call, and each nonblocking one waited for before the next) puts its larger blocks in the writer's pool of 16: a
// schedule of T tags puts tag t of run k in payload (t + k T) % 16 when two of its runs fit there (T <= 8), so a
// stream runs 16 / T runs ahead, else in t % 16, so that every run reuses the same few payloads (see Mapping for
// why that counts). Every run older than it has published all its blocks, so a block waits there only for an older
// run's or for a lower tag of its own run, as in its slot. A run that starts while another is under way takes its
// slot's payloads, area i's being i % 4 of the slot's run (t + run / 16) % 8: an older run, still publishing, never
// waits for a newer one's readers, who may take that block only once the older run is done.
//
// Running ahead. A writer of a stream of blocking calls (a reduce's leaf) can publish a small block 128 runs ahead
// of its slowest reader (16 rotating slots, and each slot's 8 areas in turn on its successive runs), a larger one 16
// (the pool, for a schedule of one tag). Until 2026-11-29 a slot's runs all used one area per tag, 16 runs ahead:
// where ranks share a core, a leaf then stopped every 16 calls for its root to be scheduled. A stream of 8-byte
// reduces through the node's memory on 4 ranks of one core took 0.69 us (binomial 0.43), now 0.34; on 8 ranks of 2
// cores 0.89-1.24, now 0.48-0.50. The areas are packed apart from the payloads, so running ahead touches no new
// page for a small block.
//
// Marks. A reader says it took a block by writing the area's `published` count: in the area's line when it is the
// block's only reader (it has that line anyway), else in a line of its own, one per reader, which the writer reads
// when it comes back to the area. Until 2026-11-29 every reader added one to a counter in the area's line: with 7
// readers that line went back and forth between the cores 7 more times per block, and each time the readers still
// polling it lost it. Where the two processors sit on different core complexes (bench/core_latency.c about 400 ns),
// a stream of 8-byte shared_memory bcasts on 8 ranks took 0.61-0.78 us in 7 launches of 8 (0.43 in one), now 0.44-0.46
// in 8 of 8; 256 B 0.65-0.79 against 0.61-0.67. A mark in a line of its own for a block with one reader (a reduce)
// cost more than the counter: 0.25 us against 0.22 per 8-byte reduce on 4 ranks, as the writer then reads another
// line per block.
//
// Mapping. A block's pages are mapped into a process with one madvise (MADV_POPULATE_WRITE for its writer,
// MADV_POPULATE_READ for a reader) the first time that process uses them, not by a page fault per 4 KiB page. Each
// process's first access to a page stays dear on this machine (a VM) all the same: writing 4 MiB of a new segment
// takes 14 ms by faults, 1.6 ms of madvise and 6.2 of writing with it; reading them in another process 6.5 ms by
// faults, 0.4 + 5.7 with it; later passes 0.1-0.15 ms. So the payloads each process touches count: until 2026-12-02
// every run took its slot's payloads, and a stream of 1 MiB allreduces on 8 ranks (shared_memory_slices, 9 blocks a
// run) took 20-50 ms a call for its first 16, then 14, 9 and 4.5 ms for the next three 16 as the slots' areas turned
// to their other payloads, and 0.5-1 ms from the 65th on; with the pool, 34 ms for the first, 2.6 for the second,
// 0.4-1.1 after. The pages stay unreserved until then: only the payloads runs use take memory.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/copy_bytes.hpp"
#include "runtime/status.hpp"

namespace strata::coll {

class NodeSegment {
 public:
  static constexpr int kRotatingSlots = 16;
  // Per rotating slot and writer: tag t of the slot's k-th run uses area (t + k) % 8, whose payload is that % 4.
  static constexpr int kAreasPerWriter = 8;
  static constexpr int kPayloadsPerWriter = 4;
  static_assert(kAreasPerWriter == 2 * kPayloadsPerWriter, "each rotating payload serves two areas");
  // Per persistent slot, an area and a payload alike: a persistent collective's starts reuse its slot, and a root's
  // loop of starts may run this many ahead of its slowest reader (measured: with 4, a loop of 4-byte persistent
  // reduces on 4 ranks took 1.9x the nonblocking time; with 16 the blocking time).
  static constexpr int kPersistentAreasPerWriter = 16;
  static constexpr int kPersistentSlots = 16;  // persistent collectives after these use messages only
  static constexpr int kPoolPayloadsPerWriter = 16;  // for runs of rotating slots that do not overlap (Payloads)
  static constexpr int kMostRanks = 64;        // a node's readers are a 64-bit mask
  static constexpr std::size_t kBlockBytes = std::size_t{128} << 10;  // the largest block: a payload's size

  // A reader's mark that it took an area's block: the area's `published` count then (see Marks above).
  using Mark = std::atomic<uint32_t>;

  struct alignas(64) Area {
    static constexpr std::size_t kInlineBytes = 32;
    std::atomic<uint64_t> use{0};   // the block there (0: none yet); set last, with release
    std::atomic<uint64_t> mask{0};  // its readers (node-local indexes); read by any reader polling the area
    uint32_t published = 0;         // blocks put here so far, this one included
    uint32_t bytes = 0;             // packed size
    Mark taken{0};                  // the mark of a block with one reader
    uint32_t payload = 0;           // a larger block's payload (its index in the segment)
    // A block this small travels in the line a reader polls: one line moves between the cores instead of two, which
    // counts where they sit on different core complexes (bench/core_latency.c).
    alignas(16) char inline_block[kInlineBytes];
    bool uses_payload() const { return bytes > kInlineBytes; }
    // Whether the block has at most one reader (its mark then goes in this line); only its writer changes the mask.
    static bool one_reader(uint64_t readers) { return (readers & (readers - 1)) == 0; }
    bool one_reader() const { return one_reader(mask.load(std::memory_order_relaxed)); }
  };
  static_assert(sizeof(Area) == 64, "an area's description and small block share one cache line");

  // Where a writer's block of a run goes: its area, and the payload it takes if larger.
  struct Place {
    Area* area = nullptr;
    char* payload = nullptr;
    uint32_t payload_index = 0;
    char* block(std::size_t bytes) const { return bytes <= Area::kInlineBytes ? area->inline_block : payload; }
  };

  // Attaches to the segment of a communicator on this node: `context` its collective context, `node_members` the
  // world ranks of its members on this node (ascending). Null with an empty status when fewer than 2 or more than
  // kMostRanks members are here (nothing to share).
  static std::shared_ptr<NodeSegment> attach(const std::string& job, uint32_t context,
                                             const std::vector<int>& node_members, Status& status);
  ~NodeSegment();
  NodeSegment(const NodeSegment&) = delete;
  NodeSegment& operator=(const NodeSegment&) = delete;

  // The place of the writer with node-local index `writer` in `slot` for tag `tag` of run `run`. A larger block goes
  // in the pool when `pooled_tags` > 0 (begin_run said so; the run's schedule uses that many tags). A reader needs
  // only the area.
  Place place(int slot, int writer, int tag, uint64_t run, int pooled_tags = 0);
  // The pool payload of tag `tag` of run `run` whose schedule uses `tags` tags (Payloads above).
  static int pool_payload(int tag, uint64_t run, int tags) {
    const uint64_t first = tags <= kPoolPayloadsPerWriter / 2 ? run * static_cast<uint64_t>(tags) : 0;
    return static_cast<int>((first + static_cast<uint64_t>(tag)) % kPoolPayloadsPerWriter);
  }
  // A run of a rotating slot begins in this process: whether it may use the pool (no other one is under way). Each
  // begin_run is followed by one end_run once the run has finished here.
  bool begin_run() { return runs_under_way_++ == 0; }
  void end_run() { --runs_under_way_; }
  static int areas_per_writer(int slot) {
    return slot < kRotatingSlots ? kAreasPerWriter : kPersistentAreasPerWriter;
  }
  static int payloads_per_writer(int slot) {
    return slot < kRotatingSlots ? kPayloadsPerWriter : kPersistentAreasPerWriter;
  }
  int members() const { return members_; }

  // The writer's question: may a block of `bytes` go in `p` now? Its area's previous block must have been taken by
  // all of its readers, and for a block in the payload the payload's previous block too.
  bool free_for(const Place& p, std::size_t bytes) const {
    if (!taken(*p.area)) return false;
    if (bytes <= Area::kInlineBytes) return true;
    const LastBlock& last = last_block_[p.payload_index];  // an area that has moved on had its block taken
    return last.area == nullptr || last.area->published != last.published || taken(*last.area);
  }
  // The writer has put a block of `bytes` at `p` (its area's `published` counts it): the area names the payload.
  void put(const Place& p, std::size_t bytes) {
    if (bytes <= Area::kInlineBytes) return;
    p.area->payload = p.payload_index;
    last_block_[p.payload_index] = {p.area, p.area->published};
  }
  // Where the block in `a` lies, for a reader that saw it published.
  const char* block(const Area& a) const { return a.uses_payload() ? payload(a.payload) : a.inline_block; }
  // The reader with node-local index `reader` has taken the block in `a`.
  void take(Area& a, int reader) {
    if (a.one_reader()) return a.taken.store(a.published, std::memory_order_release);
    mark(reader, a).store(a.published, std::memory_order_release);
  }

  // Maps the first `bytes` of payload `index` into this process, once per payload and size (see Mapping above).
  void map(uint32_t index, std::size_t bytes, bool for_writing);
  // How this process copies its blocks in: with streaming stores while ordinary ones are slow (copy_bytes.hpp).
  runtime::OutboundCopy& block_copy() { return block_copy_; }

 private:
  // Where the writer put its last block in a payload, and that area's `published` then.
  struct LastBlock {
    const Area* area = nullptr;
    uint32_t published = 0;
  };
  NodeSegment() = default;
  Area* areas() const;
  char* payload(uint32_t index) const;
  Mark& mark(int reader, const Area& a) const;
  bool taken(const Area& a) const {
    const uint64_t readers = a.mask.load(std::memory_order_relaxed);
    if (Area::one_reader(readers))  // a block without readers (mask 0) is taken at once
      return readers == 0 || a.taken.load(std::memory_order_acquire) == a.published;
    for (uint64_t m = readers; m != 0; m &= m - 1)
      if (mark(__builtin_ctzll(m), a).load(std::memory_order_acquire) != a.published) return false;
    return true;
  }
  void* base_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t marks_at_ = 0;     // offset of the readers' marks, past the areas
  std::size_t areas_ = 0;        // areas in all
  std::size_t payloads_at_ = 0;  // offset of the first payload, past the marks
  int members_ = 0;
  std::vector<uint32_t> mapped_;  // per payload: the block bytes already mapped in this process
  std::vector<LastBlock> last_block_;  // per payload, of this process's own (as writer)
  int runs_under_way_ = 0;             // of rotating slots, in this process
  runtime::OutboundCopy block_copy_;
};

// The slot of a run with tag block `tag_base` (collective.hpp), or -1 (a persistent collective past the slots).
int node_slot(int tag_base);
// Whether the persistent collective with index `index` on its communicator gets a slot.
inline bool persistent_has_slot(uint32_t index) { return index < NodeSegment::kPersistentSlots; }

}  // namespace strata::coll
