#include "coll/execution.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "datatype/pack.hpp"

namespace strata::coll {

Execution::Execution(const Schedule& schedule, Port& port)
    : schedule_(schedule), port_(port), scratch_storage_(schedule.scratch_bytes() + 64) {
  const auto raw = reinterpret_cast<std::uintptr_t>(scratch_storage_.data());
  scratch_ = scratch_storage_.data() + ((64 - raw % 64) % 64);
  const auto n = static_cast<int>(schedule.vertices().size());
  remaining_ = n;  // not finished before its first start
  deps_.resize(n);
  initial_deps_.reserve(n);
  for (const Vertex& v : schedule.vertices()) {
    if (v.deps == 0) roots_.push_back(static_cast<int>(initial_deps_.size()));
    initial_deps_.push_back(v.deps);
  }
  in_flight_.reserve(n);
  local_ready_.reserve(n);
  port_.prepare(n, schedule.tags());
}

void* Execution::address(const Buf& b) {
  return b.area == Buf::Area::kScratch ? scratch_ + b.at : reinterpret_cast<void*>(b.at);
}

void Execution::start() {
  remaining_ = static_cast<int>(initial_deps_.size());
  told_finished_ = false;
  error_ = 0;
  message_.clear();
  in_flight_.clear();
  local_ready_.clear();
  std::copy(initial_deps_.begin(), initial_deps_.end(), deps_.begin());
  for (int root : roots_) ready(root);
  progress();
}

void Execution::ready(int id) {
  const Vertex& v = schedule_.vertices()[id];
  switch (v.kind) {
    case Kind::kSend:
      port_.send(id, v.peer, v.tag, address(v.a.buf), v.a.count, v.a.type);
      in_flight_.push_back(id);
      break;
    case Kind::kRecv:
      port_.recv(id, v.peer, v.tag, address(v.a.buf), v.a.count, v.a.type);
      in_flight_.push_back(id);
      break;
    case Kind::kPublish:
      port_.publish(id, schedule_.group(v), v.tag, address(v.a.buf), v.a.count, v.a.type);
      in_flight_.push_back(id);
      break;
    case Kind::kRead:
      port_.read(id, v.peer, schedule_.group(v), v.tag, address(v.a.buf), v.a.count, v.a.type, v.op, v.type_handle);
      in_flight_.push_back(id);
      break;
    default:
      local_ready_.push_back(id);
  }
}

// Copies between two layouts of the same signature: straight when both are contiguous, else through the packed
// stream.
static void copy_data(const void* from, std::size_t from_count, const datatype::Datatype& from_type, void* to,
                      std::size_t to_count, const datatype::Datatype& to_type) {
  const std::size_t bytes = datatype::wire_bytes(from_type, from_count);
  if (bytes == 0) return;
  if (datatype::contiguous(to_type, to_count)) {
    datatype::pack(from, from_count, from_type,
                   reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(to) + to_type.true_lb));
    return;
  }
  std::vector<char> stream(bytes);
  datatype::pack(from, from_count, from_type, stream.data());
  datatype::unpack(stream.data(), bytes, to_count, to_type, to);
}

bool Execution::progress() {
  const std::vector<Vertex>& vs = schedule_.vertices();
  for (bool moved = true; moved && !finished();) {  // until done, or nothing more can move now
    moved = false;
    while (!local_ready_.empty() && error_ == 0) {
      const int id = local_ready_.back();
      local_ready_.pop_back();
      const Vertex& v = vs[id];
      if (v.kind == Kind::kReduce) {
        datatype::reduce(*v.op, address(v.a.buf), address(v.b.buf), v.a.count, *v.a.type, v.type_handle);
      } else if (v.kind == Kind::kCopy) {
        copy_data(address(v.a.buf), v.a.count, *v.a.type, address(v.b.buf), v.b.count, *v.b.type);
      } else if (v.kind == Kind::kCallback) {
        if (Status s = schedule_.function(v)(); !s.ok()) {  // nothing after it runs; what is in flight drains
          error_ = s.error_class;
          message_ = s.message;
          break;
        }
      }
      completed(id);
      moved = true;
    }
    if (in_flight_.empty()) continue;
    port_.poll();
    for (std::size_t i = 0; i < in_flight_.size();) {
      const int id = in_flight_[i];
      const Kind kind = vs[id].kind;
      const bool abandoned = error_ != 0 && (kind == Kind::kPublish || kind == Kind::kRead);  // no request to drain
      if (!abandoned && !port_.done(id, error_, message_)) {
        ++i;
        continue;
      }
      in_flight_[i] = in_flight_.back();
      in_flight_.pop_back();
      if (error_ == 0) completed(id);  // after a failure, only drain what is in flight
      moved = true;
    }
  }
  if (!finished()) return false;
  if (!told_finished_) port_.run_finished();
  told_finished_ = true;
  return true;
}

void Execution::completed(int id) {
  --remaining_;
  for (VertexId n : schedule_.vertices()[id].next)
    if (--deps_[n] == 0) ready(n);
}

}  // namespace strata::coll
