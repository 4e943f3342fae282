// A collective as data: a DAG of vertices (send, receive, publish, read, local reduce, copy, callback) with
// dependency counts.
// Algorithms build schedules (algorithms/*.cpp) and never move data themselves; an Execution runs one (execution.hpp)
// over a Port: the real transport, or an in-memory network of simulated ranks in the unit tests. The same built
// schedule can run many times (persistent collectives): everything a run needs is in it, scratch included.
//
// Buffers are user memory (addresses fixed at build time, as the MPI call gave them) or the schedule's scratch (an
// offset, so each Execution gets its own scratch). Tags are small integers local to the schedule: each run gets a
// block of tags on the communicator's collective context, and a vertex's tag is an offset in that block. Two
// messages between the same pair of ranks that may be in flight together must use different tags.
//
// Publish and read move data through the node's shared memory (node_segment.hpp) instead of messages: a publish is
// one copy into the writer's area, read by each of its readers with one copy out, so a node-level bcast to k ranks
// is one write and k reads rather than k messages of two copies each. Both name the same readers (the group) and
// tag; a writer publishes to one group with one tag at most once per run (a reader could not tell two such blocks
// apart).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <vector>

#include "coll/buf.hpp"
#include "coll/successors.hpp"
#include "datatype/datatype.hpp"
#include "datatype/op.hpp"
#include "runtime/status.hpp"

namespace strata::coll {

// The largest number of tags one schedule may use: each run gets a block of this many on its communicator.
constexpr int kTagsPerCollective = 1 << 12;

// `count` elements of `type` at `buf`.
struct Data {
  Buf buf;
  std::size_t count = 0;
  datatype::TypeRef type;
};

// Elements [first, first + n) of `d`, one extent apart.
inline Data elements(const Data& d, std::size_t first, std::size_t n) {
  return {d.buf + static_cast<std::ptrdiff_t>(first) * d.type->extent(), n, d.type};
}

// `d` cut into runs of `chunk` elements, the last one shorter (the node's memory takes long blocks an area at a
// time): how many, and the k-th.
inline std::size_t pieces(std::size_t count, std::size_t chunk) { return count == 0 ? 0 : (count - 1) / chunk + 1; }
inline Data piece(const Data& d, std::size_t chunk, std::size_t k) {
  return elements(d, k * chunk, std::min(chunk, d.count - k * chunk));
}

enum class Kind : uint8_t { kSend, kRecv, kPublish, kRead, kReduce, kCopy, kCallback, kNop };

// The vertices that move data between ranks (and so take a tag and a peer or group).
inline bool transfers(Kind k) {
  return k == Kind::kSend || k == Kind::kRecv || k == Kind::kPublish || k == Kind::kRead;
}

using VertexId = int;
// "Nothing to wait for" (data there from the start, a step that did not happen): accepted, and skipped, in any
// `after` list, so builders need not filter their dependencies.
constexpr VertexId kNoVertex = -1;

struct Vertex {
  Kind kind = Kind::kNop;
  Data a;                            // send, publish: what; recv, read: where; reduce: in; copy: from
  Data b;                            // reduce: inout (b = a op b); copy: to
  int peer = -1;                     // send/recv: rank in the communicator; read: the writer's
  int tag = 0;                       // transfers: offset in the run's tag block
  const datatype::Op* op = nullptr;  // reduce; read: combine the block into `a` (a = block op a) instead of copying
  int type_handle = 0;               // reduce: the MPI handle a user function receives
  // publish/read: its readers, Schedule::group(); callback: its function, Schedule::function(). Kept beside the
  // vertices, as few vertices have either: a vector and a std::function in each made it 192 bytes rather than 136.
  int extra = -1;
  int deps = 0;                      // vertices that must complete first
  Successors<VertexId> next;         // vertices that wait for this one
};

class Schedule {
 public:
  // Each adds a vertex that starts once every vertex in `after` has completed, and returns its id.
  VertexId send(const Data& what, int peer, int tag, std::span<const VertexId> after = {});
  VertexId recv(const Data& where, int peer, int tag, std::span<const VertexId> after = {});
  // `what` into the node's shared memory for each rank of `readers`, which read it with read(). Every rank involved
  // must be on this node (Args::shared_memory).
  VertexId publish(const Data& what, std::vector<int> readers, int tag, std::span<const VertexId> after = {});
  VertexId read(const Data& where, int writer, std::vector<int> readers, int tag, std::span<const VertexId> after = {});
  // A read that reduces the block into `inout` (inout = block op inout) straight from the node's memory, sparing the
  // copy out; `inout` must be contiguous (the block is its packed bytes).
  VertexId read_reduce(const Data& inout, int writer, std::vector<int> readers, int tag, const datatype::Op* op,
                       int type_handle, std::span<const VertexId> after = {});
  VertexId reduce(const Data& in, const Data& inout, const datatype::Op* op, int type_handle,
                  std::span<const VertexId> after = {});
  VertexId copy(const Data& from, const Data& to, std::span<const VertexId> after = {});
  VertexId callback(std::function<Status()> fn, std::span<const VertexId> after = {});
  VertexId join(std::span<const VertexId> after);  // a no-op: one id standing for several
  // Adds all of `part` (a sub-schedule) to run after `after`, its tags shifted by `tag_offset` and its scratch
  // placed after this one's. Returns a vertex that completes when all of `part` has. The offset must be the same
  // on every rank (a rank's own tags() may be smaller than another's: a leaf of a tree uses fewer).
  VertexId append(const Schedule& part, std::span<const VertexId> after, int tag_offset);
  // Makes the vertices from `first` on, which an algorithm has just built into this schedule for a subset of the
  // ranks (a level of a hierarchical algorithm), a part of it: their peers p become peers[p], their tags move up by
  // `tag_offset`, and those that waited for nothing now wait for `after`. Returns a vertex that completes when all
  // of them have. Unlike append(), the part shares this schedule's scratch, so its buffers may be scratch here.
  VertexId embed(VertexId first, std::span<const int> peers, int tag_offset, std::span<const VertexId> after);
  // The same with a brace list: s.send(d, peer, tag, {v1, v2}).
  VertexId send(const Data& what, int peer, int tag, std::initializer_list<VertexId> after) {
    return send(what, peer, tag, std::span<const VertexId>(after.begin(), after.size()));
  }
  VertexId recv(const Data& where, int peer, int tag, std::initializer_list<VertexId> after) {
    return recv(where, peer, tag, std::span<const VertexId>(after.begin(), after.size()));
  }
  VertexId publish(const Data& what, std::vector<int> readers, int tag, std::initializer_list<VertexId> after) {
    return publish(what, std::move(readers), tag, std::span<const VertexId>(after.begin(), after.size()));
  }
  VertexId read(const Data& where, int writer, std::vector<int> readers, int tag,
                std::initializer_list<VertexId> after) {
    return read(where, writer, std::move(readers), tag, std::span<const VertexId>(after.begin(), after.size()));
  }
  VertexId reduce(const Data& in, const Data& inout, const datatype::Op* op, int type_handle,
                  std::initializer_list<VertexId> after) {
    return reduce(in, inout, op, type_handle, std::span<const VertexId>(after.begin(), after.size()));
  }
  VertexId copy(const Data& from, const Data& to, std::initializer_list<VertexId> after) {
    return copy(from, to, std::span<const VertexId>(after.begin(), after.size()));
  }
  VertexId join(std::initializer_list<VertexId> after) {
    return join(std::span<const VertexId>(after.begin(), after.size()));
  }
  VertexId callback(std::function<Status()> fn, std::initializer_list<VertexId> after) {
    return callback(std::move(fn), std::span<const VertexId>(after.begin(), after.size()));
  }
  VertexId append(const Schedule& part, std::initializer_list<VertexId> after, int tag_offset) {
    return append(part, std::span<const VertexId>(after.begin(), after.size()), tag_offset);
  }

