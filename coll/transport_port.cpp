#include "coll/transport_port.hpp"

#include <algorithm>

#include "coll/schedule.hpp"
#include "datatype/pack.hpp"
#include "transport/engine.hpp"

namespace strata::coll {

void TransportPort::set_run(int tag_base, uint64_t run) {
  tag_base_ = tag_base;
  slot_ = node_slot(tag_base);
  run_ = run;
  run_finished();  // the previous run's, should nothing have said so
  if (channel_.node && slot_ >= 0 && slot_ < NodeSegment::kRotatingSlots) {
    pooled_ = channel_.node->begin_run();
    under_way_ = true;
  }
}

void TransportPort::run_finished() {
  if (under_way_) channel_.node->end_run();
  under_way_ = false;
}

void TransportPort::prepare(int vertices, int tags) {
  tags_ = tags;
  requests_.resize(static_cast<std::size_t>(vertices));
  shared_.resize(static_cast<std::size_t>(vertices));
}

void TransportPort::send(int id, int peer, int tag, const void* buf, std::size_t count,
                         const datatype::TypeRef& type) {
  transport::Request& r = requests_[id];
  r.kind = transport::RequestKind::Send;
  r.buf = const_cast<void*>(buf);
  r.count = count;
  r.type = type;
  r.context = channel_.context;
  r.tag = tag_base_ + tag;
  r.rank = channel_.rank;
  r.peer = channel_.world_ranks[peer];
  transport::engine().start_send(&r);
}

void TransportPort::recv(int id, int peer, int tag, void* buf, std::size_t count, const datatype::TypeRef& type) {
  transport::Request& r = requests_[id];
  r.kind = transport::RequestKind::Recv;
  r.buf = buf;
  r.count = count;
  r.type = type;
  r.context = channel_.context;
  r.tag = tag_base_ + tag;
  r.rank = peer;
  transport::engine().start_recv(&r);
}

void TransportPort::post(Shared::Kind kind, int id, int writer, std::span<const int> readers, int tag,
                         std::size_t count, const datatype::TypeRef& type) {
  Shared& s = shared_[id];
  s = Shared{};
  s.kind = kind;
  s.use = run_ * kTagsPerCollective + static_cast<uint64_t>(tag) + 1;  // never 0, the value of an unused area
  s.count = count;
  s.type = type;
  if (!channel_.node || slot_ < 0) return;  // done() reports it
  const std::vector<int>& index = *channel_.node_index;
  for (int r : readers) s.mask |= uint64_t{1} << index[static_cast<std::size_t>(r)];
  // Successive runs in one slot take its areas in turn too (node_segment.hpp): a writer can run ahead of its readers,
  // and a persistent collective (a slot of its own) can start again before every reader has taken its last block.
  s.place = channel_.node->place(slot_, index[static_cast<std::size_t>(writer)], tag, run_,
                                 pooled_ && kind == Shared::Kind::kPublish ? tags_ : 0);
}

void TransportPort::publish(int id, std::span<const int> readers, int tag, const void* buf, std::size_t count,
                            const datatype::TypeRef& type) {
  post(Shared::Kind::kPublish, id, channel_.rank, readers, tag, count, type);
  shared_[id].from = buf;
}

void TransportPort::read(int id, int writer, std::span<const int> readers, int tag, void* buf, std::size_t count,
                         const datatype::TypeRef& type, const datatype::Op* op, int type_handle) {
  post(Shared::Kind::kRead, id, writer, readers, tag, count, type);
  Shared& s = shared_[id];
  s.to = buf;
  s.op = op;
  s.type_handle = type_handle;
}

// Once every reader has taken the area's previous block (and, for a block in the payload, the payload's other one):
// the block goes in, its description, and last its use.
bool TransportPort::publish_done(Shared& s, int& error, std::string& message) {
  NodeSegment::Area& a = *s.place.area;
  const std::size_t bytes = datatype::wire_bytes(*s.type, s.count);
  if (!channel_.node->free_for(s.place, bytes)) return false;
  if (bytes > NodeSegment::kBlockBytes) {
    error = kErrIntern;
    message = "internal: a collective published " + std::to_string(bytes) + " bytes, more than a node payload holds";
    return true;
  }
  channel_.node->map(s.place.payload_index, bytes, true);
  datatype::pack(s.from, s.count, *s.type, s.place.block(bytes), channel_.node->block_copy());
  a.bytes = static_cast<uint32_t>(bytes);
  ++a.published;
  channel_.node->put(s.place, bytes);
  // Mask and use each release what came before: a reader that sees both of its own has the block.
  a.mask.store(s.mask, std::memory_order_release);
  a.use.store(s.use, std::memory_order_release);
  return true;
}

// Once the writer's block for this run, tag and readers is there: it comes out, and the reader says so.
bool TransportPort::read_done(Shared& s, int& error, std::string& message) {
  NodeSegment::Area& a = *s.place.area;
  // Another group's block may carry the same run and tag (a writer leading two levels): the mask tells them apart.
  if (a.use.load(std::memory_order_acquire) != s.use || a.mask.load(std::memory_order_acquire) != s.mask)
    return false;
  // A copy may take a shorter block; a reduction needs all of its elements.
  const std::size_t capacity = datatype::wire_bytes(*s.type, s.count);
  if (s.op == nullptr ? a.bytes > capacity : a.bytes != capacity) {
    error = kErrTruncate;
    message = "a collective's block of " + std::to_string(a.bytes) + " bytes does not fit the " +
              std::to_string(capacity) + " this rank expects: counts, datatypes or roots differ between the ranks";
  }
  channel_.node->map(a.payload, a.bytes, false);
  const char* block = channel_.node->block(a);
  if (s.op == nullptr)
    datatype::unpack(block, std::min<std::size_t>(a.bytes, capacity), s.count, *s.type, s.to);
  else if (error == 0)  // a contiguous layout's packed bytes are its elements from true_lb on
    datatype::reduce(*s.op, block - s.type->true_lb, s.to, s.count, *s.type, s.type_handle);
  channel_.node->take(a, (*channel_.node_index)[static_cast<std::size_t>(channel_.rank)]);
  return true;
}

bool TransportPort::done(int id, int& error, std::string& message) {
  Shared& s = shared_[id];
  if (s.kind != Shared::Kind::kNone) {
    if (s.complete) return true;
    if (s.place.area == nullptr) {
      error = kErrIntern;
      message = "internal: a collective uses node shared memory where it has none";
      return s.complete = true;
    }
    s.complete = s.kind == Shared::Kind::kPublish ? publish_done(s, error, message) : read_done(s, error, message);
    return s.complete;
  }
  const transport::Request& r = requests_[id];
  if (!r.complete) return false;
  if (r.status.error != 0) {
    error = r.status.error;
    message = "a collective's message from rank " + std::to_string(r.status.source) +
              " is larger than this rank expects: counts, datatypes or roots differ between the ranks";
  }
  return true;
}

}  // namespace strata::coll
