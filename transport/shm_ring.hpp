// Strata's shared-memory rings: the small-message fast path between ranks of one node (libfabric's shm provider
// costs 0.67 us per 8-byte ping-pong here, MPICH 0.41 us; a ring write plus one release store is far thinner).
//
// Every rank owns one segment holding one single-producer/single-consumer ring per local peer ("inbox"); a sender
// writes records into its ring in the receiver's segment. A record is [RecordHead][Header][payload], padded to 64
// bytes, never split across the ring's end (a Wrap record fills the end instead).
//
// A record is published by the release store of its RecordHead's length, so the receiver polls the one cache line
// where the next record starts: one line transfer per small message, no separate tail counter. So a line start must
// read as zero until a record is published there:
// - the receiver clears the first word of every line of a record below 4 KiB that it consumed (it holds those few
//   lines anyway), and publishes `head` once per poll;
// - a larger record's lines it only reads, and publishes `head` after it, since its sender may be waiting for room;
//   the sender clears the line after a record it writes where such a record (or a wrap record) left data.
// When the receiver cleared the lines of large records too, each line went to its core and back: one-way 8-byte to
// 1 MiB ping-pong, receiver clearing / sender clearing: 16 KiB 0.62 / 0.58 us, 64 KiB 1.96 / 1.66 us, and a 1 MiB
// message in ring pieces (STRATA_CMA=0) 51 / 19 us; 8 bytes 0.10 both.
// The sender reads `head` only when the ring looks full, or before a record of 4 KiB or more past the ring's first
// 64 KiB: finding the ring drained, it then starts again at the front, whose lines are still in cache. Records
// running through the whole ring touched 256 KiB per peer (14 MiB at 8 ranks, seven times a core's 2 MiB L2 here): a
// 64 KiB alltoall at 8 ranks spent 70 % of its time in memcpy and took 290-390 us, and 188-204 us with the return to
// the front.
//
// A large record's payload goes in with ordinary or streaming stores, as the writer's copies find the machine
// (runtime::OutboundCopy).
//
// A ring's pages are mapped all at once (runtime::prefault) by its sender before the first record it writes there,
// and by its receiver when that record arrives, not by a fault per page as records first reach them: a stream of
// small records crosses a new page every 64 records. The first 4000 8-byte ping-pongs after MPI_Init (one pass of
// the ring) took 0.17-0.27 us one way, against 0.11 once the ring had wrapped; now the first message takes the
// mapping (0.3-0.6 ms in all, about what the faults cost) and the ping-pongs 0.10 from the first on. Mapped by the
// sender alone: 0.13-0.16. Only rings that carry messages take memory, but a ring that does takes all of its 256 KiB.
//
// Segments are named strata_<job>_<rank> in /dev/shm and unlinked as soon as every local peer has mapped them
// (mpiexec also removes strata_<job>_* when a job dies early), so nothing is left behind.
#pragma once
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/copy_bytes.hpp"
#include "runtime/status.hpp"
#include "transport/wire.hpp"

namespace strata::transport {

// "strata_<job>_": every /dev/shm name of a job starts so (rings, libfabric's shm regions); mpiexec removes
// them all when a job dies before cleaning up.
std::string shm_prefix(const std::string& job);

// Up to 64 KiB goes eagerly through the ring: a rendezvous costs a round trip that, with more ranks than cores,
// waits for the scheduler at each hop (64 KiB alltoall at 4 ranks on 2 cores: 89 us with a 16 KiB limit, 41 us with
// this one; 2-rank 64 KiB bcast 8.0 -> 2.7 us). The price is memory: 256 KiB per local peer in each rank's segment
// (16 MiB per rank with 64 ranks on a node), touched only as far as messages reach.
constexpr std::size_t kRingBytes = 256 * 1024;
constexpr std::size_t kRingEagerLimit = 64 * 1024;  // larger messages go by rendezvous

struct RecordHead;  // a record's first word: its length, 0 until published (.cpp)

struct RingControl {
  alignas(64) std::atomic<uint64_t> head;  // bytes consumed so far, written by the receiver
};

// A set of the ring's lines, one bit each, with its size kept.
class RingLines {
 public:
  bool empty() const { return size_ == 0; }
  bool contains(std::size_t line) const { return words_[line / 64] >> (line % 64) & 1; }
  void assign(std::size_t first, std::size_t count, bool in);  // lines [first, first + count)

 private:
  std::array<uint64_t, kRingBytes / 64 / 64> words_{};
  std::size_t size_ = 0;
};

// The sending side of one ring (in the peer's segment).
class RingTx {
 public:
  RingTx() = default;
  RingTx(RingControl* control, char* data) : control_(control), data_(data) {}
  bool attached() const { return control_ != nullptr; }
  // false when the ring has no room now (try again after progress).
  bool try_write(const Header& h, const void* payload, std::size_t len);

 private:
  RecordHead* head_at(std::size_t offset) const;
  void clear_if_stale(std::size_t offset);
  RingControl* control_ = nullptr;
  char* data_ = nullptr;
  uint64_t tail_ = 0;
  uint64_t cached_head_ = 0;
  RingLines stale_;  // lines left holding a large or wrap record, not cleared by its reader
  runtime::OutboundCopy payload_copy_;
};

// The receiving side: this rank's segment.
class RingInbox {
 public:
  // Returns whether it took the record; a record not taken stays at the head of its ring, and that ring is not
  // read further in this poll.
  using Handler = bool (*)(void* context, const Header& h, const char* payload, std::size_t len);

  // slots = ranks on this node; `my_slot` is never written to.
  Status create(const std::string& job, int my_rank, int slots, int my_slot);
  // Maps peer `peer_rank`'s segment and returns the ring this rank writes into (slot `my_slot` there).
  Status attach_peer(const std::string& job, int peer_rank, int slots, int my_slot, RingTx& tx);
  void unlink();   // after every local peer attached
  void destroy();  // unmaps everything

  // Hands every waiting record to `handler`; true if it took any.
  bool poll(Handler handler, void* context);

 private:
  struct Segment {
    void* base = nullptr;
    std::size_t bytes = 0;
  };
  static std::string segment_name(const std::string& job, int rank);
  std::string name_;
  Segment own_;
  std::vector<Segment> peers_;
  std::vector<RingControl*> inbound_;  // rings with a live sender, in slot order
  std::vector<char*> inbound_data_;
  std::vector<uint64_t> heads_;
};

}  // namespace strata::transport