  // Reserves `bytes` of scratch (64-byte aligned) and returns its buffer.
  Buf scratch(std::size_t bytes);
  // Scratch for `count` elements of `type` laid out as in a user buffer (so gaps, lb and true_lb work as there).
  Data temp(std::size_t count, const datatype::TypeRef& type);
  std::size_t scratch_bytes() const { return scratch_bytes_; }
  // Tags used: one more than the largest vertex tag.
  int tags() const { return tags_; }
  const std::vector<Vertex>& vertices() const { return vertices_; }
  // A publish's or read's readers (ranks in the communicator), and a callback's function.
  const std::vector<int>& group(const Vertex& v) const { return groups_[static_cast<std::size_t>(v.extra)]; }
  const std::function<Status()>& function(const Vertex& v) const {
    return functions_[static_cast<std::size_t>(v.extra)];
  }

 private:
  VertexId add(Vertex v, std::span<const VertexId> after);
  void wait_for(VertexId id, std::span<const VertexId> after);  // id starts after each of them
  int group_index(std::vector<int> readers);
  std::vector<Vertex> vertices_;
  // Publishes and reads of one group in a row (a bcast's chunks) share its entry.
  std::vector<std::vector<int>> groups_;
  std::vector<std::function<Status()>> functions_;
  std::size_t scratch_bytes_ = 0;
  int tags_ = 0;
};

}  // namespace strata::coll
