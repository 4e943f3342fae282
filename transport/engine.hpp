// The point-to-point protocol engine. Each peer has exactly one ordered header channel:
//   self   - this rank: headers are dispatched in place;
//   ring   - another rank on this node: Strata's shared-memory rings (STRATA_SHM_RINGS=0 turns them off);
//   fabric - libfabric messages: `shm` for this node when rings are off, `tcp;ofi_rxm` for other nodes.
// Eager messages carry their payload in the header message; between fabric peers one of up to 64 KiB goes as up to
// five fabric messages (wire.hpp: More), so it needs no round trip: 8 ranks on 4 simulated nodes, a stream of
// 64 KiB reduces took 486 us hierarchical and 375 pipelined when 16 KiB was the limit, 221-241 and 278-290 after.
// (One fabric message is limited to ofi_rxm's eager buffer; a larger one raised each rank's memory from 54 to 188 MB.)
// Larger ones go by rendezvous: RTS on the channel and the receiver matches it. A ring peer's data:
// - the receiver reads it from the sender's memory (process_vm_readv, one copy) and answers ACK;
// - except where the kernel's copy runs at rep movsb's slow distances (runtime/copy_bytes.hpp: the receive buffer a
//   few bytes past the send buffer modulo 4 KiB, as this process measured; in 2026-11 1-31, 1 MiB one way 451-616 us
//   at 16 bytes, 129-154 at 48, 93-124 at 0; on 2026-12-01 1-15, and at 16 bytes 1 MiB both ways took 92 us by the
//   read, 137 in pieces, when 16 was still taken for slow): there the receiver answers CTS, and the sender writes
//   the bytes into the ring as Data records of 64 KiB, which the receiver copies out as they come (two copies, on
//   both cores at once: 57-74 us at those distances).
// The pieces were the rule in one-node jobs until 2026-11-29. On this VM they win while its two processors exchange
// cache lines quickly (bench/core_latency.c under 150 ns: 1 MiB one way 55-78 against 93-120 us, exchanged both ways
// about even), but lose two to three times over when they do not (400 ns and more, which lasts minutes at a time):
// 2 ranks, 1 MiB each way 424-458 against 158 us (alltoall), 128 KiB one way 38 against 16 us. Open MPI and MPICH
// read too (117-121 us one way). Across nodes the read was already the rule: there each piece waited for progress
// passes that also poll the network (4 simulated nodes of 2 ranks, allgather of 1 MiB blocks, ring 11.6 against
// 8.5 ms, hierarchical 13.5 against 7.4 ms by the read).
// STRATA_P2P_CMA=1 or 0 chooses the read or the pieces for every message; STRATA_CMA=0, or a kernel that refuses
// the read, means pieces (MPI_T's strata_p2p_messages_read counts the reads). Between fabric peers the receiver posts
// tagged receives straight into the user buffer and answers CTS, and the sender sends the data through the peer's
// fabric endpoint. So ring peers need no fabric endpoint: a one-node job with rings never initialises libfabric.
// Everything that can not go out at once (ring full, provider busy, no credit) waits in order in a per-peer backlog.
// Flow control between fabric peers: a rank sends a peer at most kFabricCredits messages beyond those the peer has
// taken from its provider. The peer counts what it takes, whether or not a receive matches it (the rest waits in our
// unexpected queue, a few bytes a message), and returns those credits on every message it sends back (Header::
// credit), or in a Credit message once it owes half of them. Without it ofi_rxm held what a slower receiver had not
// taken in 16 KiB buffers: 200000 8-byte messages to a receiver pausing 5 us after each took its memory to 1.66 GB
// and 31 us a message, now 40 MB and 7.2-7.8 us; a long stream of binomial 8-byte reduces on 2 simulated nodes took
// 45-55 us a call after 10000 calls, now 7. Credits never wait behind the backlog, so two peers waiting for each
// other's credits always get them.
// MPI_Cancel of a send that no receive has matched asks the receiver to drop it from its unexpected queue (wire.hpp:
// Cancel); like a rendezvous, the answer needs the receiver's progress.
#pragma once
#include <sys/types.h>

#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "runtime/bootstrap.hpp"
#include "transport/fabric.hpp"
#include "transport/matching.hpp"
#include "transport/shm_ring.hpp"

namespace strata::transport {

class Engine final : public FabricSink {
 public:
  Status init(const runtime::World& world);
  Status finalize();  // waits until our sends are out, then leaves together with every rank

  // The caller fills r's buffer and envelope (for a send, `peer` is the destination's world rank).
  void start_send(Request* r);
  void start_recv(Request* r);
  // MPI_Cancel: a receive not yet matched completes as cancelled at once; a send not yet matched, once its
  // receiver's progress has taken it back. One already matched, or a send gone out eagerly, completes as usual.
  void cancel(Request* r);

