#include "comm/internal_collectives.hpp"

#include <algorithm>
#include <cstring>

#include "datatype/predefined.hpp"
#include "runtime/progress.hpp"
#include "transport/engine.hpp"

namespace strata::comm {
namespace {

const datatype::TypeRef& bytes_type() {
  static const datatype::TypeRef type = datatype::predefined(datatype::kByte);
  return type;
}

// Sends `out` to member `to` while receiving `in` from member `from`.
void exchange(const View& v, int to, const void* out, std::size_t out_n, int from, void* in, std::size_t in_n,
              int tag) {
  transport::Request send, recv;
  post_recv(recv, v, from, in, in_n, tag);
  post_send(send, v, to, out, out_n, tag);
  runtime::wait_until([&] { return send.complete && recv.complete; });
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

std::vector<char> allgather(const View& v, const std::vector<char>& mine, int tag) {
  const int p = v.size();
  const std::size_t n = mine.size();
  // Blocks in rotated order: block i belongs to member (rank + i) % p.
  std::vector<char> rotated(n * p);
  std::memcpy(rotated.data(), mine.data(), n);
  for (int have = 1; have < p; have *= 2) {
    const int count = std::min(have, p - have);
    const int to = (v.rank - have + p) % p, from = (v.rank + have) % p;
    exchange(v, to, rotated.data(), n * count, from, rotated.data() + n * have, n * count, tag);
  }
  std::vector<char> result(n * p);
  for (int i = 0; i < p; ++i) std::memcpy(result.data() + n * ((v.rank + i) % p), rotated.data() + n * i, n);
  return result;
}

}  // namespace strata::comm
