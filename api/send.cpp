// Sends: blocking, nonblocking and persistent, in the standard, synchronous and ready modes (MPI-4.0 3.2-3.9), each
// with its large-count twin (MPI_Send_c, ...; MPI-4.0 2.5.8): both share one implementation taking an MPI_Count.
// Blocking calls keep their request on the stack: no allocation on the hot path.
#include "api/p2p.hpp"

using namespace strata;
using namespace strata::api;
using transport::SendMode;

namespace {

int blocking_send(const char* call, const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, SendMode mode) {
  Operation op;
  Check check(call, comm);
  if (!check_send(check, buf, count, type, dest, tag, comm, op).ok()) return check.raise();
  if (dest == MPI_PROC_NULL) return MPI_SUCCESS;
  ApiRequest r;
  prepare_send(r, op, mode, Lifetime::kCall);
  start(r);
  wait(r);
  return MPI_SUCCESS;
}

int nonblocking_send(const char* call, const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, SendMode mode, MPI_Request* request, bool persistent) {
  Operation op;
  Check check(call, comm);
  check_send(check, buf, count, type, dest, tag, comm, op).not_null(request, "request");
  if (!check.ok()) return check.raise();
  auto* r = new ApiRequest;
  prepare_send(*r, op, mode, Lifetime::kHandle);
  r->persistent = persistent;
  if (!persistent) start(*r);
  *request = add_request(r);
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Send)
extern "C" int PMPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return blocking_send("MPI_Send", buf, count, type, dest, tag, comm, SendMode::Standard);
}

STRATA_PMPI(Send_c)
extern "C" int PMPI_Send_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return blocking_send("MPI_Send_c", buf, count, type, dest, tag, comm, SendMode::Standard);
}

STRATA_PMPI(Ssend)
extern "C" int PMPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return blocking_send("MPI_Ssend", buf, count, type, dest, tag, comm, SendMode::Synchronous);
}

STRATA_PMPI(Ssend_c)
extern "C" int PMPI_Ssend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return blocking_send("MPI_Ssend_c", buf, count, type, dest, tag, comm, SendMode::Synchronous);
}

STRATA_PMPI(Rsend)
extern "C" int PMPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return blocking_send("MPI_Rsend", buf, count, type, dest, tag, comm, SendMode::Ready);
}

STRATA_PMPI(Rsend_c)
extern "C" int PMPI_Rsend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return blocking_send("MPI_Rsend_c", buf, count, type, dest, tag, comm, SendMode::Ready);
}

STRATA_PMPI(Isend)
extern "C" int PMPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Isend", buf, count, type, dest, tag, comm, SendMode::Standard, request, false);
}

STRATA_PMPI(Isend_c)
extern "C" int PMPI_Isend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                            MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Isend_c", buf, count, type, dest, tag, comm, SendMode::Standard, request, false);
}

STRATA_PMPI(Issend)
extern "C" int PMPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Issend", buf, count, type, dest, tag, comm, SendMode::Synchronous, request, false);
}

STRATA_PMPI(Issend_c)
extern "C" int PMPI_Issend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                             MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Issend_c", buf, count, type, dest, tag, comm, SendMode::Synchronous, request, false);
}

STRATA_PMPI(Irsend)
extern "C" int PMPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Irsend", buf, count, type, dest, tag, comm, SendMode::Ready, request, false);
}

STRATA_PMPI(Irsend_c)
extern "C" int PMPI_Irsend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                             MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Irsend_c", buf, count, type, dest, tag, comm, SendMode::Ready, request, false);
}

STRATA_PMPI(Send_init)
extern "C" int PMPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Send_init", buf, count, type, dest, tag, comm, SendMode::Standard, request, true);
}

STRATA_PMPI(Send_init_c)
extern "C" int PMPI_Send_init_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                                MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Send_init_c", buf, count, type, dest, tag, comm, SendMode::Standard, request, true);
}

STRATA_PMPI(Ssend_init)
extern "C" int PMPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                               MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Ssend_init", buf, count, type, dest, tag, comm, SendMode::Synchronous, request, true);
}

STRATA_PMPI(Ssend_init_c)
extern "C" int PMPI_Ssend_init_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                                 MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Ssend_init_c", buf, count, type, dest, tag, comm, SendMode::Synchronous, request, true);
}

STRATA_PMPI(Rsend_init)
extern "C" int PMPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                               MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Rsend_init", buf, count, type, dest, tag, comm, SendMode::Ready, request, true);
}

STRATA_PMPI(Rsend_init_c)
extern "C" int PMPI_Rsend_init_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                                 MPI_Request* request) {
  const runtime::CallScope call_scope;
  return nonblocking_send("MPI_Rsend_init_c", buf, count, type, dest, tag, comm, SendMode::Ready, request, true);
}
