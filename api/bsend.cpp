// Buffered sends (MPI-4.0 3.6): MPI_Buffer_attach / detach, MPI_Bsend, MPI_Ibsend, MPI_Bsend_init. A buffered send
// packs its message into the attached buffer and a standard send carries it from there, so the call completes at
// once, whatever the receiver does. Each message takes its packed size plus MPI_BSEND_OVERHEAD bytes of the buffer
// (the standard's sizing rule), first fit among the gaps the messages still in flight leave; their space comes back
// once their sends complete, which is looked at whenever space is wanted. Detach waits for all of them.
// A message the buffer has no room for is an error of the call that starts it (MPI_Bsend, MPI_Ibsend, MPI_Start),
// as in MPICH and Open MPI: reported only when the request completes, the receive posted for it would keep an
// MPI_Waitall over both from ever returning it.
// Each call has its large-count twin (MPI_Bsend_c, MPI_Buffer_attach_c, ...; MPI-4.0 2.5.8), sharing its code.
#include <limits>
#include <list>
#include <memory>

#include "api/p2p.hpp"
#include "datatype/pack.hpp"
#include "runtime/progress.hpp"

using namespace strata;
using namespace strata::api;

namespace {

struct InFlight {
  std::size_t offset = 0;  // of its space in the buffer
  std::size_t length = 0;  // packed bytes + MPI_BSEND_OVERHEAD
  transport::Request send;
};

struct Attached {
  char* base = nullptr;
  std::size_t size = 0;
  bool attached = false;
  std::list<InFlight> in_flight;  // by offset
};
Attached g_buffer;

void reclaim() { g_buffer.in_flight.remove_if([](const InFlight& m) { return m.send.complete; }); }

// First fit: the place in the list before which a message of `length` bytes goes, and its offset; false if none.
bool find_space(std::size_t length, std::list<InFlight>::iterator& before, std::size_t& offset) {
  offset = 0;
  for (before = g_buffer.in_flight.begin(); before != g_buffer.in_flight.end(); ++before) {
    if (before->offset - offset >= length) return true;
    offset = before->offset + before->length;
  }
  return g_buffer.size - offset >= length;
}

std::size_t free_bytes() {
  std::size_t used = 0;
  for (const InFlight& m : g_buffer.in_flight) used += m.length;
  return g_buffer.size - used;
}

// Packs r's message into the attached buffer and starts its send from there; false, with MPI_ERR_BUFFER and the
// reason in r's status, when the buffer lacks room.
bool send_from_buffer(ApiRequest& r) {
  const std::size_t bytes = datatype::wire_bytes(*r.type, r.count);
  const std::size_t length = bytes + MPI_BSEND_OVERHEAD;
  reclaim();
  std::list<InFlight>::iterator before;
  std::size_t offset = 0;
  if (!g_buffer.attached || !find_space(length, before, offset)) {
    r.status.error = MPI_ERR_BUFFER;
    r.failure = !g_buffer.attached ? "no buffer is attached (MPI_Buffer_attach)"
                                   : "the message needs " + std::to_string(length) + " bytes of the attached buffer (" +
                                         std::to_string(bytes) + " + MPI_BSEND_OVERHEAD), and " +
                                         std::to_string(free_bytes()) + " of its " + std::to_string(g_buffer.size) +
                                         " are free";
    return false;
  }
  InFlight& m = *g_buffer.in_flight.emplace(before);  // list nodes stay put: the engine holds &m.send
  m.offset = offset;
  m.length = length;
  char* at = g_buffer.base + offset;
  datatype::pack(r.buf, r.count, *r.type, at);
  transport::Request& s = m.send;
  s.kind = transport::RequestKind::Send;
  s.buf = at;
  s.count = bytes;
  s.type = datatype_ref(MPI_BYTE);
  s.context = r.context;
  s.tag = r.tag;
  s.rank = r.rank;
  s.peer = r.peer;
  s.mode = transport::SendMode::Standard;
  transport::engine().start_send(&s);
  return true;
}

}  // namespace

namespace strata::api {

bool start_buffered(ApiRequest& r) {
  r.status = {MPI_ANY_SOURCE, MPI_ANY_TAG, 0, 0, false};
  if (!r.proc_null && !send_from_buffer(r)) return false;  // r stays inactive
  r.active = true;
  r.complete = true;
  return true;
}

void finish_buffered_sends() {
  runtime::wait_until([] {
    reclaim();
    return g_buffer.in_flight.empty();
  });
}

}  // namespace strata::api

