// One-sided operations by messages (see channel.hpp).
#include "rma/channel.hpp"

#include <algorithm>
#include <cstring>

#include "comm/internal_collectives.hpp"
#include "datatype/op.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"
#include "rma/accumulate.hpp"
#include "rma/target_type.hpp"
#include "runtime/lasting.hpp"
#include "runtime/progress.hpp"
#include "transport/engine.hpp"

namespace strata::rma {
namespace {

const datatype::TypeRef& bytes_type() {
  static auto& type = runtime::lasting<const datatype::TypeRef>(datatype::predefined(datatype::kByte));
  return type;
}

bool is_operation(Kind k) { return k <= Kind::CompareSwap; }

// A put or accumulate of this many bytes or more sends its data in a message of its own, from the origin's buffer
// (no packed copy): a put's goes into the target's memory (one copy where the transport's rendezvous reads it
// across, instead of three: pack, transport, unpack), an accumulate's into scratch the target then folds in. 2 ranks,
// dynamic window, one operation + flush (bench/rma.c, 2026-12-03): put 1 MiB 175-201 us before, 61 after (Open MPI
// 49-56); 64 KiB 15 against 5.5; 8 and 16 KiB 2.7-3.2 and 3.4-4.1 against 2.3-2.5 and 2.9-3.2; 4 KiB even.
// Accumulate (doubles, MPI_SUM) 1 MiB 231-278 against 102-103, 64 KiB 19-22 against 8.1-8.6 (MPICH 10.8), 8 KiB
// 3.0-3.6 against 2.2-2.6. Across 2 simulated nodes (tcp) puts were no slower at 4-64 KiB.
constexpr std::size_t kSeparateDataBytes = 8 * 1024;

// One poller serves every channel and visits only those with something to do, so that a progress pass costs
// nothing per idle window: with one poller per window probing its context after every arrival, 400 windows made
// one Rput and flush take 8-11 us instead of 2.4 (Global Arrays keeps a window per array).
struct Lists {
  std::size_t channels = 0;
  std::vector<Channel*> arrived;  // told of an arrival in their context: take_requests
  std::vector<Channel*> busy;     // requests to apply or sends to finish
};
Lists& lists() {
  static auto& l = runtime::lasting<Lists>();
  return l;
}

}  // namespace

Channel::Channel(const comm::Communicator& c, TargetMemory memory, bool operations)
    : comm_(c),
      memory_(std::move(memory)),
      operations_(operations),
      sent_to_(c.size),
      applied_from_(c.size),
      posts_from_(c.size),
      completes_from_(c.size) {
  // take_requests must see large requests as they arrive, not when a receive is posted.
  if (operations_) transport::engine().want_every_arrival(true);
  if (lists().channels++ == 0) runtime::add_poller(&Channel::poll, nullptr);
  transport::engine().watch_arrivals(comm_.context, {&Channel::on_arrival, this});
}

Channel::~Channel() {
  // The caller has closed every epoch and passed a barrier, so nothing is in flight to or from here but sends the
  // transport still finishes (an answer's last bytes).
  runtime::wait_until([&] { return sends_done(); });
  transport::engine().watch_arrivals(comm_.context, {});
  Lists& l = lists();
  std::erase(l.arrived, this);
  std::erase(l.busy, this);
  if (--l.channels == 0) runtime::remove_poller(&Channel::poll, nullptr);
  if (operations_) transport::engine().want_every_arrival(false);
}

// ---- Origin side ----------------------------------------------------------------------------------------------

// A request's message: the header, the target type when there is an access, the origin's data packed when given.
std::vector<char> Channel::request_bytes(const RequestHeader& h, const TargetAccess* at, const OriginBuffer* data) {
  std::vector<char> bytes(sizeof h);
  std::memcpy(bytes.data(), &h, sizeof h);
  if (at != nullptr) encode_type(*at->type, bytes);
  if (data != nullptr && data->count > 0) {
    const std::size_t head = bytes.size();
    bytes.resize(head + datatype::wire_bytes(*data->type, data->count));
    datatype::pack(data->buf, data->count, *data->type, bytes.data() + head);
  }
  return bytes;
}

void Channel::bytes_request(Message& m, transport::RequestKind kind, int tag, int rank) const {
  transport::Request& r = m.request;
  r.kind = kind;
  r.buf = m.bytes.data();
  r.count = m.bytes.size();
  r.type = bytes_type();
  r.context = comm_.context;
  r.tag = tag;
  r.rank = rank;
}

void Channel::send(int to, std::vector<char> bytes, int tag) {
  auto out = std::make_unique<Message>();
  out->bytes = std::move(bytes);
  bytes_request(*out, transport::RequestKind::Send, tag, comm_.rank);
  start_send(to, std::move(out));
}

void Channel::send_from(int to, char* addr, std::size_t count, datatype::TypeRef type, int tag) {
  auto out = std::make_unique<Message>();
  bytes_request(*out, transport::RequestKind::Send, tag, comm_.rank);
  transport::Request& r = out->request;
  r.buf = addr;
  r.count = count;
  r.type = std::move(type);
  start_send(to, std::move(out));
}

void Channel::start_send(int to, std::unique_ptr<Message> out) {
  transport::Request& r = out->request;
  r.peer = comm_.world_rank(to);
  transport::engine().start_send(&r);
  if (r.complete) return;
  outgoing_.push_back(std::move(out));
  list_busy();
}

int Channel::next_answer_tag() {
  const int tag = answer_tag_;
  answer_tag_ = answer_tag_ == kLastAnswerTag ? kFirstAnswerTag : answer_tag_ + 1;
  return tag;
}

int Channel::next_data_tag() {
  const int tag = data_tag_;
  data_tag_ = data_tag_ == kLastDataTag ? kFirstDataTag : data_tag_ + 1;
  return tag;
}

Answer Channel::expect_answer(int target, void* buf, std::size_t count, datatype::TypeRef type, int tag) {
  auto r = std::make_shared<transport::Request>();
  r->kind = transport::RequestKind::Recv;
  r->buf = buf;
  r->count = count;
  r->type = std::move(type);
  r->context = comm_.context;
  r->tag = tag;
  r->rank = target;
  transport::engine().start_recv(r.get());
  pending_.push_back({target, r});
  return r;
}

Answer Channel::put(const OriginBuffer& origin, const TargetAccess& at) {
  return send_with_data(Kind::Put, 0, origin, at);
}

Answer Channel::send_with_data(Kind kind, int op, const OriginBuffer& origin, const TargetAccess& at) {
  const bool separate = datatype::wire_bytes(*at.type, at.count) >= kSeparateDataBytes;
  const int data_tag = separate ? next_data_tag() : 0;
  const RequestHeader h{kind, 0, 0, op, 0, data_tag, at.disp, at.count};
  send(at.target, request_bytes(h, &at, separate ? nullptr : &origin), kRequestTag);
  ++sent_to_[at.target];
  return separate ? send_data(at.target, origin, data_tag) : nullptr;
}

Answer Channel::send_data(int target, const OriginBuffer& data, int tag) {
  auto r = std::make_shared<transport::Request>();
  r->kind = transport::RequestKind::Send;
  r->buf = const_cast<void*>(data.buf);
  r->count = data.count;
  r->type = data.type;
  r->context = comm_.context;
  r->tag = tag;
  r->rank = comm_.rank;
  r->peer = comm_.world_rank(target);
  transport::engine().start_send(r.get());
  pending_.push_back({target, r});
  return r;
}

Answer Channel::get(const OriginBuffer& origin, const TargetAccess& at) {
  const int tag = next_answer_tag();
  Answer answer = expect_answer(at.target, const_cast<void*>(origin.buf), origin.count, origin.type, tag);
  const RequestHeader h{Kind::Get, 0, 0, 0, tag, 0, at.disp, at.count};
  send(at.target, request_bytes(h, &at, nullptr), kRequestTag);
  ++sent_to_[at.target];
  return answer;
}

Answer Channel::accumulate(const OriginBuffer& origin, const TargetAccess& at, int op) {
  return send_with_data(Kind::Accumulate, op, origin, at);
}

Answer Channel::get_accumulate(const OriginBuffer& origin, const OriginBuffer& result, const TargetAccess& at,
                               int op) {
  const int tag = next_answer_tag();
  Answer answer = expect_answer(at.target, const_cast<void*>(result.buf), result.count, result.type, tag);
  const RequestHeader h{Kind::GetAccumulate, 0, 0, op, tag, 0, at.disp, at.count};
  send(at.target, request_bytes(h, &at, &origin), kRequestTag);
  ++sent_to_[at.target];
  return answer;
}

Answer Channel::compare_swap(const void* origin, const void* compare, const OriginBuffer& result,
                             const TargetAccess& at) {
  const int tag = next_answer_tag();
  Answer answer = expect_answer(at.target, const_cast<void*>(result.buf), 1, result.type, tag);
  const RequestHeader h{Kind::CompareSwap, 0, 0, 0, tag, 0, at.disp, 1};
  const std::size_t n = at.type->size;
  std::vector<char> bytes = request_bytes(h, &at, nullptr);
  const std::size_t head = bytes.size();
  bytes.resize(head + 2 * n);
  std::memcpy(bytes.data() + head, compare, n);
  std::memcpy(bytes.data() + head + n, origin, n);
  send(at.target, std::move(bytes), kRequestTag);
  ++sent_to_[at.target];
  return answer;
}

// ---- Synchronisation ------------------------------------------------------------------------------------------

// The scan resumes at the first answer still missing (they come about in order), so waiting for n answers costs
// O(n) in all, not O(n) at every poll (MPICH's rma/manyget, 10^5 gets then a fence, took 98 s between two nodes).
// Another thread's wait may erase answers meanwhile (the library lock is handed over while waiting): then the scan
// starts again.
void Channel::await_answers(int target) {
  std::size_t first_missing = 0;
  std::uint64_t erasures = pending_erasures_;
  runtime::wait_until([&] {
    if (erasures != pending_erasures_) first_missing = 0, erasures = pending_erasures_;
    for (; first_missing < pending_.size(); ++first_missing) {
      const Pending& p = pending_[first_missing];
      if ((target < 0 || p.target == target) && !p.request->complete) return false;
    }
    return true;
  });
  std::erase_if(pending_, [&](const Pending& p) { return p.request->complete; });
  ++pending_erasures_;
}

void Channel::request_each(const std::vector<int>& targets, Kind kind, bool exclusive) {
  for (int t : targets) {
    const RequestHeader h{kind, static_cast<std::uint8_t>(exclusive), 0, 0, next_answer_tag(), 0, 0, 0};
    expect_answer(t, nullptr, 0, bytes_type(), h.answer_tag);
    send(t, request_bytes(h, nullptr, nullptr), kRequestTag);
  }
  await_answers(targets.size() == 1 ? targets[0] : -1);
}

void Channel::lock(const std::vector<int>& targets, bool exclusive) { request_each(targets, Kind::Lock, exclusive); }
void Channel::unlock(const std::vector<int>& targets) { request_each(targets, Kind::Unlock, false); }
void Channel::flush(const std::vector<int>& targets) { request_each(targets, Kind::Flush, false); }

void Channel::fence() {
  await_answers(-1);
  const comm::View v{comm_.collective_context(), comm_.rank, &comm_.world_ranks};
  std::vector<char> mine(sent_to_.size() * sizeof(std::uint64_t));
  std::memcpy(mine.data(), sent_to_.data(), mine.size());
  const std::vector<char> all = comm::allgather(v, mine, comm::kTagAllgather);
  std::vector<std::uint64_t> expected(comm_.size);
  for (int o = 0; o < comm_.size; ++o) {
    const std::size_t row = static_cast<std::size_t>(o) * comm_.size + comm_.rank;  // origin o's count for us
    std::memcpy(&expected[o], all.data() + row * sizeof(std::uint64_t), sizeof(std::uint64_t));
  }
  runtime::wait_until([&] {
    for (int o = 0; o < comm_.size; ++o)
      if (applied_from_[o] < expected[o]) return false;
    return true;
  });
}

void Channel::post(const std::vector<int>& origins) {
  const RequestHeader h{Kind::Post, 0, 0, 0, 0, 0, 0, 0};
  for (int o : origins) send(o, request_bytes(h, nullptr, nullptr), kRequestTag);
}

void Channel::start(const std::vector<int>& targets) {
  runtime::wait_until([&] {
    for (int t : targets)
      if (posts_from_[t] == 0) return false;
    return true;
  });
  for (int t : targets) --posts_from_[t];
}

void Channel::complete(const std::vector<int>& targets) {
  for (int t : targets)
    send(t, request_bytes(RequestHeader{Kind::Complete, 0, 0, 0, 0, 0, 0, 0}, nullptr, nullptr), kRequestTag);
  for (int t : targets) await_answers(t);
}

bool Channel::completed(const std::vector<int>& origins) {
  if (!runtime::test_once([&] { return all_completed(origins); })) return false;
  for (int o : origins) --completes_from_[o];
  return true;
}

void Channel::wait_completed(const std::vector<int>& origins) {
  runtime::wait_until([&] { return all_completed(origins); });
  for (int o : origins) --completes_from_[o];
}

bool Channel::all_completed(const std::vector<int>& origins) const {
  return std::all_of(origins.begin(), origins.end(), [this](int o) { return completes_from_[o] > 0; });
}

// ---- Target side ----------------------------------------------------------------------------------------------

void Channel::on_arrival(void* self) {
  auto* c = static_cast<Channel*>(self);
  if (c->listed_arrived_) return;
  c->listed_arrived_ = true;
  lists().arrived.push_back(c);
}

bool Channel::sends_done() {
  while (!outgoing_.empty() && outgoing_.front()->request.complete) outgoing_.pop_front();
  return outgoing_.empty();
}

void Channel::list_busy() {
  if (listed_busy_) return;
  listed_busy_ = true;
  lists().busy.push_back(this);
}

// By index: a visit may list channels (its own sends).
bool Channel::poll(void*) {
  Lists& l = lists();
  bool moved = false;
  for (std::size_t i = 0; i < l.arrived.size(); ++i) {
    l.arrived[i]->listed_arrived_ = false;
    moved |= l.arrived[i]->take_requests();
  }
  l.arrived.clear();
  for (std::size_t i = 0; i < l.busy.size();) {
    Channel* c = l.busy[i];
    moved |= c->apply_arrived();
    if (c->sends_done() && c->incoming_.empty() && !c->landing_) {
      c->listed_busy_ = false;
      l.busy[i] = l.busy.back();
      l.busy.pop_back();
    } else {
      ++i;
    }
  }
  return moved;
}

// Takes every arrived request off the transport's unexpected queue into a receive of its exact size.
bool Channel::take_requests() {
  transport::Engine& engine = transport::engine();
  bool moved = false;
  transport::RecvStatus status;
  while (auto message = engine.take_message({comm_.context, transport::kAnySource, kRequestTag}, status)) {
    auto in = std::make_unique<Message>();
    in->bytes.resize(status.bytes);
    bytes_request(*in, transport::RequestKind::Recv, kRequestTag, status.source);
    engine.receive_message(&in->request, *message);
    incoming_.push_back(std::move(in));
    moved = true;
  }
  if (moved) list_busy();
  return moved;
}

// Applies arrived requests in arrival order; one whose bytes are still coming, or an operation whose data is, holds
// the later ones back, and so does an Unlock or a Complete while answers to its origin are still leaving: they are
// sent from the window's memory (send_from), which the lock the Unlock releases, or the access epoch the Complete
// ends, lets processes change.
bool Channel::apply_arrived() {
  bool moved = landing_ != nullptr && landed();  // an operation's data has just landed
  while (landed() && !incoming_.empty() && incoming_.front()->request.complete) {
    if (ends_access(*incoming_.front()) && answers_leaving(incoming_.front()->request.status.source)) break;
    std::unique_ptr<Message> in = std::move(incoming_.front());
    incoming_.pop_front();
    apply(in->request.status.source, in->bytes.data(), in->bytes.size());
    moved = true;
  }
  return moved;
}

void Channel::land(int origin, const RequestHeader& h, char* addr, datatype::TypeRef type) {
  landing_ = std::make_unique<Landing>(Landing{{}, origin, h, addr, std::move(type)});
  Message& m = landing_->message;
  const bool in_place = h.kind == Kind::Put && addr != nullptr;
  if (!in_place) m.bytes.resize(datatype::wire_bytes(*landing_->type, h.count));
  bytes_request(m, transport::RequestKind::Recv, h.data_tag, origin);
  if (in_place) {
    m.request.buf = addr;
    m.request.count = h.count;
    m.request.type = landing_->type;
  }
  transport::engine().start_recv(&m.request);
}

void Channel::finish_landing(std::pair<std::uintptr_t, std::size_t> region) {
  runtime::wait_until([&] {
    if (!landing_) return true;
    const auto at = reinterpret_cast<std::uintptr_t>(landing_->addr);
    return (at < region.first || at >= region.first + region.second) || landed();
  });
}

bool Channel::landed() {
  if (!landing_) return true;
  if (!landing_->message.request.complete) return false;
  const Landing& l = *landing_;
  if (l.header.kind == Kind::Accumulate && l.addr != nullptr)
    accumulate_packed(l.addr, l.header.count, *l.type, l.header.op, l.message.bytes.data());
  ++applied_from_[l.origin];
  landing_.reset();
  return true;
}

bool Channel::ends_access(const Message& m) {
  RequestHeader h;
  if (m.bytes.size() < sizeof h) return false;
  std::memcpy(&h, m.bytes.data(), sizeof h);
  return h.kind == Kind::Unlock || h.kind == Kind::Complete;
}

bool Channel::answers_leaving(int origin) const {
  const int peer = comm_.world_rank(origin);
  return std::any_of(outgoing_.begin(), outgoing_.end(), [&](const std::unique_ptr<Message>& m) {
    return m->request.peer == peer && !m->request.complete;
  });
}

void Channel::apply(int origin, const char* bytes, std::size_t len) {
  RequestHeader h;
  if (len < sizeof h) return;  // not a request of ours
  std::memcpy(&h, bytes, sizeof h);
  const char* rest = bytes + sizeof h;
  const std::size_t rest_len = len - sizeof h;
  auto answer = [&](std::vector<char> data) { send(origin, std::move(data), h.answer_tag); };
  switch (h.kind) {
    case Kind::Lock:
      for (const LockQueue::Waiter& w : lock_.request({origin, h.exclusive != 0, h.answer_tag}))
        send(w.origin, {}, w.answer_tag);
      return;
    case Kind::Unlock:
      answer({});
      for (const LockQueue::Waiter& w : lock_.release(origin)) send(w.origin, {}, w.answer_tag);
      return;
    case Kind::Flush: answer({}); return;
    case Kind::Post: ++posts_from_[origin]; return;
    case Kind::Complete: ++completes_from_[origin]; return;
    default: break;
  }
  if (!is_operation(h.kind)) return;
  if (apply_operation(origin, h, rest, rest_len)) ++applied_from_[origin];
}

char* Channel::target_address(const RequestHeader& h, const datatype::Datatype& type) const {
  if (!memory_.dynamic) return memory_.base + h.disp * memory_.disp_unit;
  // A dynamic window: every byte of the access must lie in attached memory, which regions attached side by side
  // (they never overlap) cover together.
  const auto [first, last] = span_of(type, h.count);
  std::uintptr_t covered = static_cast<std::uintptr_t>(h.disp + first);
  const std::uintptr_t hi = static_cast<std::uintptr_t>(h.disp + last);
  while (covered < hi) {
    const auto region = std::find_if(memory_.attached.begin(), memory_.attached.end(), [&](const auto& r) {
      return covered >= r.first && covered < r.first + r.second;
    });
    if (region == memory_.attached.end()) return nullptr;
    covered = region->first + region->second;
  }
  return reinterpret_cast<char*>(h.disp);
}

bool Channel::apply_operation(int origin, const RequestHeader& h, const char* rest, std::size_t len) {
  std::size_t used = 0;
  const datatype::TypeRef type = decode_type(rest, len, used);
  if (!type) return true;
  const char* data = rest + used;
  const std::size_t data_len = len - used;
  char* addr = target_address(h, *type);
  const std::size_t bytes = datatype::wire_bytes(*type, h.count);
  auto answer = [&](std::vector<char> out) { send(origin, std::move(out), h.answer_tag); };
  if (h.data_tag != 0) {
    land(origin, h, addr, type);
    return false;
  }
  // A dynamic window's access outside every attached region is erroneous (MPI-4.0 12.2.4); it is dropped, and an
  // empty answer keeps the origin from waiting forever.
  if (addr == nullptr && bytes > 0) {
    if (h.answer_tag != 0) answer({});
    return true;
  }
  switch (h.kind) {
    case Kind::Put:
      if (data_len >= bytes) datatype::unpack(data, bytes, h.count, *type, addr);
      return true;
    case Kind::Get:
      send_from(origin, addr, h.count, type, h.answer_tag);
      return true;
    case Kind::Accumulate:
      if (data_len >= bytes) accumulate_packed(addr, h.count, *type, h.op, data);
      return true;
    case Kind::GetAccumulate: {
      std::vector<char> old(bytes);
      if (bytes > 0) datatype::pack(addr, h.count, *type, old.data());
      if (h.op != datatype::kOpNoOp && data_len >= bytes) accumulate_packed(addr, h.count, *type, h.op, data);
      answer(std::move(old));
      return true;
    }
    case Kind::CompareSwap: {
      const std::size_t n = type->size;
      std::vector<char> old(addr, addr + n);
      if (data_len >= 2 * n && std::memcmp(addr, data, n) == 0) std::memcpy(addr, data + n, n);
      answer(std::move(old));
      return true;
    }
    default: return true;
  }
}

}  // namespace strata::rma
