#include "coll/schedule.hpp"

#include <algorithm>
#include <utility>

namespace strata::coll {

VertexId Schedule::add(Vertex v, std::span<const VertexId> after) {
  const auto id = static_cast<VertexId>(vertices_.size());
  if (transfers(v.kind)) tags_ = std::max(tags_, v.tag + 1);
  vertices_.push_back(std::move(v));
  wait_for(id, after);
  return id;
}

void Schedule::wait_for(VertexId id, std::span<const VertexId> after) {
  for (VertexId before : after) {
    if (before == kNoVertex) continue;
    vertices_[before].next.push_back(id);
    ++vertices_[id].deps;
  }
}

VertexId Schedule::send(const Data& what, int peer, int tag, std::span<const VertexId> after) {
  Vertex v;
  v.kind = Kind::kSend;
  v.a = what;
  v.peer = peer;
  v.tag = tag;
  return add(std::move(v), after);
}

VertexId Schedule::recv(const Data& where, int peer, int tag, std::span<const VertexId> after) {
  Vertex v;
  v.kind = Kind::kRecv;
  v.a = where;
  v.peer = peer;
  v.tag = tag;
  return add(std::move(v), after);
}

VertexId Schedule::publish(const Data& what, std::vector<int> readers, int tag, std::span<const VertexId> after) {
  Vertex v;
  v.kind = Kind::kPublish;
  v.a = what;
  v.tag = tag;
  v.extra = group_index(std::move(readers));
  return add(std::move(v), after);
}

int Schedule::group_index(std::vector<int> readers) {
  if (groups_.empty() || groups_.back() != readers) groups_.push_back(std::move(readers));
  return static_cast<int>(groups_.size() - 1);
}

VertexId Schedule::read(const Data& where, int writer, std::vector<int> readers, int tag,
                        std::span<const VertexId> after) {
  Vertex v;
  v.kind = Kind::kRead;
  v.a = where;
  v.peer = writer;
  v.tag = tag;
  v.extra = group_index(std::move(readers));
  return add(std::move(v), after);
}

VertexId Schedule::read_reduce(const Data& inout, int writer, std::vector<int> readers, int tag,
                               const datatype::Op* op, int type_handle, std::span<const VertexId> after) {
  const VertexId id = read(inout, writer, std::move(readers), tag, after);
  vertices_[id].op = op;
  vertices_[id].type_handle = type_handle;
  return id;
}

VertexId Schedule::reduce(const Data& in, const Data& inout, const datatype::Op* op, int type_handle,
                          std::span<const VertexId> after) {
  Vertex v;
  v.kind = Kind::kReduce;
  v.a = in;
  v.b = inout;
  v.op = op;
  v.type_handle = type_handle;
  return add(std::move(v), after);
}

VertexId Schedule::copy(const Data& from, const Data& to, std::span<const VertexId> after) {
  Vertex v;
  v.kind = Kind::kCopy;
  v.a = from;
  v.b = to;
  return add(std::move(v), after);
}

VertexId Schedule::callback(std::function<Status()> fn, std::span<const VertexId> after) {
  Vertex v;
  v.kind = Kind::kCallback;
  v.extra = static_cast<int>(functions_.size());
  functions_.push_back(std::move(fn));
  return add(std::move(v), after);
}

VertexId Schedule::join(std::span<const VertexId> after) { return add(Vertex{}, after); }

VertexId Schedule::append(const Schedule& part, std::span<const VertexId> after, int tag_offset) {
  const auto first = static_cast<VertexId>(vertices_.size());
  const std::uintptr_t scratch_base = scratch(part.scratch_bytes()).at;
  auto moved = [&](Data d) {
    if (d.buf.area == Buf::Area::kScratch) d.buf.at += scratch_base;
    return d;
  };
  // The part's groups and functions follow this schedule's own.
  const auto group_base = static_cast<int>(groups_.size()), function_base = static_cast<int>(functions_.size());
  groups_.insert(groups_.end(), part.groups_.begin(), part.groups_.end());
  functions_.insert(functions_.end(), part.functions_.begin(), part.functions_.end());
  std::vector<VertexId> sinks;
  for (const Vertex& pv : part.vertices()) {
    Vertex v = pv;
    v.a = moved(v.a);
    v.b = moved(v.b);
    if (v.kind == Kind::kPublish || v.kind == Kind::kRead) v.extra += group_base;
    if (v.kind == Kind::kCallback) v.extra += function_base;
    if (transfers(v.kind)) {
      v.tag += tag_offset;
      tags_ = std::max(tags_, v.tag + 1);
    }
    for (VertexId& n : v.next) n += first;
    if (v.next.empty()) sinks.push_back(static_cast<VertexId>(vertices_.size()));
    const bool root = v.deps == 0;
    vertices_.push_back(std::move(v));
    if (root) wait_for(static_cast<VertexId>(vertices_.size() - 1), after);
  }
  if (part.vertices().empty()) return join(after);
  return join(sinks);
}

VertexId Schedule::embed(VertexId first, std::span<const int> peers, int tag_offset, std::span<const VertexId> after) {
  const auto end = static_cast<VertexId>(vertices_.size());
  std::vector<VertexId> sinks;
  int from = -1, to = -1;  // the last group mapped, and its mapped copy
  for (VertexId id = first; id < end; ++id) {
    Vertex& v = vertices_[id];
    if (transfers(v.kind)) {
      if (v.peer >= 0) v.peer = peers[static_cast<std::size_t>(v.peer)];
      // A copy, mapped: the group may be shared with vertices before `first`.
      if (v.extra >= 0 && v.extra != from) {
        std::vector<int> mapped = groups_[static_cast<std::size_t>(v.extra)];
        for (int& r : mapped) r = peers[static_cast<std::size_t>(r)];
        from = v.extra;
        to = group_index(std::move(mapped));
      }
      if (v.extra >= 0) v.extra = to;
      v.tag += tag_offset;
      tags_ = std::max(tags_, v.tag + 1);
    }
    if (v.next.empty()) sinks.push_back(id);
    if (v.deps == 0) wait_for(id, after);
  }
  if (first == end) return join(after);
  return join(sinks);
}

Buf Schedule::scratch(std::size_t bytes) {
  const std::size_t at = (scratch_bytes_ + 63) / 64 * 64;
  scratch_bytes_ = at + bytes;
  return Buf::scratch(at);
}

Data Schedule::temp(std::size_t count, const datatype::TypeRef& type) {
  const std::ptrdiff_t extent = type->extent();
  const std::ptrdiff_t data = type->true_ub - type->true_lb;
  if (count == 0 || type->size == 0) return {scratch(0), count, type};
  // Elements at i * extent for i in [0, count): from the lowest to the highest, whatever the extent's sign.
  const std::ptrdiff_t span = static_cast<std::ptrdiff_t>(count - 1) * extent;
  const std::ptrdiff_t low = type->true_lb + std::min<std::ptrdiff_t>(span, 0);
  const Buf base = scratch(static_cast<std::size_t>(data + (span < 0 ? -span : span)));
  return {base + (-low), count, type};
}

}  // namespace strata::coll
