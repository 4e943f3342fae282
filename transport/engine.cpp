#include "transport/engine.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "datatype/pack.hpp"
#include "runtime/copy_bytes.hpp"
#include "runtime/lasting.hpp"
#include "runtime/progress.hpp"

namespace strata::transport {
namespace {

constexpr std::size_t kSelfEagerLimit = 16 * 1024;
constexpr int kChunkBits = 20;  // low bits of a data tag number the chunks of one transfer
const char* kAddressKey = "strata.addr";
const char* kHostKey = "strata.host";  // the real host name: simulated nodes (mpiexec --nodes) share one host

std::string real_hostname() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// How many ranks run on this host's cores: the ranks of my node, or, when nodes are simulated, every rank whose
// real host is mine. It decides how long a waiter may spin: on an oversubscribed host a spinning rank holds the core
// its peer needs, and a network poll is a system call, so even a short spin costs milliseconds there.
int ranks_on_host(const runtime::World& world, std::size_t locals, bool has_remote) {
  if (!has_remote) return static_cast<int>(locals);
  const std::string mine = real_hostname();
  int count = 0;
  for (int r = 0; r < world.size; ++r) {
    std::vector<char> host;
    if (r == world.rank || (runtime::lookup(r, kHostKey, host).ok() && std::string(host.begin(), host.end()) == mine))
      ++count;
  }
  return count;
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

void append_part(std::vector<char>& blob, const void* data, uint32_t n) {
  const char* length = reinterpret_cast<const char*>(&n);
  blob.insert(blob.end(), length, length + 4);
  blob.insert(blob.end(), static_cast<const char*>(data), static_cast<const char*>(data) + n);
}

// The published address: [u32 length][shm address][u32 length][net address][u32 length][process id].
std::vector<char> address_blob(const FabricEndpoint& shm, const FabricEndpoint& net) {
  std::vector<char> blob;
  for (const FabricEndpoint* ep : {&shm, &net}) {
    const std::vector<char> a = ep->is_open() ? ep->address() : std::vector<char>{};
    append_part(blob, a.data(), static_cast<uint32_t>(a.size()));
  }
  const pid_t pid = getpid();
  append_part(blob, &pid, sizeof pid);
  return blob;
}

std::vector<char> blob_part(const std::vector<char>& blob, int part) {
  std::size_t at = 0;
  for (int i = 0;; ++i) {
    uint32_t n;
    std::memcpy(&n, blob.data() + at, 4);
    if (i == part) return std::vector<char>(blob.begin() + at + 4, blob.begin() + at + 4 + n);
    at += 4 + n;
  }
}

}  // namespace

struct Engine::Peer {
  enum class Channel : uint8_t { Self, Ring, Fabric };
  struct Pending {
    Header header;
    const void* payload;
    std::size_t len;
    Request* complete_on_send;
  };
  Channel channel = Channel::Self;
  FabricEndpoint* fabric = nullptr;  // rendezvous data, and headers when channel == Fabric
  int address_part = 0;              // which address of the peer's blob `fabric` talks to
  fi_addr_t addr = FI_ADDR_NOTAVAIL;
  pid_t pid = 0;  // looked up at the first read from its memory; -1: unknown
  RingTx ring;
  uint32_t send_seq = 0;
  uint32_t recv_seq = 0;
  uint32_t credits = kFabricCredits;  // fabric messages we may still send it (flow control)
  uint32_t owed = 0;                  // fabric messages taken from it and not yet credited back
  std::deque<Pending> backlog;
  std::map<uint32_t, Unexpected> early;  // fabric messages that overtook an earlier one
  struct Pieces {  // an eager message arriving in pieces (post_eager)
    Header header;
    std::size_t received = 0;
    Request* request = nullptr;  // the posted receive it matched (prepare_receive), else put together in `assembly`
    std::vector<char> assembly;
  } pieces;
};

Engine& engine() {
  static auto& instance = runtime::lasting<Engine>();
  return instance;
}

Status Engine::init(const runtime::World& world) {
  world_ = world;
  const int me = world.rank;
  const uint32_t my_node = world.node_of_rank[me];
  std::vector<int> locals;  // ranks on this node, including me, in rank order: ring slots
  bool has_remote = false;
  for (int r = 0; r < world.size; ++r) {
    if (world.node_of_rank[r] == my_node)
      locals.push_back(r);
    else
      has_remote = true;
  }
  const int my_slot = static_cast<int>(std::find(locals.begin(), locals.end(), me) - locals.begin());
  const bool has_local = locals.size() > 1;
  rings_ = has_local && env_or("STRATA_SHM_RINGS", "1") != "0";

  // Ring peers need no fabric endpoint (the rings carry every byte the receiver does not read itself), and a process
  // that opens none never loads libfabric (transport/fabric_library.hpp: 200 ms of start-up and more).
  if (has_local && !rings_)
    if (Status s = shm_.open(env_or("STRATA_SHM_PROVIDER", "shm"), shm_prefix(world.job_id) + std::to_string(me) + "_fi");
        !s.ok())
      return s;
  if (has_remote)
    if (Status s = net_.open(env_or("STRATA_NET_PROVIDER", "tcp;ofi_rxm")); !s.ok()) return s;
  if (rings_)
    if (Status s = inbox_.create(world.job_id, me, static_cast<int>(locals.size()), my_slot); !s.ok()) return s;
  if (world.launched) {
    if (Status s = runtime::publish(kAddressKey, address_blob(shm_, net_)); !s.ok()) return s;
    const std::string host = real_hostname();
    if (Status s = runtime::publish(kHostKey, std::vector<char>(host.begin(), host.end())); !s.ok()) return s;
    if (Status s = runtime::exchange(); !s.ok()) return s;
  }

  peers_.assign(world.size, Peer{});
  for (int r = 0; r < world.size; ++r) {
    Peer& p = peers_[r];
    if (r == me) continue;
    const bool local = world.node_of_rank[r] == my_node;
    p.channel = local && rings_ ? Peer::Channel::Ring : Peer::Channel::Fabric;
    p.fabric = p.channel == Peer::Channel::Ring ? nullptr : local ? &shm_ : &net_;
    p.address_part = local ? 0 : 1;
  }
  if (rings_)
    for (int r : locals)
      if (r != me)
        if (Status s = inbox_.attach_peer(world.job_id, r, static_cast<int>(locals.size()), my_slot, peers_[r].ring);
            !s.ok())
          return s;
  // Job-wide, so every rank joins it, rings or not. After it every local peer has mapped our segment.
  if (world.launched)
    if (Status s = runtime::barrier(); !s.ok()) return s;
  if (rings_) inbox_.unlink();

  // Oversubscribed (more ranks on this host than cores we may run on): yield almost at once when idle, after 2 idle
  // passes (runtime/progress.hpp: measured against 16, 1 and 0).
  cpu_set_t cpus;
  int ncpus = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
  runtime::set_spin_limit(ranks_on_host(world, locals.size(), has_remote) > ncpus ? 2 : 2000);
  cross_memory_reads_ = env_or("STRATA_CMA", "1") != "0";
  runtime::slow_rep_movsb_distances();  // measured here, not inside the first large message's time
  const std::string read_large = env_or("STRATA_P2P_CMA", "");
  read_large_ = read_large.empty() ? ReadLarge::Auto : read_large == "1" ? ReadLarge::Always : ReadLarge::Never;
  runtime::add_poller(&Engine::poll, this);
  return {};
}

Status Engine::finalize() {
  runtime::wait_until([&] {
    return backlogged_.empty() && pending_data_.empty() && shm_.in_flight() == 0 && net_.in_flight() == 0;
  });
  // Leave together, still progressing: a peer may need our progress to finish its own sends.
  std::atomic<bool> everyone_done{false};
  Status s = runtime::barrier_nb(&everyone_done);
  if (s.ok()) runtime::wait_until([&] { return everyone_done.load(std::memory_order_acquire); });
  runtime::remove_poller(&Engine::poll, this);
  inbox_.destroy();
  shm_.close();
  net_.close();
  peers_.clear();
  return s;
}

std::size_t Engine::eager_limit(const Peer& p) const {
  switch (p.channel) {
    case Peer::Channel::Self: return kSelfEagerLimit;
    case Peer::Channel::Ring: return kRingEagerLimit;
    case Peer::Channel::Fabric: return kFabricEagerLimit;
  }
  return 0;
}

fi_addr_t Engine::address_of(int rank) {
  Peer& p = peers_[rank];
  if (p.addr == FI_ADDR_NOTAVAIL) {
    std::vector<char> blob;
    Status s = runtime::lookup(rank, kAddressKey, blob);
    if (s.ok()) p.addr = p.fabric->insert(blob_part(blob, p.address_part));
    if (p.addr == FI_ADDR_NOTAVAIL) {  // messages to it could only wait forever: end the job instead
      std::fprintf(stderr, "strata: rank %d cannot reach rank %d through %s: %s\n", world_.rank, rank,
                   p.fabric->provider().c_str(), s.ok() ? "address not accepted" : s.message.c_str());
      runtime::abort_job(1, "unreachable peer");
    }
  }
  return p.addr;
}

pid_t Engine::pid_of(int rank) {
  Peer& p = peers_[rank];
  if (p.pid == 0) {
    p.pid = -1;
    std::vector<char> blob;
    if (runtime::lookup(rank, kAddressKey, blob).ok()) {
      const std::vector<char> part = blob_part(blob, 2);
      if (part.size() == sizeof(pid_t)) std::memcpy(&p.pid, part.data(), sizeof(pid_t));
    }
  }
  return p.pid;
}

// Where a contiguous layout's bytes start (integer arithmetic: the buffer may be MPI_BOTTOM).
static char* data_start(Request* r) {
  return reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(r->buf) + r->type->true_lb);
}

char* Engine::wire_data_of(Request* r) {
  return r->staging.empty() ? data_start(r) : r->staging.data();
}

// A receive that takes `accepted` bytes as they arrive: a non-contiguous type stages them (finish_recv unpacks).
char* Engine::prepare_receive(Request* r, std::size_t accepted) {
  r->staging.clear();
  if (!datatype::contiguous(*r->type, r->count)) r->staging.resize(accepted);
  return wire_data_of(r);
}

// ---- Sending headers --------------------------------------------------------------------------------------------

bool Engine::write_header(Peer& p, const Header& h, const void* payload, std::size_t len) {
  switch (p.channel) {
    case Peer::Channel::Self:
      dispatch(h, static_cast<const char*>(payload), len);
      return true;
    case Peer::Channel::Ring:
      return p.ring.try_write(h, payload, len);
    case Peer::Channel::Fabric: {
      const bool counted = h.kind != MsgKind::Credit;
      if (counted && p.credits == 0) return false;  // the receiver has not taken enough yet: flow control
      Header numbered = h;
      numbered.seq = p.send_seq;
      numbered.credit = static_cast<uint16_t>(std::min<uint32_t>(p.owed, UINT16_MAX));  // credits ride along
      if (!p.fabric->send_message(address_of(static_cast<int>(&p - peers_.data())), numbered, payload, len))
        return false;
      ++p.send_seq;
      p.owed -= numbered.credit;
      if (counted) --p.credits;
      return true;
    }
  }
  return false;
}

void Engine::post_header(int peer, const Header& h, const void* payload, std::size_t len, Request* complete_on_send) {
  Peer& p = peers_[peer];
  if (p.backlog.empty() && write_header(p, h, payload, len)) {
    if (complete_on_send) complete(complete_on_send);
    return;
  }
  if (p.backlog.empty()) backlogged_.push_back(peer);
  p.backlog.push_back({h, payload, len, complete_on_send});
}

// Credits ride on every message to the peer (write_header); with none going its way, a Credit message carries them.
// It goes straight out, never behind the backlog: two peers whose backlogs wait for each other's credits would
// otherwise wait forever. One the provider refuses now is retried by progress (owing_).
bool Engine::return_credits(int peer) {
  Peer& p = peers_[peer];
  Header h{};
  h.kind = MsgKind::Credit;
  h.src_world = world_.rank;
  if (p.owed == 0 || write_header(p, h, nullptr, 0)) return true;
  if (std::find(owing_.begin(), owing_.end(), peer) == owing_.end()) owing_.push_back(peer);
  return false;
}

bool Engine::flush_credits() {
  const std::vector<int> owing = std::exchange(owing_, {});
  bool any = false;
  for (int peer : owing) any |= return_credits(peer);
  return any;
}

bool Engine::flush_backlogs() {
  bool any = false;
  for (std::size_t i = 0; i < backlogged_.size();) {
    Peer& p = peers_[backlogged_[i]];
    while (!p.backlog.empty()) {
      Peer::Pending& front = p.backlog.front();
      if (!write_header(p, front.header, front.payload, front.len)) break;
      any = true;
      Request* done = front.complete_on_send;
      p.backlog.pop_front();
      if (done) complete(done);
    }
    if (p.backlog.empty()) {
      backlogged_[i] = backlogged_.back();
      backlogged_.pop_back();
    } else {
      ++i;
    }
  }
  return any;
}

// A fabric message holds kFabricMessagePayload bytes: a larger eager payload follows its header as More messages.
void Engine::post_eager(int peer, const Header& h, const char* data, std::size_t bytes, Request* complete_on_send) {
  const bool fabric = peers_[peer].channel == Peer::Channel::Fabric;
  const std::size_t first = fabric ? std::min(bytes, kFabricMessagePayload) : bytes;
  post_header(peer, h, data, first, first == bytes ? complete_on_send : nullptr);
  Header more = h;
  more.kind = MsgKind::More;
  for (std::size_t off = first; off < bytes; off += kFabricMessagePayload) {
    const std::size_t len = std::min(kFabricMessagePayload, bytes - off);
    post_header(peer, more, data + off, len, off + len == bytes ? complete_on_send : nullptr);
  }
}

void Engine::start_send(Request* r) {
  r->complete = false;
  r->status = {};
  r->cancel_asked = false;
  const std::size_t bytes = datatype::wire_bytes(*r->type, r->count);
  r->staging.clear();
  if (!datatype::contiguous(*r->type, r->count) && bytes > 0) {
    r->staging.resize(bytes);
    datatype::pack(r->buf, r->count, *r->type, r->staging.data());
  }
  Header h{};
  h.src_world = world_.rank;
  h.src_rank = r->rank;
  h.tag = r->tag;
  h.context = r->context;
  h.bytes = bytes;
  h.cookie = reinterpret_cast<uintptr_t>(r);
  ++messages_sent_;
  bytes_sent_ += bytes;
  if (bytes <= eager_limit(peers_[r->peer])) {
    h.kind = MsgKind::Eager;
    h.sync = r->mode == SendMode::Synchronous;
    post_eager(r->peer, h, wire_data_of(r), bytes, h.sync ? nullptr : r);  // sync: completes on Ack
  } else {
    h.kind = MsgKind::Rts;
    h.data_tag = reinterpret_cast<uintptr_t>(wire_data_of(r));  // a same-node receiver reads from here
    post_header(r->peer, h, nullptr, 0, nullptr);  // completes on Ack (read) or once the data is out (Cts)
  }
}

// ---- Receiving --------------------------------------------------------------------------------------------------

void Engine::start_recv(Request* r) {
  r->complete = false;
  r->status = {};
  const bool arrived = queues_.consume_unexpected({r->context, r->rank, r->tag}, [&](const Unexpected& u) {
    deliver(r, u.header, u.payload.data(), u.payload.size());
  });
  if (!arrived) queues_.post(r);
}

bool Engine::poll(void* self) { return static_cast<Engine*>(self)->progress(); }

// A large eager message stays in its ring until this rank can use it: a receive is posted (it may be the one; if not,
// the message is moved to the unexpected queue to reach the ones behind it), a probe looks, or this rank's own sends
// are stuck behind a full ring (the peer may be waiting for them before it receives). So a sender that runs ahead
// (a root streaming broadcasts) is held back by the ring, instead of growing this rank's unexpected queue without
// bound, one freshly faulted 64 KiB buffer per message. Such messages went by rendezvous before the eager limit rose
// to 64 KiB, which held the sender back further: no program that worked then can block now.
constexpr std::size_t kLazyEagerBytes = 16 * 1024;

bool Engine::on_ring_record(void* self, const Header& h, const char* payload, std::size_t len) {
  Engine& e = *static_cast<Engine*>(self);
  // A receive waiting for Data records behind this message takes it too.
  // A synchronous one does not wait there: a Cancel for it may come behind.
  if (h.kind == MsgKind::Eager && !h.sync && len > kLazyEagerBytes && !e.draining_ && e.queues_.posted_count() == 0 &&
      e.backlogged_.empty() && e.ring_receives_ == 0 && e.probing_layers_ == 0)
    return false;
  e.dispatch(h, payload, len);
  return true;
}

void Engine::drain_rings() {
  if (!rings_) return;
  draining_ = true;
  inbox_.poll(&Engine::on_ring_record, this);
  draining_ = false;
}

void Engine::on_message(const Header& h, const char* payload, std::size_t len) {
  Peer& p = peers_[h.src_world];
  p.credits += h.credit;
  // Taken from the provider, its buffer is the provider's again: the sender may send one more.
  if (h.kind != MsgKind::Credit && ++p.owed >= kFabricCredits / 2) return_credits(h.src_world);
  if (h.seq != p.recv_seq) {  // overtook an earlier message: hold it back
    p.early.emplace(h.seq, Unexpected{h, std::vector<char>(payload, payload + len)});
    return;
  }
  take_in_order(p, h, payload, len);
  ++p.recv_seq;
  for (auto it = p.early.find(p.recv_seq); it != p.early.end(); it = p.early.find(p.recv_seq)) {
    Unexpected held = std::move(it->second);
    p.early.erase(it);
    take_in_order(p, held.header, held.payload.data(), held.payload.size());
    ++p.recv_seq;
  }
}

// An eager message larger than one fabric message arrives as its header with the first bytes, then More messages
// (post_eager); nothing else from that peer comes between them. It matches as it starts to arrive: a posted receive
// takes the pieces straight into its buffer; else they are put together, and the message matches once whole.
void Engine::take_in_order(Peer& p, const Header& h, const char* payload, std::size_t len) {
  if (h.kind == MsgKind::More) {
    take_piece(p, payload, len);
    return;
  }
  if (h.kind != MsgKind::Eager || len == h.bytes) {
    dispatch(h, payload, len);
    return;
  }
  Peer::Pieces& m = p.pieces;
  m.header = h;
  m.received = 0;
  m.assembly.clear();
  m.request = queues_.take_posted({h.context, h.src_rank, h.tag});
  if (Request* r = m.request) prepare_receive(r, accept(r, h));
  take_piece(p, payload, len);
}

void Engine::take_piece(Peer& p, const char* payload, std::size_t len) {
  Peer::Pieces& m = p.pieces;
  if (m.request == nullptr) {
    m.assembly.insert(m.assembly.end(), payload, payload + len);
  } else if (const std::size_t accepted = m.request->status.bytes; m.received < accepted) {
    runtime::copy_bytes(wire_data_of(m.request) + m.received, payload, std::min(len, accepted - m.received));
  }
  m.received += len;
  if (m.received < m.header.bytes) return;
  if (m.request == nullptr) {
    dispatch(m.header, m.assembly.data(), m.assembly.size());
    return;
  }
  if (m.header.sync) send_ack(m.header);
  finish_recv(m.request);
}

void Engine::dispatch(const Header& h, const char* payload, std::size_t len) {
  switch (h.kind) {
    case MsgKind::Eager:
    case MsgKind::Rts:
      if (Request* r = queues_.take_posted({h.context, h.src_rank, h.tag})) {
        deliver(r, h, payload, len);
      } else {
        queues_.add_unexpected(h, payload, h.kind == MsgKind::Eager ? len : 0);
      }
      break;
    case MsgKind::Cts:
      send_rendezvous_data(reinterpret_cast<Request*>(h.cookie), h.bytes, h.data_tag);
      break;
    case MsgKind::Ack:
      complete(reinterpret_cast<Request*>(h.cookie));
      break;
    case MsgKind::Data:
      receive_ring_data(h, payload, len);
      break;
    case MsgKind::Cancel:
      answer_cancel(h);
      break;
    case MsgKind::CancelReply:  // 0: matched, and the request may be complete and freed by now
      if (h.bytes == 1) complete_cancelled(reinterpret_cast<Request*>(h.cookie));
      break;
    case MsgKind::More:  // take_in_order assembles them
      break;
    case MsgKind::Credit:  // on_message took its credits
      break;
  }
}

std::size_t Engine::accept(Request* r, const Header& h) {
  const std::size_t capacity = datatype::wire_bytes(*r->type, r->count);
  const std::size_t accepted = std::min<std::size_t>(h.bytes, capacity);
  r->status = {h.src_rank, h.tag, accepted < h.bytes ? kErrTruncate : 0, accepted, false};
  ++messages_received_;
  bytes_received_ += accepted;
  return accepted;
}

void Engine::deliver(Request* r, const Header& h, const char* payload, std::size_t len) {
  const std::size_t accepted = accept(r, h);
  if (h.kind == MsgKind::Rts) {
    start_rendezvous_recv(r, h, accepted);
    return;
  }
  datatype::unpack(payload, std::min(len, accepted), r->count, *r->type, r->buf);
  if (h.sync) {
    if (h.src_world == world_.rank)
      complete(reinterpret_cast<Request*>(h.cookie));
    else
      send_ack(h);
  }
  complete(r);
}

void Engine::send_ack(const Header& h) {
  Header ack{};
  ack.kind = MsgKind::Ack;
  ack.src_world = world_.rank;
  ack.cookie = h.cookie;
  post_header(h.src_world, ack, nullptr, 0, nullptr);
}

// A ring peer's receiver reads the sender's bytes itself (Linux cross-memory attach), so a rendezvous takes one
// message each way instead of three, each side's progress once, and one copy (engine.hpp: measurements). Not where
// the kernel's copy would be slow for these two buffers, nor with STRATA_P2P_CMA=0. Where the kernel refuses
// (another user, ptrace restrictions, seccomp), the first refusal turns reading off for this rank, and Cts brings the
// bytes through the ring.
bool Engine::should_read_from_sender(const Header& h, const char* target) const {
  if (!cross_memory_reads_ || peers_[h.src_world].channel != Peer::Channel::Ring) return false;
  switch (read_large_) {
    case ReadLarge::Never:
      return false;
    case ReadLarge::Always:
      return true;
    case ReadLarge::Auto:
      break;
  }
  const void* source = reinterpret_cast<const void*>(static_cast<uintptr_t>(h.data_tag));
  return !runtime::slow_rep_movsb_distance(target, source);
}

bool Engine::read_from_sender(const Header& h, char* target, std::size_t len) {
  if (!should_read_from_sender(h, target)) return false;
  const pid_t pid = pid_of(h.src_world);
  std::size_t done = 0;
  while (pid > 0 && done < len) {
    iovec local{target + done, len - done};
    iovec remote{reinterpret_cast<void*>(h.data_tag + done), len - done};
    const ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  if (done < len) {
    cross_memory_reads_ = false;
    return false;
  }
  ++messages_read_;
  return true;
}

void Engine::start_rendezvous_recv(Request* r, const Header& h, std::size_t accepted) {
  if (h.src_world == world_.rank) {  // our own send: copy straight from its buffer
    Request* s = reinterpret_cast<Request*>(h.cookie);
    datatype::unpack(wire_data_of(s), accepted, r->count, *r->type, r->buf);
    complete(s);
    complete(r);
    return;
  }
  char* target = prepare_receive(r, accepted);
  if (accepted > 0 && read_from_sender(h, target, accepted)) {
    send_ack(h);
    finish_recv(r);
    return;
  }
  Peer& p = peers_[h.src_world];
  uint64_t tag = 0;
  r->pending_chunks = 0;
  if (p.channel == Peer::Channel::Ring) {  // the sender writes the bytes into the ring as Data records
    tag = reinterpret_cast<uintptr_t>(r);
    r->pending_chunks = static_cast<int>((accepted + kRingEagerLimit - 1) / kRingEagerLimit);
    if (accepted > 0) ++ring_receives_;
  } else {
    tag = next_data_tag_++ << kChunkBits;
    queue_chunks(r, p, target, accepted, tag, true);  // posted before CTS: data never waits
  }
  Header cts{};
  cts.kind = MsgKind::Cts;
  cts.src_world = world_.rank;
  cts.bytes = accepted;
  cts.cookie = h.cookie;
  cts.data_tag = tag;
  post_header(h.src_world, cts, nullptr, 0, nullptr);
  if (accepted == 0) finish_recv(r);
}

void Engine::send_rendezvous_data(Request* s, std::size_t accepted, uint64_t tag) {
  s->pending_chunks = 0;
  if (accepted == 0) {
    complete(s);
    return;
  }
  Peer& p = peers_[s->peer];
  if (p.channel != Peer::Channel::Ring) {
    queue_chunks(s, p, wire_data_of(s), accepted, tag, false);
    return;
  }
  Header d{};
  d.kind = MsgKind::Data;
  d.src_world = world_.rank;
  d.cookie = tag;  // the receiver's request
  const char* data = wire_data_of(s);
  for (std::size_t off = 0; off < accepted; off += kRingEagerLimit) {
    d.data_tag = off;
    d.bytes = std::min(kRingEagerLimit, accepted - off);
    post_header(s->peer, d, data + off, d.bytes, off + d.bytes == accepted ? s : nullptr);
  }
}

void Engine::receive_ring_data(const Header& h, const char* payload, std::size_t len) {
  Request* r = reinterpret_cast<Request*>(h.cookie);
  char* target = wire_data_of(r);
  runtime::copy_bytes(target + h.data_tag, payload, len);
  if (--r->pending_chunks > 0) return;
  --ring_receives_;
  finish_recv(r);
}

void Engine::queue_chunks(Request* r, Peer& p, char* buf, std::size_t len, uint64_t tag, bool receive) {
  const std::size_t chunk = p.fabric->max_chunk();
  const fi_addr_t dest = receive ? FI_ADDR_UNSPEC : address_of(static_cast<int>(&p - peers_.data()));
  for (std::size_t off = 0, i = 0; off < len; off += chunk, ++i) {
    ++r->pending_chunks;
    issue({r, p.fabric, dest, buf + off, std::min(chunk, len - off), tag + i, receive});
  }
}

void Engine::issue(const DataChunk& c) {
  bool ok = pending_data_.empty() && (c.receive ? c.endpoint->recv_data(c.buf, c.len, c.tag, c.request)
                                                : c.endpoint->send_data(c.dest, c.buf, c.len, c.tag, c.request));
  if (!ok) pending_data_.push_back(c);
}

bool Engine::flush_data() {
  bool any = false;
  while (!pending_data_.empty()) {
    const DataChunk& c = pending_data_.front();
    bool ok = c.receive ? c.endpoint->recv_data(c.buf, c.len, c.tag, c.request)
                        : c.endpoint->send_data(c.dest, c.buf, c.len, c.tag, c.request);
    if (!ok) break;
    pending_data_.pop_front();
    any = true;
  }
  return any;
}

void Engine::on_data_done(Request* r) {
  if (--r->pending_chunks > 0) return;
  if (r->kind == RequestKind::Recv)
    finish_recv(r);
  else
    complete(r);
}

void Engine::finish_recv(Request* r) {
  if (!r->staging.empty()) datatype::unpack(r->staging.data(), r->status.bytes, r->count, *r->type, r->buf);
  complete(r);
}

void Engine::complete(Request* r) {
  r->complete = true;
  if (r->freed) delete r;
}

// ---- Cancel and probe -------------------------------------------------------------------------------------------

void Engine::complete_cancelled(Request* r) {
  r->status = {};
  r->status.cancelled = true;
  complete(r);
}

void Engine::cancel(Request* r) {
  if (r->kind == RequestKind::Send)
    cancel_send(r);
  else if (queues_.remove_posted(r))
    complete_cancelled(r);
}

// A send waits for its receiver after an Rts or a synchronous Eager: if that header is still in the backlog, nobody
// has seen it; otherwise the receiver decides (answer_cancel).
void Engine::cancel_send(Request* r) {
  if (r->complete || r->cancel_asked) return;
  const uint64_t cookie = reinterpret_cast<uintptr_t>(r);
  std::deque<Peer::Pending>& backlog = peers_[r->peer].backlog;
  const auto held = std::find_if(backlog.begin(), backlog.end(), [&](const Peer::Pending& q) {
    return (q.header.kind == MsgKind::Eager || q.header.kind == MsgKind::Rts) && q.header.cookie == cookie;
  });
  if (held != backlog.end()) {  // with the rest of its payload (post_eager), which follows it
    const auto rest = std::find_if(held + 1, backlog.end(), [&](const Peer::Pending& q) {
      return q.header.kind != MsgKind::More || q.header.cookie != cookie;
    });
    backlog.erase(held, rest);  // flush_backlogs() drops the peer once its backlog is empty
    complete_cancelled(r);
    return;
  }
  r->cancel_asked = true;
  Header h{};
  h.kind = MsgKind::Cancel;
  h.src_world = world_.rank;
  h.src_rank = r->rank;
  h.tag = r->tag;
  h.context = r->context;
  h.cookie = cookie;
  post_header(r->peer, h, nullptr, 0, nullptr);
}

// The Cancel follows its message on the one ordered channel, so the message has arrived: unexpected still, or matched.
void Engine::answer_cancel(const Header& h) {
  Header reply{};
  reply.kind = MsgKind::CancelReply;
  reply.src_world = world_.rank;
  reply.cookie = h.cookie;
  reply.bytes = queues_.remove_unexpected({h.context, h.src_rank, h.tag}, h.src_world, h.cookie) ? 1 : 0;
  post_header(h.src_world, reply, nullptr, 0, nullptr);
}

static void fill_status(const Header& h, RecvStatus& status) { status = {h.src_rank, h.tag, 0, h.bytes, false}; }

bool Engine::probe(const Envelope& want, RecvStatus& status) {
  drain_rings();
  const Unexpected* u = queues_.peek_unexpected(want);
  if (u) fill_status(u->header, status);
  return u != nullptr;
}

std::optional<Unexpected> Engine::take_message(const Envelope& want, RecvStatus& status) {
  drain_rings();
  std::optional<Unexpected> u = queues_.take_unexpected(want);
  if (u) fill_status(u->header, status);
  return u;
}

void Engine::receive_message(Request* r, const Unexpected& message) {
  r->complete = false;
  deliver(r, message.header, message.payload.data(), message.payload.size());
}

// ---- Progress ---------------------------------------------------------------------------------------------------

bool Engine::progress() {
  bool any = false;
  if (rings_) any |= inbox_.poll(&Engine::on_ring_record, this);
  if (net_.is_open()) any |= net_.poll(*this);
  if (shm_.is_open()) any |= shm_.poll(*this);
  if (!owing_.empty()) any |= flush_credits();
  if (!backlogged_.empty()) any |= flush_backlogs();
  if (!pending_data_.empty()) any |= flush_data();
  return any;
}

}  // namespace strata::transport
