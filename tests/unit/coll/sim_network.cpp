#include "sim_network.hpp"

#include <algorithm>

#include "coll/node_segment.hpp"
#include "datatype/pack.hpp"

namespace strata::coll::sim {

void SimPort::prepare(int vertices, int) { pending_.assign(static_cast<std::size_t>(vertices), Pending{}); }

void SimPort::send(int id, int peer, int tag, const void* buf, std::size_t count, const datatype::TypeRef& type) {
  std::vector<char> bytes(datatype::wire_bytes(*type, count));
  datatype::pack(buf, count, *type, bytes.data());
  net_.mailbox[{rank_, peer, tag}].push_back(std::move(bytes));
  ++net_.messages_sent;
  pending_[id] = Pending{};
  pending_[id].complete = true;
  pending_[id].peer = peer;
  pending_[id].tag = tag;
}

SimPort::Pending& SimPort::post(int id, Pending::Kind kind, int peer, int tag, std::size_t count,
                                const datatype::TypeRef& type) {
  Pending& p = pending_[id] = Pending{};
  p.kind = kind;
  p.peer = peer;
  p.tag = tag;
  p.count = count;
  p.type = type;
  return p;
}

void SimPort::recv(int id, int peer, int tag, void* buf, std::size_t count, const datatype::TypeRef& type) {
  Pending& p = post(id, Pending::Kind::kMessage, peer, tag, count, type);
  p.receiving = true;
  p.buf = buf;
}

void SimPort::publish(int id, std::span<const int> readers, int tag, const void* buf, std::size_t count,
                      const datatype::TypeRef& type) {
  Pending& p = post(id, Pending::Kind::kPublish, rank_, tag, count, type);
  p.readers.assign(readers.begin(), readers.end());
  p.from = buf;
}

void SimPort::read(int id, int writer, std::span<const int> readers, int tag, void* buf, std::size_t count,
                   const datatype::TypeRef& type, const datatype::Op* op, int type_handle) {
  Pending& p = post(id, Pending::Kind::kRead, writer, tag, count, type);
  p.readers.assign(readers.begin(), readers.end());
  p.buf = buf;
  p.op = op;
  p.type_handle = type_handle;
}

bool SimPort::publish_done(int id) {
  Pending& p = pending_[id];
  SimNetwork::Area& area = net_.areas[{rank_, p.tag % NodeSegment::kAreasPerWriter}];
  if (!area.waiting.empty()) return false;
  // As in the node segment, a block larger than an area's line shares a payload with tag + kPayloadsPerWriter's.
  const std::size_t bytes = datatype::wire_bytes(*p.type, p.count);
  const SimNetwork::Area& other =
      net_.areas[{rank_, (p.tag + NodeSegment::kPayloadsPerWriter) % NodeSegment::kAreasPerWriter}];
  const auto in_payload = [](std::size_t b) { return b > NodeSegment::Area::kInlineBytes; };
  if (in_payload(bytes) && in_payload(other.bytes.size()) && !other.waiting.empty()) return false;
  area.bytes.resize(bytes);
  datatype::pack(p.from, p.count, *p.type, area.bytes.data());
  area.tag = p.tag;
  area.readers = area.waiting = p.readers;
  ++net_.messages_sent;
  return p.complete = true;
}

bool SimPort::read_done(int id, int& error, std::string& message) {
  Pending& p = pending_[id];
  SimNetwork::Area& area = net_.areas[{p.peer, p.tag % NodeSegment::kAreasPerWriter}];
  auto me = std::find(area.waiting.begin(), area.waiting.end(), rank_);
  if (area.tag != p.tag || area.readers != p.readers || me == area.waiting.end()) return false;
  area.waiting.erase(me);
  const std::size_t capacity = datatype::wire_bytes(*p.type, p.count);
  if (area.bytes.size() > capacity) {
    error = 15;  // MPI_ERR_TRUNCATE
    message = "rank " + std::to_string(rank_) + ": a " + std::to_string(area.bytes.size()) + "-byte block from rank " +
              std::to_string(p.peer) + " (tag " + std::to_string(p.tag) + ") into a " + std::to_string(capacity) +
              "-byte read";
  }
  if (p.op == nullptr) {
    datatype::unpack(area.bytes.data(), std::min(area.bytes.size(), capacity), p.count, *p.type, p.buf);
  } else if (!datatype::contiguous(*p.type, p.count) || area.bytes.size() != capacity) {
    error = 15;
    message = "rank " + std::to_string(rank_) + ": a reducing read of a " + std::to_string(area.bytes.size()) +
              "-byte block into " + std::to_string(p.count) + " elements" +
              (datatype::contiguous(*p.type, p.count) ? "" : " of a layout that is not contiguous");
  } else {  // the packed bytes are the elements from true_lb on
    datatype::reduce(*p.op, area.bytes.data() - p.type->true_lb, p.buf, p.count, *p.type, p.type_handle);
  }
  ++net_.messages_received;
  return p.complete = true;
}

bool SimPort::done(int id, int& error, std::string& message) {
  Pending& p = pending_[id];
  if (p.complete) return true;
  if (p.kind == Pending::Kind::kPublish) return publish_done(id);
  if (p.kind == Pending::Kind::kRead) return read_done(id, error, message);
  auto it = net_.mailbox.find({p.peer, rank_, p.tag});
  if (it == net_.mailbox.end() || it->second.empty()) return false;
  std::vector<char> bytes = std::move(it->second.front());
  it->second.pop_front();
  const std::size_t capacity = datatype::wire_bytes(*p.type, p.count);
  if (bytes.size() > capacity) {
    error = 15;  // MPI_ERR_TRUNCATE
    message = "rank " + std::to_string(rank_) + ": " + std::to_string(bytes.size()) + " bytes from rank " +
              std::to_string(p.peer) + " (tag " + std::to_string(p.tag) + ") into a " + std::to_string(capacity) +
              "-byte receive";
  }
  datatype::unpack(bytes.data(), std::min(bytes.size(), capacity), p.count, *p.type, p.buf);
  p.complete = true;
  ++net_.messages_received;
  return true;
}

SimNetwork::SimNetwork(int ranks) {
  for (int r = 0; r < ranks; ++r) ports_.push_back(std::make_unique<SimPort>(*this, r));
}

std::string run_all(int ranks, const std::function<void(int, Schedule&)>& build) {
  SimNetwork net(ranks);
  std::vector<Schedule> schedules(static_cast<std::size_t>(ranks));
  std::vector<std::unique_ptr<Execution>> runs;
  for (int r = 0; r < ranks; ++r) {
    build(r, schedules[r]);
    runs.push_back(std::make_unique<Execution>(schedules[r], net.port(r)));
  }
  for (auto& run : runs) run->start();
  for (;;) {
    bool all = true;
    const std::size_t before = net.messages_sent + net.messages_received;
    for (auto& run : runs) {
      if (!run->finished()) run->progress();
      if (run->error() != 0) return run->message();
      all = all && run->finished();
    }
    if (all) break;
    if (net.messages_sent + net.messages_received == before) {  // a sweep where nothing moved: nothing ever will
      std::string waiting;
      for (int r = 0; r < ranks; ++r)
        if (!runs[r]->finished()) waiting += (waiting.empty() ? "" : ", ") + std::to_string(r);
      return "deadlock: ranks " + waiting + " still waiting";
    }
  }
  for (const auto& [key, area] : net.areas)
    if (!area.waiting.empty())
      return "a block of rank " + std::to_string(key.first) + " with tag " + std::to_string(area.tag) +
             " never taken by rank " + std::to_string(area.waiting.front());
  for (auto& [key, queue] : net.mailbox)
    if (!queue.empty())
      return "message from rank " + std::to_string(std::get<0>(key)) + " to rank " + std::to_string(std::get<1>(key)) +
             " with tag " + std::to_string(std::get<2>(key)) + " never received";
  return "";
}

}  // namespace strata::coll::sim
