#include "comm/internal_collectives.hpp"

#include "coll/algorithms.hpp"
#include "coll/execution.hpp"
#include "coll/transport_port.hpp"
#include "datatype/predefined.hpp"
#include "runtime/lasting.hpp"
#include "runtime/progress.hpp"
#include "transport/engine.hpp"

namespace strata::comm {
namespace {

const datatype::TypeRef& bytes_type() {
  static auto& type = runtime::lasting<const datatype::TypeRef>(datatype::predefined(datatype::kByte));
  return type;
}

}  // namespace

void post_send(transport::Request& r, const View& v, int to, const void* buf, std::size_t n, int tag) {
  r.kind = transport::RequestKind::Send;
  r.buf = const_cast<void*>(buf);
  r.count = n;
  r.type = bytes_type();
  r.context = v.context;
  r.tag = tag;
  r.rank = v.rank;
  r.peer = (*v.world_ranks)[to];
  transport::engine().start_send(&r);
}

void post_recv(transport::Request& r, const View& v, int from, void* buf, std::size_t n, int tag) {
  r.kind = transport::RequestKind::Recv;
  r.buf = buf;
  r.count = n;
  r.type = bytes_type();
  r.context = v.context;
  r.tag = tag;
  r.rank = from;
  transport::engine().start_recv(&r);
}

// Bruck's allgather from the collective engine, on the view's context with this call's own tags.
std::vector<char> allgather(const View& v, const std::vector<char>& mine, int tag) {
  const std::size_t n = mine.size();
  std::vector<char> all(n * static_cast<std::size_t>(v.size()));
  coll::Args a;
  a.rank = v.rank;
  a.size = v.size();
  a.sendbuf = mine.data();
  a.recvbuf = all.data();
  a.sendcount = a.recvcount = n;
  a.sendtype = a.recvtype = bytes_type();
  coll::Schedule schedule;
  coll::find_algorithm(coll::Operation::kAllgather, "bruck")->build(a, schedule);
  coll::TransportPort port({v.context, v.rank, *v.world_ranks, nullptr, nullptr}, tag);
  coll::Execution run(schedule, port);
  run.start();
  runtime::wait_until([&] { return run.progress(); });
  return all;
}

}  // namespace strata::comm