namespace {

enum class Form { kBlocking, kNonblocking, kPersistent };

int buffered_send(const char* call, const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, Form form, MPI_Request* request) {
  Operation op;
  Check check(call, comm);
  check_send(check, buf, count, type, dest, tag, comm, op);
  if (form != Form::kBlocking) check.not_null(request, "request");
  if (!check.ok()) return check.raise();
  if (form == Form::kBlocking) {
    ApiRequest r;
    prepare_send(r, op, transport::SendMode::Standard, Lifetime::kCall);
    start_buffered(r);
    return request_error(call, r);
  }
  auto r = std::make_unique<ApiRequest>();
  prepare_send(*r, op, transport::SendMode::Standard, Lifetime::kHandle);
  r->buffered = true;
  r->persistent = form == Form::kPersistent;
  if (!r->persistent && !start_buffered(*r)) {
    *request = MPI_REQUEST_NULL;
    return request_error(call, *r);
  }
  *request = add_request(r.release());
  return MPI_SUCCESS;
}

int attach(const char* call, void* buffer, MPI_Count size) {
  Check check(call);
  if (size < 0) check.fail(MPI_ERR_ARG, "invalid size " + std::to_string(size) + " (must be >= 0)");
  if (check.ok() && size > 0 && buffer == nullptr) check.fail(MPI_ERR_BUFFER, "buffer is NULL");
  if (check.ok() && g_buffer.attached)
    check.fail(MPI_ERR_BUFFER, "a buffer is already attached (MPI_Buffer_detach it first)");
  if (!check.ok()) return check.raise();
  g_buffer.base = static_cast<char*>(buffer);
  g_buffer.size = static_cast<std::size_t>(size);
  g_buffer.attached = true;
  return MPI_SUCCESS;
}

// buffer_addr is really a void**: the attached buffer's address goes there (MPI-4.0 3.6.1). Without a buffer
// attached, NULL and 0 (as MPICH and Open MPI answer). The int call refuses, and leaves attached, a buffer whose
// size an int cannot hold (MPI_ERR_VALUE_TOO_LARGE; MPI_Buffer_detach_c returns it).
template <class Size>
int detach(const char* call, void* buffer_addr, Size* size) {
  Check check(call);
  check.not_null(buffer_addr, "buffer_addr").not_null(size, "size");
  if (check.ok() && g_buffer.size > static_cast<std::size_t>(std::numeric_limits<Size>::max()))
    check.fail(MPI_ERR_VALUE_TOO_LARGE, "the attached buffer's " + std::to_string(g_buffer.size) +
                                            " bytes do not fit an int (use MPI_Buffer_detach_c)");
  if (!check.ok()) return check.raise();
  finish_buffered_sends();
  *static_cast<void**>(buffer_addr) = g_buffer.base;
  *size = static_cast<Size>(g_buffer.size);
  g_buffer = Attached{};
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Buffer_attach)
extern "C" int PMPI_Buffer_attach(void* buffer, int size) {
  const runtime::CallScope call_scope;
  return attach("MPI_Buffer_attach", buffer, size);
}

STRATA_PMPI(Buffer_attach_c)
extern "C" int PMPI_Buffer_attach_c(void* buffer, MPI_Count size) {
  const runtime::CallScope call_scope;
  return attach("MPI_Buffer_attach_c", buffer, size);
}

STRATA_PMPI(Buffer_detach)
extern "C" int PMPI_Buffer_detach(void* buffer_addr, int* size) {
  const runtime::CallScope call_scope;
  return detach("MPI_Buffer_detach", buffer_addr, size);
}

STRATA_PMPI(Buffer_detach_c)
extern "C" int PMPI_Buffer_detach_c(void* buffer_addr, MPI_Count* size) {
  const runtime::CallScope call_scope;
  return detach("MPI_Buffer_detach_c", buffer_addr, size);
}

STRATA_PMPI(Bsend)
extern "C" int PMPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return buffered_send("MPI_Bsend", buf, count, type, dest, tag, comm, Form::kBlocking, nullptr);
}

STRATA_PMPI(Bsend_c)
extern "C" int PMPI_Bsend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return buffered_send("MPI_Bsend_c", buf, count, type, dest, tag, comm, Form::kBlocking, nullptr);
}

STRATA_PMPI(Ibsend)
extern "C" int PMPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request* request) {
  const runtime::CallScope call_scope;
  return buffered_send("MPI_Ibsend", buf, count, type, dest, tag, comm, Form::kNonblocking, request);
}

STRATA_PMPI(Ibsend_c)
extern "C" int PMPI_Ibsend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                             MPI_Request* request) {
  const runtime::CallScope call_scope;
  return buffered_send("MPI_Ibsend_c", buf, count, type, dest, tag, comm, Form::kNonblocking, request);
}

STRATA_PMPI(Bsend_init)
extern "C" int PMPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                               MPI_Request* request) {
  const runtime::CallScope call_scope;
  return buffered_send("MPI_Bsend_init", buf, count, type, dest, tag, comm, Form::kPersistent, request);
}

STRATA_PMPI(Bsend_init_c)
extern "C" int PMPI_Bsend_init_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                                 MPI_Request* request) {
  const runtime::CallScope call_scope;
  return buffered_send("MPI_Bsend_init_c", buf, count, type, dest, tag, comm, Form::kPersistent, request);
}
