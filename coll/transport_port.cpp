#include "coll/transport_port.hpp"

#include "transport/engine.hpp"

namespace strata::coll {

void TransportPort::prepare(int vertices, int) { requests_.resize(static_cast<std::size_t>(vertices)); }

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

bool TransportPort::done(int id, int& error, std::string& message) {
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