  // Probe: the earliest arrived message `want` accepts.
  bool probe(const Envelope& want, RecvStatus& status);
  std::optional<Unexpected> take_message(const Envelope& want, RecvStatus& status);  // MPI_Mprobe
  void receive_message(Request* r, const Unexpected& message);                      // MPI_Mrecv
  uint64_t unexpected_arrivals() const { return queues_.arrivals(); }  // messages ever queued as unexpected
  // A layer that takes its messages by probing (rma/channel.cpp) hears of each one queued as unexpected in its
  // context, and probes only then (MatchQueues::watch; an empty Watcher stops it).
  void watch_arrivals(uint32_t context, MatchQueues::Watcher w) { queues_.watch(context, w); }
  uint64_t messages_read() const { return messages_read_; }  // rendezvous data read from the sender's memory
  // What MPI_T's performance variables read (api/tools_variables.cpp). Every message counts, Strata's own
  // collectives' too: sends as started (their packed bytes), receives as matched (the bytes accepted).
  uint64_t messages_sent() const { return messages_sent_; }
  uint64_t bytes_sent() const { return bytes_sent_; }
  uint64_t messages_received() const { return messages_received_; }
  uint64_t bytes_received() const { return bytes_received_; }
  std::size_t posted_receives() const { return queues_.posted_count(); }         // waiting for a message
  std::size_t unexpected_messages() const { return queues_.unexpected_count(); }  // waiting for a receive
  // A layer that takes messages by probing calls this while it needs them: large eager messages then leave the
  // rings at once instead of waiting there for a posted receive (on_ring_record's lazy path), so they count as
  // arrivals. Counted: every want_every_arrival(true) is undone by one want_every_arrival(false).
  void want_every_arrival(bool on) { probing_layers_ += on ? 1 : -1; }
  // Whether this rank may read or write another process's memory on its node (Linux cross-memory attach): not with
  // STRATA_CMA=0, nor once the kernel has refused (rma/cross_memory.cpp asks too).
  bool cross_memory_allowed() const { return cross_memory_reads_; }

  bool progress();

  // FabricSink
  void on_message(const Header& h, const char* payload, std::size_t len) override;
  void on_data_done(Request* r) override;

 private:
  struct Peer;
  struct DataChunk {
    Request* request;
    FabricEndpoint* endpoint;
    fi_addr_t dest;  // FI_ADDR_UNSPEC for receives
    char* buf;
    std::size_t len;
    uint64_t tag;
    bool receive;
  };

  void post_header(int peer, const Header& h, const void* payload, std::size_t len, Request* complete_on_send);
  bool write_header(Peer& p, const Header& h, const void* payload, std::size_t len);
  void post_eager(int peer, const Header& h, const char* data, std::size_t bytes, Request* complete_on_send);
  void take_in_order(Peer& p, const Header& h, const char* payload, std::size_t len);
  void take_piece(Peer& p, const char* payload, std::size_t len);
  std::size_t accept(Request* r, const Header& h);  // status and counters of a matched receive: the bytes it takes
  void dispatch(const Header& h, const char* payload, std::size_t len);
  void deliver(Request* r, const Header& h, const char* payload, std::size_t len);
  void start_rendezvous_recv(Request* r, const Header& h, std::size_t accepted);
  bool should_read_from_sender(const Header& h, const char* target) const;
  bool read_from_sender(const Header& h, char* target, std::size_t len);
  void send_ack(const Header& h);
  pid_t pid_of(int rank);
  void send_rendezvous_data(Request* s, std::size_t accepted, uint64_t tag);
  void receive_ring_data(const Header& h, const char* payload, std::size_t len);
  void queue_chunks(Request* r, Peer& p, char* buf, std::size_t len, uint64_t tag, bool receive);
  void issue(const DataChunk& c);
  void cancel_send(Request* r);
  void answer_cancel(const Header& h);
  void finish_recv(Request* r);
  void complete(Request* r);
  void complete_cancelled(Request* r);
  bool flush_backlogs();
  bool return_credits(int peer);  // false: the provider is busy, progress retries
  bool flush_credits();
  bool flush_data();
  fi_addr_t address_of(int rank);
  std::size_t eager_limit(const Peer& p) const;
  static char* wire_data_of(Request* r);  // a request's bytes as they travel: its staging, else its buffer
  static char* prepare_receive(Request* r, std::size_t accepted);
  static bool poll(void* self);  // the runtime poller: the same function pointer registers and unregisters
  static bool on_ring_record(void* self, const Header& h, const char* payload, std::size_t len);
  void drain_rings();  // takes every ring record, large or not (probes must see every arrived message)

  runtime::World world_;
  std::vector<Peer> peers_;
  FabricEndpoint shm_, net_;
  RingInbox inbox_;
  bool rings_ = false;
  MatchQueues queues_;
  std::vector<int> backlogged_;  // peers with a non-empty backlog
  std::vector<int> owing_;       // peers whose credits the provider refused to take (return_credits)
  bool draining_ = false;        // drain_rings() is running
  std::deque<DataChunk> pending_data_;
  uint64_t next_data_tag_ = 1;
  bool cross_memory_reads_ = true;  // STRATA_CMA=0, or the kernel refused a read: rendezvous by Cts
  // How a ring peer's rendezvous data travels (STRATA_P2P_CMA): read by the receiver from the sender's memory, or
  // written by the sender into the ring in pieces; Auto as the header says.
  enum class ReadLarge : uint8_t { Never, Always, Auto };
  ReadLarge read_large_ = ReadLarge::Auto;
  int ring_receives_ = 0;           // receives waiting for Data records
  int probing_layers_ = 0;          // want_every_arrival
  // Plain counters, one increment per message: calls are serialized (MPI_THREAD_SERIALIZED at most).
  uint64_t messages_sent_ = 0;
  uint64_t bytes_sent_ = 0;
  uint64_t messages_received_ = 0;
  uint64_t bytes_received_ = 0;
  uint64_t messages_read_ = 0;
};

Engine& engine();

}  // namespace strata::transport
